//! One captured exchange as the inspector keeps it: the few fields the list shows and the raw
//! bytes of the request and response (no JSON values), so 10,000 captures cost little more
//! than their bytes.

use base64::Engine;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::capture_filter::{contains_ignore_case, Subject};

/// A captured exchange.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exchange {
    /// `airt_…`.
    pub id: String,
    /// When it was captured (RFC 3339, as the agent wrote it).
    pub start: String,
    /// The tunnel it came through.
    pub tunnel: String,
    /// The visitor's address, or `replayed`.
    pub remote_addr: String,
    /// The request method.
    pub method: String,
    /// The request target.
    pub uri: String,
    /// The response status; `None` while pending.
    pub status: Option<u16>,
    /// How long the exchange took, in nanoseconds.
    pub duration: Option<i64>,
    /// The raw request bytes.
    pub request: Vec<u8>,
    /// The raw response bytes; `None` while pending.
    pub response: Option<Vec<u8>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Wire {
    id: Option<String>,
    start: Option<String>,
    tunnel_name: Option<String>,
    remote_addr: Option<String>,
    duration: Option<i64>,
    request: Option<WirePart>,
    response: Option<WirePart>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct WirePart {
    method: Option<String>,
    uri: Option<String>,
    status_code: Option<i64>,
    raw: Option<String>,
}

fn decode(raw: Option<&str>) -> Option<Vec<u8>> {
    base64::engine::general_purpose::STANDARD
        .decode(raw?.trim())
        .ok()
}

impl Exchange {
    /// Reads one capture from the agent's JSON text; `None` when it is not a capture (no ID).
    pub fn from_json(text: &str) -> Option<Exchange> {
        let w: Wire = serde_json::from_str(text).ok()?;
        let id = w.id.filter(|i| !i.is_empty())?;
        let req = w.request.unwrap_or_default();
        let status = w
            .response
            .as_ref()
            .and_then(|r| r.status_code)
            .filter(|s| *s > 0)
            .and_then(|s| u16::try_from(s).ok());
        let response = w
            .response
            .and_then(|r| decode(r.raw.as_deref()))
            .filter(|r| !r.is_empty() || status.is_some());
        Some(Exchange {
            id,
            start: w.start.unwrap_or_default(),
            tunnel: w.tunnel_name.unwrap_or_default(),
            remote_addr: w.remote_addr.unwrap_or_default(),
            duration: w.duration,
            method: req.method.unwrap_or_default(),
            uri: req.uri.unwrap_or_default(),
            request: decode(req.raw.as_deref()).unwrap_or_default(),
            status,
            response,
        })
    }

    /// Has the local server answered?
    pub fn answered(&self) -> bool {
        self.status.is_some() || self.response.is_some()
    }

    /// The capture in the agent's JSON shape (the parts the curl writer reads).
    pub fn to_json(&self) -> Value {
        let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
        json!({
            "id": self.id,
            "tunnel_name": self.tunnel,
            "request": {"method": self.method, "uri": self.uri, "raw": b64(&self.request)},
            "response": self.response.as_ref().map(|r| json!({"status_code": self.status.unwrap_or(0), "raw": b64(r)})),
        })
    }
}

impl Subject for Exchange {
    fn method(&self) -> &str {
        &self.method
    }
    fn uri(&self) -> &str {
        &self.uri
    }
    fn status(&self) -> Option<u16> {
        self.status
    }
    fn tunnel(&self) -> &str {
        &self.tunnel
    }
    fn replayed(&self) -> bool {
        self.remote_addr == "replayed"
    }
    fn start(&self) -> &str {
        &self.start
    }
    fn contains_text(&self, needle: &str) -> bool {
        let n = needle.as_bytes();
        contains_ignore_case(&self.request, n)
            || self
                .response
                .as_deref()
                .is_some_and(|r| contains_ignore_case(r, n))
            || contains_ignore_case(self.method.as_bytes(), n)
            || contains_ignore_case(self.uri.as_bytes(), n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_agents_json() {
        let e = Exchange::from_json(
            r#"{"id":"airt_1","start":"2026-01-02T10:00:00Z","tunnel_name":"t (http)","remote_addr":"replayed","duration":5,
                "request":{"method":"POST","uri":"/x","raw":"UE9TVCAveCBIVFRQLzEuMQ0KDQo="},
                "response":{"status_code":0,"raw":null}}"#,
        )
        .unwrap();
        assert_eq!(e.method, "POST");
        assert_eq!(e.request, b"POST /x HTTP/1.1\r\n\r\n");
        assert!(!e.answered());
        assert!(Subject::replayed(&e));
        assert!(Exchange::from_json(r#"{"request":{}}"#).is_none());
        assert!(Exchange::from_json("[").is_none());
        let back = e.to_json();
        assert_eq!(back["request"]["raw"], "UE9TVCAveCBIVFRQLzEuMQ0KDQo=");
    }
}
