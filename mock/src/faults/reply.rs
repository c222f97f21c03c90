//! The answers an injected fault gives: an API-shaped error, a given body, a broken body of a
//! chosen kind (cut, malformed, HTML, invalid UTF-8, huge, empty), or no answer at all.
//!
//! Broken bodies come with a correct `Content-Length` for what is actually sent, so the
//! client sees a well-framed HTTP answer whose content is wrong: the case a client must
//! survive without trusting the status alone.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use futures_core::Stream;
use serde_json::Value;

use crate::api_error::{code, json_bytes, ApiError};

/// A deliberately broken body (`"body_kind"` of a fault).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// A valid JSON object cut in the middle.
    TruncatedJson,
    /// `{"id": ` followed by garbage.
    MalformedJson,
    /// An HTML error page, as a proxy in front of the API would send.
    Html,
    /// JSON whose string holds the bytes 0xff 0xfe.
    InvalidUtf8,
    /// A valid JSON object of exactly this many bytes, streamed.
    Huge(u64),
    /// No body at all.
    Empty,
}

/// The JSON object a huge body is made of: `{"padding":"xxx…"}`.
const HUGE_PREFIX: &[u8] = b"{\"padding\":\"";
const HUGE_SUFFIX: &[u8] = b"\"}";
/// The smallest size a huge body can have (`{"padding":""}`).
pub const HUGE_MIN: u64 = (HUGE_PREFIX.len() + HUGE_SUFFIX.len()) as u64;

/// A complete resource; `truncated_json` sends its first half.
const WHOLE_JSON: &str = concat!(
    r#"{"id":"ipp_2VfC9sK1mXq4Lr7TbN0hZyWdE3a","uri":"https://api.tunnel.test/ip_policies/ipp_2VfC9sK1mXq4Lr7TbN0hZyWdE3a","#,
    r#""created_at":"2026-11-21T10:00:00Z","description":"an answer cut in the middle","metadata":""}"#
);
const MALFORMED_JSON: &[u8] = b"{\"id\": <<garbage>> ,, \"uri\": ]";
const HTML_PAGE: &[u8] = b"<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\
<body><h1>502 Bad Gateway</h1><p>The upstream server sent an invalid response.</p>\
<hr><address>nginx</address></body></html>\n";
const INVALID_UTF8_JSON: &[u8] =
    b"{\"id\":\"ipp_\xff\xfe\",\"description\":\"two bytes that are not UTF-8\",\"metadata\":\"\"}";

impl BodyKind {
    /// Reads a `body_kind` name; `size` is the fault's `size` (only for `huge`).
    pub fn parse(name: &str, size: Option<u64>) -> Result<BodyKind, ApiError> {
        let kind = match name {
            "truncated_json" => BodyKind::TruncatedJson,
            "malformed_json" => BodyKind::MalformedJson,
            "html" => BodyKind::Html,
            "invalid_utf8" => BodyKind::InvalidUtf8,
            "empty" => BodyKind::Empty,
            "huge" => match size {
                Some(n) if n >= HUGE_MIN => return Ok(BodyKind::Huge(n)),
                _ => {
                    return Err(ApiError::invalid(
                        "size",
                        format!("body_kind \"huge\" needs size: a number of bytes, at least {HUGE_MIN}."),
                    ))
                }
            },
            other => {
                return Err(ApiError::invalid(
                    "body_kind",
                    format!(
                        "Unknown body_kind '{other}': use truncated_json, malformed_json, html, invalid_utf8, huge or empty."
                    ),
                ))
            }
        };
        if size.is_some() {
            return Err(ApiError::invalid(
                "size",
                "size only applies to body_kind \"huge\".",
            ));
        }
        Ok(kind)
    }

    fn content_type(self) -> &'static str {
        match self {
            BodyKind::Html => "text/html; charset=utf-8",
            _ => "application/json",
        }
    }

    /// The body and its length.
    fn body(self) -> (Body, u64) {
        let fixed = |b: &'static [u8]| (Body::from(Bytes::from_static(b)), b.len() as u64);
        match self {
            BodyKind::TruncatedJson => {
                let cut = &WHOLE_JSON.as_bytes()[..WHOLE_JSON.len() / 2];
                fixed(cut)
            }
            BodyKind::MalformedJson => fixed(MALFORMED_JSON),
            BodyKind::Html => fixed(HTML_PAGE),
            BodyKind::InvalidUtf8 => fixed(INVALID_UTF8_JSON),
            BodyKind::Empty => (Body::empty(), 0),
            BodyKind::Huge(n) => (Body::from_stream(Padded { pos: 0, total: n }), n),
        }
    }
}

/// The answer chosen for a request that a fault matched.
#[derive(Debug, Clone)]
pub struct FaultReply {
    /// Extra delay before answering.
    pub delay_ms: u64,
    /// Handle the request normally first, then answer with the fault instead.
    pub after: bool,
    pub(super) status: u16,
    pub(super) body: Option<String>,
    pub(super) body_kind: Option<BodyKind>,
    pub(super) content_type: Option<String>,
    pub(super) headers: Vec<(HeaderName, HeaderValue)>,
    pub(super) reset: bool,
}

/// Marks a response that drops the connection instead of answering (see [`answered_status`]).
#[derive(Debug, Clone, Copy)]
struct NoAnswer;

/// The status a response gives the client, as the request log shows it: 0 for an injected
/// reset, which never sends its status.
pub fn answered_status(resp: &Response) -> u16 {
    if resp.extensions().get::<NoAnswer>().is_some() {
        0
    } else {
        resp.status().as_u16()
    }
}

impl FaultReply {
    /// The HTTP response. Without a body the standard error body is used, so a client sees an
    /// API-shaped error unless the test asked for something else.
    pub fn into_response(self) -> Response {
        if self.reset {
            let mut resp = Response::new(Body::from_stream(Broken));
            resp.extensions_mut().insert(NoAnswer);
            return resp;
        }
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
        let (body, length, default_type) = match (self.body, self.body_kind) {
            (_, Some(kind)) => {
                let (body, length) = kind.body();
                (body, Some(length), kind.content_type())
            }
            (Some(text), None) => {
                let kind = if serde_json::from_str::<Value>(&text).is_ok() {
                    "application/json"
                } else {
                    "text/plain; charset=utf-8"
                };
                (Body::from(text), None, kind)
            }
            (None, None) => {
                let err = ApiError::new(
                    self.status,
                    code::INJECTED,
                    format!("Injected fault: status {}.", self.status),
                );
                (
                    Body::from(json_bytes(&err.body())),
                    None,
                    "application/json",
                )
            }
        };
        let content_type = self.content_type.as_deref().unwrap_or(default_type);
        let mut resp = Response::new(body);
        *resp.status_mut() = status;
        let headers = resp.headers_mut();
        if let Ok(v) = HeaderValue::from_str(content_type) {
            headers.insert(header::CONTENT_TYPE, v);
        }
        // A streamed body has no length of its own: without the header it would go chunked.
        if let Some(n) = length {
            headers.insert(header::CONTENT_LENGTH, HeaderValue::from(n));
        }
        for (name, value) in self.headers {
            headers.append(name, value);
        }
        resp
    }
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

/// Filler of huge bodies, shared by every chunk.
static FILL: [u8; 64 * 1024] = [b'x'; 64 * 1024];

/// `{"padding":"xxx…"}` of exactly `total` bytes, produced chunk by chunk so that a body of
/// gigabytes costs no memory.
struct Padded {
    pos: u64,
    total: u64,
}

impl Stream for Padded {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let prefix = HUGE_PREFIX.len() as u64;
        let fill_end = self.total.saturating_sub(HUGE_SUFFIX.len() as u64);
        let chunk = if self.pos >= self.total {
            return Poll::Ready(None);
        } else if self.pos < prefix {
            Bytes::from_static(HUGE_PREFIX)
        } else if self.pos < fill_end {
            let n = (fill_end - self.pos).min(FILL.len() as u64) as usize;
            Bytes::from_static(&FILL[..n])
        } else {
            Bytes::from_static(HUGE_SUFFIX)
        };
        self.pos += chunk.len() as u64;
        Poll::Ready(Some(Ok(chunk)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_bodies_are_broken_as_described() {
        let cut = &WHOLE_JSON.as_bytes()[..WHOLE_JSON.len() / 2];
        assert!(serde_json::from_str::<Value>(WHOLE_JSON).is_ok());
        assert!(serde_json::from_slice::<Value>(cut).is_err());
        assert!(serde_json::from_slice::<Value>(MALFORMED_JSON).is_err());
        assert!(MALFORMED_JSON.starts_with(b"{\"id\": "));
        assert!(INVALID_UTF8_JSON.windows(2).any(|w| w == [0xff, 0xfe]));
        assert!(serde_json::from_slice::<Value>(INVALID_UTF8_JSON).is_err());
    }

    #[test]
    fn padded_bodies_have_the_exact_size() {
        for total in [HUGE_MIN, HUGE_MIN + 1, 70_000, 200_000] {
            let mut body = Padded { pos: 0, total };
            let mut out = Vec::new();
            let waker = std::task::Waker::noop();
            let mut cx = Context::from_waker(waker);
            while let Poll::Ready(Some(Ok(b))) = Pin::new(&mut body).poll_next(&mut cx) {
                out.extend_from_slice(&b);
            }
            assert_eq!(out.len() as u64, total);
            assert!(serde_json::from_slice::<Value>(&out).is_ok());
        }
    }
}
