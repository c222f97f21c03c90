//! Escaping of server-provided text before it reaches a terminal.
//!
//! A description, label, captured header or error message comes from a server we do not
//! control. Printed raw, `\x1b]52;…` could write the user's clipboard and `\x1b[2J` clear the
//! screen; a bidi override or an invisible character could make one ID or URL look like
//! another. Every such string goes through [`escape`] on its way to a table, TSV line or error
//! message; JSON output needs no help, JSON escapes control characters itself.
//!
//! [`escape`] also hides every secret the program knows ([`crate::secrets::redact_known`]), so a
//! server that echoes the API key back cannot make us print it.

use std::fmt::Write;

/// Characters that show nothing (or next to nothing) yet change what text means or which text
/// compares equal: zero-width spaces and joiners, direction marks, invisible operators, the
/// byte-order mark, the soft hyphen, fillers that render blank, and the "tag" characters used
/// to smuggle hidden ASCII. Fields shown here are identifiers, URLs, headers and short
/// descriptions, where such a character is far more often a disguise than a need (`--json`
/// keeps every one exact). Variation selectors stay: emoji need them and they hide no text.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' // soft hyphen
        | '\u{034F}' // combining grapheme joiner
        | '\u{061C}' // Arabic letter mark (a direction mark)
        | '\u{115F}' | '\u{1160}' // Hangul choseong/jungseong fillers
        | '\u{17B4}' | '\u{17B5}' // Khmer inherent vowels
        | '\u{180E}' // Mongolian vowel separator
        | '\u{200B}'..='\u{200F}' // zero-width space/non-joiner/joiner, LRM, RLM
        | '\u{2060}'..='\u{2064}' // word joiner, invisible operators
        | '\u{206A}'..='\u{206F}' // deprecated format characters
        | '\u{3164}' // Hangul filler
        | '\u{FEFF}' // byte-order mark, zero-width no-break space
        | '\u{FFA0}' // half-width Hangul filler
        | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation marks
        | '\u{E0000}'..='\u{E007F}' // tag characters
    )
}

/// Is this character one that a terminal could act on, that could reorder what is shown, or
/// that shows nothing at all? Such characters are written as escapes.
pub fn is_dangerous(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
        || is_invisible(c)
}

/// Returns `s` with dangerous characters written as visible escapes (`\x1b`, `\r`, `\u{9b}`,
/// `\u{200b}`) and any known secret redacted.
pub fn escape(s: &str) -> String {
    let s = crate::secrets::redact_known(s);
    if !s.chars().any(is_dangerous) {
        return s.into_owned();
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

/// The length in characters of [`escape`]'s text for `s`, made only when `s` is not shown as it
/// is (a character escaped, a secret redacted): sizing a table's columns measures every cell.
pub fn escaped_len(s: &str) -> usize {
    // Printable ASCII, the common case, is shown as it is: its length is its byte count.
    let printable = s.bytes().all(|b| (0x20..0x7f).contains(&b));
    if crate::secrets::holds_known(s) || (!printable && s.chars().any(is_dangerous)) {
        escape(s).chars().count()
    } else if printable {
        s.len()
    } else {
        s.chars().count()
    }
}

/// A path as messages show it: [`escape`] of its display form.
pub fn escape_path(path: &std::path::Path) -> String {
    escape(&path.display().to_string())
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

/// Can these bytes go to a terminal as they are? True for UTF-8 text with no dangerous
/// character other than line feeds, tabs and the carriage return of a CRLF line end (the
/// shape of a plain HTTP message).
pub fn is_terminal_safe(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let ok = match c {
            '\n' | '\t' => true,
            '\r' => chars.peek() == Some(&'\n'),
            c => !is_dangerous(c),
        };
        if !ok {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_visible() {
        assert_eq!(escape("a\x1b]52;c;aGk=\x07b"), "a\\x1b]52;c;aGk=\\x07b");
        assert_eq!(escape("x\r\ny\u{9b}"), "x\\r\\ny\\u{9b}");
        assert_eq!(escape("plain – text"), "plain – text");
        assert_eq!(escape("\u{202E}evil"), "\\u{202e}evil");
    }

    #[test]
    fn escaped_len_is_the_length_of_the_escaped_text() {
        crate::secrets::register_secret("sk_escaped_len_test_0123456789");
        for s in [
            "plain – text",
            "a\x1b[2Jb",
            "pay\u{200B}pal",
            "key sk_escaped_len_test_0123456789 here",
            "3.19.1",
            "",
            "tab\there",
            "\x7f",
        ] {
            assert_eq!(escaped_len(s), escape(s).chars().count(), "{s:?}");
        }
    }

    #[test]
    fn invisible_characters_become_visible() {
        for (raw, shown) in [
            ("pay\u{200B}pal", "pay\\u{200b}pal"),
            ("a\u{FEFF}b\u{00AD}c", "a\\u{feff}b\\u{ad}c"),
            ("\u{2060}\u{3164}\u{FFA0}", "\\u{2060}\\u{3164}\\u{ffa0}"),
            ("x\u{E0041}", "x\\u{e0041}"),
            (
                "\u{061C}\u{115F}\u{17B4}\u{180E}",
                "\\u{61c}\\u{115f}\\u{17b4}\\u{180e}",
            ),
        ] {
            assert_eq!(escape(raw), shown);
        }
        // Emoji with a variation selector stay as they are.
        assert_eq!(escape("ok \u{2764}\u{FE0F}"), "ok \u{2764}\u{FE0F}");
    }

    #[test]
    fn terminal_safe_bytes() {
        assert!(is_terminal_safe(
            b"GET / HTTP/1.1\r\nHost: x\r\n\r\nhello\n"
        ));
        assert!(!is_terminal_safe(b"GET / HTTP/1.1\r\nX: \x1b[2J\r\n\r\n"));
        assert!(!is_terminal_safe(b"a\rb"));
        assert!(!is_terminal_safe(b"\x89PNG\x00"));
        assert!(!is_terminal_safe("a\u{200B}".as_bytes()));
        assert!(!is_terminal_safe("a\u{9b}".as_bytes()));
    }
}
