//! The account rate limit of the hosted service (120 requests per rolling 60 s there),
//! emulated with a configurable limit so tests can hit it quickly.
//!
//! The window holds the arrival times of the requests the limit let through; a refused
//! request does not count, so a client that backs off as told by `Retry-After` gets through.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::api_error::{code, ApiError};
use crate::input::Fields;

/// At most `max` requests in any `per_ms` milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Requests allowed in one window (at least 1).
    pub max: u32,
    /// Length of the rolling window in milliseconds (at least 1).
    pub per_ms: u64,
}

impl RateLimit {
    /// A limit from `MockOptions::rate_limit`; zeros are raised to 1 rather than refused.
    pub fn from_pair((max, per_ms): (u32, u64)) -> Self {
        RateLimit {
            max: max.max(1),
            per_ms: per_ms.max(1),
        }
    }

    /// Reads `{"max": N, "per_ms": N}` (the `rate_limit` key of `/_mock/config`).
    pub fn from_json(v: &Value) -> Result<Self, ApiError> {
        let Value::Object(map) = v else {
            return Err(ApiError::invalid(
                "rate_limit",
                "rate_limit must be null or an object {\"max\": N, \"per_ms\": N}.",
            ));
        };
        let f = Fields::nested(map, "rate_limit");
        f.only(&["max", "per_ms"])?;
        let max = f
            .uint("max")?
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n >= 1)
            .ok_or_else(|| {
                ApiError::invalid("rate_limit.max", "rate_limit.max must be from 1 to 2^32-1.")
            })?;
        let per_ms = f.uint("per_ms")?.filter(|n| *n >= 1).ok_or_else(|| {
            ApiError::invalid("rate_limit.per_ms", "rate_limit.per_ms must be at least 1.")
        })?;
        Ok(RateLimit { max, per_ms })
    }

    /// The form `/_mock/config` shows.
    pub fn to_json(self) -> Value {
        json!({"max": self.max, "per_ms": self.per_ms})
    }

    fn window(self) -> Duration {
        Duration::from_millis(self.per_ms)
    }
}

/// Arrival times of the requests let through, oldest first.
#[derive(Debug, Default)]
pub struct Window {
    accepted: VecDeque<Instant>,
}

impl Window {
    /// Lets a request arriving `now` through (and counts it) or refuses it with a 429 whose
    /// `Retry-After` is the whole seconds until the oldest counted request leaves the window.
    pub fn admit(&mut self, limit: RateLimit, now: Instant) -> Result<(), ApiError> {
        let window = limit.window();
        while self
            .accepted
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= window)
        {
            self.accepted.pop_front();
        }
        if self.accepted.len() < limit.max as usize {
            self.accepted.push_back(now);
            return Ok(());
        }
        let frees_at = self.accepted.front().map_or(now, |t| *t + window);
        let wait = frees_at.saturating_duration_since(now);
        let secs = wait.as_nanos().div_ceil(1_000_000_000).max(1);
        Err(refusal(limit, secs))
    }

    /// Forgets every counted request (when the limit changes, or on reset).
    pub fn clear(&mut self) {
        self.accepted.clear();
    }
}

fn refusal(limit: RateLimit, retry_after_secs: u128) -> ApiError {
    let per = if limit.per_ms % 1000 == 0 {
        (limit.per_ms / 1000).to_string()
    } else {
        format!("{}", limit.per_ms as f64 / 1000.0)
    };
    let mut e = ApiError::new(
        429,
        code::RATE_LIMITED,
        format!(
            "rate limit exceeded: {} requests per {per} seconds",
            limit.max
        ),
    )
    .detail("max", limit.max)
    .detail("per_ms", limit.per_ms);
    e.headers
        .push(("retry-after", retry_after_secs.to_string()));
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolling_window_counts_only_accepted_requests() {
        let limit = RateLimit {
            max: 2,
            per_ms: 1500,
        };
        let mut w = Window::default();
        let t0 = Instant::now();
        assert!(w.admit(limit, t0).is_ok());
        assert!(w.admit(limit, t0 + Duration::from_millis(100)).is_ok());
        let refused = w
            .admit(limit, t0 + Duration::from_millis(200))
            .err()
            .map(|e| (e.status, e.headers.clone(), e.msg.clone()));
        assert_eq!(
            refused,
            Some((
                429,
                vec![("retry-after", "2".to_string())],
                "rate limit exceeded: 2 requests per 1.5 seconds".to_string()
            ))
        );
        // Refusals do not count: the first slot frees at t0 + 1.5 s.
        assert!(w.admit(limit, t0 + Duration::from_millis(1499)).is_err());
        assert!(w.admit(limit, t0 + Duration::from_millis(1500)).is_ok());
        assert!(w.admit(limit, t0 + Duration::from_millis(1550)).is_err());
    }

    #[test]
    fn retry_after_is_at_least_one_second() {
        let limit = RateLimit { max: 1, per_ms: 10 };
        let mut w = Window::default();
        let t0 = Instant::now();
        assert!(w.admit(limit, t0).is_ok());
        let e = w.admit(limit, t0 + Duration::from_millis(5)).err();
        assert_eq!(
            e.map(|e| e.headers),
            Some(vec![("retry-after", "1".to_string())])
        );
    }
}
