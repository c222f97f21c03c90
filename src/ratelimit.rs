//! A client-side limiter that keeps requests under the service's rate limit (by default 120
//! requests per rolling 60 seconds), so bulk operations and long listings pace themselves
//! instead of collecting 429 answers. While it holds a request back, [`pacing`] says for how
//! much longer, so that a progress line can show the wait instead of looking stuck.

use std::collections::VecDeque;
use std::str::FromStr;
use std::sync::{Mutex as StdMutex, PoisonError};
use std::time::Duration;

use tokio::sync::Mutex;
use tokio::time::Instant;

/// At most `max` requests in any window of `per`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Requests allowed in a window.
    pub max: u32,
    /// The window.
    pub per: Duration,
}

/// `--rate`: a rate, or no limit at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateSetting {
    /// Pace requests to this rate.
    Limit(Rate),
    /// Do not pace (`off`).
    Off,
}

impl std::fmt::Display for RateSetting {
    /// As `--rate` and the `rate` key take it: `120/60` or `off`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RateSetting::Limit(r) => write!(f, "{}/{}", r.max, r.per.as_secs_f64()),
            RateSetting::Off => write!(f, "off"),
        }
    }
}

impl FromStr for RateSetting {
    type Err = String;

    /// `N/SECONDS` (e.g. `120/60`, `20/5`, `10/1.5`) or `off`.
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("off") || s.eq_ignore_ascii_case("none") {
            return Ok(RateSetting::Off);
        }
        let (n, secs) = s
            .split_once('/')
            .ok_or_else(|| format!("'{s}' is not N/SECONDS (e.g. 120/60) or 'off'"))?;
        let max: u32 =
            n.trim().parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                format!("'{n}' in '{s}' is not a whole number of requests above 0")
            })?;
        let secs: f64 = secs
            .trim()
            .trim_end_matches('s')
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite() && *x > 0.0 && *x <= 86_400.0)
            .ok_or_else(|| format!("'{secs}' in '{s}' is not a number of seconds above 0"))?;
        Ok(RateSetting::Limit(Rate {
            max,
            per: Duration::from_secs_f64(secs),
        }))
    }
}

/// When the longest pacing wait under way ends. One run has one management client, so one
/// value for the process is enough; it is read by progress lines, as `interrupt::requested` is.
static PACED_UNTIL: StdMutex<Option<std::time::Instant>> = StdMutex::new(None);

/// How much longer a request is being held back for the rate limit, if one is.
pub fn pacing() -> Option<Duration> {
    let until = (*PACED_UNTIL.lock().unwrap_or_else(PoisonError::into_inner))?;
    let left = until.saturating_duration_since(std::time::Instant::now());
    (!left.is_zero()).then_some(left)
}

/// Records that a request waits `wait` from now.
fn note_pacing(wait: Duration) {
    let until = std::time::Instant::now() + wait;
    let mut held = PACED_UNTIL.lock().unwrap_or_else(PoisonError::into_inner);
    if held.is_none_or(|t| t < until) {
        *held = Some(until);
    }
}

/// Paces requests: [`Limiter::acquire`] returns when one more request fits in the window.
#[derive(Debug)]
pub struct Limiter {
    rate: Rate,
    sent: Mutex<VecDeque<Instant>>,
}

impl Limiter {
    /// A limiter for `rate`.
    pub fn new(rate: Rate) -> Self {
        Limiter {
            rate,
            sent: Mutex::new(VecDeque::new()),
        }
    }

    /// The rate it paces to.
    pub fn rate(&self) -> Rate {
        self.rate
    }

    /// Waits until a request may be sent, and counts it.
    pub async fn acquire(&self) {
        loop {
            let wait = {
                let mut sent = self.sent.lock().await;
                let now = Instant::now();
                while sent
                    .front()
                    .is_some_and(|t| now.duration_since(*t) >= self.rate.per)
                {
                    sent.pop_front();
                }
                if (sent.len() as u32) < self.rate.max {
                    sent.push_back(now);
                    return;
                }
                // The oldest request in the window leaves it at this instant.
                match sent.front() {
                    Some(oldest) => self.rate.per.saturating_sub(now.duration_since(*oldest)),
                    None => Duration::ZERO,
                }
            };
            // A margin, so that the server, which sees each request a little after we send
            // it, never counts one more than its limit in its own window.
            let margin =
                (self.rate.per / 50).clamp(Duration::from_millis(20), Duration::from_millis(500));
            note_pacing(wait + margin);
            tokio::time::sleep(wait + margin).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsing() {
        assert_eq!(
            "20/5".parse(),
            Ok(RateSetting::Limit(Rate {
                max: 20,
                per: Duration::from_secs(5)
            }))
        );
        assert_eq!("off".parse::<RateSetting>(), Ok(RateSetting::Off));
        assert!("0/5".parse::<RateSetting>().is_err());
        assert!("5".parse::<RateSetting>().is_err());
        assert!("5/-1".parse::<RateSetting>().is_err());
        assert!("x/1".parse::<RateSetting>().is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_window_waits_for_its_oldest_request() {
        let l = Limiter::new(Rate {
            max: 3,
            per: Duration::from_secs(10),
        });
        let start = Instant::now();
        for _ in 0..3 {
            l.acquire().await;
        }
        assert!(start.elapsed() < Duration::from_millis(5));
        l.acquire().await;
        assert!(start.elapsed() >= Duration::from_secs(10));
        assert!(start.elapsed() < Duration::from_millis(10_600));
    }
}
