//! How the picker's find step looks: dialoguer's fuzzy select filters the rows as the person
//! types, reads the keys and draws each row after its pointer (`> `), plain, as the picker
//! draws rows. This theme keeps the prompt line (what to do, then what was typed) to fewer
//! columns than the terminal has, and [`rows`] cuts the rows as the picker cuts them, so
//! nothing wraps and the redraw stays in place.

use std::fmt;

use dialoguer::theme::Theme;
use unicode_width::UnicodeWidthStr;

use super::picker::{fit, fit_end, MARKS};

/// Columns taken by a row's mark before the item (`> `).
const POINTER: usize = 2;

/// The find step's look at a terminal `width` columns wide.
pub struct FindLook {
    width: usize,
}

impl FindLook {
    /// A look for a terminal `width` columns wide.
    pub fn new(width: usize) -> Self {
        FindLook { width }
    }

    /// The prompt line: `prompt`, then what was typed with a `|` where the next key goes.
    /// What was typed is kept whole as long as it fits; the prompt gives way first.
    fn prompt_line(&self, prompt: &str, typed: &str, at: usize) -> String {
        let (head, tail) = typed.split_at(at.min(typed.len()));
        let typed = format!("{head}|{tail}");
        let typed_width = UnicodeWidthStr::width(typed.as_str());
        // The prompt needs a column, its space another, and one is kept free.
        if typed_width + 3 >= self.width {
            return fit_end(&typed, self.width);
        }
        format!("{} {typed}", fit(prompt, self.width - typed_width - 1))
    }
}

/// `items` as the find step lists them: cut as the picker's rows are, and short enough in
/// bytes too, since dialoguer counts a row's bytes as columns when it clears the rows drawn
/// (a longer one would clear rows above the question).
pub fn rows(items: &[String], width: usize) -> Vec<String> {
    let max = width.saturating_sub(POINTER);
    items
        .iter()
        .map(|item| {
            let row = fit(item, width.saturating_sub(MARKS));
            if row.len() <= max {
                return row;
            }
            let mut cut = String::new();
            for c in row.chars() {
                if cut.len() + c.len_utf8() + '…'.len_utf8() > max {
                    break;
                }
                cut.push(c);
            }
            cut + "…"
        })
        .collect()
}

impl Theme for FindLook {
    fn format_fuzzy_select_prompt(
        &self,
        f: &mut dyn fmt::Write,
        prompt: &str,
        search_term: &str,
        bytes_pos: usize,
    ) -> fmt::Result {
        write!(f, "{}", self.prompt_line(prompt, search_term, bytes_pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_line_never_wraps_and_keeps_what_was_typed() {
        let look = FindLook::new(40);
        let prompt = "Sessions to restart: type to filter (enter: choose, esc: back)";
        let line = look.prompt_line(prompt, "quartz", 6);
        assert!(line.ends_with("… quartz|"), "{line}");
        assert_eq!(UnicodeWidthStr::width(line.as_str()), 39);
        assert_eq!(look.prompt_line("Find", "ab", 1), "Find a|b");
        let long = "x".repeat(60);
        let line = look.prompt_line(prompt, &long, 60);
        assert!(line.starts_with('…') && line.ends_with("x|"), "{line}");
        assert!(UnicodeWidthStr::width(line.as_str()) < 40, "{line}");
    }

    #[test]
    fn rows_fit_in_columns_and_in_bytes() {
        let items = vec![
            "ts_1  eu  linux".to_string(),
            "ts_2  ".to_string() + &"é".repeat(30),
        ];
        let cut = rows(&items, 24);
        assert_eq!(cut[0], "ts_1  eu  linux");
        assert!(cut[1].len() <= 22 && cut[1].ends_with('…'), "{}", cut[1]);
        assert!(cut[1].starts_with("ts_2  é"), "{}", cut[1]);
    }
}
