//! How a choice among many items looks: dialoguer's multi-select draws the list and reads the
//! keys; this theme lays each row out to the terminal's width (cut with `…`, so a row never
//! wraps and the redraw stays in place) and ends the visible rows with a status line: how
//! many are chosen, which rows are in view, and the keys (with nothing chosen, Enter opens the
//! find step, [`super::find`]). Plus the pure helpers that lay out what questions show: rows
//! in columns, text cut or wrapped to a width.

use std::cell::RefCell;
use std::fmt;

use dialoguer::theme::Theme;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Columns taken by a row's marks before the item (`> [x] `).
pub const MARKS: usize = 6;

/// The picker's look for one question over `items` (already cut to fit beside [`MARKS`]).
pub struct PickerLook {
    items: Vec<String>,
    /// The longest the drawn list may be, as dialoguer counts it (items and two rows).
    max_length: usize,
    width: usize,
    seen: RefCell<RowsSeen>,
}

/// What the rows drawn so far showed: dialoguer keeps the choice to itself and draws only the
/// rows in view, so the count is kept from what each redraw shows.
#[derive(Default)]
struct RowsSeen {
    chosen: Vec<bool>,
    /// Rows whose mark changed in this redraw: (index, now chosen, under the cursor).
    changed: Vec<(usize, bool, bool)>,
}

impl PickerLook {
    /// A look for `items` in a list at most `max_length` rows high and `width` columns wide,
    /// those marked in `chosen` chosen to begin with (as the list is given them).
    pub fn new(items: Vec<String>, max_length: usize, width: usize, chosen: &[bool]) -> Self {
        let chosen = (0..items.len())
            .map(|i| chosen.get(i).copied().unwrap_or(false))
            .collect();
        let seen = RowsSeen {
            chosen,
            changed: Vec::new(),
        };
        PickerLook {
            items,
            max_length,
            width,
            seen: RefCell::new(seen),
        }
    }

    /// Rows in view at a time, worked out as dialoguer's paging does for a terminal of `rows`.
    fn capacity(&self, rows: usize) -> usize {
        self.max_length.clamp(3, rows.max(3)) - 2
    }

    /// Records what a row shows; true when it is the last row in view.
    fn record(&self, index: usize, checked: bool, active: bool, capacity: usize) -> bool {
        let mut seen = self.seen.borrow_mut();
        if seen.chosen.get(index) != Some(&checked) {
            if let Some(c) = seen.chosen.get_mut(index) {
                *c = checked;
            }
            seen.changed.push((index, checked, active));
        }
        index + 1 == self.items.len() || (index + 1).is_multiple_of(capacity.max(1))
    }

    /// The status line, once every row in view was drawn.
    fn status(&self, last: usize, capacity: usize) -> String {
        let mut seen = self.seen.borrow_mut();
        let changed = std::mem::take(&mut seen.changed);
        // Space changes the row under the cursor; `a` sets every row, those out of view too.
        let all = match changed.as_slice() {
            // One row under the cursor: taken as space (`a` looks the same only when every
            // other row in view already had that mark; the rows out of view are then
            // corrected when they come into view).
            [] | [(_, _, true)] => None,
            [(_, now, _), ..] => Some(*now),
        };
        if let Some(now) = all {
            seen.chosen.iter_mut().for_each(|c| *c = now);
        }
        let chosen = seen.chosen.iter().filter(|c| **c).count();
        let first = last - last % capacity.max(1);
        let counts = format!(
            "{chosen} chosen; {}-{} of {}",
            first + 1,
            last + 1,
            self.items.len()
        );
        // The keys as fully as the width allows: what Enter does matters most, as it changes.
        let keys: &[&str] = if chosen == 0 {
            &[
                "space: choose, a: all, enter: type to find, esc/q: cancel",
                "space: choose, a: all, enter: type to find, esc: cancel",
                "space: choose, enter: type to find, esc: cancel",
                "enter: type to find",
            ]
        } else {
            &["space: choose, a: all, enter: done, esc/q: cancel"]
        };
        let lines: Vec<String> = keys.iter().map(|k| format!("{counts}  ({k})")).collect();
        let text = lines
            .iter()
            .find(|l| UnicodeWidthStr::width(l.as_str()) < self.width)
            .or(lines.last())
            .map_or(counts.as_str(), String::as_str);
        fit(text, self.width)
    }
}

impl Theme for PickerLook {
    fn format_multi_select_prompt(&self, f: &mut dyn fmt::Write, prompt: &str) -> fmt::Result {
        // Room is left for the page the list shows (` [Page 2/4]`), which dialoguer adds.
        write!(f, "{}", fit(prompt, self.width.saturating_sub(14)))
    }

    fn format_multi_select_prompt_item(
        &self,
        f: &mut dyn fmt::Write,
        text: &str,
        checked: bool,
        active: bool,
    ) -> fmt::Result {
        let pointer = if active { '>' } else { ' ' };
        let mark = if checked { 'x' } else { ' ' };
        write!(f, "{pointer} [{mark}] {text}")?;
        let Some(index) = self.items.iter().position(|i| i == text) else {
            return Ok(());
        };
        let rows = usize::from(dialoguer::console::Term::stderr().size().0);
        let capacity = self.capacity(rows);
        if self.record(index, checked, active, capacity) {
            write!(f, "\n{}", self.status(index, capacity))?;
        }
        Ok(())
    }

    fn format_multi_select_prompt_selection(
        &self,
        f: &mut dyn fmt::Write,
        prompt: &str,
        selections: &[&str],
    ) -> fmt::Result {
        write!(f, "{prompt}: {} chosen", selections.len())
    }
}

/// `rows` of cells laid out in columns: each cell padded to its column's widest, two spaces
/// between columns, trailing blanks cut.
pub fn columns(rows: &[Vec<String>]) -> Vec<String> {
    let mut widths: Vec<usize> = Vec::new();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            let w = UnicodeWidthStr::width(cell.as_str());
            match widths.get_mut(i) {
                Some(max) => *max = (*max).max(w),
                None => widths.push(w),
            }
        }
    }
    rows.iter()
        .map(|row| {
            let mut line = String::new();
            for (cell, width) in row.iter().zip(&widths) {
                line.push_str(cell);
                let pad = width.saturating_sub(UnicodeWidthStr::width(cell.as_str()));
                line.push_str(&" ".repeat(pad + 2));
            }
            line.trim_end().to_string()
        })
        .collect()
}

/// `text` cut to fewer than `width` columns (with `…` when cut), so that it never wraps.
pub fn fit(text: &str, width: usize) -> String {
    let max = width.saturating_sub(1).max(1);
    if UnicodeWidthStr::width(text) <= max {
        return text.to_string();
    }
    // One column is kept for the ellipsis.
    let mut used = 0;
    let kept: String = text
        .chars()
        .take_while(|c| {
            used += c.width().unwrap_or(0);
            used < max
        })
        .collect();
    kept + "…"
}

/// `text` cut from its start to fewer than `width` columns (with `…` first when cut): for
/// what is being typed, whose end matters most.
pub fn fit_end(text: &str, width: usize) -> String {
    let max = width.saturating_sub(1).max(1);
    if UnicodeWidthStr::width(text) <= max {
        return text.to_string();
    }
    let mut used = 0;
    let mut kept: Vec<char> = text
        .chars()
        .rev()
        .take_while(|c| {
            used += c.width().unwrap_or(0);
            used < max
        })
        .collect();
    kept.push('…');
    kept.into_iter().rev().collect()
}

/// `text` broken between words into lines of fewer than `width` columns (a word longer than
/// that is cut by the terminal, as it would be anyway).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let max = width.saturating_sub(1).max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let needed = UnicodeWidthStr::width(line.as_str()) + 1 + UnicodeWidthStr::width(word);
        if !line.is_empty() && needed > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(look: &PickerLook, marks: &[(bool, bool)], capacity: usize) -> Vec<String> {
        let mut out = Vec::new();
        for (i, (checked, active)) in marks.iter().enumerate() {
            let mut line = format!("{}", if *active { '>' } else { ' ' });
            if look.record(i, *checked, *active, capacity) {
                line = look.status(i, capacity);
            }
            out.push(line);
        }
        out
    }

    #[test]
    fn the_status_counts_what_is_chosen_and_says_what_is_in_view() {
        let items: Vec<String> = (1..=5).map(|i| format!("ts_{i}")).collect();
        let look = PickerLook::new(items, 7, 200, &[]);
        let first = drawn(&look, &[(false, true), (false, false), (false, false)], 3);
        assert!(first[2].starts_with("0 chosen; 1-3 of 5"), "{first:?}");
        // Space on the second row.
        let next = drawn(&look, &[(false, false), (true, true), (false, false)], 3);
        assert!(next[2].starts_with("1 chosen"), "{next:?}");
        // `a` with rows out of view: every row is chosen.
        let all = drawn(&look, &[(true, false), (true, true), (true, false)], 3);
        assert!(all[2].starts_with("5 chosen"), "{all:?}");
    }

    #[test]
    fn what_was_chosen_before_counts_from_the_first_draw() {
        let items: Vec<String> = (1..=5).map(|i| format!("ts_{i}")).collect();
        let look = PickerLook::new(items, 7, 200, &[false, false, false, true]);
        let first = drawn(&look, &[(false, true), (false, false), (false, false)], 3);
        assert!(first[2].starts_with("1 chosen; 1-3 of 5"), "{first:?}");
        assert!(first[2].contains("enter: done"), "{first:?}");
    }

    #[test]
    fn with_nothing_chosen_the_status_says_enter_finds_and_never_wraps() {
        let items: Vec<String> = (1..=120).map(|i| format!("ts_{i}")).collect();
        for width in [200, 80, 60, 40, 20] {
            let look = PickerLook::new(items.clone(), 11, width, &[]);
            let marks = vec![(false, false); 99];
            let last = drawn(&look, &marks, 9).pop().unwrap_or_default();
            assert!(
                UnicodeWidthStr::width(last.as_str()) < width,
                "{width}: {last}"
            );
            if width >= 60 {
                assert!(last.starts_with("0 chosen; 91-99 of 120  ("), "{last}");
                assert!(last.contains("enter: type to find"), "{width}: {last}");
            }
        }
        let look = PickerLook::new(items, 11, 80, &[]);
        let last = drawn(&look, &[(false, false); 9], 9)
            .pop()
            .unwrap_or_default();
        assert!(last.contains("a: all"), "{last}");
    }

    #[test]
    fn rows_line_up_in_columns() {
        let rows = vec![
            vec![
                "ts_1".to_string(),
                "us".into(),
                "linux".into(),
                "3.19.1".into(),
            ],
            vec![
                "ts_22".to_string(),
                "ap".into(),
                "darwin".into(),
                "3.18.4".into(),
            ],
        ];
        assert_eq!(
            columns(&rows),
            ["ts_1   us  linux   3.19.1", "ts_22  ap  darwin  3.18.4"]
        );
    }

    #[test]
    fn fitting_cuts_with_an_ellipsis_and_wrapping_breaks_between_words() {
        assert_eq!(fit("abcdef", 10), "abcdef");
        assert_eq!(fit("abcdefghijkl", 6), "abcd…");
        assert_eq!(fit("abcde", 6), "abcde");
        assert_eq!(fit_end("abcdefghijkl", 6), "…ijkl");
        assert_eq!(fit_end("abcde", 6), "abcde");
        assert_eq!(wrap("one two three four", 10), ["one two", "three", "four"]);
        assert_eq!(wrap("", 10), [""]);
    }
}
