//! Value parsers shared by the command line, the config file and the environment: the same
//! text means the same thing wherever it is given. A leaf: it depends on nothing else here.
//!
//! Durations have one grammar everywhere (`--timeout`, `--settle`, `--since`, the `since:`
//! filter term): humantime's (`500ms`, `90s`, `1h30m`, `2d`, `1h 30m`), plus a bare number
//! meaning seconds (`1.5`), which is how the tool has always read them.
//!
//! Sizes have one grammar too (`--max-memory`, `--max-size`, `history_max_size`): bytes, or a
//! number with a unit (`64MiB`, `512KB`, `1.5GiB`), more than zero, with one wording of what is
//! wrong whichever flag or key it was.

use std::time::Duration;

use url::Url;

pub mod history_url;
pub use history_url::{parse_history_url, HistoryUrl};

/// The longest name of a history source (`--source`, `history_source`).
const MAX_SOURCE: usize = 200;

/// A history source's name (`--source`, `history_source`): some text, on one line, not too
/// long.
pub fn parse_source_name(s: &str) -> Result<String, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err("a source name must not be empty".into());
    }
    if t.chars().any(char::is_control) {
        return Err("a source name must be on one line, without control characters".into());
    }
    if t.chars().count() > MAX_SOURCE {
        return Err(format!("a source name is at most {MAX_SOURCE} characters"));
    }
    Ok(t.to_string())
}

/// Which API a base URL points at: its name in messages, and how a URL typed without its
/// scheme is completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaseUrl {
    /// The management API (`https://`, or `http://` to a loopback address).
    Api,
    /// The local agent API (`http://…/api`).
    Agent,
}

impl BaseUrl {
    /// How messages name it.
    pub fn name(self) -> &'static str {
        match self {
            BaseUrl::Api => "API URL",
            BaseUrl::Agent => "agent URL",
        }
    }

    /// `raw` with the scheme it lacks (and, for the agent, its `/api` path when it has no
    /// path): `localhost:4040` -> `http://localhost:4040/api`, `api.example.com` ->
    /// `https://api.example.com`. `None` when it has a scheme, or is no URL even with one.
    pub fn completed(self, raw: &str) -> Option<String> {
        if raw.contains("://") || raw.is_empty() {
            return None;
        }
        let host = raw.split('/').next().unwrap_or_default();
        let host = host.rsplit_once(':').map_or(host, |(h, _)| h);
        let loopback =
            host.eq_ignore_ascii_case("localhost") || host.starts_with("127.") || host == "[::1]";
        let scheme = match self {
            BaseUrl::Api if !loopback => "https",
            _ => "http",
        };
        let path = match self {
            BaseUrl::Agent if !raw.contains('/') => "/api",
            _ => "",
        };
        let url = format!("{scheme}://{raw}{path}");
        Url::parse(&url).ok().filter(|u| u.host().is_some())?;
        Some(url)
    }

    /// Parses a base URL: a scheme, a host, no query or fragment. One typed without its
    /// scheme is refused with the URL to type instead.
    pub fn parse(self, raw: &str) -> Result<Url, String> {
        let raw = raw.trim();
        let what = self.name();
        if let Some(url) = self.completed(raw) {
            return Err(format!(
                "the {what} '{raw}' has no scheme: write it as {url}"
            ));
        }
        let example = match self {
            BaseUrl::Api => "https://api.example.com",
            BaseUrl::Agent => "http://127.0.0.1:4040/api",
        };
        let url = Url::parse(raw).map_err(|e| {
            format!("the {what} '{raw}' is not a URL ({e}): write it in full, as {example}")
        })?;
        if url.host().is_none() {
            return Err(format!(
                "the {what} '{raw}' has no host: write it in full, as {example}"
            ));
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(format!(
                "the {what} '{raw}' must not have a query or fragment"
            ));
        }
        Ok(url)
    }
}

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
    if let Some(magnitude) = s.trim().strip_prefix('-') {
        if parse_duration(magnitude).is_ok() {
            return Err(format!(
                "'{s}' is a negative duration: give one more than zero, {DURATION_FORMS}"
            ));
        }
    }
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

/// The forms a size may take, as an error says them.
const SIZE_FORMS: &str = "say e.g. 64MiB, 512KB, 2GB or a number of bytes";

/// Parses a size in bytes: a number, or a number with a unit (`64MiB`, `512KB`, `1.5GiB`);
/// zero is no size (nothing would fit in it).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let wrong = || format!("'{text}' is not a size ({SIZE_FORMS})");
    let trimmed = text.trim();
    // The crate takes a leading dot or sign in ways a person would not mean.
    if !trimmed.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(wrong());
    }
    let size: bytesize::ByteSize = trimmed.parse().map_err(|_| wrong())?;
    match size.as_u64() {
        0 => Err(format!("'{text}' must be more than zero ({SIZE_FORMS})")),
        n => Ok(n),
    }
}

/// The smallest size bound of the capture history (`--max-size`, `history_max_size`): room
/// for a few ordinary captures. A bound that cannot hold one would drop the whole history
/// without a word.
pub const SMALLEST_HISTORY_SIZE: u64 = 64 * 1024;

/// Parses a size bound of the capture history: a size as [`parse_size`] takes it, at least
/// [`SMALLEST_HISTORY_SIZE`].
pub fn parse_history_size(text: &str) -> Result<u64, String> {
    let n = parse_size(text)?;
    if n < SMALLEST_HISTORY_SIZE {
        return Err(format!(
            "'{text}' is too small to hold the history: the smallest useful size is {}KiB",
            SMALLEST_HISTORY_SIZE >> 10
        ));
    }
    Ok(n)
}

/// A yes-or-no setting: `true` or `false` (also `yes`/`no`, `on`/`off`, `1`/`0`), in any
/// case; anything else is refused rather than taken for either.
pub fn parse_switch(s: &str) -> Result<bool, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(format!("'{s}' is not true or false")),
    }
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
    fn a_url_without_its_scheme_is_refused_with_the_url_to_type() {
        let err = BaseUrl::Agent.parse("localhost:4040").unwrap_err();
        assert_eq!(
            err,
            "the agent URL 'localhost:4040' has no scheme: write it as http://localhost:4040/api"
        );
        let err = BaseUrl::Api.parse("api.example.com").unwrap_err();
        assert!(
            err.ends_with("write it as https://api.example.com"),
            "{err}"
        );
        assert_eq!(
            BaseUrl::Api.completed("127.0.0.1:9000").as_deref(),
            Some("http://127.0.0.1:9000")
        );
        assert_eq!(
            BaseUrl::Agent.completed("127.0.0.1:4040/agent").as_deref(),
            Some("http://127.0.0.1:4040/agent")
        );
        assert_eq!(BaseUrl::Agent.completed("http://x"), None);
        assert!(BaseUrl::Api.parse("https://a.example/?q=1").is_err());
        assert!(BaseUrl::Agent.parse("http://127.0.0.1:4040/api").is_ok());
        assert!(BaseUrl::Api.parse("nonsense with spaces").is_err());
    }

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
    fn sizes() {
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("512KB"), Ok(512_000));
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("4 mib"), Ok(4 << 20));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        for bad in ["", "lots", "-1MiB", ".5MiB", "5x", "MiB", "12 parsecs"] {
            let e = parse_size(bad).expect_err(bad);
            assert_eq!(e, format!("'{bad}' is not a size ({SIZE_FORMS})"));
        }
        assert!(parse_size("0KiB").is_err());
        let e = parse_size("0").unwrap_err();
        assert_eq!(e, format!("'0' must be more than zero ({SIZE_FORMS})"));
        assert!(!e.contains("memory") && !e.contains("capture"), "{e}");
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
