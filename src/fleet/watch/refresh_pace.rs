//! When `sessions watch` lists each account again: every `--every`, less often for a large
//! fleet (a refresh spends at most half of the account's own `--rate`; with `--rate off`,
//! `--every` alone), and after a failure less and less often (up to a minute). Each account
//! keeps its own pace: one account whose list fails backs off alone, and the others go on
//! being refreshed.

use std::time::Duration;

use tokio::time::Instant;

use crate::ratelimit::Rate;

/// The longest wait after failed refreshes.
const MAX_BACKOFF: Duration = Duration::from_secs(60);
/// Sessions a page of the list holds: a refresh of N sessions costs N / this requests.
const PAGE: usize = 100;

/// One account's pace.
#[derive(Debug, Clone)]
pub struct Pace {
    /// How often it is listed at most (`--every`).
    every: Duration,
    /// The rate its client paces requests to; `None` when it does not (`--rate off`).
    rate: Option<Rate>,
    /// When it is listed next.
    next: Instant,
    /// The wait after its next failure (doubled by each failure).
    backoff: Duration,
    /// Why its last list failed, while it backs off.
    error: Option<String>,
}

impl Pace {
    /// An account to list at once, then every `every`, its client paced to `rate`.
    pub fn new(every: Duration, rate: Option<Rate>) -> Pace {
        Pace {
            every,
            rate,
            next: Instant::now(),
            backoff: every,
            error: None,
        }
    }

    /// Is it time to list it?
    pub fn due(&self, now: Instant) -> bool {
        now >= self.next
    }

    /// It listed `sessions`: next time after `every`, or longer when a refresh that often
    /// would spend more than half of its rate on their pages (the rest is left to actions and
    /// to other commands). Not paced (`--rate off`): after `every`.
    pub fn listed(&mut self, sessions: usize, now: Instant) {
        let pages = sessions.div_ceil(PAGE).max(1);
        let spread = self.rate.map_or(Duration::ZERO, |rate| {
            rate.per.mul_f64(2.0 * pages as f64 / f64::from(rate.max))
        });
        self.next = now + self.every.max(spread);
        self.backoff = self.every;
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

    /// The service's default rate, 120 a minute.
    const SERVICE: Rate = Rate {
        max: 120,
        per: Duration::from_secs(60),
    };

    #[test]
    fn a_failure_backs_off_its_own_account_alone() {
        let every = Duration::from_secs(3);
        let now = Instant::now();
        let mut a = Pace::new(every, Some(SERVICE));
        let mut b = Pace::new(every, Some(SERVICE));
        a.listed(10, now);
        b.failed("HTTP 500".into(), now);
        b.failed("HTTP 500".into(), now);
        assert_eq!(a.next, now + every);
        assert_eq!(b.next, now + Duration::from_secs(12));
        assert_eq!(b.error(), Some("HTTP 500 (again in 12s)"));
        assert_eq!(next_due(&[a.clone(), b.clone()]), now + every);
        b.listed(10, now);
        assert_eq!(b.error(), None);
        assert_eq!(b.backoff, every, "its back-off starts over");
    }

    #[test]
    fn a_refresh_spends_at_most_half_of_its_own_accounts_rate() {
        let every = Duration::from_secs(2);
        let now = Instant::now();
        let after = |rate: Option<Rate>, sessions: usize| {
            let mut p = Pace::new(every, rate);
            p.listed(sessions, now);
            p.next - now
        };
        // 5,000 sessions are 50 pages: under 120 a minute, half of it is one a second.
        assert_eq!(after(Some(SERVICE), 5_000), Duration::from_secs(50));
        // A small fleet refreshes as often as asked.
        assert_eq!(after(Some(SERVICE), 100), every);
        // Each account's own rate: ten times the rate, a tenth of the wait.
        let fast = Rate {
            max: 1200,
            per: Duration::from_secs(60),
        };
        assert_eq!(after(Some(fast), 5_000), Duration::from_secs(5));
        // Unpaced (--rate off): as often as asked, however many pages.
        assert_eq!(after(None, 5_000), every);
    }
}
