//! The header names of an answer as the server wrote them, read back from the bytes of its
//! head: the HTTP layer (hyper, `http::HeaderMap`) keeps names only in lower case and groups
//! a repeated name together, so the bytes are the one record of the case and order a server
//! used.

use hyper::HeaderMap;

use super::MAX_HEADER_LINES;

/// The headers of the final answer in `recorded` (the first bytes the server sent, interim
/// `1xx` heads skipped), names and order as written, completed from `parsed` (what the HTTP
/// layer read and accepted) with anything the recording left out: a head longer than the
/// recording's bound keeps the names that fit as written, the rest in lower case. When the
/// bytes cannot be read back, the answer is `parsed` as it is.
pub fn as_written(recorded: &[u8], complete: bool, parsed: &HeaderMap) -> Vec<(String, String)> {
    let written = final_head(recorded, complete).unwrap_or_default();
    let mut owed: Vec<(String, usize)> = Vec::new();
    for (name, _) in &written {
        let lower = name.to_ascii_lowercase();
        match owed.iter_mut().find(|(n, _)| *n == lower) {
            Some((_, count)) => *count += 1,
            None => owed.push((lower, 1)),
        }
    }
    let mut out = written;
    for (name, value) in parsed {
        if let Some((_, count)) = owed.iter_mut().find(|(n, _)| n == name.as_str()) {
            if *count > 0 {
                *count -= 1;
                continue;
            }
        }
        out.push((name.as_str().to_string(), lossy(value.as_bytes())));
    }
    out
}

/// The headers of the first head that is not an interim `1xx` one (`101` is final: it ends
/// HTTP on the connection). `complete` says the recording holds the whole head; when it does
/// not, the head is read up to its last whole line.
fn final_head(recorded: &[u8], complete: bool) -> Option<Vec<(String, String)>> {
    let mut rest = recorded;
    loop {
        let mut slots = [httparse::EMPTY_HEADER; MAX_HEADER_LINES];
        let mut head = httparse::Response::new(&mut slots);
        match head.parse(rest).ok()? {
            httparse::Status::Complete(len) => {
                let code = head.code?;
                if (100..200).contains(&code) && code != 101 {
                    rest = rest.get(len..)?;
                    continue;
                }
                return Some(pairs(head.headers));
            }
            httparse::Status::Partial if !complete => return cut_head(rest),
            httparse::Status::Partial => return None,
        }
    }
}

/// A head cut by the recording's bound, read up to its last whole line.
fn cut_head(partial: &[u8]) -> Option<Vec<(String, String)>> {
    let end = partial.iter().rposition(|&b| b == b'\n')? + 1;
    let mut whole = partial[..end].to_vec();
    whole.extend_from_slice(b"\r\n");
    let mut slots = [httparse::EMPTY_HEADER; MAX_HEADER_LINES];
    let mut head = httparse::Response::new(&mut slots);
    match head.parse(&whole).ok()? {
        httparse::Status::Complete(_) => Some(pairs(head.headers)),
        httparse::Status::Partial => None,
    }
}

fn pairs(headers: &[httparse::Header<'_>]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|h| (h.name.to_string(), lossy(h.value)))
        .collect()
}

/// A header value as text; bytes that are not UTF-8 are shown lossily.
fn lossy(value: &[u8]) -> String {
    String::from_utf8_lossy(value).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::{HeaderName, HeaderValue};

    fn map(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut m = HeaderMap::new();
        for (k, v) in pairs {
            m.append(
                HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        m
    }

    fn names(h: &[(String, String)]) -> Vec<&str> {
        h.iter().map(|(k, _)| k.as_str()).collect()
    }

    #[test]
    fn names_keep_their_case_and_order() {
        let raw = b"HTTP/1.1 200 OK\r\nX-Request-ID: 1\r\nSet-Cookie: a=1\r\nx-lower: 2\r\nSet-Cookie: b=2\r\nETag: \"e\"\r\nContent-Length: 2\r\n\r\nok";
        let parsed = map(&[
            ("x-request-id", "1"),
            ("set-cookie", "a=1"),
            ("set-cookie", "b=2"),
            ("x-lower", "2"),
            ("etag", "\"e\""),
            ("content-length", "2"),
        ]);
        let got = as_written(raw, true, &parsed);
        assert_eq!(
            names(&got),
            [
                "X-Request-ID",
                "Set-Cookie",
                "x-lower",
                "Set-Cookie",
                "ETag",
                "Content-Length"
            ]
        );
        assert_eq!(got[3].1, "b=2");
    }

    #[test]
    fn interim_heads_are_skipped() {
        let raw = b"HTTP/1.1 100 Continue\r\nX-Early: 1\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nServer: s\r\n\r\n";
        let got = as_written(raw, true, &map(&[("server", "s")]));
        assert_eq!(got, [("Server".to_string(), "s".to_string())]);
    }

    #[test]
    fn a_head_past_the_bound_keeps_what_fits_and_the_rest_in_lower_case() {
        let raw = b"HTTP/1.1 200 OK\r\nX-One: 1\r\nX-Two: 2\r\nX-Thr";
        let parsed = map(&[("x-one", "1"), ("x-two", "2"), ("x-three", "3")]);
        let got = as_written(raw, false, &parsed);
        assert_eq!(names(&got), ["X-One", "X-Two", "x-three"]);
    }

    #[test]
    fn bytes_that_cannot_be_read_back_leave_the_parsed_headers() {
        let parsed = map(&[("server", "s"), ("x-a", "1")]);
        for raw in [
            &b""[..],
            b"garbage\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nServer: s\r\n",
        ] {
            assert_eq!(names(&as_written(raw, true, &parsed)), ["server", "x-a"]);
        }
        let lossy = as_written(b"HTTP/1.1 200 OK\r\nX-B: \xff\r\n\r\n", true, &map(&[]));
        assert_eq!(lossy[0].1, "\u{fffd}");
    }
}
