//! The emulator's clock for everything that waits or is timed: restart delays, update
//! durations, the rate limit's window, latency and fault delays, and the request logs'
//! `at_ms`. It follows real time until a test freezes it or moves it forward
//! (`POST /_mock/clock`), so that a test of "after the delay" or "once the window has rolled"
//! waits for nothing and passes the same on a loaded machine as on an idle one.
//!
//! The clock never goes back: moving it is only forward, and unfreezing resumes from where it
//! stood. Resource timestamps (`created_at`, `started_at`) stay on the wall clock.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::watch;

use crate::sync::lock;

/// The emulator's clock (see the module doc).
#[derive(Debug)]
pub struct Clock {
    origin: Instant,
    state: Mutex<State>,
    /// Bumped on every freeze, thaw and move, to wake the waits.
    moved: watch::Sender<u64>,
    /// How many waits are in progress: a test knows a request is held (in its latency or a
    /// fault's delay) before it moves the clock past the wait's end.
    waiting: AtomicUsize,
}

/// Counts one wait for as long as it lasts, however it ends (a dropped connection too).
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

#[derive(Debug, Default)]
struct State {
    /// The time the clock stands at while frozen.
    frozen: Option<Duration>,
    /// How far the clock is ahead of real time since `origin` (it may be behind after a
    /// freeze is lifted, never before its own last reading).
    skew_ns: i128,
}

impl State {
    fn elapsed(&self, origin: Instant) -> Duration {
        if let Some(at) = self.frozen {
            return at;
        }
        let ns = (origin.elapsed().as_nanos() as i128 + self.skew_ns).max(0);
        Duration::from_nanos(u64::try_from(ns).unwrap_or(u64::MAX))
    }
}

impl Clock {
    /// A clock that starts now and follows real time.
    pub fn new() -> Self {
        Clock {
            origin: Instant::now(),
            state: Mutex::new(State::default()),
            moved: watch::Sender::new(0),
            waiting: AtomicUsize::new(0),
        }
    }

    /// Time on this clock since the emulator started.
    pub fn elapsed(&self) -> Duration {
        lock(&self.state).elapsed(self.origin)
    }

    /// [`Self::elapsed`] in whole milliseconds, as the request logs show it.
    pub fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// The current time on this clock, for code that keeps deadlines as `Instant`s.
    pub fn now(&self) -> Instant {
        self.origin + self.elapsed()
    }

    /// Stops the clock where it stands (`true`) or lets it follow real time again from there.
    pub fn freeze(&self, frozen: bool) {
        let mut s = lock(&self.state);
        let now = s.elapsed(self.origin);
        if frozen {
            s.frozen = Some(now);
        } else if s.frozen.take().is_some() {
            s.skew_ns = now.as_nanos() as i128 - self.origin.elapsed().as_nanos() as i128;
        }
        drop(s);
        self.moved.send_modify(|n| *n += 1);
    }

    /// Moves the clock forward by `by`: every wait due by then ends.
    pub fn advance(&self, by: Duration) {
        let mut s = lock(&self.state);
        match &mut s.frozen {
            Some(at) => *at = at.saturating_add(by),
            None => s.skew_ns += by.as_nanos() as i128,
        }
        drop(s);
        self.moved.send_modify(|n| *n += 1);
    }

    /// `{"now_ms": …, "frozen": …, "waiting": …}`, as `/_mock/clock` shows it.
    pub fn to_json(&self) -> Value {
        let s = lock(&self.state);
        json!({
            "now_ms": u64::try_from(s.elapsed(self.origin).as_millis()).unwrap_or(u64::MAX),
            "frozen": s.frozen.is_some(),
            "waiting": self.waiting.load(Ordering::SeqCst),
        })
    }

    /// Waits until this clock has moved on by `d`: in real time while it runs, at once when a
    /// test moves it past the end, never while it is frozen short of the end.
    pub async fn sleep(&self, d: Duration) {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let _counted = Waiting(&self.waiting);
        // Subscribed before the first reading, so a move in between is not missed.
        let mut moved = self.moved.subscribe();
        let end = self.elapsed().saturating_add(d);
        loop {
            let (now, frozen) = {
                let s = lock(&self.state);
                (s.elapsed(self.origin), s.frozen.is_some())
            };
            if now >= end {
                return;
            }
            if frozen {
                if moved.changed().await.is_err() {
                    return;
                }
            } else {
                tokio::select! {
                    () = tokio::time::sleep(end - now) => {}
                    changed = moved.changed() => if changed.is_err() { return },
                }
            }
        }
    }
}

impl Default for Clock {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frozen_clock_moves_only_when_told_and_resumes_where_it_stood() {
        let t = Clock::new();
        t.freeze(true);
        let at = t.elapsed();
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(t.elapsed(), at);
        t.advance(Duration::from_secs(3600));
        assert_eq!(t.elapsed(), at + Duration::from_secs(3600));
        t.freeze(false);
        assert!(t.elapsed() >= at + Duration::from_secs(3600), "never back");
        t.advance(Duration::from_secs(1));
        assert!(t.elapsed() >= at + Duration::from_secs(3601));
        assert_eq!(t.to_json()["frozen"], false);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_wait_ends_when_the_clock_is_moved_past_it() {
        let t = std::sync::Arc::new(Clock::new());
        t.freeze(true);
        let waiting = tokio::spawn({
            let t = t.clone();
            async move { t.sleep(Duration::from_secs(600)).await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        assert_eq!(t.to_json()["waiting"], 1);
        t.advance(Duration::from_secs(599));
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "not before its end");
        t.advance(Duration::from_secs(1));
        assert!(waiting.await.is_ok());
        assert_eq!(t.to_json()["waiting"], 0);
    }
}
