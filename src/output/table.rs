//! Tables for people: comfy-table, fitted to the terminal, upper-case headers.

use comfy_table::presets::NOTHING;
use comfy_table::{Attribute, Cell, ColumnConstraint, ContentArrangement, Table};
use serde_json::Value;

use super::columns::{render, Kind};
use super::escape::escape;

fn new_table() -> Table {
    let mut t = Table::new();
    t.load_style(NOTHING)
        .set_content_arrangement(ContentArrangement::Dynamic);
    if t.width().is_none() {
        // Not a real terminal (TUNNELCTL_FORCE_TTY): use $COLUMNS or a common width.
        let cols = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse::<u16>().ok())
            .unwrap_or(120);
        t.set_width(cols);
    }
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
pub fn list(kind: &Kind, rows: &[Vec<String>], color: bool) -> String {
    let mut t = new_table();
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
pub fn detail(kind: &Kind, item: &Value, color: bool) -> String {
    let mut t = new_table();
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
