//! The messages a newcomer meets on a first wrong try, each of which must say what to type
//! instead: `send` without a target names both targets, a HAR log sent as a request file is
//! told to use `--har`, a negative `--timeout` is called one, an unknown flag that another
//! command takes names that command, a filter written for the whole list under `-o ndjson` is
//! shown the per-item form, and the `--timeout` that stops a full-screen view says so cleanly.

use serde_json::json;

use crate::common::{run, Env};
use tunnelctl::registry::env as var;

#[test]
fn send_without_a_target_names_to_and_tunnel() {
    let env = Env::new();
    let file = env.dir.path().join("paid.http");
    std::fs::write(&file, "POST /hook HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let out = env.local(&["requests", "send", file.to_str().unwrap()]);
    out.code(2).says_all(&["--to <URL>", "--tunnel <NAME>"]);
    assert!(env.mock.agent_requests().is_empty(), "nothing asked");
}

#[test]
fn a_har_log_sent_as_a_request_file_is_told_to_use_har() {
    let env = Env::new();
    let dir = env.dir.path();
    let doc = json!({"log": {"version": "1.2", "entries": []}}).to_string();
    let send = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let file = path.to_str().unwrap();
        env.local(&["requests", "send", file, "--to", "http://127.0.0.1:9"])
    };
    for name in ["hooks.har", "export.json"] {
        send(name, &doc)
            .code(2)
            .says("not an HTTP request")
            .says("--har");
    }
    // A request file that is simply wrong gets no such hint.
    let out = send("bad.http", "hello\n");
    out.code(2).says("not an HTTP request");
    assert!(!out.stderr.contains("--har"), "{}", out.stderr);
}

#[test]
fn a_negative_timeout_is_called_negative() {
    let env = Env::new();
    for value in ["-1s", "-1", "-2m"] {
        let out = env.run(&["--timeout", value, "ip-policies", "list"]);
        out.code(2)
            .says(&format!("'{value}' is a negative duration"))
            .says("--timeout");
        assert!(
            !out.stderr.contains("unexpected argument"),
            "{}",
            out.stderr
        );
        let out = env.run(&["ip-policies", "list", "--timeout", value]);
        out.code(2).says("negative duration");
    }
    // A flag where the value should be is not taken for a duration in silence.
    env.run(&["--timeout", "--json", "ip-policies", "list"])
        .code(2)
        .says("'--json' is not a duration");
    // The rolling upgrade's --settle reads the same way.
    env.run(&["sessions", "upgrade", "--all", "--settle", "-10s"])
        .code(2)
        .says("negative duration");
    assert!(env.requests().is_empty(), "nothing sent");
}

#[test]
fn an_unknown_flag_another_command_takes_names_that_command() {
    let env = Env::new();
    let out = env.local(&["requests", "verify", "--signature", "invalid"]);
    out.code(2)
        .says("unexpected argument '--signature'")
        .says("--signature is an option of 'tunnelctl local requests list'");
    assert!(!out.stderr.contains("--agent-url"), "{}", out.stderr);
    assert!(env.mock.agent_requests().is_empty(), "nothing asked");
    // A flag no command takes keeps clap's own error.
    env.local(&["requests", "verify", "--frobnicate"])
        .code(2)
        .says("unexpected argument '--frobnicate'");
}

#[test]
fn a_whole_list_filter_under_ndjson_is_shown_its_per_item_form() {
    let env = Env::new();
    env.seed(json!({"ip_policy_count": 2}));
    let out = env.run(&["ip-policies", "list", "-o", "ndjson", "--jq", ".[].id"]);
    out.code(2)
        .says("--jq '.[].id'")
        .says("each item by itself: write '.id'");
    let out = env.run(&["ip-policies", "list", "-o", "ndjson", "--jq", ".id"]);
    out.ok();
    assert_eq!(out.stdout.lines().count(), 2, "{}", out.stdout);
}

/// The `--timeout` that ends a full-screen view, on an 80x24 terminal: exit 7, the terminal
/// given back, and one clean line (no `ran out ;`).
#[test]
fn a_timeout_that_stops_the_inspector_says_so_cleanly() {
    let env = Env::new();
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .args(["--timeout", "1s", "local", "inspect"]);
    let mut term = crate::common::pty::Pty::spawn(&cmd, 24, 80);
    assert_eq!(term.wait_exit(), 7, "{}", term.screen());
    let shown = String::from_utf8_lossy(&term.output()).into_owned();
    assert!(
        shown.contains("the time limit (--timeout 1s) ran out; the command was stopped"),
        "{shown}"
    );
    assert!(!shown.contains("ran out ;"), "{shown}");
    term.assert_restored();
}

/// `run` is the harness's: it also fails on a secret in the output.
#[test]
fn bare_send_usage_names_the_targets_with_the_environment_set() {
    let env = Env::new();
    let out = run(env
        .cmd()
        .env(var::AGENT_URL, env.mock.agent_url())
        .args(["local", "requests", "send", "x.http"]));
    out.code(2);
    let usage = out
        .stderr
        .lines()
        .find(|l| l.starts_with("Usage:"))
        .unwrap_or_default();
    assert_eq!(
        usage,
        "Usage: tunnelctl local requests send <--to <URL>|--tunnel <NAME>> <FILE>..."
    );
}
