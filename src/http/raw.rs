//! Sending an HTTP request as it was captured (or saved, or edited) to someone's local server,
//! and taking back whatever it answers: any status is an answer to show, not an error.
//!
//! Unlike the API requests, nothing is added to what the caller gives (no `Accept`, no
//! credentials: the client comes from [`Http::verbatim`]; only a `Host` from the URL when the
//! message has none), the framing headers are left to the HTTP layer, and a request is tried again only when the connection failed before anything
//! was sent: a webhook the server may have acted on is never delivered twice. It goes over a
//! connection of its own (`http::wire`), so that the answer's header names are shown as the
//! server wrote them, in its order.

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::Method;
use url::Url;

use super::{backoff, dial, wire, Http, Reached};
use crate::error::{Error, Result};
use crate::escape::escape;

/// Headers the HTTP layer writes itself from the body and the connection; the message's own
/// values (which may be stale after an edit) are never sent.
const FRAMING: &[&str] = &[
    "content-length",
    "transfer-encoding",
    "connection",
    "keep-alive",
    "proxy-connection",
    "upgrade",
    "te",
];

/// What the server answered, whatever the status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawAnswer {
    /// Status code.
    pub status: u16,
    /// `HTTP/1.1`, `HTTP/1.0`.
    pub version: String,
    /// Header names as the server wrote them and values, in the order received (values not
    /// UTF-8 are shown lossily).
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked.
    pub body: Vec<u8>,
    /// From sending the request to the end of the answer's body.
    pub took: Duration,
}

/// Is this header one the HTTP layer writes itself?
pub fn is_framing(name: &str) -> bool {
    FRAMING.iter().any(|f| f.eq_ignore_ascii_case(name))
}

impl Http {
    /// Sends `method url` with exactly these headers (but the framing ones) and this body;
    /// returns the answer whatever its status. A header that cannot be sent (a control
    /// character, a name that is not a token) is a usage error, before anything is sent.
    pub async fn send_message(
        &self,
        method: &str,
        url: &Url,
        headers: &[(String, String)],
        body: &[u8],
    ) -> Result<RawAnswer> {
        let method = Method::from_bytes(method.as_bytes()).map_err(|_| {
            Error::usage(format!(
                "'{}' is not a method that can be sent",
                escape(method)
            ))
        })?;
        let mut map = HeaderMap::new();
        for (name, value) in headers.iter().filter(|(n, _)| !is_framing(n)) {
            let bad = |what: &str| {
                Error::usage(format!(
                    "the header {}: {} cannot be sent: {what}",
                    escape(name),
                    escape(value)
                ))
            };
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| bad("its name is not an HTTP token"))?;
            let value = HeaderValue::from_str(value)
                .map_err(|_| bad("its value holds control characters"))?;
            map.append(name, value);
        }
        let uri: hyper::Uri = url.as_str().parse().map_err(|_| {
            Error::usage(format!(
                "'{}' cannot be sent: the HTTP layer does not take it as a URL",
                escape(url.as_str())
            ))
        })?;
        let mut attempt = 1;
        loop {
            if self.deadline_passed() {
                return Err(self.out_of_time(&method, url, attempt > 1));
            }
            let started = Instant::now();
            match self.raw_attempt(&method, url, &uri, &map, body).await {
                Ok(answer) => {
                    let status = answer.status;
                    let version = format!("{:?}", answer.version);
                    if self.opts.verbose {
                        super::trace::response_head(status, &answer.parsed);
                    }
                    let mut rest = answer.body;
                    let body = match self.read_body(&method, url, status, &mut rest).await {
                        Err(Error::BadResponse(_)) if self.deadline_passed() => {
                            return Err(self.out_of_time(&method, url, true))
                        }
                        other => other?,
                    };
                    if self.opts.verbose {
                        super::trace::response_body(&body, self.opts.secret_fields);
                    }
                    return Ok(RawAnswer {
                        status,
                        version,
                        headers: answer.written,
                        body,
                        took: started.elapsed(),
                    });
                }
                Err(fault) => {
                    let sent = if fault.connect {
                        Reached::No
                    } else {
                        Reached::Maybe
                    };
                    if matches!(sent, Reached::No) && attempt < self.opts.max_attempts {
                        let delay = backoff(attempt);
                        if self
                            .opts
                            .deadline
                            .is_none_or(|d| Instant::now() + delay < d)
                        {
                            tokio::time::sleep(delay).await;
                            attempt += 1;
                            continue;
                        }
                    }
                    if fault.timeout && self.deadline_passed() {
                        return Err(self.out_of_time(&method, url, matches!(sent, Reached::Maybe)));
                    }
                    return Err(self.transport_error(&method, url, sent, fault.broken()));
                }
            }
        }
    }

    /// One attempt, within the time one attempt may take; connecting (through a proxy, TLS
    /// included) within the API client's connect limit.
    async fn raw_attempt(
        &self,
        method: &Method,
        url: &Url,
        uri: &hyper::Uri,
        headers: &HeaderMap,
        body: &[u8],
    ) -> std::result::Result<wire::WireAnswer, wire::Fault> {
        if self.opts.verbose {
            super::trace::message(method, url, headers, body);
        }
        let now = Instant::now();
        let ends = now + self.attempt_limit();
        let connect_by = (now + super::connect_limit(self.opts.timeout)).min(ends);
        let attempt = wire::Attempt {
            method,
            url,
            uri,
            headers,
            body,
            connect_by,
            ends,
        };
        wire::exchange(attempt, || self.tls_config()).await
    }

    /// The TLS set-up of requests sent as captured, made once, when the first `https://`
    /// server is met (loading the platform's trust costs milliseconds).
    fn tls_config(&self) -> std::result::Result<Arc<rustls::ClientConfig>, dial::DialError> {
        if let Some(config) = self.tls.get() {
            return Ok(config.clone());
        }
        let config = dial::client_config()?;
        let _ = self.tls.set(config.clone());
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_headers_are_the_layers() {
        assert!(is_framing("Content-Length"));
        assert!(is_framing("transfer-encoding"));
        assert!(!is_framing("Host"));
        assert!(!is_framing("X-Signature"));
    }
}
