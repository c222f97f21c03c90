//! The log of API requests as received, so tests can assert exactly what a client sent
//! (method, raw path, query, headers, body) rather than what the emulator made of it.

use std::collections::VecDeque;
use std::sync::Mutex;

use serde_json::{json, Map, Value};

use crate::store::lock;

/// One API request as it arrived, recorded before authentication or routing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedRequest {
    /// HTTP method, upper case.
    pub method: String,
    /// The path exactly as received, still percent-encoded.
    pub path: String,
    /// The raw query string (without `?`), if there was one.
    pub query: Option<String>,
    /// Headers in the order received; names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body bytes (empty when there was none).
    pub body: Vec<u8>,
}

impl RecordedRequest {
    /// The first value of a header; `name` is matched case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON, or `None` when it is empty or not JSON.
    pub fn body_json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }

    /// The form `GET /_mock/requests` shows: headers as an object (repeated names joined by
    /// ", "), the body as JSON when it parses, as text when not, `null` when empty.
    pub fn to_json(&self) -> Value {
        let mut headers = Map::new();
        for (name, value) in &self.headers {
            match headers.get_mut(name) {
                Some(Value::String(prev)) => {
                    prev.push_str(", ");
                    prev.push_str(value);
                }
                _ => {
                    headers.insert(name.clone(), Value::String(value.clone()));
                }
            }
        }
        let body = if self.body.is_empty() {
            Value::Null
        } else {
            self.body_json()
                .unwrap_or_else(|| Value::String(String::from_utf8_lossy(&self.body).into_owned()))
        };
        json!({
            "method": self.method,
            "path": self.path,
            "query": self.query,
            "headers": headers,
            "body": body,
        })
    }
}

/// The most requests kept: a long-running emulator (a demo, a benchmark) must not grow
/// without bound, and no test sends this many.
pub const MAX_RECORDED: usize = 100_000;

/// The request log; its own lock so recording never waits on resource handlers.
#[derive(Debug, Default)]
pub struct Recorder {
    log: Mutex<VecDeque<RecordedRequest>>,
}

impl Recorder {
    /// Appends a request, forgetting the oldest beyond [`MAX_RECORDED`].
    pub fn record(&self, req: RecordedRequest) {
        let mut log = lock(&self.log);
        if log.len() >= MAX_RECORDED {
            log.pop_front();
        }
        log.push_back(req);
    }

    /// A copy of the log, oldest first.
    pub fn snapshot(&self) -> Vec<RecordedRequest> {
        lock(&self.log).iter().cloned().collect()
    }

    /// Empties the log.
    pub fn clear(&self) {
        lock(&self.log).clear();
    }
}
