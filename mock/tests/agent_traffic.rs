//! Real traffic through the emulator's tunnels to a tiny upstream started by the test: what
//! the visitor gets, what the upstream receives, how exchanges are captured, listed,
//! filtered and replayed, and the metrics.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agent_support;
mod common;

use std::time::Duration;

use agent_support::*;
use base64::Engine;
use common::*;
use serde_json::{json, Value};

fn b64(v: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(v.as_str().unwrap_or_default())
        .unwrap_or_else(|e| panic!("not base64 ({e}): {v}"))
}

/// An upstream that answers at once, and an emulator to tunnel to it.
fn upstream_and_emulator() -> (Upstream, tunnelctl_mock::Mock) {
    (Upstream::start(Duration::ZERO), start())
}

#[test]
fn a_request_through_a_tunnel_is_forwarded_verbatim_and_captured() {
    let (up, mock) = upstream_and_emulator();
    tunnel(&mock, "web", "http", up.port, json!({}));
    let port = edge_port(&mock, "web (http)");
    let request = format!(
        "POST /hook?n=1&x=%20y HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nx-multi: a\r\nX-Multi: b\r\nContent-Type: application/json\r\nContent-Length: 16\r\nConnection: close\r\n\r\n{{\"event\":\"paid\"}}"
    );
    let answer = visit_raw(port, request.as_bytes(), Duration::from_secs(10));
    let answer = String::from_utf8_lossy(&answer).into_owned();
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(answer.contains("X-Upstream: yes"), "{answer}");
    assert!(answer.contains("\"path\":\"/hook?n=1&x=%20y\""), "{answer}");
    // The upstream got the visitor's bytes, untouched.
    assert_eq!(up.requests(), vec![request.as_bytes().to_vec()]);

    let list = wait_for(&mock, "the capture", |l| {
        l.len() == 1 && l[0]["response"]["status_code"] == 200
    });
    let c = &list[0];
    let id = c["id"].as_str().unwrap_or_default();
    assert!(id.starts_with("airt_") && id.len() == 32, "{id}");
    assert_eq!(c["uri"], format!("/api/requests/http/{id}"));
    assert_eq!(c["tunnel_name"], "web (http)");
    assert_eq!(c["remote_addr"], "127.0.0.1");
    let start = c["start"].as_str().unwrap_or_default();
    assert!(
        start.len() == 20 && start.ends_with('Z') && start.contains('T'),
        "{start}"
    );
    assert!(c["duration"].as_u64().is_some_and(|d| d > 0), "{c}");
    let req = &c["request"];
    assert_eq!(req["method"], "POST");
    assert_eq!(req["proto"], "HTTP/1.1");
    assert_eq!(req["uri"], "/hook?n=1&x=%20y");
    assert_eq!(
        req["headers"],
        json!({
            "Connection": ["close"],
            "Content-Length": ["16"],
            "Content-Type": ["application/json"],
            "Host": [format!("127.0.0.1:{port}")],
            "X-Multi": ["a", "b"],
        })
    );
    assert_eq!(b64(&req["raw"]), request.as_bytes());
    let resp = &c["response"];
    assert_eq!(resp["status"], "200 OK");
    assert_eq!(resp["status_code"], 200);
    assert_eq!(resp["proto"], "HTTP/1.1");
    // Go's reader drops `Connection: close` from the headers of an HTTP/1.1 response.
    let names: Vec<&String> = resp["headers"]
        .as_object()
        .map(|m| m.keys().collect())
        .unwrap_or_default();
    assert_eq!(names, ["Content-Length", "Content-Type", "X-Upstream"]);
    assert_eq!(b64(&resp["raw"]), answer.as_bytes());
    // The same capture by id, with a newline after it; JSON uses Go's escapes.
    let one = agent(&mock, "GET", &format!("/api/requests/http/{id}"), None);
    assert_eq!(one.status, 200);
    assert!(one.text().ends_with("}\n"));
    assert!(
        one.text().contains("/hook?n=1\\u0026x=%20y"),
        "{}",
        one.text()
    );
    assert_eq!(one.json(), *c);
    // Metrics moved.
    let t = wait_tunnel(&mock, "web%20%28http%29", |t| {
        t["metrics"]["conns"]["count"] == 1
    });
    assert_eq!(t["metrics"]["http"]["count"], 1);
    assert_eq!(t["metrics"]["conns"]["count"], 1);
    assert_eq!(t["metrics"]["conns"]["gauge"], 0);
    assert!(t["metrics"]["http"]["p50"]
        .as_f64()
        .is_some_and(|p| p > 0.0));
}

#[test]
fn keep_alive_chunked_and_http10_requests() {
    let (up, mock) = upstream_and_emulator();
    let addr = format!("localhost:{}", up.port);
    tunnel(&mock, "web", "http", addr, json!({"bind_tls": true}));
    let port = edge_port(&mock, "web");
    // Two requests on one connection, the second chunked.
    let two = b"GET /one HTTP/1.1\r\nHost: h\r\n\r\nPOST /two HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n6\r\nchunky\r\n0\r\n\r\n";
    let answer =
        String::from_utf8_lossy(&visit_raw(port, two, Duration::from_secs(10))).into_owned();
    assert_eq!(answer.matches("HTTP/1.1 200 OK").count(), 2, "{answer}");
    assert!(answer.contains("\"body\":\"chunky\""), "{answer}");
    // HTTP/1.0 with lower-case headers.
    let ten = b"GET /ten HTTP/1.0\r\nhost: x.example\r\nx-lower: 1\r\nX-LOWER: 2\r\n\r\n";
    visit_raw(port, ten, Duration::from_secs(10));
    let list = wait_for(&mock, "three captures", |l| {
        l.len() == 3 && l.iter().all(|c| c["response"]["status_code"] == 200)
    });
    let uris: Vec<&str> = list
        .iter()
        .filter_map(|c| c["request"]["uri"].as_str())
        .collect();
    assert_eq!(uris, ["/ten", "/two", "/one"], "newest first");
    let chunked = &list[1];
    assert_eq!(
        chunked["request"]["headers"],
        json!({"Connection": ["close"], "Host": ["h"]}),
        "Transfer-Encoding is not shown"
    );
    assert!(String::from_utf8_lossy(&b64(&chunked["request"]["raw"]))
        .ends_with("6\r\nchunky\r\n0\r\n\r\n"));
    assert_eq!(list[0]["request"]["proto"], "HTTP/1.0");
    assert_eq!(
        list[0]["request"]["headers"],
        json!({"Host": ["x.example"], "X-Lower": ["1", "2"]})
    );
    let t = wait_tunnel(&mock, "web", |t| t["metrics"]["conns"]["count"] == 2);
    assert_eq!(t["metrics"]["http"]["count"], 3);
}

#[test]
fn a_control_character_in_a_header_value_is_forwarded_and_captured_as_sent() {
    // The agent (Go's header reader) keeps an ESC or a NUL inside a header value; a visitor's
    // request holding one is forwarded and captured like any other.
    let (up, mock) = upstream_and_emulator();
    tunnel(&mock, "web", "http", up.port, json!({}));
    let port = edge_port(&mock, "web (http)");
    let request =
        b"GET /evil HTTP/1.1\r\nHost: h\r\nX-Evil: a\x1b[31mred\x00\r\nConnection: close\r\n\r\n";
    let answer = visit_raw(port, request, Duration::from_secs(10));
    assert!(answer.starts_with(b"HTTP/1.1 200 OK\r\n"));
    assert_eq!(up.requests(), vec![request.to_vec()]);
    let list = wait_for(&mock, "the capture", |l| {
        l.len() == 1 && l[0]["response"]["status_code"] == 200
    });
    assert_eq!(list[0]["request"]["uri"], "/evil");
    assert_eq!(
        list[0]["request"]["headers"]["X-Evil"],
        json!(["a\u{1b}[31mred\u{0}"])
    );
    assert_eq!(b64(&list[0]["request"]["raw"]), request);
}

#[test]
fn an_unreachable_upstream_is_a_captured_502() {
    let mock = start();
    let dead = dead_port();
    tunnel(&mock, "dead", "http", dead, json!({"bind_tls": false}));
    let port = edge_port(&mock, "dead");
    let answer = visit(port, "GET", "/x", b"");
    assert!(
        answer.starts_with("HTTP/1.1 502 Bad Gateway\r\n"),
        "{answer}"
    );
    assert!(answer.contains("Failed to complete tunnel connection"));
    assert!(
        answer.contains(&format!(
            "dial tcp 127.0.0.1:{dead}: connect: connection refused"
        )),
        "{answer}"
    );
    let list = wait_for(&mock, "the 502", |l| {
        l.len() == 1 && l[0]["response"]["status_code"] == 502
    });
    let resp = &list[0]["response"];
    assert_eq!(resp["status"], "502 Bad Gateway");
    assert_eq!(resp["headers"]["Content-Type"], json!(["text/html"]));
    assert!(resp["headers"].get("Connection").is_none());
    assert_eq!(b64(&resp["raw"]), answer.as_bytes());
}

#[test]
fn pending_captures_show_the_agents_zero_response_or_null() {
    let up = Upstream::start(Duration::from_millis(1500));
    let mock = start();
    tunnel(&mock, "slow", "http", up.port, json!({"bind_tls": true}));
    let port = edge_port(&mock, "slow");
    let visitor = std::thread::spawn(move || visit(port, "GET", "/slow", b""));
    let list = wait_for(&mock, "the pending capture", |l| l.len() == 1);
    assert_eq!(
        list[0]["response"],
        json!({"status": "", "status_code": 0, "proto": "", "headers": null, "raw": null})
    );
    assert_eq!(list[0]["duration"], 0);
    mock.configure(json!({"pending_response": "null"}));
    assert_eq!(captures(&mock, "")[0]["response"], Value::Null);
    let answer = visitor.join().unwrap_or_default();
    assert!(answer.contains("200 OK"), "{answer}");
    let list = wait_for(&mock, "the answer", |l| {
        l[0]["response"]["status_code"] == 200
    });
    assert!(list[0]["duration"]
        .as_u64()
        .is_some_and(|d| d >= 1_000_000_000));
}

#[test]
fn inspect_false_and_tcp_tunnels_forward_without_capturing() {
    let (up, mock) = upstream_and_emulator();
    tunnel(
        &mock,
        "quiet",
        "http",
        up.port,
        json!({"inspect": false, "bind_tls": true}),
    );
    tunnel(&mock, "raw", "tcp", up.port, json!({}));
    assert!(visit(edge_port(&mock, "quiet"), "GET", "/q", b"").contains("200 OK"));
    assert!(visit(edge_port(&mock, "raw"), "GET", "/r", b"").contains("\"path\":\"/r\""));
    assert_eq!(up.requests().len(), 2);
    // Counted once answered, after the point where an inspected request is captured.
    wait_tunnel(&mock, "quiet", |t| t["metrics"]["http"]["count"] == 1);
    assert!(captures(&mock, "").is_empty());
    let raw = wait_tunnel(&mock, "raw", |t| t["metrics"]["conns"]["count"] == 1);
    assert_eq!(raw["metrics"]["http"]["count"], 0);
}

#[test]
fn limit_and_tunnel_name_select_captures() {
    let (up, mock) = upstream_and_emulator();
    tunnel(&mock, "a", "http", up.port, json!({}));
    let pa = edge_port(&mock, "a");
    let pah = edge_port(&mock, "a (http)");
    for i in 0..3 {
        visit(pa, "GET", &format!("/a{i}"), b"");
    }
    visit(pah, "GET", "/h", b"");
    wait_for(&mock, "four captures", |l| {
        l.len() == 4 && l.iter().all(|c| c["response"]["status_code"] == 200)
    });
    let uris = |q: &str| -> Vec<String> {
        captures(&mock, q)
            .iter()
            .filter_map(|c| c["request"]["uri"].as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(uris(""), ["/h", "/a2", "/a1", "/a0"]);
    assert_eq!(uris("?limit=0"), ["/h", "/a2", "/a1", "/a0"], "0 means all");
    assert!(uris("?limit=-1").is_empty(), "-1 means none");
    assert!(uris("?limit=-2").is_empty());
    assert_eq!(uris("?limit=2"), ["/h", "/a2"]);
    assert_eq!(uris("?limit=%2B1"), ["/h"]);
    assert_eq!(uris("?tunnel_name=a"), ["/a2", "/a1", "/a0"]);
    assert_eq!(uris("?tunnel_name=a&limit=1"), ["/a2"]);
    assert_eq!(uris("?tunnel_name=a+%28http%29"), ["/h"]);
    assert!(
        uris("?tunnel_name=zzz").is_empty(),
        "no match is an empty list"
    );
    assert_eq!(uris("?tunnel_name="), ["/h", "/a2", "/a1", "/a0"]);
    let r = agent(&mock, "DELETE", "/api/requests/http", None);
    assert_eq!(r.status, 204);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert!(r.body.is_empty());
    assert_eq!(
        agent(&mock, "GET", "/api/requests/http", None).text(),
        "{\"uri\":\"/api/requests/http\",\"requests\":[]}\n"
    );
}

#[test]
fn replay_resends_the_raw_request_and_captures_it_again() {
    let up = Upstream::start(Duration::ZERO);
    let other = Upstream::start(Duration::ZERO);
    let mock = start();
    tunnel(&mock, "hook", "http", up.port, json!({}));
    tunnel(
        &mock,
        "other",
        "http",
        other.port,
        json!({"bind_tls": true}),
    );
    let port = edge_port(&mock, "hook (http)");
    visit(port, "POST", "/hook?n=1", b"{\"event\":\"paid\"}");
    let list = wait_for(&mock, "the capture", |l| {
        l.len() == 1 && l[0]["response"]["status_code"] == 200
    });
    let id = str_of(&list[0]["id"]);
    let original = b64(&list[0]["request"]["raw"]);

    let r = replay(&mock, json!({"id": id}));
    assert_eq!(r.status, 204, "{}", r.text());
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert!(r.body.is_empty());
    // The call returns once the upstream has answered: the capture is complete.
    let list = captures(&mock, "");
    assert_eq!(list.len(), 2);
    let again = &list[0];
    assert_eq!(again["remote_addr"], "replayed");
    assert_eq!(again["tunnel_name"], "hook (http)");
    assert_ne!(again["id"], list[1]["id"]);
    assert_eq!(b64(&again["request"]["raw"]), original);
    assert_eq!(again["response"]["status_code"], 200);
    assert!(String::from_utf8_lossy(&b64(&again["response"]["raw"])).contains("paid"));
    assert_eq!(up.requests(), vec![original.clone(), original.clone()]);

    // Against another tunnel.
    let r = replay(&mock, json!({"id": id, "tunnel_name": "other"}));
    assert_eq!(r.status, 204);
    assert_eq!(other.requests(), vec![original.clone()]);
    assert_eq!(captures(&mock, "?limit=1")[0]["tunnel_name"], "other");
    // Unknown tunnel; a stopped tunnel.
    let r = replay(&mock, json!({"id": id, "tunnel_name": "nope"}));
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["error_code"], 100);
    assert_eq!(r.json()["details"]["name"], "nope");
    assert_eq!(
        agent(&mock, "DELETE", "/api/tunnels/hook%20%28http%29", None).status,
        204
    );
    let r = replay(&mock, json!({"id": id}));
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["details"]["name"], "hook (http)");
    // Metrics of the replay target count the replay.
    let t = agent(&mock, "GET", "/api/tunnels/other", None).json();
    assert_eq!(t["metrics"]["http"]["count"], 1);
}

#[test]
fn a_replay_to_an_unreachable_upstream_captures_the_502() {
    let (up, mock) = upstream_and_emulator();
    tunnel(&mock, "ok", "http", up.port, json!({"bind_tls": true}));
    tunnel(
        &mock,
        "dead",
        "http",
        dead_port(),
        json!({"bind_tls": true}),
    );
    visit(edge_port(&mock, "ok"), "GET", "/x", b"");
    let list = wait_for(&mock, "the capture", |l| {
        l.len() == 1 && l[0]["response"]["status_code"] == 200
    });
    let id = list[0]["id"].as_str().unwrap_or_default();
    let r = replay(&mock, json!({"id": id, "tunnel_name": "dead"}));
    assert_eq!(r.status, 204);
    let c = &captures(&mock, "?limit=1")[0];
    assert_eq!(c["remote_addr"], "replayed");
    assert_eq!(c["tunnel_name"], "dead");
    assert_eq!(c["response"]["status_code"], 502);
}

#[test]
fn a_large_body_goes_through_and_is_captured_whole() {
    let (up, mock) = upstream_and_emulator();
    tunnel(&mock, "big", "http", up.port, json!({"bind_tls": true}));
    let port = edge_port(&mock, "big");
    let body: Vec<u8> = (0..5 * 1024 * 1024).map(|i| (i % 251) as u8).collect();
    let mut request = format!(
        "PUT /upload HTTP/1.1\r\nHost: h\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(&body);
    let answer =
        String::from_utf8_lossy(&visit_raw(port, &request, Duration::from_secs(30))).into_owned();
    assert!(
        answer.contains(&format!("\"body_len\":{}", body.len())),
        "{}",
        &answer[..answer.len().min(300)]
    );
    let list = wait_for(&mock, "the capture", |l| {
        l.len() == 1 && l[0]["response"]["status_code"] == 200
    });
    assert_eq!(b64(&list[0]["request"]["raw"]), request);
}
