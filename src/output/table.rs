//! Tables for people: comfy-table, fitted to the terminal, upper-case headers.

use comfy_table::presets::NOTHING;
use comfy_table::{Attribute, Cell, ColumnConstraint, ContentArrangement, Table};
use serde_json::Value;

use super::columns::{render, Kind};
use crate::escape::escape;

/// A borderless table fitted to `width` columns (the printer's terminal).
fn new_table(width: u16) -> Table {
    let mut t = Table::new();
    t.load_style(NOTHING)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(width);
    t
}

fn header(text: &str, color: bool) -> Cell {
    let c = Cell::new(text);
    if color {
        c.add_attribute(Attribute::Bold)
    } else {
        c
    }
}

/// A list as a table.
pub fn list(kind: &Kind, rows: &[Vec<String>], color: bool, width: u16) -> String {
    let mut t = new_table(width);
    t.set_header(kind.table_columns().map(|c| header(c.header, color)));
    for r in rows {
        t.add_row(r);
    }
    // IDs and times stay whole; long free text wraps instead.
    let fixed: Vec<bool> = kind.table_columns().map(|c| !c.may_wrap()).collect();
    for (column, fixed) in t.column_iter_mut().zip(fixed) {
        if fixed {
            column.set_constraint(ColumnConstraint::ContentWidth);
        }
    }
    trim_lines(&t.to_string())
}

/// One resource as FIELD/VALUE lines, with any field the columns do not show at the end.
pub fn detail(kind: &Kind, item: &Value, color: bool, width: u16) -> String {
    let mut t = new_table(width);
    for c in kind.columns {
        t.add_row(vec![
            header(c.header, color),
            Cell::new(render(c, item, true)),
        ]);
    }
    if let Value::Object(map) = item {
        for (k, v) in map {
            if kind.columns.iter().any(|c| c.field == k) {
                continue;
            }
            let text = match &super::columns::masked_field(k, v) {
                Value::String(s) => escape(s),
                Value::Null => String::new(),
                other => escape(&other.to_string()),
            };
            let name = k.replace('_', " ").to_uppercase();
            t.add_row(vec![header(&escape(&name), color), Cell::new(text)]);
        }
    }
    trim_lines(&t.to_string())
}

/// comfy-table pads every line to the full width; trailing blanks only get in the way.
fn trim_lines(s: &str) -> String {
    s.lines()
        .map(|l| l.trim_end().strip_prefix(' ').unwrap_or(l.trim_end()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Rows a table holds before it starts streaming: more than any screen shows, few enough that
/// holding them costs little.
pub const STREAM_AFTER: usize = 1000;

/// The narrowest a free-text column is squeezed to when a streamed table is too wide.
const MIN_FREE_TEXT: usize = 12;

/// A table printed row by row, its column widths taken from its first rows. Free text longer
/// than its column is cut with `…`; IDs and times are never cut.
pub struct Streamed {
    widths: Vec<usize>,
    cut: Vec<bool>,
}

fn width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

impl Streamed {
    /// Sizes the columns of `kind` from `sample` and the terminal's width.
    pub fn new(kind: &Kind, sample: &[Vec<String>], terminal_width: u16) -> Self {
        let columns: Vec<_> = kind.table_columns().collect();
        let mut widths: Vec<usize> = columns.iter().map(|c| width(c.header)).collect();
        for row in sample {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.lines().map(width).max().unwrap_or(0));
            }
        }
        let cut: Vec<bool> = columns.iter().map(|c| c.may_wrap()).collect();
        let total = usize::from(terminal_width);
        let gaps = 2 * widths.len().saturating_sub(1);
        let fixed: usize = widths
            .iter()
            .zip(&cut)
            .filter(|(_, c)| !**c)
            .map(|(w, _)| *w)
            .sum();
        let free: Vec<usize> = (0..widths.len()).filter(|i| cut[*i]).collect();
        if !free.is_empty() {
            let room = total.saturating_sub(fixed + gaps);
            let share = (room / free.len()).max(MIN_FREE_TEXT);
            for i in free {
                widths[i] = widths[i].min(share);
            }
        }
        Streamed { widths, cut }
    }

    /// The header line.
    pub fn header(&self, kind: &Kind, color: bool) -> String {
        let cells: Vec<String> = kind.table_columns().map(|c| c.header.to_string()).collect();
        let line = self.line(&cells);
        if color {
            format!("\x1b[1m{line}\x1b[0m")
        } else {
            line
        }
    }

    /// One row on one line.
    pub fn row(&self, cells: &[String]) -> String {
        self.line(cells)
    }

    fn line(&self, cells: &[String]) -> String {
        let mut out = String::new();
        let last = self.widths.len().saturating_sub(1);
        for (i, (w, cell)) in self.widths.iter().zip(cells).enumerate() {
            let one_line = cell.replace('\n', " ");
            let text = if self.cut[i] && width(&one_line) > *w {
                cut(&one_line, *w)
            } else {
                one_line
            };
            out.push_str(&text);
            if i < last {
                out.push_str(&" ".repeat(w.saturating_sub(width(&text)) + 2));
            }
        }
        out.trim_end().to_string()
    }
}

/// `s` cut to `w` columns, ending in `…`.
fn cut(s: &str, w: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let cw = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + cw + 1 > w {
            break;
        }
        out.push(c);
        used += cw;
    }
    out.push('…');
    out
}
