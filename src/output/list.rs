//! Lists as they arrive: [`ListSink`] takes a list's items one by one (the pages of the API,
//! the agent's captures) and writes them in the run's format with bounded memory.

use std::io::Write;

use serde_json::Value;

use super::columns::Kind;
use super::{jq, json, mask, table, Format, Printer};
use crate::error::{Error, Result};

/// A list item's JSON text as a value.
fn parse_item(text: &str) -> Result<Value> {
    serde_json::from_str(text)
        .map_err(|e| Error::BadResponse(format!("a list item is not valid JSON ({e})")))
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
    /// A list printed by `opts`, its rows laid out as `kind` says.
    pub(super) fn new(opts: Printer, kind: &'static Kind) -> Result<Self> {
        let jq = match &opts.jq {
            Some(code) => Some(jq::ListFilter::new(code, opts.format == Format::Ndjson)?),
            None => None,
        };
        let mut sink = ListSink {
            out: opts.streams.out(),
            table: table::Stream::new(kind, opts.streams.width(), opts.wide, opts.color),
            opts,
            kind,
            jq,
            count: 0,
        };
        if sink.opts.format == Format::Json && sink.opts.jq.is_none() {
            sink.out.write_all(b"[")?;
        }
        Ok(sink)
    }

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
        let text = if (masks && mask::may_hold_secret(text, self.opts.secret_fields))
            || text.contains('\n')
        {
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
            mask::mask(item, self.opts.secret_fields)
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
            Format::Ndjson => super::write_line(&mut self.out, &item, self.opts.tty)?,
            Format::Tsv => {
                writeln!(self.out, "{}", self.kind.tsv_row(&item))?;
            }
            Format::Table if self.opts.wide => {
                self.table.push(self.kind.wide_row(&item), &mut self.out)?
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
