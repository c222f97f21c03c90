//! What a recorder keeps of each poll of the agent, shared by `local requests record`,
//! `local requests tail --record` and `local inspect --record` (each follows the agent with
//! [`crate::capture::follow::Follower`]): new captures, and captures kept while pending once
//! they come back answered. Captures already kept answered are skipped before the database is
//! touched, so a poll that brings nothing new costs nothing.
//!
//! The bounds (`history_max_size`, `history_max_age`) hold while it records, not only when it
//! opens: it counts the bytes it adds and knows when the oldest kept capture was captured, so
//! it can tell at no cost after each poll whether a bound is passed, and trims then.
//!
//! A team store that goes away while it records (the server restarted) loses nothing: the
//! captures of the polls meanwhile are held, and kept once it is back.

use std::collections::HashSet;
use std::time::Duration;

use super::store::{start_ns, KeptCount};
use super::stores::{Location, Store};
use crate::capture::Exchange;
use crate::error::Result;

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
    location: Location,
    /// The source it keeps captures as.
    source: String,
    limits: Limits,
    /// Captures not kept yet because the store could not be reached.
    waiting: Vec<Exchange>,
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
    /// A recorder writing into the history at `location` as `source`'s, which is trimmed to
    /// `limits` first; when that would drop more than half of what it holds, `ask` is asked
    /// first (with how many, and of how many) and may refuse.
    pub async fn new(
        location: Location,
        source: String,
        limits: Limits,
        ask: impl FnOnce(usize, u64) -> Result<()>,
    ) -> Result<Recorder> {
        let mut store = location.open().await?;
        let doomed = store.doomed(limits.max_size, limits.max_age).await?;
        if !doomed.is_empty() {
            let all = store.count().await?;
            if doomed.len() as u64 * 2 > all {
                ask(doomed.len(), all)?;
            }
        }
        let (gone, left) = store.drop_doomed(doomed).await?;
        Ok(Recorder {
            store,
            location,
            source,
            limits,
            waiting: Vec::new(),
            done: HashSet::new(),
            pending: HashSet::new(),
            size: left.size,
            oldest_ns: left.oldest_ns,
            total: KeptCount::default(),
            dropped: gone.into_iter().collect(),
        })
    }

    /// Keeps what is new in `batch` (captures with the agent's JSON kept), then holds the
    /// bounds; what this call kept. When the store cannot be reached, what is new is held
    /// (the error says why) and kept by a later call, once it is back.
    pub async fn keep(&mut self, batch: &[Exchange]) -> Result<KeptCount> {
        let cut = self.age_cut();
        let waiting = std::mem::take(&mut self.waiting);
        let mut fresh: Vec<&Exchange> = batch
            .iter()
            .chain(&waiting)
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
            self.hold_bounds().await?;
            return Ok(KeptCount::default());
        }
        let tried = match self.store.reconnect_if_lost().await {
            Ok(_) => self.store.keep(&fresh, &self.source).await,
            Err(e) => Err(e),
        };
        let kept = match tried {
            Ok(kept) => kept,
            Err(e) => {
                if super::team::pg_error::is_gone(&e) {
                    // Held, newest first as they came, until the store is back.
                    self.waiting = fresh.into_iter().cloned().collect();
                }
                return Err(e);
            }
        };
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
        self.hold_bounds().await?;
        Ok(kept)
    }

    /// How many captures are held until the store is back.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// The line that says a follower records (`tail --record`, `inspect --record`,
    /// `record`).
    pub fn recording_into(&self) -> String {
        format!(
            "Recording into {} as '{}'",
            self.location.shown(),
            crate::escape::escape(&self.source)
        )
    }

    /// What it kept, as a result object (`--json`) and as the line people read.
    pub async fn summary(&mut self) -> Result<(serde_json::Value, String)> {
        if !self.waiting.is_empty() {
            // One more try at what waited for the store (a stop while it was away).
            let _ = self.keep(&[]).await;
        }
        let all = self.store.count().await?;
        let shown = self.location.shown();
        let dropped = match self.dropped.len() {
            0 => String::new(),
            n => format!("; {n} dropped by the bounds"),
        };
        let line = format!(
            "Kept {} new capture(s), {} answered since, in {shown} ({all} in all{dropped})",
            self.total.new, self.total.updated,
        );
        let (key, place) = self.location.field();
        let mut doc = serde_json::json!({
            key: place,
            "source": self.source,
            "new": self.total.new,
            "answered_since": self.total.updated,
            "dropped": self.dropped.len(),
            "kept": all,
        });
        if !self.waiting.is_empty() {
            doc["not_kept"] = self.waiting.len().into();
        }
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
    async fn hold_bounds(&mut self) -> Result<()> {
        let cut = self.age_cut();
        let too_old = self.oldest_ns.is_some_and(|o| o < cut);
        if self.size > self.limits.max_size || too_old {
            let (gone, left) = self
                .store
                .trim(self.limits.max_size, self.limits.max_age)
                .await?;
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

    #[tokio::test]
    async fn pending_captures_are_kept_then_updated_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Location::File(dir.path().join("h.sqlite3"));
        let limits = Limits {
            max_size: u64::MAX,
            max_age: Duration::from_secs(86_400 * 3650),
        };
        let mut r = Recorder::new(store, "here".into(), limits, |_, _| Ok(()))
            .await
            .unwrap();
        let json = |answered: bool| {
            let response = if answered {
                serde_json::json!({"status_code": 200, "raw": "SFRUUC8xLjEgMjAwIE9LDQoNCg=="})
            } else {
                serde_json::Value::Null
            };
            serde_json::json!({"id": "airt_p", "request": {"method": "GET", "uri": "/"}, "response": response}).to_string()
        };
        let pending = Exchange::from_agent(json(false)).unwrap();
        assert_eq!(r.keep(std::slice::from_ref(&pending)).await.unwrap().new, 1);
        assert_eq!(r.keep(&[pending]).await.unwrap(), KeptCount::default());
        let answered = Exchange::from_agent(json(true)).unwrap();
        assert_eq!(
            r.keep(std::slice::from_ref(&answered))
                .await
                .unwrap()
                .updated,
            1
        );
        assert_eq!(r.keep(&[answered]).await.unwrap(), KeptCount::default());
        assert_eq!(r.total, KeptCount { new: 1, updated: 1 });
    }
}
