//! The one reader of request files (`NAME.http`, what `save` and `get --raw` write), for
//! `send`, `diff` and `test`, and of the other files a fixture is made of (its expectation
//! file, a sidecar body): whole, bounded, never waiting.
//!
//! A file is opened without blocking and must be a regular file, checked on the file opened
//! (not by a look at the path beforehand): a FIFO with no writer would hold the command, and a
//! device would feed it without end. A request whose body is shorter than its
//! `Content-Length` (a file cut short by a failed write) is refused rather than read as a
//! smaller request ([`check::cut_short`]).

use std::io::Read;
use std::path::Path;

use super::message::Message;
use super::replay::check;
use crate::error::{Error, Result};
use crate::escape::escape_path;

/// The largest file read: a captured request's body can be an upload.
pub const MAX_FILE: u64 = crate::http::DEFAULT_MAX_BODY as u64;

/// Reads the file at `path` (`what` names it in messages: "request file"), bounded by
/// [`MAX_FILE`]; anything but a regular file is refused.
pub fn read_bytes(path: &Path, what: &str) -> Result<Vec<u8>> {
    let cannot = |e: std::io::Error| {
        let why = match e.kind() {
            std::io::ErrorKind::NotFound => "there is no such file".to_string(),
            _ => e.to_string(),
        };
        Error::usage(format!(
            "cannot read the {what} {}: {why}",
            escape_path(path)
        ))
    };
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        open.custom_flags(libc::O_NONBLOCK);
    }
    let file = open.open(path).map_err(cannot)?;
    if !file.metadata().map_err(cannot)?.is_file() {
        return Err(Error::usage(format!(
            "the {what} {} is not a regular file",
            escape_path(path)
        )));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(Error::usage(format!(
            "the {what} {} is larger than {MAX_FILE} bytes",
            escape_path(path)
        )));
    }
    Ok(bytes)
}

/// A request read from the bytes of a request file, or why it cannot be: not an HTTP request,
/// or a body shorter than its `Content-Length` says.
pub fn parse(bytes: &[u8]) -> std::result::Result<Message, String> {
    let msg = Message::parse_request(bytes).map_err(|why| format!("not an HTTP request: {why}"))?;
    if let Some((declared, present)) = check::cut_short(bytes, &msg) {
        return Err(format!(
            "its body is {present} bytes, shorter than its Content-Length of {declared}: \
             the file was cut short"
        ));
    }
    Ok(msg)
}

/// Reads the request file at `path`; a refusal is a usage error (exit 2) naming the file.
pub fn read(path: &Path) -> Result<Message> {
    let bytes = read_bytes(path, "request file")?;
    parse(&bytes).map_err(|why| Error::usage(format!("{}: {why}", escape_path(path))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_body_is_refused_and_a_whole_one_read() {
        let cut = parse(b"POST /h HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"a\":").unwrap_err();
        assert!(
            cut.contains("5 bytes, shorter than its Content-Length of 100"),
            "{cut}"
        );
        let whole = parse(b"POST /h HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi").unwrap();
        assert_eq!(whole.body, b"hi");
        assert!(parse(b"nonsense\r\n")
            .unwrap_err()
            .starts_with("not an HTTP request"));
    }
}
