//! Times for people: "3h ago" in a table cell, "2026-11-20 14:02:11 UTC (3 days ago)" in a
//! detail view.
//!
//! "Now" comes from one place, [`now`], which a test can pin for its thread
//! (`with_now`), so snapshots of relative times do not change from one run to the next.

use std::cell::Cell;

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{OffsetDateTime, UtcOffset};

thread_local! {
    /// A "now" pinned by a test for this thread; `None` means the system clock.
    static PINNED: Cell<Option<OffsetDateTime>> = const { Cell::new(None) };
}

/// The current time: the system clock, unless a test pinned it for this thread.
pub fn now() -> OffsetDateTime {
    PINNED
        .with(Cell::get)
        .unwrap_or_else(OffsetDateTime::now_utc)
}

/// Nanoseconds as "12.3 ms" / "1.52 s" (a captured exchange's duration).
pub fn human_duration(nanos: i64) -> String {
    let ms = nanos as f64 / 1_000_000.0;
    if ms < 1.0 {
        format!("{:.0} µs", nanos as f64 / 1000.0)
    } else if ms < 1000.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}

/// Runs `f` with [`now`] answering `pinned` on this thread (tests: deterministic snapshots).
pub fn with_now<R>(pinned: OffsetDateTime, f: impl FnOnce() -> R) -> R {
    struct Unpin(Option<OffsetDateTime>);
    impl Drop for Unpin {
        fn drop(&mut self) {
            PINNED.with(|p| p.set(self.0));
        }
    }
    let _restore = Unpin(PINNED.with(|p| p.replace(Some(pinned))));
    f()
}

/// "3h ago" for an RFC 3339 time; `None` when it does not parse.
pub fn human_time(rfc3339: &str) -> Option<String> {
    let when = OffsetDateTime::parse(rfc3339, &Rfc3339).ok()?;
    Some(relative(when, now()))
}

/// "2026-11-20 14:02:11 UTC (3 days ago)" for an RFC 3339 time; `None` when it does not parse.
pub fn full_time(rfc3339: &str) -> Option<String> {
    let when = OffsetDateTime::parse(rfc3339, &Rfc3339).ok()?;
    let utc = when.to_offset(UtcOffset::UTC);
    let absolute = utc
        .format(format_description!(
            "[year]-[month]-[day] [hour]:[minute]:[second] UTC"
        ))
        .ok()?;
    Some(format!("{absolute} ({})", relative_words(when, now())))
}

/// Seconds from `when` to `now`: positive in the past, with which way it points.
fn span(when: OffsetDateTime, now: OffsetDateTime) -> (bool, i64) {
    let secs = (now - when).whole_seconds();
    (secs >= 0, secs.saturating_abs())
}

/// The short form, for table cells.
fn relative(when: OffsetDateTime, now: OffsetDateTime) -> String {
    let (ago, secs) = span(when, now);
    let amount = match secs {
        0..=9 => return "just now".into(),
        10..=59 => format!("{secs}s"),
        60..=3_599 => format!("{}m", secs / 60),
        3_600..=86_399 => format!("{}h", secs / 3_600),
        86_400..=2_591_999 => format!("{}d", secs / 86_400),
        _ => return format!("{}", when.date()),
    };
    if ago {
        format!("{amount} ago")
    } else {
        format!("in {amount}")
    }
}

/// The long form, in words, for detail views (beside the absolute time, so it may round).
fn relative_words(when: OffsetDateTime, now: OffsetDateTime) -> String {
    let (ago, secs) = span(when, now);
    let (n, unit) = match secs {
        0..=9 => return "just now".into(),
        10..=59 => (secs, "second"),
        60..=3_599 => (secs / 60, "minute"),
        3_600..=86_399 => (secs / 3_600, "hour"),
        86_400..=2_591_999 => (secs / 86_400, "day"),
        2_592_000..=31_535_999 => (secs / 2_592_000, "month"),
        _ => (secs / 31_536_000, "year"),
    };
    let plural = if n == 1 { "" } else { "s" };
    if ago {
        format!("{n} {unit}{plural} ago")
    } else {
        format!("in {n} {unit}{plural}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn spans() {
        let now = datetime!(2026-11-21 12:00 UTC);
        assert_eq!(relative(datetime!(2026-11-21 12:00 UTC), now), "just now");
        assert_eq!(relative(datetime!(2026-11-21 11:59:30 UTC), now), "30s ago");
        assert_eq!(relative(datetime!(2026-11-21 09:00 UTC), now), "3h ago");
        assert_eq!(relative(datetime!(2026-11-19 12:00 UTC), now), "2d ago");
        assert_eq!(relative(datetime!(2026-11-21 12:05 UTC), now), "in 5m");
        assert_eq!(relative(datetime!(2025-01-02 00:00 UTC), now), "2025-01-02");
        assert_eq!(human_time("yesterday"), None);
    }

    #[test]
    fn detail_times_are_absolute_in_utc_and_relative_in_words() {
        with_now(datetime!(2026-11-23 14:02:11 UTC), || {
            assert_eq!(
                full_time("2026-11-20T14:02:11Z").as_deref(),
                Some("2026-11-20 14:02:11 UTC (3 days ago)")
            );
            assert_eq!(
                full_time("2026-11-23T15:02:11.5+01:00").as_deref(),
                Some("2026-11-23 14:02:11 UTC (just now)")
            );
            assert_eq!(
                full_time("2026-11-23T14:03:11Z").as_deref(),
                Some("2026-11-23 14:03:11 UTC (in 1 minute)")
            );
            assert_eq!(
                full_time("2024-11-01T00:00:00Z").as_deref(),
                Some("2024-11-01 00:00:00 UTC (2 years ago)")
            );
            assert_eq!(full_time("soon"), None);
        });
        assert_ne!(now(), datetime!(2026-11-23 14:02:11 UTC), "unpinned after");
    }
}
