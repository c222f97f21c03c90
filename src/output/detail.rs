//! The detail view of one resource (`get`, `create`, `update`, `set` on a terminal): one shape
//! for every kind, declared by its columns ([`Kind::detail_columns`]).
//!
//! `KEY  value` lines, keys aligned: the kind's fields first, in the order a person needs
//! them, then every other field the server sent (unknown ones too). Times are absolute and
//! relative, references show their id and URI, objects become indented `key  value` lines,
//! metrics read as counts, rates and milliseconds, and secrets stay masked. Free text wraps
//! at spaces to the terminal's width; IDs, URIs and ARNs are never broken.

use serde_json::{Map, Value};

use super::columns::{
    field, label_pairs, masked_field, render, scalar, type_names, Cell, Column, Kind,
};
use super::table::width;
use super::time::full_time;
use crate::escape::escape;

/// Blanks between a key and its value.
const GAP: usize = 2;

/// Blanks before a key that belongs to the line above (an object's member).
const INDENT: usize = 2;

/// The narrowest free text is wrapped to, however narrow the terminal.
const MIN_WRAP: usize = 20;

/// Part of a value.
#[derive(Debug)]
enum Piece {
    /// Shown as it is, never broken (an ID, a URI, a code, a time).
    Whole(String),
    /// Free text, wrapped at spaces.
    Free(String),
    /// Items joined by ", ", wrapped between items, never inside one (labels, event types).
    List(Vec<String>),
    /// A reference: its id, and its URI beside it when both fit, else below it.
    Ref(String, String),
}

/// One line of the view (and the lines its value continues on).
#[derive(Debug)]
struct Entry {
    key: String,
    /// Is it a member of the entry above?
    sub: bool,
    value: Vec<Piece>,
}

impl Entry {
    fn new(key: impl Into<String>, value: Vec<Piece>) -> Self {
        Entry {
            key: key.into(),
            sub: false,
            value,
        }
    }

    fn sub(key: impl Into<String>, value: Vec<Piece>) -> Self {
        Entry {
            sub: true,
            ..Entry::new(key, value)
        }
    }
}

/// One resource as aligned `KEY  value` lines fitted to `terminal_width`.
pub fn render_detail(kind: &Kind, item: &Value, color: bool, terminal_width: u16) -> String {
    let mut entries = Vec::new();
    for c in kind.detail_columns() {
        push_field(&mut entries, c, item);
    }
    if let Value::Object(map) = item {
        push_rest(&mut entries, kind, map);
    }
    lay_out(&entries, color, usize::from(terminal_width))
}

/// The entries of one declared field.
fn push_field(entries: &mut Vec<Entry>, c: &Column, item: &Value) {
    let v = field(c.field, item);
    let text = |s: String| {
        if s.is_empty() {
            vec![]
        } else {
            vec![Piece::Whole(s)]
        }
    };
    let value = match c.cell {
        Cell::Free | Cell::Prose => match render(c, item, false) {
            s if s.is_empty() => vec![],
            s => vec![Piece::Free(s)],
        },
        Cell::Time => match v.as_str() {
            Some(t) => text(full_time(t).unwrap_or_else(|| escape(t))),
            None => text(render(c, item, false)),
        },
        Cell::RefId => ref_pieces(std::slice::from_ref(v)),
        Cell::RefIds => ref_pieces(v.as_array().map(Vec::as_slice).unwrap_or_default()),
        Cell::Types => list(type_names(v)),
        Cell::Labels => list(label_pairs(v)),
        Cell::Target => target_pieces(v),
        Cell::Pairs => {
            entries.push(Entry::new(c.header, vec![]));
            push_members(entries, v);
            return;
        }
        Cell::Metrics => {
            push_metrics(entries, c.header, v);
            return;
        }
        Cell::Text
        | Cell::Auth
        | Cell::Nanos
        | Cell::Status
        | Cell::TargetType
        | Cell::TargetName
        | Cell::TargetArn => text(render(c, item, true)),
    };
    entries.push(Entry::new(c.header, value));
}

/// Every top-level field no declared field showed, by its name, as the server sent it.
fn push_rest(entries: &mut Vec<Entry>, kind: &Kind, map: &Map<String, Value>) {
    let shown: Vec<&str> = kind
        .detail_columns()
        .map(|c| {
            c.field
                .trim_start_matches('/')
                .split('/')
                .next()
                .unwrap_or("")
        })
        .collect();
    for (name, v) in map {
        if shown.contains(&name.as_str()) {
            continue;
        }
        let key = escape(&name.replace('_', " ").to_uppercase());
        let v = masked_field(name, v);
        if v.is_object() {
            entries.push(Entry::new(key, vec![]));
            push_members(entries, &v);
        } else {
            let s = scalar(&v);
            let value = if s.is_empty() {
                vec![]
            } else {
                vec![Piece::Whole(s)]
            };
            entries.push(Entry::new(key, value));
        }
    }
}

/// The members of an object as indented `key  value` lines (a tunnel's config); anything
/// else as one value on the line above.
fn push_members(entries: &mut Vec<Entry>, v: &Value) {
    match v {
        Value::Object(map) => {
            let masked = masked_object(map);
            for (k, v) in &masked {
                let s = scalar(v);
                let value = if s.is_empty() {
                    vec![]
                } else {
                    vec![Piece::Whole(s)]
                };
                entries.push(Entry::sub(escape(k), value));
            }
        }
        Value::Null => {}
        other => {
            if let Some(last) = entries.last_mut() {
                last.value.push(Piece::Whole(scalar(other)));
            }
        }
    }
}

/// `map` with its secret fields masked, however deep.
fn masked_object(map: &Map<String, Value>) -> Map<String, Value> {
    let mut v = Value::Object(map.clone());
    crate::secrets::mask_secret_fields(&mut v, crate::api::SECRET_FIELDS);
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

fn uri_of(v: &Value) -> String {
    v.get("uri").map(scalar).unwrap_or_default()
}

/// A list of items, or nothing when it is empty.
fn list(items: Vec<String>) -> Vec<Piece> {
    if items.is_empty() {
        vec![]
    } else {
        vec![Piece::List(items)]
    }
}

/// References by id, each with its URI.
fn ref_pieces(refs: &[Value]) -> Vec<Piece> {
    refs.iter()
        .filter(|r| !r.is_null())
        .map(|r| Piece::Ref(scalar(r.get("id").unwrap_or(r)), uri_of(r)))
        .collect()
}

/// An EventTarget: the member set, then its resource name.
fn target_pieces(target: &Value) -> Vec<Piece> {
    let Some((name, member)) = target
        .as_object()
        .and_then(|m| m.iter().find(|(_, v)| !v.is_null()))
    else {
        return vec![];
    };
    let mut pieces = vec![Piece::Whole(escape(name))];
    if let Some(arn) = ["stream_arn", "delivery_stream_arn", "log_group_arn"]
        .iter()
        .find_map(|k| member.get(*k).and_then(Value::as_str))
    {
        pieces.push(Piece::Whole(escape(arn)));
    }
    pieces
}

/// One kind of the agent's metrics (`conns` or `http`): how many, then (when there were any)
/// rates per second over 1, 5 and 15 minutes and duration percentiles in milliseconds (the
/// agent counts durations in nanoseconds).
fn push_metrics(entries: &mut Vec<Entry>, header: &str, m: &Value) {
    let num = |k: &str| m.get(k).and_then(Value::as_f64);
    let Some(count) = m.get("count").filter(|c| c.is_number()) else {
        entries.push(Entry::new(header, vec![]));
        return;
    };
    let mut total = format!("{} total", scalar(count));
    if let Some(open) = m.get("gauge").filter(|g| g.is_number()) {
        total.push_str(&format!(", {} open", scalar(open)));
    }
    entries.push(Entry::new(header, vec![Piece::Whole(total)]));
    if num("count").is_some_and(|c| c <= 0.0) {
        return;
    }
    let rates: Vec<String> = [("rate1", "1m"), ("rate5", "5m"), ("rate15", "15m")]
        .iter()
        .filter_map(|(k, span)| num(k).map(|r| format!("{r:.2}/s ({span})")))
        .collect();
    if !rates.is_empty() {
        entries.push(Entry::sub("rate", vec![Piece::Whole(rates.join(", "))]));
    }
    let durations: Vec<String> = ["p50", "p90", "p99"]
        .iter()
        .filter_map(|k| num(k).map(|nanos| format!("{k} {}", millis(nanos))))
        .collect();
    if !durations.is_empty() {
        entries.push(Entry::sub(
            "duration",
            vec![Piece::Whole(durations.join(", "))],
        ));
    }
}

/// Nanoseconds as milliseconds, with a precision that suits their size.
fn millis(nanos: f64) -> String {
    let ms = nanos / 1_000_000.0;
    if ms.abs() < 1.0 {
        format!("{ms:.3} ms")
    } else {
        format!("{ms:.1} ms")
    }
}

/// The entries as text: keys in one column, values beside them; a value's further lines are
/// indented to the value column.
fn lay_out(entries: &[Entry], color: bool, terminal_width: usize) -> String {
    let key_width = entries
        .iter()
        .map(|e| width(&e.key) + if e.sub { INDENT } else { 0 })
        .max()
        .unwrap_or(0);
    let column = key_width + GAP;
    let room = terminal_width.saturating_sub(column).max(MIN_WRAP);
    let mut out: Vec<String> = Vec::new();
    for e in entries {
        let lead = if e.sub {
            " ".repeat(INDENT)
        } else {
            String::new()
        };
        let key = if color && !e.sub {
            format!("{lead}\x1b[1m{}\x1b[0m", e.key)
        } else {
            format!("{lead}{}", e.key)
        };
        let pad = column - width(&e.key) - lead.len();
        let lines = value_lines(&e.value, room);
        let mut lines = lines.into_iter();
        match lines.next() {
            Some(first) => out.push(format!("{key}{}{first}", " ".repeat(pad))),
            None => out.push(key),
        }
        for more in lines {
            out.push(format!("{}{more}", " ".repeat(column)));
        }
    }
    out.iter()
        .map(|l| l.trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The lines of one value, free text wrapped to `room`.
fn value_lines(pieces: &[Piece], room: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for p in pieces {
        match p {
            Piece::Whole(s) => lines.push(s.clone()),
            Piece::Free(s) => lines.extend(wrap(s, room)),
            Piece::List(items) => lines.extend(wrap_items(items, room)),
            Piece::Ref(id, uri) if uri.is_empty() => lines.push(id.clone()),
            Piece::Ref(id, uri) if width(id) + GAP + width(uri) <= room => {
                lines.push(format!("{id}  {uri}"));
            }
            Piece::Ref(id, uri) => {
                lines.push(id.clone());
                lines.push(format!("  {uri}"));
            }
        }
    }
    lines
}

/// `items` joined by ", " in lines of at most `room` columns, broken only between items (an
/// item wider than a line has a line of its own).
fn wrap_items(items: &[String], room: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for (i, item) in items.iter().enumerate() {
        let sep = if i + 1 < items.len() { "," } else { "" };
        if !line.is_empty() && width(&line) + 1 + width(item) + sep.len() > room {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(item);
        line.push_str(sep);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_text_wraps_at_spaces_and_long_words_break() {
        assert_eq!(wrap("a bb ccc dddd", 6), vec!["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("数据中心", 5), vec!["数据", "中心"]);
    }

    #[test]
    fn lists_wrap_between_items() {
        let items: Vec<String> = ["a=1", "bb=2", "ccc=3"].map(String::from).to_vec();
        assert_eq!(wrap_items(&items, 80), vec!["a=1, bb=2, ccc=3"]);
        assert_eq!(wrap_items(&items, 10), vec!["a=1, bb=2,", "ccc=3"]);
        assert_eq!(wrap_items(&items, 2), vec!["a=1,", "bb=2,", "ccc=3"]);
    }

    #[test]
    fn durations_are_milliseconds() {
        assert_eq!(millis(12_345_678.0), "12.3 ms");
        assert_eq!(millis(250_000.0), "0.250 ms");
    }
}
