//! The answer to a request `tunnelctl` sends itself shows header names as servers write them:
//! registered spellings (`ETag`) exactly, others in title case (the HTTP layer keeps no record
//! of the case a server used; see `title_case` in `src/http/raw.rs`).

use crate::common::hostile::{Hostile, Reply};
use crate::common::Env;

#[test]
fn a_sent_requests_answer_shows_registered_header_names_as_spelled() {
    let env = Env::new();
    let upstream = Hostile::start(|_| {
        Reply::Raw(
            b"HTTP/1.1 200 OK\r\nETag: x\r\nX-Request-ID: y\r\nWWW-Authenticate: Basic\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                .to_vec(),
        )
    });
    let file = env.dir.path().join("get.http");
    std::fs::write(&file, "GET /thing HTTP/1.1\r\nHost: example.test\r\n\r\n").unwrap();
    let out = env.local(&[
        "requests",
        "send",
        file.to_str().unwrap(),
        "--to",
        &upstream.url(),
    ]);
    out.ok()
        .prints("ETag: x")
        .prints("WWW-Authenticate: Basic")
        .prints("X-Request-Id: y");
    assert!(!out.stdout.contains("Etag"), "{}", out.stdout);
}
