//! A captured body as a person reads it: its `Content-Encoding` undone, then laid out by what
//! it holds (JSON pretty-printed, XML and HTML indented, form data as pairs, multipart as its
//! parts, binary as a hex dump), as lines of styled pieces.
//!
//! Shared by `local requests get` (which joins the pieces as plain text) and the inspector's
//! detail pane (which colours them). Every piece of text is escaped: a body comes from whoever
//! sent the request.

use std::io::Read;

use crate::escape::escape;

use super::message::{more_headers_note, Message};

/// Largest decompressed body kept: a small gzip bomb must not take the memory.
pub const MAX_INFLATED: usize = 16 * 1024 * 1024;
/// Longest text body laid out in full; the rest is cut with a note.
pub const MAX_TEXT: usize = 1024 * 1024;
/// Longest binary body dumped in hex; the rest is cut with a note.
pub const MAX_HEX: usize = 64 * 1024;
/// Deepest indentation of XML and HTML.
const MAX_DEPTH: usize = 40;

/// What a piece of a line is, for its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Ordinary text.
    Plain,
    /// A JSON object key, a form field name, a multipart header name.
    Key,
    /// A JSON string.
    Str,
    /// A JSON number.
    Number,
    /// `true`, `false`, `null`.
    Literal,
    /// Brackets, commas, colons, tag punctuation.
    Punct,
    /// An XML or HTML tag name.
    Tag,
    /// Something we say about the body (size, encoding, a cut).
    Note,
}

/// One shown line: pieces of escaped text with their tone.
pub type Line = Vec<(Tone, String)>;

/// A body decoded for showing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// What kind of body it was taken for (`json`, `form`, `binary`…), for a title.
    pub kind: &'static str,
    /// The lines.
    pub lines: Vec<Line>,
}

impl Shown {
    /// The lines as plain text, one `\n` between them.
    pub fn plain(&self) -> String {
        self.lines
            .iter()
            .map(|l| l.iter().map(|(_, t)| t.as_str()).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn note(text: String) -> Line {
    vec![(Tone::Note, text)]
}

/// The body of a message with its `Content-Encoding` undone: the bytes and, when decoding was
/// needed, a note saying so (or why it failed, the bytes then being the encoded ones).
pub fn decoded_body(msg: &Message) -> (std::borrow::Cow<'_, [u8]>, Option<String>) {
    decoded(&msg.headers, &msg.body)
}

/// [`decoded_body`] for a body and the headers it came with, kept apart (an answer as the
/// HTTP layer reads it).
pub fn decoded<'a>(
    headers: &[(String, String)],
    body: &'a [u8],
) -> (std::borrow::Cow<'a, [u8]>, Option<String>) {
    let Some(enc) = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-encoding"))
        .map(|(_, e)| e.trim().to_ascii_lowercase())
        .filter(|e| !e.is_empty() && e != "identity")
    else {
        return (std::borrow::Cow::Borrowed(body), None);
    };
    if body.is_empty() {
        return (std::borrow::Cow::Borrowed(body), None);
    }
    match inflate(&enc, body) {
        Ok(plain) => {
            let said = format!(
                "({} bytes {}, {} decoded)",
                body.len(),
                escape(&enc),
                plain.len()
            );
            (std::borrow::Cow::Owned(plain), Some(said))
        }
        Err(why) => (
            std::borrow::Cow::Borrowed(body),
            Some(format!("({} encoded: {why}; shown as sent)", escape(&enc))),
        ),
    }
}

/// Undoes gzip or deflate (zlib, or raw deflate as some servers send), up to
/// [`MAX_INFLATED`] bytes. Every encoding goes through the one reader below, so a body that
/// decodes to more than the limit is reported the same way whatever its encoding.
pub fn inflate(encoding: &str, data: &[u8]) -> Result<Vec<u8>, String> {
    let raw_deflate = || bounded(flate2::read::DeflateDecoder::new(data));
    let result = match encoding {
        "gzip" | "x-gzip" => bounded(flate2::read::MultiGzDecoder::new(data)),
        // A zlib stream starts with a header naming the deflate method, its two bytes a
        // multiple of 31; raw deflate may happen to start so, and is tried when zlib finds
        // the data corrupt, never when it found too much.
        "deflate" if is_zlib(data) => match bounded(flate2::read::ZlibDecoder::new(data)) {
            Err(Failed::Corrupt(_)) => raw_deflate(),
            other => other,
        },
        "deflate" => raw_deflate(),
        other => return Err(format!("'{other}' is not an encoding this tool decodes")),
    };
    result.map_err(|f| match f {
        Failed::TooBig => format!("more than {} MiB decoded", MAX_INFLATED >> 20),
        Failed::Corrupt(e) => format!("not valid {encoding} data ({e})"),
    })
}

/// Encodes `plain` again as `encoding` says (gzip, deflate as zlib): a body decoded to be
/// changed (`replay --set`) goes out in the encoding it came in.
pub fn compress(encoding: &str, plain: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Write;
    let level = flate2::Compression::default();
    let done = match encoding {
        "gzip" | "x-gzip" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), level);
            e.write_all(plain).and_then(|()| e.finish())
        }
        "deflate" => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), level);
            e.write_all(plain).and_then(|()| e.finish())
        }
        other => return Err(format!("'{other}' is not an encoding this tool encodes")),
    };
    done.map_err(|e| format!("cannot encode the body as {encoding}: {e}"))
}

/// Why a body could not be decoded.
enum Failed {
    /// It decodes to more than [`MAX_INFLATED`] bytes.
    TooBig,
    /// It is not valid data of its encoding.
    Corrupt(std::io::Error),
}

/// Does `data` start with a zlib header (RFC 1950: method 8, check bits)?
fn is_zlib(data: &[u8]) -> bool {
    match data {
        [cmf, flg, ..] => cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

/// Reads a decoder to its end under the one limit, [`MAX_INFLATED`], the same for every
/// encoding: a body past the limit is too big even when the stream would later turn corrupt.
fn bounded(r: impl Read) -> Result<Vec<u8>, Failed> {
    let mut out = Vec::new();
    let read = r.take(MAX_INFLATED as u64 + 1).read_to_end(&mut out);
    if out.len() > MAX_INFLATED {
        return Err(Failed::TooBig);
    }
    read.map_err(Failed::Corrupt)?;
    Ok(out)
}

/// Lays out a message's body.
pub fn show(msg: &Message) -> Shown {
    let (bytes, said) = decoded_body(msg);
    let mut shown = show_bytes(&bytes, msg.header("content-type").unwrap_or(""), 0);
    if let Some(said) = said {
        shown.lines.insert(0, note(said));
    }
    shown
}

/// A message's text as a search finds it: the start line and header fields, then the body with
/// its `Content-Encoding` undone and read as what it holds (JSON with its `\u` escapes undone,
/// form fields percent-decoded, multipart parts as the detail view shows them). Of a binary
/// body (or one not in UTF-8), its runs of printable ASCII. The body is taken whole, however
/// large. The one searchable text of a capture: used by
/// every text search: `--grep` live and in the history (and its index), the inspector's `/`.
pub fn searchable(msg: &Message) -> String {
    let mut text = msg.start_line.clone();
    for (name, value) in &msg.headers {
        text.push('\n');
        text.push_str(name);
        text.push_str(": ");
        text.push_str(value);
    }
    let (bytes, _) = decoded_body(msg);
    let Some(body) = as_text(&bytes) else {
        // Binary (a NUL byte), or text in another encoding (Latin-1): its runs of printable
        // ASCII, a line each, are what a search can find in it, live or kept.
        for run in bytes
            .split(|b| !(b' '..=b'~').contains(b) && *b != b'\t')
            .filter(|r| !r.is_empty())
        {
            text.push('\n');
            text.extend(run.iter().map(|&b| char::from(b)));
        }
        return text;
    };
    let ctype = msg
        .header("content-type")
        .unwrap_or("")
        .to_ascii_lowercase();
    text.push('\n');
    if ctype.starts_with("multipart/") {
        text.push_str(&show(msg).plain());
    } else if let Some(json) = (ctype.contains("json") || body.trim_start().starts_with(['{', '[']))
        .then(|| compact_json(body))
        .flatten()
    {
        text.push_str(&json);
    } else if ctype.contains("x-www-form-urlencoded") {
        for (k, v) in url::form_urlencoded::parse(body.trim().as_bytes()) {
            text.push_str(&k);
            text.push('=');
            text.push_str(&v);
            text.push('\n');
        }
    } else {
        text.push_str(body);
    }
    text
}

/// JSON text without the spaces between its tokens and with its escapes undone (`None` when
/// it is not JSON). Text with no escape (no backslash) is only stripped of those spaces, without
/// building a value: recording pays this for every body it indexes.
fn compact_json(text: &str) -> Option<String> {
    if text.contains('\\') {
        return serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .map(|v| v.to_string());
    }
    serde_json::from_str::<serde::de::IgnoredAny>(text).ok()?;
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut from = 0;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'"' => in_string = !in_string,
            b' ' | b'\t' | b'\n' | b'\r' if !in_string => {
                out.push_str(&text[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push_str(&text[from..]);
    Some(out)
}

/// Lays out bytes by their content type (as sent: a multipart boundary keeps its case).
fn show_bytes(bytes: &[u8], sent_type: &str, depth: usize) -> Shown {
    let lower = sent_type.to_ascii_lowercase();
    let ctype = lower.as_str();
    if bytes.is_empty() {
        return Shown {
            kind: "empty",
            lines: Vec::new(),
        };
    }
    if ctype.starts_with("multipart/") && depth == 0 {
        if let Some(parts) = multipart(bytes, sent_type) {
            return parts;
        }
    }
    let Some(text) = as_text(bytes) else {
        return hex_dump(bytes, ctype);
    };
    let looks_json = ctype.contains("json") || text.trim_start().starts_with(['{', '[']);
    if looks_json {
        if let Some(lines) = json_lines(text) {
            return Shown {
                kind: "json",
                lines,
            };
        }
    }
    if ctype.contains("x-www-form-urlencoded") {
        return Shown {
            kind: "form",
            lines: form_lines(text),
        };
    }
    let t = text.trim_start();
    if ctype.contains("xml") || ctype.contains("html") || t.starts_with('<') {
        let html = ctype.contains("html")
            || t.get(..9)
                .is_some_and(|s| s.eq_ignore_ascii_case("<!doctype"));
        return Shown {
            kind: if html { "html" } else { "xml" },
            lines: markup_lines(text, html),
        };
    }
    Shown {
        kind: "text",
        lines: text_lines(text),
    }
}

/// The body as text when it is UTF-8 (a cut multi-byte character at the very end allowed)
/// with no NUL.
fn as_text(body: &[u8]) -> Option<&str> {
    let text = match std::str::from_utf8(body) {
        Ok(s) => s,
        Err(e) if e.valid_up_to() > 0 && body.len() - e.valid_up_to() < 4 => {
            std::str::from_utf8(&body[..e.valid_up_to()]).ok()?
        }
        Err(_) => return None,
    };
    (!text.contains('\0')).then_some(text)
}

/// Text cut to [`MAX_TEXT`] on a character boundary, and the note of the cut.
fn cut(text: &str) -> (&str, Option<Line>) {
    if text.len() <= MAX_TEXT {
        return (text, None);
    }
    let mut end = MAX_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let said = format!(
        "… ({} more bytes; {} in all; save the request to see everything)",
        text.len() - end,
        text.len()
    );
    (&text[..end], Some(note(said)))
}

fn text_lines(text: &str) -> Vec<Line> {
    let (text, more) = cut(text);
    let mut lines: Vec<Line> = text
        .split('\n')
        .map(|l| {
            let l = l.strip_suffix('\r').unwrap_or(l);
            vec![(Tone::Plain, escape_keep_tabs(l))]
        })
        .collect();
    lines.extend(more);
    lines
}

/// Escapes a line but shows tabs as spaces (a tab in a terminal cell moves the cursor).
fn escape_keep_tabs(line: &str) -> String {
    line.split('\t')
        .map(escape)
        .collect::<Vec<_>>()
        .join("    ")
}

/// JSON up to this size is pretty-printed (its value tree takes several times its size);
/// larger, it is shown as text.
const MAX_PRETTY: usize = 8 * 1024 * 1024;

/// Pretty-printed, tokenised JSON, cut as text is past [`MAX_TEXT`] (with the note of the
/// cut); `None` when it is not JSON. A body of a megabyte or more is pretty-printed as `get`
/// prints it, not shown as one line of text.
fn json_lines(text: &str) -> Option<Vec<Line>> {
    if text.len() > MAX_PRETTY {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let pretty = serde_json::to_string_pretty(&value).ok()?;
    let (shown, more) = cut(&pretty);
    let mut lines: Vec<Line> = shown.lines().map(json_line).collect();
    lines.extend(more);
    Some(lines)
}

/// One line of pretty-printed JSON split into tones.
fn json_line(line: &str) -> Line {
    let mut out: Line = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    let push = |out: &mut Line, tone: Tone, s: &str| {
        if let Some((t, last)) = out.last_mut() {
            if *t == tone {
                last.push_str(s);
                return;
            }
        }
        out.push((tone, s.to_string()));
    };
    while i < b.len() {
        match b[i] {
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                let end = (j + 1).min(b.len());
                let is_key = line[end..].trim_start().starts_with(':');
                let tone = if is_key { Tone::Key } else { Tone::Str };
                push(&mut out, tone, &escape(&line[i..end]));
                i = end;
            }
            b'-' | b'0'..=b'9' => {
                let j = i + line[i..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c)))
                    .unwrap_or(line.len() - i);
                push(&mut out, Tone::Number, &line[i..j]);
                i = j;
            }
            b't' | b'f' | b'n' => {
                let j = i + line[i..]
                    .find(|c: char| !c.is_ascii_alphabetic())
                    .unwrap_or(line.len() - i);
                push(&mut out, Tone::Literal, &line[i..j]);
                i = j;
            }
            b' ' => {
                let j = i + line[i..].find(|c: char| c != ' ').unwrap_or(line.len() - i);
                push(&mut out, Tone::Plain, &line[i..j]);
                i = j;
            }
            _ => {
                let c = line[i..].chars().next().unwrap_or(' ');
                push(&mut out, Tone::Punct, &escape(&c.to_string()));
                i += c.len_utf8();
            }
        }
    }
    out
}

/// `a=1&b=x%20y` as aligned `name  value` pairs.
fn form_lines(text: &str) -> Vec<Line> {
    let (text, more) = cut(text);
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(text.trim().as_bytes())
        .map(|(k, v)| (escape(&k), escape(&v)))
        .collect();
    let width = pairs
        .iter()
        .map(|(k, _)| unicode_width::UnicodeWidthStr::width(k.as_str()))
        .max()
        .unwrap_or(0)
        .min(32);
    let mut lines: Vec<Line> = pairs
        .into_iter()
        .map(|(k, v)| {
            let pad = width.saturating_sub(unicode_width::UnicodeWidthStr::width(k.as_str()));
            vec![
                (Tone::Key, k),
                (Tone::Plain, " ".repeat(pad + 2)),
                (Tone::Str, v),
            ]
        })
        .collect();
    lines.extend(more);
    lines
}

/// HTML elements that never have a closing tag.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// XML or HTML, one tag or text run a line, indented by nesting.
fn markup_lines(text: &str, html: bool) -> Vec<Line> {
    let (text, more) = cut(text);
    let mut lines: Vec<Line> = Vec::new();
    let mut depth = 0usize;
    let mut rest = text;
    let indent = |d: usize| "  ".repeat(d.min(MAX_DEPTH));
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('<') {
            // A comment or CDATA runs to its own end; a tag to the next '>'.
            let close = if after.starts_with("!--") {
                rest.find("-->").map(|i| i + 3)
            } else if after.starts_with("![CDATA[") {
                rest.find("]]>").map(|i| i + 3)
            } else {
                rest.find('>').map(|i| i + 1)
            };
            let end = close.unwrap_or(rest.len());
            let tag = &rest[..end];
            rest = &rest[end..];
            let name: String = tag
                .trim_start_matches(['<', '/'])
                .chars()
                .take_while(|c| c.is_alphanumeric() || ":-_.".contains(*c))
                .collect::<String>()
                .to_ascii_lowercase();
            let closing = tag.starts_with("</");
            let special = tag.starts_with("<!") || tag.starts_with("<?");
            let self_closing = tag.ends_with("/>") || (html && VOID.contains(&name.as_str()));
            if closing {
                depth = depth.saturating_sub(1);
            }
            lines.push(vec![
                (Tone::Plain, indent(depth)),
                (Tone::Tag, escape_keep_tabs(&tag.replace(['\r', '\n'], " "))),
            ]);
            if !closing && !special && !self_closing {
                depth += 1;
                // Raw-text elements hold no tags: show their text as it is.
                if html && (name == "script" || name == "style") {
                    let end = find_ignore_case(rest, &format!("</{name}")).unwrap_or(rest.len());
                    for l in rest[..end].lines().filter(|l| !l.trim().is_empty()) {
                        lines.push(vec![
                            (Tone::Plain, indent(depth)),
                            (Tone::Plain, escape_keep_tabs(l.trim())),
                        ]);
                    }
                    rest = &rest[end..];
                }
            }
        } else {
            let end = rest.find('<').unwrap_or(rest.len());
            for l in rest[..end].lines().map(str::trim).filter(|l| !l.is_empty()) {
                lines.push(vec![
                    (Tone::Plain, indent(depth)),
                    (Tone::Plain, escape_keep_tabs(l)),
                ]);
            }
            rest = &rest[end..];
        }
    }
    lines.extend(more);
    lines
}

fn find_ignore_case(hay: &str, needle: &str) -> Option<usize> {
    let n = needle.len();
    (0..=hay.len().checked_sub(n)?)
        .filter(|i| hay.is_char_boundary(*i) && hay.is_char_boundary(i + n))
        .find(|i| hay[*i..i + n].eq_ignore_ascii_case(needle))
}

/// A multipart body as its parts: each part's headers, then its body laid out by its own
/// type. `None` when the boundary is missing or never found.
fn multipart(body: &[u8], ctype: &str) -> Option<Shown> {
    let boundary = ctype
        .split(';')
        .filter_map(|p| {
            let (k, v) = p.split_once('=')?;
            k.trim()
                .eq_ignore_ascii_case("boundary")
                .then_some(v.trim())
        })
        .next()?
        .trim_matches('"');
    if boundary.is_empty() {
        return None;
    }
    let delim = format!("--{boundary}");
    let d = delim.as_bytes();
    // Delimiters do not overlap: a boundary a visitor chose may overlap itself (`x--`), and
    // each part starts after the whole delimiter before it.
    let mut starts: Vec<usize> = Vec::new();
    let mut from = 0;
    while let Some(at) = body
        .get(from..)
        .and_then(|rest| rest.windows(d.len()).position(|w| w == d))
    {
        starts.push(from + at);
        from += at + d.len();
    }
    if starts.len() < 2 {
        return None;
    }
    let mut lines: Vec<Line> = Vec::new();
    for (n, w) in starts.windows(2).enumerate() {
        let Some(mut part) = body.get(w[0] + d.len()..w[1]) else {
            continue;
        };
        part = part.strip_prefix(b"\r\n").unwrap_or(part);
        part = part.strip_suffix(b"\r\n").unwrap_or(part);
        let msg = Message::lenient(&[b"PART\r\n".as_slice(), part].concat());
        lines.push(note(format!(
            "── part {} ({} bytes)",
            n + 1,
            msg.body.len()
        )));
        for (k, v) in &msg.headers {
            lines.push(vec![
                (Tone::Key, escape(k)),
                (Tone::Punct, ": ".into()),
                (Tone::Plain, escape(v)),
            ]);
        }
        if msg.more_headers > 0 {
            lines.push(note(more_headers_note(msg.more_headers)));
        }
        let inner = show_bytes(
            &msg.body,
            msg.header("content-type").unwrap_or("text/plain"),
            1,
        );
        if !inner.lines.is_empty() {
            lines.push(Vec::new());
            lines.extend(inner.lines);
        }
    }
    Some(Shown {
        kind: "multipart",
        lines,
    })
}

/// `00000000  89 50 4e 47 …  |.PNG…|`, after a line with the size and type.
fn hex_dump(bytes: &[u8], ctype: &str) -> Shown {
    let what = if ctype.is_empty() {
        String::new()
    } else {
        format!(", {}", escape(ctype))
    };
    let mut lines = vec![note(format!("(binary: {} bytes{what})", bytes.len()))];
    let shown = &bytes[..bytes.len().min(MAX_HEX)];
    for (row, chunk) in shown.chunks(16).enumerate() {
        let mut hex = String::with_capacity(50);
        for (i, b) in chunk.iter().enumerate() {
            if i == 8 {
                hex.push(' ');
            }
            hex.push_str(&format!("{b:02x} "));
        }
        let ascii: String = chunk
            .iter()
            .map(|b| {
                if b.is_ascii_graphic() || *b == b' ' {
                    *b as char
                } else {
                    '.'
                }
            })
            .collect();
        lines.push(vec![
            (Tone::Number, format!("{:08x}", row * 16)),
            (Tone::Plain, format!("  {hex:<49} ")),
            (Tone::Punct, "|".into()),
            (Tone::Plain, ascii),
            (Tone::Punct, "|".into()),
        ]);
    }
    if bytes.len() > MAX_HEX {
        lines.push(note(format!(
            "… ({} more bytes; save the request to see everything)",
            bytes.len() - MAX_HEX
        )));
    }
    Shown {
        kind: "binary",
        lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::io::Write;

    #[test]
    fn json_is_compacted_as_a_value_would_print_it() {
        for text in [
            "{\"type\": \"invoice.paid\",\n  \"lines\": [ {\"amount\": 100, \"d\": \"a b\"} ]}",
            "[1, 2 ,3]",
            " \"a  b\" ",
        ] {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(compact_json(text), Some(value.to_string()), "{text}");
        }
        assert_eq!(
            compact_json(r#"{"note": "caf\u00e9 \"au\" lait"}"#).as_deref(),
            Some(r#"{"note":"café \"au\" lait"}"#)
        );
        assert_eq!(compact_json("{\"a\": 1"), None);
        assert_eq!(compact_json("not json"), None);
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn msg(headers: &str, body: &[u8]) -> Message {
        Message::lenient(&[format!("POST / HTTP/1.1\r\n{headers}\r\n").as_bytes(), body].concat())
    }

    #[test]
    fn gzip_and_deflate_are_undone() {
        let m = msg(
            "Content-Type: application/json\r\nContent-Encoding: gzip\r\n",
            &gzip(b"{\"a\":[1,true,null,\"x\"]}"),
        );
        let s = show(&m);
        assert_eq!(s.kind, "json");
        let text = s.plain();
        assert!(text.contains("gzip, 23 decoded"), "{text}");
        assert!(text.contains("\"a\": ["), "{text}");
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(b"plain words").unwrap();
        let m = msg("Content-Encoding: deflate\r\n", &z.finish().unwrap());
        assert!(show(&m).plain().contains("plain words"));
        let broken = msg("Content-Encoding: gzip\r\n", b"not gzip at all");
        assert!(show(&broken).plain().contains("not valid gzip data"));
        let br = msg("Content-Encoding: br\r\n", b"\x0b\x02\x80");
        assert!(show(&br)
            .plain()
            .contains("not an encoding this tool decodes"));
    }

    #[test]
    fn a_gzip_bomb_is_refused() {
        let bomb = gzip(&vec![0u8; MAX_INFLATED + 10]);
        let m = msg("Content-Encoding: gzip\r\n", &bomb);
        assert!(show(&m).plain().contains("more than 16 MiB decoded"));
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(&vec![0u8; MAX_INFLATED + 10]).unwrap();
        let m = msg("Content-Encoding: deflate\r\n", &z.finish().unwrap());
        assert!(show(&m)
            .plain()
            .contains("(deflate encoded: more than 16 MiB decoded"));
        let mut d = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        d.write_all(&vec![0u8; MAX_INFLATED + 10]).unwrap();
        let m = msg("Content-Encoding: deflate\r\n", &d.finish().unwrap());
        assert!(show(&m)
            .plain()
            .contains("(deflate encoded: more than 16 MiB decoded"));
    }

    #[test]
    fn json_is_tokenised() {
        let s = show(&msg(
            "Content-Type: application/json\r\n",
            b"{\"k\":\"v\",\"n\":-1.5e3}",
        ));
        assert!(
            s.lines[1].contains(&(Tone::Key, "\"k\"".into())),
            "{:?}",
            s.lines
        );
        assert!(s.lines[1].contains(&(Tone::Str, "\"v\"".into())));
        assert!(
            s.lines[2].contains(&(Tone::Number, "-1.5e3".into())) || s.plain().contains("-1500")
        );
    }

    #[test]
    fn form_multipart_markup_and_binary() {
        let f = show(&msg(
            "Content-Type: application/x-www-form-urlencoded\r\n",
            b"name=Ann+Lee&long_name=%1b%5b2J",
        ));
        assert_eq!(f.kind, "form");
        assert_eq!(f.plain(), "name       Ann Lee\nlong_name  \\x1b[2J");
        let body = b"--XY\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello\r\n--XY\r\nContent-Disposition: form-data; name=\"f\"; filename=\"p.png\"\r\nContent-Type: image/png\r\n\r\n\x89PNG\x00\r\n--XY--\r\n";
        let m = show(&msg(
            "Content-Type: multipart/form-data; boundary=XY\r\n",
            body,
        ));
        assert_eq!(m.kind, "multipart");
        let t = m.plain();
        assert!(t.contains("── part 1 (5 bytes)"), "{t}");
        assert!(t.contains("hello"));
        assert!(t.contains("(binary: 5 bytes, image/png)"), "{t}");
        let x = show(&msg(
            "Content-Type: application/xml\r\n",
            b"<?xml version=\"1.0\"?><a><b x=\"1\">t</b><c/></a>",
        ));
        assert_eq!(
            x.plain(),
            "<?xml version=\"1.0\"?>\n<a>\n  <b x=\"1\">\n    t\n  </b>\n  <c/>\n</a>"
        );
        let h = show(&msg(
            "Content-Type: text/html\r\n",
            b"<!DOCTYPE html><html><body><br><p>hi</p><script>if (a<b) x()</script></body></html>",
        ));
        assert_eq!(h.kind, "html");
        assert!(
            h.plain().contains("    <br>\n    <p>\n      hi\n    </p>"),
            "{}",
            h.plain()
        );
        assert!(h.plain().contains("if (a<b) x()"));
        let b = show(&msg("", b"\x89PNG\r\n\x1a\n\x00"));
        assert_eq!(b.kind, "binary");
        assert_eq!(
            b.plain(),
            "(binary: 9 bytes)\n00000000  89 50 4e 47 0d 0a 1a 0a  00                       |.PNG.....|"
        );
    }

    #[test]
    fn a_boundary_that_overlaps_itself_is_read_without_panic() {
        // `--x--` starts again inside itself: "--x--x--" holds it at 0 and (overlapping) at 3.
        for body in [&b"--x--x--"[..], b"--x----x--", b"--x--", b"--x--x--x--"] {
            let shown = show(&msg(
                "Content-Type: multipart/form-data; boundary=x--\r\n",
                body,
            ));
            assert!(!shown.plain().is_empty());
        }
    }

    #[test]
    fn hostile_text_is_escaped_and_long_text_cut() {
        let s = show(&msg("", "a\x1b]52;c;x\x07\u{202e}b\tc".as_bytes()));
        assert_eq!(s.plain(), "a\\x1b]52;c;x\\x07\\u{202e}b    c");
        let big = vec![b'a'; MAX_TEXT + 5];
        let s = show(&msg("", &big));
        assert!(s
            .plain()
            .ends_with("(5 more bytes; 1048581 in all; save the request to see everything)"));
        let j = show(&msg(
            "Content-Type: application/json\r\n",
            "{\"\u{202e}k\":\"\\u001b[2J\"}".as_bytes(),
        ));
        assert!(!j.plain().contains('\u{202e}'));
        assert!(j.plain().contains("\\u{202e}k"), "{}", j.plain());
    }
}
