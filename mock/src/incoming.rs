//! A request as both listeners hold it once read: the method (upper case), the raw path and
//! query as received, the headers and the body. Both record it in a request log, run it past
//! the injected faults and only then answer it, so they read it into the same shape.

use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderName};
use bytes::Bytes;

use crate::recorder::{Recorder, Ticket};

/// A request, read.
#[derive(Debug)]
pub struct Incoming {
    /// HTTP method, upper case.
    pub method: String,
    /// The path as received, still percent-encoded.
    pub raw_path: String,
    /// The raw query string.
    pub query: Option<String>,
    /// The headers.
    pub headers: HeaderMap,
    /// The body (empty when it was not read).
    pub body: Bytes,
    /// Whether the body was larger than allowed or could not be read.
    pub body_unread: bool,
}

impl Incoming {
    /// Reads a request whose body may be at most `limit(raw_path)` bytes.
    pub async fn read(req: Request, limit: impl Fn(&str) -> usize) -> Self {
        let (parts, body): (_, Body) = req.into_parts();
        let raw_path = parts.uri.path().to_string();
        let body = to_bytes(body, limit(&raw_path)).await;
        Incoming {
            method: parts.method.as_str().to_ascii_uppercase(),
            query: parts.uri.query().map(str::to_string),
            raw_path,
            headers: parts.headers,
            body_unread: body.is_err(),
            body: body.unwrap_or_default(),
        }
    }

    /// Appends the request to `log`; the ticket fills in its status later.
    pub fn record(&self, log: &Recorder) -> Ticket {
        log.record(
            &self.method,
            &self.raw_path,
            self.query.as_deref(),
            &self.headers,
            &self.body,
        )
    }

    /// A header's value, when present and text.
    pub fn header(&self, name: &HeaderName) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}
