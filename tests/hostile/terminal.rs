//! What a visitor sent through a tunnel never drives the user's terminal: `local requests
//! tail` and `get` escape control characters, C1 codes, bidi overrides and invisible
//! characters in captured methods, paths, headers, bodies and tunnel names; `get --raw` writes
//! bytes that could act on a terminal only to a file or a pipe (exact, byte for byte), unless
//! `--force` is given.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use serde_json::{json, Value};

use crate::common::hostile::{Hostile, Reply};
use crate::common::{run, Env, Out};
use tunnelctl::registry::env as var;

fn b64(b: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(b)
}

/// Everything a terminal could act on, or that hides text: ESC, CR, BEL, C1 controls, bidi
/// overrides and isolates, zero-width and other invisible characters.
#[track_caller]
fn assert_no_raw_danger(text: &str) {
    for (i, line) in text.split('\n').enumerate() {
        for c in line.chars() {
            let bad = (c.is_control() && c != '\t')
                || matches!(c,
                    '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
                    | '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}'
                    | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
                    | '\u{180E}' | '\u{3164}' | '\u{FFA0}');
            assert!(!bad, "raw {c:?} on line {i}: {line:?}");
        }
    }
}

/// A hostile text with one of every kind of dangerous character.
const EVIL: &str =
    "\u{1b}[2J\u{1b}]52;c;aGk=\u{7}\r\u{9b}31m\u{202E}\u{2066}z\u{200B}w\u{FEFF}\u{00AD}\u{3164}";

/// A raw request whose every part is hostile (headers may carry any byte on the wire).
fn evil_raw_request() -> Vec<u8> {
    format!(
        "P\u{1b}[5mST /in\u{9b}2J\u{200B}x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Evil: {EVIL}\r\n\u{202E}X-Name: v\r\n\r\nbody {EVIL}"
    )
    .into_bytes()
}

/// One captured exchange as the agent's API shows it, hostile in every field.
fn evil_capture(id: &str) -> Value {
    json!({
        "id": id,
        "tunnel_name": format!("web {EVIL}"),
        "remote_addr": format!("1.2.3.4{EVIL}"),
        "start": "2026-01-01T\u{1b}]52;c;x\u{7}",
        "duration": format!("9{EVIL}"),
        "request": {
            "method": format!("POST{EVIL}"),
            "proto": "HTTP/1.1",
            "uri": format!("/hook{EVIL}"),
            "headers": {"X-Evil": [EVIL]},
            "raw": b64(&evil_raw_request()),
        },
        "response": {
            "status": "200 OK",
            "status_code": format!("2{EVIL}"),
            "proto": "HTTP/1.1",
            "headers": {"X-Back": [EVIL]},
            "raw": b64(format!("HTTP/1.1 200 OK\r\nX-Back: {EVIL}\r\n\r\nok {EVIL}").as_bytes()),
        },
    })
}

#[test]
fn tail_escapes_hostile_captures() {
    let env = Env::new();
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    // The first answer is what tail has already seen; later ones bring one hostile capture.
    let server = Hostile::start(move |_| {
        if counter.fetch_add(1, Ordering::SeqCst) == 0 {
            Reply::ok(r#"{"requests":[]}"#)
        } else {
            Reply::ok(json!({"requests": [evil_capture("airt_1")]}).to_string())
        }
    });
    let out = run(env
        .cmd_at(&server.url())
        .env(var::FORCE_TTY, "1")
        .args(["local", "requests", "tail"])
        .timeout(Duration::from_secs(3)));
    assert!(calls.load(Ordering::SeqCst) >= 2, "tail polled the agent");
    // The capture was printed.
    out.prints("POST\\x1b[2J");
    assert_no_raw_danger(&out.stdout);
    assert_no_raw_danger(&out.stderr);
    for shown in ["\\u{200b}", "\\u{202e}", "\\u{9b}", "\\x07", "\\r"] {
        assert!(out.stdout.contains(shown), "{shown}: {}", out.stdout);
    }
}

#[test]
fn get_escapes_hostile_captures_including_invisible_characters() {
    let env = Env::new();
    let server = Hostile::start(|_| Reply::ok(evil_capture("airt_1").to_string()));
    for tty in ["1", "0"] {
        let out = run(env
            .cmd_at(&server.url())
            .env(var::FORCE_TTY, tty)
            .args(["local", "requests", "get", "airt_1"]));
        out.ok();
        assert_no_raw_danger(&out.stdout);
        out.prints("\\u{200b}");
        out.prints("\\u{202e}X-Name");
    }
}

/// Runs `get ID --raw …` and returns the exact output.
fn raw_get(env: &Env, url: &str, tty: bool, extra: &[&str]) -> std::process::Output {
    let mut cmd = env.cmd_at(url);
    if tty {
        cmd.env(var::FORCE_TTY, "1");
    }
    let output = cmd
        .args(["local", "requests", "get", "airt_1", "--raw"])
        .args(extra)
        .output()
        .expect("the binary runs");
    crate::common::assert_no_secret(&Out {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    });
    output
}

#[test]
fn raw_output_that_could_act_on_a_terminal_goes_only_to_a_pipe_unless_forced() {
    let env = Env::new();
    let server = Hostile::start(|_| Reply::ok(evil_capture("airt_1").to_string()));
    let url = server.url();
    let response = format!("HTTP/1.1 200 OK\r\nX-Back: {EVIL}\r\n\r\nok {EVIL}").into_bytes();
    for (extra, exact) in [
        (&[][..], evil_raw_request()),
        (&["--response"][..], response),
    ] {
        // On a terminal: refused, nothing written, and the way out is named.
        let refused = raw_get(&env, &url, true, extra);
        assert_eq!(refused.status.code(), Some(2), "{extra:?}");
        assert!(refused.stdout.is_empty(), "{extra:?}");
        let why = String::from_utf8_lossy(&refused.stderr);
        assert!(
            why.contains("--force") && why.contains("terminal") && why.contains('>'),
            "{why}"
        );
        assert_no_raw_danger(&why);
        // In a pipe: every byte, unchanged.
        let piped = raw_get(&env, &url, false, extra);
        assert_eq!(piped.status.code(), Some(0), "{extra:?}");
        assert_eq!(piped.stdout, exact, "{extra:?}");
        // Forced: every byte too.
        let mut forced_args = extra.to_vec();
        forced_args.push("--force");
        let forced = raw_get(&env, &url, true, &forced_args);
        assert_eq!(forced.status.code(), Some(0), "{extra:?}");
        assert_eq!(forced.stdout, exact, "{extra:?}");
    }
}

#[test]
fn plain_raw_text_still_prints_on_a_terminal_and_force_needs_raw() {
    let env = Env::new();
    let plain = b"GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".to_vec();
    let capture = json!({
        "id": "airt_1", "tunnel_name": "t", "start": "2026-01-01T00:00:00Z", "duration": 1,
        "request": {"method": "GET", "uri": "/ok", "raw": b64(&plain)},
        "response": null,
    });
    let server = Hostile::start(move |_| Reply::ok(capture.to_string()));
    let out = raw_get(&env, &server.url(), true, &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, plain);
    // --force only means something with --raw.
    let misuse = run(env
        .cmd_at(&server.url())
        .args(["local", "requests", "get", "airt_1", "--force"]));
    misuse.code(2);
    misuse.says("--raw");
    let wrong_value = run(env.cmd_at(&server.url()).args([
        "local",
        "requests",
        "get",
        "airt_1",
        "--raw",
        "--force=maybe",
    ]));
    wrong_value.code(2);
    assert_eq!(server.count(), 1, "usage errors send nothing");
}
