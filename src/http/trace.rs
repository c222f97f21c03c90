//! The `--verbose` trace on stderr: each request and answer, with the API key redacted,
//! secret fields masked and every server string escaped. While a full-screen view owns the
//! terminal the trace goes to a file instead ([`divert`]): it is never drawn over the view.

use std::io::Write;
use std::sync::{Mutex, PoisonError};

use reqwest::Method;
use serde_json::Value;
use url::Url;

use super::HttpOptions;
use crate::error::status_text;
use crate::escape::escape;
use crate::secrets::{mask_secret_fields, redact};

/// The file the trace goes to while a full-screen view runs (`None`: stderr).
static DIVERTED: Mutex<Option<std::fs::File>> = Mutex::new(None);

/// Writes one line of the trace where it goes now.
macro_rules! trace_line {
    ($($arg:tt)*) => {
        $crate::http::trace::emit(format_args!($($arg)*))
    };
}
pub(super) use trace_line;

/// Writes one line of the trace: to the diverted file, or to stderr. A trace that cannot be
/// written is no reason to stop the work.
pub fn emit(line: std::fmt::Arguments<'_>) {
    let mut diverted = DIVERTED.lock().unwrap_or_else(PoisonError::into_inner);
    match diverted.as_mut() {
        Some(file) => {
            let _ = writeln!(file, "{line}");
        }
        None => {
            let _ = writeln!(std::io::stderr().lock(), "{line}");
        }
    }
}

/// Sends the trace to `file` until the returned guard is dropped (a full-screen view owns the
/// terminal meanwhile; the trace would be drawn over it).
#[must_use = "the trace goes back to stderr when the guard is dropped"]
pub fn divert(file: std::fs::File) -> Diverted {
    *DIVERTED.lock().unwrap_or_else(PoisonError::into_inner) = Some(file);
    Diverted(())
}

/// While it lives, the trace goes to a file; dropped, back to stderr.
#[derive(Debug)]
pub struct Diverted(());

impl Drop for Diverted {
    fn drop(&mut self) {
        *DIVERTED.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// Writes the `--verbose` trace of a request: its line, its headers (the key redacted) and its
/// body (secrets hidden).
pub fn request(opts: &HttpOptions, method: &Method, url: &Url, body: Option<&[u8]>) {
    trace_line!("> {method} {url}");
    if let Some(key) = &opts.bearer {
        trace_line!("> authorization: Bearer {}", redact(key));
    }
    for (name, value) in &opts.fixed_headers {
        trace_line!("> {}: {value}", name.to_ascii_lowercase());
    }
    trace_line!("> accept: application/json");
    trace_line!("> user-agent: tunnelctl/{}", env!("CARGO_PKG_VERSION"));
    if let Some(b) = body {
        trace_line!("> content-type: application/json");
        trace_line!("> {}", escape(&body_text(b, opts.secret_fields)));
    }
}

/// Writes the `--verbose` trace of a request sent as it was captured: its line, its headers
/// and its body as text (escaped; any secret this run knows redacted).
pub fn message(method: &Method, url: &Url, headers: &reqwest::header::HeaderMap, body: &[u8]) {
    trace_line!("> {method} {url}");
    for (name, value) in headers {
        let value = String::from_utf8_lossy(value.as_bytes());
        trace_line!(
            "> {name}: {}",
            escape(&crate::secrets::redact_known(&value))
        );
    }
    if !body.is_empty() {
        trace_line!("> {}", escape(&body_text(body, &[])));
    }
}

/// Writes the `--verbose` trace of an answer's status line and headers.
pub fn response_head(status: u16, headers: &reqwest::header::HeaderMap) {
    trace_line!("< {}", status_text(status));
    for (name, value) in headers {
        trace_line!(
            "< {}: {}",
            name,
            escape(&String::from_utf8_lossy(value.as_bytes()))
        );
    }
}

/// Writes the `--verbose` trace of an answer's body: its first 4000 characters, secrets
/// hidden before the cut.
pub fn response_body(body: &[u8], secret_fields: &[&str]) {
    if body.is_empty() {
        return;
    }
    let text = body_text(body, secret_fields);
    let shown: String = text.chars().take(4000).collect();
    trace_line!("< {}", escape(&shown));
    if shown.len() < text.len() {
        trace_line!("< … ({} bytes in all)", body.len());
    }
}

/// A request or response body for the `--verbose` trace, secrets hidden: in JSON, secret
/// fields masked and known secrets redacted inside strings (after decoding, so a secret
/// spelled with `\u` escapes is found too); in any other text, known secrets redacted. The
/// text is redacted whole, before the trace cuts it, so no cut can leave part of a secret.
/// A JSON body with nothing to hide is shown as the server wrote it.
pub(super) fn body_text(body: &[u8], secret_fields: &[&str]) -> String {
    if let Ok(mut v) = serde_json::from_slice::<Value>(body) {
        let original = v.clone();
        mask_secret_fields(&mut v, secret_fields);
        if v != original {
            return v.to_string();
        }
    }
    crate::secrets::redact_known(&String::from_utf8_lossy(body)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::failure::decode_error;

    const TEST_SECRETS: &[&str] = &["aws_secret_access_key"];

    #[test]
    fn secrets_are_hidden_in_traces_and_error_bodies() {
        crate::secrets::register_secret("sk_http_unit_0123456789abcdef");
        let traced = body_text(
            br#"{"a":{"AWS_Secret_Access_Key":"zzz"},"b":"Bearer sk_http_unit_0123456789abcdef"}"#,
            TEST_SECRETS,
        );
        assert!(
            !traced.contains("zzz") && !traced.contains("unit_0123"),
            "{traced}"
        );
        assert_eq!(
            body_text(br#"{"plain": 1}"#, TEST_SECRETS),
            r#"{"plain": 1}"#
        );
        let long = format!(
            r#"{{"msg":"{}sk_http_unit_0123456789abcdef"}}"#,
            "x".repeat(290)
        );
        let f = decode_error("GET", "/x", 401, None, long.as_bytes(), TEST_SECRETS);
        assert!(!f.to_string().contains("unit_0"), "{f}");
        let d = decode_error(
            "GET",
            "/x",
            400,
            None,
            br#"{"msg":"m","details":{"aws_secret_access_key":"zzz","\u001b[2J":"v"}}"#,
            TEST_SECRETS,
        );
        assert_eq!(d.detail.as_deref(), Some("\\x1b[2J: v"));
    }
}
