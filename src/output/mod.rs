//! The floor every feature prints through: the one place that writes data to stdout (tables,
//! tab-separated values, JSON, NDJSON and jq results) and notes to stderr.
//!
//! Handlers are given a [`Printer`] (the output settings and the [`Streams`] it writes to) and
//! hand it values: a [`ListSink`] takes items as they arrive, [`Printer::object`] one
//! resource, [`Printer::document`] a document a feature built; nothing here makes requests or
//! knows a feature. Tests give the printer memory streams.

pub mod columns;
pub mod detail;
pub mod jq;
pub mod json;
mod list;
mod mask;
mod printer;
pub mod progress;
pub mod streams;
pub mod table;
mod text_width;
pub mod time;

use std::io::Write;

use serde_json::Value;

use crate::error::Result;
pub use list::ListSink;
pub use printer::{print_bytes, OutputFlags, Printer};
pub use streams::{Captured, Streams};
pub use text_width::{fold, wrap};

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
