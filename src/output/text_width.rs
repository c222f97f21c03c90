//! Text measured and wrapped in terminal columns, for the tables and the detail views alike.

use unicode_width::UnicodeWidthStr;

/// The display width of `s` in terminal columns.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// `s` in lines of at most `room` columns, broken at spaces; a word longer than a line is
/// broken where the line ends (this is free text, never an ID).
pub(super) fn wrap(s: &str, room: usize) -> Vec<String> {
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
