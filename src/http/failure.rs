//! What went wrong, in words: error answers of any shape turned into one [`ApiFailure`], and
//! transport errors into a short cause; answers that are not HTTP told apart from a network
//! that failed.

use reqwest::Method;
use serde_json::Value;
use url::Url;

use crate::error::{ApiFailure, Error};
use crate::escape::escape;
use crate::secrets::{is_secret, mask_secret_fields};

/// An answer larger than the bound, refused unread.
pub(super) fn too_large(method: &Method, url: &Url, max: usize) -> Error {
    Error::BadResponse(format!(
        "{method} {}: the answer is larger than {} MiB; refusing to read it",
        url.path(),
        max / (1024 * 1024)
    ))
}

/// Did the server answer with something that is not HTTP (a head too large, a malformed
/// status line or header)? The server was reached: that is a bad answer, not a network fault,
/// and it is not retried.
pub(super) fn is_bad_answer(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(s) = source {
        if let Some(h) = s.downcast_ref::<hyper::Error>() {
            return h.is_parse() || h.is_parse_status();
        }
        source = s.source();
    }
    false
}

/// Did a TLS handshake meet a server that speaks plain HTTP (an `https://` URL given for a
/// plain-HTTP port)? Its first answer is no TLS record: rustls calls it a corrupt message of
/// type `InvalidContentType`, which says nothing to a person.
pub(super) fn speaks_plain_http(err: &(dyn std::error::Error + 'static)) -> bool {
    let plain = |e: &(dyn std::error::Error + 'static)| {
        matches!(
            e.downcast_ref::<rustls::Error>(),
            Some(rustls::Error::InvalidMessage(
                rustls::InvalidMessage::InvalidContentType
            ))
        )
    };
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(s) = source {
        // An I/O error holds the TLS error it carries without naming it as its source.
        let inner = s
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .map(|e| e as &(dyn std::error::Error + 'static));
        if plain(s) || inner.is_some_and(|e| plain(e) || speaks_plain_http(e)) {
            return true;
        }
        source = s.source();
    }
    false
}

/// The innermost cause of a transport error, as a short phrase ("connection refused").
pub(super) fn root_cause(err: &reqwest::Error) -> String {
    cause_of(err, err.is_timeout())
}

/// The innermost cause of any transport error (`timed_out` when a time limit ended it), as a
/// short phrase.
pub(super) fn cause_of(err: &(dyn std::error::Error + 'static), timed_out: bool) -> String {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    let mut last = err.to_string();
    while let Some(s) = source {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            return match io.kind() {
                std::io::ErrorKind::ConnectionRefused => "connection refused".into(),
                std::io::ErrorKind::ConnectionReset => "connection reset by the server".into(),
                std::io::ErrorKind::TimedOut => "timed out".into(),
                _ => io.to_string(),
            };
        }
        last = s.to_string();
        source = s.source();
    }
    if timed_out {
        return "timed out".into();
    }
    last
}

/// A transport error in the terms its message needs, whichever client met it.
pub(super) struct Broken {
    /// The server answered, but not in HTTP.
    pub bad_answer: bool,
    /// A time limit ended it.
    pub timeout: bool,
    /// An `https://` URL met a server that speaks plain HTTP.
    pub plain_http: bool,
    /// Its innermost cause, as a short phrase.
    pub cause: String,
}

impl From<&reqwest::Error> for Broken {
    fn from(err: &reqwest::Error) -> Broken {
        Broken {
            bad_answer: is_bad_answer(err),
            timeout: err.is_timeout(),
            plain_http: speaks_plain_http(err),
            cause: root_cause(err),
        }
    }
}

/// Turns an error answer of any shape (JSON with or without `error_code`, text, HTML, empty)
/// into one [`ApiFailure`]. Every server-provided string is escaped for the terminal.
pub fn decode_error(
    method: &str,
    path: &str,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
    secret_fields: &[&str],
) -> ApiFailure {
    let mut failure = ApiFailure {
        method: method.to_string(),
        path: path.to_string(),
        status,
        code: None,
        message: None,
        detail: None,
        operation_id: None,
        hint: None,
    };
    // Known secrets go before anything is cut to length, so that no cut leaves part of one.
    let lossy = String::from_utf8_lossy(body);
    let text = crate::secrets::redact_known(&lossy);
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return failure;
    }
    if let Ok(Value::Object(mut obj)) = serde_json::from_str::<Value>(trimmed) {
        failure.code = obj.get("error_code").and_then(scalar_text);
        failure.message = ["msg", "message", "error", "error_description"]
            .iter()
            .find_map(|k| obj.get(*k).and_then(scalar_text));
        if let Some(Value::Object(details)) = obj.get("details") {
            failure.operation_id = details.get("operation_id").and_then(scalar_text);
            let rest: Vec<String> = details
                .iter()
                .filter(|(k, _)| k.as_str() != "operation_id")
                .filter(|(k, _)| !is_secret(k, secret_fields))
                .filter_map(|(k, v)| scalar_text(v).map(|t| format!("{}: {t}", escape(k))))
                .collect();
            if !rest.is_empty() {
                failure.detail = Some(rest.join(", "));
            }
        }
        if failure.message.is_none() {
            obj.values_mut()
                .for_each(|v| mask_secret_fields(v, secret_fields));
            let masked = Value::Object(obj).to_string();
            failure.message = Some(escape(&shorten(&masked, 300)));
        }
        return failure;
    }
    let is_html = content_type.is_some_and(|c| c.contains("html")) || trimmed.starts_with('<');
    let summary = if is_html {
        html_summary(trimmed)
    } else {
        first_line(trimmed)
    };
    if !summary.is_empty() {
        failure.message = Some(escape(&shorten(&summary, 300)));
    }
    failure
}

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(escape(s)),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn first_line(text: &str) -> String {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .to_string()
}

/// The `<title>` of an HTML page, or its text with tags removed.
fn html_summary(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    if let (Some(start), Some(end)) = (lower.find("<title>"), lower.find("</title>")) {
        if start + 7 <= end {
            let title = html[start + 7..end].trim();
            if !title.is_empty() {
                return title.to_string();
            }
        }
    }
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST_SECRETS: &[&str] = &["aws_secret_access_key"];

    #[test]
    fn error_bodies_of_every_shape() {
        let decode = |status, content_type, body: &[u8]| {
            decode_error("GET", "/x", status, content_type, body, TEST_SECRETS)
        };
        let json = br#"{"error_code":"ERR_1","status_code":400,"msg":"bad","details":{"operation_id":"op_9"}}"#;
        let j = decode(400, Some("application/json"), json);
        assert_eq!(j.code.as_deref(), Some("ERR_1"));
        assert_eq!(j.message.as_deref(), Some("bad"));
        assert_eq!(j.operation_id.as_deref(), Some("op_9"));
        let agent = br#"{"error_code":100,"msg":"tunnel not found","details":{"name":"t1"}}"#;
        let n = decode(404, None, agent);
        assert_eq!(n.code.as_deref(), Some("100"));
        assert_eq!(n.detail.as_deref(), Some("name: t1"));
        let html = b"<html><head><title>502 Bad Gateway</title></head></html>";
        let h = decode(502, Some("text/html"), html);
        assert_eq!(h.message.as_deref(), Some("502 Bad Gateway"));
        let t = decode(500, Some("text/plain"), b"\n oops\nmore");
        assert_eq!(t.message.as_deref(), Some("oops"));
        assert_eq!(decode(500, None, b"").message, None);
        let esc = decode(500, None, b"\x1b[2Jboom");
        assert_eq!(esc.message.as_deref(), Some("\\x1b[2Jboom"));
    }
}
