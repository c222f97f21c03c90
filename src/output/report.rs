//! Reports of operations over many items: what a dry run would do, agents coming back, the
//! results of a bulk command or rolling upgrade, and `config show`. Commands compute the
//! data; these decide, by the output format, what reaches stdout.

use std::io::Write;

use serde_json::{json, Map, Value};

use crate::fleet::id_of;
use crate::fleet::upgrade::{Progress, Step};

use super::progress::{reason, Spinner};
use super::Printer;
use crate::error::Result;
use crate::escape::escape;

/// Writes bytes to stdout exactly as they are, for what needs no options (help text,
/// completion scripts).
pub fn print_bytes(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

impl Printer {
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

    /// A buffered stdout for a command that writes as it goes (`tail`).
    pub fn writer(&self) -> Box<dyn Write> {
        self.streams.out()
    }

    /// A note for people on stderr (a confirmation, a warning), unless `quiet`.
    pub fn note(&self, quiet: bool, msg: &str) {
        if !quiet {
            self.streams.err_line(msg);
        }
    }

    /// These options with JSON output, unless JSON of some kind was asked for already
    /// (`tunnelctl api` prints JSON whatever the terminal, as `gh api` does).
    pub fn json_always(&self) -> Printer {
        let mut out = self.clone();
        if !out.is_json() {
            out.format = super::Format::Json;
        }
        out
    }

    /// Is the output for a person (a table or TSV, no jq)?
    pub fn for_people(&self) -> bool {
        !self.is_json() && self.jq.is_none()
    }

    /// Does an empty list deserve a note on stderr (a table for a person, no jq)?
    pub fn notes_empty_lists(&self) -> bool {
        self.format == super::Format::Table && self.jq.is_none()
    }

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

    /// `config show`: the file, the profile, and each setting with its value (already made
    /// safe to show) and source.
    pub fn config_show(
        &self,
        file: &str,
        profile: &str,
        profiles: Vec<String>,
        rows: &[(&str, Option<String>, String)],
    ) -> Result<()> {
        let mut out = self.streams.out();
        if self.is_json() || self.jq.is_some() {
            let mut settings = Map::new();
            for (key, value, source) in rows {
                settings.insert(
                    (*key).to_string(),
                    json!({"value": value, "source": source}),
                );
            }
            let doc = json!({
                "config_file": file,
                "profile": profile,
                "profiles": profiles,
                "settings": Value::Object(settings),
            });
            if let Some(expr) = &self.jq {
                super::jq::Filter::compile(expr)?.run(&doc, self.tty, &mut out)?;
            } else {
                super::write_json(&mut out, &doc, self.tty)?;
            }
            out.flush()?;
            return Ok(());
        }
        let table = self.format == super::Format::Table;
        if table {
            writeln!(out, "config file: {}", escape(file))?;
            writeln!(out, "profile:     {}", escape(profile))?;
        }
        for (key, value, source) in rows {
            let value = value.clone().unwrap_or_default();
            if table {
                let value = if value.is_empty() {
                    "(not set)".to_string()
                } else {
                    value
                };
                writeln!(out, "{key:<12}  {value}  ({source})")?;
            } else {
                writeln!(out, "{key}\t{value}\t{source}")?;
            }
        }
        out.flush()?;
        Ok(())
    }
}

impl Printer {
    /// The progress of a rolling upgrade over `total` sessions.
    pub fn upgrade_progress(&self, quiet: bool, total: usize) -> UpgradeProgress<'_> {
        UpgradeProgress {
            spinner: self.spinner(quiet, "starting the upgrade"),
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
