//! The `local` commands against the REAL agent, through `../shared/real-agent/with-agent`.
//!
//! These tests need the harness (a private network namespace with the agent, a stand-in tunnel
//! server and an echo upstream on 127.0.0.1:8080), so they are ignored in a plain
//! `cargo test`; `.ci/run` runs them inside the harness with `--ignored`, and reports them as
//! skipped, with the reason, when the harness cannot run on the machine (under CI, where they
//! must run, that fails the run instead).

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::skip;

use common::real_agent::{edge_port, start_http_tunnel, tunnelctl, visit, wait_for_requests, WHY};
use serde_json::Value;
use tunnelctl::registry::env as var;

#[test]
#[ignore = "needs the real agent: run through ../shared/real-agent/with-agent (see .ci/run)"]
fn the_webhook_loop_against_the_real_agent() {
    // Start an http tunnel: the agent makes "hook" (https) and "hook (http)".
    let out = tunnelctl(&[
        "local", "tunnels", "start", "--name", "hook", "--proto", "http", "--addr", "8080",
        "--json",
    ]);
    out.ok();
    assert_eq!(out.json()["name"], "hook");
    let list = tunnelctl(&["local", "tunnels", "list", "--json"]);
    list.ok();
    let names = common::strings_at(&list.json(), "/name");
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "tunnels are listed sorted by name");
    assert!(names.contains(&"hook (http)".to_string()), "{names:?}");
    let leg = tunnelctl(&["local", "tunnels", "get", "hook (http)", "--json"]);
    leg.ok();
    let port = edge_port(leg.json()["public_url"].as_str().unwrap());

    tunnelctl(&["local", "requests", "clear", "--yes"]).ok();
    assert!(visit(port, "POST", "/hook?n=1", "{\"event\":\"paid\"}").contains("200"));
    assert!(visit(port, "GET", "/status", "").contains("200"));

    // list shows both
    let captured = wait_for_requests("hook (http)", 2);
    assert_eq!(captured.len(), 2);
    let post = captured
        .iter()
        .find(|r| r["request"]["method"] == "POST")
        .expect("the POST");
    let id = post["id"].as_str().unwrap().to_string();
    let tsv = tunnelctl(&["local", "requests", "list"]);
    tsv.ok();
    assert_eq!(tsv.stdout.lines().count(), 2, "{}", tsv.stdout);

    // get shows the decoded exchange
    let got = tunnelctl(&["local", "requests", "get", &id]);
    got.ok();
    got.prints("> POST /hook?n=1 HTTP/1.1");
    got.prints("\"event\": \"paid\"");
    assert!(
        got.stdout.contains("< HTTP/1.0 200 OK") || got.stdout.contains("< HTTP/1.1 200 OK"),
        "{}",
        got.stdout
    );
    let raw = tunnelctl(&["local", "requests", "get", &id, "--raw"]);
    raw.ok();
    assert!(raw.stdout.starts_with("POST /hook?n=1 HTTP/1.1\r\n"));
    assert!(raw.stdout.ends_with("{\"event\":\"paid\"}"));

    // replay: the upstream receives it again, and it is captured as "replayed"
    tunnelctl(&["local", "requests", "replay", &id])
        .ok()
        .says(&format!("Replayed {id} as airt_"))
        .says(": 200 in ");
    let after = wait_for_requests("hook (http)", 3);
    let replayed = after
        .iter()
        .find(|r| r["remote_addr"] == "replayed")
        .expect("a replayed capture");
    let answer = tunnelctl(&[
        "local",
        "requests",
        "get",
        replayed["id"].as_str().unwrap(),
        "--raw",
        "--response",
    ]);
    answer.ok();
    assert!(
        answer.stdout.contains("\"path\": \"/hook?n=1\"")
            || answer.stdout.contains("\"path\":\"/hook?n=1\""),
        "{}",
        answer.stdout
    );
    // The upstream echoed the replayed body.
    answer.prints("paid");

    // clear empties the list
    tunnelctl(&["local", "requests", "clear", "--yes"]).ok();
    let empty = tunnelctl(&["local", "requests", "list", "--json"]);
    assert_eq!(empty.json(), serde_json::json!([]));

    // stop removes the tunnel; get of a missing tunnel or request exits 4
    tunnelctl(&["local", "tunnels", "stop", "hook"]).ok();
    tunnelctl(&["local", "tunnels", "stop", "hook (http)"]).ok();
    let gone = tunnelctl(&["local", "tunnels", "get", "hook"]);
    gone.code(4);
    gone.says("tunnel not found");
    let missing = tunnelctl(&["local", "requests", "get", &id]);
    missing.code(4);
    missing.says("request entry not found");
}

#[test]
#[ignore = "needs the real agent: run through ../shared/real-agent/with-agent (see .ci/run)"]
fn refusals_are_explained() {
    let out = tunnelctl(&[
        "local", "tunnels", "start", "--name", "bad", "--proto", "http", "--addr", "a b c:::",
    ]);
    out.code(1);
    out.says("400");
    out.says("invalid tunnel configuration");
    // The agent's details.err is shown.
    out.says("malformed address");
    // The agent would read 0 as "all" and -1 as "none": refused before asking.
    for bad in ["0", "-1"] {
        let limit = tunnelctl(&["local", "requests", "list", "--limit", bad]);
        limit.code(2);
        limit.says("--limit");
    }
}

#[test]
#[ignore = "needs the real agent: run through ../shared/real-agent/with-agent (see .ci/run)"]
fn the_inspector_lists_a_real_capture() {
    use common::pty::Pty;
    let port = start_http_tunnel("peek");
    tunnelctl(&["local", "requests", "clear", "--yes"]).ok();
    assert!(visit(port, "POST", "/peek/1?x=y", "{\"event\":\"seen\"}").contains("200"));
    wait_for_requests("peek (http)", 1);

    // On a real terminal (a pseudo-terminal), as a person starts it.
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("tunnelctl"));
    cmd.env_remove("RUST_BACKTRACE")
        .env("NO_COLOR", "1")
        .current_dir(dir.path())
        .args(["local", "inspect"]);
    let mut term = Pty::spawn(&cmd, 24, 80);
    let screen = term.wait_for("/peek/1?x=y");
    let row = screen
        .lines()
        .find(|l| l.contains("/peek/1?x=y"))
        .unwrap()
        .to_string();
    for cell in ["peek (http)", "POST", "200", "▶"] {
        assert!(row.contains(cell), "{cell} in the row:\n{screen}");
    }
    // The detail shows the request the agent captured, its JSON body pretty-printed.
    let screen = term.wait_for("\"event\": \"seen\"");
    assert!(screen.contains("POST /peek/1?x=y HTTP/1.1"), "{screen}");
    // The filter: a word that matches, then one that does not.
    term.send("/tunnel:peek*");
    term.wait_for("1 of 1");
    term.send(" status:5xx");
    term.wait_for("0 of 1");
    // Esc clears the filter (waited for: an Esc and a key close behind read as Alt+key).
    term.send("\x1b");
    term.wait_for("Requests (1)");
    eprintln!("the inspector against the real agent:\n{screen}");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    term.assert_restored();
    tunnelctl(&["local", "tunnels", "stop", "peek"]).ok();
    tunnelctl(&["local", "tunnels", "stop", "peek (http)"]).ok();
}

#[test]
#[ignore = "needs the real agent: run through ../shared/real-agent/with-agent (see .ci/run)"]
fn an_http_tunnel_and_its_twin_are_started_shown_and_stopped_together() {
    // The real agent makes 'twin' (https) and 'twin (http)' for proto http: both are named,
    // with their URLs.
    let out = tunnelctl(&[
        "local", "tunnels", "start", "--name", "twin", "--proto", "http", "--addr", "8080",
    ]);
    out.ok().says("Started 2 tunnels:");
    let listed = tunnelctl(&["local", "tunnels", "list", "--json"]).json();
    let twins: Vec<&Value> = listed
        .as_array()
        .expect("a list")
        .iter()
        .filter(|t| t["name"] == "twin" || t["name"] == "twin (http)")
        .collect();
    assert_eq!(twins.len(), 2, "{listed}");
    for t in twins {
        let url = t["public_url"].as_str().expect("a URL");
        assert!(out.stderr.contains(url), "{url}: {}", out.stderr);
    }
    // The agent's DELETE removes one; off a terminal the twin stays and a note says so.
    tunnelctl(&["local", "tunnels", "stop", "twin"])
        .ok()
        .says("'twin (http)' is still running");
    tunnelctl(&["local", "tunnels", "get", "twin (http)"]).ok();
    // --yes stops both.
    tunnelctl(&[
        "local", "tunnels", "start", "--name", "twin", "--proto", "http", "--addr", "8080",
    ])
    .ok();
    tunnelctl(&["local", "tunnels", "stop", "twin", "--yes"])
        .ok()
        .says("Stopped tunnel twin (http)");
    tunnelctl(&["local", "tunnels", "get", "twin"]).code(4);
    tunnelctl(&["local", "tunnels", "get", "twin (http)"]).code(4);
}

/// The ids `local requests list ARGS --json` prints, newest first.
fn ids_of(args: &[&str]) -> Vec<String> {
    let mut all = vec!["local", "requests", "list"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = tunnelctl(&all);
    out.ok();
    common::strings_at(&out.json(), "/id")
}

/// The request headers of a capture, as the agent shows them.
fn captured_header(capture: &Value, name: &str) -> Option<String> {
    capture["request"]["headers"]
        .as_object()?
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .and_then(|(_, v)| v[0].as_str().map(str::to_string))
}

#[test]
#[ignore = "needs the real agent: run through ../shared/real-agent/with-agent (see .ci/run)"]
fn filters_changed_replays_save_and_send_against_the_real_agent() {
    let port = start_http_tunnel("hook");
    let edge = format!("http://127.0.0.1:{port}");
    tunnelctl(&["local", "requests", "clear", "--yes"]).ok();
    assert!(visit(port, "POST", "/hook?n=1", "{\"event\":\"paid\",\"n\":1}").contains("200"));
    assert!(visit(port, "GET", "/status", "").contains("200"));
    let both = wait_for_requests("hook (http)", 2);
    let post = both
        .iter()
        .find(|r| r["request"]["method"] == "POST")
        .expect("the POST");
    let get = both
        .iter()
        .find(|r| r["request"]["method"] == "GET")
        .expect("the GET");
    let (post_id, get_id) = (
        post["id"].as_str().unwrap().to_string(),
        get["id"].as_str().unwrap().to_string(),
    );

    // Filters, on what the real agent captured.
    assert_eq!(ids_of(&["--method", "post"]), [post_id.as_str()]);
    assert_eq!(ids_of(&["--status", "2xx", "--since", "10m"]).len(), 2);
    assert_eq!(ids_of(&["--status", "404"]), Vec::<String>::new());
    assert_eq!(ids_of(&["--grep", "PAID"]), [post_id.as_str()]);
    assert_eq!(ids_of(&["--grep", "x-test"]).len(), 2, "header names too");
    assert_eq!(ids_of(&["--path", "/sta*"]), [get_id.as_str()]);
    assert_eq!(
        ids_of(&[
            "--tunnel",
            "hook (http)",
            "--method",
            "GET,POST",
            "--limit",
            "1"
        ])
        .len(),
        1
    );
    assert_eq!(ids_of(&["--tunnel", "nope", "--method", "GET"]).len(), 0);
    for bad in [["--status", "6xx"], ["--since", "10x"], ["--method", ""]] {
        let mut args = vec!["local", "requests", "list"];
        args.extend_from_slice(&bad);
        let out = tunnelctl(&args);
        out.code(2);
        assert!(out.stderr.contains(bad[0]), "{}", out.stderr);
    }

    // A changed replay goes to the tunnel's upstream (config.addr, http://localhost:8080):
    // the echo shows the changed body; nothing new is captured.
    let out = tunnelctl(&[
        "local",
        "requests",
        "replay",
        &post_id,
        "--set",
        "n=2",
        "-H",
        "X-Test: changed",
    ]);
    out.ok();
    assert!(out.stdout.contains("< HTTP/1.0 200 OK"), "{}", out.stdout);
    assert!(
        out.stdout.contains("\"path\": \"/hook?n=1\""),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains(r#"\"n\":2"#), "{}", out.stdout);
    assert_eq!(ids_of(&[]).len(), 2, "not through the agent");
    // --body from a file.
    let dir = tempfile::tempdir().unwrap();
    let body = dir.path().join("refund.json");
    std::fs::write(&body, "{\"event\":\"refunded\"}").unwrap();
    let at = format!("@{}", body.display());
    let out = tunnelctl(&[
        "local", "requests", "replay", &post_id, "--body", &at, "--json",
    ]);
    out.ok();
    let answer = out.json();
    assert_eq!(answer["response"]["status_code"], 200);
    let raw = base64_decode(answer["response"]["raw"].as_str().unwrap());
    assert!(raw.contains("refunded"), "{raw}");
    // --to the tunnel's own edge: the real agent takes it as a visitor's request and captures
    // it, with the changed header and body.
    tunnelctl(&[
        "local",
        "requests",
        "replay",
        &post_id,
        "--set",
        "n=3",
        "-H",
        "X-Test: via-edge",
        "--remove-header",
        "Content-Type",
        "--to",
        &edge,
    ])
    .ok();
    let three = wait_for_requests("hook (http)", 3);
    let newest = three
        .iter()
        .find(|r| captured_header(r, "x-test").as_deref() == Some("via-edge"))
        .expect("the changed replay, captured by the agent");
    assert_eq!(newest["request"]["method"], "POST");
    assert_eq!(newest["request"]["uri"], "/hook?n=1");
    assert_eq!(captured_header(newest, "content-type"), None);
    let shown = tunnelctl(&[
        "local",
        "requests",
        "get",
        newest["id"].as_str().unwrap(),
        "--raw",
    ]);
    assert!(
        shown.stdout.ends_with(r#"{"event":"paid","n":3}"#),
        "{}",
        shown.stdout
    );

    // save, then send after the captures are gone.
    let file = dir.path().join("paid.http");
    let path = file.to_str().unwrap();
    tunnelctl(&["local", "requests", "save", &post_id, "--out", path]).ok();
    tunnelctl(&["local", "requests", "save", &post_id, "--out", path]).code(2);
    let har = dir.path().join("all.har");
    tunnelctl(&[
        "local",
        "requests",
        "export",
        "--har",
        har.to_str().unwrap(),
    ])
    .ok();
    tunnelctl(&["local", "requests", "clear", "--yes"]).ok();
    let out = tunnelctl(&[
        "local",
        "requests",
        "send",
        path,
        "--to",
        "http://127.0.0.1:8080",
    ]);
    out.ok();
    assert!(
        out.stdout.contains(r#"\"event\":\"paid\""#),
        "{}",
        out.stdout
    );
    let out = tunnelctl(&[
        "local",
        "requests",
        "send",
        path,
        "--tunnel",
        "hook (http)",
        "--json",
    ]);
    out.ok();
    assert_eq!(out.json()["response"]["status_code"], 200);
    // Through the edge: the agent captures the sent file again, as it was saved.
    tunnelctl(&["local", "requests", "send", path, "--to", &edge]).ok();
    let again = wait_for_requests("hook (http)", 1);
    assert_eq!(again[0]["request"]["uri"], "/hook?n=1");
    let out = tunnelctl(&[
        "local",
        "requests",
        "send",
        "--har",
        har.to_str().unwrap(),
        "--to",
        "http://127.0.0.1:8080",
    ]);
    out.ok();
    assert_eq!(out.stdout.lines().count(), 3, "{}", out.stdout);
    assert!(
        out.stdout.lines().all(|l| l.starts_with("200 OK")),
        "{}",
        out.stdout
    );

    tunnelctl(&["local", "tunnels", "stop", "hook"]).ok();
    tunnelctl(&["local", "tunnels", "stop", "hook (http)"]).ok();
}

fn base64_decode(s: &str) -> String {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(s)
        .expect("base64");
    String::from_utf8_lossy(&bytes).into_owned()
}

#[path = "providers/official.rs"]
mod official;

/// Sends one request with these headers through an edge, as a visitor would.
fn visit_with(port: u16, path: &str, headers: &[(String, String)], body: &str) -> String {
    let mut all = vec![("Content-Type", "application/json")];
    all.extend(headers.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    common::upstream::visit_as(port, "visitor.test", "POST", path, &all, body.as_bytes())
}

#[test]
#[ignore = "needs the real agent: run through ../shared/real-agent/with-agent (see .ci/run)"]
fn signed_webhooks_against_the_real_agent() {
    let Some(lib) = official::Official::find("real_agent::signed_webhooks") else {
        return;
    };
    const SECRET: &str = "real-agent-github-secret-9e2b";
    const VAR: &str = var::WEBHOOK_SECRET_GITHUB;
    let with_secret = |args: &[&str]| {
        assert_eq!(std::env::var("REAL_AGENT").as_deref(), Ok("1"), "{WHY}");
        let mut cmd = assert_cmd::Command::cargo_bin("tunnelctl").expect("the binary is built");
        cmd.env_remove("RUST_BACKTRACE").env(VAR, SECRET).args(args);
        common::run(&mut cmd)
    };
    let port = start_http_tunnel("signed");
    tunnelctl(&["local", "requests", "clear", "--yes"]).ok();
    let body = "{\"action\":\"opened\",\"n\":1}";
    let signed = lib.sign("github", body, SECRET, 0);
    assert!(visit_with(port, "/gh", &signed, body).contains("200"));
    let id = wait_for_requests("signed (http)", 1)[0]["id"]
        .as_str()
        .unwrap()
        .to_string();

    // Captured: valid with the secret, invalid with another (exit 8), no-secret without.
    let out = with_secret(&["local", "requests", "verify", &id, "--json"]);
    out.ok();
    assert_eq!(out.json()[0]["result"], "valid");
    assert_eq!(out.json()[0]["provider"], "github");
    let out = tunnelctl(&["local", "requests", "verify", &id, "--json"]);
    out.ok();
    assert_eq!(out.json()[0]["result"], "no-secret");
    with_secret(&["local", "requests", "get", &id])
        .ok()
        .prints("Signature: GitHub, valid");

    // Changed and sent back through the edge, the agent captures it: it was signed again,
    // and GitHub's own verifier accepts what the agent received.
    let edge = format!("http://127.0.0.1:{port}");
    let out = with_secret(&[
        "local", "requests", "replay", &id, "--set", "n=2", "--to", &edge,
    ]);
    out.ok();
    assert!(!out.stderr.contains(SECRET) && !out.stdout.contains(SECRET));
    let both = wait_for_requests("signed (http)", 2);
    let again = both
        .iter()
        .find(|r| r["id"] != id.as_str())
        .expect("the changed replay, captured");
    let again_id = again["id"].as_str().unwrap();
    let out = with_secret(&["local", "requests", "verify", again_id, "--json"]);
    out.ok();
    assert_eq!(out.json()[0]["result"], "valid");
    let raw = base64_decode(again["request"]["raw"].as_str().unwrap());
    let (head, sent_body) = raw.split_once("\r\n\r\n").expect("a request");
    assert_eq!(sent_body, "{\"action\":\"opened\",\"n\":2}");
    let headers: Vec<(String, String)> = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.to_string(), v.trim().to_string()))
        .collect();
    let verdict = lib.run(
        "github",
        vec![official::verify_op(&headers, sent_body, SECRET)],
    );
    assert!(official::accepted(&verdict[0]), "{verdict:?}");

    // The original, tampered in a replay with --keep-signature: invalid, exit 8.
    with_secret(&[
        "local",
        "requests",
        "replay",
        &id,
        "--set",
        "n=3",
        "--keep-signature",
        "--to",
        &edge,
    ])
    .ok();
    wait_for_requests("signed (http)", 3);
    with_secret(&["local", "requests", "verify"])
        .code(8)
        .prints("invalid");
    tunnelctl(&["local", "tunnels", "stop", "signed"]).ok();
    tunnelctl(&["local", "tunnels", "stop", "signed (http)"]).ok();
}

#[test]
#[ignore = "needs the real agent: run through ../shared/real-agent/with-agent (see .ci/run)"]
fn a_webhook_captured_by_the_real_agent_becomes_a_fixture_that_passes() {
    let port = start_http_tunnel("fixture");
    tunnelctl(&["local", "requests", "clear", "--yes"]).ok();
    assert!(visit(
        port,
        "POST",
        "/hooks/paid",
        "{\"event\":\"paid\",\"amount\":100}"
    )
    .contains("200"));
    let id = wait_for_requests("fixture (http)", 1)[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let dir = tempfile::tempdir().unwrap();
    let hooks = dir.path().join("hooks");
    let hooks = hooks.to_str().unwrap();
    tunnelctl(&["local", "requests", "save", &id, "--into", hooks]).ok();
    let expect = std::fs::read_to_string(dir.path().join("hooks/post-hooks-paid.expect.toml"))
        .expect("the expectation file");
    assert!(expect.contains("status = 200"), "{expect}");
    assert!(expect.contains("\"path\": \"/hooks/paid\""), "{expect}");
    // The fixture passes against the upstream the agent forwarded to, sent without the agent.
    let out = tunnelctl(&[
        "local",
        "requests",
        "test",
        hooks,
        "--to",
        "http://127.0.0.1:8080",
    ]);
    out.ok();
    assert!(
        out.stdout.starts_with("PASS    post-hooks-paid"),
        "{}",
        out.stdout
    );
    tunnelctl(&["local", "tunnels", "stop", "fixture"]).ok();
    tunnelctl(&["local", "tunnels", "stop", "fixture (http)"]).ok();
}
