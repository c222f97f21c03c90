//! What fleet commands show besides the bulk progress: what a dry run would do, the sessions
//! selectors skipped (a note per reason, and their JSON results), and agents coming back
//! under a new session as it happens.

use std::io::Write;

use serde_json::{json, Value};

use super::targets::Targets;
use super::Console;
use super::{field, id_of};
use crate::error::Result;
use crate::escape::escape;
use crate::output::Printer;

impl Targets {
    /// Says on stderr how many were skipped and why, one line per reason.
    pub fn note_skipped(&self, ctx: &Console<'_>) {
        let mut reasons: Vec<&str> = self.skipped.iter().map(|(_, why)| *why).collect();
        reasons.dedup();
        for why in reasons {
            let n = self.skipped.iter().filter(|(_, w)| *w == why).count();
            ctx.note(&format!(
                "Skipped {n} session(s) the selectors chose: {why} (not counted as failures)."
            ));
        }
    }

    /// The JSON results of the skipped sessions.
    pub fn skipped_results(&self) -> impl Iterator<Item = Value> + '_ {
        self.skipped
            .iter()
            .map(|(s, why)| json!({"id": id_of(s), "outcome": "skipped", "reason": why}))
    }
}

/// A session in a dry run's plan: region, OS, agent version and IP, those it has.
fn describe(s: &Value) -> String {
    let parts: Vec<&str> = ["region", "os", "agent_version", "ip"]
        .iter()
        .map(|k| field(s, k))
        .filter(|v| !v.is_empty())
        .collect();
    parts.join(" ")
}

/// Prints what a dry run of `verb` would do, one session a line (`would VERB`, the ID, what
/// it is), then the sessions it would skip (`would skip`, the ID, why); or, as JSON, an
/// `"action"` per session (`"skip"` with a `"reason"`). Then notes on stderr.
pub fn dry_run(ctx: &Console<'_>, verb: &str, targets: &Targets) -> Result<()> {
    let printer = ctx.printer;
    if printer.is_json() {
        let plan: Vec<Value> = targets
            .send
            .iter()
            .map(|s| json!({"id": id_of(s), "action": verb}))
            .chain(
                targets
                    .skipped
                    .iter()
                    .map(|(s, why)| json!({"id": id_of(s), "action": "skip", "reason": why})),
            )
            .collect();
        printer.results(plan)?;
    } else {
        let mut out = printer.writer();
        for s in &targets.send {
            let (id, what) = (escape(id_of(s)), escape(&describe(s)));
            writeln!(out, "would {verb}\t{id}\t{what}")?;
        }
        for (s, why) in &targets.skipped {
            writeln!(out, "would skip\t{}\t{}", escape(id_of(s)), escape(why))?;
        }
        out.flush()?;
    }
    targets.note_skipped(ctx);
    ctx.note(&format!(
        "Dry run: nothing was sent ({} session(s)).",
        targets.send.len()
    ));
    Ok(())
}

/// Nothing to send: says so (and what was skipped, with `--json` as results); success.
pub fn nothing_to_do(ctx: &Console<'_>, targets: &Targets) -> Result<()> {
    if targets.skipped.is_empty() {
        ctx.note("No sessions match; nothing to do.");
        return Ok(());
    }
    targets.note_skipped(ctx);
    ctx.printer.results(targets.skipped_results().collect())
}

/// An agent back under a new session, as it happens (not in JSON: the results say it).
pub fn came_back(printer: &Printer, old: &str, new: &str) -> Result<()> {
    if printer.is_json() {
        return Ok(());
    }
    printer.line(&format!("{} -> {}", escape(old), escape(new)))
}
