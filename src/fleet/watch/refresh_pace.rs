//! When `sessions watch` lists each account again: every `--every`, less often for a large
//! fleet (a refresh spends at most half of the account's rate limit), and after a failure
//! less and less often (up to a minute). Each account keeps its own pace: one account whose
//! list fails backs off alone, and the others go on being refreshed.

use std::time::Duration;

use tokio::time::Instant;

/// The longest wait after failed refreshes.
const MAX_BACKOFF: Duration = Duration::from_secs(60);
/// Sessions a page of the list holds: a refresh of N sessions costs N / this requests.
const PAGE: usize = 100;
/// The service's rate limit, requests per second (120 a minute); a refresh spends at most
/// half of it, leaving the rest to actions and to other commands.
const RATE_PER_SECOND: f64 = 2.0;

/// One account's pace.
#[derive(Debug, Clone)]
pub struct Pace {
    /// When it is listed next.
    next: Instant,
    /// The wait after its next failure (doubled by each failure).
    backoff: Duration,
    /// Why its last list failed, while it backs off.
    error: Option<String>,
}

impl Pace {
    /// An account to list at once.
    pub fn new(every: Duration) -> Pace {
        Pace {
            next: Instant::now(),
            backoff: every,
            error: None,
        }
    }

    /// Is it time to list it?
    pub fn due(&self, now: Instant) -> bool {
        now >= self.next
    }

    /// It listed `sessions`: next time after `every`, or longer for as many pages as they
    /// take.
    pub fn listed(&mut self, sessions: usize, every: Duration, now: Instant) {
        let pages = sessions.div_ceil(PAGE).max(1);
        let spread = Duration::from_secs_f64(pages as f64 / (RATE_PER_SECOND / 2.0));
        self.next = now + every.max(spread);
        self.backoff = every;
        self.error = None;
    }

    /// Its list failed (`why`): it waits twice as long as before, the others unchanged.
    pub fn failed(&mut self, why: String, now: Instant) {
        self.backoff = (self.backoff * 2).min(MAX_BACKOFF);
        self.next = now + self.backoff;
        self.error = Some(format!("{why} (again in {}s)", self.backoff.as_secs()));
    }

    /// Why its last list failed, while it backs off.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
}

/// When the first of `paces` is due.
pub fn next_due(paces: &[Pace]) -> Instant {
    paces
        .iter()
        .map(|p| p.next)
        .min()
        .unwrap_or_else(Instant::now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_backs_off_its_own_account_alone() {
        let every = Duration::from_secs(3);
        let now = Instant::now();
        let mut a = Pace::new(every);
        let mut b = Pace::new(every);
        a.listed(10, every, now);
        b.failed("HTTP 500".into(), now);
        b.failed("HTTP 500".into(), now);
        assert_eq!(a.next, now + every);
        assert_eq!(b.next, now + Duration::from_secs(12));
        assert_eq!(b.error(), Some("HTTP 500 (again in 12s)"));
        assert_eq!(next_due(&[a.clone(), b.clone()]), now + every);
        b.listed(10, every, now);
        assert_eq!(b.error(), None);
        assert_eq!(b.backoff, every, "its back-off starts over");
        // 5,000 sessions are 50 pages: at one a second, 50 s between refreshes.
        a.listed(5_000, every, now);
        assert_eq!(a.next, now + Duration::from_secs(50));
    }
}
