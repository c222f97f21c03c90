//! Text fitted to the columns of `sessions watch`'s screen without a word cut unsaid: a line's
//! parts give way at a space, ending ` …` ([`fit`], [`cut_words`]); a cell too narrow ends in
//! `…` ([`fit_cell`]); free text is wrapped at spaces under a hanging indent ([`wrapped`]).

use ratatui::style::Style;
use unicode_width::UnicodeWidthStr;

use crate::output::wrap;

/// A piece of a line that may give way when the line does not fit: it is cut at a space
/// (ending ` …`), never before `keep` bytes.
pub struct LinePart {
    /// Its text.
    pub text: String,
    /// The bytes of its start it never gives.
    pub keep: usize,
    /// How it is drawn.
    pub style: Style,
}

impl LinePart {
    /// A part that keeps its text whole.
    pub fn whole(text: String, style: Style) -> LinePart {
        LinePart {
            keep: text.len(),
            text,
            style,
        }
    }
}

/// Cuts the parts at `order` (their places, the first to give way first), each as much as the
/// line's excess needs, until the line fits `width` or none can give more.
pub fn fit(parts: &mut [LinePart], width: usize, order: &[usize]) {
    for &i in order {
        let total: usize = parts.iter().map(|p| p.text.width()).sum();
        let Some(over) = total.checked_sub(width).filter(|&o| o > 0) else {
            return;
        };
        let part = &mut parts[i];
        let room = part.text.width().saturating_sub(over);
        part.text = cut_words(&part.text, room, part.keep);
    }
}

/// `text` in at most `room` columns: cut at the last space that leaves room for ` …`, not
/// before byte `keep`; when none does, at the first space after `keep` (wider than `room`:
/// what follows gives way, or the screen's edge cuts it); whole when it fits or has no space
/// to cut at.
pub fn cut_words(text: &str, room: usize, keep: usize) -> String {
    if text.width() <= room {
        return text.to_string();
    }
    let spaces = text
        .char_indices()
        .filter(|&(i, c)| c == ' ' && i >= keep && !text[..i].trim().is_empty());
    let mut first = None;
    let mut best = None;
    for (i, _) in spaces {
        first.get_or_insert(i);
        if text[..i].width() + 2 <= room {
            best = Some(i);
        }
    }
    match best.or(first) {
        Some(i) => format!("{} …", &text[..i]),
        None => text.to_string(),
    }
}

/// `text` in at most `width` columns, ending in `…` when cut (a cell of the table).
pub fn fit_cell(text: String, width: u16) -> String {
    let width = usize::from(width);
    if text.width() <= width {
        return text;
    }
    crate::output::table::cut(&text, width)
}

/// `text` wrapped at spaces in lines of at most `room` columns, the first after `first` and
/// the others after `more`.
pub fn wrapped(text: &str, room: usize, first: &str, more: &str) -> Vec<String> {
    let room = room.saturating_sub(more.width().max(first.width())).max(1);
    wrap(text, room)
        .into_iter()
        .enumerate()
        .map(|(i, l)| format!("{}{l}", if i == 0 { first } else { more }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_gives_way_between_words_and_a_cell_says_it_was_cut() {
        let text = " · refresh failed: profile b: GET /tunnel_sessions: 500";
        let keep = " · refresh failed: profile b".len();
        assert_eq!(cut_words(text, 80, keep), text, "it fits");
        assert_eq!(
            cut_words(text, 40, keep),
            " · refresh failed: profile b: GET …"
        );
        // Never shorter than what it keeps, whatever the room.
        assert_eq!(cut_words(text, 5, keep), " · refresh failed: profile b: …");
        assert!(cut_words(text, 40, keep).width() <= 40);
        assert_eq!(fit_cell("{\"host\":\"web-1\"}".into(), 8), "{\"host\"…");
        assert_eq!(fit_cell("linux".into(), 8), "linux");
        assert_eq!(fit_cell("数据中心".into(), 5), "数据…");
    }
}
