//! Value parsers shared by the command line, the config file and the environment: the same
//! text means the same thing wherever it is given. A leaf: it depends on nothing else here.

use std::time::Duration;

/// Parses a positive duration: seconds (decimals allowed) or with a unit (`500ms`, `90s`,
/// `2m`, `1h`), at most a day.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1.0)
    };
    let secs: f64 = number
        .trim()
        .parse::<f64>()
        .map(|n| n * scale)
        .map_err(|_| format!("'{s}' is not a duration (seconds, or 500ms, 90s, 2m, 1h)"))?;
    if !secs.is_finite() || secs <= 0.0 {
        return Err(format!("'{s}' must be a positive number of seconds"));
    }
    if secs > 86_400.0 {
        return Err(format!("'{s}' is more than a day"));
    }
    Ok(Duration::from_secs_f64(secs))
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
}
