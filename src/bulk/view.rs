//! What a person sees of bulk work as its items end: on a terminal (stderr one, output for
//! people) one progress line of the [`Tally`] and, at the end, the summary and the failures
//! grouped by reason; elsewhere one line on stderr per item, `{done} ID` or the error, as
//! scripts and CI logs expect.

use super::Outcome;
use crate::escape::escape;
use crate::output::progress::{reason, Spinner, Tally};
use crate::output::Printer;

/// The view of a bulk operation (see the module's documentation).
pub struct BulkView<'a> {
    printer: &'a Printer,
    quiet: bool,
    terminal: bool,
    done_text: String,
    line: Spinner,
    tally: Tally,
}

impl<'a> BulkView<'a> {
    /// The view of work over `total` items whose successes read `{done} ID`, unless `quiet`.
    pub fn new(printer: &'a Printer, total: usize, done: &str) -> BulkView<'a> {
        let quiet = printer.quiet;
        let tally = Tally::new(total, "done");
        BulkView {
            printer,
            quiet,
            terminal: printer.shows_progress(),
            done_text: done.to_string(),
            line: printer.progress_line(&tally.counts()),
            tally,
        }
    }

    /// One item ended.
    pub fn outcome(&mut self, id: &str, outcome: &Outcome) {
        match outcome {
            Outcome::Done => self.tally.done += 1,
            Outcome::Unchanged(u) => {
                self.tally.unchanged += 1;
                self.tally.unchanged_text = u.text;
            }
            Outcome::Failed(_) => self.tally.failed += 1,
            Outcome::NotStarted => {}
        }
        if self.terminal {
            self.line.update(&self.tally.counts());
            return;
        }
        match outcome {
            Outcome::Done => self
                .printer
                .note(&format!("{} {}", self.done_text, escape(id))),
            Outcome::Unchanged(u) => self.printer.note(&format!("{}: {}", escape(id), u.text)),
            Outcome::Failed(e) => self
                .printer
                .streams
                .err_line(&format!("error: {}: {e:#}", escape(id))),
            Outcome::NotStarted => {}
        }
    }

    /// The work ended: on a terminal, the progress line gives way to the summary (how many
    /// were done, and the failures grouped by reason, in the order of `ids`).
    pub fn finish(self, ids: &[String], outcomes: &[Outcome]) {
        self.line.finish();
        if !self.terminal {
            return;
        }
        if !self.quiet {
            self.printer.streams.err_line(&self.tally.summary());
        }
        let failures: Vec<(String, String)> = ids
            .iter()
            .zip(outcomes)
            .filter_map(|(id, o)| match o {
                Outcome::Failed(e) => Some((id.clone(), reason(e, id))),
                _ => None,
            })
            .collect();
        self.printer.failure_summary(&failures);
    }
}
