//! The one engine for an operation over many items (agent commands over sessions, deletes of
//! several IDs, the steps of a rolling upgrade): bounded concurrency, each outcome reported as
//! it finishes ([`bulk_view`]), a graceful stop on Ctrl-C or SIGTERM or when `--timeout` runs out
//! (nothing new starts, what is under way ends, cut at the deadline, the rest is reported as
//! not started), one result object per item for `--json`, and one rule for the exit
//! ([`conclude`]), which every bulk command and the rolling upgrade share.

pub mod bulk_view;

use std::future::Future;

use futures_util::stream::{self, StreamExt};
use serde_json::{json, Value};

use crate::error::{Error, Result};
use crate::interrupt;
use crate::output::progress::{few, FEW};
use crate::output::Printer;
use bulk_view::BulkView;

/// What happened to one session.
#[derive(Debug)]
pub enum Outcome {
    /// The operation succeeded.
    Done,
    /// Nothing needed doing: the item was already as asked (an agent already on the newest
    /// version). Not a failure.
    Unchanged(Unchanged),
    /// It failed with this error.
    Failed(Error),
    /// It was not started (Ctrl-C, `--timeout`, or an earlier batch failed).
    NotStarted,
}

/// How reports name an item that needed nothing done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unchanged {
    /// Its outcome in results: `up-to-date`.
    pub word: &'static str,
    /// As people read it: `already up to date`.
    pub text: &'static str,
}

/// What an operation on one item gives back: `Result<()>` (done or failed), or an
/// [`Outcome`] of its own (to say it found nothing to do).
pub trait IntoOutcome {
    /// The outcome this is.
    fn into_outcome(self) -> Outcome;
}

impl IntoOutcome for Result<()> {
    fn into_outcome(self) -> Outcome {
        self.map_or_else(Outcome::Failed, |()| Outcome::Done)
    }
}

impl IntoOutcome for Outcome {
    fn into_outcome(self) -> Outcome {
        self
    }
}

impl Outcome {
    /// One word for reports: ok, failed, not-started, or the word of an unchanged item.
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Done => "ok",
            Outcome::Unchanged(u) => u.word,
            Outcome::Failed(_) => "failed",
            Outcome::NotStarted => "not-started",
        }
    }

    /// The error it failed with, if it did.
    pub fn error(&self) -> Option<&Error> {
        match self {
            Outcome::Failed(e) => Some(e),
            _ => None,
        }
    }
}

/// One item's result as bulk commands print them with `--json`:
/// `{"id", "outcome", "error"?}`; callers add fields of their own after these.
pub fn result(id: &str, outcome: &str, error: Option<&Error>) -> Value {
    let mut r = json!({"id": id, "outcome": outcome});
    if let Some(e) = error {
        r["error"] = json!(e.to_string());
    }
    r
}

/// One [`result`] per ID: `"outcome": "ok" | "failed" | "not-started"`.
pub fn results(ids: &[String], outcomes: &[Outcome]) -> Vec<Value> {
    ids.iter()
        .zip(outcomes)
        .map(|(id, o)| result(id, o.word(), o.error()))
        .collect()
}

/// Runs `op` on `ids`, `parallel` at once ([`run`]), shown as it goes ([`BulkView`]): on a
/// terminal one progress line and then a summary grouping failures by reason; elsewhere one
/// line on stderr for each outcome: `{done} ID` (unless `quiet`), or the error.
pub async fn run_reported<F, Fut>(
    printer: &Printer,
    ids: &[String],
    parallel: usize,
    done: &str,
    op: F,
) -> Vec<Outcome>
where
    F: Fn(String) -> Fut,
    Fut: Future,
    Fut::Output: IntoOutcome,
{
    let mut view = BulkView::new(printer, ids.len(), done);
    let outcomes = run(ids, parallel, op, |id, outcome| view.outcome(id, outcome)).await;
    view.finish(ids, &outcomes);
    outcomes
}

/// Runs `op` on every id, at most `parallel` at once, calling `report` as each ends.
/// Returns the outcomes in the order of `ids`.
pub async fn run<F, Fut>(
    ids: &[String],
    parallel: usize,
    op: F,
    mut report: impl FnMut(&str, &Outcome),
) -> Vec<Outcome>
where
    F: Fn(String) -> Fut,
    Fut: Future,
    Fut::Output: IntoOutcome,
{
    let _graceful = interrupt::graceful();
    let mut outcomes: Vec<Option<Outcome>> = ids.iter().map(|_| None).collect();
    let op = &op;
    let mut running = stream::iter(ids.iter().cloned().enumerate())
        .take_while(|_| std::future::ready(!interrupt::requested() && !crate::deadline::passed()))
        .map(|(i, id)| async move { (i, op(id).await.into_outcome()) })
        .buffer_unordered(parallel.max(1));
    while let Some((i, outcome)) = running.next().await {
        report(&ids[i], &outcome);
        outcomes[i] = Some(outcome);
    }
    outcomes
        .into_iter()
        .map(|o| o.unwrap_or(Outcome::NotStarted))
        .collect()
}

/// The exit of a bulk operation: stopped by a signal 130/143 (with what was and was not done),
/// out of time 7 (likewise), items that did not come back (`not_back`, agents after a restart)
/// 7, some failed 5, all failed alike their code. Every line names a few of the items it is
/// about and counts the rest ([`few`]). Items not started for another reason (the
/// batches of a rolling upgrade after one that failed) count as failed. What a signal left
/// undone is told through `printer`.
pub fn conclude(
    printer: &Printer,
    ids: &[String],
    outcomes: &[Outcome],
    not_back: &[String],
) -> Result<()> {
    let not_started: Vec<&str> = ids
        .iter()
        .zip(outcomes)
        .filter(|(_, o)| matches!(o, Outcome::NotStarted))
        .map(|(id, _)| id.as_str())
        .collect();
    if interrupt::requested() {
        printer.interrupted(ids.len() - not_started.len(), ids.len(), &not_started);
        if !not_back.is_empty() {
            printer.streams.err_line(&format!(
                "{} agent(s) not back yet: {}",
                not_back.len(),
                few(not_back, FEW).join(" ")
            ));
        }
        return Err(interrupt::stop_error());
    }
    if crate::deadline::passed() && (!not_started.is_empty() || outcomes.iter().any(timed_out)) {
        let ok = outcomes
            .iter()
            .filter(|o| matches!(o, Outcome::Done))
            .count();
        let cut = outcomes.iter().filter(|o| timed_out(o)).count();
        let failed = outcomes
            .iter()
            .filter(|o| matches!(o, Outcome::Failed(_)))
            .count()
            - cut;
        return Err(crate::deadline::ran_out(format!(
            "with {ok} of {} done, {failed} failed, {cut} cut off under way, {} not started{}",
            ids.len(),
            not_started.len(),
            if not_started.is_empty() {
                String::new()
            } else {
                format!(": {}", few(&not_started, FEW).join(" "))
            }
        )));
    }
    let codes: Vec<i32> = outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Failed(e) => Some(e.exit_code()),
            _ => None,
        })
        .collect();
    if !not_back.is_empty() && codes.is_empty() && not_started.is_empty() {
        return Err(Error::WaitTimeout(format!(
            "{} agent(s) did not reconnect in time: {}",
            not_back.len(),
            few(not_back, FEW).join(" ")
        )));
    }
    // On a terminal the view's summary (`1 of 2 done, 1 failed.`) already said it.
    let summarized = printer.shows_progress() && !printer.quiet;
    crate::error::several(
        &codes,
        not_back.len() + not_started.len(),
        ids.len(),
        summarized,
    )
}

/// Was this operation cut off by the command's `--timeout`?
fn timed_out(o: &Outcome) -> bool {
    matches!(o, Outcome::Failed(Error::WaitTimeout(_)))
}
