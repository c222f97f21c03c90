//! What a recorder keeps of each poll of the agent, shared by `local requests record`,
//! `local requests tail --record` and `local inspect --record`: new captures, and captures
//! kept while pending once they come back answered. Captures already kept answered are
//! skipped before the database is touched, so a poll that brings nothing new costs nothing.
//! The bounds (`history_max_size`, `history_max_age`) are applied when it opens and then
//! now and then ([`TRIM_EVERY`]).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::store::{KeptCount, Store};
use crate::capture::Exchange;
use crate::error::Result;

/// How often the bounds are applied while recording.
pub const TRIM_EVERY: Duration = Duration::from_secs(30);
/// The fewest of the newest captures a poll asks for, after the first.
pub const MIN_WINDOW: usize = 50;
/// The most a poll asks for, after the first.
pub const MAX_WINDOW: usize = 10_000;
/// Pending captures beyond the window asked for by ID on one poll.
pub const PENDING_PER_POLL: usize = 4;

/// The bounds of the history.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes of the kept captures' JSON at most.
    pub max_size: u64,
    /// The oldest capture kept.
    pub max_age: Duration,
}

/// A recorder: the open history and what it already holds of the agent's captures.
pub struct Recorder {
    store: Store,
    limits: Limits,
    /// Kept answered: nothing more to keep of them.
    done: HashSet<String>,
    /// Kept while pending, in the order they came.
    pending: Vec<String>,
    /// Where the turn of pending captures asked for by ID goes on from.
    next_pending: usize,
    /// When the bounds were last applied (`None`: not since it opened, so after the first
    /// write).
    last_trim: Option<Instant>,
    /// Everything kept since it started.
    pub total: KeptCount,
    /// Captures dropped by the bounds since it started.
    pub dropped: usize,
}

impl Recorder {
    /// A recorder writing into `store`, which is trimmed to `limits` first.
    pub fn new(mut store: Store, limits: Limits) -> Result<Recorder> {
        let dropped = store.trim(limits.max_size, limits.max_age)?;
        Ok(Recorder {
            store,
            limits,
            done: HashSet::new(),
            pending: Vec::new(),
            next_pending: 0,
            last_trim: None,
            total: KeptCount::default(),
            dropped,
        })
    }

    /// The history it writes into.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Keeps what is new in `batch` (captures with the agent's JSON kept); what this call kept.
    pub fn keep(&mut self, batch: &[Exchange]) -> Result<KeptCount> {
        let fresh: Vec<&Exchange> = batch
            .iter()
            .filter(|e| !e.id.is_empty() && !self.done.contains(&e.id))
            .filter(|e| e.answered() || !self.pending.contains(&e.id))
            .collect();
        if fresh.is_empty() {
            return self.trim_if_due().map(|()| KeptCount::default());
        }
        let kept = self.store.keep(fresh.iter().copied())?;
        for e in fresh {
            if e.answered() {
                self.pending.retain(|p| *p != e.id);
                self.done.insert(e.id.clone());
            } else {
                self.pending.push(e.id.clone());
            }
        }
        self.total.new += kept.new;
        self.total.updated += kept.updated;
        self.trim_if_due()?;
        Ok(kept)
    }

    /// A few of the captures kept pending that `batch` did not bring back, to ask the agent
    /// for by ID (in turn, so each is asked now and then).
    pub fn pending_beyond(&mut self, batch: &[Exchange]) -> Vec<String> {
        let seen: HashSet<&str> = batch.iter().map(|e| e.id.as_str()).collect();
        let missing: Vec<&String> = self
            .pending
            .iter()
            .filter(|id| !seen.contains(id.as_str()))
            .collect();
        if missing.is_empty() {
            return Vec::new();
        }
        let start = self.next_pending % missing.len();
        let chosen: Vec<String> = missing
            .iter()
            .cycle()
            .skip(start)
            .take(PENDING_PER_POLL.min(missing.len()))
            .map(|s| s.to_string())
            .collect();
        self.next_pending = start + chosen.len();
        chosen
    }

    /// The agent no longer has this pending capture: stop asking for it (it stays kept as
    /// it was last seen).
    pub fn forget(&mut self, id: &str) {
        self.pending.retain(|p| p != id);
        self.done.insert(id.to_string());
    }

    fn trim_if_due(&mut self) -> Result<()> {
        if self.last_trim.is_none_or(|t| t.elapsed() >= TRIM_EVERY) {
            self.dropped += self.store.trim(self.limits.max_size, self.limits.max_age)?;
            self.last_trim = Some(Instant::now());
        }
        Ok(())
    }
}

/// How many of the newest captures to ask for on each poll: everything first; then about
/// twice what the last poll found new, four times as many after a poll that was new
/// throughout (some may have been missed), between [`MIN_WINDOW`] and [`MAX_WINDOW`].
#[derive(Debug, Default)]
pub struct PollWindow {
    window: Option<usize>,
}

impl PollWindow {
    /// The limit of the next poll (`None`: all).
    pub fn next_limit(&self) -> Option<usize> {
        self.window
    }

    /// Learns from a poll that asked for `asked` and got `got` captures, `new` of them not
    /// seen before.
    pub fn took(&mut self, asked: Option<usize>, got: usize, new: usize) {
        self.window =
            Some(crate::agent::next_window(asked, got, new).clamp(MIN_WINDOW, MAX_WINDOW));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_follows_the_traffic() {
        let mut p = PollWindow::default();
        assert_eq!(p.next_limit(), None);
        p.took(None, 3, 3);
        assert_eq!(p.next_limit(), Some(MIN_WINDOW));
        p.took(Some(MIN_WINDOW), MIN_WINDOW, MIN_WINDOW);
        assert_eq!(p.next_limit(), Some(4 * MIN_WINDOW));
        p.took(Some(200), 200, 0);
        assert_eq!(p.next_limit(), Some(MIN_WINDOW));
    }

    #[test]
    fn pending_captures_are_kept_then_updated_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("h.sqlite3")).unwrap();
        let limits = Limits {
            max_size: u64::MAX,
            max_age: Duration::from_secs(86_400 * 3650),
        };
        let mut r = Recorder::new(store, limits).unwrap();
        let json = |answered: bool| {
            let response = if answered {
                serde_json::json!({"status_code": 200, "raw": "SFRUUC8xLjEgMjAwIE9LDQoNCg=="})
            } else {
                serde_json::Value::Null
            };
            serde_json::json!({"id": "airt_p", "request": {"method": "GET", "uri": "/"}, "response": response}).to_string()
        };
        let pending = Exchange::from_agent(json(false)).unwrap();
        assert_eq!(r.keep(std::slice::from_ref(&pending)).unwrap().new, 1);
        assert_eq!(r.keep(&[pending]).unwrap(), KeptCount::default());
        assert_eq!(r.pending_beyond(&[]), ["airt_p"]);
        let answered = Exchange::from_agent(json(true)).unwrap();
        assert_eq!(r.keep(std::slice::from_ref(&answered)).unwrap().updated, 1);
        assert_eq!(r.keep(&[answered]).unwrap(), KeptCount::default());
        assert!(r.pending_beyond(&[]).is_empty());
        assert_eq!(r.total, KeptCount { new: 1, updated: 1 });
    }
}
