//! A captured request as an equivalent `curl` command line, safe to print and to paste.
//!
//! Everything in a captured request was chosen by whoever sent it, so the command is built to
//! do exactly one thing, whatever the visitor wrote:
//!
//! - it sends one request to the captured `Host`, with the captured path: an absolute-form
//!   request target (`GET http://elsewhere/x`) gives only its path, and a `Host` that is not a
//!   plain `host[:port]` (`evil.com/x?`, `a@b`) is refused rather than pasted into the URL;
//! - curl reads no file and expands nothing: URL globbing is off (`-g`), dot segments are
//!   sent as they are (`--path-as-is`), the body goes with `--data-raw` (an `@` in it is just
//!   a character) or, for bytes a shell word cannot hold, from a `printf` of escapes on stdin
//!   (`--data-binary @-`), and a header name that is not an HTTP token (`@/etc/passwd`) is
//!   refused;
//! - the text itself is safe on a terminal: a word holding a control or invisible character
//!   is written in bash's `$'…'` form with `\xHH` escapes, never raw.

use super::exchange::Exchange;
use super::message::{is_token, more_headers_note, Message};
use crate::error::{Error, Result};
use crate::escape::{escape, is_dangerous};

/// Headers curl sets itself from the command line, or that no longer hold for a re-sent body.
const SKIPPED: &[&str] = &["host", "content-length", "transfer-encoding", "connection"];

/// Bodies up to this size travel as a `--data-raw` argument; larger ones through `printf`, a
/// shell builtin, since Linux refuses a single program argument over 128 KiB.
const LARGEST_ARGUMENT: usize = 64 * 1024;

/// Quotes a word for a shell: bare when it is made of harmless characters, in single quotes
/// otherwise, and in bash's `$'…'` form when it holds a control or invisible character, so
/// that nothing reaches the terminal raw.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=@%+,".contains(&b))
    {
        return s.to_string();
    }
    if !s.chars().any(is_dangerous) {
        return format!("'{}'", s.replace('\'', "'\\''"));
    }
    let mut out = String::with_capacity(s.len() + 8);
    out.push_str("$'");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            c if is_dangerous(c) => {
                // Bytes, not `\u`: bash turns `\u` into text by the locale, bytes are exact.
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
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

/// Is `host` a plain `host[:port]`: a DNS name or IPv4 address, or an IPv6 address in
/// brackets, then an optional port? Nothing that a URL parser could read as user info, a
/// path, a query or another authority.
pub fn is_plain_host(host: &str) -> bool {
    let (name_ok, port) = if let Some(rest) = host.strip_prefix('[') {
        let Some((v6, after)) = rest.split_once(']') else {
            return false;
        };
        let v6_ok = !v6.is_empty()
            && v6
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || b":.".contains(&b));
        let port = match after {
            "" => None,
            p => match p.strip_prefix(':') {
                Some(port) => Some(port),
                None => return false,
            },
        };
        (v6_ok, port)
    } else {
        let (name, port) = match host.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (host, None),
        };
        let name_ok = !name.is_empty()
            && name.len() <= 253
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b));
        (name_ok, port)
    };
    let port_ok =
        port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()));
    name_ok && port_ok
}

/// The path and query of a request target: itself in origin form (`/x?y`), the part after
/// the authority in absolute form (`http://elsewhere/x?y` gives `/x?y`). `None` for the
/// other forms (`*`, `host:port`), which name no path.
pub fn path_of(target: &str) -> Option<String> {
    if target.starts_with('/') {
        return Some(target.to_string());
    }
    let (scheme, rest) = target.split_once("://")?;
    if scheme.is_empty()
        || !scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return None;
    }
    match rest.find(['/', '?']) {
        Some(i) if rest[i..].starts_with('/') => Some(rest[i..].to_string()),
        Some(i) => Some(format!("/{}", &rest[i..])),
        None => Some("/".to_string()),
    }
}

/// The scheme the visitor used: from `X-Forwarded-Proto` (set by the agent), else http.
fn scheme_of(msg: &Message) -> String {
    msg.header("x-forwarded-proto")
        .map(|p| {
            p.split(',')
                .next()
                .unwrap_or("http")
                .trim()
                .to_ascii_lowercase()
        })
        .filter(|p| p == "http" || p == "https")
        .unwrap_or_else(|| "http".to_string())
}

/// The URL the request was sent to: the scheme, the `Host` header (`localhost` when there is
/// none), and the path of the request target. An error when the `Host` is not a plain
/// `host[:port]` or the target names no path.
pub fn request_url(msg: &Message) -> std::result::Result<String, String> {
    let target = msg.target().unwrap_or("/");
    let path = path_of(target).ok_or_else(|| {
        format!(
            "the request target '{}' names no path (not '/…' nor an absolute URL)",
            escape(target)
        )
    })?;
    let host = msg.header("host").unwrap_or("localhost");
    if !is_plain_host(host) {
        return Err(format!(
            "the captured Host header '{}' is not a plain host[:port]",
            escape(host)
        ));
    }
    Ok(format!("{}://{host}{path}", scheme_of(msg)))
}

/// Does curl send this path exactly as written in a URL? It cuts a `#…` fragment, refuses
/// spaces and percent-encodes other bytes; such paths go in `--request-target` instead.
fn url_keeps_path(path: &str) -> bool {
    path.bytes()
        .all(|b| (0x21..=0x7e).contains(&b) && b != b'#')
}

fn refuse(why: String) -> Error {
    Error::BadResponse(format!(
        "cannot write a safe curl command for this request: {why}"
    ))
}

/// The curl command line that sends the captured request again, or an error saying why no
/// command could send it safely.
pub fn command(captured: &Exchange) -> Result<String> {
    let msg = captured.request_message();
    let method = msg.method();
    let method = if method.is_empty() { "GET" } else { method };
    if !is_token(method) {
        return Err(refuse(format!(
            "the method '{}' is not an HTTP token",
            escape(method)
        )));
    }
    let url = request_url(&msg).map_err(refuse)?;
    let mut parts = vec!["curl".to_string(), "-g".into(), "--path-as-is".into()];
    if method == "HEAD" {
        // `-X HEAD` would wait for a body that never comes.
        parts.push("--head".into());
    } else if method != "GET" || !msg.body.is_empty() {
        parts.push("-X".into());
        parts.push(shell_quote(method));
    }
    let target = msg.target().unwrap_or("/");
    match path_of(target) {
        Some(path) if !url_keeps_path(&path) => {
            // The URL gives the host; the exact target bytes go on the request line.
            let origin_end = url.len() - path.len();
            parts.push(shell_quote(&format!("{}/", &url[..origin_end])));
            parts.push("--request-target".into());
            parts.push(shell_quote(&path));
        }
        _ => parts.push(shell_quote(&url)),
    }
    let mut has_content_type = false;
    for (k, v) in &msg.headers {
        if SKIPPED.iter().any(|s| k.eq_ignore_ascii_case(s)) {
            continue;
        }
        if !is_token(k) {
            return Err(refuse(format!(
                "the header name '{}' is not an HTTP token",
                escape(k)
            )));
        }
        if v.contains(['\r', '\n', '\0']) {
            return Err(refuse(format!(
                "the value of header {k} holds a line break or NUL"
            )));
        }
        has_content_type |= k.eq_ignore_ascii_case("content-type");
        parts.push("-H".into());
        // `Name;` is curl's way to send a header with an empty value (`Name:` removes it).
        let line = if v.is_empty() {
            format!("{k};")
        } else {
            format!("{k}: {v}")
        };
        parts.push(shell_quote(&line));
    }
    // Header lines past the budget were never kept: say so where the command is read.
    let left_out = match msg.more_headers {
        0 => String::new(),
        n => format!("# {} left out of this command\n", more_headers_note(n)),
    };
    if msg.body.is_empty() {
        return Ok(format!("{left_out}{}", parts.join(" ")));
    }
    if !has_content_type {
        // curl would add `application/x-www-form-urlencoded` to a body sent without one.
        parts.push("-H".into());
        parts.push("'Content-Type:'".into());
    }
    match std::str::from_utf8(&msg.body) {
        Ok(text) if !text.contains('\0') && text.len() <= LARGEST_ARGUMENT => {
            parts.push("--data-raw".into());
            parts.push(shell_quote(text));
            Ok(format!("{left_out}{}", parts.join(" ")))
        }
        _ => {
            // NUL cannot be in a program argument, and invalid UTF-8 or a long body is best
            // spelled as escapes: printf writes the exact bytes to curl's stdin (after `--`, so
            // that a body starting with `-` is not read as an option).
            parts.push("--data-binary".into());
            parts.push("@-".into());
            Ok(format!(
                "{left_out}printf -- '{}' | {}",
                printf_bytes(&msg.body),
                parts.join(" ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::message::encode_base64;
    use serde_json::json;

    fn captured(raw: &[u8]) -> Exchange {
        let text = json!({"request": {"raw": encode_base64(raw)}}).to_string();
        Exchange::from_json(&text).unwrap()
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("abc"), "abc");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("a\x1b[2J'\\"), "$'a\\x1b[2J\\'\\\\'");
        assert_eq!(shell_quote("x\u{9b}y"), "$'x\\xc2\\x9by'");
        assert_eq!(shell_quote("a\u{200B}"), "$'a\\xe2\\x80\\x8b'");
        assert_eq!(printf_bytes(b"a%\x00'\n"), "a%%\\000'\\''\\012");
    }

    #[test]
    fn plain_hosts_only() {
        for ok in [
            "example.com",
            "127.0.0.1:8080",
            "[::1]:80",
            "[::1]",
            "a-b.c_d",
        ] {
            assert!(is_plain_host(ok), "{ok}");
        }
        for bad in [
            "evil.com/x?",
            "a@b",
            "a b",
            "x:80:90",
            "x:",
            "x:123456",
            "",
            "[::1]x",
            "h\x1b",
            "x#y",
            "%41",
        ] {
            assert!(!is_plain_host(bad), "{bad:?}");
        }
    }

    #[test]
    fn absolute_targets_give_their_path_only() {
        let c =
            captured(b"GET http://other.example:99/x?y=1 HTTP/1.1\r\nHost: 127.0.0.1:5\r\n\r\n");
        let line = command(&c).unwrap();
        assert!(line.contains("http://127.0.0.1:5/x?y=1"), "{line}");
        assert!(!line.contains("other.example"), "{line}");
        assert_eq!(path_of("https://h"), Some("/".into()));
        assert_eq!(path_of("http://h?q"), Some("/?q".into()));
        assert_eq!(path_of("*"), None);
    }

    #[test]
    fn hostile_parts_are_refused() {
        for raw in [
            &b"GET / HTTP/1.1\r\nHost: evil.com/x?\r\n\r\n"[..],
            b"GET / HTTP/1.1\r\nHost: a@b\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: x\r\n@/etc/passwd\r\n\r\n",
            b"G\x1bT / HTTP/1.1\r\nHost: x\r\n\r\n",
            b"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
        ] {
            assert!(command(&captured(raw)).is_err(), "{raw:?}");
        }
    }

    #[test]
    fn bodies_never_name_a_file() {
        let line = command(&captured(
            b"POST /h HTTP/1.1\r\nHost: x\r\n\r\n@/home/u/.aws/credentials",
        ))
        .unwrap();
        assert!(
            line.ends_with("--data-raw @/home/u/.aws/credentials"),
            "{line}"
        );
        assert!(line.contains("'Content-Type:'"), "{line}");
        let bin = command(&captured(b"POST /h HTTP/1.1\r\nHost: x\r\n\r\n\x00\xff")).unwrap();
        assert!(bin.starts_with("printf -- '\\000\\377' | curl"), "{bin}");
        assert!(bin.ends_with("--data-binary @-"), "{bin}");
    }
}
