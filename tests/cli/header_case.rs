//! The answer to a request `tunnelctl` sends itself (a replay with a change, `requests send`)
//! shows each header name exactly as the server wrote it, in the order it wrote them, as
//! captures show theirs: not lower-cased, not guessed into title case, repeated names not
//! grouped together.

use base64::Engine;

use crate::common::hostile::{Hostile, Reply};
use crate::common::{Env, Out};
use crate::replay::one_webhook;

/// Header lines in the case no HTTP library would guess, and a repeated name split by others.
const WRITTEN: &[(&str, &str)] = &[
    ("X-Request-ID", "1"),
    ("x-lower", "2"),
    ("Server", "s"),
    ("Set-Cookie", "a=1"),
    ("ETag", "\"e\""),
    ("Set-Cookie", "b=2"),
    ("WWW-Authenticate", "Basic"),
];

/// An upstream answering every request with [`WRITTEN`] (then its own `Content-Length` and
/// `Connection`), after an interim `103` head whose header must not show.
fn odd_cased_upstream() -> Hostile {
    Hostile::start(|_| {
        let mut raw =
            b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>\r\n\r\nHTTP/1.1 200 OK\r\n".to_vec();
        for (k, v) in WRITTEN {
            raw.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
        }
        raw.extend_from_slice(b"Content-Length: 2\r\nConnection: close\r\n\r\nok");
        Reply::Raw(raw)
    })
}

/// The answer's header lines are printed (`< Name: value`) as [`WRITTEN`], in its order.
fn shows_headers_as_written(out: &Out) {
    let expected: Vec<String> = WRITTEN
        .iter()
        .map(|(k, v)| format!("< {k}: {v}"))
        .chain(["< Content-Length: 2".into(), "< Connection: close".into()])
        .collect();
    let printed: Vec<String> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("< ") && l.contains(": "))
        .map(str::to_string)
        .collect();
    assert_eq!(printed, expected, "{}", out.stdout);
}

#[test]
fn a_sent_requests_answer_shows_header_names_as_the_server_wrote_them() {
    let env = Env::new();
    let upstream = odd_cased_upstream();
    let file = env.dir.path().join("get.http");
    std::fs::write(&file, "GET /thing HTTP/1.1\r\nHost: example.test\r\n\r\n").unwrap();
    let out = env.local(&[
        "requests",
        "send",
        file.to_str().unwrap(),
        "--to",
        &upstream.url(),
    ]);
    out.ok();
    shows_headers_as_written(&out);
    assert!(!out.stdout.contains("Link"), "{}", out.stdout);
}

#[test]
fn a_changed_replays_answer_shows_header_names_as_the_server_wrote_them() {
    let (env, _up, id) = one_webhook();
    let upstream = odd_cased_upstream();
    let url = upstream.url();
    let replay = |extra: &[&str]| {
        let mut args = vec!["requests", "replay", &id, "-H", "X-A: 1", "--to", &url];
        args.extend_from_slice(extra);
        env.local(&args)
    };
    let out = replay(&[]);
    out.ok();
    shows_headers_as_written(&out);

    let json = replay(&["--json"]);
    let v = json.ok().json();
    let response = &v["response"];
    let names: Vec<&str> = response["headers"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        names,
        [
            "X-Request-ID",
            "x-lower",
            "Server",
            "Set-Cookie",
            "ETag",
            "WWW-Authenticate",
            "Content-Length",
            "Connection"
        ]
    );
    assert_eq!(
        response["headers"]["Set-Cookie"],
        serde_json::json!(["a=1", "b=2"])
    );
    let raw = base64::engine::general_purpose::STANDARD
        .decode(response["raw"].as_str().unwrap())
        .unwrap();
    let raw = String::from_utf8(raw).unwrap();
    assert!(
        raw.starts_with(
            "HTTP/1.1 200 OK\r\nX-Request-ID: 1\r\nx-lower: 2\r\nServer: s\r\nSet-Cookie: a=1\r\nETag: \"e\"\r\nSet-Cookie: b=2\r\n"
        ),
        "{raw}"
    );
}
