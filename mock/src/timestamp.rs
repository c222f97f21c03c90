//! Timestamps in the one format the API uses (RFC 3339, UTC, whole seconds), so every
//! resource renders times the same way.

use std::time::Duration;

use time::macros::format_description;
use time::OffsetDateTime;

/// The current time as `2026-11-21T10:00:00Z`.
pub fn now() -> String {
    format(OffsetDateTime::now_utc())
}

/// The time `ago` before now, for seeded resources that should look old.
pub fn before_now(ago: Duration) -> String {
    format(OffsetDateTime::now_utc() - ago)
}

/// The time `later` after now, for a restarted session whose start lies in the future.
pub fn after_now(later: Duration) -> String {
    format(OffsetDateTime::now_utc() + later)
}

fn format(t: OffsetDateTime) -> String {
    let fmt = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");
    // Formatting a UTC time with only numeric components cannot fail; the fallback keeps a
    // bad day from ever becoming a panic.
    t.format(&fmt)
        .unwrap_or_else(|_| "1970-01-01T00:00:00Z".to_string())
}
