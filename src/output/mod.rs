//! The one place that writes data to stdout: tables, tab-separated values, JSON, NDJSON and
//! jq results, the reports of bulk commands, and captured requests.
//!
//! Handlers are given a [`Printer`] (the output settings and the [`Streams`] it writes to) and
//! hand it values: a [`ListSink`] takes items as they arrive, [`Printer::object`] one
//! resource; nothing here makes requests. Tests give the printer memory streams.

pub mod capture;
pub mod columns;
pub mod detail;
pub mod inspect;
pub mod jq;
pub mod json;
pub mod progress;
pub mod report;
pub mod streams;
pub mod table;
pub mod time;

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod screens;

use std::io::Write;

use serde_json::Value;

use crate::error::{Error, Result};
use columns::Kind;
pub use streams::{Captured, Streams};

/// How data is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A table fitted to the terminal.
    Table,
    /// Tab-separated values, no header (stdout is not a terminal and no format was asked for).
    Tsv,
    /// JSON: the API's values unchanged; a list is one array.
    Json,
    /// One compact JSON value per line.
    Ndjson,
}

/// The output settings of one run and the streams they write to.
#[derive(Debug, Clone)]
pub struct Printer {
    /// The format.
    pub format: Format,
    /// `-o wide`: tables show every column, none left out for width.
    pub wide: bool,
    /// A jq filter applied to the JSON output.
    pub jq: Option<String>,
    /// Is stdout a terminal (or made to look like one with `TUNNELCTL_FORCE_TTY=1`)?
    pub tty: bool,
    /// May colour be used?
    pub color: bool,
    /// Print secrets the service echoes instead of masking them (`--show-secrets`).
    pub show_secrets: bool,
    /// The names of the fields that hold secrets.
    pub secret_fields: &'static [&'static str],
    /// Where output goes.
    pub streams: Streams,
}

/// The output the command line asked for.
#[derive(Debug, Clone, Default)]
pub struct Asked {
    /// `--json`.
    pub json: bool,
    /// `-o FORMAT` (table, json or ndjson; `-o wide` is a table with `wide` set).
    pub format: Option<Format>,
    /// `-o wide`.
    pub wide: bool,
    /// `--jq EXPR`.
    pub jq: Option<String>,
    /// `--no-color`.
    pub no_color: bool,
    /// `--show-secrets`.
    pub show_secrets: bool,
}

impl Printer {
    /// Picks the format from what was asked for and whether the output stream is a terminal.
    pub fn resolve(g: &Asked, streams: Streams) -> Result<Self> {
        let tty = streams.out_is_terminal();
        let format = match (g.json, g.format) {
            (true, Some(Format::Table | Format::Ndjson | Format::Tsv)) => {
                return Err(Error::usage(
                    "--json cannot be combined with -o table, -o wide or -o ndjson",
                ))
            }
            (true, _) | (false, Some(Format::Json)) => Format::Json,
            (false, Some(Format::Ndjson)) => Format::Ndjson,
            (false, Some(Format::Table | Format::Tsv)) => Format::Table,
            (false, None) if g.jq.is_some() => Format::Json,
            (false, None) if tty => Format::Table,
            (false, None) => Format::Tsv,
        };
        if g.jq.is_some() && matches!(format, Format::Table) {
            return Err(Error::usage(
                "--jq works on JSON output; it cannot be combined with -o table or -o wide",
            ));
        }
        if let Some(expr) = &g.jq {
            jq::Filter::compile(expr)?;
        }
        let color = tty && !g.no_color && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        Ok(Printer {
            format,
            wide: g.wide,
            jq: g.jq.clone(),
            tty,
            color,
            show_secrets: g.show_secrets,
            secret_fields: crate::api::SECRET_FIELDS,
            streams,
        })
    }

    /// Is the output machine-readable JSON of some kind?
    pub fn is_json(&self) -> bool {
        matches!(self.format, Format::Json | Format::Ndjson)
    }

    /// Starts writing a list of `kind`.
    pub fn list(&self, kind: &'static Kind) -> Result<ListSink> {
        let mut sink = ListSink {
            opts: self.clone(),
            kind,
            out: self.streams.out(),
            table: table::Stream::new(kind, self.streams.width(), self.wide, self.color),
            jq: match &self.jq {
                Some(code) => Some(jq::ListFilter::new(code, self.format == Format::Ndjson)?),
                None => None,
            },
            count: 0,
        };
        if self.format == Format::Json && self.jq.is_none() {
            sink.out.write_all(b"[")?;
        }
        Ok(sink)
    }

    /// Writes one resource (the answer of get, create, update, set).
    pub fn object(&self, kind: &'static Kind, value: &Value) -> Result<()> {
        let mut out = self.streams.out();
        let masked;
        let value = if self.shows_secrets() {
            value
        } else {
            masked = mask(value.clone(), self.secret_fields);
            &masked
        };
        if let Some(expr) = &self.jq {
            jq::Filter::compile(expr)?.run(value, self.tty, &mut out)?;
        } else {
            match self.format {
                Format::Json => write_json(&mut out, value, self.tty)?,
                Format::Ndjson => {
                    write_line(&mut out, value, self.tty)?;
                }
                Format::Tsv => {
                    writeln!(out, "{}", kind.tsv_row(value))?;
                }
                Format::Table => {
                    let text = detail::render_detail(kind, value, self.color, self.streams.width());
                    writeln!(out, "{text}")?;
                }
            }
        }
        out.flush()?;
        Ok(())
    }
}

impl Printer {
    /// Are echoed secrets printed as the service sent them (`--show-secrets`, machine output
    /// only: tables never show them)?
    fn shows_secrets(&self) -> bool {
        self.show_secrets && (self.is_json() || self.jq.is_some())
    }
}

/// A list item's JSON text as a value.
fn parse_item(text: &str) -> Result<Value> {
    serde_json::from_str(text)
        .map_err(|e| Error::BadResponse(format!("a list item is not valid JSON ({e})")))
}

/// Does `text` contain `needle` (ASCII letters in any case)? No copy of `text` is made: this
/// runs on every item of a list.
fn contains_ignore_case(text: &str, needle: &str) -> bool {
    let (hay, needle) = (text.as_bytes(), needle.as_bytes());
    let Some(first) = needle.first() else {
        return true;
    };
    hay.windows(needle.len())
        .any(|w| w[0].eq_ignore_ascii_case(first) && w.eq_ignore_ascii_case(needle))
}

/// The value with the secrets the service echoes (AWS secret access keys) masked.
fn mask(mut value: Value, fields: &[&str]) -> Value {
    crate::secrets::mask_secret_fields(&mut value, fields);
    value
}

/// Might this JSON text hold a secret field, or a known secret? A field name in any case, or
/// written with `\u` escapes, counts too; so does any text the known-secret check matches.
fn may_hold_secret(text: &str, fields: &[&str]) -> bool {
    if text.contains("\\u") || crate::secrets::holds_known(text) {
        return true;
    }
    fields.iter().any(|f| contains_ignore_case(text, f))
}

/// JSON indented and terminal-safe on a terminal, compact and exact otherwise, then a newline.
pub fn write_json(out: &mut impl Write, value: &Value, tty: bool) -> Result<()> {
    json::write(out, value, tty)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// One value on one line: exact in a pipe, terminal-safe on a terminal.
pub(crate) fn write_line(out: &mut impl Write, value: &Value, tty: bool) -> Result<()> {
    if tty {
        json::write_compact_safe(out, value)?;
    } else {
        json::write(out, value, false)?;
    }
    out.write_all(b"\n")?;
    Ok(())
}

/// Receives the items of a list as they arrive and writes them in the chosen format.
///
/// Memory stays bounded whatever the list's length: machine output passes each item's text
/// through as it comes, a table is streamed once it has more rows than fit on any screen,
/// and `--jq` filters each item as it comes or holds the items within a budget (see [`jq`]).
pub struct ListSink {
    opts: Printer,
    kind: &'static Kind,
    out: Box<dyn Write>,
    table: table::Stream,
    jq: Option<jq::ListFilter>,
    count: usize,
}

impl ListSink {
    /// Does this sink take items as text (machine output in a pipe, or `--jq`)?
    fn takes_text(&self) -> bool {
        self.opts.jq.is_some()
            || (!self.opts.tty && matches!(self.opts.format, Format::Json | Format::Ndjson))
    }

    /// Writes (or keeps, for a table's first rows or jq) one item given as the server's JSON
    /// text; machine output passes it through without building a value.
    pub fn push_raw(&mut self, text: &str) -> Result<()> {
        if !self.takes_text() {
            return self.push(parse_item(text)?);
        }
        self.count += 1;
        let rewritten;
        let masks = !self.opts.shows_secrets();
        let text =
            if (masks && may_hold_secret(text, self.opts.secret_fields)) || text.contains('\n') {
                // Masked, or compacted so each item stays on one line.
                let mut item = parse_item(text)?;
                if masks {
                    crate::secrets::mask_secret_fields(&mut item, self.opts.secret_fields);
                }
                rewritten = item.to_string();
                rewritten.as_str()
            } else {
                text
            };
        if let Some(filter) = self.jq.as_mut() {
            return filter.push(text, self.opts.tty, &mut self.out);
        }
        if self.opts.format == Format::Json && self.count > 1 {
            self.out.write_all(b",")?;
        }
        self.out.write_all(text.as_bytes())?;
        if self.opts.format == Format::Ndjson {
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// Writes (or keeps, for a table's first rows or jq) one item.
    pub fn push(&mut self, item: Value) -> Result<()> {
        if self.takes_text() {
            return self.push_raw(&item.to_string());
        }
        self.count += 1;
        let item = if self.opts.shows_secrets() {
            item
        } else {
            mask(item, self.opts.secret_fields)
        };
        match self.opts.format {
            Format::Json => {
                if self.count > 1 {
                    self.out.write_all(b",")?;
                }
                let mut text = Vec::new();
                json::write(&mut text, &item, true)?;
                self.out.write_all(b"\n")?;
                for (i, line) in text.split(|b| *b == b'\n').enumerate() {
                    if i > 0 {
                        self.out.write_all(b"\n")?;
                    }
                    self.out.write_all(b"  ")?;
                    self.out.write_all(line)?;
                }
            }
            Format::Ndjson => write_line(&mut self.out, &item, self.opts.tty)?,
            Format::Tsv => {
                writeln!(self.out, "{}", self.kind.tsv_row(&item))?;
            }
            Format::Table => self.table.push(self.kind.table_row(&item), &mut self.out)?,
        }
        Ok(())
    }

    /// Ends a table: the rows held are printed, then, on a terminal, one line on stderr names
    /// the columns left out for want of width.
    fn end_table(&mut self) -> Result<()> {
        let note = self.table.finish(&mut self.out)?;
        self.out.flush()?;
        if let Some(note) = note.filter(|_| self.opts.tty) {
            self.opts.streams.err_line(&note);
        }
        Ok(())
    }

    /// Ends the list; returns how many items there were.
    pub fn finish(mut self) -> Result<usize> {
        if let Some(filter) = self.jq.take() {
            filter.finish(self.opts.tty, &mut self.out)?;
        } else {
            match self.opts.format {
                Format::Json if self.count > 0 && self.opts.tty => self.out.write_all(b"\n]\n")?,
                Format::Json => self.out.write_all(b"]\n")?,
                Format::Table => self.end_table()?,
                _ => {}
            }
        }
        self.out.flush()?;
        Ok(self.count)
    }

    /// Ends a list cut short by an error: what was printed stays, rows held for a table are
    /// printed, and machine output is left open (no closing `]`, no jq run), so no script
    /// takes a partial list for a whole one.
    pub fn abandon(mut self) -> Result<usize> {
        if self.opts.jq.is_none() && self.opts.format == Format::Table {
            self.end_table()?;
        }
        if self.opts.jq.is_none() && matches!(self.opts.format, Format::Json) {
            self.out.write_all(b"\n")?;
        }
        self.out.flush()?;
        Ok(self.count)
    }
}
