//! `local requests replay` with changes, `save` and `send`, with real traffic: a visitor's
//! request goes through an emulated tunnel to a test upstream, is captured, then is sent
//! again changed, saved to a file and sent from it.

use serde_json::{json, Value};

use crate::common::hostile::{Hostile, Reply};
use crate::common::upstream::{visit, Received, Upstream};
use crate::common::{run, words, Env, Out, API_KEY};
use crate::local::{captured, edge_port, tunnels_to_upstream};
use tunnelctl::registry::env as var;

/// A tunnel `hook` to an upstream, and one webhook captured on it: its ID.
pub(crate) fn one_webhook() -> (Env, Upstream, String) {
    let (env, up) = tunnels_to_upstream(&["hook"]);
    let port = edge_port(&env, "hook (http)");
    visit(
        port,
        "POST",
        "/hooks/pay?attempt=1",
        &[
            ("Content-Type", "application/json"),
            ("X-Signature", "sig-1"),
            ("Cookie", "session=abc"),
        ],
        br#"{"event":"paid","data":{"amount":100,"items":[{"sku":"a"}]}}"#,
    );
    let id = captured(&env)[0]["id"].as_str().unwrap().to_string();
    (env, up, id)
}

/// `tunnelctl local ARGS` with extra environment variables and stdin.
fn local_with(env: &Env, vars: &[(&str, &str)], stdin: &[u8], args: &[&str]) -> Out {
    let mut cmd = env.cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url());
    for (k, v) in vars {
        cmd.env(k, v);
    }
    run(cmd.arg("local").args(args).write_stdin(stdin.to_vec()))
}

fn header<'a>(r: &'a Received, name: &str) -> Option<&'a str> {
    r.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Nothing the upstream received carries the API key, in any header.
fn no_key_sent(up: &Upstream) {
    for r in up.received() {
        for (k, v) in &r.headers {
            assert!(!v.contains(API_KEY), "the API key went upstream in {k}");
        }
    }
}

/// The agent was not asked to replay anything.
fn agent_did_not_replay(env: &Env) {
    assert!(
        !env.mock
            .agent_requests()
            .iter()
            .any(|r| r.method == "POST" && r.path == "/api/requests/http"),
        "a changed replay does not go through the agent"
    );
}

#[test]
fn a_replay_with_changed_headers_and_json_fields_reaches_the_upstream() {
    let (env, up, id) = one_webhook();
    let out = env.local(&[
        "requests",
        "replay",
        &id,
        "--header",
        "X-Signature: sig-2",
        "-H",
        "X-Extra: 1",
        "--remove-header",
        "cookie",
        "--set",
        "data.amount=2500",
        "--set",
        "data.items.0.sku=b",
        "--add",
        "data.note=late",
    ]);
    out.ok()
        .prints("> POST /hooks/pay?attempt=1 HTTP/1.1")
        .prints("> X-Signature: sig-2")
        .prints("< HTTP/1.1 200 OK")
        .prints("\"method\": \"POST\"");
    let got = up.received();
    assert_eq!(got.len(), 2, "the capture, then the changed replay");
    let (orig, again) = (&got[0], &got[1]);
    assert_eq!(
        (again.method.as_str(), again.path.as_str()),
        ("POST", "/hooks/pay?attempt=1")
    );
    assert_eq!(header(again, "x-signature"), Some("sig-2"));
    assert_eq!(header(again, "x-extra"), Some("1"));
    assert_eq!(header(again, "cookie"), None);
    assert_eq!(header(again, "content-type"), Some("application/json"));
    assert_eq!(
        header(again, "host"),
        header(orig, "host"),
        "the Host is kept"
    );
    let body: Value = serde_json::from_slice(&again.body).unwrap();
    assert_eq!(
        body,
        json!({"event": "paid", "data": {"amount": 2500, "items": [{"sku": "b"}], "note": "late"}})
    );
    assert_eq!(
        header(again, "content-length"),
        Some(again.body.len().to_string().as_str())
    );
    no_key_sent(&up);
    agent_did_not_replay(&env);
    assert_eq!(captured(&env).len(), 1, "sent straight to the upstream");
}

#[test]
fn a_replay_with_a_new_body_from_a_file_or_stdin() {
    let (env, up, id) = one_webhook();
    let file = env.dir.path().join("event.json");
    std::fs::write(&file, b"{\"event\":\"refunded\"}").unwrap();
    let at = format!("@{}", file.display());
    env.local(&["requests", "replay", &id, "--body", &at]).ok();
    assert_eq!(up.received()[1].body, b"{\"event\":\"refunded\"}");
    // Binary bytes from stdin are sent as they are.
    let line = format!("requests replay {id} --body -");
    local_with(&env, &[], b"\x00\x01bin\xff", &words(&line)).ok();
    assert_eq!(up.received()[2].body, b"\x00\x01bin\xff");
    assert_eq!(header(&up.received()[2], "content-length"), Some("6"));
}

#[test]
fn json_output_is_shaped_like_a_capture() {
    let (env, _up, id) = one_webhook();
    let out = env.local(&["requests", "replay", &id, "-H", "X-A: 1", "--json"]);
    out.ok();
    let v = out.json();
    assert_eq!(v["source"], id.as_str());
    assert_eq!(v["request"]["method"], "POST");
    assert_eq!(v["request"]["headers"]["X-A"], json!(["1"]));
    assert_eq!(v["response"]["status_code"], 200);
    assert_eq!(v["response"]["status"], "200 OK");
    assert!(v["url"].as_str().unwrap().ends_with("/hooks/pay?attempt=1"));
    assert!(v["duration"].as_u64().is_some());
    let jq = env.local(&[
        "requests",
        "replay",
        &id,
        "-H",
        "X-A: 1",
        "--jq",
        ".response.status_code",
    ]);
    assert_eq!(jq.stdout.trim(), "200");
}

#[test]
fn to_sends_elsewhere_and_through_a_tunnel_the_emulator_captures_it() {
    let (env, up, id) = one_webhook();
    let other = Upstream::start();
    env.local(&[
        "requests",
        "replay",
        &id,
        "--to",
        &format!("http://127.0.0.1:{}/v2", other.port),
    ])
    .ok();
    assert_eq!(up.received().len(), 1, "not to the tunnel's upstream");
    let got = other.received();
    assert_eq!(got.len(), 1);
    assert_eq!(
        got[0].path, "/v2/hooks/pay?attempt=1",
        "the --to path goes first"
    );
    assert_eq!(got[0].body, up.received()[0].body, "unchanged");
    // Sent to the tunnel's own edge, the emulated agent takes it as a visitor's request.
    let edge = edge_port(&env, "hook (http)");
    env.local(&[
        "requests",
        "replay",
        &id,
        "-H",
        "X-Via: edge",
        "--to",
        &format!("http://127.0.0.1:{edge}"),
    ])
    .ok()
    .prints("< HTTP/1.1 200 OK");
    let list = captured(&env);
    assert_eq!(list.len(), 2, "captured again by the emulator");
    assert_eq!(list[0]["request"]["headers"]["X-Via"], json!(["edge"]));
    assert_eq!(up.received().len(), 2);
    no_key_sent(&up);
}

#[test]
fn a_replay_without_changes_still_goes_through_the_agent() {
    let (env, up, id) = one_webhook();
    env.local(&["requests", "replay", &id]).ok();
    assert!(env
        .mock
        .agent_requests()
        .iter()
        .any(|r| r.method == "POST" && r.path == "/api/requests/http"));
    assert_eq!(up.received().len(), 2);
    assert_eq!(captured(&env)[0]["remote_addr"], "replayed");
}

#[test]
fn edit_sends_what_is_saved_and_cancels_when_nothing_changed() {
    let (env, up, id) = one_webhook();
    let line = format!("requests replay {id} --edit");
    let replay = words(&line);
    // An editor that changes the body and a header.
    let editor = "sed -i -e s/paid/disputed/ -e s/sig-1/sig-9/";
    let out = local_with(&env, &[("EDITOR", editor), ("VISUAL", "")], b"", &replay);
    out.ok();
    let again = &up.received()[1];
    assert_eq!(
        again.body,
        br#"{"event":"disputed","data":{"amount":100,"items":[{"sku":"a"}]}}"#
    );
    assert_eq!(header(again, "x-signature"), Some("sig-9"));
    // VISUAL comes first; an unchanged file (the editor quit) or an emptied one sends nothing.
    for (editor, says) in [("true", "unchanged"), ("cp /dev/null", "emptied")] {
        let out = local_with(
            &env,
            &[("VISUAL", editor), ("EDITOR", "false")],
            b"",
            &replay,
        );
        out.code(2).says(says).says("nothing was sent");
    }
    // A file that is no longer a request is refused, and kept for the user.
    let out = local_with(&env, &[("EDITOR", "sed -i 1s/POST/P@ST/")], b"", &replay);
    out.code(2).says("not a valid HTTP request").says("kept in");
    // No editor and no terminal: refused before anything is asked.
    let out = local_with(&env, &[("EDITOR", ""), ("VISUAL", "")], b"", &replay);
    out.code(2).says("EDITOR");
    assert_eq!(up.received().len(), 2, "only the changed edit was sent");
}

#[test]
fn bad_changes_exit_2_and_send_nothing() {
    let (env, up, id) = one_webhook();
    env.mock.clear_agent_requests();
    // Refused from the command line alone: the agent is not even asked.
    let missing = env.dir.path().join("missing.json");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--header".into(), "nocolon".into()], "--header"),
        (vec!["--header".into(), "Bad Name: x".into()], "--header"),
        (
            vec!["--header".into(), "Content-Length: 1".into()],
            "--header",
        ),
        (
            vec!["--remove-header".into(), "a b".into()],
            "--remove-header",
        ),
        (vec!["--set".into(), "a..b=1".into()], "--set"),
        (vec!["--set".into(), "noequals".into()], "--set"),
        (vec!["--add".into(), "a..b=1".into()], "--add"),
        (vec!["--add".into(), "noequals".into()], "--add"),
        (vec!["--to".into(), "ftp://x".into()], "--to"),
        (vec!["--to".into(), "http://h/?q=1".into()], "--to"),
        (vec!["--body".into(), "text".into()], "--body"),
        (
            vec!["--body".into(), format!("@{}", missing.display())],
            "--body",
        ),
        (
            vec![
                "--tunnel".into(),
                "x".into(),
                "--to".into(),
                "http://h".into(),
            ],
            "--to",
        ),
    ];
    for (flags, says) in &cases {
        let mut args = vec!["requests", "replay", id.as_str()];
        args.extend(flags.iter().map(String::as_str));
        env.local(&args).code(2).says(says);
    }
    assert!(
        env.mock.agent_requests().is_empty(),
        "nothing asked of the agent"
    );
    // Refused once the capture is read: --set on a body that is not JSON, or a path that does
    // not fit it.
    let port = edge_port(&env, "hook (http)");
    visit(
        port,
        "POST",
        "/plain",
        &[("Content-Type", "text/plain")],
        b"hello",
    );
    let plain = captured(&env)[0]["id"].as_str().unwrap().to_string();
    env.local(&["requests", "replay", &plain, "--set", "a=1"])
        .code(2)
        .says("not a JSON object");
    env.local(&["requests", "replay", &id, "--set", "event.x=1"])
        .code(2)
        .says("--set event.x");
    assert_eq!(
        up.received().len(),
        2,
        "the two visits only: nothing replayed"
    );
    agent_did_not_replay(&env);
}

#[test]
fn set_refuses_a_field_the_body_lacks_naming_the_near_one_and_add_adds_it_on_purpose() {
    let (env, up, id) = one_webhook();
    let before = up.received().len();
    // A typo: refused, the near name said, and how to add one on purpose; nothing sent.
    env.local(&["requests", "replay", &id, "--set", ".data.amout=1"])
        .code(2)
        .says_all(&[
            "--set .data.amout: the body has no field .data.amout",
            "did you mean .data.amount?",
            "use --add instead of --set",
            "nothing was sent",
        ]);
    // Nothing near: the names there are said.
    env.local(&["requests", "replay", &id, "--set", "data.total.cents=1"])
        .code(2)
        .says("the body has no field .data.total (it holds amount, items)");
    // --add takes only a field that is not there.
    env.local(&["requests", "replay", &id, "--add", ".data.amount=1"])
        .code(2)
        .says("the body has .data.amount already: change it with --set");
    assert_eq!(up.received().len(), before, "nothing was sent");
    agent_did_not_replay(&env);
    env.local(&[
        "requests",
        "replay",
        &id,
        "--add",
        ".data.amout=1",
        "--add",
        ".meta.tries=2",
        "--set",
        ".data.amount=7",
    ])
    .ok();
    let body: Value = serde_json::from_slice(&up.received().pop().unwrap().body).unwrap();
    assert_eq!(
        body,
        json!({"event": "paid", "data": {"amount": 7, "items": [{"sku": "a"}], "amout": 1}, "meta": {"tries": 2}})
    );
}

#[test]
fn a_tunnel_that_is_gone_or_an_upstream_that_is_down_is_explained() {
    let (env, _up, id) = one_webhook();
    env.local(&["tunnels", "stop", "hook (http)"]).ok();
    env.local(&["requests", "replay", &id, "-H", "X: 1"])
        .code(4)
        .says("give --to URL");
    env.local(&[
        "requests",
        "replay",
        &id,
        "-H",
        "X: 1",
        "--to",
        "http://127.0.0.1:9",
    ])
    .code(6)
    .says("could not connect to http://127.0.0.1:9");
}

#[test]
fn any_status_the_upstream_answers_is_shown_not_an_error() {
    let (env, _up, id) = one_webhook();
    let failing = Hostile::start(|_| {
        Reply::With(
            500,
            vec![("Content-Type".into(), "text/plain".into())],
            b"handler crashed \x1b[31m".to_vec(),
        )
    });
    let out = env.local(&["requests", "replay", &id, "--to", &failing.url()]);
    out.ok()
        .prints("< HTTP/1.1 500 Internal Server Error")
        .prints("handler crashed \\x1b[31m");
    assert!(!out.stdout.contains('\x1b'));
    assert_eq!(failing.count(), 1);
}

#[test]
fn save_writes_a_request_file_that_send_sends_again() {
    let (env, up, id) = one_webhook();
    let file = env.dir.path().join("paid.http");
    let path = file.to_str().unwrap();
    env.local(&["requests", "save", &id, "--out", path])
        .ok()
        .says("Saved");
    let raw = env.local(&["requests", "get", &id, "--raw"]);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        raw.stdout.as_bytes(),
        "the format of --raw"
    );
    // Never overwritten without --force.
    std::fs::write(&file, b"keep me").unwrap();
    env.local(&["requests", "save", &id, "--out", path])
        .code(2)
        .says("--force");
    assert_eq!(std::fs::read(&file).unwrap(), b"keep me");
    env.local(&["requests", "save", &id, "--out", path, "--force"])
        .ok();
    assert_eq!(std::fs::read(&file).unwrap(), raw.stdout.as_bytes());
    let stdout = env.local(&["requests", "save", &id, "--out", "-"]);
    assert_eq!(stdout.stdout, raw.stdout);

    // The agent restarted (nothing captured any more): the file still sends the webhook.
    env.local(&["requests", "clear", "--yes"]).ok();
    let other = Upstream::start();
    let out = env.local(&[
        "requests",
        "send",
        path,
        "--to",
        &format!("http://127.0.0.1:{}", other.port),
    ]);
    out.ok()
        .prints("< HTTP/1.1 200 OK")
        .prints("\"event\\\":\\\"paid\\\"");
    let (orig, again) = (&up.received()[0], &other.received()[0]);
    assert_eq!(
        (&again.method, &again.path, &again.body),
        (&orig.method, &orig.path, &orig.body)
    );
    assert_eq!(header(again, "x-signature"), Some("sig-1"));
    // --tunnel NAME sends to that tunnel's upstream.
    env.local(&["requests", "send", path, "--tunnel", "hook (http)"])
        .ok();
    assert_eq!(up.received().len(), 2);
    no_key_sent(&up);
    no_key_sent(&other);
}

#[test]
fn send_several_files_prints_a_line_each_and_a_har_log_too() {
    let (env, up, _id) = one_webhook();
    let port = edge_port(&env, "hook (http)");
    visit(port, "GET", "/status", &[], b"");
    let dir = env.dir.path();
    let har = dir.join("all.har");
    env.local(&["requests", "export", "--har", har.to_str().unwrap()])
        .ok();
    let a = dir.join("a.http");
    std::fs::write(&a, "PUT /items/1 HTTP/1.1\nHost: shop.test\nContent-Type: text/plain\nContent-Length: 8\n\nnew name\n").unwrap();
    let b = dir.join("b.http");
    std::fs::write(&b, "DELETE /items/2 HTTP/1.1\r\nHost: shop.test\r\n\r\n").unwrap();
    let to = format!("http://127.0.0.1:{}", up.port);
    let out = env.local(&[
        "requests",
        "send",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--to",
        &to,
    ]);
    out.ok();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert!(
        lines[0].starts_with("200 OK  PUT /items/1  ") && lines[0].ends_with("a.http"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("200 OK  DELETE /items/2  "),
        "{}",
        lines[1]
    );
    let got = up.received();
    assert_eq!(
        got[2].body, b"new name",
        "the newline an editor adds after Content-Length bytes is not sent"
    );
    assert_eq!(got[3].method, "DELETE");

    let before = up.received().len();
    let out = env.local(&[
        "requests",
        "send",
        "--har",
        har.to_str().unwrap(),
        "--to",
        &to,
        "--json",
    ]);
    out.ok();
    let sent = out.json();
    assert_eq!(sent.as_array().unwrap().len(), 2);
    assert!(sent[0]["source"].as_str().unwrap().ends_with("all.har#1"));
    let got = &up.received()[before..];
    assert_eq!(
        got.iter()
            .map(|r| (r.method.as_str(), r.path.as_str()))
            .collect::<Vec<_>>(),
        [("POST", "/hooks/pay?attempt=1"), ("GET", "/status")],
        "oldest first, as the log lists them"
    );
    assert_eq!(got[0].body, up.received()[0].body);
}

#[test]
fn send_refuses_bad_files_before_sending_any_and_reports_failures() {
    let (env, up, _id) = one_webhook();
    let dir = env.dir.path();
    let good = dir.join("good.http");
    std::fs::write(&good, "GET /ok HTTP/1.1\r\nHost: h\r\n\r\n").unwrap();
    let bad = dir.join("bad.http");
    std::fs::write(&bad, "this is not a request\n").unwrap();
    let notjson = dir.join("x.har");
    std::fs::write(&notjson, "{").unwrap();
    let to = format!("http://127.0.0.1:{}", up.port);
    let (g, b) = (good.to_str().unwrap(), bad.to_str().unwrap());
    env.local(&["requests", "send", g, b, "--to", &to])
        .code(2)
        .says("bad.http: not an HTTP request")
        .says("nothing was sent");
    env.local(&[
        "requests",
        "send",
        "--har",
        notjson.to_str().unwrap(),
        "--to",
        &to,
    ])
    .code(2)
    .says("not JSON");
    env.local(&["requests", "send", g, "--to", "ftp://x"])
        .code(2)
        .says("--to");
    env.local(&["requests", "send", g]).code(2).says("--to");
    env.local(&["requests", "send", "missing.http", "--to", &to])
        .code(2)
        .says("missing.http");
    assert_eq!(up.received().len(), 1, "only the visit: nothing was sent");
    // The upstream down: each file reported, exit 6 as they all failed alike.
    let out = env.local(&["requests", "send", g, g, "--to", "http://127.0.0.1:9"]);
    out.code(6).says("could not connect");
    // Some sent, some not: exit 5.
    let flaky = Hostile::start(|seen| {
        if seen.target == "/ok" {
            Reply::ok("{}")
        } else {
            Reply::Close
        }
    });
    let drop_me = dir.join("drop.http");
    std::fs::write(
        &drop_me,
        "POST /drop HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\nx",
    )
    .unwrap();
    let out = env.local(&[
        "requests",
        "send",
        g,
        drop_me.to_str().unwrap(),
        "--to",
        &flaky.url(),
    ]);
    out.code(5).says("drop.http");
    assert!(out.stdout.contains("200 OK  GET /ok"), "{}", out.stdout);
    assert_eq!(
        flaky.count(),
        2,
        "the POST that failed after sending is not sent again"
    );
}

#[test]
fn hostile_captures_are_saved_as_captured_and_never_reach_the_terminal() {
    let env = Env::new();
    let seeded = env.mock.seed_captures(json!([
        {"tunnel_name": "t (http)", "method": "POST", "uri": "/evil",
         "headers": {"X-C1": ["\u{9b}31m"]}, "body": "bell \u{7} \u{1b}[2J"}
    ]));
    let id = seeded[0].as_str().unwrap().to_string();
    let file = env.dir.path().join("evil.http");
    env.local(&["requests", "save", &id, "--out", file.to_str().unwrap()])
        .ok();
    let raw = env.local(&["requests", "get", &id, "--raw"]);
    assert_eq!(std::fs::read(&file).unwrap(), raw.stdout.as_bytes());
    // To a terminal only with --force, as get --raw.
    let tty = |extra: &[&str]| {
        let mut cmd = env.cmd();
        cmd.env(var::AGENT_URL, env.mock.agent_url())
            .env(var::FORCE_TTY, "1")
            .args(["local", "requests", "save", &id, "--out", "-"])
            .args(extra);
        run(&mut cmd)
    };
    let refused = tty(&[]);
    refused.code(2).says("--force");
    assert_eq!(refused.stdout, "");
    assert!(tty(&["--force"]).ok().stdout.contains('\u{1b}'));
    // A header no server takes (in a file written by hand) is not sent: refused before
    // anything goes out, whichever file holds it.
    let up = Hostile::start(|_| Reply::ok("{}"));
    let evil = env.dir.path().join("evil-header.http");
    std::fs::write(
        &evil,
        "GET / HTTP/1.1\r\nX-Evil: a\x1b]52;c;aGk=\x07\r\n\r\n",
    )
    .unwrap();
    env.local(&[
        "requests",
        "send",
        file.to_str().unwrap(),
        evil.to_str().unwrap(),
        "--to",
        &up.url(),
    ])
    .code(2)
    .says("evil-header.http: the header X-Evil: a\\x1b]52;c;aGk=\\x07")
    .says("nothing was sent");
    assert_eq!(up.count(), 0);
    // The C1 character (valid bytes on the wire) is sent; the answer's headers and body are
    // shown escaped.
    let back = Hostile::start(|_| {
        Reply::With(
            200,
            vec![("X-Back".into(), "\u{9b}0;title".into())],
            b"ok \x1b[31m".to_vec(),
        )
    });
    let out = env.local(&[
        "requests",
        "replay",
        &id,
        "-H",
        "X-Via: test",
        "--to",
        &back.url(),
    ]);
    out.ok()
        .prints("< X-Back: \\u{9b}0;title")
        .prints("ok \\x1b[31m");
    for bad in ['\u{1b}', '\u{7}', '\u{9b}'] {
        assert!(!out.stdout.contains(bad), "{bad:?} reached the terminal");
    }
    assert_eq!(back.seen()[0].header("x-c1"), Some("\u{9b}31m"));
    assert_eq!(back.seen()[0].body, "bell \u{7} \u{1b}[2J".as_bytes());
}

#[test]
fn a_request_to_a_server_off_loopback_goes_through_the_environments_http_proxy() {
    let env = Env::new();
    let proxy = Hostile::start(|_| {
        Reply::With(200, vec![("X-Proxy-ID".into(), "p".into())], b"ok".to_vec())
    });
    let file = env.dir.path().join("get.http");
    std::fs::write(
        &file,
        "GET /thing?a=1 HTTP/1.1\r\nHost: example.test\r\n\r\n",
    )
    .unwrap();
    let mut cmd = env.cmd();
    for var in [
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "ALL_PROXY",
        "no_proxy",
        "NO_PROXY",
    ] {
        cmd.env_remove(var);
    }
    let via = format!("http://user:pw@127.0.0.1:{}", proxy.port());
    cmd.env("HTTP_PROXY", via).args([
        "local",
        "requests",
        "send",
        file.to_str().unwrap(),
        "--to",
        "http://example.test:81",
    ]);
    run(&mut cmd).ok().prints("< X-Proxy-ID: p");
    let seen = &proxy.seen()[0];
    assert_eq!(seen.target, "http://example.test:81/thing?a=1");
    // `user:pw`, as the proxy's URL gives them.
    assert_eq!(
        seen.header("proxy-authorization"),
        Some("Basic dXNlcjpwdw==")
    );
    // The Host of --to, not the file's (`--keep-host` sends that one).
    assert_eq!(seen.header("host"), Some("example.test:81"));
}
