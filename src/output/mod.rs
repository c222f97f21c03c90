//! The one place that writes data to stdout: tables, tab-separated values, JSON, NDJSON and
//! jq results.
//!
//! Handlers hand values to a [`ListSink`] (items as they arrive) or to
//! [`OutputOptions::object`] (one resource); nothing here makes requests.

pub mod columns;
pub mod escape;
pub mod jq;
pub mod table;
pub mod time;

use std::io::{IsTerminal, Write};

use serde_json::Value;

use crate::cli::{GlobalArgs, OutputFormat};
use crate::error::{Error, Result};
use columns::Kind;

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

/// The output settings of one run.
#[derive(Debug, Clone)]
pub struct OutputOptions {
    /// The format.
    pub format: Format,
    /// A jq filter applied to the JSON output.
    pub jq: Option<String>,
    /// Is stdout a terminal (or made to look like one with `TUNNELCTL_FORCE_TTY=1`)?
    pub tty: bool,
    /// May colour be used?
    pub color: bool,
    /// Print secrets the service echoes instead of masking them (`--show-secrets`).
    pub show_secrets: bool,
}

impl OutputOptions {
    /// Picks the format from the flags and whether stdout is a terminal.
    pub fn from_globals(g: &GlobalArgs) -> Result<Self> {
        let tty = std::io::stdout().is_terminal()
            || std::env::var("TUNNELCTL_FORCE_TTY").is_ok_and(|v| v == "1");
        let format = match (g.json, g.output) {
            (true, Some(OutputFormat::Table | OutputFormat::Ndjson)) => {
                return Err(Error::usage(
                    "--json cannot be combined with -o table or -o ndjson",
                ))
            }
            (true, _) | (false, Some(OutputFormat::Json)) => Format::Json,
            (false, Some(OutputFormat::Ndjson)) => Format::Ndjson,
            (false, Some(OutputFormat::Table)) => Format::Table,
            (false, None) if g.jq.is_some() => Format::Json,
            (false, None) if tty => Format::Table,
            (false, None) => Format::Tsv,
        };
        if g.jq.is_some() && matches!(format, Format::Table) {
            return Err(Error::usage(
                "--jq works on JSON output; it cannot be combined with -o table",
            ));
        }
        if let Some(expr) = &g.jq {
            jq::Filter::compile(expr)?;
        }
        let color = tty && !g.no_color && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        Ok(OutputOptions {
            format,
            jq: g.jq.clone(),
            tty,
            color,
            show_secrets: g.show_secrets,
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
            out: std::io::BufWriter::new(std::io::stdout().lock()),
            rows: Vec::new(),
            collected: Vec::new(),
            count: 0,
        };
        if self.format == Format::Json && self.jq.is_none() {
            sink.out.write_all(b"[")?;
        }
        Ok(sink)
    }

    /// Writes one resource (the answer of get, create, update, set).
    pub fn object(&self, kind: &'static Kind, value: &Value) -> Result<()> {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        if let Some(expr) = &self.jq {
            let filter = jq::Filter::compile(expr)?;
            filter.run(value, self.tty, &mut out)?;
        } else {
            match self.format {
                Format::Json => write_json(&mut out, value, self.tty)?,
                Format::Ndjson => {
                    serde_json::to_writer(&mut out, value).map_err(json_write_error)?;
                    out.write_all(b"\n")?;
                }
                Format::Tsv => {
                    writeln!(out, "{}", kind.tsv_row(value))?;
                }
                Format::Table => {
                    let text = table::detail(kind, value, self.color);
                    writeln!(out, "{text}")?;
                }
            }
        }
        out.flush()?;
        Ok(())
    }
}

fn json_write_error(e: serde_json::Error) -> Error {
    match e.io_error_kind() {
        Some(kind) => Error::from(std::io::Error::from(kind)),
        None => Error::Io(format!("could not write JSON: {e}")),
    }
}

/// JSON indented on a terminal, compact otherwise, then a newline.
pub fn write_json(out: &mut impl Write, value: &Value, pretty: bool) -> Result<()> {
    if pretty {
        serde_json::to_writer_pretty(&mut *out, value).map_err(json_write_error)?;
    } else {
        serde_json::to_writer(&mut *out, value).map_err(json_write_error)?;
    }
    out.write_all(b"\n")?;
    Ok(())
}

/// Receives the items of a list as they arrive and writes them in the chosen format.
pub struct ListSink {
    opts: OutputOptions,
    kind: &'static Kind,
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    rows: Vec<Vec<String>>,
    collected: Vec<Value>,
    count: usize,
}

impl ListSink {
    /// Writes (or keeps, for a table or jq) one item.
    pub fn push(&mut self, item: Value) -> Result<()> {
        self.count += 1;
        if self.opts.jq.is_some() {
            // jq sees the whole array, as with `--json | jq`.
            self.collected.push(item);
            return Ok(());
        }
        match self.opts.format {
            Format::Json => {
                if self.count > 1 {
                    self.out.write_all(b",")?;
                }
                if self.opts.tty {
                    let text = serde_json::to_string_pretty(&item).map_err(json_write_error)?;
                    self.out.write_all(b"\n")?;
                    for (i, line) in text.lines().enumerate() {
                        if i > 0 {
                            self.out.write_all(b"\n")?;
                        }
                        self.out.write_all(b"  ")?;
                        self.out.write_all(line.as_bytes())?;
                    }
                } else {
                    serde_json::to_writer(&mut self.out, &item).map_err(json_write_error)?;
                }
            }
            Format::Ndjson => {
                serde_json::to_writer(&mut self.out, &item).map_err(json_write_error)?;
                self.out.write_all(b"\n")?;
            }
            Format::Tsv => {
                writeln!(self.out, "{}", self.kind.tsv_row(&item))?;
            }
            Format::Table => self.rows.push(self.kind.table_row(&item)),
        }
        Ok(())
    }

    /// Ends the list; returns how many items there were.
    pub fn finish(mut self) -> Result<usize> {
        if let Some(expr) = &self.opts.jq {
            let filter = jq::Filter::compile(expr)?;
            let all = Value::Array(std::mem::take(&mut self.collected));
            filter.run(&all, self.opts.tty, &mut self.out)?;
        } else {
            match self.opts.format {
                Format::Json if self.count > 0 && self.opts.tty => self.out.write_all(b"\n]\n")?,
                Format::Json => self.out.write_all(b"]\n")?,
                Format::Table if !self.rows.is_empty() => {
                    let text = table::list(self.kind, &self.rows, self.opts.color);
                    writeln!(self.out, "{text}")?;
                }
                _ => {}
            }
        }
        self.out.flush()?;
        Ok(self.count)
    }
}
