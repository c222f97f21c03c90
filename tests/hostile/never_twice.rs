//! Nothing is commanded twice: a session that shows up on two pages of a list that changed
//! while it was paged gets one command, not two.

use crate::common::hostile::{page, Hostile, Reply};
use crate::common::{words, Env};

fn session(i: usize) -> String {
    format!(
        "{{\"id\":\"ts_{i}\",\"uri\":\"/tunnel_sessions/ts_{i}\",\"os\":\"linux\",\"region\":\"eu\",\"agent_version\":\"3.19.0\",\"ip\":\"10.0.0.{i}\",\"credential\":{{\"id\":\"cr_{i}\",\"uri\":\"/credentials/cr_{i}\"}},\"started_at\":\"2026-01-01T00:00:00Z\"}}"
    )
}

/// Page 1: ts_1, ts_2; page 2: ts_2 again (it moved while paging), ts_3.
fn shifting_list() -> Hostile {
    Hostile::start(|req| match req.method.as_str() {
        "GET" if req.query() == Some("before_id=ts_2") => Reply::ok(page(
            "tunnel_sessions",
            &[session(2), session(3)].join(","),
            "/tunnel_sessions",
            None,
        )),
        "GET" => Reply::ok(page(
            "tunnel_sessions",
            &[session(1), session(2)].join(","),
            "/tunnel_sessions",
            Some("/tunnel_sessions?before_id=ts_2"),
        )),
        _ => Reply::Json(204, String::new()),
    })
}

fn posts_to(server: &Hostile, id: &str) -> usize {
    server
        .seen()
        .iter()
        .filter(|r| r.method == "POST" && r.path().starts_with(&format!("/tunnel_sessions/{id}/")))
        .count()
}

#[test]
fn a_session_on_two_pages_is_restarted_once() {
    let server = shifting_list();
    let env = Env::new();
    let out = env.run_at(
        &server.url(),
        &["sessions", "restart", "--all", "--rate", "off"],
    );
    out.ok();
    for id in ["ts_1", "ts_2", "ts_3"] {
        assert_eq!(posts_to(&server, id), 1, "{id}: {:?}", server.seen());
    }
}

#[test]
fn selectors_and_dry_runs_list_each_session_once() {
    let server = shifting_list();
    let env = Env::new();
    let out = env.run_at(
        &server.url(),
        &words("sessions stop --os linux --dry-run --rate off"),
    );
    out.ok();
    assert_eq!(out.stdout.lines().count(), 3, "{}", out.stdout);
    let out = env.run_at(
        &server.url(),
        &["sessions", "update", "--region", "eu", "--rate", "off"],
    );
    out.ok();
    assert_eq!(posts_to(&server, "ts_2"), 1);
}
