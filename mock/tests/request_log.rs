//! The request log's arrival times and answer statuses, and the traffic stats.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agent_support;
mod common;

use std::time::{Duration, Instant};

use agent_support::agent;
use common::*;
use serde_json::json;

#[test]
fn entries_carry_the_arrival_time_and_the_answer_status() {
    let started = Instant::now();
    let mock = start();
    mock.freeze_clock(true);
    assert_eq!(get(&mock, "/ip_policies").status, 200);
    // The emulator's clock, moved instead of waited for.
    mock.advance_clock(Duration::from_millis(300));
    // Unauthenticated, unknown path, and a dropped connection.
    raw(&mock.url(), "GET", "/ip_policies", &[], b"");
    assert_eq!(get(&mock, "/nowhere").status, 404);
    mock.inject(json!({"path": "/ip_policies", "method": "POST", "reset": true, "count": 1}));
    assert!(api_bytes(&mock, "POST", "/ip_policies", Some(json!({}))).is_empty());
    assert_eq!(post(&mock, "/ip_policies", json!({})).status, 201);

    let log = mock.requests();
    let statuses: Vec<u16> = log.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [200, 401, 404, 0, 201]);
    assert!(log.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
    assert!(log[1].at_ms - log[0].at_ms >= 300, "{log:?}");
    // Counted from the emulator's start: no later than the real time since then, plus the move.
    let elapsed = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX) + 300;
    assert!(log[4].at_ms <= elapsed, "{} > {elapsed}", log[4].at_ms);

    let over_http = control(&mock, "GET", "/_mock/requests", None).json();
    assert_eq!(over_http[0]["status"], 200);
    assert_eq!(over_http[3]["status"], 0);
    assert_eq!(over_http[1]["at_ms"], log[1].at_ms);
}

#[test]
fn the_agent_log_shares_the_clock_and_records_statuses() {
    let mock = start();
    mock.freeze_clock(true);
    get(&mock, "/ip_policies");
    mock.advance_clock(Duration::from_secs(60));
    assert_eq!(agent(&mock, "GET", "/api/tunnels", None).status, 200);
    assert_eq!(agent(&mock, "GET", "/api/tunnels/none", None).status, 404);
    let agent_log = mock.agent_requests();
    assert_eq!(
        agent_log.iter().map(|r| r.status).collect::<Vec<_>>(),
        [200, 404]
    );
    let mgmt_at = mock.requests()[0].at_ms;
    assert_eq!(
        agent_log[0].at_ms,
        mgmt_at + 60_000,
        "same clock for both logs"
    );
    let over_http = control(&mock, "GET", "/_mock/agent/requests-log", None).json();
    assert_eq!(over_http[1]["status"], 404);
    assert_eq!(over_http[0]["at_ms"], agent_log[0].at_ms);
}

#[test]
fn the_log_keeps_the_order_of_arrival_when_answers_finish_out_of_order() {
    let mock = start();
    mock.freeze_clock(true);
    mock.inject(json!({"path": "/ip_policies", "method": "GET", "status": 503, "delay_ms": 600, "count": 1}));
    let url = mock.url();
    let slow = std::thread::spawn(move || get_at(&url, "mock-api-key", "/ip_policies").status);
    // The slow request is in its fault's delay, which the frozen clock keeps it in.
    poll(
        "the slow request held",
        || mock.clock(),
        |c| c["waiting"] == 1,
    );
    assert_eq!(get(&mock, "/tunnel_sessions").status, 200);
    let log = mock.requests();
    assert_eq!(log.len(), 2);
    assert_eq!((log[0].path.as_str(), log[0].status), ("/ip_policies", 0));
    assert_eq!(
        (log[1].path.as_str(), log[1].status),
        ("/tunnel_sessions", 200)
    );
    mock.advance_clock(Duration::from_millis(600));
    assert_eq!(slow.join().ok(), Some(503));
    let log = mock.requests();
    assert_eq!((log[0].path.as_str(), log[0].status), ("/ip_policies", 503));
}

#[test]
fn stats_count_api_requests_by_status() {
    let mock = start();
    assert_eq!(
        mock.stats(),
        json!({"requests": 0, "rate_limited": 0, "by_status": {}})
    );
    get(&mock, "/ip_policies");
    get(&mock, "/ip_policies");
    post(&mock, "/ip_policies", json!({"nope": 1}));
    raw(&mock.url(), "GET", "/ip_policies", &[], b"");
    // Neither control requests nor the agent API count.
    control(&mock, "GET", "/_mock/state", None);
    agent(&mock, "GET", "/api/tunnels", None);
    let expected =
        json!({"requests": 4, "rate_limited": 0, "by_status": {"200": 2, "400": 1, "401": 1}});
    assert_eq!(mock.stats(), expected);
    assert_eq!(control(&mock, "GET", "/_mock/stats", None).json(), expected);
    // Clearing the log leaves the counters alone; DELETE zeroes them.
    mock.clear_requests();
    assert_eq!(mock.stats()["requests"], 4);
    assert_eq!(control(&mock, "DELETE", "/_mock/stats", None).status, 204);
    assert_eq!(mock.stats()["requests"], 0);
    get(&mock, "/ip_policies");
    mock.reset();
    assert_eq!(
        mock.stats(),
        json!({"requests": 0, "rate_limited": 0, "by_status": {}})
    );
    assert_eq!(control(&mock, "POST", "/_mock/stats", None).status, 405);
}
