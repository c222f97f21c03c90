//! The account rate limit: a rolling window of accepted requests, 429 with `Retry-After`.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agent_support;
mod common;

use std::time::Duration;

use agent_support::agent;
use common::*;
use serde_json::json;
use tunnelctl_mock::MockOptions;

#[test]
fn requests_over_the_limit_get_429_and_are_not_handled() {
    let mock = start();
    let limit = json!({"rate_limit": {"max": 3, "per_ms": 5000}});
    let cfg = ctl_post(&mock, "/_mock/config", limit).json();
    assert_eq!(cfg["rate_limit"], json!({"max": 3, "per_ms": 5000}));
    for _ in 0..3 {
        assert_eq!(get(&mock, "/ip_policies").status, 200);
    }
    let r = post(&mock, "/ip_policies", json!({"description": "refused"}));
    let body = assert_error(&r, 429);
    assert_eq!(body["error_code"], "ERR_NGROK_226");
    assert_eq!(body["msg"], "rate limit exceeded: 3 requests per 5 seconds");
    let retry: u64 = r
        .header("retry-after")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    assert!((1..=5).contains(&retry), "Retry-After {retry}");
    assert_eq!(
        mock.state()["ip_policies"],
        json!([]),
        "the handler did not run"
    );
    // Before authentication: a request without a key is refused the same way.
    assert_eq!(
        raw(&mock.url(), "GET", "/ip_policies", &[], b"").status,
        429
    );
    // Refused requests are recorded, with their status.
    let log = mock.requests();
    assert_eq!(log.len(), 5);
    assert_eq!(log[3].status, 429);
    assert_eq!(
        mock.stats(),
        json!({"requests": 5, "rate_limited": 2, "by_status": {"200": 3, "429": 2}})
    );
    // Control requests and the agent API are never limited.
    assert_eq!(control(&mock, "GET", "/_mock/state", None).status, 200);
    assert_eq!(agent(&mock, "GET", "/api/tunnels", None).status, 200);
    // null turns it off.
    mock.configure(json!({"rate_limit": null}));
    assert_eq!(get(&mock, "/ip_policies").status, 200);
    assert_eq!(
        control(&mock, "GET", "/_mock/config", None).json()["rate_limit"],
        json!(null)
    );
}

#[test]
fn the_window_rolls_and_refused_requests_do_not_count() {
    let mock = start_with(MockOptions {
        rate_limit: Some((2, 1000)),
        ..MockOptions::default()
    });
    // The window rolls on the emulator's clock, moved here instead of waited for.
    mock.freeze_clock(true);
    assert_eq!(get(&mock, "/ip_policies").status, 200);
    mock.advance_clock(Duration::from_millis(500));
    assert_eq!(get(&mock, "/ip_policies").status, 200);
    let r = get(&mock, "/ip_policies");
    assert_eq!(r.status, 429);
    assert_eq!(r.header("retry-after"), Some("1"));
    // The first request leaves the window after 1 s; the refusals in between did not count.
    mock.advance_clock(Duration::from_millis(600));
    assert_eq!(get(&mock, "/ip_policies").status, 200);
    assert_eq!(get(&mock, "/ip_policies").status, 429);
    mock.advance_clock(Duration::from_millis(1050));
    assert_eq!(get(&mock, "/ip_policies").status, 200);
    assert_eq!(get(&mock, "/ip_policies").status, 200);
    assert_eq!(mock.stats()["rate_limited"], 2);
}

#[test]
fn faults_are_not_used_up_by_refused_requests() {
    let mock = start();
    mock.configure(json!({"rate_limit": {"max": 1, "per_ms": 60000}}));
    assert_eq!(get(&mock, "/tunnel_sessions").status, 200);
    mock.inject(json!({"path": "/ip_policies", "status": 503, "count": 1}));
    assert_eq!(get(&mock, "/ip_policies").status, 429);
    // Changing the limit starts an empty window; the fault is still there.
    mock.configure(json!({"rate_limit": {"max": 1, "per_ms": 60000}}));
    assert_eq!(get(&mock, "/ip_policies").status, 503);
}

#[test]
fn invalid_rate_limits_are_400() {
    let mock = start();
    for bad in [
        json!({"rate_limit": {"max": 0, "per_ms": 1000}}),
        json!({"rate_limit": {"max": 1, "per_ms": 0}}),
        json!({"rate_limit": {"max": 1}}),
        json!({"rate_limit": {"max": 1, "per_ms": 1000, "burst": 2}}),
        json!({"rate_limit": {"max": 4_294_967_296_u64, "per_ms": 1000}}),
        json!({"rate_limit": "120/60000"}),
    ] {
        let r = ctl_post(&mock, "/_mock/config", bad.clone());
        let body = assert_error(&r, 400);
        assert!(
            body["details"]["field"]
                .as_str()
                .is_some_and(|f| f.starts_with("rate_limit")),
            "{bad}: {body}"
        );
    }
    assert_eq!(
        control(&mock, "GET", "/_mock/config", None).json()["rate_limit"],
        json!(null)
    );
}
