//! Value parsers shared by the command line, the config file and the environment: the same
//! text means the same thing wherever it is given. A leaf: it depends on nothing else here.
//!
//! Durations have one grammar everywhere (`--timeout`, `--settle`, `--since`, the `since:`
//! filter term): humantime's (`500ms`, `90s`, `1h30m`, `2d`, `1h 30m`), plus a bare number
//! meaning seconds (`1.5`), which is how the tool has always read them.

use std::time::Duration;

/// The forms every duration error names, so a wrong value teaches the right ones.
const DURATION_FORMS: &str = "seconds (1.5) or numbers with units (500ms, 90s, 10m, 1h30m, 2d)";

/// The longest `--timeout` (and `--settle`): a command that should wait longer than a day
/// is better run without one.
const MAX_WAIT: Duration = Duration::from_secs(86_400);

/// The longest look back for `--since`: far enough for any agent's captures, near enough that
/// subtracting it from today's date cannot leave the calendar.
const MAX_LOOKBACK: Duration = Duration::from_secs(3650 * 86_400);

/// Parses a positive duration in the one grammar (see the module doc), at most a day: for
/// `--timeout` and other waits.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    bounded(s, MAX_WAIT, "a day")
}

/// Parses how far back `--since` looks: a positive duration in the one grammar, at most ten
/// years.
pub fn parse_lookback(s: &str) -> Result<Duration, String> {
    bounded(s, MAX_LOOKBACK, "ten years")
}

fn bounded(s: &str, max: Duration, max_text: &str) -> Result<Duration, String> {
    let d = parse_duration(s)?;
    if d.is_zero() {
        return Err(format!("'{s}' must be more than zero: {DURATION_FORMS}"));
    }
    if d > max {
        return Err(format!("'{s}' is more than {max_text}"));
    }
    Ok(d)
}

/// Any duration in the one grammar, zero included.
fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let bare_number = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    let parsed = if bare_number {
        humantime::parse_duration(&format!("{t}s"))
    } else {
        humantime::parse_duration(t)
    };
    parsed.map_err(|_| format!("'{s}' is not a duration: {DURATION_FORMS}"))
}

/// 1 to 20 attempts.
pub fn parse_attempts(s: &str) -> Result<u32, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if (1..=20).contains(&n) => Ok(n as u32),
        Ok(_) => Err(format!("'{s}' must be from 1 to 20")),
        Err(_) => Err(format!("'{s}' is not a whole number")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_seconds("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_seconds("250ms"), Ok(Duration::from_millis(250)));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("-3").is_err());
        assert!(parse_seconds("abc").is_err());
        assert!(parse_seconds("NaN").is_err());
    }

    #[test]
    fn units_combine_and_days_count() {
        assert_eq!(parse_seconds("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_seconds("1h 30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_seconds(" 90s "), Ok(Duration::from_secs(90)));
        assert_eq!(parse_seconds("1.5m"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_seconds("1d"), Ok(MAX_WAIT));
        assert_eq!(parse_lookback("2d"), Ok(Duration::from_secs(2 * 86_400)));
        assert_eq!(parse_lookback("36h"), Ok(Duration::from_secs(36 * 3600)));
        assert_eq!(parse_lookback("1w"), Ok(Duration::from_secs(7 * 86_400)));
    }

    #[test]
    fn wrong_values_name_the_forms_and_the_bound() {
        for bad in ["5x", "", ".", "1..5", "1h30", "h", "1e3", "inf", "0x10"] {
            let e = parse_seconds(bad).expect_err(bad);
            assert!(e.contains("1h30m, 2d"), "{bad}: {e}");
        }
        assert!(parse_seconds("0s").is_err_and(|e| e.contains("more than zero")));
        assert!(parse_seconds("25h").is_err_and(|e| e.contains("more than a day")));
        assert!(parse_lookback("11y").is_err_and(|e| e.contains("ten years")));
        assert!(parse_lookback("99999999999999999999d").is_err());
    }
}
