//! Injected faults: answers the emulator gives instead of handling a request, so tests can
//! check how a client copes with errors, `Retry-After`, odd bodies and slow answers.
//!
//! A fault matches by method and by path pattern over percent-decoded segments (`*` is one
//! segment, a trailing `**` any rest), and can be limited to a number of requests or a
//! probability (drawn from a seeded generator when the fault has a `seed`, so a run can be
//! repeated). It answers instead of the handler, or — with `after` — once the handler has
//! acted, replacing its answer: the server did the work but the client never learns it.
//! The answer can be an error, a broken body (`reply::BodyKind`) or no answer at all.

mod reply;

use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

use axum::http::{HeaderName, HeaderValue};
use axum::response::Response;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Map, Value};

use crate::api_error::ApiError;
use crate::clock::Clock;
use crate::input::Fields;
use crate::sync::lock;

pub use reply::{answered_status, BodyKind, FaultReply};

/// One injected fault.
#[derive(Debug, Clone)]
pub struct Fault {
    id: u64,
    method: Option<String>,
    pattern: Vec<String>,
    status: u16,
    body: Option<String>,
    body_kind: Option<BodyKind>,
    content_type: Option<String>,
    headers: Vec<(HeaderName, HeaderValue)>,
    remaining: Option<u64>,
    delay_ms: u64,
    probability: Option<f64>,
    /// The fault's own generator when it was given a `seed`, so its choices repeat run after
    /// run; otherwise the thread's generator.
    rng: Option<StdRng>,
    reset: bool,
    after: bool,
    spec: Value,
}

/// How a fault answers: when (`after`), and with what (nothing, a body, a broken body).
struct Answer {
    after: bool,
    reset: bool,
    body: Option<String>,
    body_kind: Option<BodyKind>,
}

impl Answer {
    /// Reads `after`, `reset`/`reset_before`, `body`, `body_kind` and `size`, refusing
    /// combinations that contradict each other.
    fn read(f: &Fields<'_>) -> Result<Answer, ApiError> {
        let after = f.boolean("after")?.unwrap_or(false);
        let reset_before = f.boolean("reset_before")?.unwrap_or(false);
        if reset_before && after {
            return Err(ApiError::invalid(
                "reset_before",
                "reset_before drops the connection before handling, so it cannot go with after: use reset with after.",
            ));
        }
        let reset = f.boolean("reset")?.unwrap_or(false) || reset_before;
        let body = f.string("body")?.map(str::to_string);
        let size = f.uint("size")?;
        let body_kind = match f.string("body_kind")? {
            Some(name) => Some(BodyKind::parse(name, size)?),
            None if size.is_some() => {
                return Err(ApiError::invalid(
                    "size",
                    "size only applies to body_kind \"huge\".",
                ))
            }
            None => None,
        };
        if body_kind.is_some() && body.is_some() {
            return Err(ApiError::invalid(
                "body_kind",
                "Give either body or body_kind, not both.",
            ));
        }
        if body_kind.is_some() && reset {
            return Err(ApiError::invalid(
                "body_kind",
                "A reset sends no answer, so it has no body_kind.",
            ));
        }
        Ok(Answer {
            after,
            reset,
            body,
            body_kind,
        })
    }
}

impl Fault {
    /// Reads a fault from its JSON form (see SPEC.md).
    pub fn from_json(v: &Value, id: u64) -> Result<Fault, ApiError> {
        let f = Fields::control(
            v,
            "A fault",
            &[
                "method",
                "path",
                "status",
                "body",
                "content_type",
                "headers",
                "count",
                "delay_ms",
                "probability",
                "seed",
                "reset",
                "reset_before",
                "after",
                "body_kind",
                "size",
            ],
        )?;
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
        let Answer {
            after,
            reset,
            body,
            body_kind,
        } = Answer::read(&f)?;
        let status = match f.uint("status")? {
            Some(s) if (100..=599).contains(&s) => s as u16,
            None if reset => 500,
            None if body_kind.is_some() => 200,
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
        let rng = f.uint("seed")?.map(StdRng::seed_from_u64);
        let remaining = f.uint("count")?;
        if remaining == Some(0) {
            return Err(ApiError::invalid("count", "count must be at least 1."));
        }
        Ok(Fault {
            id,
            method: f.string("method")?.map(str::to_ascii_uppercase),
            pattern,
            status,
            body,
            body_kind,
            content_type: f.string("content_type")?.map(str::to_string),
            headers,
            remaining,
            delay_ms: f.uint("delay_ms")?.unwrap_or(0),
            probability,
            rng,
            reset,
            after,
            spec: v.clone(),
        })
    }

    /// Whether the fault applies this time: always without a probability, else a draw from
    /// its own seeded generator or the thread's.
    fn roll(&mut self) -> bool {
        let Some(p) = self.probability else {
            return true;
        };
        let draw: f64 = match self.rng.as_mut() {
            Some(rng) => rng.random(),
            None => rand::rng().random(),
        };
        draw < p
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

/// Answers a request with `answer`, unless one of `faults` applies to it: then the fault's
/// reply instead (after waiting its delay on `clock`), or — for an `after` fault — once
/// `answer` has acted and its reply has been thrown away. Both listeners answer through here.
pub async fn answer_or_fault<F, Fut>(
    faults: &Mutex<Faults>,
    clock: &Clock,
    method: &str,
    segments: &[String],
    answer: F,
) -> Response
where
    F: Fn() -> Fut,
    Fut: Future<Output = Response>,
{
    let fault = lock(faults).take(method, segments);
    let Some(fault) = fault else {
        return answer().await;
    };
    if fault.after {
        // The server acts; the answer is then lost or garbled on the way back.
        drop(answer().await);
    }
    if fault.delay_ms > 0 {
        clock.sleep(Duration::from_millis(fault.delay_ms)).await;
    }
    fault.into_response()
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
        let idx = self
            .list
            .iter_mut()
            .position(|f| f.matches(method, segments) && f.roll())?;
        let fault = &mut self.list[idx];
        let reply = FaultReply {
            delay_ms: fault.delay_ms,
            after: fault.after,
            status: fault.status,
            body: fault.body.clone(),
            body_kind: fault.body_kind,
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
