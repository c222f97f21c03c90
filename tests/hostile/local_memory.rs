//! Memory follows bytes, not counts, in the local half: a capture of two hundred thousand tiny
//! header lines costs `get` and `list` what its size costs (at most 32 MB plus ten times its
//! size, from the child's own rusage), the extra lines shown as a count in every view; a large
//! answer kept by `record` and two large JSON answers compared by `diff` cost at most 64 MB
//! plus six times the answer; and the inspector keeps captures within a memory budget, saying
//! on screen that older ones were dropped.

use base64::Engine;
use serde_json::{json, Value};

use crate::common::hostile::{Hostile, Reply};
use crate::common::pty::Pty;
use crate::common::rusage::measure;
use crate::common::Env;
use tunnelctl::registry::env as var;

/// A capture (as the agent's JSON) whose request and response carry `lines` tiny header lines
/// each, in the `headers` maps and in the `raw` bytes alike.
fn header_bomb(lines: usize) -> String {
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let mut map = String::from("{");
    let mut raw_req = String::from("POST /bomb HTTP/1.1\r\n");
    let mut raw_resp = String::from("HTTP/1.1 200 OK\r\n");
    for i in 0..lines {
        if i > 0 {
            map.push(',');
        }
        map.push_str(&format!("\"x{i}\":[\"v\"]"));
        raw_req.push_str(&format!("x{i}: v\r\n"));
        raw_resp.push_str(&format!("x{i}: v\r\n"));
    }
    map.push('}');
    raw_req.push_str("\r\n");
    raw_resp.push_str("\r\n");
    format!(
        concat!(
            "{{\"uri\":\"/api/requests/http/airt_bomb\",\"id\":\"airt_bomb\",",
            "\"tunnel_name\":\"t\",\"remote_addr\":\"1.2.3.4\",",
            "\"start\":\"2026-11-25T01:00:00Z\",\"duration\":1000,",
            "\"request\":{{\"method\":\"POST\",\"proto\":\"HTTP/1.1\",\"headers\":{},",
            "\"uri\":\"/bomb\",\"raw\":\"{}\"}},",
            "\"response\":{{\"status\":\"200 OK\",\"status_code\":200,",
            "\"proto\":\"HTTP/1.1\",\"headers\":{},\"raw\":\"{}\"}}}}"
        ),
        map,
        b64(raw_req.as_bytes()),
        map,
        b64(raw_resp.as_bytes())
    )
}

#[test]
fn a_header_bomb_costs_what_its_size_costs_and_shows_as_a_count() {
    let env = Env::new();
    let capture = header_bomb(300_000);
    let size = capture.len() as u64;
    let list = format!("{{\"uri\":\"/api/requests/http\",\"requests\":[{capture}]}}");
    // A hostile agent: every capture it has is the bomb.
    let agent = Hostile::start(move |seen| {
        if seen.path().ends_with("/airt_bomb") {
            Reply::ok(capture.clone())
        } else {
            Reply::ok(list.clone())
        }
    });
    let bound = 32 * 1024 * 1024 + 10 * size;
    let views: [&[&str]; 3] = [
        &["requests", "get", "airt_bomb"],
        &["requests", "list"],
        &["requests", "get", "airt_bomb", "--json"],
    ];
    for view in views {
        let mut cmd = env.std_cmd();
        cmd.env(var::AGENT_URL, format!("{}/api", agent.url()))
            .env(var::FORCE_TTY, "1")
            .env("COLUMNS", "120")
            .arg("local")
            .args(view);
        let run = measure(cmd);
        assert_eq!(run.code, 0, "{view:?}: {}", run.stderr);
        assert!(
            run.peak <= bound,
            "{view:?} peaked at {} MB for a capture of {} MB (bound {} MB)",
            run.peak >> 20,
            size >> 20,
            bound >> 20
        );
        if view.len() == 3 {
            let text = String::from_utf8_lossy(&run.stdout);
            assert!(
                text.contains("more header lines"),
                "the extra lines are counted:\n{}",
                &text[..text.len().min(3000)]
            );
            assert!(text.lines().count() < 1_000, "not every line is shown");
        }
    }
}

/// The bound of the history's guide for one capture: 64 MB (the history's page cache) plus
/// six times its answer.
fn few_times(answer: u64) -> u64 {
    (64 << 20) + 6 * answer
}

#[test]
fn recording_a_large_answer_costs_a_few_times_its_size_and_its_long_word_is_found() {
    let env = Env::new();
    // One run of letters and digits: one word of 32 MB, the index's worst case.
    let size: u64 = 32 << 20;
    env.mock.seed_captures(json!([{
        "tunnel_name": "web (http)", "method": "GET", "uri": "/big",
        "response_body_size": size,
        "response_headers": {"Content-Type": "application/octet-stream"},
    }]));
    let history = env.dir.path().join("history.sqlite3");
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, &history)
        .args(["local", "requests", "record", "--once"]);
    let run = measure(cmd);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("Kept 1 new capture(s)"),
        "{}",
        run.stderr
    );
    assert!(
        run.peak <= few_times(size),
        "record --once peaked at {} MB for an answer of {} MB (bound {} MB)",
        run.peak >> 20,
        size >> 20,
        few_times(size) >> 20
    );
    // Found by a text longer than what the index keeps of a word, and only by what it holds.
    let pattern = "abcdefghijklmnopqrstuvwxyz0123456789".repeat(3);
    let grep = |text: &str| {
        let mut cmd = env.cmd();
        cmd.env(var::HISTORY_FILE, &history);
        crate::common::run(cmd.args(["local", "requests", "list", "--history", "--grep", text]))
    };
    let found = grep(&pattern);
    found.ok();
    assert!(found.stdout.contains("/big"), "{}", found.stdout);
    let other = format!("{}XYZ", &pattern[..100]);
    let none = grep(&other);
    none.ok();
    assert!(!none.stdout.contains("/big"), "{}", none.stdout);
}

/// A JSON answer of about `size` bytes: an array of webhook events; `changed` has two amounts
/// that differ.
fn events(size: usize, changed: bool) -> String {
    let mut items = Vec::new();
    let mut len = 2;
    let mut i = 0;
    while len < size {
        let amount = 1000 + i % 997 + usize::from(changed && (i == 7 || i == 20_007));
        let item = format!(
            r#"{{"id":"evt_{i:08}","type":"invoice.paid","amount":{amount},"currency":"eur","items":[{},{},{}],"paid":true}}"#,
            i % 7,
            i % 11,
            i % 13
        );
        len += item.len() + 1;
        items.push(item);
        i += 1;
    }
    format!("[{}]", items.join(","))
}

#[test]
fn diffing_two_large_json_answers_costs_a_few_times_their_size() {
    let env = Env::new();
    let size = 8 << 20;
    let b64 = |s: String| base64::engine::general_purpose::STANDARD.encode(s);
    let capture = |changed: bool| {
        json!({
            "tunnel_name": "web (http)", "method": "POST", "uri": "/hooks", "body": "{}",
            "response_headers": {"Content-Type": "application/json"},
            "response_body_base64": b64(events(size, changed)),
        })
    };
    let ids = env
        .mock
        .seed_captures(json!([capture(false), capture(true)]));
    let id = |i: usize| ids[i].as_str().unwrap().to_string();
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, env.dir.path().join("history.sqlite3"))
        .args(["local", "requests", "diff", &id(0), &id(1)]);
    let run = measure(cmd);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(out.contains("~ .[7].amount: 1007 → 1008"), "{out}");
    assert!(out.contains("~ .[20007].amount: "), "{out}");
    assert_eq!(out.matches(".amount").count(), 2, "{out}");
    let bound = few_times(size as u64);
    assert!(
        run.peak <= bound,
        "diff peaked at {} MB for two answers of {} MB (bound {} MB)",
        run.peak >> 20,
        size >> 20,
        bound >> 20
    );
}

#[test]
fn the_inspector_keeps_captures_within_its_memory_budget_and_says_older_were_dropped() {
    let env = Env::new();
    let captures: Vec<Value> = (0..12)
        .map(|i| json!({"method": "POST", "uri": format!("/upload/{i}"), "body_size": 1_000_000}))
        .collect();
    env.mock.seed_captures(Value::Array(captures));
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .current_dir(env.dir.path())
        .args(["local", "inspect", "--max-memory", "4MiB"]);
    let mut term = Pty::spawn(&cmd, 24, 80);
    let screen = term.wait_for("dropped");
    assert!(
        screen.contains("/upload/11"),
        "the newest is kept:\n{screen}"
    );
    assert!(!screen.contains("/upload/0 "), "the oldest went:\n{screen}");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn a_wrong_memory_budget_is_a_usage_error() {
    let env = Env::new();
    for bad in ["lots", "-1MiB", "0", "12 parsecs"] {
        env.local(&["inspect", "--max-memory", bad])
            .code(2)
            .says("--max-memory");
    }
}
