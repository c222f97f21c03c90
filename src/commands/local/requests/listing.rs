//! How `local requests list` prints captures, whether they come from the agent or from the
//! history: each one's JSON text passed on as it is (machine output builds no values), read as
//! a capture only for a table's row or a filter to match; `--limit` counts what is shown.

use crate::capture::filter::Query;
use crate::capture::Exchange;
use crate::context::Context;
use crate::error::Result;
use crate::output::columns::CAPTURED_REQUEST;
use crate::output::ListSink;

/// The rows of a list of captures being printed.
pub struct CaptureRows<'a> {
    sink: ListSink,
    query: &'a Query,
    limit: Option<usize>,
    shown: usize,
}

impl<'a> CaptureRows<'a> {
    /// Starts a list showing at most `limit` captures that match `query`.
    pub fn start(ctx: &Context, query: &'a Query, limit: Option<usize>) -> Result<Self> {
        Ok(CaptureRows {
            sink: ctx.printer.list(&CAPTURED_REQUEST)?,
            query,
            limit,
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
        let read = (!self.query.is_empty())
            .then(|| Exchange::from_json(item))
            .flatten();
        if !self.query.is_empty() && !read.as_ref().is_some_and(|e| self.query.matches(e)) {
            return Ok(true);
        }
        self.shown += 1;
        // A table (or TSV) shows a few columns of each capture: the printer asks for the
        // capture's summary, never a value tree of everything a visitor sent (a header
        // bomb's two million fields).
        self.sink.push_raw_or_row(item, || {
            read.or_else(|| Exchange::from_json(item))
                .map(|e| e.summary())
        })?;
        Ok(!self.full())
    }

    /// Ends the list (an empty one noted on a terminal).
    pub fn finish(self, ctx: &Context) -> Result<()> {
        let shown = self.sink.finish()?;
        crate::commands::note_if_empty(ctx, &CAPTURED_REQUEST, shown);
        Ok(())
    }
}
