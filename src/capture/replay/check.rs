//! What is checked of a request before `tunnelctl` sends it again (`send`, `replay`, the
//! inspector's replay): that it goes only where the user asked, and that a request read from a
//! file is whole.
//!
//! Where a request goes is the user's choice (`--to`, or a tunnel's upstream), never what a
//! visitor or a file wrote: only the path and query of its target are kept. So the target must
//! be a path (origin form, `/hooks?n=1`) or an absolute `http://` or `https://` URL, whose
//! host is dropped; anything else (another scheme, an opaque URI such as `javascript:` or
//! `data:`, the `*` of `OPTIONS *`, nothing at all) is refused rather than made into a path.

use crate::capture::message::Message;

/// Where a request may go is read from its target by the message model, which parses request
/// lines with it; it is the first of the checks here.
pub use crate::capture::message::origin_form;

/// Is `msg`'s target a path, as every request `tunnelctl` sends must be by now?
pub fn goes_only_where_asked(msg: &Message) -> bool {
    msg.target().is_some_and(|t| t.starts_with('/'))
}

/// When the body of a request file is shorter than its `Content-Length` says (the file was
/// cut short, by a failed write say): `(declared, present)`. `msg` is `bytes` as
/// [`Message::parse_request`] read them (which sets `Content-Length` from the body it found);
/// a chunked body carries its own framing and is never cut short unnoticed.
pub fn cut_short(bytes: &[u8], msg: &Message) -> Option<(usize, usize)> {
    let start = bytes.iter().position(|b| *b != b'\r' && *b != b'\n')?;
    let as_written = Message::lenient(&bytes[start..]);
    if as_written.header("transfer-encoding").is_some() {
        return None;
    }
    let declared: usize = as_written.header("content-length")?.trim().parse().ok()?;
    (declared > msg.body.len()).then_some((declared, msg.body.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_http_urls_are_kept_as_their_path() {
        for (target, want) in [
            ("/a?x=1", "/a?x=1"),
            ("http://example.test/a?x=1", "/a?x=1"),
            ("https://example.test:8443/b", "/b"),
            ("http://example.test", "/"),
            ("https://example.test/p#frag", "/p"),
        ] {
            assert_eq!(origin_form(target).unwrap(), want, "{target}");
        }
    }

    #[test]
    fn everything_else_is_refused() {
        for bad in [
            "",
            "*",
            "javascript:alert(1)",
            "data:text/plain,hello",
            "data:,x",
            "mailto:someone@example.test",
            "ftp://example.test/x",
            "file:///etc/passwd",
            "hooks",
        ] {
            let why = origin_form(bad).unwrap_err();
            assert!(why.contains("request target"), "{bad}: {why}");
        }
    }

    #[test]
    fn a_body_shorter_than_its_length_is_found() {
        let cut = b"POST /h HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"a\":";
        let msg = Message::parse_request(cut).unwrap();
        assert_eq!(cut_short(cut, &msg), Some((100, 5)));
        for whole in [
            &b"POST /h HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi"[..],
            b"POST /h HTTP/1.1\nContent-Length: 2\n\nhi\n",
            b"POST /h HTTP/1.1\r\nContent-Length: 2\r\n\r\nhello",
            b"GET /h HTTP/1.1\r\n\r\n",
            b"POST /h HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n",
        ] {
            let msg = Message::parse_request(whole).unwrap();
            assert_eq!(cut_short(whole, &msg), None);
        }
    }
}
