//! The pieces long work is drawn with on a terminal, given plain numbers and text: a progress
//! line (shown when stderr is a terminal and the output is for people: no `--json`, no
//! `--jq`) with the rate-limit pacing while a request is held back; the [`Tally`] of done,
//! failed and remaining it says; spinners for long waits that say what is awaited and for how
//! long; and the closing summary that groups failures by reason and lists each ID once. The
//! features decide what to say with them (`bulk::bulk_view`, `fleet::upgrade_view`); this module
//! knows no feature. (`ratelimit`, read for the pacing, is a leaf of the HTTP layer.)
//!
//! Everything is drawn through the printer's [`Streams`], so tests read it back.

use std::io::Write as _;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle, TermLike};

use super::{Printer, Streams};
use crate::error::Error;
use crate::escape::escape;

/// How often a progress line or spinner is redrawn while nothing else happens.
const TICK: Duration = Duration::from_millis(120);

/// The stderr of a run's [`Streams`], as the terminal indicatif draws on.
#[derive(Debug)]
struct ErrTerm(Streams);

impl ErrTerm {
    fn put(&self, text: &str) -> std::io::Result<()> {
        let mut err = self.0.err();
        err.write_all(text.as_bytes())?;
        err.flush()
    }

    /// Moves the cursor `n` cells in the direction of the CSI `code` (A up, B down, C right,
    /// D left); nothing for none, as `ESC[0A` would still move one.
    fn cursor(&self, n: usize, code: char) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.put(&format!("\x1b[{n}{code}"))
    }
}

impl TermLike for ErrTerm {
    /// Two columns less than the terminal's (a line is padded to this width): the `^C` a
    /// terminal echoes for Ctrl-C then fits on the line's row, which clearing the line
    /// reaches; echoed past the last column, it would start a row of its own and leave the
    /// spinner's row on the screen.
    fn width(&self) -> u16 {
        self.0.width().saturating_sub(2).max(1)
    }

    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.cursor(n, 'A')
    }

    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.cursor(n, 'B')
    }

    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.cursor(n, 'C')
    }

    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.cursor(n, 'D')
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.put(&format!("{s}\n"))
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.put(s)
    }

    fn clear_line(&self) -> std::io::Result<()> {
        self.put("\r\x1b[2K")
    }

    fn flush(&self) -> std::io::Result<()> {
        self.put("")
    }
}

/// `12s`, `2m05s`: how long something has run.
fn human_secs(d: Duration) -> String {
    let s = d.as_secs();
    if s < 60 {
        format!("{s}s")
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

/// The `{pacing}` key: the rate-limit wait under way, if any.
fn pacing_key(_: &ProgressState, w: &mut dyn std::fmt::Write) {
    if let Some(left) = crate::ratelimit::pacing() {
        let secs = left.as_secs_f64().ceil().max(1.0);
        let _ = write!(w, " · waiting {secs}s for the rate limit");
    }
}

/// The `{secs}` key: how long the bar (or its current phase) has run.
fn secs_key(state: &ProgressState, w: &mut dyn std::fmt::Write) {
    let _ = w.write_str(&human_secs(state.elapsed()));
}

/// A bar drawn on the printer's stderr with `template`, saying `msg`, ticking on its own.
fn bar(streams: &Streams, template: &str, msg: String) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        None,
        ProgressDrawTarget::term_like(Box::new(ErrTerm(streams.clone()))),
    );
    let style = ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
        .with_key("pacing", pacing_key)
        .with_key("secs", secs_key);
    bar.set_style(style);
    bar.set_message(msg);
    bar.enable_steady_tick(TICK);
    bar
}

impl Printer {
    /// A progress line saying `text`, with the rate-limit pacing and how long it has run,
    /// when bulk work shows progress ([`Printer::shows_progress`], and not `--quiet`);
    /// otherwise nothing is drawn.
    pub fn progress_line(&self, text: &str) -> Spinner {
        let bar = (self.shows_progress() && !self.quiet).then(|| {
            bar(
                &self.streams,
                "{spinner} {msg}{pacing} ({secs})",
                escape(text),
            )
        });
        Spinner { bar }
    }

    /// The end of a bulk operation Ctrl-C or SIGTERM stopped: what was and was not done.
    pub fn interrupted(&self, done: usize, total: usize, not_started: &[&str]) {
        let rest = if not_started.is_empty() {
            "none".to_string()
        } else {
            few(not_started, FEW).join(" ")
        };
        self.streams.err_line(&format!(
            "Interrupted: {done} of {total} done; not started: {rest}"
        ));
    }

    /// Failures grouped by reason, for a person: `N failed: reason` and the IDs (up to
    /// [`FEW_WRAPPED`] of them, then how many more), wrapped to the terminal's width, each
    /// listed once.
    pub fn failure_summary(&self, failures: &[(String, String)]) {
        for (reason, ids) in group(failures) {
            self.streams
                .err_line(&format!("{} failed: {reason}", ids.len()));
            let shown = few(&ids, FEW_WRAPPED);
            for line in wrap_ids(&shown, usize::from(self.streams.width())) {
                self.streams.err_line(&line);
            }
        }
    }
}

/// A spinner for a long wait; draws nothing off a terminal.
pub struct Spinner {
    bar: Option<ProgressBar>,
}

impl Spinner {
    /// A spinner on `streams`' stderr saying `what` is awaited and for how long, when `drawn`;
    /// otherwise one that draws nothing.
    pub(super) fn new(streams: &Streams, what: &str, drawn: bool) -> Self {
        let bar = drawn.then(|| bar(streams, "{spinner} {msg} ({secs}){pacing}", escape(what)));
        Spinner { bar }
    }

    /// Is it drawn (a person watches stderr)?
    pub fn is_drawn(&self) -> bool {
        self.bar.is_some()
    }

    /// A new thing is awaited: says so and counts its time from now.
    pub fn phase(&self, what: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(escape(what));
            bar.reset_elapsed();
        }
    }

    /// The same wait, told differently (a count changed): its time goes on.
    pub fn update(&self, what: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(escape(what));
        }
    }

    /// Runs `print` with the spinner lifted, so lines written meanwhile are not drawn over.
    pub fn above(&self, print: impl FnOnce()) {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    /// Removes the spinner.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.finish();
    }
}

/// How far work over many items has got, as the progress line and the closing summary say
/// it: `{done} {word}, {failed} failed, {remaining} remaining` (and how many needed nothing
/// done, when some did: `1 already up to date`).
#[derive(Debug, Clone)]
pub struct Tally {
    /// How many items there are.
    pub total: usize,
    /// How many succeeded.
    pub done: usize,
    /// How many needed nothing done (neither a success nor a failure).
    pub unchanged: usize,
    /// How those are called: `already up to date`.
    pub unchanged_text: &'static str,
    /// How many failed.
    pub failed: usize,
    /// What a success is called: `done`, `upgraded`.
    word: &'static str,
}

impl Tally {
    /// Nothing ended yet of `total` items whose success is called `word`.
    pub fn new(total: usize, word: &'static str) -> Tally {
        Tally {
            total,
            done: 0,
            unchanged: 0,
            unchanged_text: "unchanged",
            failed: 0,
            word,
        }
    }

    /// `, 1 already up to date` when some items needed nothing done.
    fn unchanged_part(&self) -> String {
        if self.unchanged == 0 {
            return String::new();
        }
        format!(", {} {}", self.unchanged, self.unchanged_text)
    }

    /// `3 done, 1 failed, 2 remaining`: the progress line.
    pub fn counts(&self) -> String {
        let ended = self.done + self.unchanged + self.failed;
        let remaining = self.total.saturating_sub(ended);
        format!(
            "{} {}{}, {} failed, {remaining} remaining",
            self.done,
            self.word,
            self.unchanged_part(),
            self.failed
        )
    }

    /// `3 of 6 done, 1 failed.`: the summary at the end.
    pub fn summary(&self) -> String {
        let mut line = format!("{} of {} {}", self.done, self.total, self.word);
        line.push_str(&self.unchanged_part());
        if self.failed > 0 {
            line.push_str(&format!(", {} failed", self.failed));
        }
        line.push('.');
        line
    }
}

/// Why an item failed, in words shared by every item that failed alike: the server's message
/// for an API error (not its path, which names the item), else the error's first line with the
/// item's ID taken out.
pub fn reason(e: &Error, id: &str) -> String {
    if let Error::Api(f) = e {
        let mut text = f
            .message
            .clone()
            .unwrap_or_else(|| crate::error::status_text(f.status));
        // A detail that names the item (`id: ts_…`) would split the group.
        if let Some(d) = f
            .detail
            .as_ref()
            .filter(|d| id.is_empty() || !d.contains(id))
        {
            text.push_str(&format!(" ({d})"));
        }
        return escape(&text);
    }
    let text = format!("{e:#}");
    let first = text.lines().next().unwrap_or("");
    let first = if id.is_empty() {
        first.to_string()
    } else {
        first.replace(id, "…")
    };
    escape(&first)
}

/// `(id, reason)` pairs grouped by reason, largest group first, IDs in their order.
fn group(failures: &[(String, String)]) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (id, why) in failures {
        match groups.iter_mut().find(|(r, _)| r == why) {
            Some((_, ids)) => ids.push(id.clone()),
            None => groups.push((why.clone(), vec![id.clone()])),
        }
    }
    // Stable: groups of the same size keep the order their first failure came in.
    groups.sort_by_key(|g| std::cmp::Reverse(g.1.len()));
    groups
}

/// How many items a one-line message names before it counts the rest.
pub const FEW: usize = 5;
/// How many IDs a failure summary lists, wrapped over a few lines, before it counts the rest.
pub const FEW_WRAPPED: usize = 40;

/// The first `max` of `items`, escaped, then `and N more` when there are more: the one way
/// every message that could name many items (IDs not started, failed, not back, entries of a
/// file) names a few and counts the rest, so no line grows with the input. Callers join the
/// pieces (or wrap them).
pub fn few<S: AsRef<str>>(items: &[S], max: usize) -> Vec<String> {
    let mut out: Vec<String> = items.iter().take(max).map(|i| escape(i.as_ref())).collect();
    if items.len() > max {
        out.push(format!("and {} more", items.len() - max));
    }
    out
}

/// Pieces (escaped already, [`few`]) joined by spaces in lines of at most `width` columns,
/// indented by two; a piece longer than a line gets a line of its own, whole.
fn wrap_ids(ids: &[String], width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::from(" ");
    for id in ids {
        let len = line.chars().count();
        if len > 1 && len + 1 + id.chars().count() > width {
            lines.push(std::mem::replace(&mut line, String::from(" ")));
        }
        line.push(' ');
        line.push_str(id);
    }
    if line.len() > 1 {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_wrap_to_the_width_and_stay_whole() {
        let ids: Vec<String> = (0..5).map(|i| format!("ts_{i:0>10}")).collect();
        let lines = wrap_ids(&ids, 30);
        assert_eq!(
            lines,
            [
                "  ts_0000000000 ts_0000000001",
                "  ts_0000000002 ts_0000000003",
                "  ts_0000000004"
            ]
        );
        let long = vec!["ts_".to_string() + &"x".repeat(40)];
        assert_eq!(wrap_ids(&long, 20), [format!("  {}", long[0])]);
    }

    #[test]
    fn many_items_are_named_a_few_and_counted() {
        let ids: Vec<String> = (0..30_000).map(|i| format!("many.har#{i}")).collect();
        let line = few(&ids, FEW).join(" ");
        assert_eq!(
            line,
            "many.har#0 many.har#1 many.har#2 many.har#3 many.har#4 and 29995 more"
        );
        assert_eq!(few(&ids[..2], FEW), ["many.har#0", "many.har#1"]);
        assert!(few(&["a\x1bb"], FEW)[0].contains("\\x1b"));
    }

    #[test]
    fn failures_group_by_reason_largest_first() {
        let f = |id: &str, r: &str| (id.to_string(), r.to_string());
        let groups = group(&[
            f("a", "no update is available"),
            f("b", "restart is not supported on Windows"),
            f("c", "restart is not supported on Windows"),
        ]);
        assert_eq!(groups[0].0, "restart is not supported on Windows");
        assert_eq!(groups[0].1, ["b", "c"]);
        assert_eq!(groups[1].1, ["a"]);
    }

    #[test]
    fn a_reason_never_names_the_item() {
        let e = Error::Unknown(
            "POST /tunnel_sessions/ts_1/restart: the connection failed\nCheck with: x".into(),
        );
        assert_eq!(
            reason(&e, "ts_1"),
            "POST /tunnel_sessions/…/restart: the connection failed"
        );
    }
}
