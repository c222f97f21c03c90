//! The printer: the output settings of one run (format, jq, colour, `--quiet`, secrets) and
//! the generic ways to write through them. Features build their own views (rows, documents,
//! lines of text) and print them with these methods: one resource ([`Printer::object`]), a
//! list ([`Printer::list`]), a document of their own ([`Printer::document`]), plain lines and
//! bytes, and notes on stderr.

use std::io::Write;

use serde_json::Value;

use super::columns::Kind;
use super::list::ListSink;
use super::progress::Spinner;
use super::{detail, jq, mask, Format, Streams};
use crate::error::{Error, Result};

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
    /// `--quiet`: no confirmations or progress on stderr, only data and errors.
    pub quiet: bool,
    /// Print secrets the service echoes instead of masking them (`--show-secrets`).
    pub show_secrets: bool,
    /// The names of the fields that hold secrets.
    pub secret_fields: &'static [&'static str],
    /// Where output goes.
    pub streams: Streams,
    /// Was a format asked for (`--json`, `-o`, `--jq`)? A command that writes one format of
    /// its own (`export`: TOML) refuses any.
    pub format_asked: bool,
}

/// The output flags of the command line, as plain values: what [`Printer::resolve`] checks
/// and turns into a printer.
#[derive(Debug, Clone, Default)]
pub struct OutputFlags {
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
    /// `--quiet`.
    pub quiet: bool,
}

impl Printer {
    /// Picks the format from the flags and whether the output stream is a terminal; the
    /// streams decide colour (see [`Streams::out_color`]).
    pub fn resolve(g: &OutputFlags, streams: Streams) -> Result<Self> {
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
        let color = streams.out_color(g.no_color);
        Ok(Printer {
            format,
            wide: g.wide,
            jq: g.jq.clone(),
            tty,
            color,
            quiet: g.quiet,
            show_secrets: g.show_secrets,
            secret_fields: crate::secrets::SECRET_FIELDS,
            streams,
            format_asked: g.json || g.format.is_some() || g.jq.is_some(),
        })
    }

    /// Is the output machine-readable JSON of some kind?
    pub fn is_json(&self) -> bool {
        matches!(self.format, Format::Json | Format::Ndjson)
    }

    /// Starts writing a list of `kind`.
    pub fn list(&self, kind: &'static Kind) -> Result<ListSink> {
        ListSink::new(self.clone(), kind)
    }

    /// Writes one resource (the answer of get, create, update, set).
    pub fn object(&self, kind: &'static Kind, value: &Value) -> Result<()> {
        let mut out = self.streams.out();
        let masked;
        let value = if self.shows_secrets() {
            value
        } else {
            masked = mask::mask(value.clone(), self.secret_fields);
            &masked
        };
        if let Some(expr) = &self.jq {
            jq::Filter::compile(expr)?.run(value, self.tty, &mut out)?;
        } else {
            match self.format {
                Format::Json => super::write_json(&mut out, value, self.tty)?,
                Format::Ndjson => {
                    super::write_line(&mut out, value, self.tty)?;
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

    /// The results of a bulk command, one object per item: printed with `--json` (or
    /// `-o ndjson`) only, since people read the per-item lines on stderr instead.
    pub fn results(&self, rows: Vec<Value>) -> Result<()> {
        if !self.is_json() {
            return Ok(());
        }
        let mut out = self.streams.out();
        super::write_json(&mut out, &Value::Array(rows), self.tty)?;
        out.flush()?;
        Ok(())
    }

    /// Writes one document the program built (not a resource of the API): JSON, or what a jq
    /// filter makes of it.
    pub fn document(&self, doc: &Value) -> Result<()> {
        let mut out = self.streams.out();
        if let Some(expr) = &self.jq {
            jq::Filter::compile(expr)?.run(doc, self.tty, &mut out)?;
        } else {
            super::write_json(&mut out, doc, self.tty)?;
        }
        out.flush()?;
        Ok(())
    }

    /// Writes a document the program built: for machine output (JSON, NDJSON, a jq filter) the
    /// document as [`Printer::document`] does; for people, what `text` writes, told whether it
    /// is a table for a terminal (`true`) or tab-separated lines for a pipe (`false`).
    pub fn document_or_text(
        &self,
        doc: &Value,
        text: impl FnOnce(&mut dyn Write, bool) -> std::io::Result<()>,
    ) -> Result<()> {
        if !self.for_people() {
            return self.document(doc);
        }
        let mut out = self.streams.out();
        text(&mut out, self.format == Format::Table)?;
        out.flush()?;
        Ok(())
    }

    /// Writes a line of plain data (a path, a value) to stdout.
    pub fn line(&self, text: &str) -> Result<()> {
        let mut out = self.streams.out();
        writeln!(out, "{text}")?;
        out.flush()?;
        Ok(())
    }

    /// Writes bytes to stdout exactly as they are.
    pub fn bytes(&self, bytes: &[u8]) -> Result<()> {
        let mut out = self.streams.out();
        out.write_all(bytes)?;
        out.flush()?;
        Ok(())
    }

    /// A buffered stdout for a command that writes as it goes (`tail`, a view of its own).
    pub fn writer(&self) -> Box<dyn Write> {
        self.streams.out()
    }

    /// A note for people on stderr (a confirmation, a warning), unless `--quiet`; folded at
    /// spaces for stderr's terminal, never broken inside a word.
    pub fn note(&self, msg: &str) {
        if !self.quiet {
            self.streams.err_line(msg);
        }
    }

    /// `line` folded for stdout's terminal ([`super::fold`]); as it is off a terminal.
    pub fn folded_for_stdout(&self, line: &str) -> String {
        if self.tty {
            super::fold(line, usize::from(self.streams.width()))
        } else {
            line.to_string()
        }
    }

    /// This printer with JSON output, unless JSON of some kind was asked for already
    /// (`tunnelctl api` prints JSON whatever the terminal, as `gh api` does).
    pub fn json_always(&self) -> Printer {
        let mut out = self.clone();
        if !out.is_json() {
            out.format = Format::Json;
        }
        out
    }

    /// Is the output for a person (a table or TSV, no jq)?
    pub fn for_people(&self) -> bool {
        !self.is_json() && self.jq.is_none()
    }

    /// Does an empty list deserve a note on stderr (a table for a person, no jq)?
    pub fn notes_empty_lists(&self) -> bool {
        self.format == Format::Table && self.jq.is_none()
    }

    /// Is this run's stderr a terminal a person reads, with output meant for people? Then
    /// work over many items shows a progress line and a grouped summary instead of a line per
    /// item.
    pub fn shows_progress(&self) -> bool {
        self.streams.err_is_terminal() && self.for_people()
    }

    /// A spinner saying `what` is awaited and for how long, when a person watches stderr
    /// (and not `--quiet`); otherwise nothing is drawn.
    pub fn spinner(&self, what: &str) -> Spinner {
        Spinner::new(
            &self.streams,
            what,
            self.streams.err_is_terminal() && !self.quiet,
        )
    }

    /// Are echoed secrets printed as the service sent them (`--show-secrets`, machine output
    /// only: tables never show them)?
    pub(super) fn shows_secrets(&self) -> bool {
        self.show_secrets && (self.is_json() || self.jq.is_some())
    }
}

/// Writes bytes to stdout exactly as they are, for what needs no printer (help text,
/// completion scripts).
pub fn print_bytes(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}
