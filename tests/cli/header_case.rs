//! The answer to a request `tunnelctl` sends itself (a replay with a change, `requests send`)
//! shows each header name exactly as the server wrote it, in the order it wrote them, as
//! captures show theirs: not lower-cased, not guessed into title case, repeated names not
//! grouped together.

use base64::Engine;

use crate::common::hostile::{Hostile, Reply};
#[cfg(target_os = "linux")]
use crate::common::tls::TlsServer;
use crate::common::{run, Env, Out};
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

/// An answer with [`WRITTEN`] (then its own `Content-Length` and `Connection`), after an
/// interim `103` head whose header must not show.
fn odd_cased_answer() -> Vec<u8> {
    let mut raw =
        b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>\r\n\r\nHTTP/1.1 200 OK\r\n".to_vec();
    for (k, v) in WRITTEN {
        raw.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
    }
    raw.extend_from_slice(b"Content-Length: 2\r\nConnection: close\r\n\r\nok");
    raw
}

/// An upstream answering every request with [`odd_cased_answer`].
fn odd_cased_upstream() -> Hostile {
    Hostile::start(|_| Reply::Raw(odd_cased_answer()))
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

/// `requests send FILE --to URL`, with these extra environment variables.
fn send_to(env: &Env, url: &str, vars: &[(&str, &std::path::Path)]) -> Out {
    let file = env.dir.path().join("get.http");
    std::fs::write(&file, "GET /thing HTTP/1.1\r\nHost: example.test\r\n\r\n").unwrap();
    let mut cmd = env.cmd();
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let args = [
        "local",
        "requests",
        "send",
        file.to_str().unwrap(),
        "--to",
        url,
    ];
    run(cmd.args(args))
}

#[test]
fn a_sent_requests_answer_shows_header_names_as_the_server_wrote_them() {
    let env = Env::new();
    let upstream = odd_cased_upstream();
    let out = send_to(&env, &upstream.url(), &[]);
    out.ok();
    shows_headers_as_written(&out);
    assert!(!out.stdout.contains("Link"), "{}", out.stdout);
}

/// The platform's verifier takes `SSL_CERT_FILE` as its trust on Linux only.
#[cfg(target_os = "linux")]
#[test]
fn an_https_servers_answer_shows_header_names_as_written_over_http_1_1() {
    let env = Env::new();
    let server = TlsServer::start(&odd_cased_answer());
    let ca = TlsServer::ca_file();
    let out = send_to(&env, &server.url(), &[("SSL_CERT_FILE", &ca)]);
    out.ok();
    shows_headers_as_written(&out);
    // Offered h2 first, the server took http/1.1: the only protocol offered.
    assert_eq!(server.alpn(), [Some(b"http/1.1".to_vec())]);
    // Without the test CA, the server is not trusted: refused before anything is sent.
    let empty = env.dir.path().join("no-ca.pem");
    std::fs::write(&empty, "").unwrap();
    send_to(&env, &server.url(), &[("SSL_CERT_FILE", &empty)])
        .code(6)
        .says("invalid peer certificate");
    assert_eq!(
        server.alpn().len(),
        1,
        "nothing sent to an untrusted server"
    );
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
