//! The control surface under `/_mock/`: what tests use to arrange state (seed, reset, config),
//! to misbehave on purpose (faults, rate limit), and to observe (requests, stats, state).
//!
//! It needs no authentication and is never recorded, so that arranging a test leaves no trace
//! in what the test asserts about the client. The same operations are offered as functions
//! for the in-process library API.

use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use crate::api_error::json_response;
use crate::api_error::{code, ApiError};
use crate::faults::split_decoded;
use crate::input::Fields;
use crate::mgmt::{self, request::Ctx};
use crate::ratelimit::RateLimit;
use crate::seed;
use crate::shared::Shared;
use crate::sync::lock;

/// Handles a request whose path starts with `/_mock`.
pub fn handle(shared: &Shared, method: &str, raw_path: &str, body: &[u8]) -> Response {
    let segments = split_decoded(raw_path);
    let route: Vec<&str> = segments.iter().skip(1).map(String::as_str).collect();
    let result = match (method, route.as_slice()) {
        ("POST", ["reset"]) => {
            reset(shared);
            Ok(None)
        }
        ("POST", ["seed"]) => parse(body).and_then(|spec| seed(shared, &spec)).map(Some),
        ("GET", ["config"]) => Ok(Some(config_json(shared))),
        ("POST", ["config"]) => parse(body)
            .and_then(|cfg| configure(shared, &cfg))
            .map(|_| Some(config_json(shared))),
        ("GET", ["requests"]) => Ok(Some(shared.recorder.to_json())),
        ("DELETE", ["requests"]) => {
            shared.recorder.clear();
            Ok(None)
        }
        ("GET", ["faults"]) => Ok(Some(lock(&shared.faults).to_json())),
        ("POST", ["faults"]) => parse(body).and_then(|f| inject(shared, &f)).map(Some),
        ("DELETE", ["faults"]) => {
            lock(&shared.faults).clear();
            Ok(None)
        }
        ("GET", ["state"]) => Ok(Some(state(shared))),
        ("GET", ["clock"]) => Ok(Some(shared.clock.to_json())),
        ("POST", ["clock"]) => parse(body).and_then(|c| clock(shared, &c)).map(Some),
        ("GET", ["stats"]) => Ok(Some(shared.stats.to_json())),
        ("DELETE", ["stats"]) => {
            shared.stats.clear();
            Ok(None)
        }
        (_, ["agent", rest @ ..]) => match parse(body) {
            Err(e) => Err(e),
            Ok(spec) => crate::agent::agent_control::handle(&shared.agent, method, rest, &spec)
                .unwrap_or_else(|| Err(ApiError::no_route(raw_path))),
        },
        (_, [name]) => match allowed(name) {
            Some(methods) => Err(ApiError::method_not_allowed(method, methods)),
            None => Err(ApiError::no_route(raw_path)),
        },
        _ => Err(ApiError::no_route(raw_path)),
    };
    match result {
        Ok(Some(v)) => json_response(200, &v),
        Ok(None) => axum::http::StatusCode::NO_CONTENT.into_response(),
        Err(e) => e.into_response(),
    }
}

fn allowed(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "reset" | "seed" => &["POST"],
        "config" => &["GET", "POST"],
        "requests" => &["GET", "DELETE"],
        "faults" => &["GET", "POST", "DELETE"],
        "state" => &["GET"],
        "clock" => &["GET", "POST"],
        "stats" => &["GET", "DELETE"],
        _ => return None,
    })
}

/// Control bodies are read leniently (any content type; empty is `{}`): they come from tests
/// and scripts, not from the client under test.
fn parse(body: &[u8]) -> Result<Value, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Object(Map::new()));
    }
    serde_json::from_slice(body).map_err(|e| {
        ApiError::new(
            400,
            code::BAD_JSON,
            format!("The control request body is not valid JSON: {e}."),
        )
    })
}

/// Empties all resources, the request log, the stats, the rate limit's window and the
/// faults, stops every agent tunnel and forgets the captures and the agent's request log;
/// settings stay.
pub fn reset(shared: &Shared) {
    lock(&shared.store).clear();
    shared.recorder.clear();
    shared.stats.clear();
    lock(&shared.rate_window).clear();
    lock(&shared.faults).clear();
    shared.agent.reset();
}

/// Adds the resources a seed spec describes; returns their ids by collection.
pub fn seed(shared: &Shared, spec: &Value) -> Result<Value, ApiError> {
    let mut store = lock(&shared.store);
    seed::apply(&mut store, spec)
}

/// Applies the settings present in `cfg`.
pub fn configure(shared: &Shared, cfg: &Value) -> Result<(), ApiError> {
    let f = Fields::control(
        cfg,
        "The config",
        &[
            "page_size",
            "restart_delay_ms",
            "latency_ms",
            "extra_fields",
            "next_page_base",
            "agent_ready",
            "inspect_db_size",
            "pending_response",
            "tunnel_start_error",
            "rate_limit",
        ],
    )?;
    let page_size = f.uint("page_size")?;
    if page_size == Some(0) {
        return Err(ApiError::invalid(
            "page_size",
            "page_size must be at least 1.",
        ));
    }
    let restart_delay_ms = f.uint("restart_delay_ms")?;
    let latency_ms = f.uint("latency_ms")?;
    let extra_fields = f.boolean("extra_fields")?;
    let next_page_base = f.string("next_page_base")?;
    let agent_ready = f.boolean("agent_ready")?;
    let inspect_db_size = f.uint("inspect_db_size")?;
    let pending_null = match f.string("pending_response")? {
        None => None,
        Some("object") => Some(false),
        Some("null") => Some(true),
        Some(_) => return Err(ApiError::invalid(
            "pending_response",
            "pending_response must be \"object\" (the real agent) or \"null\" (the API reference).",
        )),
    };
    let tunnel_start_error = f.string("tunnel_start_error")?;
    let rate_limit = f.get("rate_limit").map(RateLimit::from_json).transpose()?;
    if let Some(b) = agent_ready {
        shared.agent.set_ready(b);
    }
    if let Some(n) = inspect_db_size {
        shared.agent.captures.set_limit(n);
    }
    if let Some(b) = pending_null {
        shared.agent.captures.set_pending_null(b);
    }
    // Present as null means "start tunnels normally again".
    if f.has("tunnel_start_error") {
        shared
            .agent
            .set_start_error(tunnel_start_error.map(str::to_string));
    }
    let mut c = lock(&shared.config);
    if let Some(n) = page_size {
        c.page_size = usize::try_from(n).unwrap_or(usize::MAX);
    }
    if let Some(n) = restart_delay_ms {
        c.restart_delay_ms = n;
    }
    if let Some(n) = latency_ms {
        c.latency_ms = n;
    }
    if let Some(b) = extra_fields {
        c.extra_fields = b;
    }
    // Present as null means "back to the emulator's own URL".
    if f.has("next_page_base") {
        c.next_page_base = next_page_base.map(|s| s.trim_end_matches('/').to_string());
    }
    // Present as null means "no limit"; any change starts with an empty window.
    if f.has("rate_limit") {
        c.rate_limit = rate_limit;
        lock(&shared.rate_window).clear();
    }
    Ok(())
}

fn config_json(shared: &Shared) -> Value {
    let c = shared.config();
    let mut out = json!({
        "page_size": c.page_size,
        "restart_delay_ms": c.restart_delay_ms,
        "latency_ms": c.latency_ms,
        "extra_fields": c.extra_fields,
        "next_page_base": c.next_page_base,
        "rate_limit": c.rate_limit.map(RateLimit::to_json),
    });
    if let (Value::Object(out), Value::Object(agent)) = (&mut out, shared.agent.settings_json()) {
        out.extend(agent);
    }
    out
}

/// Freezes or thaws the emulator's clock (`frozen`), then moves it forward (`advance_ms`);
/// returns the clock as `GET /_mock/clock` shows it.
pub fn clock(shared: &Shared, spec: &Value) -> Result<Value, ApiError> {
    let f = Fields::control(spec, "The clock", &["frozen", "advance_ms"])?;
    let frozen = f.boolean("frozen")?;
    let advance_ms = f.uint("advance_ms")?;
    if let Some(b) = frozen {
        shared.clock.freeze(b);
    }
    if let Some(ms) = advance_ms {
        shared.clock.advance(std::time::Duration::from_millis(ms));
    }
    Ok(shared.clock.to_json())
}

/// Adds a fault; returns it as listed by `GET /_mock/faults`.
pub fn inject(shared: &Shared, fault: &Value) -> Result<Value, ApiError> {
    lock(&shared.faults).add(fault)
}

/// Every resource, by collection, as the API renders it.
pub fn state(shared: &Shared) -> Value {
    let cfg = shared.config();
    let ctx = Ctx::new(&shared.base_url, &cfg);
    let mut store = lock(&shared.store);
    store.settle(shared.clock.now());
    mgmt::render_state(&store, &ctx)
}
