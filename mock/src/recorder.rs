//! The log of API requests as received, so tests can assert exactly what a client sent
//! (method, raw path, query, headers, body) rather than what the emulator made of it, when it
//! arrived (`at_ms`) and how it was answered (`status`).
//!
//! An entry is appended when a request arrives and its status filled in once the answer is
//! chosen, so the log stays in order of arrival even when answers finish out of order.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use axum::http::HeaderMap;
use serde_json::{json, Map, Value};

use crate::clock::Clock;
use crate::sync::lock;

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
    /// When the request arrived: milliseconds since the emulator started, on a monotonic
    /// clock (the management and agent logs share the same origin). Never decreases along the
    /// log.
    pub at_ms: u64,
    /// The status the emulator answered with; 0 when the connection was dropped without an
    /// answer (an injected reset), or while the answer has not been chosen yet.
    pub status: u16,
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
            "at_ms": self.at_ms,
            "status": self.status,
        })
    }
}

/// The most requests kept: a long-running emulator (a demo, a benchmark) must not grow
/// without bound, and no test sends this many.
pub const MAX_RECORDED: usize = 100_000;

/// Identifies a recorded request, to fill in its status once answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ticket(u64);

/// The request log; its own lock so recording never waits on resource handlers.
#[derive(Debug)]
pub struct Recorder {
    clock: Arc<Clock>,
    log: Mutex<Log>,
}

/// The entries and the sequence number of the oldest one, so a [`Ticket`] finds its entry in
/// constant time even after older entries were evicted or the log cleared.
#[derive(Debug, Default)]
struct Log {
    entries: VecDeque<RecordedRequest>,
    first_seq: u64,
}

impl Log {
    fn next_seq(&self) -> u64 {
        self.first_seq + self.entries.len() as u64
    }
}

impl Recorder {
    /// An empty log whose `at_ms` are read on `clock` (from the emulator's start).
    pub fn new(clock: Arc<Clock>) -> Self {
        Recorder {
            clock,
            log: Mutex::new(Log::default()),
        }
    }

    /// Appends a request as it arrived (status 0 until [`Recorder::answered`]), forgetting
    /// the oldest beyond [`MAX_RECORDED`]. The time is taken under the log's lock, so `at_ms`
    /// never decreases along the log.
    pub fn record(
        &self,
        method: &str,
        path: &str,
        query: Option<&str>,
        headers: &HeaderMap,
        body: &[u8],
    ) -> Ticket {
        let mut req = RecordedRequest {
            method: method.to_string(),
            path: path.to_string(),
            query: query.map(str::to_string),
            headers: headers
                .iter()
                .map(|(n, v)| {
                    (
                        n.as_str().to_ascii_lowercase(),
                        String::from_utf8_lossy(v.as_bytes()).into_owned(),
                    )
                })
                .collect(),
            body: body.to_vec(),
            at_ms: 0,
            status: 0,
        };
        let mut log = lock(&self.log);
        req.at_ms = self.clock.elapsed_ms();
        if log.entries.len() >= MAX_RECORDED {
            log.entries.pop_front();
            log.first_seq += 1;
        }
        let ticket = Ticket(log.next_seq());
        log.entries.push_back(req);
        ticket
    }

    /// Sets the status a recorded request was answered with (0: no answer). Does nothing when
    /// the entry has been evicted or the log cleared since.
    pub fn answered(&self, ticket: Ticket, status: u16) {
        let mut log = lock(&self.log);
        let Some(idx) = ticket.0.checked_sub(log.first_seq) else {
            return;
        };
        let entry = usize::try_from(idx)
            .ok()
            .and_then(|i| log.entries.get_mut(i));
        if let Some(entry) = entry {
            entry.status = status;
        }
    }

    /// A copy of the log, oldest first.
    pub fn snapshot(&self) -> Vec<RecordedRequest> {
        lock(&self.log).entries.iter().cloned().collect()
    }

    /// The log as the control surface shows it: an array, oldest first.
    pub fn to_json(&self) -> Value {
        Value::Array(
            self.snapshot()
                .iter()
                .map(RecordedRequest::to_json)
                .collect(),
        )
    }

    /// Empties the log.
    pub fn clear(&self) {
        let mut log = lock(&self.log);
        log.first_seq = log.next_seq();
        log.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tickets_survive_eviction_and_clearing() {
        let rec = Recorder::new(Arc::default());
        let h = HeaderMap::new();
        let a = rec.record("GET", "/a", None, &h, b"");
        let b = rec.record("GET", "/b", None, &h, b"");
        rec.answered(b, 204);
        rec.answered(a, 200);
        let log = rec.snapshot();
        assert_eq!((log[0].status, log[1].status), (200, 204));
        assert!(log[0].at_ms <= log[1].at_ms);
        rec.clear();
        let c = rec.record("GET", "/c", None, &h, b"");
        rec.answered(a, 500);
        rec.answered(c, 201);
        let log = rec.snapshot();
        assert_eq!(log.len(), 1);
        assert_eq!((log[0].path.as_str(), log[0].status), ("/c", 201));
    }
}
