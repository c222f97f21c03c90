//! Counters of the management API traffic (`GET /_mock/stats`): how many requests arrived,
//! how many the rate limit refused, and how many got each status, so a test can check a
//! client's request budget without walking the whole log.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde_json::{json, Map, Value};

use crate::sync::lock;

/// The counters, behind one lock.
#[derive(Debug, Default)]
pub struct Stats {
    inner: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    requests: u64,
    rate_limited: u64,
    by_status: BTreeMap<u16, u64>,
}

impl Stats {
    /// Counts a request as it arrives.
    pub fn arrived(&self) {
        lock(&self.inner).requests += 1;
    }

    /// Counts a request refused by the rate limit (its 429 is counted by
    /// [`Stats::answered`]).
    pub fn rate_limited(&self) {
        lock(&self.inner).rate_limited += 1;
    }

    /// Counts an answer by status (0: the connection was dropped without one).
    pub fn answered(&self, status: u16) {
        *lock(&self.inner).by_status.entry(status).or_insert(0) += 1;
    }

    /// Zeroes every counter.
    pub fn clear(&self) {
        *lock(&self.inner) = Counts::default();
    }

    /// `{"requests": n, "rate_limited": n, "by_status": {"200": n, ...}}`, statuses in
    /// ascending order.
    pub fn to_json(&self) -> Value {
        let c = lock(&self.inner);
        let by_status: Map<String, Value> = c
            .by_status
            .iter()
            .map(|(s, n)| (s.to_string(), json!(n)))
            .collect();
        json!({
            "requests": c.requests,
            "rate_limited": c.rate_limited,
            "by_status": by_status,
        })
    }
}
