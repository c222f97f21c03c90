//! How `local requests list` prints captures, whether they come from the agent or from the
//! history: each one's JSON text passed on as it is (machine output builds no values), read as
//! a capture only for a table's row or a filter to match; `--limit` counts what is shown.

use crate::capture::filter::Query;
use crate::capture::Exchange;
use crate::context::Context;
use crate::error::Result;
use crate::output::columns::{Kind, CAPTURED_REQUEST, KEPT_REQUEST};
use crate::output::ListSink;

/// The rows of a list of captures being printed.
pub struct CaptureRows<'a> {
    sink: ListSink,
    kind: &'static Kind,
    query: &'a Query,
    limit: Option<usize>,
    shown: usize,
}

impl<'a> CaptureRows<'a> {
    /// Starts a list showing at most `limit` captures that match `query`.
    pub fn start(ctx: &Context, query: &'a Query, limit: Option<usize>) -> Result<Self> {
        CaptureRows::start_as(ctx, &CAPTURED_REQUEST, query, limit)
    }

    /// Starts a list of kept captures, with a SOURCE column when `sources` (the history holds
    /// the captures of several).
    pub fn start_kept(
        ctx: &Context,
        sources: bool,
        query: &'a Query,
        limit: Option<usize>,
    ) -> Result<Self> {
        let kind = match sources {
            true => &KEPT_REQUEST,
            false => &CAPTURED_REQUEST,
        };
        CaptureRows::start_as(ctx, kind, query, limit)
    }

    fn start_as(
        ctx: &Context,
        kind: &'static Kind,
        query: &'a Query,
        limit: Option<usize>,
    ) -> Result<Self> {
        Ok(CaptureRows {
            sink: ctx.printer.list(kind)?,
            kind,
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
        self.push_from(item, "")
    }

    /// [`CaptureRows::push`] of a kept capture and the source it was kept from (a column of
    /// the table and of TSV when several sources are listed; never in the agent's JSON).
    pub fn push_from(&mut self, item: &str, source: &str) -> Result<bool> {
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
        let with_source = std::ptr::eq(self.kind, &KEPT_REQUEST);
        self.sink.push_raw_or_row(item, || {
            read.or_else(|| Exchange::from_json(item)).map(|e| {
                let mut row = e.summary();
                if with_source {
                    row["source"] = source.into();
                }
                row
            })
        })?;
        Ok(!self.full())
    }

    /// Ends the list (an empty one noted on a terminal).
    pub fn finish(self, ctx: &Context) -> Result<()> {
        let shown = self.sink.finish()?;
        crate::commands::note_if_empty(ctx, self.kind, shown);
        Ok(())
    }
}
