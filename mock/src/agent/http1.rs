//! HTTP/1.x on the wire, for the tunnels: reading a message head and its body exactly as the
//! bytes arrived (Content-Length, chunked with trailers, or until close), so the emulator can
//! forward them unchanged and capture them as `raw`; and describing a head the way the agent
//! shows it (Go's canonical header names, the headers Go's parser drops).
//!
//! A hand-rolled reader rather than hyper because hyper normalises what it reads (header case,
//! chunk boundaries), and the point of a capture is the bytes as they were sent.

use std::borrow::Cow;
use std::io;

use tokio::io::{AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// Largest message head accepted.
const MAX_HEAD: usize = 1024 * 1024;
/// Most header lines in a head.
const MAX_HEADERS: usize = 256;
/// Longest chunk-size or trailer line.
const MAX_LINE: usize = 64 * 1024;

/// How a message body is delimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// No body.
    Empty,
    /// Exactly this many bytes.
    Length(u64),
    /// Chunked transfer coding.
    Chunked,
    /// Everything until the peer closes (responses only).
    UntilClose,
}

/// One header as received: the name as sent and the value trimmed.
#[derive(Debug, Clone)]
pub struct Header {
    /// Name, as sent.
    pub name: String,
    /// Value, without surrounding spaces.
    pub value: String,
}

/// A parsed request line and headers.
#[derive(Debug, Clone)]
pub struct RequestHead {
    /// Method.
    pub method: String,
    /// Request target as sent (`/path?query`).
    pub target: String,
    /// Minor version: 0 or 1.
    pub minor: u8,
    /// Headers in order.
    pub headers: Vec<Header>,
}

/// A parsed status line and headers.
#[derive(Debug, Clone)]
pub struct ResponseHead {
    /// Status code.
    pub code: u16,
    /// Everything after the version on the status line (`200 OK`), as Go's `Status`.
    pub status: String,
    /// Minor version: 0 or 1.
    pub minor: u8,
    /// Headers in order.
    pub headers: Vec<Header>,
}

/// A message that could not be parsed.
#[derive(Debug)]
pub struct BadMessage(pub String);

/// The headers httparse found in `parsed` (the lenient copy of `original`), each value taken
/// from `original` at the same place, so a control character the copy stood in for is kept.
fn headers_of(raw: &[httparse::Header<'_>], parsed: &[u8], original: &[u8]) -> Vec<Header> {
    let base = parsed.as_ptr() as usize;
    raw.iter()
        .map(|h| {
            let start = (h.value.as_ptr() as usize).wrapping_sub(base);
            let value = original
                .get(start..start.saturating_add(h.value.len()))
                .unwrap_or(h.value);
            Header {
                name: h.name.to_string(),
                value: String::from_utf8_lossy(value)
                    .trim_matches(|c| c == ' ' || c == '\t')
                    .to_string(),
            }
        })
        .collect()
}

/// What httparse gets in place of a control character in a header line: a byte it takes in
/// a value but not in a name, so a name holding one is still refused (as Go refuses it).
const STAND_IN: u8 = b'"';

/// `bytes` as httparse will read them. Go's header reader, and so the agent, keeps control
/// characters (ESC, NUL, ...) inside header values where httparse refuses them; here each one
/// after the start line and before the blank line that ends the head is replaced by
/// [`STAND_IN`] in a copy of the same length, so positions in the copy are positions in
/// `bytes`. Borrowed when there is nothing to replace, as nearly always.
fn lenient(bytes: &[u8]) -> Cow<'_, [u8]> {
    let Some(line_end) = bytes.iter().position(|&b| b == b'\n') else {
        return Cow::Borrowed(bytes);
    };
    let head_end = find_blank_line(bytes, line_end).unwrap_or(bytes.len());
    let is_stray = |b: &u8| b.is_ascii_control() && !matches!(b, b'\r' | b'\n' | b'\t');
    let headers = line_end..head_end;
    if !bytes[headers.clone()].iter().any(is_stray) {
        return Cow::Borrowed(bytes);
    }
    let mut copy = bytes.to_vec();
    for b in &mut copy[headers] {
        if is_stray(b) {
            *b = STAND_IN;
        }
    }
    Cow::Owned(copy)
}

/// Where the blank line that ends a head starts, looking from the end of the start line.
fn find_blank_line(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let at = rest
        .windows(3)
        .position(|w| w == b"\n\r\n")
        .into_iter()
        .chain(rest.windows(2).position(|w| w == b"\n\n"))
        .min()?;
    Some(from + at + 1)
}

/// All values of a header (case-insensitive name), in order.
pub fn values<'a>(headers: &'a [Header], name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    headers
        .iter()
        .filter(move |h| h.name.eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str())
}

/// Whether a comma-separated header (`Connection`, `Transfer-Encoding`) has `token`.
pub fn has_token(headers: &[Header], name: &str, token: &str) -> bool {
    values(headers, name)
        .flat_map(|v| v.split(','))
        .any(|t| t.trim().eq_ignore_ascii_case(token))
}

fn is_chunked(headers: &[Header]) -> bool {
    values(headers, "transfer-encoding")
        .flat_map(|v| v.split(','))
        .last()
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("chunked"))
}

fn content_length(headers: &[Header]) -> Result<Option<u64>, BadMessage> {
    let mut found: Option<u64> = None;
    for v in values(headers, "content-length") {
        let n: u64 = v
            .trim()
            .parse()
            .map_err(|_| BadMessage(format!("invalid Content-Length {v:?}")))?;
        if found.is_some_and(|f| f != n) {
            return Err(BadMessage("conflicting Content-Length headers".to_string()));
        }
        found = Some(n);
    }
    Ok(found)
}

/// Whether httparse read a whole head.
fn complete(parsed: httparse::Result<usize>) -> Result<(), BadMessage> {
    match parsed {
        Ok(httparse::Status::Complete(_)) => Ok(()),
        Ok(httparse::Status::Partial) => Err(BadMessage("incomplete head".to_string())),
        Err(e) => Err(BadMessage(e.to_string())),
    }
}

/// The protocol name of HTTP/1 minor version `minor`.
fn proto(minor: u8) -> String {
    format!("HTTP/1.{minor}")
}

impl RequestHead {
    /// Parses a complete head.
    pub fn parse(bytes: &[u8]) -> Result<Self, BadMessage> {
        let mut raw = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut req = httparse::Request::new(&mut raw);
        let parsed = lenient(bytes);
        complete(req.parse(&parsed))?;
        Ok(RequestHead {
            method: req.method.unwrap_or("GET").to_string(),
            target: req.path.unwrap_or("/").to_string(),
            minor: req.version.unwrap_or(1),
            headers: headers_of(req.headers, &parsed, bytes),
        })
    }

    /// `HTTP/1.x`.
    pub fn proto(&self) -> String {
        proto(self.minor)
    }

    /// How the body is delimited (requests without a length have none).
    pub fn framing(&self) -> Result<Framing, BadMessage> {
        if is_chunked(&self.headers) {
            return Ok(Framing::Chunked);
        }
        Ok(match content_length(&self.headers)? {
            Some(0) | None => Framing::Empty,
            Some(n) => Framing::Length(n),
        })
    }

    /// Whether the client wants the connection closed after this exchange.
    pub fn wants_close(&self) -> bool {
        if self.minor == 0 {
            !has_token(&self.headers, "connection", "keep-alive")
        } else {
            has_token(&self.headers, "connection", "close")
        }
    }

    /// Whether the client waits for `100 Continue` before sending the body.
    pub fn expects_continue(&self) -> bool {
        self.minor == 1 && has_token(&self.headers, "expect", "100-continue")
    }

    /// The headers as the agent shows them: Go's canonical names, sorted, values grouped,
    /// `Transfer-Encoding` dropped (and `Content-Length` when chunked), `Host` kept.
    pub fn shown_headers(&self) -> Vec<(String, Vec<String>)> {
        let chunked = is_chunked(&self.headers);
        let mut out = group(&self.headers, |name| {
            name == "Transfer-Encoding" || (chunked && name == "Content-Length")
        });
        // Go parses Host out of the headers (first value only); the agent puts it back.
        if let Some(entry) = out.iter_mut().find(|(n, _)| n == "Host") {
            entry.1.truncate(1);
        }
        out
    }
}

impl ResponseHead {
    /// Parses a complete head.
    pub fn parse(bytes: &[u8]) -> Result<Self, BadMessage> {
        let mut raw = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut resp = httparse::Response::new(&mut raw);
        let parsed = lenient(bytes);
        complete(resp.parse(&parsed))?;
        let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
        let line = String::from_utf8_lossy(first_line);
        let line = line.trim_end_matches('\r');
        let status = line
            .split_once(' ')
            .map(|(_, rest)| rest.trim_start_matches(' ').to_string())
            .unwrap_or_default();
        Ok(ResponseHead {
            code: resp.code.unwrap_or(0),
            status,
            minor: resp.version.unwrap_or(1),
            headers: headers_of(resp.headers, &parsed, bytes),
        })
    }

    /// `HTTP/1.x`.
    pub fn proto(&self) -> String {
        proto(self.minor)
    }

    /// How the body is delimited, given the request's method.
    pub fn framing(&self, request_method: &str) -> Result<Framing, BadMessage> {
        if request_method.eq_ignore_ascii_case("HEAD")
            || (100..200).contains(&self.code)
            || self.code == 204
            || self.code == 304
        {
            return Ok(Framing::Empty);
        }
        if is_chunked(&self.headers) {
            return Ok(Framing::Chunked);
        }
        Ok(match content_length(&self.headers)? {
            Some(0) => Framing::Empty,
            Some(n) => Framing::Length(n),
            None => Framing::UntilClose,
        })
    }

    /// Whether the server closes the connection after this response.
    pub fn closes(&self) -> bool {
        if self.minor == 0 {
            !has_token(&self.headers, "connection", "keep-alive")
        } else {
            has_token(&self.headers, "connection", "close")
        }
    }

    /// The headers as the agent shows them: Go's canonical names, sorted, values grouped;
    /// `Transfer-Encoding` dropped (and `Content-Length` when chunked), and on HTTP/1.1 a
    /// `Connection: close` dropped, as Go's response reader does.
    pub fn shown_headers(&self) -> Vec<(String, Vec<String>)> {
        let chunked = is_chunked(&self.headers);
        let drop_connection = self.minor >= 1 && has_token(&self.headers, "connection", "close");
        group(&self.headers, |name| {
            name == "Transfer-Encoding"
                || (chunked && name == "Content-Length")
                || (drop_connection && name == "Connection")
        })
    }
}

/// Groups headers by canonical name, sorted by name, leaving out those `skip` names.
fn group(headers: &[Header], skip: impl Fn(&str) -> bool) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for h in headers {
        let name = canonical(&h.name);
        if skip(&name) {
            continue;
        }
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, vs)) => vs.push(h.value.clone()),
            None => out.push((name, vec![h.value.clone()])),
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Go's `textproto.CanonicalMIMEHeaderKey`: `x-multi` -> `X-Multi`; names with characters
/// outside the token set are left as they are.
pub fn canonical(name: &str) -> String {
    let valid = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if !valid || name.is_empty() {
        return name.to_string();
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

/// A buffered connection: what has been read but not consumed stays in `buf`, so several
/// requests on one connection (keep-alive, pipelining) are read one after the other.
pub struct Conn {
    /// The socket (written to directly).
    pub stream: TcpStream,
    buf: Vec<u8>,
    pos: usize,
}

impl Conn {
    /// Wraps a connected socket.
    pub fn new(stream: TcpStream) -> Self {
        Conn {
            stream,
            buf: Vec::with_capacity(16 * 1024),
            pos: 0,
        }
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// Reads more bytes into the buffer; `Ok(0)` at end of stream.
    async fn fill(&mut self) -> io::Result<usize> {
        if self.pos > 0 && self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
        } else if self.pos > 64 * 1024 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        let start = self.buf.len();
        self.buf.resize(start + 64 * 1024, 0);
        let n = match self.stream.read(&mut self.buf[start..]).await {
            Ok(n) => n,
            Err(e) => {
                self.buf.truncate(start);
                return Err(e);
            }
        };
        self.buf.truncate(start + n);
        Ok(n)
    }

    fn take(&mut self, n: usize) -> &[u8] {
        let start = self.pos;
        self.pos += n;
        &self.buf[start..start + n]
    }

    /// The bytes read but not consumed, handed over (to splice an upgraded connection).
    pub fn leftover(&mut self) -> Vec<u8> {
        let rest = self.available().to_vec();
        self.buf.clear();
        self.pos = 0;
        rest
    }

    /// Reads one message head (through the blank line). `Ok(None)` when the peer closed
    /// before sending anything; an error when it closed half way or the head is too big.
    /// `is_request` picks the parser used to find the end of the head.
    pub async fn read_head(&mut self, is_request: bool) -> io::Result<Option<Vec<u8>>> {
        // Tolerate blank lines between messages, as HTTP/1.1 servers must.
        loop {
            while self.available().starts_with(b"\r\n") {
                self.pos += 2;
            }
            while self.available().starts_with(b"\n") {
                self.pos += 1;
            }
            if let Some(len) = head_len(self.available(), is_request)? {
                return Ok(Some(self.take(len).to_vec()));
            }
            if self.available().len() > MAX_HEAD {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "message head too large",
                ));
            }
            if self.fill().await? == 0 {
                if self.available().is_empty() {
                    return Ok(None);
                }
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
        }
    }

    /// Reads a body with the given framing, appending its bytes as they were on the wire to
    /// `raw` and, when given, writing them on to `forward` as they arrive.
    pub async fn read_body<W>(
        &mut self,
        framing: Framing,
        raw: &mut Vec<u8>,
        mut forward: Option<&mut W>,
    ) -> io::Result<()>
    where
        W: AsyncWrite + Unpin,
    {
        match framing {
            Framing::Empty => Ok(()),
            Framing::Length(n) => self.copy_exact(n, raw, &mut forward).await,
            Framing::UntilClose => loop {
                if !self.available().is_empty() {
                    let len = self.available().len();
                    let bytes = self.take(len).to_vec();
                    emit(&bytes, raw, &mut forward).await?;
                }
                if self.fill().await? == 0 {
                    return Ok(());
                }
            },
            Framing::Chunked => {
                loop {
                    let line = self.read_line().await?;
                    let size_text = String::from_utf8_lossy(&line);
                    let size_text = size_text.trim_end_matches(['\r', '\n']);
                    let size_text = size_text.split(';').next().unwrap_or("").trim();
                    let size = u64::from_str_radix(size_text, 16).map_err(|_| {
                        io::Error::new(io::ErrorKind::InvalidData, "bad chunk size")
                    })?;
                    emit(&line, raw, &mut forward).await?;
                    if size == 0 {
                        break;
                    }
                    self.copy_exact(size, raw, &mut forward).await?;
                    let crlf = self.read_line().await?;
                    emit(&crlf, raw, &mut forward).await?;
                }
                // Trailers, up to the blank line.
                loop {
                    let line = self.read_line().await?;
                    emit(&line, raw, &mut forward).await?;
                    if line == b"\r\n" || line == b"\n" {
                        return Ok(());
                    }
                }
            }
        }
    }

    async fn copy_exact<W>(
        &mut self,
        mut remaining: u64,
        raw: &mut Vec<u8>,
        forward: &mut Option<&mut W>,
    ) -> io::Result<()>
    where
        W: AsyncWrite + Unpin,
    {
        while remaining > 0 {
            if self.available().is_empty() && self.fill().await? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            let n = usize::try_from(remaining)
                .unwrap_or(usize::MAX)
                .min(self.available().len());
            let start = self.pos;
            self.pos += n;
            raw.extend_from_slice(&self.buf[start..start + n]);
            if let Some(w) = forward.as_mut() {
                w.write_all(&self.buf[start..start + n]).await?;
            }
            remaining -= n as u64;
        }
        Ok(())
    }

    async fn read_line(&mut self) -> io::Result<Vec<u8>> {
        loop {
            if let Some(i) = self.available().iter().position(|&b| b == b'\n') {
                return Ok(self.take(i + 1).to_vec());
            }
            if self.available().len() > MAX_LINE {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "line too long"));
            }
            if self.fill().await? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
        }
    }
}

async fn emit<W>(bytes: &[u8], raw: &mut Vec<u8>, forward: &mut Option<&mut W>) -> io::Result<()>
where
    W: AsyncWrite + Unpin,
{
    raw.extend_from_slice(bytes);
    if let Some(w) = forward.as_mut() {
        w.write_all(bytes).await?;
    }
    Ok(())
}

/// The length of the complete head at the start of `buf`, if it is all there.
fn head_len(buf: &[u8], is_request: bool) -> io::Result<Option<usize>> {
    let mut raw = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let buf = lenient(buf);
    let status = if is_request {
        httparse::Request::new(&mut raw).parse(&buf)
    } else {
        httparse::Response::new(&mut raw).parse(&buf)
    };
    match status {
        Ok(httparse::Status::Complete(n)) => Ok(Some(n)),
        Ok(httparse::Status::Partial) => Ok(None),
        Err(e) => Err(io::Error::new(io::ErrorKind::InvalidData, e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_names_like_go() {
        assert_eq!(canonical("x-multi"), "X-Multi");
        assert_eq!(canonical("CONTENT-TYPE"), "Content-Type");
        assert_eq!(canonical("host"), "Host");
        assert_eq!(canonical("bad name"), "bad name");
    }

    #[test]
    fn shown_headers_follow_go() {
        let head = RequestHead::parse(
            b"POST /c HTTP/1.1\r\nhost: a\r\nx-lower: 1\r\nX-LOWER: 2\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
        )
        .unwrap();
        let shown = head.shown_headers();
        assert_eq!(
            shown,
            vec![
                ("Host".to_string(), vec!["a".to_string()]),
                (
                    "X-Lower".to_string(),
                    vec!["1".to_string(), "2".to_string()]
                ),
            ]
        );
        let resp = ResponseHead::parse(
            b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 3\r\nConnection: close\r\nContent-Type: text/html\r\n\r\n",
        )
        .unwrap();
        assert_eq!(resp.status, "502 Bad Gateway");
        assert_eq!(
            resp.shown_headers()
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>(),
            ["Content-Length", "Content-Type"]
        );
    }

    #[test]
    fn control_characters_in_values_are_kept_as_sent() {
        let bytes = b"GET /x HTTP/1.1\r\nHost: a\r\nX-Evil: \x1b[31mred\x00\r\n\r\nbody\x1b";
        assert_eq!(head_len(bytes, true).unwrap(), Some(bytes.len() - 5));
        let head = RequestHead::parse(bytes).unwrap();
        assert_eq!(head.headers[1].name, "X-Evil");
        assert_eq!(head.headers[1].value, "\u{1b}[31mred\u{0}");
        let resp = ResponseHead::parse(b"HTTP/1.1 200 OK\r\nServer: \x1bx\r\n\r\n").unwrap();
        assert_eq!(resp.headers[0].value, "\u{1b}x");
    }

    #[test]
    fn control_characters_in_names_and_the_start_line_are_still_refused() {
        assert!(RequestHead::parse(b"GET /x HTTP/1.1\r\nX\x1bY: 1\r\n\r\n").is_err());
        assert!(RequestHead::parse(b"GET /\x1b HTTP/1.1\r\nHost: a\r\n\r\n").is_err());
        assert!(head_len(b"GET /x HTTP/1.1\r\nX\x1bY: 1\r\n\r\n", true).is_err());
    }
}
