//! What a recorder keeps of each poll of the agent, shared by `local requests record`,
//! `local requests tail --record` and `local inspect --record` (each follows the agent with
//! [`crate::capture::follow::Follower`]): new captures, and captures kept while pending once
//! they come back answered. Captures already kept answered are skipped before the database is
//! touched, so a poll that brings nothing new costs nothing.
//!
//! The bounds (`history_max_size`, `history_max_age`) hold while it records, not only when it
//! opens: it counts the bytes it adds and knows when the oldest kept capture was captured, so
//! it can tell at no cost after each poll whether a bound is passed, and trims then.

use std::collections::HashSet;
use std::time::Duration;

use super::store::{start_ns, KeptCount, Store};
use crate::capture::Exchange;
use crate::error::Result;
use crate::escape::escape_path;

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
    /// Kept while pending.
    pending: HashSet<String>,
    /// The bytes the file's captures hold, as far as this recorder knows (what others add is
    /// seen at the next trim).
    size: u64,
    /// When the oldest kept capture was captured (Unix nanoseconds).
    oldest_ns: Option<i64>,
    /// Everything kept since it started.
    pub total: KeptCount,
    /// Captures dropped by the bounds since it started, or not kept for them (each once).
    dropped: HashSet<String>,
}

impl Recorder {
    /// A recorder writing into `store`, which is trimmed to `limits` first; when that would
    /// drop more than half of what it holds, `ask` is asked first (with how many, and of how
    /// many) and may refuse.
    pub fn new(
        mut store: Store,
        limits: Limits,
        ask: impl FnOnce(usize, u64) -> Result<()>,
    ) -> Result<Recorder> {
        let doomed = store.doomed(limits.max_size, limits.max_age)?;
        if !doomed.is_empty() {
            let all = store.count()?;
            if doomed.len() as u64 * 2 > all {
                ask(doomed.len(), all)?;
            }
        }
        let (gone, left) = store.drop_doomed(doomed)?;
        Ok(Recorder {
            store,
            limits,
            done: HashSet::new(),
            pending: HashSet::new(),
            size: left.size,
            oldest_ns: left.oldest_ns,
            total: KeptCount::default(),
            dropped: gone.into_iter().collect(),
        })
    }

    /// The history it writes into.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Keeps what is new in `batch` (captures with the agent's JSON kept), then holds the
    /// bounds; what this call kept.
    pub fn keep(&mut self, batch: &[Exchange]) -> Result<KeptCount> {
        let cut = self.age_cut();
        let mut fresh: Vec<&Exchange> = batch
            .iter()
            .filter(|e| !e.id.is_empty() && !self.done.contains(&e.id))
            .filter(|e| e.answered() || !self.pending.contains(&e.id))
            .collect();
        // Older than the age bound: dropped by the bounds rather than kept, once.
        fresh.retain(|e| {
            let too_old = start_ns(&e.start).is_some_and(|ns| ns < cut);
            if too_old {
                self.done.insert(e.id.clone());
                self.dropped.insert(e.id.clone());
            }
            !too_old
        });
        if fresh.is_empty() {
            self.hold_bounds()?;
            return Ok(KeptCount::default());
        }
        let kept = self.store.keep(fresh.iter().copied())?;
        for e in fresh {
            self.size += e.json().map_or(0, |j| j.len() as u64);
            if let Some(ns) = start_ns(&e.start) {
                self.oldest_ns = Some(self.oldest_ns.map_or(ns, |o| o.min(ns)));
            }
            if e.answered() {
                self.pending.remove(&e.id);
                self.done.insert(e.id.clone());
            } else {
                self.pending.insert(e.id.clone());
            }
        }
        self.total.new += kept.new;
        self.total.updated += kept.updated;
        self.hold_bounds()?;
        Ok(kept)
    }

    /// The line that says a follower records (`tail --record`, `inspect --record`,
    /// `record`).
    pub fn recording_into(&self) -> String {
        format!("Recording into {}", escape_path(self.store.path()))
    }

    /// What it kept, as a result object (`--json`) and as the line people read.
    pub fn summary(&self) -> Result<(serde_json::Value, String)> {
        let all = self.store.count()?;
        let file = self.store.path();
        let dropped = match self.dropped.len() {
            0 => String::new(),
            n => format!("; {n} dropped by the bounds"),
        };
        let line = format!(
            "Kept {} new capture(s), {} answered since, in {} ({all} in all{dropped})",
            self.total.new,
            self.total.updated,
            escape_path(file)
        );
        let doc = serde_json::json!({
            "file": file.to_string_lossy(),
            "new": self.total.new,
            "answered_since": self.total.updated,
            "dropped": self.dropped.len(),
            "kept": all,
        });
        Ok((doc, line))
    }

    /// Captures started before this (Unix nanoseconds) are past the age bound.
    fn age_cut(&self) -> i64 {
        let age = time::Duration::try_from(self.limits.max_age).unwrap_or(time::Duration::MAX);
        time::OffsetDateTime::now_utc()
            .checked_sub(age)
            .and_then(|t| i64::try_from(t.unix_timestamp_nanos()).ok())
            .unwrap_or(i64::MIN)
    }

    /// Trims when a bound is passed: more bytes than `max_size`, or a capture older than
    /// `max_age`.
    fn hold_bounds(&mut self) -> Result<()> {
        let cut = self.age_cut();
        let too_old = self.oldest_ns.is_some_and(|o| o < cut);
        if self.size > self.limits.max_size || too_old {
            let (gone, left) = self.store.trim(self.limits.max_size, self.limits.max_age)?;
            self.dropped.extend(gone);
            (self.size, self.oldest_ns) = (left.size, left.oldest_ns);
            // The newest capture is kept whatever its size: no trim until more come.
            self.size = self.size.min(self.limits.max_size);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_captures_are_kept_then_updated_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("h.sqlite3")).unwrap();
        let limits = Limits {
            max_size: u64::MAX,
            max_age: Duration::from_secs(86_400 * 3650),
        };
        let mut r = Recorder::new(store, limits, |_, _| Ok(())).unwrap();
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
        let answered = Exchange::from_agent(json(true)).unwrap();
        assert_eq!(r.keep(std::slice::from_ref(&answered)).unwrap().updated, 1);
        assert_eq!(r.keep(&[answered]).unwrap(), KeptCount::default());
        assert_eq!(r.total, KeptCount { new: 1, updated: 1 });
    }
}
