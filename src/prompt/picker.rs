//! Choosing any number of items from a list, key by key, and the lines that show it: a
//! window that scrolls with the cursor, each line cut to the terminal's width so the view
//! never wraps (a wrapped line would break the redraw).

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::keys::Key;

/// What a key did to the choice.
#[derive(Debug, PartialEq, Eq)]
pub enum Pick {
    /// Keep choosing.
    Continue,
    /// Enter: these indexes, in list order (at least one).
    Done(Vec<usize>),
    /// Esc, `q` or Ctrl-C.
    Cancel,
}

/// The state of a choice among `len` items.
#[derive(Debug)]
pub struct Picker {
    cursor: usize,
    top: usize,
    chosen: Vec<bool>,
    /// Enter was pressed with nothing chosen: say how to choose.
    nudge: bool,
}

impl Picker {
    /// Nothing chosen, the cursor on the first item.
    pub fn new(len: usize) -> Self {
        Picker {
            cursor: 0,
            top: 0,
            chosen: vec![false; len],
            nudge: false,
        }
    }

    /// Takes one key.
    pub fn key(&mut self, key: Key) -> Pick {
        let len = self.chosen.len();
        self.nudge = false;
        match key {
            Key::Esc | Key::Char('q') | Key::Interrupt | Key::Eof => return Pick::Cancel,
            _ if len == 0 => {}
            Key::Up | Key::Char('k') => self.cursor = (self.cursor + len - 1) % len,
            Key::Down | Key::Char('j') => self.cursor = (self.cursor + 1) % len,
            Key::Home | Key::Char('g') => self.cursor = 0,
            Key::End | Key::Char('G') => self.cursor = len - 1,
            Key::Char(' ') => self.chosen[self.cursor] = !self.chosen[self.cursor],
            Key::Char('a') => {
                let all = self.chosen.iter().all(|c| *c);
                self.chosen.iter_mut().for_each(|c| *c = !all);
            }
            Key::Enter => {
                let picked: Vec<usize> = (0..len).filter(|i| self.chosen[*i]).collect();
                if !picked.is_empty() {
                    return Pick::Done(picked);
                }
                self.nudge = true;
            }
            _ => {}
        }
        Pick::Continue
    }

    /// The lines that show the choice in `height` rows (at least 3) of `width` columns: the
    /// prompt, a window of items around the cursor, and a status line.
    pub fn view(
        &mut self,
        prompt: &str,
        items: &[String],
        height: usize,
        width: usize,
    ) -> Vec<String> {
        let rows = height.saturating_sub(2).max(1);
        if self.cursor < self.top {
            self.top = self.cursor;
        } else if self.cursor >= self.top + rows {
            self.top = self.cursor + 1 - rows;
        }
        let end = (self.top + rows).min(items.len());
        let mut lines = vec![fit(prompt, width)];
        for (i, item) in items.iter().enumerate().take(end).skip(self.top) {
            let pointer = if i == self.cursor { '>' } else { ' ' };
            let mark = if self.chosen.get(i) == Some(&true) {
                'x'
            } else {
                ' '
            };
            lines.push(fit(&format!("{pointer} [{mark}] {item}"), width));
        }
        let chosen = self.chosen.iter().filter(|c| **c).count();
        let status = if self.nudge {
            "Nothing chosen yet: space chooses the item under the cursor".to_string()
        } else {
            format!(
                "{chosen} chosen; {}-{} of {}  (space: choose, a: all, enter: done, esc/q: cancel)",
                (self.top + 1).min(end),
                end,
                items.len()
            )
        };
        lines.push(fit(&status, width));
        lines
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn items(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("ts_{i}")).collect()
    }

    #[test]
    fn space_chooses_enter_confirms_and_escape_cancels() {
        let mut p = Picker::new(3);
        assert_eq!(p.key(Key::Enter), Pick::Continue, "nothing chosen yet");
        p.key(Key::Down);
        p.key(Key::Char(' '));
        p.key(Key::Up);
        p.key(Key::Up);
        p.key(Key::Char(' '));
        assert_eq!(p.key(Key::Enter), Pick::Done(vec![1, 2]));
        p.key(Key::Char('a'));
        assert_eq!(p.key(Key::Enter), Pick::Done(vec![0, 1, 2]));
        for key in [Key::Esc, Key::Char('q'), Key::Interrupt] {
            assert_eq!(Picker::new(3).key(key), Pick::Cancel);
        }
    }

    #[test]
    fn the_window_follows_the_cursor_and_lines_fit() {
        let list = items(50);
        let mut p = Picker::new(50);
        let first = p.view("Sessions", &list, 10, 30);
        assert_eq!(first.len(), 10);
        assert!(first[1].starts_with("> [ ] ts_1"), "{first:?}");
        assert!(
            first[9].starts_with("0 chosen; 1-8 of 50  (space"),
            "{}",
            first[9]
        );
        p.key(Key::End);
        p.key(Key::Char(' '));
        let last = p.view("Sessions", &list, 10, 30);
        assert!(last[8].starts_with("> [x] ts_50"), "{last:?}");
        assert!(last[9].starts_with("1 chosen; 43-50 of 50"), "{}", last[9]);
        assert!(last[9].ends_with('…'), "{}", last[9]);
        assert!(last.iter().all(|l| l.chars().count() < 30), "{last:?}");
    }

    #[test]
    fn fitting_cuts_with_an_ellipsis() {
        assert_eq!(fit("abcdef", 10), "abcdef");
        assert_eq!(fit("abcdefghijkl", 6), "abcd…");
        assert_eq!(fit("abcde", 6), "abcde");
    }
}
