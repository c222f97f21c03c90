//! Human times for tables: "3h ago", "in 5m", or the date when it is long ago.

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// "3h ago" for an RFC 3339 time; `None` when it does not parse.
pub fn human_time(rfc3339: &str) -> Option<String> {
    let when = OffsetDateTime::parse(rfc3339, &Rfc3339).ok()?;
    Some(relative(when, OffsetDateTime::now_utc()))
}

fn relative(when: OffsetDateTime, now: OffsetDateTime) -> String {
    let secs = (now - when).whole_seconds();
    let (ago, secs) = if secs >= 0 {
        (true, secs)
    } else {
        (false, -secs)
    };
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
}
