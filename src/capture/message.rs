//! One HTTP message as a value, the only one in the crate: read leniently from captured bytes
//! (to show whatever a visitor sent), strictly from a request to be sent again (a capture, an
//! HTTP message file that `get --raw` and `save` write and a person edits, a HAR entry), and
//! written back as bytes. Also the crate's one HTTP-token and header-value check, its one
//! base64 decode of a capture's `raw` and its one de-chunker.
//!
//! A strictly read request keeps its body decoded (a chunked body de-chunked), and the framing
//! headers always describe it: `Transfer-Encoding: chunked` gives way to a `Content-Length`
//! that matches the body, which is also set again after any change. So a message read, changed
//! and written is always a valid message, and one read and written unchanged is byte for byte
//! the same when it was written that way.

use url::Url;

use crate::escape::escape;

/// An HTTP request or response.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Message {
    /// `POST /hooks HTTP/1.1` or `HTTP/1.1 200 OK`, as written (a strictly read request's is
    /// always `METHOD TARGET VERSION`, one space apart).
    pub start_line: String,
    /// Header names and values, in order; a name may repeat.
    pub headers: Vec<(String, String)>,
    /// The body, decoded from its transfer coding when it was chunked.
    pub body: Vec<u8>,
    /// Header lines of a captured message left out of `headers`, past [`MAX_HEADER_LINES`]
    /// or [`MAX_HEAD_BYTES`]: a visitor's header bomb costs what its first lines cost, and
    /// every view shows the rest as this count.
    pub more_headers: usize,
}

/// The bounds on a captured message's head are those the HTTP layer keeps for any answer.
pub use crate::http::{MAX_HEADER_LINES, MAX_HEAD_BYTES};

/// Keeps header lines within [`MAX_HEADER_LINES`] and [`MAX_HEAD_BYTES`], counting the rest:
/// the one rule for the raw bytes and the agent's `headers` maps alike.
#[derive(Debug, Default)]
pub struct HeaderBudget {
    kept: usize,
    bytes: usize,
    /// Lines refused so far.
    pub more: usize,
}

impl HeaderBudget {
    /// May a line of `len` bytes be kept? Counts it when not.
    pub fn take(&mut self, len: usize) -> bool {
        if self.kept < MAX_HEADER_LINES && self.bytes + len <= MAX_HEAD_BYTES {
            self.kept += 1;
            self.bytes += len;
            true
        } else {
            self.more += 1;
            false
        }
    }
}

/// "… 1,999,950 more header lines", as every view says it.
pub fn more_headers_note(more: usize) -> String {
    let digits = more.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let lines = if more == 1 { "line" } else { "lines" };
    format!("… {grouped} more header {lines}")
}

/// Is `s` an HTTP token (a method or a header name)?
pub fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Can `s` be sent as a header value: no ASCII control character but tab (bytes from 0x80 up
/// are obs-text, which HTTP allows and servers such as the agent pass on)?
pub fn is_header_value(s: &str) -> bool {
    !s.bytes().any(|b| (b < 0x20 && b != b'\t') || b == 0x7f)
}

pub use crate::encoding::{decode_base64, encode_base64};

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Decodes a chunked body; `None` when it is not valid chunked encoding.
pub fn dechunk(mut data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = find(data, b"\r\n")?;
        let size_text = std::str::from_utf8(&data[..line_end]).ok()?;
        let size_text = size_text.split(';').next()?.trim();
        let size = usize::from_str_radix(size_text, 16).ok()?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        if data.len() < size {
            return None;
        }
        out.extend_from_slice(&data[..size]);
        data = data.get(size + 2..)?;
    }
}

impl Message {
    /// Splits raw HTTP/1.x bytes into start line, headers and body, for display. Tolerant:
    /// bare `\n` line ends and a missing blank line are accepted, and nothing is refused.
    pub fn lenient(raw: &[u8]) -> Message {
        let (head, body) = match find(raw, b"\r\n\r\n") {
            Some(i) => (&raw[..i], &raw[i + 4..]),
            None => match find(raw, b"\n\n") {
                Some(i) => (&raw[..i], &raw[i + 2..]),
                None => (raw, &raw[raw.len()..]),
            },
        };
        let head = String::from_utf8_lossy(head);
        let mut lines = head.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
        let start_line = lines.next().unwrap_or("").to_string();
        let mut budget = HeaderBudget::default();
        let headers = lines
            .filter(|l| !l.is_empty() && budget.take(l.len()))
            .map(|l| match l.split_once(':') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                None => (l.to_string(), String::new()),
            })
            .collect::<Vec<_>>();
        let mut msg = Message {
            start_line,
            headers,
            body: body.to_vec(),
            more_headers: budget.more,
        };
        if msg
            .header("transfer-encoding")
            .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"))
        {
            if let Some(plain) = dechunk(&msg.body) {
                msg.body = plain;
            }
        }
        msg
    }

    /// A request from its parts (a HAR entry's), framed for its body.
    pub fn request(
        method: &str,
        target: &str,
        version: &str,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    ) -> Message {
        Message {
            start_line: format!("{method} {target} {version}"),
            headers,
            body,
            more_headers: 0,
        }
    }

    /// The first word of the start line: a request's method (`""` when there is none).
    pub fn method(&self) -> &str {
        self.start_line.split(' ').next().unwrap_or("")
    }

    /// The second word of the start line: a request's target.
    pub fn target(&self) -> Option<&str> {
        self.start_line.split(' ').nth(1)
    }

    /// A request's HTTP version: the third word of its start line.
    pub fn version(&self) -> &str {
        self.start_line.split(' ').nth(2).unwrap_or("HTTP/1.1")
    }

    /// Reads an HTTP/1.x request message. Lines may end in CRLF or LF; blank lines before the
    /// request line are skipped; a message without a body needs no blank line at its end.
    ///
    /// The body is everything after the blank line (a person may have edited it without
    /// counting), except that a single line end an editor added after a body of exactly
    /// `Content-Length` bytes is dropped, and a chunked body is de-chunked.
    pub fn parse_request(bytes: &[u8]) -> std::result::Result<Message, String> {
        let start = bytes
            .iter()
            .position(|b| *b != b'\r' && *b != b'\n')
            .ok_or("the message is empty")?;
        let bytes = &bytes[start..];
        let (head, mut body) = split_head(bytes);
        let head = std::str::from_utf8(head).map_err(|_| "the head is not UTF-8 text")?;
        let mut lines = head.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
        let request_line = lines.next().unwrap_or("");
        let (method, target, version) = request_line_parts(request_line)?;
        let mut headers: Vec<(String, String)> = Vec::new();
        for (n, line) in lines.enumerate() {
            if line.starts_with([' ', '\t']) {
                // Obsolete line folding: the line continues the previous value.
                let Some((_, value)) = headers.last_mut() else {
                    return Err("the first header line starts with white space".into());
                };
                value.push(' ');
                value.push_str(line.trim());
                continue;
            }
            let (name, value) = line.split_once(':').ok_or_else(|| {
                format!(
                    "header line {} has no colon: '{}'",
                    n + 2,
                    escape(&line.chars().take(60).collect::<String>())
                )
            })?;
            if !is_token(name) {
                return Err(format!(
                    "'{}' (line {}) is not a valid header name",
                    escape(name),
                    n + 2
                ));
            }
            // A value with control characters is kept, to be shown, saved or removed; it is
            // refused only when the message is to be sent (`unsendable`).
            let value = value.trim_matches([' ', '\t']);
            headers.push((name.to_string(), value.to_string()));
        }
        let mut msg = Message::request(&method, &target, &version, headers, Vec::new());
        if let Some(te) = msg.header("transfer-encoding") {
            if !te.eq_ignore_ascii_case("chunked") {
                return Err(format!(
                    "Transfer-Encoding '{}' is not supported (only chunked)",
                    escape(te)
                ));
            }
            msg.body = dechunk(body).ok_or("the body is not valid chunked encoding")?;
            msg.remove_header("transfer-encoding");
            msg.set_header("Content-Length", &msg.body.len().to_string());
            return Ok(msg);
        }
        if let Some(declared) = msg.header("content-length") {
            let declared: usize = declared
                .parse()
                .map_err(|_| format!("Content-Length '{}' is not a number", escape(declared)))?;
            for end in [&b"\r\n"[..], b"\n"] {
                if body.len().checked_sub(end.len()) == Some(declared) && body.ends_with(end) {
                    body = &body[..declared];
                }
            }
        }
        msg.body = body.to_vec();
        msg.frame();
        Ok(msg)
    }

    /// Why the message cannot be sent as it is, if it cannot: a header value holding a
    /// control character (a capture may hold one; no server takes it).
    pub fn unsendable(&self) -> Option<String> {
        self.headers
            .iter()
            .find(|(_, v)| !is_header_value(v))
            .map(|(k, v)| {
                format!(
                    "the header {}: {} holds control characters that cannot be sent (remove it with --remove-header {})",
                    escape(k),
                    escape(v),
                    escape(k)
                )
            })
    }

    /// The message as bytes: request line, headers, a blank line, the body (CRLF line ends).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(256 + self.body.len());
        out.extend_from_slice(format!("{}\r\n", self.start_line).as_bytes());
        for (k, v) in &self.headers {
            out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&self.body);
        out
    }

    /// The first value of a header (any case of the name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Removes every value of a header; returns whether there was one.
    pub fn remove_header(&mut self, name: &str) -> bool {
        let before = self.headers.len();
        self.headers.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
        self.headers.len() != before
    }

    /// Gives a header this one value: in the place of its first value when it had one (the
    /// others removed), else at the end.
    pub fn set_header(&mut self, name: &str, value: &str) {
        self.set_header_values(name, &[value.to_string()]);
    }

    /// Gives a header these values, in the place of its first value when it had one.
    pub fn set_header_values(&mut self, name: &str, values: &[String]) {
        let at = self
            .headers
            .iter()
            .position(|(k, _)| k.eq_ignore_ascii_case(name));
        self.remove_header(name);
        let at = at.unwrap_or(self.headers.len()).min(self.headers.len());
        for (i, v) in values.iter().enumerate() {
            self.headers.insert(at + i, (name.to_string(), v.clone()));
        }
    }

    /// Makes `Content-Length` match the body: set when there is a body or one was declared.
    pub fn frame(&mut self) {
        if !self.body.is_empty() || self.header("content-length").is_some() {
            self.set_header("Content-Length", &self.body.len().to_string());
        }
    }
}

/// The head and the body of a message: split at the first blank line.
fn split_head(bytes: &[u8]) -> (&[u8], &[u8]) {
    let mut i = 0;
    while let Some(nl) = bytes[i..].iter().position(|b| *b == b'\n') {
        let line_end = i + nl + 1;
        let rest = &bytes[line_end..];
        if rest.starts_with(b"\r\n") {
            return (&bytes[..i + nl], &rest[2..]);
        }
        if rest.starts_with(b"\n") {
            return (&bytes[..i + nl], &rest[1..]);
        }
        i = line_end;
    }
    let head = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    (head.strip_suffix(b"\r").unwrap_or(head), &[])
}

/// `METHOD TARGET HTTP/x.y`: the target made a path (an absolute-form `http://host/p` becomes
/// `/p`; any other form is refused, see `replay::check`); a missing version is HTTP/1.1.
fn request_line_parts(line: &str) -> std::result::Result<(String, String, String), String> {
    let shown = || escape(&line.chars().take(80).collect::<String>());
    let words: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).collect();
    let (method, target, version) = match words.as_slice() {
        [m, t, v] => (*m, *t, *v),
        [m, t] => (*m, *t, "HTTP/1.1"),
        _ => {
            return Err(format!(
                "the first line must be 'METHOD /path HTTP/1.1', not '{}'",
                shown()
            ))
        }
    };
    if !is_token(method) {
        return Err(format!("'{}' is not a valid method", escape(method)));
    }
    if !version.starts_with("HTTP/") {
        return Err(format!("'{}' is not an HTTP version", escape(version)));
    }
    let target = origin_form(target)?;
    if target.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(format!(
            "the request target '{}' holds white space or control characters",
            escape(&target)
        ));
    }
    Ok((method.to_string(), target, version.to_string()))
}

/// The path and query to send for a request `target` (a request line's, or a HAR entry's
/// URL), or why it is refused.
pub fn origin_form(target: &str) -> Result<String, String> {
    if target.starts_with('/') {
        return Ok(target.to_string());
    }
    let refused = || {
        if target.is_empty() {
            "the request target is empty: it must be a path (/…) or an http:// or https:// URL"
                .to_string()
        } else {
            format!(
                "the request target '{}' is neither a path (/…) nor an http:// or https:// URL",
                escape(&target.chars().take(80).collect::<String>())
            )
        }
    };
    let url = Url::parse(target).map_err(|_| refused())?;
    if !matches!(url.scheme(), "http" | "https") || url.cannot_be_a_base() || !url.has_host() {
        return Err(refused());
    }
    Ok(match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_byte_for_byte() {
        let raw = b"POST /hook?n=1 HTTP/1.1\r\nHost: a.test\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}";
        let m = Message::parse_request(raw).unwrap();
        assert_eq!(m.method(), "POST");
        assert_eq!(m.target(), Some("/hook?n=1"));
        assert_eq!(m.header("content-type"), Some("application/json"));
        assert_eq!(m.body, b"{\"a\":1}");
        assert_eq!(m.to_bytes(), raw);
    }

    #[test]
    fn tolerates_what_editors_and_people_do() {
        let m = Message::parse_request(b"\nGET /x HTTP/1.1\nHost: a\n").unwrap();
        assert_eq!((m.target(), m.header("host")), (Some("/x"), Some("a")));
        assert!(m.body.is_empty());
        assert_eq!(m.header("content-length"), None);
        // The newline an editor adds after the body is not part of it.
        let m = Message::parse_request(b"POST / HTTP/1.1\nContent-Length: 2\n\nhi\n").unwrap();
        assert_eq!(m.body, b"hi");
        // A body edited without counting: taken whole, Content-Length set again.
        let m =
            Message::parse_request(b"POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nhello").unwrap();
        assert_eq!(m.body, b"hello");
        assert_eq!(m.header("content-length"), Some("5"));
        let m = Message::parse_request(b"POST http://h.test/p?q=1 HTTP/1.1\r\nX: a\r\n  b\r\n\r\n")
            .unwrap();
        assert_eq!(m.target(), Some("/p?q=1"));
        assert_eq!(m.header("x"), Some("a b"));
    }

    #[test]
    fn chunked_bodies_are_decoded_and_reframed() {
        let m = Message::parse_request(
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        )
        .unwrap();
        assert_eq!(m.body, b"hello");
        assert_eq!(m.header("transfer-encoding"), None);
        assert_eq!(m.header("content-length"), Some("5"));
    }

    #[test]
    fn refuses_what_is_not_a_request() {
        for (bad, says) in [
            (&b""[..], "empty"),
            (b"hello", "first line"),
            (b"G(T / HTTP/1.1\r\n\r\n", "method"),
            (b"GET x HTTP/1.1\r\n\r\n", "target"),
            (b"GET / FTP/1\r\n\r\n", "version"),
            (b"GET / HTTP/1.1\r\nnocolon\r\n\r\n", "no colon"),
            (b"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", "header name"),
            (
                b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n",
                "not a number",
            ),
            (
                b"GET / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
                "not supported",
            ),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz",
                "chunked",
            ),
        ] {
            let e = Message::parse_request(bad).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn control_characters_are_kept_but_not_sendable() {
        let m =
            Message::parse_request(b"GET / HTTP/1.1\r\nX: a\x1bb\r\nY: \xc2\x9b\r\n\r\n").unwrap();
        assert_eq!(m.header("x"), Some("a\u{1b}b"));
        let why = m.unsendable().unwrap();
        assert!(
            why.contains("X: a\\x1bb") && why.contains("--remove-header X"),
            "{why}"
        );
        let mut m = m;
        m.remove_header("x");
        assert_eq!(
            m.unsendable(),
            None,
            "obs-text (a UTF-8 C1 character) may be sent"
        );
    }

    #[test]
    fn reads_leniently_and_dechunks() {
        let m = Message::lenient(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
        assert_eq!(m.start_line, "HTTP/1.1 200 OK");
        assert_eq!(m.body, b"hello world");
        let m = Message::lenient(b"GET / HTTP/1.1\nHost: x\n\nbody");
        assert_eq!(m.header("host"), Some("x"));
        assert_eq!(m.body, b"body");
    }

    #[test]
    fn a_header_bomb_is_kept_as_a_count() {
        let mut raw = b"HTTP/1.1 200 OK\r\n".to_vec();
        for i in 0..5000 {
            raw.extend_from_slice(format!("x{i}: v\r\n").as_bytes());
        }
        raw.extend_from_slice(b"\r\nbody");
        let m = Message::lenient(&raw);
        assert_eq!(m.headers.len(), MAX_HEADER_LINES);
        assert_eq!(m.more_headers, 5000 - MAX_HEADER_LINES);
        assert_eq!(m.body, b"body");
        assert_eq!(
            more_headers_note(1_999_950),
            "… 1,999,950 more header lines"
        );
        assert_eq!(more_headers_note(1), "… 1 more header line");
        assert_eq!(more_headers_note(999), "… 999 more header lines");
        let long = format!(
            "HTTP/1.1 200 OK\r\nBig: {}\r\nSmall: 1\r\n\r\n",
            "a".repeat(MAX_HEAD_BYTES)
        );
        let m = Message::lenient(long.as_bytes());
        assert_eq!((m.headers.len(), m.more_headers), (1, 1));
    }

    #[test]
    fn headers_are_set_in_place() {
        let mut m =
            Message::parse_request(b"GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nA: 3\r\n\r\n").unwrap();
        m.set_header("a", "9");
        assert_eq!(
            m.headers,
            vec![("a".into(), "9".into()), ("B".into(), "2".into())]
        );
        assert!(m.remove_header("B"));
        assert!(!m.remove_header("B"));
        m.set_header("C", "x");
        assert_eq!(m.headers.last(), Some(&("C".into(), "x".into())));
    }
}
