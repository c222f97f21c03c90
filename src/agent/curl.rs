//! A captured request as an equivalent `curl` command line (POSIX shell quoting).

use serde_json::Value;

use super::exchange::{message_of, Message};

/// Headers curl sets itself from the command line, or that no longer hold for a re-sent body.
const SKIPPED: &[&str] = &["host", "content-length", "transfer-encoding", "connection"];

/// Quotes a word for a POSIX shell.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=@%+,".contains(&b))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `printf` format text that prints exactly these bytes (octal escapes for the rest).
fn printf_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        match b {
            b'%' => out.push_str("%%"),
            b'\\' => out.push_str("\\\\"),
            b'\'' => out.push_str("'\\''"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out
}

/// The URL the request was sent to: scheme from `X-Forwarded-Proto` (else http), host from
/// the `Host` header, then the request target.
pub fn request_url(msg: &Message) -> String {
    let target = msg.start_line.split(' ').nth(1).unwrap_or("/");
    if target.starts_with("http://") || target.starts_with("https://") {
        return target.to_string();
    }
    let scheme = msg
        .header("x-forwarded-proto")
        .map(|p| {
            p.split(',')
                .next()
                .unwrap_or("http")
                .trim()
                .to_ascii_lowercase()
        })
        .filter(|p| p == "http" || p == "https")
        .unwrap_or_else(|| "http".to_string());
    let host = msg.header("host").unwrap_or("localhost");
    format!("{scheme}://{host}{target}")
}

/// The curl command line that sends the captured request again.
pub fn command(captured: &Value) -> String {
    let msg = message_of(captured.get("request").unwrap_or(&Value::Null), true);
    let method = msg
        .start_line
        .split(' ')
        .next()
        .unwrap_or("GET")
        .to_string();
    let mut parts = vec!["curl".to_string()];
    if method != "GET" || !msg.body.is_empty() {
        parts.push("-X".into());
        parts.push(shell_quote(&method));
    }
    parts.push(shell_quote(&request_url(&msg)));
    for (k, v) in &msg.headers {
        if SKIPPED.iter().any(|s| k.eq_ignore_ascii_case(s)) {
            continue;
        }
        parts.push("-H".into());
        parts.push(shell_quote(&format!("{k}: {v}")));
    }
    if msg.body.is_empty() {
        return parts.join(" ");
    }
    match std::str::from_utf8(&msg.body) {
        Ok(text) if !text.contains('\0') => {
            parts.push("--data-binary".into());
            parts.push(shell_quote(text));
            parts.join(" ")
        }
        _ => {
            parts.push("--data-binary".into());
            parts.push("@-".into());
            format!("printf '{}' | {}", printf_bytes(&msg.body), parts.join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("abc"), "abc");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(printf_bytes(b"a%\x00'\n"), "a%%\\000'\\''\\012");
    }
}
