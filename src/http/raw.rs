//! Sending an HTTP request as it was captured (or saved, or edited) to someone's local server,
//! and taking back whatever it answers: any status is an answer to show, not an error.
//!
//! Unlike the API requests, nothing is added to what the caller gives (no `Accept`, no
//! credentials: the client comes from [`Http::verbatim`]), the framing headers are left to the
//! HTTP layer, and a request is tried again only when the connection failed before anything
//! was sent: a webhook the server may have acted on is never delivered twice.

use std::time::{Duration, Instant};

use reqwest::header::{HeaderName, HeaderValue};
use reqwest::Method;
use url::Url;

use super::{backoff, Http, Sent};
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
    /// `HTTP/1.1`, `HTTP/2.0`.
    pub version: String,
    /// Header names and values, in the order received (values not UTF-8 are shown lossily).
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked.
    pub body: Vec<u8>,
    /// From sending the request to the end of the answer's body.
    pub took: Duration,
}

/// Header names whose spelling in their specification is not title case: servers send them
/// so (`ETag`, not `Etag`), and [`title_case`] would get them wrong.
const SPELLED: &[&str] = &[
    "ETag",
    "WWW-Authenticate",
    "TE",
    "DNT",
    "Content-MD5",
    "X-XSS-Protection",
];

/// A header name as servers write it (`content-type` -> `Content-Type`, `etag` -> `ETag`), as
/// Go's `CanonicalMIMEHeaderKey` does, with the names whose registered spelling differs. The
/// case a server really used cannot be had: reqwest hands response headers over in lower case
/// (`http::HeaderName` keeps no case), and hyper's `preserve_header_case` records it in a
/// `HeaderCaseMap` in the response's extensions whose type is `pub(crate)` (readable only
/// through hyper's unstable C API), so no public API of the crates we use gives it back. The
/// answer to a replay is therefore shown in the case nearly every server sends, the case
/// captures show; a name a server spells otherwise (`X-Request-ID`) shows as `X-Request-Id`.
pub fn title_case(name: &str) -> String {
    if let Some(spelled) = SPELLED.iter().find(|s| s.eq_ignore_ascii_case(name)) {
        return (*spelled).to_string();
    }
    let mut upper = true;
    name.chars()
        .map(|c| {
            let out = if upper {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            };
            upper = c == '-';
            out
        })
        .collect()
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
        let mut map = reqwest::header::HeaderMap::new();
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
        let mut attempt = 1;
        loop {
            if self.deadline_passed() {
                return Err(self.out_of_time(&method, url, attempt > 1));
            }
            let started = Instant::now();
            match self.raw_attempt(&method, url, &map, body).await {
                Ok(mut resp) => {
                    let status = resp.status().as_u16();
                    let version = format!("{:?}", resp.version());
                    let headers = resp
                        .headers()
                        .iter()
                        .map(|(k, v)| {
                            (
                                title_case(k.as_str()),
                                String::from_utf8_lossy(v.as_bytes()).into_owned(),
                            )
                        })
                        .collect();
                    if self.opts.verbose {
                        super::trace::response_head(status, resp.headers());
                    }
                    let body = match self.read_body(&method, url, &mut resp).await {
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
                        headers,
                        body,
                        took: started.elapsed(),
                    });
                }
                Err(err) => {
                    let sent = if err.is_connect() {
                        Sent::No
                    } else {
                        Sent::Maybe
                    };
                    if matches!(sent, Sent::No) && attempt < self.opts.max_attempts {
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
                    if err.is_timeout() && self.deadline_passed() {
                        return Err(self.out_of_time(&method, url, matches!(sent, Sent::Maybe)));
                    }
                    return Err(self.transport_error(&method, url, sent, &err));
                }
            }
        }
    }

    async fn raw_attempt(
        &self,
        method: &Method,
        url: &Url,
        headers: &reqwest::header::HeaderMap,
        body: &[u8],
    ) -> std::result::Result<reqwest::Response, reqwest::Error> {
        if self.opts.verbose {
            super::trace::message(method, url, headers, body);
        }
        let mut req = self
            .client
            .request(method.clone(), url.clone())
            .headers(headers.clone())
            .timeout(self.attempt_limit());
        // A GET with no body goes without Content-Length, as browsers send it.
        if !body.is_empty() || !matches!(*method, Method::GET | Method::HEAD) {
            req = req.body(body.to_vec());
        }
        req.send().await
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

    #[test]
    fn header_names_are_shown_as_servers_write_them() {
        assert_eq!(title_case("server"), "Server");
        assert_eq!(title_case("content-type"), "Content-Type");
        assert_eq!(title_case("x-request-id"), "X-Request-Id");
        assert_eq!(title_case("etag"), "ETag");
        assert_eq!(title_case("www-authenticate"), "WWW-Authenticate");
    }
}
