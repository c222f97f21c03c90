//! Replaying a captured request (`POST /api/requests/http`): its raw bytes are sent again to
//! the upstream of a tunnel (the one named in the body, else the one it was captured on) and
//! the exchange is captured anew with `remote_addr: "replayed"`.
//!
//! As on the real agent the call waits for the upstream's answer before its 204; an upstream
//! that cannot be reached is captured as the agent's 502 page, one that never answers leaves
//! the new capture pending. Legs that do not inspect (tcp, tls, `inspect: false`) still get
//! the bytes, but nothing is captured.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::agent_error::AgentError;
use super::decode::go_kind;
use super::http1::ResponseHead;
use super::proxy::{captured_response, nanos, replay_exchange, ReplayResult};
use super::state::Agent;
use super::tunnels::Target;
use crate::timestamp;

/// The longest a replay waits for the upstream.
const REPLAY_TIMEOUT: Duration = Duration::from_secs(60);

/// The replay body, decoded as the agent's `playRequestInput`.
struct PlayRequest {
    id: String,
    tunnel_name: String,
}

fn decode(value: &Value) -> Result<PlayRequest, AgentError> {
    let mut out = PlayRequest {
        id: String::new(),
        tunnel_name: String::new(),
    };
    let map = match value {
        Value::Null => return Ok(out),
        Value::Object(m) => m,
        other => {
            return Err(AgentError::deserialize(format!(
                "json: cannot unmarshal {} into Go value of type web.playRequestInput",
                go_kind(other)
            )))
        }
    };
    for (key, v) in map {
        let slot = match key.as_str() {
            "id" => &mut out.id,
            "tunnel_name" => &mut out.tunnel_name,
            _ => continue,
        };
        match v {
            Value::String(s) => *slot = s.clone(),
            Value::Null => {}
            other => {
                return Err(AgentError::deserialize(format!(
                    "json: cannot unmarshal {} into Go struct field playRequestInput.{key} of type string",
                    go_kind(other)
                )))
            }
        }
    }
    Ok(out)
}

/// Handles a decoded replay body.
pub async fn replay(agent: &Agent, body: &Value) -> Result<(), AgentError> {
    let play = decode(body)?;
    let capture = agent
        .captures
        .get(&play.id)
        .ok_or_else(|| AgentError::entry_not_found(&play.id))?;
    let tunnel = if play.tunnel_name.is_empty() {
        capture.tunnel_name.clone()
    } else {
        play.tunnel_name
    };
    let target = Target::of(&agent.tunnels(), &tunnel)
        .ok_or_else(|| AgentError::tunnel_not_found(&tunnel))?;
    let ctx = target.ctx;
    let started = Instant::now();
    let new_id = ctx.inspect.then(|| {
        let mut again = (*capture).clone();
        again.tunnel_name = ctx.name.clone();
        again.remote_addr = "replayed".to_string();
        again.start = timestamp::now();
        again.duration_ns = 0;
        again.response = None;
        agent.captures.insert(again)
    });
    // A replay counts in the target's metrics like a visitor's connection and request.
    ctx.metrics.conn_opened();
    let result = tokio::time::timeout(
        REPLAY_TIMEOUT,
        replay_exchange(&ctx, &capture.request.raw, &capture.request.method),
    )
    .await
    .unwrap_or(ReplayResult::NoAnswer);
    ctx.metrics.conn_closed(started.elapsed());
    let (head, raw) = match result {
        ReplayResult::Answered(head, raw) => (head, raw),
        ReplayResult::Unreachable(page) => match ResponseHead::parse(&page) {
            Ok(head) => (head, page),
            Err(_) => return Ok(()),
        },
        ReplayResult::NoAnswer => return Ok(()),
    };
    if ctx.kind.is_http() {
        ctx.metrics.request_done(started.elapsed());
    }
    if let Some(id) = new_id {
        agent
            .captures
            .complete(&id, captured_response(&head, raw), nanos(started.elapsed()));
    }
    Ok(())
}
