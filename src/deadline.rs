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

/// Resolves with the error to end on once `limit` and [`GRACE`] have passed; never without a
/// limit.
pub async fn backstop(limit: Option<Duration>) -> Error {
    match limit {
        Some(limit) => {
            tokio::time::sleep(limit + GRACE).await;
            Error::WaitTimeout(format!(
                "the time limit (--timeout {}) ran out; the command was stopped",
                human(limit)
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
