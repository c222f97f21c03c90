//! The filter language for captured exchanges, shared by the inspector's `/` bar and the
//! `local requests list` filters, so the same words select the same exchanges everywhere.
//!
//! A query is words separated by spaces; an exchange matches when every word does:
//!
//! - free text (`stripe`, `"two words"`): case-insensitive, anywhere in the method, path,
//!   status, header names and values and body text of the request or the response;
//! - `method:POST` (or `method:get,post`), `status:404`, `status:5xx`, `status:2xx,3xx`,
//!   `status:pending` (no answer yet);
//! - `path:/hooks/*`: a glob ([`Glob`]: `*` any run of characters, `?` one, `[abc]` one of
//!   those) over the path, with or without its query string; an unclosed `[` is refused;
//! - `tunnel:NAME` (`tunnel:"hook (http)"`, `tunnel:hook*`): the tunnel's name, as a glob;
//! - `since:10m` (or an RFC 3339 time): captured at or after that;
//! - `replayed`: sent again by a replay;
//! - `sig:valid`, `sig:invalid`, `sig:expired`, `sig:unsigned`, `sig:no-secret`: the result of
//!   checking the request's webhook signature ([`super::signed`]) against the secrets and the
//!   time the query was given with [`Query::signing`] (none set: every signed request is
//!   `no-secret`);
//! - `!` before a word turns it round (`!method:GET`, `!replayed`).
//!
//! A word with a key this language does not know (`content-type:json`) is free text, and a
//! word that begins with a quote is always free text; `\"` is a quote to look for.
//!
//! It reads the one typed capture, [`Exchange`]: the command line and the inspector hold the
//! same thing, so a word cannot mean one thing here and another there.

use std::fmt;

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use super::body::searchable;
use super::exchange::{Exchange, Part};
use super::message::is_token;
use crate::signature::{Provider, Secrets, Verdict};

/// A parsed query: every clause must match.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Query {
    clauses: Vec<Clause>,
    signing: Signing,
}

/// What a `sig:` word checks signatures with: the webhook secrets, and the time (Unix seconds)
/// their timestamps are aged at, given once when the query is built.
#[derive(Debug, Clone, Default)]
pub struct Signing {
    /// The secrets set.
    pub secrets: Secrets,
    /// Now, in Unix seconds.
    pub now: i64,
}

impl PartialEq for Signing {
    fn eq(&self, other: &Self) -> bool {
        self.now == other.now
            && Provider::ALL
                .into_iter()
                .all(|p| self.secrets.get(p) == other.secrets.get(p))
    }
}

/// One word of a query.
#[derive(Debug, Clone, PartialEq)]
pub struct Clause {
    /// `!` was given: the clause matches what the term does not.
    pub negated: bool,
    /// What it tests.
    pub term: Term,
}

/// What one clause tests.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Term {
    /// Free text, stored lower-cased; matched ASCII case-insensitively.
    Text(String),
    /// One of these methods (upper-cased).
    Method(Vec<String>),
    /// One of these statuses.
    Status(Vec<StatusPattern>),
    /// The path (with or without the query string) matches this glob.
    Path(Glob),
    /// The tunnel's name matches this glob.
    Tunnel(Glob),
    /// Captured at or after this time.
    Since(OffsetDateTime),
    /// Captured from a replay.
    Replayed,
    /// The request's signature check has this result.
    Signature(Verdict),
}

/// A status to match: one code, a class (`4xx`), or no answer yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusPattern {
    /// Exactly this code.
    Code(u16),
    /// Any code in this hundred (4 for `4xx`).
    Class(u16),
    /// The local server has not answered yet.
    Pending,
}

impl StatusPattern {
    /// Parses `404`, `4xx` (or `4XX`) or `pending`.
    pub fn parse(s: &str) -> Result<StatusPattern, FilterError> {
        let t = s.trim();
        let bad = || {
            FilterError(format!(
                "status '{t}': expected a code (404), a class (5xx) or 'pending'"
            ))
        };
        if t.eq_ignore_ascii_case("pending") {
            return Ok(StatusPattern::Pending);
        }
        let b = t.as_bytes();
        if b.len() != 3 || !(b'1'..=b'5').contains(&b[0]) {
            return Err(bad());
        }
        let class = u16::from(b[0] - b'0');
        if b[1..].eq_ignore_ascii_case(b"xx") {
            return Ok(StatusPattern::Class(class));
        }
        if b[1..].iter().all(u8::is_ascii_digit) {
            let code = t.parse::<u16>().map_err(|_| bad())?;
            return Ok(StatusPattern::Code(code));
        }
        Err(bad())
    }

    /// Does a status (`None` while pending) fit?
    pub fn matches(&self, status: Option<u16>) -> bool {
        match (self, status) {
            (StatusPattern::Code(c), Some(s)) => *c == s,
            (StatusPattern::Class(c), Some(s)) => s / 100 == *c,
            (StatusPattern::Pending, None) => true,
            _ => false,
        }
    }
}

/// The one glob dialect (`*`, `?`, `[abc]`), shared with every other pattern a user writes.
pub use super::wildcard::Glob;

/// Why a query could not be read (a bad value after a known key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterError(pub String);

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FilterError {}

impl Query {
    /// Parses a query (see the module's documentation); an empty text matches everything.
    pub fn parse(text: &str) -> Result<Query, FilterError> {
        Query::parse_at(text, OffsetDateTime::now_utc())
    }

    /// [`Query::parse`] with `since:10m` counted back from `now`.
    pub fn parse_at(text: &str, now: OffsetDateTime) -> Result<Query, FilterError> {
        let mut clauses = Vec::new();
        for word in words(text)? {
            clauses.push(clause(&word, now)?);
        }
        Ok(Query {
            clauses,
            signing: Signing::default(),
        })
    }

    /// A query of these clauses (for flags that each give one).
    pub fn from_clauses(clauses: Vec<Clause>) -> Query {
        Query {
            clauses,
            signing: Signing::default(),
        }
    }

    /// This query, its `sig:` words checking with `secrets` at `now` (Unix seconds).
    pub fn signing(mut self, secrets: Secrets, now: i64) -> Query {
        self.signing = Signing { secrets, now };
        self
    }

    /// Does any clause check signatures (so the secrets are needed)?
    pub fn checks_signatures(&self) -> bool {
        self.clauses
            .iter()
            .any(|c| matches!(c.term, Term::Signature(_)))
    }

    /// The clauses, in the order given.
    pub fn clauses(&self) -> &[Clause] {
        &self.clauses
    }

    /// Takes out the free-text words (not turned round with `!`), lower-case: the capture
    /// history looks for those through its search index; the rest of the query (its secrets
    /// kept) is matched as usual.
    pub fn take_text(mut self) -> (Vec<String>, Query) {
        let mut texts = Vec::new();
        self.clauses.retain(|c| match &c.term {
            Term::Text(t) if !c.negated => {
                texts.push(t.clone());
                false
            }
            _ => true,
        });
        (texts, self)
    }

    /// Does it match everything?
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// Does this captured exchange match?
    pub fn matches(&self, exchange: &Exchange) -> bool {
        self.clauses
            .iter()
            .all(|c| c.term.matches(exchange, &self.signing) != c.negated)
    }
}

impl Term {
    /// Does the exchange have what this term asks (signatures checked with `signing`)?
    pub fn matches(&self, s: &Exchange, signing: &Signing) -> bool {
        match self {
            Term::Text(needle) => contains_text(s, needle),
            Term::Method(ms) => ms.iter().any(|m| m.eq_ignore_ascii_case(s.method())),
            Term::Status(ps) => {
                let status = s.status();
                ps.iter().any(|p| p.matches(status))
            }
            Term::Path(g) => {
                let uri = s.uri();
                let path = uri.split_once('?').map_or(uri, |(p, _)| p);
                g.matches(path) || g.matches(uri)
            }
            Term::Tunnel(g) => g.matches(&s.tunnel),
            Term::Since(t) => OffsetDateTime::parse(&s.start, &Rfc3339).is_ok_and(|at| at >= *t),
            Term::Replayed => s.remote_addr == "replayed",
            Term::Signature(v) => {
                super::signed::check(s, &signing.secrets, signing.now).result == *v
            }
        }
    }
}

/// A word of a query and whether it began with a quote (so is free text).
struct Word {
    text: String,
    quoted: bool,
    negated: bool,
}

/// Splits on white space outside double quotes; `"` opens and closes a quoted run anywhere in
/// a word (`tunnel:"hook (http)"`), and `\` takes the next character as it is (`\"`).
fn words(text: &str) -> Result<Vec<Word>, FilterError> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            return Ok(out);
        }
        let negated = chars.next_if_eq(&'!').is_some();
        let mut word = String::new();
        let mut quoted = false;
        let mut in_quotes = false;
        while let Some(c) = chars.peek().copied() {
            if c == '\\' {
                chars.next();
                word.extend(chars.next());
            } else if c == '"' {
                chars.next();
                quoted |= word.is_empty();
                in_quotes = !in_quotes;
            } else if c.is_whitespace() && !in_quotes {
                break;
            } else {
                chars.next();
                word.push(c);
            }
        }
        if in_quotes {
            return Err(FilterError("a quote (\") is not closed".into()));
        }
        if word.is_empty() && !quoted {
            if negated {
                return Err(FilterError("'!' must be followed by a word".into()));
            }
            continue;
        }
        out.push(Word {
            text: word,
            quoted,
            negated,
        });
    }
}

fn clause(word: &Word, now: OffsetDateTime) -> Result<Clause, FilterError> {
    let text = |s: &str| Term::Text(s.to_lowercase());
    let term = if word.quoted {
        text(&word.text)
    } else if !word.quoted && word.text.eq_ignore_ascii_case("replayed") {
        Term::Replayed
    } else {
        match word.text.split_once(':') {
            Some((key, value)) => keyed(key, value, now)?.unwrap_or_else(|| text(&word.text)),
            None => text(&word.text),
        }
    };
    Ok(Clause {
        negated: word.negated,
        term,
    })
}

/// The keys of the language's `key:value` words.
pub const KEYS: [&str; 6] = ["method", "status", "path", "tunnel", "since", "sig"];

/// A `key:value` word; `None` when the key is not one of the language's.
fn keyed(key: &str, value: &str, now: OffsetDateTime) -> Result<Option<Term>, FilterError> {
    let key = key.to_ascii_lowercase();
    if !KEYS.contains(&key.as_str()) {
        return Ok(None);
    }
    term(&key, value, now).map(Some)
}

/// The term of `key:value` (`key` one of the language's, lower-case): the one parser of the
/// `/` bar's keyed words and of the `local requests list` flags (`--method`, `--status`,
/// `--path`, `--since`, `--signature`). A list (`method:get,post`) must name something.
pub fn term(key: &str, value: &str, now: OffsetDateTime) -> Result<Term, FilterError> {
    let empty = || FilterError(format!("{key}: needs a value"));
    if value.is_empty() {
        return Err(empty());
    }
    let list = || value.split(',').map(str::trim).filter(|v| !v.is_empty());
    Ok(match key {
        "method" => {
            let ms: Vec<String> = list().map(str::to_ascii_uppercase).collect();
            if ms.is_empty() {
                return Err(empty());
            }
            if let Some(bad) = ms.iter().find(|m| !is_token(m)) {
                return Err(FilterError(format!("method '{bad}' is not an HTTP method")));
            }
            Term::Method(ms)
        }
        "status" => {
            let ps = list()
                .map(StatusPattern::parse)
                .collect::<Result<Vec<_>, _>>()?;
            if ps.is_empty() {
                return Err(empty());
            }
            Term::Status(ps)
        }
        "path" => Term::Path(Glob::parse(value).map_err(|e| FilterError(format!("path: {e}")))?),
        "tunnel" => {
            Term::Tunnel(Glob::parse(value).map_err(|e| FilterError(format!("tunnel: {e}")))?)
        }
        "since" => Term::Since(since(value, now)?),
        "sig" => Term::Signature(
            value
                .parse()
                .map_err(|why| FilterError(format!("sig '{value}': {why}")))?,
        ),
        _ => return Err(FilterError(format!("'{key}' is not a filter key"))),
    })
}

/// `10m`, `90s`, `1h` back from `now`, or an RFC 3339 time.
pub fn since(value: &str, now: OffsetDateTime) -> Result<OffsetDateTime, FilterError> {
    if let Ok(at) = OffsetDateTime::parse(value, &Rfc3339) {
        return Ok(at);
    }
    let back = crate::parse::parse_lookback(value).map_err(|e| {
        FilterError(format!(
            "since: {e}; or an RFC 3339 time (2026-01-02T15:04:05Z)"
        ))
    })?;
    let back = time::Duration::try_from(back)
        .map_err(|_| FilterError(format!("since '{value}' is too far back")))?;
    Ok(now - back)
}

/// Does `hay` hold `needle` (lower-case), ignoring ASCII case?
pub fn contains_ignore_case(hay: &[u8], needle: &[u8]) -> bool {
    if needle.is_empty() {
        return true;
    }
    if hay.len() < needle.len() {
        return false;
    }
    let first = needle[0];
    let last_start = hay.len() - needle.len();
    (0..=last_start).any(|i| {
        hay[i].to_ascii_lowercase() == first
            && hay[i..i + needle.len()]
                .iter()
                .zip(needle)
                .all(|(h, n)| h.to_ascii_lowercase() == *n)
    })
}

/// Does `hay` hold `needle` (already lower-case), in any case, beyond ASCII too
/// (`ÉCOLE` holds `école`)?
pub fn contains_folded(hay: &str, needle: &str) -> bool {
    if needle.is_ascii() && hay.is_ascii() {
        return contains_ignore_case(hay.as_bytes(), needle.as_bytes());
    }
    hay.to_lowercase().contains(needle)
}

/// The decoded text of a capture, as a text search reads it besides its bytes: the request,
/// then the response, each with its body decoded ([`crate::capture::body::searchable`]:
/// gzip and deflate undone, form fields percent-decoded, JSON escapes read), whole.
pub fn decoded_text(e: &Exchange) -> String {
    let mut text = searchable(&e.request_message());
    if let Some(response) = e.response_message() {
        text.push('\n');
        text.push_str(&searchable(&response));
    }
    text
}

/// Does the capture hold `needle` (already lower-case) in its bytes as captured (start line,
/// header names and values, body), ignoring ASCII case?
pub fn holds_raw(e: &Exchange, needle: &str) -> bool {
    let n = needle.as_bytes();
    let holds = |part: &Part, is_request: bool| match &part.raw {
        Some(raw) => contains_ignore_case(raw, n),
        None => contains_ignore_case(&part.message(is_request).to_bytes(), n),
    };
    holds(&e.request, true)
        || e.response.as_ref().is_some_and(|r| holds(r, false))
        || contains_ignore_case(e.method().as_bytes(), n)
        || contains_ignore_case(e.uri().as_bytes(), n)
}

/// Does the request or the response hold `needle` (already lower-case): in its bytes, or in
/// its decoded text in any case? One rule for the live `--grep`, the inspector's `/` and
/// `--history --grep`.
fn contains_text(e: &Exchange, needle: &str) -> bool {
    holds_raw(e, needle) || contains_folded(&decoded_text(e), needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{json, Value};
    use time::macros::datetime;

    use crate::capture::message::encode_base64 as b64;

    /// A capture as the agent lists it.
    fn capture(
        method: &str,
        uri: &str,
        status: u16,
        tunnel: &str,
        from: &str,
        body: &str,
    ) -> Value {
        let req = format!(
            "{method} {uri} HTTP/1.1\r\nHost: x.test\r\nX-Signature: Sig-ABC\r\n\r\n{body}"
        );
        let resp = format!("HTTP/1.1 {status} Whatever\r\nContent-Type: text/plain\r\n\r\nok");
        json!({
            "id": "airt_1", "tunnel_name": tunnel, "remote_addr": from,
            "start": "2026-01-02T10:00:00Z", "duration": 1000,
            "request": {"method": method, "uri": uri, "proto": "HTTP/1.1", "headers": {}, "raw": b64(req.as_bytes())},
            "response": {"status": format!("{status} Whatever"), "status_code": status, "proto": "HTTP/1.1", "headers": {}, "raw": b64(resp.as_bytes())}
        })
    }

    fn hook() -> Value {
        capture(
            "POST",
            "/hooks/stripe?n=1",
            502,
            "hook (http)",
            "10.0.0.1",
            "{\"event\":\"Paid\"}",
        )
    }

    fn m(q: &str, v: &Value) -> bool {
        Query::parse_at(q, datetime!(2026-01-02 10:05:00 UTC))
            .unwrap_or_else(|e| panic!("{q}: {e}"))
            .matches(&Exchange::from_json(&v.to_string()).expect("a capture"))
    }

    #[test]
    fn keyed_words() {
        let v = hook();
        for yes in [
            "",
            "method:POST",
            "method:get,post",
            "status:502",
            "status:5xx",
            "status:2xx,5XX",
            "path:/hooks/*",
            "path:/hooks/stripe",
            "path:/hooks/stripe?n=1",
            "path:/h?oks/*",
            "tunnel:\"hook (http)\"",
            "tunnel:hook*",
            "since:10m",
            "since:2026-01-02T09:00:00Z",
            "!replayed",
            "!method:GET",
            "method:POST status:5xx path:/hooks/*",
        ] {
            assert!(m(yes, &v), "{yes}");
        }
        for no in [
            "method:GET",
            "status:404",
            "status:4xx",
            "status:pending",
            "path:/hooks",
            "path:/other/*",
            "tunnel:hook",
            "since:1m",
            "replayed",
            "!status:5xx",
            "method:POST status:4xx",
        ] {
            assert!(!m(no, &v), "{no}");
        }
        let replayed = capture("GET", "/", 200, "t", "replayed", "");
        assert!(m("replayed", &replayed));
        assert!(m("REPLAYED method:get", &replayed));
    }

    #[test]
    fn sig_words_check_with_the_secrets_given() {
        use crate::signature::{sign, Provider, Secrets};
        let body = "{\"event\":\"paid\"}";
        let signed = sign::<&str, &str>(&[], body.as_bytes(), Provider::Github, "s3cret", 0)
            .expect("a signature");
        let (name, value) = &signed[0];
        let req = format!("POST /h HTTP/1.1\r\nHost: x\r\n{name}: {value}\r\n\r\n{body}");
        let v = json!({"request": {"method": "POST", "uri": "/h", "raw": b64(req.as_bytes())}});
        let e = Exchange::from_json(&v.to_string()).expect("a capture");
        let q = |text: &str, secret: &str| {
            Query::parse(text)
                .expect(text)
                .signing(Secrets::new().with(Provider::Github, secret), 100)
                .matches(&e)
        };
        assert!(q("sig:valid", "s3cret") && q("!sig:invalid", "s3cret"));
        assert!(q("sig:invalid", "other") && q("sig:no-secret", ""));
        assert!(!q("sig:unsigned", "s3cret"));
        assert!(m("sig:unsigned", &hook()) && !m("sig:no-secret", &hook()));
        assert!(Query::parse("sig:bogus").is_err());
        assert!(Query::parse("sig:Valid").unwrap().checks_signatures());
    }

    #[test]
    fn free_text_looks_everywhere_ignoring_case() {
        let v = hook();
        for yes in [
            "post",
            "stripe",
            "502",
            "x-signature",
            "sig-abc",
            "paid",
            "\\\"event\\\":\\\"paid\\\"",
            "text/plain",
            "\"hooks/stripe\"",
        ] {
            assert!(m(yes, &v), "{yes}");
        }
        for no in ["delete", "unpaid", "\"event paid\"", "airt_1"] {
            assert!(!m(no, &v), "{no}");
        }
        // Unknown keys are free text: a header searched as `name:value` text.
        let ct = capture("GET", "/", 200, "t", "a", "");
        assert!(m("content-type:", &ct) || m("content-type", &ct));
        assert!(m("\"content-type: text\"", &ct));
    }

    #[test]
    fn fields_stand_in_for_missing_raw_bytes() {
        let v = json!({
            "request": {"method": "PUT", "uri": "/a", "proto": "HTTP/1.1", "headers": {"X-Id": ["Q7"]}},
            "response": null, "tunnel_name": "t", "remote_addr": "1.2.3.4", "start": "2026-01-02T10:00:00Z"
        });
        assert!(m("x-id", &v));
        assert!(m("q7", &v));
        assert!(m("status:pending", &v));
        assert!(!m("status:2xx", &v));
        // The real agent's pending response: status_code 0, raw null.
        let pending = json!({"request": {"method": "GET", "uri": "/"}, "response": {"status_code": 0, "raw": null}});
        assert!(m("status:pending", &pending));
    }

    #[test]
    fn bad_values_say_why() {
        for (q, why) in [
            ("status:abc", "status 'abc'"),
            ("status:600", "status '600'"),
            ("status:4x", "status '4x'"),
            ("method:", "method: needs a value"),
            ("method:G(T", "not an HTTP method"),
            ("since:forever", "since:"),
            ("tunnel:\"open", "not closed"),
            ("!", "must be followed"),
        ] {
            let e = Query::parse(q).expect_err(q);
            assert!(e.to_string().contains(why), "{q}: {e}");
        }
    }

    #[test]
    fn the_clauses_are_visible() {
        let q = Query::parse("!method:get \"x y\"").unwrap();
        assert_eq!(
            q.clauses(),
            &[
                Clause {
                    negated: true,
                    term: Term::Method(vec!["GET".into()])
                },
                Clause {
                    negated: false,
                    term: Term::Text("x y".into())
                },
            ]
        );
        assert!(Query::parse("   ").unwrap().is_empty());
    }

    proptest! {
        #[test]
        fn parsing_never_panics(q in "\\PC{0,40}") {
            let _ = Query::parse(&q);
        }

        #[test]
        fn any_piece_of_the_path_finds_it(path in "/[a-zA-Z0-9_]{1,20}", from in 0usize..10, len in 1usize..10) {
            let v = capture("GET", &path, 200, "t", "a", "");
            let from = from.min(path.len() - 1);
            let piece = &path[from..(from + len).min(path.len())];
            let quoted = format!("\"{piece}\"");
            let keyed = format!("path:{path}");
            prop_assert!(m(&quoted, &v));
            prop_assert!(m(&keyed, &v));
            prop_assert!(Glob::parse("*").unwrap().matches(&path));
        }

        #[test]
        fn negation_turns_every_word_round(q in "(method:(GET|POST)|status:[1-5]xx|replayed|stripe|path:/hooks/\\*)") {
            let v = hook();
            let turned = format!("!{q}");
            prop_assert_ne!(m(&q, &v), m(&turned, &v));
        }
    }
}
