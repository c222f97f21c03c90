//! How `local requests list` prints captures, whether they come from the agent or from the
//! history: each one's JSON text passed on as it is (machine output builds no values), read as
//! a capture only for a table's row or a filter to match; `--limit` counts what is shown.

use crate::capture::filter::Query;
use crate::capture::Exchange;
use crate::context::Context;
use crate::error::Result;
use crate::output::columns::CAPTURED_REQUEST;
use crate::output::{Format, ListSink};

/// The rows of a list of captures being printed.
pub struct CaptureRows<'a> {
    sink: ListSink,
    query: &'a Query,
    limit: Option<usize>,
    rows_only: bool,
    shown: usize,
}

impl<'a> CaptureRows<'a> {
    /// Starts a list showing at most `limit` captures that match `query`.
    pub fn start(ctx: &Context, query: &'a Query, limit: Option<usize>) -> Result<Self> {
        // A table (or TSV) shows a few columns of each capture: it gets the capture's summary,
        // never a value tree of everything a visitor sent (a header bomb's two million fields).
        let rows_only =
            matches!(ctx.printer.format, Format::Table | Format::Tsv) && ctx.printer.jq.is_none();
        Ok(CaptureRows {
            sink: ctx.printer.list(&CAPTURED_REQUEST)?,
            query,
            limit,
            rows_only,
            shown: 0,
        })
    }

    /// Has it shown as many as it may?
    pub fn full(&self) -> bool {
        self.limit.is_some_and(|n| self.shown >= n)
    }

    /// Shows one capture (the agent's JSON text) if it matches; `false` once the list is full.
    pub fn push(&mut self, item: &str) -> Result<bool> {
        if self.full() {
            return Ok(false);
        }
        let read = (self.rows_only || !self.query.is_empty())
            .then(|| Exchange::from_json(item))
            .flatten();
        if !self.query.is_empty() && !read.as_ref().is_some_and(|e| self.query.matches(e)) {
            return Ok(true);
        }
        self.shown += 1;
        match read {
            Some(e) if self.rows_only => self.sink.push(e.summary())?,
            _ => self.sink.push_raw(item)?,
        }
        Ok(!self.full())
    }

    /// Ends the list (an empty one noted on a terminal).
    pub fn finish(self, ctx: &Context) -> Result<()> {
        let shown = self.sink.finish()?;
        crate::commands::note_if_empty(ctx, &CAPTURED_REQUEST, shown);
        Ok(())
    }
}
