//! Encoding answers the way the real agent (a Go program) does: JSON with Go's string escapes
//! and a trailing newline, Go's number formats, and the XML it produces for `Accept:
//! application/xml`.
//!
//! Clients parse JSON, so most of this is invisible to them; it exists so that a byte-level
//! comparison with the real agent's answers (or a client that greps the body) sees the same
//! thing from the emulator.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::Formatter;
use serde_json::Value;

/// serde_json's compact formatter plus the escapes Go's `encoding/json` adds: `<`, `>`, `&`,
/// U+2028 and U+2029.
struct GoFormatter;

impl Formatter for GoFormatter {
    fn write_string_fragment<W>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()>
    where
        W: ?Sized + Write,
    {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            let escape = match c {
                '<' => "\\u003c",
                '>' => "\\u003e",
                '&' => "\\u0026",
                '\u{2028}' => "\\u2028",
                '\u{2029}' => "\\u2029",
                _ => continue,
            };
            writer.write_all(&fragment.as_bytes()[start..i])?;
            writer.write_all(escape.as_bytes())?;
            start = i + c.len_utf8();
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
}

/// A JSON value as the agent sends it: compact, Go escapes, ending with a newline.
pub fn json_line(value: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    push_json(&mut out, value);
    out.push(b'\n');
    out
}

/// Appends a JSON value (Go escapes, no newline).
pub fn push_json(out: &mut Vec<u8>, value: &Value) {
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, GoFormatter);
    // Writing to a Vec cannot fail and a Value always serializes; nothing to report.
    let _ = value.serialize(&mut ser);
}

/// Appends a JSON string literal (quotes included) with Go's escapes.
pub fn push_str(out: &mut Vec<u8>, s: &str) {
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, GoFormatter);
    let _ = s.serialize(&mut ser);
}

/// A float64 as a JSON number the way Go writes it: whole values without a fraction
/// (`1305003`, not `1305003.0`). Metrics are float64 in the agent.
pub fn number(f: f64) -> Value {
    if !f.is_finite() {
        return Value::from(0);
    }
    if f.fract() == 0.0 && f.abs() < 1e15 {
        // Exact: the value is whole and well inside i64's range.
        #[allow(clippy::cast_possible_truncation)]
        return Value::from(f as i64);
    }
    serde_json::Number::from_f64(f).map_or(Value::from(0), Value::Number)
}

/// A float64 in Go's `strconv.FormatFloat(f, 'g', -1, 64)` form, which `encoding/xml` uses:
/// shortest digits, exponent form from 1e21 up or below 1e-4 and also from 1e6 up
/// (`1.305003e+06`).
pub fn go_float_g(f: f64) -> String {
    if !f.is_finite() {
        return "0".to_string();
    }
    if f == 0.0 {
        return "0".to_string();
    }
    // Rust's `{:e}` gives the shortest round-trip digits, e.g. `1.305003e6`.
    let sci = format!("{f:e}");
    let Some((mantissa, exp)) = sci.split_once('e') else {
        return sci;
    };
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.abs());
    }
    format!("{f}")
}

/// Escapes text for XML the way Go's `xml.EscapeText` does.
pub fn xml_text(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\'' => out.push_str("&#39;"),
            '"' => out.push_str("&#34;"),
            '\t' => out.push_str("&#x9;"),
            '\n' => out.push_str("&#xA;"),
            '\r' => out.push_str("&#xD;"),
            c => out.push(c),
        }
    }
}

/// Appends `<name>text</name>` with the text escaped.
pub fn xml_elem(out: &mut String, name: &str, text: &str) {
    out.push('<');
    out.push_str(name);
    out.push('>');
    xml_text(out, text);
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_escapes_like_go() {
        let out = json_line(&json!({"uri": "/a?x=1&y=<2>"}));
        assert_eq!(out, b"{\"uri\":\"/a?x=1\\u0026y=\\u003c2\\u003e\"}\n");
    }

    #[test]
    fn numbers_like_go() {
        assert_eq!(number(1305003.0).to_string(), "1305003");
        assert_eq!(number(1755906.5).to_string(), "1755906.5");
        assert_eq!(number(0.2).to_string(), "0.2");
        assert_eq!(go_float_g(0.0), "0");
        assert_eq!(go_float_g(0.2), "0.2");
        assert_eq!(go_float_g(1305003.0), "1.305003e+06");
        assert_eq!(go_float_g(123456.0), "123456");
        assert_eq!(go_float_g(0.00001), "1e-05");
    }
}
