//! Authentication, content negotiation and the shape of every error.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use serde_json::json;

#[test]
fn missing_or_wrong_key_is_401_and_service_version_must_be_2() {
    let mock = start();
    let auth = format!("Bearer {}", mock.api_key());
    for (headers, status, code) in [
        (vec![("Service-Version", "2")], 401, Some("ERR_NGROK_201")),
        (
            vec![("Authorization", "Bearer nope"), ("Service-Version", "2")],
            401,
            None,
        ),
        (
            vec![("Authorization", "mock-api-key"), ("Service-Version", "2")],
            401,
            None,
        ),
        (
            vec![("Authorization", auth.as_str())],
            400,
            Some("ERR_NGROK_202"),
        ),
        (
            vec![("Authorization", auth.as_str()), ("Service-Version", "1")],
            400,
            None,
        ),
    ] {
        let r = raw(&mock.url(), "GET", "/ip_policies", &headers, b"");
        let body = assert_error(&r, status);
        if let Some(code) = code {
            assert_eq!(body["error_code"], code, "{headers:?}");
        }
    }
    assert_eq!(get(&mock, "/ip_policies").status, 200);
}

#[test]
fn body_needs_json_content_type_and_valid_json() {
    let mock = start();
    let auth = format!("Bearer {}", mock.api_key());
    let base = [("Authorization", auth.as_str()), ("Service-Version", "2")];
    let mut with_type = base.to_vec();
    with_type.push(("Content-Type", "application/json; charset=utf-8"));
    for (headers, body, status, code) in [
        (
            &base[..],
            &br#"{"description":"x"}"#[..],
            415,
            Some("ERR_NGROK_203"),
        ),
        (&with_type[..], b"{not json", 400, Some("ERR_NGROK_204")),
        (&with_type[..], b"[1]", 400, None),
    ] {
        let r = raw(&mock.url(), "POST", "/ip_policies", headers, body);
        let answer = assert_error(&r, status);
        if let Some(code) = code {
            assert_eq!(answer["error_code"], code, "{headers:?}");
        }
    }
    let ok = br#"{"description":"ok"}"#;
    let r = raw(&mock.url(), "POST", "/ip_policies", &with_type, ok);
    assert_eq!(r.status, 201, "{}", r.text());
}

#[test]
fn unknown_fields_are_named() {
    let mock = start();
    let typo = json!({"description": "a", "descripton": "b"});
    let r = post(&mock, "/ip_policies", typo);
    let body = assert_error(&r, 400);
    assert_eq!(body["error_code"], "ERR_NGROK_205");
    assert_eq!(body["details"]["field"], "descripton");
    assert!(body["msg"].as_str().unwrap_or("").contains("descripton"));
}

#[test]
fn wrong_types_are_named() {
    let mock = start();
    let r = post(&mock, "/ip_policies", json!({"description": 5}));
    let body = assert_error(&r, 400);
    assert_eq!(body["error_code"], "ERR_NGROK_206");
    assert_eq!(body["details"]["field"], "description");
}

#[test]
fn unknown_paths_are_404_and_wrong_methods_405() {
    let mock = start();
    let body = assert_error(&get(&mock, "/nope"), 404);
    assert_eq!(body["error_code"], "ERR_NGROK_405");
    assert_error(&get(&mock, "/ip_policies/x/y"), 404);
    let r = put(&mock, "/ip_policies", json!({}));
    let body = assert_error(&r, 405);
    assert_eq!(body["error_code"], "ERR_NGROK_406");
    assert_eq!(r.header("allow"), Some("GET, POST"));
    assert_error(&post(&mock, "/tunnel_sessions", json!({})), 405);
    assert_error(&get(&mock, "/tunnel_sessions/ts_x/restart"), 405);
}

#[test]
fn unknown_ids_are_404() {
    let mock = start();
    for path in [
        "/tunnel_sessions/ts_missing",
        "/ip_policies/ipp_missing",
        "/backends/tunnel_group/bkdtg_missing",
        "/edges/tls/edgtls_missing/tls_termination",
        "/event_destinations/ed_missing",
        "/event_subscriptions/esb_missing",
        "/event_subscriptions/esb_missing/sources",
        "/event_subscriptions/esb_missing/sources/ip_policy_created.v0",
    ] {
        let body = assert_error(&get(&mock, path), 404);
        assert_eq!(body["error_code"], "ERR_NGROK_404", "{path}");
    }
}

#[test]
fn an_encoded_slash_stays_inside_its_segment() {
    let mock = start();
    mock.seed(json!({"session_count": 1}));
    let r = get(&mock, "/ip_policies/..%2Ftunnel_sessions");
    let body = assert_error(&r, 404);
    assert_eq!(body["error_code"], "ERR_NGROK_404");
    assert_eq!(body["details"]["id"], "../tunnel_sessions");
    let log = mock.requests();
    assert_eq!(
        log.last().map(|r| r.path.as_str()),
        Some("/ip_policies/..%2Ftunnel_sessions")
    );
}
