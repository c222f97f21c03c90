//! Captures seeded through the control surface: binary and 5 MB bodies, eviction by
//! `inspect_db_size`, and listing a thousand 64 KB captures at a small CPU cost.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agent_support;
mod common;

use std::time::Duration;

use agent_support::*;
use base64::Engine;
use common::*;
use serde_json::{json, Value};
use tunnelctl_mock::MockOptions;

fn b64(v: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(v)
}

fn unb64(v: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(v.as_str().unwrap_or_default())
        .unwrap_or_default()
}

#[test]
fn seeded_captures_render_like_real_ones() {
    let mock = start();
    let binary: Vec<u8> = (0..=255u8).collect();
    let ids = control(
        &mock,
        "POST",
        "/_mock/agent/captures",
        Some(json!([
            {"tunnel_name": "web", "method": "POST", "uri": "/bin?x=1",
             "headers": {"Content-Type": "application/octet-stream", "x-multi": ["a", "b"]},
             "body_base64": b64(&binary), "status_code": 201,
             "response_headers": {"Content-Type": "text/plain"}, "response_body": "made"},
            {"tunnel_name": "web", "pending": true},
        ])),
    );
    assert_eq!(ids.status, 200, "{}", ids.text());
    let ids = ids.json();
    assert_eq!(ids.as_array().map(Vec::len), Some(2));
    let list = captures(&mock, "");
    assert_eq!(list[0]["id"], ids[1], "the last seeded is the newest");
    assert_eq!(list[0]["response"]["status_code"], 0);
    assert_eq!(list[0]["duration"], 0);
    let c = &list[1];
    assert_eq!(c["tunnel_name"], "web");
    assert_eq!(c["remote_addr"], "127.0.0.1");
    assert_eq!(c["request"]["method"], "POST");
    assert_eq!(c["request"]["uri"], "/bin?x=1");
    assert_eq!(
        c["request"]["headers"],
        json!({"Content-Length": ["256"], "Content-Type": ["application/octet-stream"], "X-Multi": ["a", "b"]})
    );
    let raw = unb64(&c["request"]["raw"]);
    assert!(raw.starts_with(b"POST /bin?x=1 HTTP/1.1\r\n"));
    assert!(raw.ends_with(&binary));
    assert_eq!(c["response"]["status"], "201 Created");
    assert_eq!(
        unb64(&c["response"]["raw"]),
        b"HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\nmade"
    );
    // Invalid seeds are refused whole.
    let bad = control(
        &mock,
        "POST",
        "/_mock/agent/captures",
        Some(json!([{"method": "GET"}, {"nope": 1}])),
    );
    assert_eq!(bad.status, 400);
    assert_eq!(captures(&mock, "").len(), 2);
    assert_eq!(
        control(&mock, "DELETE", "/_mock/agent/captures", None).status,
        204
    );
    assert!(captures(&mock, "").is_empty());
}

#[test]
fn a_five_megabyte_capture_round_trips() {
    let mock = start();
    let body: Vec<u8> = (0..5 * 1024 * 1024).map(|i| (i * 7 % 256) as u8).collect();
    let ids = mock.seed_captures(json!([{"method": "PUT", "uri": "/big", "body_base64": b64(&body), "response_body_size": 3}]));
    let id = ids[0].as_str().unwrap_or_default();
    let c = agent(&mock, "GET", &format!("/api/requests/http/{id}"), None).json();
    assert!(unb64(&c["request"]["raw"]).ends_with(&body));
    assert_eq!(
        c["request"]["headers"]["Content-Length"],
        json!([body.len().to_string()])
    );
}

#[test]
fn the_oldest_captures_are_evicted_beyond_inspect_db_size() {
    let mock = start_with(MockOptions {
        inspect_db_size: 3 * 1100,
        ..MockOptions::default()
    });
    // Each capture is a bit over 1,000 raw bytes (request and response).
    let ids =
        mock.seed_captures(json!([{"body_size": 900, "response_body_size": 60, "repeat": 5}]));
    let ids: Vec<&str> = ids
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert_eq!(ids.len(), 5);
    let kept: Vec<String> = captures(&mock, "")
        .iter()
        .filter_map(|c| c["id"].as_str().map(str::to_string))
        .collect();
    assert_eq!(kept, [ids[4], ids[3], ids[2]], "the three newest stay");
    let r = agent(
        &mock,
        "GET",
        &format!("/api/requests/http/{}", ids[0]),
        None,
    );
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["error_code"], 106);
    // Lowering the size evicts at once; the config shows it.
    let cfg = ctl_post(&mock, "/_mock/config", json!({"inspect_db_size": 1100})).json();
    assert_eq!(cfg["inspect_db_size"], 1100);
    assert_eq!(captures(&mock, "").len(), 1);
}

/// CPU time (user + system) the process `pid` has used so far, from `/proc/PID/stat` (in
/// clock ticks of 10 ms, Linux's USER_HZ).
#[cfg(target_os = "linux")]
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("read /proc/PID/stat");
    // The fields after the command name, which is in parentheses and may hold spaces.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<u64> = after
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    // utime and stime are fields 14 and 15 of the line; `after` starts at field 3.
    Duration::from_millis((fields[11] + fields[12]) * 10)
}

/// The point is no per-request re-encoding: the emulator's own CPU time for the answers is
/// bounded, not the wall-clock time, which a loaded machine stretches at will. The emulator
/// runs as its own process so that its CPU time is its own.
#[cfg(target_os = "linux")]
#[test]
fn listing_a_thousand_64k_captures_costs_little_cpu() {
    use std::io::{BufRead, BufReader};
    let mut served = serve(
        &[
            "--port",
            "0",
            "--agent-port",
            "0",
            "--inspect-db-size",
            "1073741824",
        ],
        std::process::Stdio::piped(),
    );
    let out = served.child.stdout.take().expect("its stdout");
    let agent_url = BufReader::new(out)
        .lines()
        .map_while(Result::ok)
        .find_map(|l| l.strip_prefix("agent API: ").map(str::to_string))
        .expect("the agent API's URL");
    let agent_base = agent_url.trim_end_matches("/api").to_string();
    let pid = served.child.id();
    let seed = json!([{"tunnel_name": "bench", "method": "POST", "uri": "/bench", "body_size": 65536, "response_body_size": 65536, "repeat": 1000}]);
    let r = raw(
        &served.url,
        "POST",
        "/_mock/agent/captures",
        &[("Content-Type", "application/json")],
        seed.to_string().as_bytes(),
    );
    assert_eq!(r.status, 200);
    let before = cpu_time(pid);
    let all = raw(&agent_base, "GET", "/api/requests/http", &[], b"");
    let listed = cpu_time(pid) - before;
    let before = cpu_time(pid);
    let ten = raw(&agent_base, "GET", "/api/requests/http?limit=10", &[], b"");
    let limited = cpu_time(pid) - before;
    served.stop();
    assert_eq!(all.status, 200);
    // 1,000 × (64 KB request + 64 KB response) in base64.
    assert!(
        all.body.len() > 1000 * 2 * 65536 * 4 / 3,
        "{}",
        all.body.len()
    );
    let list: Value = all.json();
    assert_eq!(list["requests"].as_array().map(Vec::len), Some(1000));
    assert_eq!(ten.status, 200);
    eprintln!("CPU time: list all {listed:?}, list 10 {limited:?}");
    // Generous bounds (debug builds); CPU time, so other work on the machine does not count.
    assert!(listed < Duration::from_secs(5), "{listed:?}");
    assert!(limited < Duration::from_millis(500), "{limited:?}");
}
