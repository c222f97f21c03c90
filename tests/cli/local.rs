//! `tunnelctl local …` against the emulator's agent half, with real HTTP traffic through its
//! tunnels to a test upstream.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use crate::common::seed::capture_kinds;
use crate::common::upstream::{visit, Upstream};
use crate::common::{run, strings, strings_at, wait_until, words, Env, Out};
use base64::Engine;
use serde_json::{json, Value};
use tunnelctl::registry::env as var;

/// The edge port of a tunnel leg.
pub(crate) fn edge_port(env: &Env, name: &str) -> u16 {
    let edges = env.mock.agent_edges();
    edges
        .as_array()
        .and_then(|a| a.iter().find(|e| e["name"] == name))
        .and_then(|e| e["edge_port"].as_u64())
        .unwrap_or_else(|| panic!("no edge for {name}: {edges}")) as u16
}

/// An emulator with an upstream and an HTTP tunnel to it for each name.
pub(crate) fn tunnels_to_upstream(names: &[&str]) -> (Env, Upstream) {
    let env = Env::new();
    let up = Upstream::start();
    for name in names {
        start_http(&env, name, &up);
    }
    (env, up)
}

fn start_http(env: &Env, name: &str, upstream: &Upstream) {
    env.local(&words(&format!(
        "tunnels start --name {name} --proto http --addr {}",
        upstream.port
    )))
    .ok();
}

pub(crate) fn captured(env: &Env) -> Vec<Value> {
    let out = env.local(&["requests", "list", "--json"]);
    out.ok();
    out.json().as_array().cloned().unwrap_or_default()
}

fn b64(b: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(b)
}

#[test]
fn the_webhook_loop_with_real_traffic() {
    let (env, up) = tunnels_to_upstream(&["hook"]);
    let leg = "hook (http)";
    let port = edge_port(&env, leg);
    assert!(visit(
        port,
        "POST",
        "/hook?n=1",
        &[("Content-Type", "application/json")],
        b"{\"event\":\"paid\"}"
    )
    .contains("200 OK"));
    assert!(visit(port, "GET", "/status", &[], b"").contains("200 OK"));
    assert_eq!(up.received().len(), 2);

    let list = captured(&env);
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["request"]["method"], "GET", "newest first");
    let id = list[1]["id"].as_str().unwrap().to_string();
    assert!(id.starts_with("airt_"));

    let shown = env.local(&["requests", "get", &id]);
    shown
        .ok()
        .prints("> POST /hook?n=1 HTTP/1.1")
        .prints("\"event\": \"paid\"")
        .prints("< HTTP/1.1 200 OK");

    let raw = env.local(&["requests", "get", &id, "--raw"]);
    raw.ok();
    assert!(raw.stdout.starts_with("POST /hook?n=1 HTTP/1.1\r\n"));
    assert!(raw.stdout.ends_with("{\"event\":\"paid\"}"));
    let json = env.local(&["requests", "get", &id, "--json"]);
    assert_eq!(json.json()["id"], id.as_str());

    let replay = env.local(&["requests", "replay", &id]);
    // The new exchange is named with its status, once the agent has captured it.
    replay
        .ok()
        .says(&format!("Replayed {id} as airt_"))
        .says(": 200 in ");
    assert_eq!(replay.stdout, "");
    let got = up.received();
    assert_eq!(got.len(), 3, "the upstream received the replay");
    assert_eq!(got[2].method, "POST");
    assert_eq!(got[2].path, "/hook?n=1");
    assert_eq!(got[2].body, b"{\"event\":\"paid\"}");
    let again = captured(&env);
    assert_eq!(again.len(), 3);
    assert_eq!(again[0]["remote_addr"], "replayed");
    assert!(replay.stderr.contains(again[0]["id"].as_str().unwrap()));
    // With --json, the new exchange itself.
    let shown = env.local(&["requests", "replay", &id, "--json"]);
    let new = shown.json();
    assert_eq!(new["remote_addr"], "replayed");
    assert_eq!(new["response"]["status_code"], 200);
    assert_eq!(captured(&env)[0]["id"], new["id"]);

    env.local(&["requests", "clear", "--yes"]).ok();
    assert!(captured(&env).is_empty());

    env.local(&["tunnels", "stop", "hook"]).ok();
    let gone = env.local(&["tunnels", "get", "hook"]);
    gone.code(4).says("tunnel not found");
    env.local(&["tunnels", "get", leg]).ok();
    let missing = env.local(&["requests", "get", &id]);
    missing.code(4).says("request entry not found");
}

#[test]
fn agent_requests_ask_for_json_carry_no_credentials_and_encode_names() {
    let (env, up) = tunnels_to_upstream(&["t1"]);
    env.local(&["tunnels", "get", "t1 (http)"]).ok();
    env.local(&["requests", "replay", "airt_x", "--tunnel", "t1 (http)"])
        .code(4);
    let log = env.mock.agent_requests();
    assert!(!log.is_empty());
    for r in &log {
        assert_eq!(r.header("accept"), Some("application/json"), "{r:?}");
        assert_eq!(
            r.header("authorization"),
            None,
            "no credentials for the agent"
        );
        if !r.body.is_empty() {
            assert_eq!(r.header("content-type"), Some("application/json"));
        }
    }
    let start = &log[0];
    assert_eq!(
        (start.method.as_str(), start.path.as_str()),
        ("POST", "/api/tunnels")
    );
    assert_eq!(
        start.body_json(),
        Some(json!({"name": "t1", "proto": "http", "addr": up.port.to_string()}))
    );
    assert!(
        log.iter()
            .any(|r| r.method == "GET" && r.path == "/api/tunnels/t1%20%28http%29"),
        "{log:?}"
    );
    let replay = log
        .iter()
        .find(|r| r.method == "POST" && r.path == "/api/requests/http")
        .unwrap();
    assert_eq!(
        replay.body_json(),
        Some(json!({"id": "airt_x", "tunnel_name": "t1 (http)"}))
    );
    assert!(
        env.requests().is_empty(),
        "nothing went to the management API"
    );
}

#[test]
fn start_sends_the_configuration_fields() {
    let env = Env::new();
    let out = env.local(&[
        "tunnels",
        "start",
        "--name",
        "web",
        "--proto",
        "http",
        "--addr",
        "8080",
        "--no-inspect",
        "--host-header",
        "rewrite",
        "--basic-auth",
        "user:secretpw",
        "--subdomain",
        "shop",
        "--schemes",
        "http,https",
        "--metadata",
        "m",
        "--config-json",
        "{\"extra\": 1, \"name\": \"overridden\"}",
        "--json",
    ]);
    out.ok();
    let sent = env
        .mock
        .agent_requests()
        .into_iter()
        .find(|r| r.method == "POST")
        .unwrap();
    assert_eq!(
        sent.body_json(),
        Some(
            json!({"extra": 1, "name": "web", "proto": "http", "addr": "8080", "inspect": false, "host_header": "rewrite",
                    "auth": "user:secretpw", "subdomain": "shop", "bind_tls": "both", "metadata": "m"})
        )
    );
    let tcp = env.local(&words(
        "tunnels start --name db --proto tcp --addr 5432 --remote-addr 1.tcp.test:20000",
    ));
    tcp.ok();
}

#[test]
fn bad_start_flags_send_nothing() {
    let env = Env::new();
    // Each line: the flags after `local tunnels start`, and the flag the refusal names.
    let cases = [
        ("--proto gopher --addr 1 --name x", "--proto"),
        ("--proto http --addr 1", "--name"),
        (
            "--proto http --addr 1 --name x --basic-auth nopass",
            "--basic-auth",
        ),
        ("--proto http --addr 1 --name x --schemes ftp", "--schemes"),
        (
            "--proto http --addr 1 --name x --remote-addr a:1",
            "--remote-addr",
        ),
        (
            "--proto tcp --addr 1 --name x --host-header h",
            "--host-header",
        ),
        (
            "--proto http --addr 1 --name x --config-json [1]",
            "--config-json",
        ),
        (
            "--proto http --addr 1 --name x --config-json {nope",
            "--config-json",
        ),
        (
            "--proto http --addr 1 --name x --subdomain a --domain b.test",
            "--domain",
        ),
    ];
    let odd: [(&[&str], &str); 2] = [
        (&["--proto", "http", "--addr", "", "--name", "x"], "--addr"),
        (&["--proto", "http", "--addr", "1", "--name", " "], "--name"),
    ];
    let lines = cases.iter().map(|(line, flag)| (words(line), *flag));
    for (args, flag) in lines.chain(odd.iter().map(|(a, f)| (a.to_vec(), *f))) {
        let mut all = vec!["tunnels", "start"];
        all.extend_from_slice(&args);
        env.local(&all).code(2).says(flag);
    }
    assert!(env.mock.agent_requests().is_empty());
}

#[test]
fn tunnels_are_listed_sorted_by_name() {
    let (env, _up) = tunnels_to_upstream(&["zeta", "alpha", "mid"]);
    for _ in 0..3 {
        let out = env.local(&["tunnels", "list"]);
        out.ok();
        let names: Vec<&str> = out
            .stdout
            .lines()
            .map(|l| l.split('\t').next().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "alpha",
                "alpha (http)",
                "mid",
                "mid (http)",
                "zeta",
                "zeta (http)"
            ]
        );
    }
}

#[test]
fn limits_and_filters() {
    let (env, _up) = tunnels_to_upstream(&["a", "b"]);
    for _ in 0..3 {
        visit(edge_port(&env, "a (http)"), "GET", "/a", &[], b"");
    }
    visit(edge_port(&env, "b (http)"), "GET", "/b", &[], b"");
    let two = env.local(&["requests", "list", "--limit", "2", "--json"]);
    assert_eq!(two.json().as_array().unwrap().len(), 2);
    let only_b = env.local(&["requests", "list", "--tunnel", "b (http)", "--json"]);
    let only_b = only_b.json();
    assert_eq!(only_b.as_array().unwrap().len(), 1);
    assert_eq!(only_b[0]["request"]["uri"], "/b");
    let none = env.local(&["requests", "list", "--tunnel", "nope", "--json"]);
    assert_eq!(none.json(), json!([]));
    env.mock.clear_agent_requests();
    for bad in ["0", "-1", "x"] {
        let out = env.local(&["requests", "list", "--limit", bad]);
        out.code(2).says("--limit");
        env.local(&["requests", "export", "--har", "-", "--limit", bad])
            .code(2);
    }
    assert!(
        env.mock.agent_requests().is_empty(),
        "refused before asking the agent"
    );
}

#[test]
fn export_writes_a_valid_har_and_curl_reproduces_the_request() {
    let (env, up) = tunnels_to_upstream(&["web"]);
    let port = edge_port(&env, "web (http)");
    visit(
        port,
        "PUT",
        "/items/7?x=1&y=two",
        &[
            ("Content-Type", "application/json"),
            ("X-Sig", "it's \"quoted\""),
        ],
        b"{\"n\":7}",
    );
    visit(port, "GET", "/plain", &[], b"");
    let file = env.dir.path().join("out.har");
    let out = env.local(&["requests", "export", "--har", file.to_str().unwrap()]);
    out.ok();
    let har: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let log = &har["log"];
    assert_eq!(log["version"], "1.2");
    assert!(log["creator"]["name"].is_string() && log["creator"]["version"].is_string());
    let entries = log["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    for e in entries {
        // The fields HAR 1.2 requires.
        assert!(e["startedDateTime"].is_string() && e["time"].is_number());
        for k in [
            "method",
            "url",
            "httpVersion",
            "cookies",
            "headers",
            "queryString",
            "headersSize",
            "bodySize",
        ] {
            assert!(!e["request"][k].is_null(), "request.{k}: {e}");
        }
        for k in [
            "status",
            "statusText",
            "httpVersion",
            "cookies",
            "headers",
            "content",
            "redirectURL",
            "headersSize",
            "bodySize",
        ] {
            assert!(!e["response"][k].is_null(), "response.{k}: {e}");
        }
        assert!(
            e["response"]["content"]["size"].is_number()
                && e["response"]["content"]["mimeType"].is_string()
        );
        assert!(
            e["cache"].is_object()
                && e["timings"]["send"].is_number()
                && e["timings"]["wait"].is_number()
                && e["timings"]["receive"].is_number()
        );
        for h in e["request"]["headers"].as_array().unwrap() {
            assert!(h["name"].is_string() && h["value"].is_string());
        }
    }
    let put = &entries[0];
    assert_eq!(put["request"]["method"], "PUT", "oldest first");
    assert_eq!(
        put["request"]["url"],
        format!("http://127.0.0.1:{port}/items/7?x=1&y=two")
    );
    assert_eq!(
        put["request"]["queryString"],
        json!([{"name": "x", "value": "1"}, {"name": "y", "value": "two"}])
    );
    assert_eq!(put["request"]["postData"]["text"], "{\"n\":7}");
    assert_eq!(put["response"]["status"], 200);

    // The curl line, run by a shell, sends the same request through the tunnel to the upstream.
    let id = captured(&env)[1]["id"].as_str().unwrap().to_string();
    let line = env.local(&["requests", "get", &id, "--curl"]);
    line.ok();
    let before = up.received().len();
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{} -s -o /dev/null", line.stdout.trim()))
        .status()
        .unwrap();
    assert!(status.success(), "{}", line.stdout);
    let got = up.received();
    assert_eq!(got.len(), before + 1);
    let (orig, again) = (&got[0], &got[before]);
    assert_eq!(
        (again.method.as_str(), again.path.as_str(), &again.body),
        (orig.method.as_str(), orig.path.as_str(), &orig.body)
    );
    let sig = |r: &common::upstream::Received| {
        r.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("x-sig"))
            .map(|(_, v)| v.clone())
    };
    assert_eq!(sig(again), sig(orig));
}

/// tail prints a new request at its next look at the captures: counted in the agent's log of
/// tail's looks, not timed.
#[test]
fn tail_prints_a_request_at_its_next_look() {
    let (env, _up) = tunnels_to_upstream(&["t"]);
    let port = edge_port(&env, "t (http)");
    visit(port, "GET", "/old", &[], b"");
    let mut child = env
        .std_cmd()
        .env(var::AGENT_URL, env.mock.agent_url())
        .args(["local", "requests", "tail"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    // Each line with how many looks tail had begun by the time it was printed.
    let looks = {
        let mock: tunnelctl_mock::MockControl = (*env.mock).clone();
        move || {
            mock.agent_requests()
                .iter()
                .filter(|r| r.path == "/api/requests/http")
                .count()
        }
    };
    let count = looks.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send((count(), line));
        }
    });
    // tail has read what was already captured (its first look answered) before the new visit.
    wait_until("tail's first look at the captures", || {
        env.mock
            .agent_requests()
            .iter()
            .any(|r| r.path == "/api/requests/http" && r.status == 200)
    });
    let before = looks();
    visit(port, "POST", "/new-arrival", &[], b"x");
    // A generous guard against a tail that never prints; what is checked is the count below.
    let got = rx.recv_timeout(Duration::from_secs(60));
    let _ = child.kill();
    let _ = child.wait();
    let (at, line) = got.expect("tail printed a line");
    assert!(
        line.contains("POST") && line.contains("/new-arrival") && line.contains("200"),
        "{line}"
    );
    assert!(!line.contains("/old"), "only new requests");
    let id = line.split_whitespace().last().unwrap_or("");
    assert!(
        id.starts_with("airt_"),
        "the request ID ends the line: {line}"
    );
    // The look under way during the visit may have missed it; the one after it may not.
    assert!(
        at <= before + 2,
        "printed at look {at}, the visit came after look {before}"
    );
}

#[test]
fn big_binary_and_hostile_captures_display_safely() {
    let env = Env::new();
    let big = vec![b'a'; 5 * 1024 * 1024];
    let ids = env.mock.seed_captures(json!([
        {"tunnel_name": "t (http)", "method": "POST", "uri": "/big", "headers": {"Content-Type": ["text/plain"]},
         "body_base64": b64(&big), "status_code": 200, "response_headers": {}, "response_body_base64": ""},
        {"tunnel_name": "t (http)", "method": "POST", "uri": "/img", "headers": {"Content-Type": ["image/png"]},
         "body_base64": b64(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x1b[2J"), "status_code": 201, "response_headers": {}, "response_body_base64": ""},
        {"tunnel_name": "t\u{1b}]52;c;aGk=\u{7}", "method": "GET", "uri": "/evil", "headers": {"X-Evil": ["a\u{9b}31m"]},
         "body_base64": b64("bell \u{7} and \u{1b}[31mred".as_bytes()), "status_code": 200,
         "response_headers": {"X-Back": ["\u{9b}0;title"]}, "response_body_base64": b64(b"ok")},
        {"tunnel_name": "t (http)", "method": "GET", "uri": "/slow", "headers": {}, "body_base64": "", "pending": true}
    ]));
    let ids = strings(&ids);
    let check = |out: &Out| {
        for bad in ['\u{1b}', '\u{7}', '\u{9b}', '\r'] {
            assert!(
                !out.stdout.contains(bad),
                "raw {bad:?} reached the terminal: {:?}",
                &out.stdout[..out.stdout.len().min(400)]
            );
        }
    };
    let big_out = env.local(&["requests", "get", &ids[0]]);
    big_out.ok();
    check(&big_out);
    assert!(
        big_out.stdout.len() < 200 * 1024,
        "a 5 MB body is cut for the terminal"
    );
    assert!(big_out.stdout.contains("use --raw"));
    let raw = run(env
        .cmd()
        .env(var::AGENT_URL, env.mock.agent_url())
        .args(["local", "requests", "get", &ids[0], "--raw"]));
    assert!(
        raw.stdout.len() > 5 * 1024 * 1024,
        "--raw writes every byte"
    );
    let img = env.local(&["requests", "get", &ids[1]]);
    img.ok();
    check(&img);
    img.prints("binary body: 20 bytes, image/png");
    let evil = env.local(&["requests", "get", &ids[2]]);
    evil.ok();
    check(&evil);
    evil.prints("a\\u{9b}31m")
        .prints("\\u{9b}0;title")
        .prints("t\\x1b]52;c;aGk=\\x07")
        .prints("bell \\x07 and \\x1b[31mred");
    let list = env.local(&["requests", "list"]);
    check(&list);
    let table = run(env
        .cmd()
        .env(var::AGENT_URL, env.mock.agent_url())
        .env(var::FORCE_TTY, "1")
        .args(["local", "requests", "list"]));
    check(&table);
    let pending = env.local(&["requests", "get", &ids[3]]);
    pending.ok().prints("pending");
    assert!(
        list.stdout
            .lines()
            .any(|l| l.contains("/slow") && l.contains("pending")),
        "{}",
        list.stdout
    );
}

#[test]
fn agent_down_exits_6_and_says_where_it_looked() {
    let env = Env::new();
    let out = run(env
        .cmd()
        .env(var::AGENT_URL, "http://127.0.0.1:9/api")
        .args(["local", "tunnels", "list"]));
    out.code(6).says("http://127.0.0.1:9/api");
    assert!(
        out.stderr.contains("--agent-url") && out.stderr.contains(var::AGENT_URL),
        "{}",
        out.stderr
    );
}

#[test]
fn not_ready_is_explained() {
    let env = Env::new();
    env.mock.configure(json!({"agent_ready": false}));
    let out = env.local(&words("tunnels start --name t --proto http --addr 80"));
    out.code(1);
    assert!(
        out.stderr.contains("503") && out.stderr.contains("not yet ready"),
        "{}",
        out.stderr
    );
    out.says("no session with the tunnel service");
}

#[test]
fn clear_needs_yes_off_a_terminal() {
    let env = Env::new();
    let out = env.local(&["requests", "clear"]);
    out.code(2);
    assert!(out.stderr.contains("--yes"));
    assert!(env.mock.agent_requests().is_empty());
}

/// The ids `list ARGS --json` prints, in order.
fn listed(env: &Env, args: &str) -> Vec<String> {
    let line = format!("requests list {args} --json");
    let all = words(&line);
    let out = env.local(&all);
    out.ok();
    strings_at(&out.json(), "/id")
}

#[test]
fn list_filters_by_method_status_path_text_and_time_with_tunnel_and_limit() {
    let env = Env::new();
    let old = "2020-01-01T00:00:00Z";
    // Oldest first; the list shows newest first.
    let ids = capture_kinds(&env, old);
    let id = ids;
    let want = |idx: &[usize]| idx.iter().map(|i| id[*i].clone()).collect::<Vec<_>>();
    assert_eq!(listed(&env, "--method post"), want(&[4, 1, 0]));
    assert_eq!(listed(&env, "--method GET,put"), want(&[3, 2]));
    assert_eq!(listed(&env, "--method GET --method PUT"), want(&[3, 2]));
    assert_eq!(listed(&env, "--status 200"), want(&[0]));
    assert_eq!(listed(&env, "--status 4xx,5xx"), want(&[2, 1]));
    assert_eq!(listed(&env, "--status pending"), want(&[4]));
    assert_eq!(listed(&env, "--path /hooks/*"), want(&[4, 1, 0]));
    assert_eq!(listed(&env, "--path /items/?"), want(&[3]));
    // In a header or the body, of the request or the response, any case.
    assert_eq!(listed(&env, "--grep INVOICE.PAID"), want(&[3, 0]));
    assert_eq!(listed(&env, "--grep x-github-event"), want(&[1]));
    assert_eq!(listed(&env, "--grep invoice --grep stripe"), want(&[0]));
    assert_eq!(listed(&env, "--since 10m"), want(&[4, 3, 2, 1]));
    assert_eq!(
        listed(&env, "--since 2019-12-31T00:00:00Z"),
        want(&[4, 3, 2, 1, 0])
    );
    // Combined with each other, --tunnel (asked of the agent) and --limit (of the matches).
    assert_eq!(
        listed(&env, "--method POST --status 5xx --since 1h"),
        want(&[1])
    );
    let b = env.local(&["requests", "list", "--tunnel", "b (http)", "--json"]);
    assert_eq!(b.json()[0]["id"], id[2].as_str(), "no filter: as before");
    let b = env.local(&[
        "requests", "list", "--tunnel", "b (http)", "--status", "2xx", "--json",
    ]);
    assert_eq!(b.json(), json!([]));
    assert_eq!(listed(&env, "--method POST --limit 2"), want(&[4, 1]));
    let out = env.local(&[
        "requests", "list", "--tunnel", "a (http)", "--path", "/hooks/*", "--limit", "1", "--json",
    ]);
    let one = out.json();
    assert_eq!(one.as_array().unwrap().len(), 1);
    assert_eq!(one[0]["id"], id[4].as_str());
    // TSV and table show the same rows.
    let tsv = env.local(&words("requests list --status 4xx"));
    tsv.ok();
    assert_eq!(tsv.stdout.lines().count(), 1);
    assert!(tsv.stdout.starts_with(&id[2]));
    let none = run(env
        .cmd()
        .env(var::AGENT_URL, env.mock.agent_url())
        .env(var::FORCE_TTY, "1")
        .args(words("local requests list --status 418")));
    none.ok().says("No captured requests.");
}

#[test]
fn bad_list_filters_exit_2_and_ask_nothing() {
    let env = Env::new();
    let cases: [(&[&str], &str); 9] = [
        (&["--status", "6xx"], "--status"),
        (&["--status", "20"], "--status"),
        (&["--status", ""], "--status"),
        (&["--since", "10x"], "--since"),
        (&["--since", ""], "--since"),
        (&["--method", ""], "--method"),
        (&["--method", "GE T"], "--method"),
        (&["--path", ""], "--path"),
        (&["--grep", ""], "--grep"),
    ];
    for (flags, says) in cases {
        let mut args = vec!["requests", "list"];
        args.extend_from_slice(flags);
        env.local(&args).code(2).says(says);
    }
    assert!(env.mock.agent_requests().is_empty());
}
