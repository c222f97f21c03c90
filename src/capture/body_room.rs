//! A body cut to about a screenful for a person at a terminal: `local requests get` must not
//! bury the headers under a 224 KB JSON document on one line. The text is escaped (a visitor
//! chose it) and cut where the terminal rows run out, counting the rows a long line wraps to;
//! what was left out is counted so that the view can say so and how to see the rest.

use crate::escape::escape_multiline;
use crate::output::table;

/// The room a body gets on the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyRoom {
    /// Columns.
    pub width: usize,
    /// Rows the body may take.
    pub rows: usize,
}

impl BodyRoom {
    /// The room for one body on a terminal of `width` x `height`: about a screenful, leaving
    /// a few rows for the headers above and the note below (never fewer than 8).
    pub fn for_terminal(width: u16, height: u16) -> BodyRoom {
        BodyRoom {
            width: usize::from(width.max(20)),
            rows: usize::from(height).saturating_sub(6).max(8),
        }
    }
}

/// A body as it fits the screen: the escaped text shown, and how many of its lines were not
/// shown whole (0: nothing was left out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutBody {
    /// The text to show, escaped.
    pub text: String,
    /// Lines left out, or cut short.
    pub left_out: usize,
}

/// `text` escaped and cut to the rows of `screen`; a line longer than the rows left is cut
/// with `…` (and counts as left out).
pub fn cut_to(text: &str, screen: BodyRoom) -> CutBody {
    let mut shown: Vec<String> = Vec::new();
    let mut rows_left = screen.rows;
    let mut lines = text.split('\n');
    let mut left_out = 0;
    for line in lines.by_ref() {
        if rows_left == 0 {
            left_out = 1;
            break;
        }
        // Escaping a megabyte line to show two rows of it would be waste: no more than the
        // room left (escapes only make a character wider) is escaped.
        let room = rows_left * screen.width;
        let head = prefix_chars(line, room + 1);
        let escaped = escape_multiline(head);
        let width = table::width(&escaped);
        let rows = width.div_ceil(screen.width).max(1);
        if rows <= rows_left && head.len() == line.len() {
            shown.push(escaped);
            rows_left -= rows;
        } else {
            shown.push(table::cut(&escaped, room));
            left_out = 1;
            break;
        }
    }
    left_out += lines.count();
    CutBody {
        text: shown.join("\n"),
        left_out,
    }
}

/// The first `n` characters of `s` (all of it when shorter).
fn prefix_chars(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((at, _)) => &s[..at],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCREEN: BodyRoom = BodyRoom { width: 10, rows: 3 };

    #[test]
    fn short_text_is_shown_whole() {
        let fitted = cut_to("a\nb", SCREEN);
        assert_eq!(fitted.text, "a\nb");
        assert_eq!(fitted.left_out, 0);
    }

    #[test]
    fn lines_beyond_the_rows_are_counted() {
        let fitted = cut_to("1\n2\n3\n4\n5", SCREEN);
        assert_eq!(fitted.text, "1\n2\n3");
        assert_eq!(fitted.left_out, 2);
    }

    #[test]
    fn a_long_line_takes_the_rows_it_wraps_to_and_is_cut() {
        let long = "x".repeat(1000);
        let fitted = cut_to(&format!("{long}\nend"), SCREEN);
        assert_eq!(table::width(&fitted.text), 30);
        assert!(fitted.text.ends_with('…'));
        assert_eq!(fitted.left_out, 2);
        let fitted = cut_to(&format!("ab\n{}\nc", "y".repeat(15)), SCREEN);
        assert_eq!(fitted.text, format!("ab\n{}", "y".repeat(15)));
        assert_eq!(fitted.left_out, 1);
    }

    #[test]
    fn what_a_visitor_chose_is_escaped() {
        let fitted = cut_to("a\x1b[2Jb", SCREEN);
        assert!(!fitted.text.contains('\x1b'));
    }
}
