//! `--timeout` as the limit of the whole command.
//!
//! Requests, retries, waits and bulk operations each stop at the deadline and say what they
//! had done; this backstop ends anything that still runs a moment later, so no command
//! outlives its `--timeout` by more than about a second whatever a server does.

use std::time::Duration;

use crate::error::Error;

/// How long past the deadline the backstop waits for a command to end by itself (and report
/// what it did) before ending it.
pub const GRACE: Duration = Duration::from_millis(700);

/// Resolves with the error to end on once the deadline and [`GRACE`] have passed; never
/// without `--timeout`.
pub async fn backstop() -> Error {
    match get() {
        Some(at) => {
            tokio::time::sleep_until((at + GRACE).into()).await;
            Error::WaitTimeout(format!(
                "the time limit ({}) ran out; the command was stopped",
                flag()
            ))
        }
        None => std::future::pending().await,
    }
}

/// A duration as the user would write it: `3s`, `1.5s`, `2m`.
pub fn human(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs >= 60.0 && secs % 60.0 == 0.0 {
        format!("{}m", secs / 60.0)
    } else if secs.fract() == 0.0 {
        format!("{secs}s")
    } else {
        format!("{secs:.1}s")
    }
}

static DEADLINE: std::sync::OnceLock<(std::time::Instant, Duration)> = std::sync::OnceLock::new();

/// Starts the clock of the whole command: called once, first thing, with `--timeout`.
pub fn start(limit: Option<Duration>) {
    if let Some(limit) = limit {
        let _ = DEADLINE.set((std::time::Instant::now() + limit, limit));
    }
}

/// When the command's `--timeout` runs out, if it has one.
pub fn get() -> Option<std::time::Instant> {
    DEADLINE.get().map(|(at, _)| *at)
}

/// Has the command's `--timeout` run out?
pub fn passed() -> bool {
    get().is_some_and(|at| std::time::Instant::now() >= at)
}

/// `--timeout 3s`, for messages.
pub fn flag() -> String {
    match DEADLINE.get() {
        Some((_, limit)) => format!("--timeout {}", human(*limit)),
        None => "--timeout".to_string(),
    }
}

/// The error of a command whose `--timeout` ran out, with what had been done.
pub fn ran_out(what: impl std::fmt::Display) -> Error {
    Error::WaitTimeout(format!("the time limit ({}) ran out {what}", flag()))
}
