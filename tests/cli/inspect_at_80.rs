//! The inspector as a newcomer meets it on an 80x24 terminal: a request that arrives while the
//! selection is lower down is seen; no status line or timestamp is cut at 80 columns; a request
//! still waiting for its answer says so instead of showing a duration of zero; and each place
//! says what Esc does there.

use serde_json::json;
use tunnelctl_mock::MockOptions;

use crate::common::pty::{keys, Pty};
use crate::common::upstream::visit;
use crate::common::Env;
use crate::local::{edge_port, tunnels_to_upstream};
use tunnelctl::registry::env as var;

/// `tunnelctl local inspect` on a 24x80 terminal in the test's folder.
fn inspect(env: &Env) -> Pty {
    Pty::spawn(&env.inspector_cmd(&env.mock.agent_url(), &[], &[]), 24, 80)
}

/// The screen's lines, trailing blanks trimmed.
fn lines(screen: &str) -> Vec<&str> {
    screen.lines().map(str::trim_end).collect()
}

/// The screen's text from the first line holding `start`, its lines joined by one space (a
/// message may take two lines, but no part of it may be cut).
fn message_from(screen: &str, start: &str) -> String {
    let all = lines(screen);
    let at = all
        .iter()
        .position(|l| l.contains(start))
        .unwrap_or_else(|| panic!("{start:?} not on screen:\n{screen}"));
    all[at..]
        .iter()
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_request_that_arrives_above_the_selection_is_seen() {
    let (env, _up) = tunnels_to_upstream(&["hook"]);
    let port = edge_port(&env, "hook (http)");
    for i in 0..8 {
        visit(port, "GET", &format!("/old/{i}"), &[], b"");
    }
    let mut term = inspect(&env);
    term.wait_for("8 captured");
    term.send("j");
    term.wait_for("▶");
    visit(port, "POST", "/brand-new", &[], b"{}");
    let screen = term.wait_for("9 captured");
    let shown = screen.contains("/brand-new") || screen.contains("1 new");
    assert!(shown, "nothing shows the new request:\n{screen}");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn status_messages_are_whole_at_80_columns() {
    let (env, _up) = tunnels_to_upstream(&["hook"]);
    let port = edge_port(&env, "hook (http)");
    visit(port, "POST", "/hooks/stripe", &[], b"{\"event\":\"paid\"}");
    let mut term = inspect(&env);
    term.wait_for("1 captured");
    // No clipboard on this terminal: the curl command goes to a file, named in full.
    term.send("c");
    let screen = term.wait_for("Curl command written to");
    let said = message_from(&screen, "Curl command written to");
    assert!(!said.contains('…'), "the message was cut:\n{screen}");
    assert!(
        said.contains(".curl.sh"),
        "the file is named in full:\n{screen}"
    );
    if let Some(open) = said.find('(') {
        assert!(said[open..].contains(')'), "cut inside brackets:\n{screen}");
    }
    term.send("r");
    let screen = term.wait_for("Replayed airt_");
    let said = message_from(&screen, "Replayed airt_");
    assert!(!said.contains('…'), "the message was cut:\n{screen}");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn the_detail_shows_the_start_time_whole() {
    let env = Env::new();
    env.mock.seed_captures(json!([{
        "method": "POST",
        "uri": "/hooks/pay",
        "start": "2026-11-25T01:25:14Z",
    }]));
    let mut term = inspect(&env);
    let screen = term.wait_for("1 captured");
    for line in lines(&screen) {
        if let Some(at) = line.find("2026-11-25T") {
            assert!(
                line[at..].starts_with("2026-11-25T01:25:14"),
                "the timestamp is broken across the border:\n{screen}"
            );
        }
    }
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn a_request_waiting_for_its_answer_shows_as_pending_not_zero() {
    // As the agent sends it: no response yet, and a duration of 0.
    let env = Env::with(MockOptions::default());
    env.mock.seed_captures(json!([{
        "method": "POST",
        "uri": "/slow",
        "pending": true,
        "duration": 0,
    }]));
    let mut term = inspect(&env);
    let screen = term.wait_for("/slow");
    assert!(
        !screen.contains("0 µs"),
        "a zero duration is shown:\n{screen}"
    );
    assert!(
        screen.contains("pending"),
        "not said to be pending:\n{screen}"
    );
    term.send(keys::ENTER);
    let screen = term.wait_for("/slow");
    assert!(!screen.contains("0 µs"), "{screen}");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);

    let list = env.local(&["requests", "list"]);
    list.ok();
    assert!(!list.stdout.contains("0 µs"), "{}", list.stdout);
}

#[test]
fn each_place_says_what_esc_does_there() {
    let env = Env::new();
    env.mock
        .seed_captures(json!([{"method": "GET", "uri": "/a"}]));
    let mut term = inspect(&env);
    term.wait_for("1 captured");
    term.send("?");
    let help = term.wait_for("Help");
    let esc_lines: Vec<&str> = lines(&help)
        .into_iter()
        .filter(|l| l.contains("Esc"))
        .collect();
    assert!(
        esc_lines.iter().any(|l| l.contains("back")),
        "the help does not say Esc goes back from the detail:\n{help}"
    );
    term.send("?");
    term.send(keys::ENTER);
    let detail = term.wait_for("Esc");
    let footer = lines(&detail).last().copied().unwrap_or("").to_string();
    assert!(
        footer.contains("Esc") && footer.contains("back"),
        "in the detail, the bottom line says Esc goes back: {footer:?}\n{detail}"
    );
    // In the detail, then back in the list, before the second Esc: two ESC bytes read at
    // once are one key (a terminal sends Alt-Esc as ESC ESC).
    term.wait_for("↑↓ scroll");
    term.send(keys::ESC);
    term.wait_for("⏎ detail");
    term.send(keys::ESC);
    assert_eq!(term.wait_exit(), 0);
}

/// Issue 33 item 28: a JSON body of more than a megabyte is pretty-printed in the detail, as
/// `get` prints it, not shown as one line of text.
#[test]
fn a_large_json_body_is_pretty_printed() {
    let env = Env::new();
    let items: Vec<serde_json::Value> = (0..30_000)
        .map(|i| json!({"n": i, "name": format!("item number {i}")}))
        .collect();
    let body = json!({"items": items}).to_string();
    assert!(body.len() > 1_000_000);
    env.mock.seed_captures(json!([{
        "method": "POST", "uri": "/big",
        "headers": {"Content-Type": ["application/json"]}, "body": body
    }]));
    let mut term = inspect(&env);
    term.wait_for("/big");
    term.send("\r");
    let screen = term.wait_for("body: json");
    assert!(screen.contains("\"items\": ["), "{screen}");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

/// Issue 33 item 16: `inspect --history` of more kept captures than its memory holds says
/// that the older ones were not read (and where they are), rather than stopping in silence.
#[test]
fn the_history_view_says_how_many_older_captures_it_left_out() {
    let env = Env::new();
    env.mock
        .seed_captures(json!([{"uri": "/kept", "body_size": 2000, "repeat": 40}]));
    let file = env.dir.path().join("history.sqlite3");
    let mut record = env.std_cmd();
    record
        .env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, &file)
        .args(["local", "requests", "record", "--once"]);
    assert!(record.status().unwrap().success());
    let mut cmd = env.inspector_cmd(
        &env.mock.agent_url(),
        &[],
        &["--history", "--max-memory", "20KB"],
    );
    cmd.env(var::HISTORY_FILE, &file);
    let mut term = Pty::spawn(&cmd, 24, 80);
    let screen = term.wait_for("older not read");
    let title = screen
        .lines()
        .find(|l| l.contains("older not read"))
        .unwrap();
    let shown: usize = title
        .split_once("Requests (")
        .and_then(|(_, r)| r.split_once(')'))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("{title}"));
    assert!(
        title.contains(&format!("{} older not read", 40 - shown)),
        "{title}"
    );
    term.send("G");
    term.wait_for("older not read");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}
