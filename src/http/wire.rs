//! One request sent as it was given, over a fresh HTTP/1.1 connection of hyper's own, with
//! the head of the answer kept as the server wrote it: the API client (reqwest) hands header
//! names over in lower case and grouped by name, and hyper's record of their case is private
//! (hyperium/hyper#2695), so a request sent as captured goes through this instead, and its
//! answer shows each name as the server wrote it, in its order.

use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use http_body_util::Full;
use hyper::body::{Body as _, Bytes, Incoming};
use hyper::header::{HeaderMap, HeaderValue, HOST, PROXY_AUTHORIZATION};
use hyper::{Method, Request, Uri, Version};
use hyper_util::rt::TokioIo;
use url::Url;

use super::dial::{self, DialError};
use super::driver::Driver;
use super::failure::{cause_of, is_bad_answer, speaks_plain_http, Broken};
use super::tape::Tape;
use super::MAX_HEAD_BYTES;

/// Why an attempt failed.
#[derive(Debug)]
pub struct Fault {
    /// It failed while connecting: nothing was sent.
    pub connect: bool,
    /// A time limit ended it.
    pub timeout: bool,
    error: Box<dyn std::error::Error + Send + Sync>,
}

impl Fault {
    fn connect(error: DialError) -> Fault {
        Fault {
            connect: true,
            timeout: false,
            error,
        }
    }

    fn timed_out(connect: bool) -> Fault {
        Fault {
            connect,
            timeout: true,
            error: "timed out".into(),
        }
    }

    /// The fault in the terms of its message.
    pub fn broken(&self) -> Broken {
        Broken {
            bad_answer: is_bad_answer(&*self.error),
            timeout: self.timeout,
            plain_http: speaks_plain_http(&*self.error),
            cause: cause_of(&*self.error, self.timeout),
        }
    }
}

/// The head of an answer, and its body still to read.
pub struct WireAnswer {
    /// Status code.
    pub status: u16,
    /// `HTTP/1.1`, `HTTP/1.0`.
    pub version: Version,
    /// The headers as the HTTP layer read them (lower case, grouped), for the trace.
    pub parsed: HeaderMap,
    /// The headers as the server wrote them, in order.
    pub written: Vec<(String, String)>,
    /// The body.
    pub body: AnswerBody,
}

/// The body of an [`WireAnswer`], read by [`super::Http::read_body`] within the attempt's time.
pub struct AnswerBody {
    incoming: Incoming,
    ends: Instant,
    _driver: Driver,
}

impl super::Chunks for AnswerBody {
    fn length(&self) -> Option<u64> {
        self.incoming.size_hint().exact()
    }

    async fn chunk(&mut self) -> Result<Option<Bytes>, String> {
        loop {
            let next = std::future::poll_fn(|cx| Pin::new(&mut self.incoming).poll_frame(cx));
            match tokio::time::timeout_at(self.ends.into(), next).await {
                Err(_) => return Err("timed out".into()),
                Ok(None) => return Ok(None),
                Ok(Some(Err(e))) => return Err(cause_of(&e, false)),
                Ok(Some(Ok(frame))) => {
                    if let Ok(data) = frame.into_data() {
                        return Ok(Some(data));
                    }
                }
            }
        }
    }
}

/// Where and how one request goes.
pub struct Attempt<'a> {
    /// `POST`, …
    pub method: &'a Method,
    /// The whole URL.
    pub url: &'a Url,
    /// The same, as the HTTP layer takes it.
    pub uri: &'a Uri,
    /// The headers to send, but `Host` when they have none: it is added from the URL.
    pub headers: &'a HeaderMap,
    /// The body.
    pub body: &'a [u8],
    /// Connected by then, or given up.
    pub connect_by: Instant,
    /// Answered, body and all, by then, or given up.
    pub ends: Instant,
}

/// Sends one request over a new connection, and returns the head of its answer (the body is
/// read after). `tls` gives the TLS set-up when the server is `https://`.
pub async fn exchange(
    at: Attempt<'_>,
    tls: impl FnOnce() -> Result<Arc<rustls::ClientConfig>, DialError>,
) -> Result<WireAnswer, Fault> {
    let route = tokio::time::timeout_at(at.connect_by.into(), dial::open(at.url, at.uri, tls))
        .await
        .map_err(|_| Fault::timed_out(true))?
        .map_err(Fault::connect)?;
    let tape = Tape::new(MAX_HEAD_BYTES);
    let io = TokioIo::new(tape.wrap(route.stream));
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| Fault::connect(e.into()))?;
    let driver = Driver::spawn(conn);
    let target = match (&route.proxied, at.uri.path_and_query()) {
        (None, Some(path)) => Uri::from(path.clone()),
        _ => at.uri.clone(),
    };
    let mut headers = at.headers.clone();
    if !headers.contains_key(HOST) {
        let host = at.url.host_str().unwrap_or_default();
        let host = match at.url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_string(),
        };
        if let Ok(value) = HeaderValue::from_str(&host) {
            headers.insert(HOST, value);
        }
    }
    if let Some(Some(auth)) = route.proxied {
        headers.entry(PROXY_AUTHORIZATION).or_insert(auth);
    }
    let mut req = Request::new(Full::new(Bytes::copy_from_slice(at.body)));
    *req.method_mut() = at.method.clone();
    *req.uri_mut() = target;
    *req.version_mut() = Version::HTTP_11;
    *req.headers_mut() = headers;
    let resp = tokio::time::timeout_at(at.ends.into(), sender.send_request(req))
        .await
        .map_err(|_| Fault::timed_out(false))?
        .map_err(|e| Fault {
            connect: false,
            timeout: false,
            error: e.into(),
        })?;
    let (recorded, cut) = tape.stop();
    let (parts, incoming) = resp.into_parts();
    Ok(WireAnswer {
        status: parts.status.as_u16(),
        version: parts.version,
        written: super::head::as_written(&recorded, !cut, &parts.headers),
        parsed: parts.headers,
        body: AnswerBody {
            incoming,
            ends: at.ends,
            _driver: driver,
        },
    })
}
