//! JSON for a terminal: what serde_json writes, with the characters a terminal could act on
//! or that reorder what is shown (DEL, C1 controls, bidi overrides, zero-width characters)
//! written as `\u` escapes as well. The text stays valid JSON that decodes to the same value;
//! in a pipe, JSON is written exactly as serde_json does.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

use crate::escape::escape;

/// Must `c` be written as a `\u` escape on a terminal? serde_json already escapes C0 controls.
fn needs_escape(c: char) -> bool {
    if c.is_ascii() {
        return c == '\x7f';
    }
    let mut buf = [0u8; 4];
    let s: &str = c.encode_utf8(&mut buf);
    // One definition of "dangerous" for the whole program: the terminal escaper's.
    escape(s).len() != s.len()
}

/// A formatter that escapes what [`needs_escape`] names, around serde_json's own.
struct Safe<F>(F);

impl<F: Formatter> Formatter for Safe<F> {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut rest = fragment;
        while let Some((i, c)) = rest.char_indices().find(|(_, c)| needs_escape(*c)) {
            writer.write_all(&rest.as_bytes()[..i])?;
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(writer, "\\u{unit:04x}")?;
            }
            rest = &rest[i + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// Writes `value` as JSON: indented and terminal-safe on a terminal, compact and exact
/// otherwise. No newline is added.
pub fn write<W: Write, T: Serialize + ?Sized>(out: &mut W, value: &T, tty: bool) -> io::Result<()> {
    let result = if tty {
        let mut ser =
            serde_json::Serializer::with_formatter(&mut *out, Safe(PrettyFormatter::new()));
        value.serialize(&mut ser)
    } else {
        let mut ser = serde_json::Serializer::with_formatter(&mut *out, CompactFormatter);
        value.serialize(&mut ser)
    };
    result.map_err(|e| match e.io_error_kind() {
        Some(kind) => io::Error::from(kind),
        None => io::Error::other(e.to_string()),
    })
}

/// Compact JSON that is terminal-safe (for one-line-per-item output on a terminal).
pub fn write_compact_safe<W: Write, T: Serialize + ?Sized>(
    out: &mut W,
    value: &T,
) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, Safe(CompactFormatter));
    value
        .serialize(&mut ser)
        .map_err(|e| match e.io_error_kind() {
            Some(kind) => io::Error::from(kind),
            None => io::Error::other(e.to_string()),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn terminal_json_escapes_what_a_terminal_would_act_on() {
        let v = json!({"d": "a\u{9b}2J\u{202e}b\u{7f}c\u{1b}", "ok": "é – ü"});
        let mut out = Vec::new();
        write(&mut out, &v, true).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\\u009b"), "{text}");
        assert!(text.contains("\\u202e"), "{text}");
        assert!(text.contains("\\u007f"), "{text}");
        assert!(text.contains("\\u001b"), "{text}");
        assert!(text.contains("é – ü"), "{text}");
        assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{text}");
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v, "still the same JSON");
        let mut pipe = Vec::new();
        write(&mut pipe, &v, false).unwrap();
        assert_eq!(
            String::from_utf8(pipe).unwrap(),
            serde_json::to_string(&v).unwrap()
        );
    }
}
