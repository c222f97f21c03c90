//! Escaping of server-provided text before it reaches a terminal.
//!
//! A description, label, captured header or error message comes from a server we do not
//! control. Printed raw, `\x1b]52;…` could write the user's clipboard and `\x1b[2J` clear the
//! screen. Every such string goes through [`escape`] on its way to a table, TSV line or error
//! message; JSON output needs no help, JSON escapes control characters itself.

use std::fmt::Write;

/// Is this character one that a terminal could act on, or that could reorder what is shown?
fn is_dangerous(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// Returns `s` with control characters written as visible escapes (`\x1b`, `\r`, `\u{9b}`).
pub fn escape(s: &str) -> String {
    if !s.chars().any(is_dangerous) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x80 && is_dangerous(c) => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if is_dangerous(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Like [`escape`], but keeps line breaks and tabs: for bodies shown as text.
pub fn escape_multiline(s: &str) -> String {
    s.split('\n')
        .map(|line| {
            line.split('\t')
                .map(|part| escape(part.strip_suffix('\r').unwrap_or(part)))
                .collect::<Vec<_>>()
                .join("\t")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn control_characters_become_visible() {
        assert_eq!(escape("a\x1b]52;c;aGk=\x07b"), "a\\x1b]52;c;aGk=\\x07b");
        assert_eq!(escape("x\r\ny\u{9b}"), "x\\r\\ny\\u{9b}");
        assert_eq!(escape("plain – text"), "plain – text");
        assert_eq!(escape("\u{202E}evil"), "\\u{202e}evil");
    }
}
