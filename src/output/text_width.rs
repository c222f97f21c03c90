//! Text measured and wrapped in terminal columns, for the tables and the detail views alike.

use unicode_width::UnicodeWidthStr;

/// The display width of `s` in terminal columns.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// `s` in lines of at most `room` columns, broken at spaces; a word longer than a line is
/// broken where the line ends (this is free text, never an ID).
pub fn wrap(s: &str, room: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in s.split(' ') {
        let needed = width(word) + usize::from(!line.is_empty());
        if !line.is_empty() && width(&line) + needed > room {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        for c in word.chars() {
            let cw = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            if width(&line) + cw > room && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            line.push(c);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The columns `s` takes on a terminal: its width, less the colour sequences (`ESC [ … m`)
/// clap's own messages carry, which take none.
fn shown_width(s: &str) -> usize {
    if !s.contains('\x1b') {
        return width(s);
    }
    let mut plain = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.clone().next() == Some('[') {
            chars.next();
            // Parameters and intermediates, then the final byte ends it.
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    width(&plain)
}

/// `line` folded for a terminal `columns` wide: broken at spaces, never inside a word (a word
/// wider than a line, such as a path, keeps a line of its own and the terminal shows it
/// whole), each continuation indented two columns past the line's own indentation. A line
/// that fits comes back as it is. (Left to the terminal, a long line breaks wherever the
/// column runs out, `read from the hist` / `ory`, and an indented line goes on at column 0.)
/// Colour sequences take no columns.
pub fn fold(line: &str, columns: usize) -> String {
    if columns == 0 || shown_width(line) <= columns {
        return line.to_string();
    }
    let body = line.trim_start_matches(' ');
    let indent = " ".repeat(line.len() - body.len());
    let more = format!("{indent}  ");
    let mut lines: Vec<String> = Vec::new();
    let mut current = indent.clone();
    let mut at_start = true;
    for word in body.split(' ').filter(|w| !w.is_empty()) {
        if !at_start && shown_width(&current) + 1 + shown_width(word) > columns {
            lines.push(std::mem::replace(&mut current, more.clone()));
            at_start = true;
        }
        if !at_start {
            current.push(' ');
        }
        current.push_str(word);
        at_start = false;
    }
    lines.push(current);
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_breaks_at_spaces_and_indents_what_goes_on() {
        assert_eq!(fold("short", 80), "short");
        let note = "airt_1: the agent no longer has it; read from the history (/home/me/h.sqlite3)";
        let folded = fold(note, 40);
        assert!(folded.lines().all(|l| width(l) <= 40), "{folded}");
        assert!(folded.contains("\n  "), "{folded}");
        assert_eq!(folded.replace("\n  ", " "), note);
        // An indented line goes on under its own indentation, never at column 0.
        let failure = "    status: expected 200, got 500 from the server at http://127.0.0.1:1/";
        let folded = fold(failure, 30);
        assert!(
            folded.lines().skip(1).all(|l| l.starts_with("      ")),
            "{folded}"
        );
        // Colour takes no columns.
        let red = "\x1b[1m\x1b[31merror:\x1b[0m a value";
        assert_eq!(fold(red, 14), red);
        assert_eq!(
            fold(&format!("{red} that is long"), 14),
            format!("{red}\n  that is long")
        );
        // A word wider than the line is kept whole.
        let path = format!("see {}", "x".repeat(50));
        assert_eq!(fold(&path, 20), format!("see\n  {}", "x".repeat(50)));
    }
}
