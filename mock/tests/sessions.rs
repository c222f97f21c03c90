//! The agent commands: restart, stop, update and their rules.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use tunnelctl_mock::{Mock, MockOptions};

fn seed_one(mock: &Mock, session: Value) -> String {
    str_of(&mock.seed(json!({"sessions": [session]}))["sessions"][0])
}

fn sessions(mock: &Mock) -> Vec<Value> {
    get(mock, "/tunnel_sessions").json()["tunnel_sessions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn command(mock: &Mock, id: &str, cmd: &str) -> Resp {
    post(mock, &format!("/tunnel_sessions/{id}/{cmd}"), json!({}))
}

#[test]
fn restart_comes_back_with_a_new_id_after_the_delay() {
    let mock = start_with(MockOptions {
        restart_delay_ms: 150,
        ..MockOptions::default()
    });
    // The delay runs on the emulator's clock, moved here instead of waited for.
    mock.freeze_clock(true);
    let id = seed_one(
        &mock,
        json!({"region": "eu", "os": "linux", "ip": "192.0.2.9", "metadata": "m", "credential_id": "cr_1", "agent_version": "3.19.1"}),
    );
    let before = get(&mock, &format!("/tunnel_sessions/{id}")).json();
    let r = command(&mock, &id, "restart");
    assert_eq!(r.status, 204, "{}", r.text());
    assert!(r.body.is_empty());
    assert!(sessions(&mock).is_empty(), "gone at once");
    assert_error(&get(&mock, &format!("/tunnel_sessions/{id}")), 404);

    mock.advance_clock(Duration::from_millis(149));
    assert!(sessions(&mock).is_empty(), "not before the delay");
    mock.advance_clock(Duration::from_millis(1));
    let after = sessions(&mock)
        .into_iter()
        .next()
        .expect("the session came back after the delay");
    assert_ne!(after["id"], before["id"]);
    assert!(after["id"].as_str().is_some_and(|i| i.starts_with("ts_")));
    for k in "credential ip os region metadata agent_version".split(' ') {
        assert_eq!(after[k], before[k], "{k}");
    }
    assert!(after["started_at"].as_str() >= before["started_at"].as_str());
}

#[test]
fn restart_shows_the_updated_version_and_windows_refuses() {
    let mock = start_with(MockOptions {
        restart_delay_ms: 0,
        ..MockOptions::default()
    });
    let id = seed_one(&mock, json!({"agent_version": "3.19.1"}));
    assert_eq!(command(&mock, &id, "update").status, 204);
    assert_eq!(command(&mock, &id, "restart").status, 204);
    let s = sessions(&mock);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0]["agent_version"], "3.20.0");
    let new_id = str_of(&s[0]["id"]);
    let body = assert_error(&command(&mock, &new_id, "update"), 400);
    assert_eq!(body["msg"], "no update is available");

    let win = seed_one(&mock, json!({"os": "windows"}));
    let body = assert_error(&command(&mock, &win, "restart"), 400);
    assert_eq!(body["msg"], "restart is not supported on Windows");
    assert_eq!(
        get(&mock, &format!("/tunnel_sessions/{win}")).status,
        200,
        "still there"
    );
}

#[test]
fn stop_removes_the_session() {
    let mock = start();
    mock.freeze_clock(true);
    let id = seed_one(&mock, json!({}));
    assert_eq!(command(&mock, &id, "stop").status, 204);
    assert_error(&get(&mock, &format!("/tunnel_sessions/{id}")), 404);
    assert_error(&command(&mock, &id, "stop"), 404);
    // Past any restart's delay (200 ms by default).
    mock.advance_clock(Duration::from_millis(250));
    assert!(
        sessions(&mock).is_empty(),
        "a stopped agent never comes back"
    );
}

#[test]
fn update_refusals_name_each_condition() {
    let mock = start();
    let cases = [
        (
            json!({"update_available": null}),
            "no update is available",
            "no_update_available",
        ),
        (
            json!({"update_checks_disabled": true}),
            "update checks are disabled in the agent configuration",
            "update_checks_disabled",
        ),
        (
            json!({"updating": true}),
            "the agent is already updating",
            "updating",
        ),
    ];
    for (seed, msg, reason) in cases {
        let id = seed_one(&mock, seed);
        let body = assert_error(&command(&mock, &id, "update"), 400);
        assert_eq!(body["msg"], msg);
        assert_eq!(body["details"]["reason"], reason);
        assert_eq!(body["error_code"], "ERR_NGROK_411");
    }
    let id = seed_one(&mock, json!({"update_available": "3.20.0"}));
    assert_eq!(command(&mock, &id, "update").status, 204);
    let body = assert_error(&command(&mock, &id, "update"), 400);
    assert_eq!(
        body["msg"],
        "the agent already updated and has not restarted yet"
    );
}

#[test]
fn update_in_progress_then_done() {
    let mock = start();
    mock.freeze_clock(true);
    let id = seed_one(&mock, json!({"update_duration_ms": 150}));
    assert_eq!(command(&mock, &id, "update").status, 204);
    let body = assert_error(&command(&mock, &id, "update"), 400);
    assert_eq!(body["msg"], "the agent is already updating");
    mock.advance_clock(Duration::from_millis(149));
    let body = assert_error(&command(&mock, &id, "update"), 400);
    assert_eq!(
        body["msg"], "the agent is already updating",
        "not before its end"
    );
    mock.advance_clock(Duration::from_millis(51));
    let body = assert_error(&command(&mock, &id, "update"), 400);
    assert_eq!(
        body["msg"],
        "the agent already updated and has not restarted yet"
    );
}

#[test]
fn commands_accept_empty_or_empty_object_bodies_only() {
    let mock = start();
    let id = seed_one(&mock, json!({}));
    let auth = format!("Bearer {}", mock.api_key());
    let r = raw(
        &mock.url(),
        "POST",
        &format!("/tunnel_sessions/{id}/update"),
        &[("Authorization", &auth), ("Service-Version", "2")],
        b"",
    );
    assert_eq!(r.status, 204, "{}", r.text());
    let body = assert_error(
        &post(
            &mock,
            &format!("/tunnel_sessions/{id}/stop"),
            json!({"force": true}),
        ),
        400,
    );
    assert_eq!(body["details"]["field"], "force");
}
