//! What a newcomer meets on an 80x24 terminal, outside the inspector: a large body that does
//! not flood the screen, a tunnel filter that says why nothing matched, tables at 80 columns
//! that keep what tells rows apart, and `-o wide` with every column.

use base64::Engine;
use serde_json::{json, Value};

use crate::common::pty::Pty;
use crate::common::{run, strings, Env};
use tunnelctl::registry::env as var;

/// The binary on a pseudo-terminal of 24 x 80, pointed at the emulator's agent too.
fn on_terminal(env: &Env, args: &[&str]) -> Pty {
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url()).args(args);
    Pty::spawn(&cmd, 24, 80)
}

/// A JSON document of about 150 KB on one line, as webhook senders post them.
fn big_document() -> String {
    let items: Vec<Value> = (0..2000)
        .map(|i| json!({"id": i, "name": format!("item {i}"), "tags": ["a", "b"]}))
        .collect();
    json!({"data": items}).to_string()
}

/// A captured POST whose request and response both carry `body`; its id.
fn capture_with(env: &Env, body: &str, response: &str) -> String {
    let ids = env.mock.seed_captures(json!([{
        "tunnel_name": "hook (http)", "method": "POST", "uri": "/hooks/big",
        "headers": {"Content-Type": ["application/json"]}, "body": body,
        "status_code": 200, "response_headers": {"Content-Type": ["application/json"]},
        "response_body": response,
    }]));
    strings(&ids).remove(0)
}

#[test]
fn get_on_a_terminal_shows_a_screenful_of_each_large_body_and_says_how_to_see_the_rest() {
    let env = Env::new();
    let doc = big_document();
    let id = capture_with(&env, &doc, &doc);
    let mut term = on_terminal(&env, &["local", "requests", "get", &id]);
    assert_eq!(term.wait_exit(), 0);
    let text = String::from_utf8_lossy(&term.output()).replace('\r', "");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() < 80,
        "{} lines for two bodies: the terminal was flooded",
        lines.len()
    );
    for line in &lines {
        assert!(
            unicode_width(line) <= 80,
            "a line wider than the terminal: {line}"
        );
    }
    // Pretty-printed, the headers of both messages above their bodies.
    assert!(lines.contains(&"      \"name\": \"item 0\","), "{text}");
    assert!(lines.contains(&"< HTTP/1.1 200 OK"), "{text}");
    let screen = term.screen();
    assert!(
        screen.contains("--body-only --response") && screen.contains("--raw --response"),
        "the last screen says how to see the rest of the response:\n{screen}"
    );
    assert!(screen.contains("tunnelctl local inspect"), "{screen}");
    assert!(
        text.contains(&format!("({} bytes in all)", doc.len())),
        "{text}"
    );
}

/// The display width of a line (the test's own count: characters, all of them narrow here
/// but `…`, which is one column).
fn unicode_width(line: &str) -> usize {
    line.chars().count()
}

#[test]
fn get_in_a_pipe_and_raw_are_unchanged() {
    let env = Env::new();
    let doc = big_document();
    let id = capture_with(&env, &doc, "{}");
    let piped = env.local(&["requests", "get", &id]);
    piped.ok();
    assert!(
        piped.stdout.lines().any(|l| l.len() >= 64 * 1024),
        "a pipe gets the long view as before"
    );
    assert!(!piped.stdout.contains("--body-only"));
    let raw = env.local(&["requests", "get", &id, "--raw"]);
    raw.ok();
    assert!(
        raw.stdout.ends_with(&doc),
        "--raw ends with the body as sent"
    );
}

#[test]
fn body_only_prints_the_decoded_body_alone() {
    let env = Env::new();
    let doc = big_document();
    let id = capture_with(&env, &doc, "{\"ok\":true}");
    let out = env.local(&["requests", "get", &id, "--body-only"]);
    out.ok();
    assert_eq!(out.stdout, doc);
    let out = env.local(&["requests", "get", &id, "--body-only", "--response"]);
    out.ok();
    assert_eq!(out.stdout, "{\"ok\":true}");

    // A gzip body comes out decoded.
    let zipped = crate::common::gzip(b"{\"zipped\":1}");
    let ids = env.mock.seed_captures(json!([{
        "tunnel_name": "hook (http)", "method": "POST", "uri": "/z",
        "headers": {"Content-Encoding": ["gzip"]},
        "body_base64": base64::engine::general_purpose::STANDARD.encode(zipped),
        "status_code": 204, "response_headers": {}, "response_body": "",
    }]));
    let out = env.local(&["requests", "get", &strings(&ids)[0], "--body-only"]);
    out.ok();
    assert_eq!(out.stdout, "{\"zipped\":1}");
}

#[test]
fn body_only_refuses_control_characters_on_a_terminal_and_bad_combinations() {
    let env = Env::new();
    let id = capture_with(&env, "red \u{1b}[31m text", "{}");
    let out = run(env
        .cmd()
        .env(var::AGENT_URL, env.mock.agent_url())
        .env(var::FORCE_TTY, "1")
        .args(["local", "requests", "get", &id, "--body-only"]));
    out.code(2).says("--force");
    assert!(!out.stdout.contains('\u{1b}'));
    for wrong in [
        vec!["--response"],
        vec!["--force"],
        vec!["--raw", "--body-only"],
        vec!["--body-only", "--curl"],
    ] {
        let mut args = vec!["requests", "get", id.as_str()];
        args.extend(wrong.iter());
        env.local(&args).code(2);
    }
}

/// Two captured webhooks as `verify` meets them: a GitHub one with no secret set, and a
/// Stripe one signed an hour ago with the secret that is set.
fn webhooks(env: &Env) -> Vec<String> {
    let body = r#"{"type":"invoice.paid"}"#;
    let at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
        - 3600;
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, STRIPE_SECRET.as_bytes());
    let mac = ring::hmac::sign(&key, format!("{at}.{body}").as_bytes());
    let stripe = format!("t={at},v1={}", hex::encode(mac.as_ref()));
    let ids = env.mock.seed_captures(json!([
        {"tunnel_name": "hook (http)", "method": "POST", "uri": "/gh",
         "headers": {"X-Hub-Signature-256": ["sha256=00"], "X-GitHub-Event": ["push"]},
         "body": body, "status_code": 200, "response_headers": {}, "response_body": ""},
        {"tunnel_name": "hook (http)", "method": "POST", "uri": "/stripe",
         "headers": {"Stripe-Signature": [stripe]},
         "body": body, "status_code": 200, "response_headers": {}, "response_body": ""},
    ]));
    strings(&ids)
}

const STRIPE_SECRET: &str = "whsec_newcomer_0a1b2c3d4e5f";

#[test]
fn verify_at_80_columns_keeps_the_variable_to_set_and_the_age_readable() {
    let env = Env::new();
    webhooks(&env);
    let out = run(env
        .cmd()
        .env(var::AGENT_URL, env.mock.agent_url())
        .env(var::FORCE_TTY, "1")
        .env("COLUMNS", "80")
        .env(var::WEBHOOK_SECRET_STRIPE, STRIPE_SECRET)
        .args(["local", "requests", "verify"]));
    out.code(8);
    assert!(!out.stdout.contains('…'), "DETAIL was cut:\n{}", out.stdout);
    for line in out.stdout.lines() {
        assert!(line.chars().count() <= 80, "wider than 80: {line}");
    }
    // Each word of a detail is whole on some line (wrapped at spaces, never inside one).
    let words: Vec<&str> = out.stdout.split_whitespace().collect();
    assert!(
        words.contains(&var::WEBHOOK_SECRET_GITHUB),
        "the variable to set:\n{}",
        out.stdout
    );
    let joined = words.join(" ");
    assert!(
        joined.contains("refuses after 300 s") && joined.contains(" s ago;"),
        "the age is readable:\n{}",
        out.stdout
    );
}

#[test]
fn a_tunnel_filter_that_matches_nothing_says_where_the_captures_are() {
    let (env, _up) = crate::local::tunnels_to_upstream(&["hook"]);
    let port = crate::local::edge_port(&env, "hook (http)");
    for path in ["/a", "/b", "/c"] {
        crate::common::upstream::visit(port, "POST", path, &[], b"{}");
    }
    // `hook` runs (the https half of an http tunnel) but its captures are on its twin.
    let out = run(env
        .cmd()
        .env(var::AGENT_URL, env.mock.agent_url())
        .env(var::FORCE_TTY, "1")
        .args(["local", "requests", "list", "--tunnel", "hook"]));
    out.ok();
    assert_eq!(out.stdout, "", "data stays on stdout, and there is none");
    for said in [
        "Tunnel 'hook' has no captured requests.",
        "'hook (http)' has 3",
        "Try --tunnel 'hook (http)'",
    ] {
        assert!(
            out.stderr.contains(said),
            "{said:?} not in:\n{}",
            out.stderr
        );
    }
    // No tunnel of that name at all; in a pipe the hint is still on stderr only.
    let out = env.local(&["requests", "list", "--tunnel", "nope", "--json"]);
    out.ok();
    assert_eq!(out.stdout.trim(), "[]");
    assert!(
        out.stderr.contains("No tunnel is named 'nope'.")
            && out.stderr.contains("'hook (http)' has 3"),
        "{}",
        out.stderr
    );
    // --quiet: nothing on stderr.
    let out = env.local(&["--quiet", "requests", "list", "--tunnel", "nope"]);
    out.ok();
    assert_eq!(out.stderr, "");
}
