//! The control surface: request log, faults, seeding, config, state, reset.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};

#[test]
fn request_log_keeps_raw_paths_queries_headers_and_bodies() {
    let mock = start();
    // Recorded even though it fails authentication.
    raw(
        &mock.url(),
        "GET",
        "/ip_policies/..%2Ftunnel_sessions?x=%2F",
        &[("X-Test", "1")],
        b"",
    );
    post(&mock, "/ip_policies", json!({"description": "d"}));
    control(&mock, "GET", "/_mock/state", None);
    let log = mock.requests();
    assert_eq!(log.len(), 2, "control requests are not recorded");
    assert_eq!(log[0].method, "GET");
    assert_eq!(log[0].path, "/ip_policies/..%2Ftunnel_sessions");
    assert_eq!(log[0].query.as_deref(), Some("x=%2F"));
    assert_eq!(log[0].header("x-test"), Some("1"));
    assert_eq!(log[0].header("authorization"), None);
    assert_eq!(log[1].header("Authorization"), Some("Bearer mock-api-key"));
    assert_eq!(log[1].header("service-version"), Some("2"));
    assert_eq!(log[1].header("content-type"), Some("application/json"));
    assert_eq!(log[1].body_json(), Some(json!({"description": "d"})));
    assert!(log[1]
        .headers
        .iter()
        .all(|(n, _)| n == &n.to_ascii_lowercase()));

    let over_http = control(&mock, "GET", "/_mock/requests", None).json();
    assert_eq!(over_http[0]["path"], "/ip_policies/..%2Ftunnel_sessions");
    assert_eq!(over_http[0]["body"], Value::Null);
    assert_eq!(over_http[1]["body"], json!({"description": "d"}));
    assert_eq!(over_http[1]["headers"]["service-version"], "2");

    assert_eq!(
        control(&mock, "DELETE", "/_mock/requests", None).status,
        204
    );
    assert!(mock.requests().is_empty());
    get(&mock, "/ip_policies");
    mock.clear_requests();
    assert!(mock.requests().is_empty());
}

#[test]
fn faults_apply_count_times_then_stop() {
    let mock = start();
    mock.inject(json!({"method": "GET", "path": "/ip_policies/*", "status": 503, "headers": {"Retry-After": "2"}, "count": 2}));
    let seeded = mock.seed(json!({"ip_policy_count": 1}));
    let id = str_of(&seeded["ip_policies"][0]);
    for _ in 0..2 {
        let r = get(&mock, &format!("/ip_policies/{id}"));
        assert_eq!(r.status, 503);
        assert_eq!(r.header("retry-after"), Some("2"));
        let body = r.json();
        assert_eq!(body["status_code"], 503, "default body is an API error");
    }
    assert_eq!(get(&mock, &format!("/ip_policies/{id}")).status, 200);
    assert_eq!(mock.requests().len(), 3, "faulted requests are recorded");
}

#[test]
fn fault_bodies_methods_globs_and_delays() {
    let mock = start();
    mock.inject(json!({"path": "/event_subscriptions/**", "method": "DELETE", "status": 502, "body": "<html>bad gateway</html>", "content_type": "text/html"}));
    mock.inject(json!({"path": "/tunnel_sessions", "status": 500, "body": "oops", "delay_ms": 150, "count": 1}));
    let r = delete(&mock, "/event_subscriptions/esb_x/sources/a.v0");
    assert_eq!(r.status, 502);
    assert_eq!(r.header("content-type"), Some("text/html"));
    assert_eq!(r.text(), "<html>bad gateway</html>");
    assert_eq!(
        get(&mock, "/event_subscriptions").status,
        200,
        "other methods are not affected"
    );
    // Faults apply before authentication.
    let started = Instant::now();
    let r = raw(&mock.url(), "GET", "/tunnel_sessions", &[], b"");
    assert!(started.elapsed() >= Duration::from_millis(150));
    assert_eq!(r.status, 500);
    assert_eq!(r.text(), "oops");
    assert_eq!(control(&mock, "DELETE", "/_mock/faults", None).status, 204);
    assert_eq!(delete(&mock, "/event_subscriptions/esb_x").status, 404);
}

#[test]
fn faults_over_http_and_probability_zero() {
    let mock = start();
    let never = json!({"path": "/ip_policies", "status": 429, "probability": 0.0});
    let r = ctl_post(&mock, "/_mock/faults", never);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(get(&mock, "/ip_policies").status, 200);
    let listed = control(&mock, "GET", "/_mock/faults", None).json();
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
    let bad = ctl_post(
        &mock,
        "/_mock/faults",
        json!({"path": "/x", "status": 5000}),
    );
    assert_eq!(bad.status, 400);
    let bad = ctl_post(
        &mock,
        "/_mock/faults",
        json!({"path": "/x", "status": 500, "bogus": 1}),
    );
    assert_eq!(bad.status, 400);
}

/// Waits until `n` requests are held in a latency or a fault's delay on the emulator's clock.
fn held(mock: &tunnelctl_mock::Mock, n: u64) {
    poll(
        &format!("{n} requests held"),
        || mock.clock(),
        |c| c["waiting"] == n,
    );
}

#[test]
fn latency_is_added_to_api_requests_only() {
    let mock = start();
    mock.freeze_clock(true);
    ctl_post(&mock, "/_mock/config", json!({"latency_ms": 120}));
    let url = mock.url();
    let api = std::thread::spawn(move || get_at(&url, "mock-api-key", "/ip_policies").status);
    held(&mock, 1);
    // The clock stands still: the API request waits out its latency, a control request does not.
    assert_eq!(control(&mock, "GET", "/_mock/state", None).status, 200);
    assert_eq!(mock.requests()[0].status, 0, "still held");
    mock.advance_clock(Duration::from_millis(120));
    assert_eq!(api.join().ok(), Some(200));
}

#[test]
fn the_clock_is_shown_frozen_and_moved_over_http() {
    let mock = start();
    let c = ctl_post(&mock, "/_mock/clock", json!({"frozen": true})).json();
    assert_eq!(
        (c["frozen"].clone(), c["waiting"].clone()),
        (json!(true), json!(0))
    );
    let at = c["now_ms"].as_u64().unwrap_or(u64::MAX);
    let moved = ctl_post(&mock, "/_mock/clock", json!({"advance_ms": 60_000})).json();
    assert_eq!(moved["now_ms"], at + 60_000);
    assert_eq!(control(&mock, "GET", "/_mock/clock", None).json(), moved);
    get(&mock, "/ip_policies");
    assert_eq!(
        mock.requests()[0].at_ms,
        at + 60_000,
        "the log reads the same clock"
    );
    let thawed = ctl_post(&mock, "/_mock/clock", json!({"frozen": false})).json();
    assert!(thawed["now_ms"].as_u64() >= Some(at + 60_000), "never back");
    for bad in [
        json!({"advance_ms": -1}),
        json!({"frozen": "yes"}),
        json!({"rewind_ms": 1}),
    ] {
        assert_eq!(
            ctl_post(&mock, "/_mock/clock", bad.clone()).status,
            400,
            "{bad}"
        );
    }
    assert_eq!(control(&mock, "DELETE", "/_mock/clock", None).status, 405);
}

#[test]
fn seed_demo_state_and_reset() {
    let mock = start();
    let r = ctl_post(&mock, "/_mock/seed", json!({"demo": true}));
    assert_eq!(r.status, 200, "{}", r.text());
    let ids = r.json();
    let n = |k: &str| ids[k].as_array().map_or(0, Vec::len);
    assert_eq!(
        (
            n("sessions"),
            n("ip_policies"),
            n("backends"),
            n("tunnels"),
            n("tls_edges"),
            n("event_destinations"),
            n("event_subscriptions")
        ),
        (6, 3, 1, 1, 1, 1, 1)
    );

    let state = mock.state();
    assert_eq!(state["tunnel_sessions"].as_array().map(Vec::len), Some(6));
    assert_eq!(state["backends"][0]["tunnels"][0]["id"], ids["tunnels"][0]);
    assert!(state["tls_edges"][0]["tls_termination"].is_object());
    assert_eq!(
        state["event_subscriptions"][0]["destinations"][0]["id"],
        ids["event_destinations"][0]
    );
    let oses = field_strs(&state["tunnel_sessions"], "os");
    assert!(oses.contains(&"windows") && oses.contains(&"linux"));

    let via_http = control(&mock, "GET", "/_mock/state", None).json();
    assert_eq!(via_http["ip_policies"], state["ip_policies"]);

    get(&mock, "/ip_policies");
    mock.inject(json!({"path": "/**", "status": 500}));
    assert_eq!(control(&mock, "POST", "/_mock/reset", None).status, 204);
    let state = mock.state();
    assert_eq!(state["tunnel_sessions"], json!([]));
    assert_eq!(state["ip_policies"], json!([]));
    assert!(mock.requests().is_empty());
    assert_eq!(get(&mock, "/ip_policies").status, 200, "faults cleared");
}

#[test]
fn bad_seed_and_config_are_400() {
    let mock = start();
    assert_eq!(
        ctl_post(&mock, "/_mock/seed", json!({"sesions": []})).status,
        400
    );
    assert_eq!(
        ctl_post(&mock, "/_mock/seed", json!({"sessions": [{"os": 1}]})).status,
        400
    );
    assert_eq!(
        ctl_post(&mock, "/_mock/config", json!({"page_size": 0})).status,
        400
    );
    assert_eq!(control(&mock, "GET", "/_mock/nope", None).status, 404);
    assert_eq!(control(&mock, "GET", "/_mock/seed", None).status, 405);
    let cfg = ctl_post(
        &mock,
        "/_mock/config",
        json!({"page_size": 7, "next_page_base": "http://x:1/"}),
    )
    .json();
    assert_eq!(cfg["page_size"], 7);
    assert_eq!(cfg["next_page_base"], "http://x:1");
}

#[test]
fn reset_fault_drops_the_connection_without_an_answer() {
    use std::io::{Read, Write};
    let mock = start();
    mock.inject(json!({"path": "/ip_policies", "method": "POST", "reset": true, "count": 1}));
    let hostport = mock.url().trim_start_matches("http://").to_string();
    let mut s = std::net::TcpStream::connect(&hostport).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let req = format!("POST /ip_policies HTTP/1.1\r\nHost: {hostport}\r\nAuthorization: Bearer mock-api-key\r\nService-Version: 2\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{{}}");
    s.write_all(req.as_bytes()).expect("write");
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf);
    assert!(!text.contains("\r\n\r\n{"), "no complete answer: {text:?}");
    assert_eq!(mock.requests().len(), 1);
    assert_eq!(
        mock.state()["ip_policies"],
        json!([]),
        "nothing was created"
    );
    assert_eq!(
        post(&mock, "/ip_policies", json!({})).status,
        201,
        "count used up"
    );
}

#[test]
fn latency_does_not_serialize_concurrent_requests() {
    let mock = start();
    mock.freeze_clock(true);
    mock.configure(json!({"latency_ms": 200}));
    let url = mock.url();
    let threads: Vec<_> = (0..10)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || get_at(&url, "mock-api-key", "/ip_policies").status)
        })
        .collect();
    // All ten wait at once; one move of the clock past the latency answers them all (had they
    // waited in turn, the nine others would start their wait after it and never be answered).
    held(&mock, 10);
    mock.advance_clock(Duration::from_millis(200));
    for t in threads {
        assert_eq!(t.join().ok(), Some(200));
    }
}
