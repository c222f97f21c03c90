//! Tables for people: one line per row, headers aligned over their columns, fitted to the
//! terminal's width by one exact rule.
//!
//! Widths come from the rows (display width, so wide CJK characters count twice). When every
//! column does not fit, the columns are taken in order of priority ([`Column::priority`]),
//! and each is kept if it still fits beside those already kept; a free-text column counts at
//! most [`FREE_TEXT_NEED`] columns wide for this choice. Free text then gets the room left, up
//! to its full width; where leaving out columns of lower priority (the lowest first) would let
//! a free text be shown whole, they are left out. Only then is free text cut, with `…`. The
//! columns left out are named once on stderr. IDs, names, times and references are never
//! cut; when the columns a table always keeps ([`super::columns::ALWAYS`]) are wider than the
//! terminal by themselves, the line is longer than the terminal rather than an ID being cut.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::columns::{Column, Kind};

/// Blanks between two columns.
const GAP: usize = 2;

/// How wide a free-text column counts when choosing which columns fit: enough to read the
/// start of a description; the rest is cut before any other column is left out for it.
pub const FREE_TEXT_NEED: usize = 20;

/// Rows a table holds before it starts streaming: more than any screen shows, few enough that
/// holding them costs little.
pub const STREAM_AFTER: usize = 1000;

/// The display width of `s` in terminal columns.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// The widths of a table's columns: what each needs to be kept, its full width, and the room.
struct Sizes {
    need: Vec<usize>,
    natural: Vec<usize>,
    room: usize,
}

impl Sizes {
    /// The width of each kept column: what it needs, then the room left shared evenly among
    /// the free text that is cut below its full width.
    fn widths(&self, kept: &[bool]) -> Vec<Option<usize>> {
        let mut widths: Vec<Option<usize>> = kept
            .iter()
            .zip(&self.need)
            .map(|(k, n)| k.then_some(*n))
            .collect();
        let shown = widths.iter().flatten();
        let used: usize = shown.clone().sum::<usize>() + GAP * shown.count().saturating_sub(1);
        let mut left = self.room.saturating_sub(used);
        loop {
            let short: Vec<usize> = (0..widths.len())
                .filter(|i| widths[*i].is_some_and(|w| w < self.natural[*i]))
                .collect();
            if short.is_empty() || left == 0 {
                break;
            }
            let share = (left / short.len()).max(1);
            for i in short {
                let Some(w) = widths[i] else { continue };
                let add = share.min(self.natural[i] - w).min(left);
                widths[i] = Some(w + add);
                left -= add;
            }
        }
        widths
    }
}

/// Which columns of a kind a table shows, and how wide each is.
#[derive(Debug, Clone)]
pub struct Layout {
    /// For each table column of the kind: its width, or `None` when it is left out.
    widths: Vec<Option<usize>>,
    /// May each column be cut with `…`?
    cut: Vec<bool>,
    /// The headers of the table columns.
    headers: Vec<&'static str>,
}

impl Layout {
    /// Fits the table columns of `kind`, holding `rows`, into `terminal_width` columns.
    pub fn fit(kind: &Kind, rows: &[Vec<String>], terminal_width: u16) -> Self {
        let columns: Vec<&Column> = kind.table_columns().collect();
        let natural: Vec<usize> = columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                rows.iter()
                    .filter_map(|r| r.get(i))
                    .map(|cell| width(cell))
                    .fold(width(c.header), usize::max)
            })
            .collect();
        let need: Vec<usize> = columns
            .iter()
            .zip(&natural)
            .map(|(c, n)| {
                if c.may_cut() {
                    (*n).min(FREE_TEXT_NEED.max(width(c.header)))
                } else {
                    *n
                }
            })
            .collect();
        let sizes = Sizes {
            need,
            natural,
            room: usize::from(terminal_width),
        };

        // The most important columns first; among equals, the leftmost.
        let mut order: Vec<usize> = (0..columns.len()).collect();
        order.sort_by_key(|i| (columns[*i].priority, *i));
        let mut kept = vec![false; columns.len()];
        let mut used = 0;
        for &i in &order {
            let extra = sizes.need[i] + if used == 0 { 0 } else { GAP };
            if columns[i].priority <= super::columns::ALWAYS || used + extra <= sizes.room {
                kept[i] = true;
                used += extra;
            }
        }

        // Free text that would be cut is shown whole instead when leaving out columns of
        // lower priority (the lowest first) makes room for all of it.
        for &f in &order {
            if !kept[f] || sizes.widths(&kept)[f].is_none_or(|w| w >= sizes.natural[f]) {
                continue;
            }
            let mut trial = kept.clone();
            for &j in order.iter().rev() {
                if columns[j].priority <= columns[f].priority {
                    break;
                }
                if !trial[j] {
                    continue;
                }
                trial[j] = false;
                if sizes.widths(&trial)[f].is_some_and(|w| w >= sizes.natural[f]) {
                    kept = trial;
                    break;
                }
            }
        }
        Layout {
            widths: sizes.widths(&kept),
            cut: columns.iter().map(|c| c.may_cut()).collect(),
            headers: columns.iter().map(|c| c.header).collect(),
        }
    }

    /// The headers of the columns left out, in table order.
    pub fn dropped(&self) -> Vec<&'static str> {
        self.widths
            .iter()
            .zip(&self.headers)
            .filter(|(w, _)| w.is_none())
            .map(|(_, h)| *h)
            .collect()
    }

    /// The line that says which columns were left out, if any.
    pub fn dropped_note(&self, terminal_width: u16) -> Option<String> {
        let dropped = self.dropped();
        if dropped.is_empty() {
            return None;
        }
        Some(format!(
            "{} not shown at {terminal_width} columns; --json shows every field",
            dropped.join(", ")
        ))
    }

    /// The header line, bold when colour is on.
    pub fn header(&self, color: bool) -> String {
        let cells: Vec<String> = self.headers.iter().map(|h| (*h).to_string()).collect();
        let line = self.line(&cells);
        if color {
            format!("\x1b[1m{line}\x1b[0m")
        } else {
            line
        }
    }

    /// One row on one line: the cells of the columns shown, padded to their widths, free text
    /// cut to fit.
    pub fn line(&self, cells: &[String]) -> String {
        let mut out = String::with_capacity(self.widths.iter().flatten().sum::<usize>() + 16);
        // Blanks owed by the previous cell, written only when another cell follows.
        let mut pad = None;
        for (i, (w, cell)) in self.widths.iter().zip(cells).enumerate() {
            let Some(w) = *w else { continue };
            if let Some(pad) = pad {
                out.extend(std::iter::repeat_n(' ', pad + GAP));
            }
            // Cells are escaped text: no line breaks or control characters are left in them.
            let shown = if self.cut[i] && width(cell) > w {
                cut(cell, w)
            } else {
                cell.clone()
            };
            pad = Some(w.saturating_sub(width(&shown)));
            out.push_str(&shown);
        }
        out.truncate(out.trim_end().len());
        out
    }
}

/// A list as a table: the header, then one line per row.
pub fn list(layout: &Layout, rows: &[Vec<String>], color: bool) -> String {
    let mut lines = vec![layout.header(color)];
    lines.extend(rows.iter().map(|r| layout.line(r)));
    lines.join("\n")
}

/// `s` cut to `w` columns, ending in `…`.
pub(crate) fn cut(s: &str, w: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let cw = UnicodeWidthChar::width(c).unwrap_or(0);
        if used + cw + 1 > w {
            break;
        }
        out.push(c);
        used += cw;
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::columns::{EVENT_DESTINATION, IP_POLICY, SESSION};

    fn row(cells: &[&str]) -> Vec<String> {
        cells.iter().map(|c| (*c).to_string()).collect()
    }

    #[test]
    fn the_header_is_aligned_over_its_column() {
        let rows = vec![row(&["ipp_1", "office", "", "3h ago"])];
        let layout = Layout::fit(&IP_POLICY, &rows, 80);
        let text = list(&layout, &rows, false);
        assert_eq!(
            text,
            "ID     DESCRIPTION  METADATA  CREATED\nipp_1  office                 3h ago"
        );
    }

    #[test]
    fn low_priority_columns_go_first_and_free_text_is_cut_only_then() {
        let id = "ts_2guQ2CGIpfYdhnFf1ShAhJGN2QT";
        let rows = vec![row(&[
            id,
            "eu",
            "linux",
            "3.20.0",
            "198.51.100.80",
            "40m ago",
            r#"{"host":"web-1","rack":"b7"}"#,
        ])];
        let layout = Layout::fit(&SESSION, &rows, 80);
        assert_eq!(layout.dropped(), vec!["IP", "METADATA"]);
        let text = list(&layout, &rows, false);
        assert!(text.lines().all(|l| width(l) <= 80), "{text}");
        assert!(text.contains(id));
        let wide = Layout::fit(&SESSION, &rows, 160);
        assert!(wide.dropped().is_empty());
        assert!(list(&wide, &rows, false).contains("rack"));
    }

    #[test]
    fn free_text_is_cut_with_an_ellipsis_and_wide_characters_count_twice() {
        let long = "数据中心".repeat(20);
        let rows = vec![row(&["ipp_1", &long, "", "3h ago"])];
        let layout = Layout::fit(&IP_POLICY, &rows, 60);
        let text = list(&layout, &rows, false);
        for l in text.lines() {
            assert!(width(l) <= 60, "{l}");
        }
        assert!(text.contains('…'), "{text}");
        assert!(layout.dropped().is_empty(), "{:?}", layout.dropped());
    }

    #[test]
    fn ids_and_references_are_never_cut() {
        let arn = "kinesis arn:aws:kinesis:us-east-1:123456789012:stream/tunnel-events";
        let rows = vec![row(&[
            "ed_2guQ2CGIpfYdhnFmnssgDPmyWHZ",
            "audit",
            "json",
            arn,
            "role arn:aws:iam::123456789012:role/tunnel-events",
            "",
            "3h ago",
        ])];
        for w in [40, 80, 100, 160] {
            let layout = Layout::fit(&EVENT_DESTINATION, &rows, w);
            let text = list(&layout, &rows, false);
            assert!(!text.contains('…'), "{w}: {text}");
            let shown = !layout.dropped().contains(&"TARGET");
            assert_eq!(text.contains(arn), shown, "{w}: {text}");
        }
    }

    #[test]
    fn an_essential_column_wider_than_the_terminal_stays_whole() {
        let id = "x".repeat(50);
        let rows = vec![row(&[&id, "office", "", "3h ago"])];
        let layout = Layout::fit(&IP_POLICY, &rows, 30);
        let text = list(&layout, &rows, false);
        assert_eq!(text, format!("ID\n{id}"));
        assert_eq!(
            layout.dropped_note(30).as_deref(),
            Some(
                "DESCRIPTION, METADATA, CREATED not shown at 30 columns; --json shows every field"
            )
        );
    }
}
