//! Captured HTTP exchanges: the store behind `/api/requests/http`, its eviction by
//! `inspect_db_size`, and their JSON.
//!
//! Listing must stay fast with a thousand 64 KB captures, so each completed capture is
//! rendered to JSON once, when it completes, and kept as shared bytes: a list answer is then
//! those pieces streamed one after the other, with no re-encoding and no copy. Pending
//! captures (no response yet) are rendered when listed, since how they look is a setting.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use base64::Engine;
use bytes::Bytes;

use super::encode::push_str;
use super::ksuid::KsuidGen;
use crate::sync::lock;

/// The request half of a capture.
#[derive(Debug, Clone)]
pub struct CapturedRequest {
    /// Method.
    pub method: String,
    /// `HTTP/1.1` or `HTTP/1.0`.
    pub proto: String,
    /// Headers as the agent shows them (canonical names, sorted).
    pub headers: Vec<(String, Vec<String>)>,
    /// Request target.
    pub uri: String,
    /// The request as it was on the wire, head and body.
    pub raw: Bytes,
}

/// The response half of a capture.
#[derive(Debug, Clone)]
pub struct CapturedResponse {
    /// Status line after the version (`200 OK`).
    pub status: String,
    /// Status code.
    pub status_code: u16,
    /// `HTTP/1.1` or `HTTP/1.0`.
    pub proto: String,
    /// Headers as the agent shows them.
    pub headers: Vec<(String, Vec<String>)>,
    /// The response as it was on the wire.
    pub raw: Bytes,
}

/// One captured exchange.
#[derive(Debug, Clone)]
pub struct Capture {
    /// `airt_...`; assigned by [`Captures::insert`].
    pub id: String,
    /// Tunnel (leg) it was captured on.
    pub tunnel_name: String,
    /// Visitor IP, or `replayed`.
    pub remote_addr: String,
    /// RFC 3339 start time.
    pub start: String,
    /// Nanoseconds from request to complete response; 0 while pending.
    pub duration_ns: u64,
    /// The request.
    pub request: CapturedRequest,
    /// The response, once the upstream has answered.
    pub response: Option<CapturedResponse>,
}

impl Capture {
    fn size(&self) -> u64 {
        let resp = self.response.as_ref().map_or(0, |r| r.raw.len());
        (self.request.raw.len() + resp) as u64
    }

    /// The capture's JSON (no newline). `pending_null` picks how a missing response shows:
    /// `null` (the API reference) or the zero-valued object the real agent sends.
    ///
    /// The bytes start with a `,` that is not part of the JSON: a list joins its items by
    /// slicing it off the first one only, so no item is ever copied.
    pub fn render(&self, pending_null: bool) -> Bytes {
        let b64 = &base64::engine::general_purpose::STANDARD;
        let resp_len = self.response.as_ref().map_or(0, |r| r.raw.len());
        let mut out = Vec::with_capacity(512 + (self.request.raw.len() + resp_len) * 4 / 3);
        out.extend_from_slice(b",{\"uri\":");
        push_str(&mut out, &format!("/api/requests/http/{}", self.id));
        out.extend_from_slice(b",\"id\":");
        push_str(&mut out, &self.id);
        out.extend_from_slice(b",\"tunnel_name\":");
        push_str(&mut out, &self.tunnel_name);
        out.extend_from_slice(b",\"remote_addr\":");
        push_str(&mut out, &self.remote_addr);
        out.extend_from_slice(b",\"start\":");
        push_str(&mut out, &self.start);
        out.extend_from_slice(format!(",\"duration\":{}", self.duration_ns).as_bytes());
        out.extend_from_slice(b",\"request\":{\"method\":");
        push_str(&mut out, &self.request.method);
        out.extend_from_slice(b",\"proto\":");
        push_str(&mut out, &self.request.proto);
        out.extend_from_slice(b",\"headers\":");
        push_headers(&mut out, &self.request.headers);
        out.extend_from_slice(b",\"uri\":");
        push_str(&mut out, &self.request.uri);
        out.extend_from_slice(b",\"raw\":\"");
        push_base64(&mut out, b64, &self.request.raw);
        out.extend_from_slice(b"\"},\"response\":");
        match &self.response {
            Some(r) => {
                out.extend_from_slice(b"{\"status\":");
                push_str(&mut out, &r.status);
                out.extend_from_slice(format!(",\"status_code\":{}", r.status_code).as_bytes());
                out.extend_from_slice(b",\"proto\":");
                push_str(&mut out, &r.proto);
                out.extend_from_slice(b",\"headers\":");
                push_headers(&mut out, &r.headers);
                out.extend_from_slice(b",\"raw\":\"");
                push_base64(&mut out, b64, &r.raw);
                out.extend_from_slice(b"\"}");
            }
            None if pending_null => out.extend_from_slice(b"null"),
            None => out.extend_from_slice(
                b"{\"status\":\"\",\"status_code\":0,\"proto\":\"\",\"headers\":null,\"raw\":null}",
            ),
        }
        out.push(b'}');
        Bytes::from(out)
    }
}

fn push_headers(out: &mut Vec<u8>, headers: &[(String, Vec<String>)]) {
    out.push(b'{');
    for (i, (name, values)) in headers.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_str(out, name);
        out.extend_from_slice(b":[");
        for (j, v) in values.iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            push_str(out, v);
        }
        out.push(b']');
    }
    out.push(b'}');
}

fn push_base64(out: &mut Vec<u8>, engine: &base64::engine::GeneralPurpose, raw: &[u8]) {
    let start = out.len();
    out.resize(start + base64::encoded_len(raw.len(), true).unwrap_or(0), 0);
    match engine.encode_slice(raw, &mut out[start..]) {
        Ok(n) => out.truncate(start + n),
        Err(_) => out.truncate(start),
    }
}

#[derive(Debug, Clone)]
struct Entry {
    capture: Arc<Capture>,
    /// The JSON, once the capture is complete.
    json: Option<Bytes>,
    size: u64,
}

#[derive(Debug, Default)]
struct CaptureLog {
    /// By id; ids increase, so the first entry is the oldest.
    entries: BTreeMap<String, Entry>,
    total: u64,
}

/// The captured requests of every tunnel.
#[derive(Debug)]
pub struct Captures {
    inner: Mutex<CaptureLog>,
    ids: KsuidGen,
    limit: AtomicU64,
    pending_null: AtomicBool,
}

/// The default of `inspect_db_size`: 50 MB.
pub const DEFAULT_DB_SIZE: u64 = 50 * 1024 * 1024;

impl Captures {
    /// An empty store that keeps at most `limit` bytes of raw requests and responses.
    pub fn new(limit: u64) -> Self {
        Captures {
            inner: Mutex::new(CaptureLog::default()),
            ids: KsuidGen::default(),
            limit: AtomicU64::new(limit),
            pending_null: AtomicBool::new(false),
        }
    }

    /// `inspect_db_size`.
    pub fn limit(&self) -> u64 {
        self.limit.load(Ordering::Relaxed)
    }

    /// Changes `inspect_db_size`, evicting at once if the store is now too big.
    pub fn set_limit(&self, limit: u64) {
        self.limit.store(limit, Ordering::Relaxed);
        let mut inner = lock(&self.inner);
        evict(&mut inner, limit);
    }

    /// Whether pending captures show `"response": null` rather than the agent's zero object.
    pub fn pending_null(&self) -> bool {
        self.pending_null.load(Ordering::Relaxed)
    }

    /// See [`Captures::pending_null`].
    pub fn set_pending_null(&self, on: bool) {
        self.pending_null.store(on, Ordering::Relaxed);
    }

    /// Stores a capture (its `id` is assigned here) and returns the id.
    pub fn insert(&self, mut capture: Capture) -> String {
        capture.id = self.ids.next();
        let id = capture.id.clone();
        let json = capture.response.is_some().then(|| capture.render(false));
        let entry = Entry {
            size: capture.size(),
            capture: Arc::new(capture),
            json,
        };
        let limit = self.limit();
        let mut inner = lock(&self.inner);
        inner.total += entry.size;
        inner.entries.insert(id.clone(), entry);
        evict(&mut inner, limit);
        id
    }

    /// Records the response of a pending capture (no-op if it was deleted or evicted).
    pub fn complete(&self, id: &str, response: CapturedResponse, duration_ns: u64) {
        let Some(current) = lock(&self.inner).entries.get(id).map(|e| e.capture.clone()) else {
            return;
        };
        let mut capture = (*current).clone();
        capture.response = Some(response);
        capture.duration_ns = duration_ns;
        let json = capture.render(false);
        let size = capture.size();
        let limit = self.limit();
        let mut inner = lock(&self.inner);
        let Some(entry) = inner.entries.get_mut(id) else {
            return;
        };
        let old = entry.size;
        *entry = Entry {
            capture: Arc::new(capture),
            json: Some(json),
            size,
        };
        inner.total = inner.total - old + size;
        evict(&mut inner, limit);
    }

    /// The capture with this id.
    pub fn get(&self, id: &str) -> Option<Arc<Capture>> {
        lock(&self.inner).entries.get(id).map(|e| e.capture.clone())
    }

    /// The JSON of one capture.
    pub fn render_one(&self, id: &str) -> Option<Bytes> {
        let entry = lock(&self.inner).entries.get(id).cloned()?;
        Some(self.json_of(&entry).slice(1..))
    }

    /// The capture's JSON with its leading `,` (see [`Capture::render`]).
    fn json_of(&self, entry: &Entry) -> Bytes {
        match &entry.json {
            Some(j) => j.clone(),
            None => entry.capture.render(self.pending_null()),
        }
    }

    /// The JSON of the captures a list shows, newest first, ready to be joined (every item
    /// but the first starts with its `,`): `limit` 0 means all, negative none; `tunnel_name`
    /// keeps only that tunnel's.
    pub fn list(&self, limit: i64, tunnel_name: Option<&str>) -> Vec<Bytes> {
        if limit < 0 {
            return Vec::new();
        }
        let max = if limit == 0 {
            usize::MAX
        } else {
            usize::try_from(limit).unwrap_or(usize::MAX)
        };
        let picked: Vec<Entry> = {
            let inner = lock(&self.inner);
            inner
                .entries
                .values()
                .rev()
                .filter(|e| tunnel_name.is_none_or(|t| e.capture.tunnel_name == t))
                .take(max)
                .cloned()
                .collect()
        };
        picked
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let json = self.json_of(e);
                if i == 0 {
                    json.slice(1..)
                } else {
                    json
                }
            })
            .collect()
    }

    /// Deletes every capture.
    pub fn clear(&self) {
        let mut inner = lock(&self.inner);
        inner.entries.clear();
        inner.total = 0;
    }
}

/// Drops the oldest captures until the total raw size fits in `limit`.
fn evict(inner: &mut CaptureLog, limit: u64) {
    while inner.total > limit {
        let Some((_, e)) = inner.entries.pop_first() else {
            inner.total = 0;
            return;
        };
        inner.total = inner.total.saturating_sub(e.size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture(tunnel: &str, body: usize, answered: bool) -> Capture {
        Capture {
            id: String::new(),
            tunnel_name: tunnel.to_string(),
            remote_addr: "127.0.0.1".to_string(),
            start: "2026-01-01T00:00:00Z".to_string(),
            duration_ns: 5,
            request: CapturedRequest {
                method: "GET".to_string(),
                proto: "HTTP/1.1".to_string(),
                headers: vec![("Host".to_string(), vec!["x".to_string()])],
                uri: "/a?b=1&c=2".to_string(),
                raw: Bytes::from(vec![b'x'; body]),
            },
            response: answered.then(|| CapturedResponse {
                status: "200 OK".to_string(),
                status_code: 200,
                proto: "HTTP/1.1".to_string(),
                headers: Vec::new(),
                raw: Bytes::from_static(b"HTTP/1.1 200 OK\r\n\r\n"),
            }),
        }
    }

    #[test]
    fn renders_the_agents_shape() {
        let store = Captures::new(DEFAULT_DB_SIZE);
        let id = store.insert(capture("t", 3, true));
        let v: serde_json::Value = serde_json::from_slice(&store.render_one(&id).unwrap()).unwrap();
        assert_eq!(v["uri"], format!("/api/requests/http/{id}"));
        assert_eq!(v["request"]["raw"], "eHh4");
        assert_eq!(v["request"]["headers"]["Host"][0], "x");
        assert_eq!(v["response"]["status_code"], 200);
        let pending = store.insert(capture("t", 3, false));
        let v: serde_json::Value =
            serde_json::from_slice(&store.render_one(&pending).unwrap()).unwrap();
        assert_eq!(v["response"]["status_code"], 0);
        assert_eq!(v["response"]["headers"], serde_json::Value::Null);
        store.set_pending_null(true);
        let v: serde_json::Value =
            serde_json::from_slice(&store.render_one(&pending).unwrap()).unwrap();
        assert_eq!(v["response"], serde_json::Value::Null);
    }

    #[test]
    fn evicts_oldest_first_and_filters() {
        let store = Captures::new(250);
        let a = store.insert(capture("a", 100, false));
        let b = store.insert(capture("b", 100, false));
        let c = store.insert(capture("a", 100, false));
        assert!(store.get(&a).is_none(), "the oldest went");
        assert!(store.get(&b).is_some() && store.get(&c).is_some());
        assert_eq!(store.list(0, None).len(), 2);
        assert_eq!(store.list(-1, None).len(), 0);
        assert_eq!(store.list(1, None).len(), 1);
        assert_eq!(store.list(0, Some("a")).len(), 1);
        assert_eq!(store.list(0, Some("zzz")).len(), 0);
    }
}
