//! Injected faults: answers the emulator gives instead of handling a request, so tests can
//! check how a client copes with errors, `Retry-After`, odd bodies and slow answers.
//!
//! A fault matches by method and by path pattern over percent-decoded segments (`*` is one
//! segment, a trailing `**` any rest), and can be limited to a number of requests or a
//! probability.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use futures_core::Stream;
use rand::Rng;
use serde_json::{json, Map, Value};

use crate::errors::{code, json_bytes, ApiError};
use crate::input::Fields;

/// One injected fault.
#[derive(Debug, Clone)]
pub struct Fault {
    id: u64,
    method: Option<String>,
    pattern: Vec<String>,
    status: u16,
    body: Option<String>,
    content_type: Option<String>,
    headers: Vec<(HeaderName, HeaderValue)>,
    remaining: Option<u64>,
    delay_ms: u64,
    probability: Option<f64>,
    reset: bool,
    spec: Value,
}

/// The answer chosen for a request that a fault matched.
#[derive(Debug, Clone)]
pub struct FaultReply {
    /// Extra delay before answering.
    pub delay_ms: u64,
    status: u16,
    body: Option<String>,
    content_type: Option<String>,
    headers: Vec<(HeaderName, HeaderValue)>,
    reset: bool,
}

/// A response body that fails at once, which makes the server drop the connection: the
/// client has sent its request but gets no usable answer, so it cannot know the outcome.
struct Broken;

impl Stream for Broken {
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready(Some(Err(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "injected connection reset",
        ))))
    }
}

impl FaultReply {
    /// The HTTP response. Without a body the standard error body is used, so a client sees an
    /// API-shaped error unless the test asked for something else.
    pub fn into_response(self) -> Response {
        if self.reset {
            return Response::new(Body::from_stream(Broken));
        }
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
        let (bytes, default_type) = match self.body {
            Some(text) => {
                let kind = if serde_json::from_str::<Value>(&text).is_ok() {
                    "application/json"
                } else {
                    "text/plain; charset=utf-8"
                };
                (text.into_bytes(), kind)
            }
            None => {
                let err = ApiError::new(
                    self.status,
                    code::INJECTED,
                    format!("Injected fault: status {}.", self.status),
                );
                (json_bytes(&err.body()), "application/json")
            }
        };
        let content_type = self.content_type.as_deref().unwrap_or(default_type);
        let mut resp = Response::new(Body::from(bytes));
        *resp.status_mut() = status;
        let headers = resp.headers_mut();
        if let Ok(v) = HeaderValue::from_str(content_type) {
            headers.insert(axum::http::header::CONTENT_TYPE, v);
        }
        for (name, value) in self.headers {
            headers.append(name, value);
        }
        resp
    }
}

impl Fault {
    /// Reads a fault from its JSON form (see SPEC.md).
    pub fn from_json(v: &Value, id: u64) -> Result<Fault, ApiError> {
        let Value::Object(map) = v else {
            return Err(ApiError::invalid("", "A fault must be a JSON object."));
        };
        let f = Fields::root(map);
        f.only(&[
            "method",
            "path",
            "status",
            "body",
            "content_type",
            "headers",
            "count",
            "delay_ms",
            "probability",
            "reset",
        ])?;
        let path = f.required_string("path")?;
        if !path.starts_with('/') {
            return Err(ApiError::invalid("path", "path must start with '/'."));
        }
        let pattern = split_decoded(path);
        if let Some(pos) = pattern.iter().position(|s| s == "**") {
            if pos + 1 != pattern.len() {
                return Err(ApiError::invalid("path", "'**' may only end the path."));
            }
        }
        let reset = f.boolean("reset")?.unwrap_or(false);
        let status = match f.uint("status")? {
            Some(s) if (100..=599).contains(&s) => s as u16,
            None if reset => 500,
            _ => {
                return Err(ApiError::invalid(
                    "status",
                    "status is required: an HTTP status from 100 to 599.",
                ))
            }
        };
        let headers = match f.object("headers")? {
            None => Vec::new(),
            Some(h) => parse_headers(h)?,
        };
        let probability = match f.get("probability") {
            None => None,
            Some(p) => match p.as_f64() {
                Some(p) if (0.0..=1.0).contains(&p) => Some(p),
                _ => {
                    return Err(ApiError::invalid(
                        "probability",
                        "probability must be a number from 0 to 1.",
                    ))
                }
            },
        };
        let remaining = f.uint("count")?;
        if remaining == Some(0) {
            return Err(ApiError::invalid("count", "count must be at least 1."));
        }
        Ok(Fault {
            id,
            method: f.string("method")?.map(str::to_ascii_uppercase),
            pattern,
            status,
            body: f.string("body")?.map(str::to_string),
            content_type: f.string("content_type")?.map(str::to_string),
            headers,
            remaining,
            delay_ms: f.uint("delay_ms")?.unwrap_or(0),
            probability,
            reset,
            spec: v.clone(),
        })
    }

    fn matches(&self, method: &str, segments: &[String]) -> bool {
        if self
            .method
            .as_deref()
            .is_some_and(|m| !m.eq_ignore_ascii_case(method))
        {
            return false;
        }
        let mut pat = self.pattern.iter();
        let mut segs = segments.iter();
        loop {
            match (pat.next(), segs.next()) {
                (Some(p), _) if p == "**" => return true,
                (None, None) => return true,
                (Some(p), Some(s)) if p == "*" || p == s => continue,
                _ => return false,
            }
        }
    }

    /// The fault as listed by `GET /_mock/faults`: what was injected, its id, and how many
    /// requests it still applies to.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("id".to_string(), json!(self.id));
        if let Value::Object(spec) = &self.spec {
            for (k, v) in spec {
                out.insert(k.clone(), v.clone());
            }
        }
        out.insert("remaining".to_string(), json!(self.remaining));
        Value::Object(out)
    }
}

fn parse_headers(h: &Map<String, Value>) -> Result<Vec<(HeaderName, HeaderValue)>, ApiError> {
    let mut out = Vec::new();
    for (name, value) in h {
        let field = format!("headers.{name}");
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => {
                return Err(ApiError::invalid(
                    &field,
                    format!("{field} must be a string."),
                ))
            }
        };
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| ApiError::invalid(&field, format!("'{name}' is not a header name.")))?;
        let value = HeaderValue::from_str(&text)
            .map_err(|_| ApiError::invalid(&field, format!("{field} is not a header value.")))?;
        out.push((name, value));
    }
    Ok(out)
}

/// Splits a raw path on `/` and percent-decodes each segment, so that an encoded `/` stays
/// inside its segment. The leading empty segment is dropped.
pub fn split_decoded(raw_path: &str) -> Vec<String> {
    raw_path
        .strip_prefix('/')
        .unwrap_or(raw_path)
        .split('/')
        .map(|s| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8_lossy()
                .into_owned()
        })
        .collect()
}

/// The active faults, first match wins.
#[derive(Debug, Default)]
pub struct Faults {
    list: Vec<Fault>,
    next_id: u64,
}

impl Faults {
    /// Adds a fault from its JSON form and returns how it is listed.
    pub fn add(&mut self, spec: &Value) -> Result<Value, ApiError> {
        self.next_id += 1;
        let fault = Fault::from_json(spec, self.next_id)?;
        let shown = fault.to_json();
        self.list.push(fault);
        Ok(shown)
    }

    /// Removes every fault.
    pub fn clear(&mut self) {
        self.list.clear();
    }

    /// Every fault, as listed by `GET /_mock/faults`.
    pub fn to_json(&self) -> Value {
        Value::Array(self.list.iter().map(Fault::to_json).collect())
    }

    /// The reply for a request if a fault applies to it, using up one of its count.
    pub fn take(&mut self, method: &str, segments: &[String]) -> Option<FaultReply> {
        let idx = self.list.iter().position(|f| {
            f.matches(method, segments)
                && f.probability
                    .is_none_or(|p| rand::rng().random::<f64>() < p)
        })?;
        let fault = &mut self.list[idx];
        let reply = FaultReply {
            delay_ms: fault.delay_ms,
            status: fault.status,
            body: fault.body.clone(),
            content_type: fault.content_type.clone(),
            headers: fault.headers.clone(),
            reset: fault.reset,
        };
        if let Some(n) = fault.remaining.as_mut() {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.list.remove(idx);
            }
        }
        Some(reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault(path: &str) -> Fault {
        Fault::from_json(&json!({"path": path, "status": 503}), 1).expect("valid fault")
    }

    #[test]
    fn patterns() {
        let segs = split_decoded("/ip_policies/ipp_1");
        assert!(fault("/ip_policies/*").matches("GET", &segs));
        assert!(fault("/ip_policies/**").matches("GET", &segs));
        assert!(fault("/**").matches("GET", &segs));
        assert!(!fault("/ip_policies").matches("GET", &segs));
        assert!(!fault("/ip_policies/*/x").matches("GET", &segs));
        let encoded = split_decoded("/ip_policies/..%2Ftunnel_sessions");
        assert!(fault("/ip_policies/*").matches("GET", &encoded));
    }
}
