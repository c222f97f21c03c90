//! Captures and answers shown as they were on the wire: a visitor's header holding a control
//! character is captured like any other (as the real agent does), and the answer to a replay
//! that `tunnelctl` sends itself keeps the header names as the server wrote them.

use crate::common::upstream::visit;
use crate::local::{captured, edge_port, tunnels_to_upstream};

#[test]
fn a_request_whose_header_holds_an_esc_is_captured_listed_and_shown_escaped() {
    let (env, up) = tunnels_to_upstream(&["hook"]);
    let port = edge_port(&env, "hook (http)");
    let answer = visit(port, "GET", "/evil", &[("X-Evil", "a\x1b[31mred")], b"");
    assert!(answer.contains("200 OK"), "{answer}");
    assert_eq!(up.received().len(), 1, "the upstream got it");

    let list = env.local(&["requests", "list"]);
    list.ok().prints("/evil");
    let ids: Vec<String> = captured(&env)
        .iter()
        .filter_map(|c| c["id"].as_str().map(String::from))
        .collect();
    assert_eq!(ids.len(), 1, "the request is captured: {ids:?}");

    let shown = env.local(&["requests", "get", &ids[0]]);
    shown.ok().prints("X-Evil: a\\x1b[31mred");
    assert!(
        !shown.stdout.contains('\x1b'),
        "never passed to the terminal"
    );
}

#[test]
fn the_answer_to_a_changed_replay_shows_header_names_as_servers_write_them() {
    let (env, _up) = tunnels_to_upstream(&["hook"]);
    let port = edge_port(&env, "hook (http)");
    let json = [("Content-Type", "application/json")];
    assert!(visit(port, "POST", "/hook", &json, b"{\"amount\":1}").contains("200 OK"));
    let id = captured(&env)[0]["id"].as_str().unwrap().to_string();
    // The capture shows the upstream's answer as it was sent...
    env.local(&["requests", "get", &id])
        .ok()
        .prints("< Content-Type: application/json");
    // ...and so does the answer to a replay tunnelctl sends itself.
    let out = env.local(&["requests", "replay", &id, "--set", "amount=2"]);
    out.ok()
        .prints("< Content-Type: application/json")
        .prints("< Content-Length: ");
    assert!(!out.stdout.contains("< content-type"), "{}", out.stdout);
    let json = env.local(&["requests", "replay", &id, "--set", "amount=3", "--json"]);
    assert!(
        json.json()["response"]["headers"]["Content-Type"].is_array(),
        "{}",
        json.stdout
    );
}
