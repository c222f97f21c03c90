//! What a person sees of a rolling upgrade: on a terminal a spinner with the phase, the
//! [`Tally`] and how long the phase has lasted, each upgraded agent's line above it, and at
//! the end the summary with the failures grouped by reason; elsewhere a line per phase and per
//! session on stderr (upgraded agents on stdout), as logs expect.

use serde_json::Value;

use super::id_of;
use super::upgrade::{Progress, UpgradeStep};
use crate::output::progress::{reason, Spinner, Tally};
use crate::output::Printer;

/// Progress of an upgrade (see the module's documentation).
pub struct UpgradeProgress<'a> {
    spinner: Spinner,
    out: &'a Printer,
    quiet: bool,
    tally: Tally,
    /// `(id, reason)` of each session that failed, for the summary.
    failures: Vec<(String, String)>,
    /// The phase under way, for the spinner.
    phase: String,
}

impl<'a> UpgradeProgress<'a> {
    /// The progress of an upgrade over `total` sessions, told through `out` (less when `quiet`).
    pub fn new(out: &'a Printer, total: usize) -> UpgradeProgress<'a> {
        let quiet = out.quiet;
        UpgradeProgress {
            spinner: out.spinner("starting the upgrade"),
            out,
            quiet,
            tally: Tally::new(total, "upgraded"),
            failures: Vec::new(),
            phase: String::new(),
        }
    }

    /// The spinner's text: the phase and the counts.
    fn spinner_text(&self) -> String {
        format!("{} · {}", self.phase, self.tally.counts())
    }

    /// The upgrade ended: the spinner goes; on a terminal, the summary.
    pub fn finish(&self) {
        self.spinner.finish();
        if !self.out.shows_progress() {
            return;
        }
        if !self.quiet {
            self.out.streams.err_line(&self.tally.summary());
        }
        self.out.failure_summary(&self.failures);
    }
}

impl Progress for UpgradeProgress<'_> {
    fn phase(&mut self, batch: usize, batches: usize, what: &str) {
        self.phase = format!("batch {batch}/{batches}: {what}");
        if self.spinner.is_drawn() {
            self.spinner.phase(&self.spinner_text());
        } else if !self.quiet {
            self.out.streams.err_line(&self.phase);
        }
    }

    fn done(&mut self, old: &Value, step: &UpgradeStep) {
        let id = id_of(old);
        let why = step.failure(|e| reason(e, id));
        match &why {
            None => self.tally.done += 1,
            Some(w) => {
                self.tally.failed += 1;
                self.failures.push((id.to_string(), w.clone()));
            }
        }
        self.spinner.update(&self.spinner_text());
        if self.out.is_json() {
            return;
        }
        let line = step.line(id);
        match (self.out.shows_progress(), why.is_none()) {
            // On a terminal, failures wait for the grouped summary.
            (true, false) => {}
            (_, true) => self.spinner.above(|| {
                // A closed stdout shows at the end; the upgrade goes on for its report.
                let _ = self.out.line(&line);
            }),
            (false, false) => self.out.streams.err_line(&line),
        }
    }
}
