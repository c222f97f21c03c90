//! Captured exchanges as a person reads them: request line, headers and body, then status
//! line, headers and body, decoded from the base64 `raw` bytes.
//!
//! Everything shown comes from whoever sent the request, so every byte is escaped; JSON bodies
//! are pretty-printed, binary bodies summarised with their size, long ones cut with a note.

use base64::Engine;
use serde_json::Value;

use crate::escape::{escape, escape_multiline};
use crate::output::time::human_time;

/// Longest body shown in full in the human view.
pub const SHOWN_BODY: usize = 64 * 1024;

/// One HTTP message (request or response) split into its parts.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Message {
    /// `GET /x HTTP/1.1` or `HTTP/1.1 200 OK`.
    pub start_line: String,
    /// Header names and values, in order.
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked when it was sent chunked.
    pub body: Vec<u8>,
}

impl Message {
    /// The first value of a header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Has the local server answered? The real agent shows a pending response as an object with
/// `status_code: 0` and `raw: null`; other versions as `null`.
pub fn is_answered(captured: &Value) -> bool {
    match captured.get("response") {
        None | Some(Value::Null) => false,
        Some(r) => {
            r.get("status_code").and_then(Value::as_i64).unwrap_or(0) != 0
                || r.get("raw")
                    .and_then(Value::as_str)
                    .is_some_and(|s| !s.is_empty())
        }
    }
}

/// Decodes a base64 `raw` field.
pub fn decode_raw(b64: &str) -> Option<Vec<u8>> {
    base64::engine::general_purpose::STANDARD
        .decode(b64.trim())
        .ok()
}

/// The raw bytes of the request or response part of a captured request, if present.
pub fn raw_bytes(part: &Value) -> Option<Vec<u8>> {
    part.get("raw").and_then(Value::as_str).and_then(decode_raw)
}

/// Splits raw HTTP/1.x bytes into start line, headers and body. Tolerant: bare `\n` line
/// ends and a missing blank line are accepted.
pub fn parse(raw: &[u8]) -> Message {
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
    let headers = lines
        .filter(|l| !l.is_empty())
        .map(|l| match l.split_once(':') {
            Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect::<Vec<_>>();
    let mut msg = Message {
        start_line,
        headers,
        body: body.to_vec(),
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

/// A request or response part as a Message: from `raw` when present, else from the fields.
pub fn message_of(part: &Value, is_request: bool) -> Message {
    if let Some(raw) = raw_bytes(part) {
        return parse(&raw);
    }
    let text = |k: &str| {
        part.get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let start_line = if is_request {
        format!("{} {} {}", text("method"), text("uri"), text("proto"))
    } else {
        format!("{} {}", text("proto"), text("status"))
    };
    let mut headers = Vec::new();
    if let Some(Value::Object(map)) = part.get("headers") {
        for (k, vs) in map {
            match vs {
                Value::Array(vs) => {
                    for v in vs {
                        headers.push((k.clone(), v.as_str().unwrap_or("").to_string()));
                    }
                }
                Value::String(v) => headers.push((k.clone(), v.clone())),
                _ => {}
            }
        }
    }
    Message {
        start_line: start_line.trim().to_string(),
        headers,
        body: Vec::new(),
    }
}

/// Does this look like text a terminal can show?
fn is_text(body: &[u8]) -> bool {
    match std::str::from_utf8(body) {
        Ok(s) => !s.chars().any(|c| c == '\0'),
        Err(e) => {
            e.valid_up_to() > 0
                && body.len() - e.valid_up_to() < 4
                && !body[..e.valid_up_to()].contains(&0)
        }
    }
}

/// A body as a person reads it, its `Content-Encoding` (gzip, deflate) undone.
pub fn render_body(msg: &Message) -> String {
    if msg.body.is_empty() {
        return String::new();
    }
    let (body, said) = super::body::decoded_body(msg);
    match said {
        Some(said) => format!("{said}\n{}", render_plain_body(msg, &body)),
        None => render_plain_body(msg, &body),
    }
}

fn render_plain_body(msg: &Message, body: &[u8]) -> String {
    let ctype = msg.header("content-type").unwrap_or("");
    if !is_text(body) {
        let what = if ctype.is_empty() {
            String::new()
        } else {
            format!(", {}", escape(ctype))
        };
        return format!(
            "(binary body: {} bytes{what}; use --raw to save it)",
            body.len()
        );
    }
    let text = String::from_utf8_lossy(body);
    if ctype.contains("json") || text.trim_start().starts_with(['{', '[']) {
        if let Ok(v) = serde_json::from_slice::<Value>(body) {
            if let Ok(pretty) = serde_json::to_string_pretty(&v) {
                if pretty.len() <= SHOWN_BODY * 2 {
                    return escape_multiline(&pretty);
                }
            }
        }
    }
    if text.len() > SHOWN_BODY {
        let mut cut = SHOWN_BODY;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        return format!(
            "{}\n… ({} more bytes; {} in all; use --raw to see everything)",
            escape_multiline(&text[..cut]),
            text.len() - cut,
            text.len()
        );
    }
    escape_multiline(&text)
}

/// One message as `get` shows it: the start line and headers after `arrow` (`>` or `<`), then
/// the body as a person reads it.
pub fn render_message(out: &mut String, msg: &Message, arrow: &str) {
    out.push_str(&format!("{arrow} {}\n", escape(&msg.start_line)));
    for (k, v) in &msg.headers {
        out.push_str(&format!("{arrow} {}: {}\n", escape(k), escape(v)));
    }
    let body = render_body(msg);
    if !body.is_empty() {
        out.push('\n');
        out.push_str(&body);
        out.push('\n');
    }
}

/// Nanoseconds as "12.3 ms" / "1.52 s".
pub fn human_duration(nanos: i64) -> String {
    let ms = nanos as f64 / 1_000_000.0;
    if ms < 1.0 {
        format!("{:.0} µs", nanos as f64 / 1000.0)
    } else if ms < 1000.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}

/// The whole exchange of a captured request, for `local requests get`.
pub fn render(captured: &Value) -> String {
    let s = |k: &str| captured.get(k).and_then(Value::as_str).unwrap_or("");
    let mut out = String::new();
    let when = s("start");
    let ago = human_time(when)
        .map(|h| format!(" ({h})"))
        .unwrap_or_default();
    out.push_str(&format!(
        "request {}  tunnel {}  from {}\n",
        escape(s("id")),
        escape(s("tunnel_name")),
        escape(s("remote_addr"))
    ));
    let took = captured
        .get("duration")
        .and_then(Value::as_i64)
        .map(|d| format!("  took {}", human_duration(d)))
        .unwrap_or_default();
    out.push_str(&format!("at {}{ago}{took}\n\n", escape(when)));
    let req = message_of(captured.get("request").unwrap_or(&Value::Null), true);
    render_message(&mut out, &req, ">");
    out.push('\n');
    match captured.get("response") {
        Some(resp) if is_answered(captured) => {
            let msg = message_of(resp, false);
            render_message(&mut out, &msg, "<");
        }
        _ => out.push_str("< (pending: the local server has not answered yet)\n"),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn b64(b: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(b)
    }

    #[test]
    fn parses_and_dechunks() {
        let m = parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
        assert_eq!(m.start_line, "HTTP/1.1 200 OK");
        assert_eq!(m.body, b"hello world");
        let m = parse(b"GET / HTTP/1.1\nHost: x\n\nbody");
        assert_eq!(m.header("host"), Some("x"));
        assert_eq!(m.body, b"body");
    }

    #[test]
    fn renders_json_binary_and_pending() {
        let c = json!({
            "id": "airt_1", "tunnel_name": "t1 (http)", "remote_addr": "127.0.0.1", "start": "2026-01-01T00:00:00Z", "duration": 1_500_000,
            "request": {"raw": b64(b"POST /hook HTTP/1.1\r\nContent-Type: application/json\r\nX-Evil: \x1b[2J\r\n\r\n{\"a\":1}")},
            "response": null
        });
        let text = render(&c);
        assert!(text.contains("> POST /hook HTTP/1.1"));
        assert!(text.contains("\"a\": 1"), "{text}");
        assert!(text.contains("\\x1b[2J"));
        assert!(!text.contains('\x1b'));
        assert!(text.contains("pending"));
        assert!(text.contains("1.5 ms"));
        let bin = parse(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG\x00\x01\x02");
        assert!(render_body(&bin).starts_with("(binary body: 7 bytes, image/png"));
    }

    #[test]
    fn long_bodies_are_cut() {
        let mut raw = b"POST / HTTP/1.1\r\n\r\n".to_vec();
        raw.extend(std::iter::repeat_n(b'a', 5 * 1024 * 1024));
        let shown = render_body(&parse(&raw));
        assert!(shown.len() < SHOWN_BODY + 200);
        assert!(shown.contains("more bytes"));
    }
}
