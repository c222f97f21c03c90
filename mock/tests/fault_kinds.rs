//! Faults for reliability tests: answers lost after the server acted, broken bodies, and
//! reproducible random choices.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agent_support;
mod common;

use agent_support::{agent, post_tunnel};
use common::*;
use serde_json::{json, Value};

fn split_head(bytes: &[u8]) -> (String, Vec<u8>) {
    match bytes.windows(4).position(|w| w == b"\r\n\r\n") {
        Some(i) => (
            String::from_utf8_lossy(&bytes[..i]).into_owned(),
            bytes[i + 4..].to_vec(),
        ),
        None => (String::from_utf8_lossy(bytes).into_owned(), Vec::new()),
    }
}

#[test]
fn after_faults_act_then_replace_the_answer() {
    let mock = start();
    mock.inject(
        json!({"method": "POST", "path": "/ip_policies", "after": true, "status": 500, "count": 1}),
    );
    let r = post(&mock, "/ip_policies", json!({"description": "made anyway"}));
    let body = assert_error(&r, 500);
    assert_eq!(body["error_code"], "ERR_NGROK_999");
    let policies = mock.state()["ip_policies"].clone();
    assert_eq!(policies.as_array().map(Vec::len), Some(1), "{policies}");
    assert_eq!(policies[0]["description"], "made anyway");
    assert_eq!(mock.requests()[0].status, 500);
}

#[test]
fn after_reset_acts_then_drops_the_connection() {
    let mock = start();
    let sessions = mock.seed(json!({"sessions": [{}]}));
    let id = str_of(&sessions["sessions"][0]);
    mock.inject(
        json!({"path": "/tunnel_sessions/*/stop", "after": true, "reset": true, "count": 1}),
    );
    let got = api_bytes(
        &mock,
        "POST",
        &format!("/tunnel_sessions/{id}/stop"),
        Some(json!({})),
    );
    assert!(
        got.is_empty(),
        "no answer: {:?}",
        String::from_utf8_lossy(&got)
    );
    assert_eq!(
        mock.state()["tunnel_sessions"],
        json!([]),
        "the session was stopped"
    );
    assert_eq!(mock.requests()[0].status, 0);
    assert_eq!(mock.stats()["by_status"], json!({"0": 1}));
}

#[test]
fn reset_before_drops_the_connection_without_acting() {
    let mock = start();
    mock.inject(
        json!({"method": "POST", "path": "/ip_policies", "reset_before": true, "count": 1}),
    );
    assert!(api_bytes(&mock, "POST", "/ip_policies", Some(json!({}))).is_empty());
    assert_eq!(mock.state()["ip_policies"], json!([]));
    let r = ctl_post(
        &mock,
        "/_mock/faults",
        json!({"path": "/**", "reset_before": true, "after": true}),
    );
    assert_eq!(assert_error(&r, 400)["details"]["field"], "reset_before");
}

#[test]
fn broken_bodies_are_well_framed_and_default_to_200() {
    let mock = start();
    let cases: [(&str, &str); 5] = [
        ("truncated_json", "application/json"),
        ("malformed_json", "application/json"),
        ("html", "text/html; charset=utf-8"),
        ("invalid_utf8", "application/json"),
        ("empty", "application/json"),
    ];
    for (kind, content_type) in cases {
        mock.inject(json!({"path": "/ip_policies", "body_kind": kind, "count": 1}));
        let r = get(&mock, "/ip_policies");
        assert_eq!(r.status, 200, "{kind}");
        assert_eq!(r.header("content-type"), Some(content_type), "{kind}");
        assert_eq!(
            r.header("content-length"),
            Some(r.body.len().to_string().as_str()),
            "{kind}"
        );
        assert!(
            serde_json::from_slice::<Value>(&r.body).is_err(),
            "{kind}: {}",
            r.text()
        );
        match kind {
            "truncated_json" => assert!(r.body.starts_with(b"{\"id\":\"ipp_"), "{}", r.text()),
            "malformed_json" => assert!(r.body.starts_with(b"{\"id\": "), "{}", r.text()),
            "html" => assert!(r.text().contains("<html>"), "{}", r.text()),
            "invalid_utf8" => assert!(r.body.windows(2).any(|w| w == [0xff, 0xfe])),
            _ => assert!(r.body.is_empty()),
        }
    }
    mock.inject(json!({"path": "/ip_policies", "body_kind": "html", "status": 502, "headers": {"Retry-After": "3"}, "count": 1}));
    let r = get(&mock, "/ip_policies");
    assert_eq!((r.status, r.header("retry-after")), (502, Some("3")));
    // With after, the server acts and the client gets a broken 200.
    mock.inject(json!({"method": "POST", "path": "/ip_policies", "body_kind": "truncated_json", "after": true, "count": 1}));
    assert_eq!(post(&mock, "/ip_policies", json!({})).status, 200);
    assert_eq!(
        mock.state()["ip_policies"].as_array().map(Vec::len),
        Some(1)
    );
}

#[test]
fn huge_bodies_are_streamed_with_their_length() {
    let mock = start();
    let size: usize = 20_000_000;
    mock.inject(json!({"path": "/ip_policies", "body_kind": "huge", "size": size, "count": 1}));
    let bytes = api_bytes(&mock, "GET", "/ip_policies", None);
    let (head, body) = split_head(&bytes);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains(&format!("content-length: {size}")),
        "{head}"
    );
    assert!(
        !head.to_ascii_lowercase().contains("transfer-encoding"),
        "{head}"
    );
    assert_eq!(body.len(), size);
    assert!(body.starts_with(b"{\"padding\":\"xxx"));
    assert!(body.ends_with(b"xxx\"}"));
    // The smallest one is still a JSON object.
    mock.inject(json!({"path": "/ip_policies", "body_kind": "huge", "size": 14, "count": 1}));
    assert_eq!(get(&mock, "/ip_policies").json(), json!({"padding": ""}));
}

#[test]
fn seeded_probabilities_repeat_run_after_run() {
    let outcomes = |seed: u64| -> Vec<u16> {
        let mock = start();
        mock.inject(
            json!({"path": "/ip_policies", "status": 503, "probability": 0.5, "seed": seed}),
        );
        (0..40).map(|_| get(&mock, "/ip_policies").status).collect()
    };
    let first = outcomes(42);
    assert_eq!(first, outcomes(42));
    assert!(first.contains(&200) && first.contains(&503), "{first:?}");
    assert_ne!(first, outcomes(7));
}

#[test]
fn after_faults_apply_to_the_agent_api_too() {
    let mock = start();
    mock.inject(
        json!({"method": "POST", "path": "/api/tunnels", "after": true, "status": 502, "count": 1}),
    );
    let r = post_tunnel(&mock, json!({"name": "lost", "proto": "tcp", "addr": "9"}));
    assert_eq!(r.status, 502);
    let listed = agent(&mock, "GET", "/api/tunnels", None).json();
    assert_eq!(listed["tunnels"][0]["name"], "lost", "{listed}");
    assert_eq!(mock.agent_requests()[0].status, 502);
}

#[test]
fn invalid_fault_kinds_are_400() {
    let mock = start();
    for (bad, field) in [
        (json!({"path": "/x", "body_kind": "xml"}), "body_kind"),
        (json!({"path": "/x", "body_kind": "huge"}), "size"),
        (
            json!({"path": "/x", "body_kind": "huge", "size": 13}),
            "size",
        ),
        (
            json!({"path": "/x", "body_kind": "html", "size": 100}),
            "size",
        ),
        (json!({"path": "/x", "status": 500, "size": 100}), "size"),
        (
            json!({"path": "/x", "body_kind": "html", "body": "x"}),
            "body_kind",
        ),
        (
            json!({"path": "/x", "body_kind": "html", "reset": true}),
            "body_kind",
        ),
        (json!({"path": "/x", "status": 500, "seed": -1}), "seed"),
        (
            json!({"path": "/x", "status": 500, "after": "yes"}),
            "after",
        ),
        (json!({"path": "/x", "after": true}), "status"),
    ] {
        let r = ctl_post(&mock, "/_mock/faults", bad.clone());
        assert_eq!(assert_error(&r, 400)["details"]["field"], field, "{bad}");
    }
    // The listing shows what was injected.
    let shown = ctl_post(
        &mock,
        "/_mock/faults",
        json!({"path": "/x", "body_kind": "huge", "size": 100, "seed": 3, "after": true}),
    )
    .json();
    assert_eq!(shown["body_kind"], "huge");
    assert_eq!(shown["seed"], 3);
}
