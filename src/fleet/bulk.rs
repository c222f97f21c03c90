//! Running one operation over many sessions with bounded concurrency, reporting each outcome
//! as it finishes, and stopping gracefully on Ctrl-C or when `--timeout` runs out: nothing new
//! starts, what is under way ends (cut at the deadline), and the rest is reported as not started.

use std::future::Future;

use futures_util::stream::{self, StreamExt};

use crate::error::Error;
use crate::interrupt;

/// What happened to one session.
#[derive(Debug)]
pub enum Outcome {
    /// The operation succeeded.
    Done,
    /// It failed with this error.
    Failed(Error),
    /// It was not started (Ctrl-C, `--timeout`, or an earlier batch failed).
    NotStarted,
}

impl Outcome {
    /// One word for reports: ok, failed, not-started.
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Done => "ok",
            Outcome::Failed(_) => "failed",
            Outcome::NotStarted => "not-started",
        }
    }
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
    Fut: Future<Output = Result<(), Error>>,
{
    let _graceful = interrupt::graceful();
    let mut outcomes: Vec<Option<Outcome>> = ids.iter().map(|_| None).collect();
    let op = &op;
    let mut running = stream::iter(ids.iter().cloned().enumerate())
        .take_while(|_| std::future::ready(!interrupt::requested() && !crate::deadline::passed()))
        .map(|(i, id)| async move {
            (
                i,
                op(id)
                    .await
                    .map_or_else(Outcome::Failed, |()| Outcome::Done),
            )
        })
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
