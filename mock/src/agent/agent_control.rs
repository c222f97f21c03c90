//! The agent's part of the control surface (`/_mock/agent/...` on the management port): the
//! log of agent API requests, the edges to visit tunnels through, and captures seeded
//! directly, for tests that need 5 MB or binary bodies and for benchmarks that need a
//! thousand of them without sending a thousand requests through a tunnel.

use base64::Engine;
use bytes::Bytes;
use serde_json::{Map, Value};

use super::captures::{Capture, CapturedRequest, CapturedResponse};
use super::http1::{BadMessage, RequestHead, ResponseHead};
use super::state::Agent;
use crate::api_error::ApiError;
use crate::input::Fields;

/// The most captures one seed item may ask for with `repeat`.
const MAX_REPEAT: u64 = 100_000;

/// What a `/_mock/agent/...` request produced: JSON, or nothing (204).
pub type ControlResult = Result<Option<Value>, ApiError>;

/// Routes `/_mock/agent/<rest>`; `None` when there is no such control path.
pub fn handle(agent: &Agent, method: &str, rest: &[&str], body: &Value) -> Option<ControlResult> {
    Some(match (method, rest) {
        ("GET", ["requests-log"]) => Ok(Some(agent.recorder.to_json())),
        ("DELETE", ["requests-log"]) => {
            agent.recorder.clear();
            Ok(None)
        }
        ("GET", ["edges"]) => Ok(Some(edges(agent))),
        ("POST", ["captures"]) => seed_captures(agent, body).map(Some),
        ("DELETE", ["captures"]) => {
            agent.captures.clear();
            Ok(None)
        }
        (_, [name]) => match allowed(name) {
            Some(methods) => Err(ApiError::method_not_allowed(method, methods)),
            None => return None,
        },
        _ => return None,
    })
}

fn allowed(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "requests-log" => &["GET", "DELETE"],
        "captures" => &["POST", "DELETE"],
        "edges" => &["GET"],
        _ => return None,
    })
}

/// `[{name, proto, public_url, edge_port}]`, one per leg, in creation order.
pub fn edges(agent: &Agent) -> Value {
    Value::Array(
        agent
            .tunnels()
            .in_order()
            .iter()
            .map(|l| l.edge_json())
            .collect(),
    )
}

/// Seeds captures from `[{...}]` (or `{"captures": [...]}`); returns their ids, oldest first.
pub fn seed_captures(agent: &Agent, spec: &Value) -> Result<Value, ApiError> {
    let items = match spec {
        Value::Array(items) => items,
        Value::Object(m) if m.contains_key("captures") => match m.get("captures") {
            Some(Value::Array(items)) => items,
            _ => return Err(ApiError::invalid("captures", "captures must be an array.")),
        },
        _ => {
            return Err(ApiError::invalid(
                "",
                "The body must be an array of captures.",
            ))
        }
    };
    // Validate everything first, so an invalid item seeds nothing.
    let mut built = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Value::Object(map) = item else {
            return Err(ApiError::invalid(
                &format!("[{i}]"),
                "Each capture must be an object.",
            ));
        };
        built.push(build(map, i)?);
    }
    let mut ids = Vec::new();
    for (capture, repeat) in built {
        for _ in 0..repeat {
            ids.push(Value::from(agent.captures.insert(capture.clone())));
        }
    }
    Ok(Value::Array(ids))
}

fn body_of(f: &Fields<'_>, prefix: &str) -> Result<Vec<u8>, ApiError> {
    let b64_key = format!("{prefix}body_base64");
    let text_key = format!("{prefix}body");
    let size_key = format!("{prefix}body_size");
    if let Some(b64) = f.string(&b64_key)? {
        return base64::engine::general_purpose::STANDARD
            .decode(b64)
            .map_err(|e| ApiError::invalid(&f.path(&b64_key), format!("not base64: {e}")));
    }
    if let Some(text) = f.string(&text_key)? {
        return Ok(text.as_bytes().to_vec());
    }
    if let Some(n) = f.uint(&size_key)? {
        let n = usize::try_from(n)
            .unwrap_or(usize::MAX)
            .min(512 * 1024 * 1024);
        // Printable and varied, so it looks like a payload and compresses like one.
        return Ok((0..n)
            .map(|i| b"abcdefghijklmnopqrstuvwxyz0123456789"[i % 36])
            .collect());
    }
    Ok(Vec::new())
}

/// Header lines from `{name: "v"}` or `{name: ["v1", "v2"]}`.
fn header_lines(f: &Fields<'_>, key: &str) -> Result<Vec<(String, String)>, ApiError> {
    let mut out = Vec::new();
    let Some(map) = f.object(key)? else {
        return Ok(out);
    };
    for (name, v) in map {
        match v {
            Value::String(s) => out.push((name.clone(), s.clone())),
            Value::Array(vs) => {
                for v in vs {
                    let Value::String(s) = v else {
                        return Err(ApiError::invalid(
                            &f.path(&format!("{key}.{name}")),
                            "Header values must be strings.",
                        ));
                    };
                    out.push((name.clone(), s.clone()));
                }
            }
            _ => {
                return Err(ApiError::invalid(
                    &f.path(&format!("{key}.{name}")),
                    "Header values must be strings or lists of strings.",
                ))
            }
        }
    }
    Ok(out)
}

fn message(first_line: &str, headers: &[(String, String)], body: &[u8]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(first_line.len() + 64 * headers.len() + body.len() + 32);
    raw.extend_from_slice(first_line.as_bytes());
    raw.extend_from_slice(b"\r\n");
    let has = |n: &str| headers.iter().any(|(h, _)| h.eq_ignore_ascii_case(n));
    for (n, v) in headers {
        raw.extend_from_slice(format!("{n}: {v}\r\n").as_bytes());
    }
    if !body.is_empty() && !has("content-length") && !has("transfer-encoding") {
        raw.extend_from_slice(format!("Content-Length: {}\r\n", body.len()).as_bytes());
    }
    raw.extend_from_slice(b"\r\n");
    raw.extend_from_slice(body);
    raw
}

/// The raw message made of these parts, and its head as `parse` reads it; `what` (request or
/// response) names it in the error.
fn parsed<H>(
    prefix: &str,
    what: &str,
    first_line: &str,
    headers: &[(String, String)],
    body: &[u8],
    parse: fn(&[u8]) -> Result<H, BadMessage>,
) -> Result<(H, Vec<u8>), ApiError> {
    let raw = message(first_line, headers, body);
    let head_len = raw.len() - body.len();
    let head = parse(&raw[..head_len]).map_err(|e| {
        ApiError::invalid(
            prefix,
            format!("The {what} does not parse as HTTP: {}", e.0),
        )
    })?;
    Ok((head, raw))
}

/// The reason phrase Go would write for a status code.
fn reason(code: u16) -> &'static str {
    axum::http::StatusCode::from_u16(code)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("")
}

fn build(map: &Map<String, Value>, index: usize) -> Result<(Capture, u64), ApiError> {
    let prefix = format!("[{index}]");
    let f = Fields::nested(map, &prefix);
    f.only(&[
        "tunnel_name",
        "remote_addr",
        "start",
        "duration",
        "method",
        "uri",
        "proto",
        "headers",
        "body",
        "body_base64",
        "body_size",
        "status_code",
        "response_headers",
        "response_body",
        "response_body_base64",
        "response_body_size",
        "pending",
        "repeat",
    ])?;
    let method = f.string("method")?.unwrap_or("GET");
    let uri = f.string("uri")?.unwrap_or("/");
    let proto = f.string("proto")?.unwrap_or("HTTP/1.1");
    let headers = header_lines(&f, "headers")?;
    let body = body_of(&f, "")?;
    let line = format!("{method} {uri} {proto}");
    let (head, raw) = parsed(
        &prefix,
        "request",
        &line,
        &headers,
        &body,
        RequestHead::parse,
    )?;
    let status_code = f.uint("status_code")?.unwrap_or(200);
    let status_code = u16::try_from(status_code)
        .ok()
        .filter(|c| (100..1000).contains(c))
        .ok_or_else(|| {
            ApiError::invalid(&f.path("status_code"), "status_code must be 100..=999.")
        })?;
    let pending = f.boolean("pending")?.unwrap_or(false);
    let response = if pending {
        None
    } else {
        let headers = header_lines(&f, "response_headers")?;
        let body = body_of(&f, "response_")?;
        let line = format!("HTTP/1.1 {status_code} {}", reason(status_code));
        let (head, raw) = parsed(
            &prefix,
            "response",
            line.trim_end(),
            &headers,
            &body,
            ResponseHead::parse,
        )?;
        Some(CapturedResponse {
            status: head.status.clone(),
            status_code,
            proto: head.proto(),
            headers: head.shown_headers(),
            raw: Bytes::from(raw),
        })
    };
    let repeat = f.uint("repeat")?.unwrap_or(1);
    if repeat == 0 || repeat > MAX_REPEAT {
        return Err(ApiError::invalid(
            &f.path("repeat"),
            format!("repeat must be 1..={MAX_REPEAT}."),
        ));
    }
    let capture = Capture {
        id: String::new(),
        tunnel_name: f.string("tunnel_name")?.unwrap_or("seeded").to_string(),
        remote_addr: f.string("remote_addr")?.unwrap_or("127.0.0.1").to_string(),
        start: f
            .string("start")?
            .map_or_else(crate::timestamp::now, str::to_string),
        duration_ns: if pending {
            0
        } else {
            f.uint("duration")?.unwrap_or(1_000_000)
        },
        request: CapturedRequest {
            method: head.method.clone(),
            proto: head.proto(),
            headers: head.shown_headers(),
            uri: head.target.clone(),
            raw: Bytes::from(raw),
        },
        response,
    };
    Ok((capture, repeat))
}
