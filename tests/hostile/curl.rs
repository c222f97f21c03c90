//! `local requests get --curl` prints a command that is safe to print and to paste: run by
//! bash, it sends exactly the captured request (method, path, header values, body bytes) to
//! the captured host, reads no file, expands no glob, and nothing a visitor wrote can send it
//! elsewhere or reach the terminal raw.

use base64::Engine;
use serde_json::{json, Value};

use crate::common::hostile::{Hostile, Reply, Seen};
use crate::common::{run, Env, Out};
use tunnelctl::registry::env as var;

fn b64(b: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(b)
}

/// Seeds one capture in the emulator's agent and prints its curl command.
fn curl_of(env: &Env, capture: Value) -> Out {
    let ids = env.mock.seed_captures(json!([capture]));
    let id = ids[0].as_str().expect("an id").to_string();
    run(env
        .cmd()
        .env(var::AGENT_URL, env.mock.agent_url())
        .args(["local", "requests", "get", &id, "--curl"]))
}

/// A server to replay against, and the curl command of a GET of `uri` captured for it.
fn get_to_a_server(env: &Env, uri: &str) -> (Hostile, String, Out) {
    let server = Hostile::start(|_| Reply::ok("{}"));
    let host = format!("127.0.0.1:{}", server.port());
    let out = curl_of(
        env,
        json!({"method": "GET", "uri": uri, "headers": {"Host": host}}),
    );
    out.ok();
    (server, host, out)
}

/// No raw control, bidi or invisible character in what was printed.
#[track_caller]
fn assert_terminal_safe(text: &str) {
    for c in text.trim_end_matches('\n').chars() {
        let bad = c.is_control()
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200B}'..='\u{200F}' | '\u{FEFF}');
        assert!(!bad, "raw {c:?} in the printed command: {text:?}");
    }
}

/// Runs the printed command with bash against `server` and returns the one request it got.
/// `bash -c LINE` for ordinary commands; from a script file when the line is longer than one
/// program argument may be (as when pasted into a terminal, where no such limit applies).
fn replay_with_bash(line: &str, server: &Hostile) -> Seen {
    let script = format!("{} -s -o /dev/null --max-time 10", line.trim_end());
    let mut bash = std::process::Command::new("bash");
    let dir = tempfile::tempdir().expect("a temp dir");
    if script.len() < 100_000 {
        bash.arg("-c").arg(&script);
    } else {
        let file = dir.path().join("replay.sh");
        std::fs::write(&file, &script).expect("the script is written");
        bash.arg(&file);
    }
    let status = bash.status().expect("bash runs");
    assert!(status.success(), "the command failed: {line}");
    crate::common::wait_until("the request at the server", || server.count() >= 1);
    let seen = server.seen();
    assert_eq!(seen.len(), 1, "exactly one request: {seen:?}\n{line}");
    seen.into_iter().next().expect("one request")
}

#[test]
fn the_printed_command_sends_exactly_the_captured_request() {
    let env = Env::new();
    let server = Hostile::start(|_| Reply::ok("{}"));
    let host = format!("127.0.0.1:{}", server.port());
    // A body naming a file that exists: it must travel as text, the file must not be read.
    let secret_file = env.dir.path().join("credentials");
    std::fs::write(&secret_file, "aws_secret_access_key = FROM-THE-FILE").unwrap();
    let body = format!("@{}", secret_file.display());
    let sig = "it's \"quoted\" $HOME `id` \\ \t tab \u{9b}31m zero\u{200B}width";
    let out = curl_of(
        &env,
        json!({
            "method": "PATCH",
            "uri": "/hook/a[1-2]{x,y}/../z?q=[0]&r=%41",
            "headers": {"Host": host, "X-Sig": sig, "Content-Type": "text/plain", "X-Empty": ""},
            "body": body,
        }),
    );
    out.ok();
    assert_terminal_safe(&out.stdout);
    out.prints(" -g ");
    let got = replay_with_bash(&out.stdout, &server);
    assert_eq!(got.method, "PATCH");
    assert_eq!(
        got.target, "/hook/a[1-2]{x,y}/../z?q=[0]&r=%41",
        "no globbing, no dot-segment squashing"
    );
    assert_eq!(got.header("host"), Some(host.as_str()));
    assert_eq!(got.header("x-sig"), Some(sig.trim()));
    assert_eq!(got.header("x-empty"), Some(""));
    assert_eq!(got.header("content-type"), Some("text/plain"));
    assert_eq!(
        got.body,
        body.as_bytes(),
        "the body is the text, not the file"
    );
}

#[test]
fn binary_bodies_and_c1_or_bidi_headers_arrive_byte_for_byte_and_print_escaped() {
    let env = Env::new();
    let server = Hostile::start(|_| Reply::ok("{}"));
    let host = format!("127.0.0.1:{}", server.port());
    let body: Vec<u8> = b"-v\x00\xff\xfe'%s%%\\n\\\x1b[2J\r\n@/etc/passwd\x00"
        .iter()
        .copied()
        .chain(0u8..=255)
        .collect();
    let out = curl_of(
        &env,
        json!({
            "method": "POST", "uri": "/upload",
            "headers": {"Host": host, "Content-Type": "application/octet-stream", "X-Note": "\u{9b}2J \u{202E}txt.exe"},
            "body_base64": b64(&body),
        }),
    );
    out.ok();
    assert_terminal_safe(&out.stdout);
    assert!(!out.stdout.contains("/etc/passwd\x00"), "{}", out.stdout);
    let got = replay_with_bash(&out.stdout, &server);
    assert_eq!(got.method, "POST");
    assert_eq!(got.target, "/upload");
    assert_eq!(got.header("content-type"), Some("application/octet-stream"));
    assert_eq!(got.header("x-note"), Some("\u{9b}2J \u{202E}txt.exe"));
    assert_eq!(got.body, body);
}

#[test]
fn a_large_text_body_is_not_one_huge_argument() {
    let env = Env::new();
    let server = Hostile::start(|_| Reply::ok("{}"));
    let host = format!("127.0.0.1:{}", server.port());
    // Over Linux's 128 KiB limit for one argument of a program.
    let body = "x'y\n".repeat(50_000);
    let out = curl_of(
        &env,
        json!({"method": "PUT", "uri": "/big", "headers": {"Host": host}, "body": body}),
    );
    out.ok();
    let got = replay_with_bash(&out.stdout, &server);
    assert_eq!(got.method, "PUT");
    assert_eq!(got.body, body.as_bytes());
}

#[test]
fn an_absolute_form_target_cannot_redirect_the_command() {
    let (server, host, out) = get_to_a_server(&Env::new(), "http://evil.invalid:8/steal?x=1");
    assert!(!out.stdout.contains("evil"), "{}", out.stdout);
    let got = replay_with_bash(&out.stdout, &server);
    assert_eq!(
        (got.method.as_str(), got.target.as_str()),
        ("GET", "/steal?x=1")
    );
    assert_eq!(got.header("host"), Some(host.as_str()));
}

#[test]
fn a_hostile_host_header_is_refused() {
    let env = Env::new();
    let server = Hostile::start(|_| Reply::ok("{}"));
    let port = server.port();
    for host in [
        format!("127.0.0.1:{port}/elsewhere?"),
        format!("evil.invalid@127.0.0.1:{port}"),
        format!("127.0.0.1:{port}#"),
        format!("127.0.0.1:{port} x"),
        "evil.invalid/x?".to_string(),
    ] {
        let out = curl_of(
            &env,
            json!({"method": "POST", "uri": "/hook", "headers": {"Host": host}, "body": "b"}),
        );
        out.code(1);
        assert!(out.stdout.is_empty(), "{host}: {}", out.stdout);
        assert!(
            out.stderr.contains("Host") && out.stderr.contains("curl"),
            "{host}: {}",
            out.stderr
        );
    }
    assert_eq!(server.count(), 0);
}

#[test]
fn a_path_curl_would_change_goes_in_the_request_target() {
    let (server, _, out) = get_to_a_server(&Env::new(), "/p#frag?x");
    let got = replay_with_bash(&out.stdout, &server);
    assert_eq!(got.target, "/p#frag?x", "{}", out.stdout);
}
