//! The `--verbose` trace on stderr: each request and answer, with the API key redacted,
//! secret fields masked and every server string escaped.

use reqwest::Method;
use serde_json::Value;
use url::Url;

use super::HttpOptions;
use crate::error::status_text;
use crate::escape::escape;
use crate::secrets::{mask_secret_fields, redact};

/// Writes the `--verbose` trace of a request: its line, its headers (the key redacted) and its
/// body (secrets hidden).
pub fn request(opts: &HttpOptions, method: &Method, url: &Url, body: Option<&[u8]>) {
    eprintln!("> {method} {url}");
    if let Some(key) = &opts.bearer {
        eprintln!("> authorization: Bearer {}", redact(key));
    }
    for (name, value) in &opts.fixed_headers {
        eprintln!("> {}: {value}", name.to_ascii_lowercase());
    }
    eprintln!("> accept: application/json");
    eprintln!("> user-agent: tunnelctl/{}", env!("CARGO_PKG_VERSION"));
    if let Some(b) = body {
        eprintln!("> content-type: application/json");
        eprintln!("> {}", escape(&body_text(b, opts.secret_fields)));
    }
}

/// Writes the `--verbose` trace of a request sent as it was captured: its line, its headers
/// and its body as text (escaped; any secret this run knows redacted).
pub fn message(method: &Method, url: &Url, headers: &reqwest::header::HeaderMap, body: &[u8]) {
    eprintln!("> {method} {url}");
    for (name, value) in headers {
        let value = String::from_utf8_lossy(value.as_bytes());
        eprintln!(
            "> {name}: {}",
            escape(&crate::secrets::redact_known(&value))
        );
    }
    if !body.is_empty() {
        eprintln!("> {}", escape(&body_text(body, &[])));
    }
}

/// Writes the `--verbose` trace of an answer's status line and headers.
pub fn response_head(status: u16, headers: &reqwest::header::HeaderMap) {
    eprintln!("< {}", status_text(status));
    for (name, value) in headers {
        eprintln!(
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
    eprintln!("< {}", escape(&shown));
    if shown.len() < text.len() {
        eprintln!("< … ({} bytes in all)", body.len());
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
