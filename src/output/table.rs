//! Tables for people: one line per row, headers aligned over their columns, fitted to the
//! terminal's width by one exact rule of ours and drawn by comfy-table.
//!
//! The rule (which columns matter is ours, so it lives here): widths come from the rows
//! (display width, so wide CJK characters count twice). When every column does not fit, the
//! columns are taken in order of priority ([`Column::priority`]), and each is kept if it still
//! fits beside those already kept; a free-text column counts at most [`FREE_TEXT_NEED`]
//! columns wide for this choice. Free text then gets the room left, up to its full width;
//! where leaving out columns of lower priority (the lowest first) would let a free text be
//! shown whole, they are left out. Only then is free text cut, with `…`. The columns left out
//! are named once on stderr. IDs, names, times and references are never cut; when the
//! columns a table always keeps ([`super::columns::ALWAYS`]) are wider than the terminal by
//! themselves, the line is longer than the terminal rather than an ID being cut. `-o wide`
//! skips the rule: every column, nothing cut.
//!
//! comfy-table then draws the chosen columns at the chosen widths: no borders, two blanks
//! between columns, each row capped at one line (its truncation is the `…` cut). A table
//! longer than [`STREAM_AFTER`] rows is fitted to those rows and then drawn in batches with
//! the same fixed widths and no header, so memory stays flat however long the list is.

use std::io::Write;

use comfy_table::{presets::NOTHING, ColumnConstraint, Row, Table, Width};
use unicode_width::UnicodeWidthChar;

use super::columns::{Column, Kind};
use crate::error::Result;

/// Blanks between two columns.
const GAP: usize = 2;

/// How wide a free-text column counts when choosing which columns fit: enough to read the
/// start of a description; the rest is cut before any other column is left out for it.
pub const FREE_TEXT_NEED: usize = 20;

/// Rows a table holds before it starts streaming: more than any screen shows, few enough that
/// holding them costs little.
pub const STREAM_AFTER: usize = 1000;

/// Rows drawn at a time once a table streams.
const BATCH: usize = 256;

/// Where comfy-table may break a cell into words: nowhere. Cells are escaped text, so this
/// character never occurs in one, and a cell too long for its column is cut at its width.
const NO_BREAK: char = '\0';

/// The display width of `s` in terminal columns (kept here too: the tables are where most
/// callers measure).
pub use super::text_width::width;

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
    /// Does each column wrap at spaces onto more lines?
    wrap: Vec<bool>,
    /// The headers of the table columns.
    headers: Vec<&'static str>,
    /// For each column, the header of the one it stands in for, if it is a stand-in.
    stands_in_for: Vec<Option<&'static str>>,
}

impl Layout {
    /// Fits the table columns of `kind`, holding `rows`, into `terminal_width` columns.
    pub fn fit(kind: &Kind, rows: &[Vec<String>], terminal_width: u16) -> Self {
        let columns: Vec<&Column> = kind.table_columns().collect();
        let natural = natural_widths(&columns, rows);
        let need: Vec<usize> = columns
            .iter()
            .zip(&natural)
            .enumerate()
            .map(|(i, (c, n))| {
                if c.may_cut() {
                    (*n).min(FREE_TEXT_NEED.max(width(c.header)))
                } else if c.wraps() {
                    // Wrapped, it needs its longest word on one line.
                    longest_word(rows, i).max(width(c.header))
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
            // A stand-in only where what it stands for did not fit.
            let principal_kept = columns[i]
                .stands_in_for
                .is_some_and(|p| (0..columns.len()).any(|j| kept[j] && columns[j].header == p));
            if principal_kept {
                continue;
            }
            let extra = sizes.need[i] + if used == 0 { 0 } else { GAP };
            if columns[i].priority <= super::columns::ALWAYS || used + extra <= sizes.room {
                kept[i] = true;
                used += extra;
            }
        }

        // Free text that would be cut is shown whole instead when leaving out columns of
        // lower priority (the lowest first) makes room for all of it.
        // (A column that wraps is whole on its lines already.)
        for &f in &order {
            if !kept[f]
                || columns[f].wraps()
                || sizes.widths(&kept)[f].is_none_or(|w| w >= sizes.natural[f])
            {
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
            wrap: columns.iter().map(|c| c.wraps()).collect(),
            headers: columns.iter().map(|c| c.header).collect(),
            stands_in_for: columns.iter().map(|c| c.stands_in_for).collect(),
        }
    }

    /// The headers of the columns left out, in table order (not a stand-in whose column is
    /// shown: nothing is missing then).
    pub fn dropped(&self) -> Vec<&'static str> {
        let shown = |header: &str| {
            self.headers
                .iter()
                .zip(&self.widths)
                .any(|(h, w)| *h == header && w.is_some())
        };
        self.widths
            .iter()
            .zip(&self.headers)
            .zip(&self.stands_in_for)
            .filter(|((w, _), stand_in)| w.is_none() && !stand_in.is_some_and(shown))
            .map(|((_, h), _)| *h)
            .collect()
    }

    /// The line that says which columns were left out, if any (broken at spaces into lines
    /// that fit the terminal when many were).
    pub fn dropped_note(&self, terminal_width: u16) -> Option<String> {
        let dropped = self.dropped();
        if dropped.is_empty() {
            return None;
        }
        let note = format!(
            "{} not shown at {terminal_width} columns; --json shows every field",
            dropped.join(", ")
        );
        Some(super::text_width::wrap(&note, usize::from(terminal_width).max(20)).join("\n"))
    }

    /// Every column of `kind` ([`Kind::wide_columns`]) at its full width, none left out and
    /// nothing cut (`-o wide`).
    pub fn every(kind: &Kind, rows: &[Vec<String>]) -> Self {
        let columns: Vec<&Column> = kind.wide_columns().collect();
        Layout {
            widths: natural_widths(&columns, rows)
                .into_iter()
                .map(Some)
                .collect(),
            cut: vec![false; columns.len()],
            wrap: vec![false; columns.len()],
            headers: columns.iter().map(|c| c.header).collect(),
            stands_in_for: columns.iter().map(|c| c.stands_in_for).collect(),
        }
    }

    /// `rows` drawn by comfy-table: the header first when asked for (bold when `color`),
    /// then one line per row.
    pub fn draw(&self, rows: &[Vec<String>], header: bool, color: bool) -> String {
        let mut table = Table::new();
        table.load_style(NOTHING);
        if header {
            let mut head = Row::from(self.headers.iter().copied());
            head.max_height(1);
            table.set_header(head);
        }
        // A table with a column that wraps has rows of several lines; the others, one line.
        let one_line = !self
            .wrap
            .iter()
            .zip(&self.widths)
            .any(|(w, k)| *w && k.is_some());
        for cells in rows {
            let mut row = if one_line {
                Row::from(cells.iter().map(String::as_str))
            } else {
                // Rows of several lines are for the columns that wrap: free text is still
                // cut to one line, as in any table.
                Row::from(cells.iter().enumerate().map(|(i, c)| {
                    match self.widths.get(i).copied().flatten() {
                        Some(w) if self.cut[i] && width(c) > w => cut(c, w),
                        _ => c.clone(),
                    }
                }))
            };
            if one_line {
                row.max_height(1);
            }
            table.add_row(row);
        }
        let last = self.widths.iter().rposition(Option::is_some);
        for (i, column) in table.column_iter_mut().enumerate() {
            let Some(w) = self.widths.get(i).copied().flatten() else {
                column.set_constraint(ColumnConstraint::Hidden);
                continue;
            };
            let gap = if Some(i) == last { 0 } else { GAP };
            column.set_padding((0, gap as u16));
            if !self.wrap[i] {
                column.set_delimiter(NO_BREAK);
            }
            let w = Width::Fixed(u16::try_from(w + gap).unwrap_or(u16::MAX));
            // Free text is cut at its width; anything else is at least that wide and grows
            // to hold a longer value (a streamed row's ID) rather than cut it.
            column.set_constraint(if self.cut[i] || self.wrap[i] {
                ColumnConstraint::Absolute(w)
            } else {
                ColumnConstraint::LowerBoundary(w)
            });
        }
        let mut lines: Vec<String> = table.lines().map(|l| l.trim_end().to_string()).collect();
        if let Some(head) = lines.first_mut().filter(|_| header && color) {
            *head = format!("\x1b[1m{head}\x1b[0m");
        }
        lines.join("\n")
    }
}

/// The widest word of column `i` in `rows`.
fn longest_word(rows: &[Vec<String>], i: usize) -> usize {
    rows.iter()
        .filter_map(|r| r.get(i))
        .flat_map(|cell| cell.split(' '))
        .map(width)
        .max()
        .unwrap_or(0)
}

/// The full width of each column: its widest cell, or its header.
fn natural_widths(columns: &[&Column], rows: &[Vec<String>]) -> Vec<usize> {
    columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|cell| width(cell))
                .fold(width(c.header), usize::max)
        })
        .collect()
}

/// A list table as its rows arrive: held until [`STREAM_AFTER`] of them, then fitted to those
/// and drawn in batches with the same widths.
pub struct Stream {
    kind: &'static Kind,
    /// The rows not drawn yet.
    rows: Vec<Vec<String>>,
    /// The layout, once it is fixed: when the table starts streaming, or when it ends.
    layout: Option<Layout>,
    /// The terminal's width.
    room: u16,
    /// Every column, none left out (`-o wide`).
    wide: bool,
    /// Is the header bold?
    color: bool,
}

impl Stream {
    /// A table of `kind` for a terminal `room` columns wide.
    pub fn new(kind: &'static Kind, room: u16, wide: bool, color: bool) -> Self {
        Stream {
            kind,
            rows: Vec::new(),
            layout: None,
            room,
            wide,
            color,
        }
    }

    /// Takes one row; writes rows once there are enough of them.
    pub fn push(&mut self, row: Vec<String>, out: &mut dyn Write) -> Result<()> {
        self.rows.push(row);
        let due = if self.layout.is_some() {
            BATCH
        } else {
            STREAM_AFTER
        };
        if self.rows.len() >= due {
            self.write(out)?;
        }
        Ok(())
    }

    /// Writes the rows held (with the header if none was written yet); returns the line that
    /// names the columns left out for want of width, if any.
    pub fn finish(&mut self, out: &mut dyn Write) -> Result<Option<String>> {
        if !self.rows.is_empty() {
            self.write(out)?;
        }
        Ok(self
            .layout
            .as_ref()
            .and_then(|layout| layout.dropped_note(self.room)))
    }

    /// Draws the rows held: the first time with the header, on a layout fitted to them.
    fn write(&mut self, out: &mut dyn Write) -> Result<()> {
        let header = self.layout.is_none();
        let layout = self.layout.get_or_insert_with(|| {
            if self.wide {
                Layout::every(self.kind, &self.rows)
            } else {
                Layout::fit(self.kind, &self.rows, self.room)
            }
        });
        writeln!(out, "{}", layout.draw(&self.rows, header, self.color))?;
        self.rows.clear();
        Ok(())
    }
}
/// `s` cut to `w` columns, ending in `…`: for a line that is not a table (a `tail` line),
/// where comfy-table does not draw.
pub fn cut(s: &str, w: usize) -> String {
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
    use crate::output::columns::Kind;

    // The columns of the management resources are in their descriptors.
    const SESSION: &Kind = crate::api::sessions::RESOURCE.kind;
    const IP_POLICY: &Kind = crate::api::ip_policies::RESOURCE.kind;
    const EVENT_DESTINATION: &Kind = crate::api::event_destinations::RESOURCE.kind;

    fn row(cells: &[&str]) -> Vec<String> {
        cells.iter().map(|c| (*c).to_string()).collect()
    }

    /// The table of `rows` with its header, colour off.
    fn list(layout: &Layout, rows: &[Vec<String>], color: bool) -> String {
        layout.draw(rows, true, color)
    }

    #[test]
    fn the_header_is_aligned_over_its_column() {
        let rows = vec![row(&["ipp_1", "office", "", "3h ago"])];
        let layout = Layout::fit(IP_POLICY, &rows, 80);
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
        let layout = Layout::fit(SESSION, &rows, 80);
        assert_eq!(layout.dropped(), vec!["IP", "METADATA"]);
        let text = list(&layout, &rows, false);
        assert!(text.lines().all(|l| width(l) <= 80), "{text}");
        assert!(text.contains(id));
        let wide = Layout::fit(SESSION, &rows, 160);
        assert!(wide.dropped().is_empty());
        assert!(list(&wide, &rows, false).contains("rack"));
    }

    #[test]
    fn free_text_is_cut_with_an_ellipsis_and_wide_characters_count_twice() {
        let long = "数据中心".repeat(20);
        let rows = vec![row(&["ipp_1", &long, "", "3h ago"])];
        let layout = Layout::fit(IP_POLICY, &rows, 60);
        let text = list(&layout, &rows, false);
        for l in text.lines() {
            assert!(width(l) <= 60, "{l}");
        }
        assert!(text.contains('…'), "{text}");
        assert!(layout.dropped().is_empty(), "{:?}", layout.dropped());
    }

    #[test]
    fn ids_and_references_are_never_cut() {
        let arn = "arn:aws:kinesis:us-east-1:123456789012:stream/tunnel-events";
        let rows = vec![row(&[
            "ed_2guQ2CGIpfYdhnFmnssgDPmyWHZ",
            "audit",
            "kinesis",
            arn,
            "tunnel-events",
            "role arn:aws:iam::123456789012:role/tunnel-events",
            "",
            "3h ago",
            "json",
        ])];
        for w in [40, 80, 100, 160] {
            let layout = Layout::fit(EVENT_DESTINATION, &rows, w);
            let text = list(&layout, &rows, false);
            assert!(!text.contains('…'), "{w}: {text}");
            let shown = !layout.dropped().contains(&"TARGET");
            assert_eq!(text.contains(arn), shown, "{w}: {text}");
        }
    }

    #[test]
    fn wide_keeps_every_column_whole_and_later_batches_keep_the_widths() {
        let long = "office network ".repeat(10);
        let cells = row(&["ipp_1", &long, "", "3h ago"]);
        let mut table = Stream::new(IP_POLICY, 40, true, false);
        let mut out = Vec::new();
        for _ in 0..STREAM_AFTER + BATCH + 1 {
            table.push(cells.clone(), &mut out).expect("a row");
        }
        let note = table.finish(&mut out).expect("the end");
        assert_eq!(note, None);
        let text = String::from_utf8(out).expect("text");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines.len(),
            STREAM_AFTER + BATCH + 2,
            "a header and a line per row"
        );
        assert!(lines[0].starts_with("ID     DESCRIPTION"), "{}", lines[0]);
        assert!(lines[0].ends_with("METADATA  CREATED"), "{}", lines[0]);
        let at = lines[0].find("CREATED");
        assert!(lines[1..]
            .iter()
            .all(|l| *l == lines[1] && l.find("3h ago") == at));
        assert!(!text.contains('…'));
    }

    #[test]
    fn an_essential_column_wider_than_the_terminal_stays_whole() {
        let id = "x".repeat(50);
        let rows = vec![row(&[&id, "office", "", "3h ago"])];
        let layout = Layout::fit(IP_POLICY, &rows, 30);
        let text = list(&layout, &rows, false);
        assert_eq!(text, format!("ID\n{id}"));
        assert_eq!(
            layout.dropped_note(30).as_deref(),
            Some(
                "DESCRIPTION, METADATA, CREATED\nnot shown at 30 columns;\n--json shows every field"
            )
        );
    }
}
