//! Reports of operations over many items: what a dry run would do, agents coming back, the
//! results of a bulk command or rolling upgrade. Commands compute the data; these decide, by
//! the output format, what reaches stdout.

use std::io::Write;

use serde_json::{json, Value};

use crate::fleet::id_of;
use crate::fleet::upgrade::{Progress, Step};

use super::progress::{reason, Spinner};
use super::Printer;
use crate::error::Result;
use crate::escape::escape;

impl Printer {
    /// What a dry run would do, one target (`id`, a short description) a line, then the
    /// sessions it would skip (`id`, why), or as JSON (`"action": "skip"` with a `reason`).
    pub fn dry_run(
        &self,
        verb: &str,
        targets: &[(&str, String)],
        skipped: &[(&str, String)],
    ) -> Result<()> {
        if self.is_json() {
            let plan: Vec<Value> = targets
                .iter()
                .map(|(id, _)| json!({"id": id, "action": verb}))
                .chain(
                    skipped
                        .iter()
                        .map(|(id, why)| json!({"id": id, "action": "skip", "reason": why})),
                )
                .collect();
            return self.results(plan);
        }
        let mut out = self.streams.out();
        for (id, describe) in targets {
            writeln!(out, "would {verb}\t{}\t{}", escape(id), escape(describe))?;
        }
        for (id, why) in skipped {
            writeln!(out, "would skip\t{}\t{}", escape(id), escape(why))?;
        }
        out.flush()?;
        Ok(())
    }

    /// Tunnels the agent started for one `local tunnels start`: the first as the agent
    /// returned it; when it made more (an http tunnel's twin), a note on stderr lists each
    /// name and URL, so both are seen.
    pub fn tunnels_started(&self, started: &[Value]) -> Result<()> {
        let quiet = self.quiet;
        let Some(first) = started.first() else {
            return Ok(());
        };
        self.object(&super::columns::TUNNEL, first)?;
        if started.len() > 1 && !quiet {
            let name = |t: &Value| escape(crate::agent::name_of(t));
            let width = started.iter().map(|t| name(t).chars().count()).max();
            let mut note = format!("Started {} tunnels:", started.len());
            for t in started {
                let url = t.get("public_url").and_then(Value::as_str).unwrap_or("");
                note.push_str(&format!(
                    "\n  {:<w$}  {}",
                    name(t),
                    escape(url),
                    w = width.unwrap_or(0)
                ));
            }
            self.streams.err_line(&note);
        }
        Ok(())
    }

    /// An agent back under a new session, as it happens (not in JSON: the results say it).
    pub fn came_back(&self, old: &str, new: &str) -> Result<()> {
        if self.is_json() {
            return Ok(());
        }
        self.line(&format!("{} -> {}", escape(old), escape(new)))
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
}

impl Printer {
    /// The progress of a rolling upgrade over `total` sessions.
    pub fn upgrade_progress(&self, total: usize) -> UpgradeProgress<'_> {
        let quiet = self.quiet;
        UpgradeProgress {
            spinner: self.spinner("starting the upgrade"),
            out: self,
            quiet,
            total,
            upgraded: 0,
            failures: Vec::new(),
            phase: String::new(),
        }
    }
}

/// Progress of an upgrade: a spinner on a terminal (the phase, the counts, how long the phase
/// has lasted) and a summary grouping failures by reason at the end; plain lines otherwise.
pub struct UpgradeProgress<'a> {
    spinner: Spinner,
    out: &'a Printer,
    quiet: bool,
    total: usize,
    upgraded: usize,
    /// `(id, reason)` of each session that failed, for the summary.
    failures: Vec<(String, String)>,
    /// The phase under way, for the spinner.
    phase: String,
}

impl UpgradeProgress<'_> {
    /// The spinner's text: the phase and the counts.
    fn spinner_text(&self) -> String {
        let failed = self.failures.len();
        format!(
            "{} · {} upgraded, {failed} failed, {} remaining",
            self.phase,
            self.upgraded,
            self.total.saturating_sub(self.upgraded + failed)
        )
    }

    /// The upgrade ended: the spinner goes; on a terminal, the summary.
    pub fn finish(&self) {
        self.spinner.finish();
        if !self.out.shows_progress() {
            return;
        }
        if !self.quiet {
            self.out
                .streams
                .err_line(&format!("{} of {} upgraded.", self.upgraded, self.total));
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

    fn done(&mut self, old: &Value, step: &Step) {
        let raw_id = id_of(old);
        let id = escape(raw_id);
        let why = match step {
            Step::Upgraded { .. } => None,
            Step::UpdateFailed(e) => Some(format!("update refused: {}", reason(e, raw_id))),
            Step::RestartFailed(e) => Some(format!(
                "updated but the restart failed: {}",
                reason(e, raw_id)
            )),
            Step::NotBack => Some("restarted but not back in time".to_string()),
            Step::NotStarted => Some("not started".to_string()),
        };
        match &why {
            None => self.upgraded += 1,
            Some(w) => self.failures.push((raw_id.to_string(), w.clone())),
        }
        self.spinner.update(&self.spinner_text());
        if self.out.is_json() {
            return;
        }
        let line = match step {
            Step::Upgraded { new_id, version } => {
                format!("{id} -> {} ({})", escape(new_id), escape(version))
            }
            Step::UpdateFailed(e) => format!("{id}: not upgraded: update refused: {e}"),
            Step::RestartFailed(e) => format!("{id}: updated but the restart failed: {e}"),
            Step::NotBack => format!("{id}: restarted but not back in time"),
            Step::NotStarted => format!("{id}: not started"),
        };
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
