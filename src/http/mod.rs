//! The one HTTP layer: every request of the program goes through [`Http`].
//!
//! It adds the headers both APIs require, encodes path segments, bounds what it reads,
//! retries what is safe to retry and stops at the command's deadline. Error answers of any
//! shape become one clear [`ApiFailure`](crate::error::ApiFailure) in [`failure`]; the
//! `--verbose` trace, with the API key redacted, is [`trace`]. It knows nothing of resources.

mod dial;
mod driver;
pub mod failure;
mod head;
pub mod raw;
mod tape;
pub mod trace;
mod wire;

/// Most header lines of a message head kept to be shown; the rest are counted. A server's (or
/// a visitor's) header bomb costs what its first lines cost.
pub const MAX_HEADER_LINES: usize = 200;
/// Most bytes of header lines of a message head kept to be shown; the rest are counted.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

use std::time::{Duration, Instant};

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use reqwest::header::{HeaderMap, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE, USER_AGENT};
use reqwest::{Method, StatusCode};
use serde_json::Value;
use url::Url;

use crate::error::{status_text, Error, Result};
use failure::{decode_error, is_bad_answer, root_cause, speaks_plain_http, too_large, Broken};

/// Characters left as they are in a path segment: RFC 3986 unreserved ones.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The largest answer read into memory; a larger one is refused, not read.
pub const DEFAULT_MAX_BODY: usize = 64 * 1024 * 1024;

/// The longest ID, tunnel name or event type accepted as a path segment, in bytes. Real IDs
/// are under 40 bytes, event types under 60, tunnel names short labels: anything longer is a
/// mistake (a pasted file, a runaway variable) and would only earn an unclear answer from a
/// proxy (414, a reset) after the request was sent.
pub const MAX_SEGMENT: usize = 256;

/// Percent-encodes one path segment taken from the user, so that it can never reach another
/// endpoint (`../tunnel_sessions` becomes `..%2Ftunnel_sessions`). An empty, `.`, `..` or
/// over-long ([`MAX_SEGMENT`]) segment is a usage error, before anything is sent.
pub fn encode_segment(what: &str, segment: &str) -> Result<String> {
    if segment.is_empty() {
        return Err(Error::usage(format!("the {what} must not be empty")));
    }
    if segment.len() > MAX_SEGMENT {
        let start: String = segment.chars().take(20).collect();
        return Err(Error::usage(format!(
            "the {what} '{}…' is {} bytes long; at most {MAX_SEGMENT} are accepted (no real one is that long)",
            crate::escape::escape(&start),
            segment.len()
        )));
    }
    if segment == "." || segment == ".." {
        return Err(Error::usage(format!(
            "'{segment}' is not a valid {what}: it would name another path"
        )));
    }
    Ok(utf8_percent_encode(segment, SEGMENT).to_string())
}

/// Is this host a loopback address (`127.0.0.0/8`, `::1`, `localhost`)?
pub fn is_loopback_host(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

/// Everything that shapes the requests of one API.
#[derive(Clone)]
pub struct HttpOptions {
    /// Base URL; paths are appended to it.
    pub base: Url,
    /// Bearer token sent as `Authorization` (the management API key).
    pub bearer: Option<String>,
    /// Extra headers sent on every request (e.g. `Service-Version: 2`).
    pub fixed_headers: Vec<(&'static str, &'static str)>,
    /// Limit for one attempt of a request.
    pub timeout: Duration,
    /// Write the request/response trace to stderr.
    pub verbose: bool,
    /// How many times a request may be tried in all.
    pub max_attempts: u32,
    /// What to tell the user when the server cannot be reached.
    pub unreachable_hint: String,
    /// What to tell the user when the server answers 401 (check the key, and where it came
    /// from); built by the layer that knows the settings.
    pub unauthorized_hint: Option<String>,
    /// Largest answer body read into memory.
    pub max_body: usize,
    /// Paces requests under the service's rate limit (shared by concurrent requests).
    pub limiter: Option<std::sync::Arc<crate::ratelimit::Limiter>>,
    /// No retry starts after this instant (`--timeout` of the whole command).
    pub deadline: Option<Instant>,
    /// Names of the fields that hold secrets, masked in traces and errors (given by the layer
    /// that knows the resources).
    pub secret_fields: &'static [&'static str],
    /// Read-only: every method but GET is refused (exit 2) before anything is sent, with
    /// this said of why (where read-only was set, how to lift it). The management client of
    /// a read-only profile carries it, so that no command, whatever it does, changes the
    /// account.
    pub read_only: Option<String>,
    /// The kind of server the base URL is meant for, when a setting gave it: an answer that
    /// shows it points at another kind (or speaks plain HTTP to `https://`) is then a setting
    /// to change (exit 3), and the error says which.
    pub expected: Option<Expected>,
}

/// The kind of server a client's base URL should point at, and how to tell another kind from
/// its answers (given by the layer that knows the APIs).
#[derive(Clone)]
pub struct Expected {
    /// The setting the base URL came from, and from where: `api_url (from the environment
    /// variable TUNNELCTL_API_URL)`.
    pub setting: String,
    /// Is this error answer (its status and body) another kind of server's?
    pub other_server: fn(u16, &[u8]) -> bool,
    /// What the server that answered so is, after its URL: "answers as a local tunnel
    /// agent's API, not as the management API".
    pub other_is: &'static str,
    /// What the setting should hold instead: "the management API's URL".
    pub wanted: &'static str,
}

/// An answer with a success status.
#[derive(Debug)]
pub struct Response {
    /// HTTP status code.
    pub status: u16,
    /// The whole body.
    pub body: Vec<u8>,
}

impl Response {
    /// The body as JSON; `None` when the body is empty (204).
    pub fn json(&self, method: &Method, url: &Url) -> Result<Option<Value>> {
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        serde_json::from_slice(&self.body).map(Some).map_err(|e| {
            Error::BadResponse(format!(
                "{method} {}: {}, but the answer is not valid JSON ({e})",
                url.path(),
                status_text(self.status)
            ))
        })
    }
}

/// A client for one API (management or agent).
pub struct Http {
    client: reqwest::Client,
    auth: Option<HeaderValue>,
    opts: HttpOptions,
    /// The TLS set-up of requests sent as captured ([`Http::send_message`]), made on first use.
    tls: std::sync::OnceLock<std::sync::Arc<rustls::ClientConfig>>,
}

/// An answer's body, read a piece at a time: what [`Http::read_body`] bounds, from either
/// client.
trait Chunks {
    /// Its length, when the answer says it.
    fn length(&self) -> Option<u64>;
    /// The next piece; `None` at its end; the cause, as a short phrase, when it was cut off.
    async fn chunk(&mut self) -> std::result::Result<Option<hyper::body::Bytes>, String>;
}

impl Chunks for reqwest::Response {
    fn length(&self) -> Option<u64> {
        self.content_length()
    }

    async fn chunk(&mut self) -> std::result::Result<Option<hyper::body::Bytes>, String> {
        reqwest::Response::chunk(self)
            .await
            .map_err(|e| root_cause(&e))
    }
}

/// Did the request possibly reach the server?
enum Reached {
    /// The connection failed before anything was sent: safe to retry any method.
    No,
    /// It may have been acted on.
    Maybe,
}

impl Http {
    /// Builds a client. TLS (and its trust store) is set up only for `https://` bases.
    pub fn new(opts: HttpOptions) -> Result<Self> {
        Self::build(opts, true)
    }

    /// Builds a client that adds no header of its own to what it is given (no `Accept`, no
    /// credentials even if `opts` had some): for requests sent to someone's local server as
    /// they were captured ([`Http::send_message`]).
    pub fn verbatim(mut opts: HttpOptions) -> Result<Self> {
        opts.bearer = None;
        opts.fixed_headers.clear();
        Self::build(opts, false)
    }

    fn build(opts: HttpOptions, json: bool) -> Result<Self> {
        let mut headers = HeaderMap::new();
        if json {
            headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
        }
        for (name, value) in &opts.fixed_headers {
            headers.insert(*name, HeaderValue::from_static(value));
        }
        let mut builder = reqwest::Client::builder()
            .default_headers(headers)
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(connect_limit(opts.timeout))
            .timeout(opts.timeout);
        // A crypto provider must exist before any client is built; ring is the small, fast one.
        let _ = rustls::crypto::ring::default_provider().install_default();
        if !json || opts.base.scheme() != "https" {
            // Plain HTTP never needs the platform trust store, which costs milliseconds to load;
            // nor does a verbatim client, whose requests go through `wire` with its own TLS.
            builder = builder.tls_certs_only(std::iter::empty());
        }
        if is_loopback_host(&opts.base) {
            builder = builder.no_proxy();
        }
        let client = builder
            .build()
            .map_err(|e| Error::Config(format!("could not set up the HTTP client: {e}")))?;
        let auth = match &opts.bearer {
            Some(key) => {
                crate::secrets::register_secret(key);
                let mut value = HeaderValue::from_str(&format!("Bearer {key}")).map_err(|_| {
                    Error::Config(
                        "the API key contains characters that cannot be sent in a header".into(),
                    )
                })?;
                value.set_sensitive(true);
                Some(value)
            }
            None => None,
        };
        Ok(Http {
            client,
            auth,
            opts,
            tls: std::sync::OnceLock::new(),
        })
    }

    /// The base URL.
    pub fn base(&self) -> &Url {
        &self.opts.base
    }

    /// The rate its requests are paced to; `None` when they are not (`--rate off`).
    pub fn rate(&self) -> Option<crate::ratelimit::Rate> {
        self.opts.limiter.as_ref().map(|l| l.rate())
    }

    /// The base URL with already-encoded path segments appended.
    pub fn url(&self, encoded_segments: &[&str]) -> Url {
        let mut url = self.opts.base.clone();
        let mut path = url.path().trim_end_matches('/').to_string();
        for s in encoded_segments {
            path.push('/');
            path.push_str(s);
        }
        url.set_path(&path);
        url
    }

    /// Sends a request and returns the answer when its status is a success; any other
    /// status becomes an [`Error::Api`]. Retries what is safe to retry. No attempt, wait or
    /// read goes past the command's deadline (`--timeout`): running out of it is exit 7.
    pub async fn send(&self, method: Method, url: &Url, body: Option<&Value>) -> Result<Response> {
        if let (Some(why), false) = (&self.opts.read_only, method == Method::GET) {
            return Err(Error::Usage(format!(
                "{method} {} would change the account and {why}",
                url.path()
            )));
        }
        let body_bytes = match body {
            Some(v) => Some(
                serde_json::to_vec(v)
                    .map_err(|e| Error::Io(format!("could not encode the request: {e}")))?,
            ),
            None => None,
        };
        let started = Instant::now();
        let mut attempt = 1;
        loop {
            if self.deadline_passed() {
                return Err(self.out_of_time(&method, url, attempt > 1));
            }
            let outcome = match self.attempt(&method, url, body_bytes.as_deref()).await {
                Some(outcome) => outcome,
                // The rate limiter would have waited past the deadline: nothing was sent.
                None => return Err(self.out_of_time(&method, url, false)),
            };
            let retry_after = match &outcome {
                Ok(resp) if resp.status().is_success() => None,
                Ok(resp) => self.retry_delay_for_status(&method, resp.status(), resp.headers()),
                // The server answered, in a way that will not change.
                Err((_, err)) if is_bad_answer(err) || speaks_plain_http(err) => None,
                Err((Reached::No, _)) => Some(None),
                Err((Reached::Maybe, _)) if is_idempotent(&method) => Some(None),
                Err(_) => None,
            };
            if let Some(wait) = retry_after {
                if attempt < self.opts.max_attempts {
                    let delay = wait.unwrap_or_else(|| backoff(attempt));
                    let within = match self.opts.deadline {
                        Some(d) => Instant::now() + delay < d,
                        None => {
                            started.elapsed() + delay < self.opts.timeout * self.opts.max_attempts
                        }
                    };
                    if within {
                        if self.opts.verbose {
                            trace::trace_line!(
                                "* retrying in {} ms (attempt {})",
                                delay.as_millis(),
                                attempt + 1
                            );
                        }
                        tokio::time::sleep(delay).await;
                        attempt += 1;
                        continue;
                    }
                }
            }
            return match outcome {
                Ok(resp) => match self.finish(&method, url, resp).await {
                    Err(Error::BadResponse(_)) if self.deadline_passed() => {
                        Err(self.out_of_time(&method, url, true))
                    }
                    other => other,
                },
                Err((sent, err)) => {
                    if err.is_timeout() && self.deadline_passed() {
                        return Err(self.out_of_time(&method, url, matches!(sent, Reached::Maybe)));
                    }
                    Err(self.transport_error(&method, url, sent, Broken::from(&err)))
                }
            };
        }
    }

    /// How long one attempt may take: the per-request timeout, cut so that the attempt, its
    /// answer and its body end by the command's deadline; at least a millisecond.
    fn attempt_limit(&self) -> Duration {
        let limit = match self.opts.deadline {
            Some(d) => self
                .opts
                .timeout
                .min(d.saturating_duration_since(Instant::now())),
            None => self.opts.timeout,
        };
        limit.max(Duration::from_millis(1))
    }

    /// Has the command's `--timeout` run out?
    fn deadline_passed(&self) -> bool {
        self.opts.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The error of a request cut off by the command's `--timeout`. A POST that may have been
    /// sent has an unknown outcome, and says so.
    fn out_of_time(&self, method: &Method, url: &Url, maybe_sent: bool) -> Error {
        let mut what = format!("during {method} {}", url.path());
        if maybe_sent && !is_idempotent(method) {
            what.push_str(
                "; the request may have reached the server, so its outcome is unknown and it was not sent again",
            );
        } else if !maybe_sent {
            what.push_str(" (nothing was sent)");
        }
        crate::deadline::ran_out(what)
    }

    /// Sends a request and decodes its JSON answer (`None` for an empty body).
    pub async fn json(
        &self,
        method: Method,
        url: &Url,
        body: Option<&Value>,
    ) -> Result<Option<Value>> {
        let resp = self.send(method.clone(), url, body).await?;
        resp.json(&method, url)
    }

    /// Like [`Http::json`], for endpoints that always answer with a JSON body.
    pub async fn json_value(
        &self,
        method: Method,
        url: &Url,
        body: Option<&Value>,
    ) -> Result<Value> {
        match self.json(method.clone(), url, body).await? {
            Some(v) => Ok(v),
            None => Err(Error::BadResponse(format!(
                "{method} {}: the answer has no body, a JSON object was expected",
                url.path()
            ))),
        }
    }

    /// One attempt; `None` when the rate limiter would wait past the deadline.
    async fn attempt(
        &self,
        method: &Method,
        url: &Url,
        body: Option<&[u8]>,
    ) -> Option<std::result::Result<reqwest::Response, (Reached, reqwest::Error)>> {
        if let Some(limiter) = &self.opts.limiter {
            match self.opts.deadline {
                Some(d) => tokio::time::timeout_at(d.into(), limiter.acquire())
                    .await
                    .ok()?,
                None => limiter.acquire().await,
            }
        }
        let mut req = self
            .client
            .request(method.clone(), url.clone())
            .timeout(self.attempt_limit());
        if let Some(value) = &self.auth {
            req = req.header(AUTHORIZATION, value.clone());
        }
        if let Some(b) = body {
            req = req
                .header(CONTENT_TYPE, "application/json")
                .body(b.to_vec());
        }
        req = req.header(USER_AGENT, concat!("tunnelctl/", env!("CARGO_PKG_VERSION")));
        if self.opts.verbose {
            trace::request(&self.opts, method, url, body);
        }
        Some(req.send().await.map_err(|e| {
            let sent = if e.is_connect() {
                Reached::No
            } else {
                Reached::Maybe
            };
            (sent, e)
        }))
    }

    /// How long to wait before retrying an answer with this status, if it may be retried.
    fn retry_delay_for_status(
        &self,
        method: &Method,
        status: StatusCode,
        headers: &HeaderMap,
    ) -> Option<Option<Duration>> {
        let retryable = match status.as_u16() {
            429 | 503 => true,
            502 | 504 => is_idempotent(method),
            _ => false,
        };
        if !retryable {
            return None;
        }
        Some(
            headers
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(parse_retry_after),
        )
    }

    /// Reads an answer's whole body, refusing one larger than the bound without reading it.
    async fn read_body(
        &self,
        method: &Method,
        url: &Url,
        status: u16,
        body: &mut impl Chunks,
    ) -> Result<Vec<u8>> {
        let length = body.length();
        if let Some(len) = length {
            if len > self.opts.max_body as u64 {
                return Err(too_large(method, url, self.opts.max_body));
            }
        }
        // Sized from Content-Length when given, so a large answer is never copied while growing.
        let expected = length.and_then(|l| usize::try_from(l).ok()).unwrap_or(0);
        let mut out = Vec::with_capacity(expected.min(self.opts.max_body));
        loop {
            match body.chunk().await {
                Ok(Some(chunk)) => {
                    if out.len() + chunk.len() > self.opts.max_body {
                        return Err(too_large(method, url, self.opts.max_body));
                    }
                    out.extend_from_slice(&chunk);
                }
                Ok(None) => return Ok(out),
                Err(cause) => {
                    return Err(Error::BadResponse(format!(
                        "{method} {}: {}, but the answer was cut off: {cause}",
                        url.path(),
                        status_text(status)
                    )))
                }
            }
        }
    }

    async fn finish(
        &self,
        method: &Method,
        url: &Url,
        mut resp: reqwest::Response,
    ) -> Result<Response> {
        let status = resp.status();
        let content_type = resp
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        if self.opts.verbose {
            trace::response_head(status.as_u16(), resp.headers());
        }
        let body = self
            .read_body(method, url, status.as_u16(), &mut resp)
            .await?;
        if self.opts.verbose {
            trace::response_body(&body, self.opts.secret_fields);
        }
        if status.is_success() {
            return Ok(Response {
                status: status.as_u16(),
                body,
            });
        }
        let mut failure = decode_error(
            method.as_str(),
            url.path(),
            status.as_u16(),
            content_type.as_deref(),
            &body,
            self.opts.secret_fields,
        );
        if let Some(expected) = &self.opts.expected {
            if (expected.other_server)(status.as_u16(), &body) {
                // Its status and code only: its message is meant for its own clients (the
                // management API asks for a key the agent is never sent).
                let code = failure
                    .code
                    .as_ref()
                    .map_or(String::new(), |c| format!(", code {c}"));
                return Err(Error::Config(format!(
                    "{} {} ({method} {}: {}{code}).\n{} points at it: set it to {}.",
                    origin(url),
                    expected.other_is,
                    url.path(),
                    status_text(status.as_u16()),
                    capitalized(&expected.setting),
                    expected.wanted
                )));
            }
        }
        if status.as_u16() == 401 {
            failure.hint.clone_from(&self.opts.unauthorized_hint);
        }
        // A server error to a POST may come after the server acted (stored the resource, sent
        // the command): the outcome is unknown, and it is never sent again. 503 and 429 say
        // the request was not taken up.
        if !is_idempotent(method) && status.is_server_error() && status.as_u16() != 503 {
            return Err(Error::Unknown(format!(
                "{failure}\nThe server may have acted on the request before failing, so it was not sent again: the outcome is unknown."
            )));
        }
        Err(Error::Api(Box::new(failure)))
    }

    fn transport_error(&self, method: &Method, url: &Url, sent: Reached, broken: Broken) -> Error {
        let Broken {
            bad_answer,
            timeout,
            plain_http,
            cause,
        } = broken;
        let target = format!("{}{}", origin(url), url.path());
        if plain_http {
            return self.plain_http(url, &target);
        }
        if bad_answer {
            return Error::BadResponse(format!(
                "{method} {target}: the server's answer is not valid HTTP ({cause})"
            ));
        }
        match sent {
            Reached::No => Error::Unreachable(format!(
                "could not connect to {target}: {cause}\n{}",
                self.opts.unreachable_hint
            )),
            Reached::Maybe if is_idempotent(method) => {
                let what = if timeout { "timed out" } else { "failed" };
                Error::Unreachable(format!(
                    "{method} {target} {what} after {} attempt(s): {cause}\n{}",
                    self.opts.max_attempts, self.opts.unreachable_hint
                ))
            }
            Reached::Maybe => Error::Unknown(format!(
                "{method} {target}: the connection failed after the request was sent ({cause}); \
                 whether the server acted on it is unknown, so it was not sent again"
            )),
        }
    }
}

impl Http {
    /// The error of an `https://` URL that met a server speaking plain HTTP: what to type
    /// instead (`http://`, where the key may travel so), and the setting to change when a
    /// setting gave the URL (exit 3).
    fn plain_http(&self, url: &Url, target: &str) -> Error {
        let mut plain = url.clone();
        let switched = plain.set_scheme("http").is_ok();
        let what =
            format!("could not connect to {target}: the server speaks plain HTTP, not HTTPS");
        let fix = if !switched {
            "check the URL's port".to_string()
        } else if self.opts.bearer.is_some() && !is_loopback_host(url) {
            // The API key travels in plain text only to this machine: no http:// to suggest.
            "check the URL's port: the API key is sent only over HTTPS (or plain HTTP to a loopback address)".to_string()
        } else {
            format!("use {}", origin(&plain))
        };
        match &self.opts.expected {
            Some(expected) => Error::Config(format!(
                "{what}.\n{} starts with https://: {fix}.",
                capitalized(&expected.setting)
            )),
            None => Error::Unreachable(format!("{what}: {fix}.\n{}", self.opts.unreachable_hint)),
        }
    }
}

/// `text` with its first letter in capitals, to start a sentence.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// How long connecting may take, of a request's `timeout`.
fn connect_limit(timeout: Duration) -> Duration {
    timeout.min(Duration::from_secs(10))
}

fn is_idempotent(method: &Method) -> bool {
    matches!(
        *method,
        Method::GET | Method::PUT | Method::DELETE | Method::HEAD
    )
}

/// Exponential backoff with full jitter: a random wait up to 200 ms × 2^(attempt-1), capped.
fn backoff(attempt: u32) -> Duration {
    let cap_ms = (200u64 << attempt.saturating_sub(1).min(10)).min(5_000);
    let cap_ms = test_backoff_cap().map_or(cap_ms, |test| cap_ms.min(test));
    Duration::from_millis(fastrand::u64(0..=cap_ms))
}

/// A shorter backoff for the test suite (`TUNNELCTL_TEST_BACKOFF_MS`), honoured only by debug
/// builds, which is what the tests run: a release build ignores it.
fn test_backoff_cap() -> Option<u64> {
    if cfg!(debug_assertions) {
        std::env::var(crate::registry::env::TEST_BACKOFF_MS)
            .ok()?
            .parse()
            .ok()
    } else {
        None
    }
}

/// `Retry-After` as seconds or an HTTP date, capped at a minute.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    const CAP: Duration = Duration::from_secs(60);
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs).min(CAP));
    }
    let when =
        time::OffsetDateTime::parse(value, &time::format_description::well_known::Rfc2822).ok()?;
    let now = time::OffsetDateTime::now_utc();
    let wait = (when - now).max(time::Duration::ZERO);
    Some(Duration::try_from(wait).unwrap_or(CAP).min(CAP))
}

/// `scheme://host:port` of a URL.
pub fn origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_one_segment() {
        assert_eq!(
            encode_segment("ID", "../tunnel_sessions").unwrap(),
            "..%2Ftunnel_sessions"
        );
        assert_eq!(
            encode_segment("name", "t1 (http)").unwrap(),
            "t1%20%28http%29"
        );
        assert!(encode_segment("ID", "..").is_err());
        assert!(encode_segment("ID", "").is_err());
        assert!(encode_segment("ID", &"a".repeat(MAX_SEGMENT)).is_ok());
        let e = encode_segment("ID", &"a".repeat(MAX_SEGMENT + 1)).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("257 bytes"), "{e}");
    }

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("100000"), Some(Duration::from_secs(60)));
        assert_eq!(
            parse_retry_after("Thu, 01 Jan 1970 00:00:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon"), None);
    }
}
