//! `tunnelctl local inspect` on a real pseudo-terminal against the emulator's agent, with real
//! traffic through a tunnel: what a person sees, the keys they type, and the terminal they
//! get back.

use std::process::Command;

use crate::common::pty::{keys, Pty};
use crate::common::upstream::visit;
use crate::common::Env;
use crate::local::{edge_port, tunnels_to_upstream};
use tunnelctl::registry::env as var;
use tunnelctl_mock::MockOptions;

/// `tunnelctl local inspect ARGS` on a 24x80 terminal, against the agent at `agent_url`,
/// started in the test's own folder (where `s` and `c` write their files), with an editor that
/// turns "paid" into "refunded" in what it is given.
fn inspect(env: &Env, agent_url: &str, args: &[&str]) -> Pty {
    let editor = env.dir.path().join("edit-request");
    std::fs::write(&editor, "#!/bin/sh\nsed -i 's/paid/refunded/' \"$1\"\n").unwrap();
    let mut perms = std::fs::metadata(&editor).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&editor, perms).unwrap();
    let mut cmd = env.inspector_cmd(agent_url, &[], args);
    cmd.env("EDITOR", &editor);
    Pty::spawn(&cmd, 24, 80)
}

/// The file name the screen shows right after `before`.
fn file_named(screen: &str, before: &str) -> String {
    screen
        .split(before)
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no file after {before:?} on the screen:\n{screen}"))
        .to_string()
}

/// A port nothing listens on (bound, then let go).
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

#[test]
fn the_webhook_loop_on_a_real_terminal() {
    let (env, up) = tunnels_to_upstream(&["hook"]);
    let port = edge_port(&env, "hook (http)");
    let mut term = inspect(&env, &env.mock.agent_url(), &[]);
    term.wait_for("No captured requests yet");
    term.wait_for("0 captured · live");

    // Traffic arrives while it runs: each capture is on screen without a key press.
    let json = [("Content-Type", "application/json")];
    assert!(visit(
        port,
        "POST",
        "/hooks/stripe",
        &json,
        b"{\"event\":\"paid\"}"
    )
    .contains("200 OK"));
    term.wait_for("/hooks/stripe");
    assert!(visit(port, "GET", "/status", &[], b"").contains("200 OK"));
    let screen = term.wait_for("2 captured");
    assert!(screen.contains("/status"), "{screen}");
    // The newest is on top and selected (it follows the newest until a key moves it).
    let list_top = screen.lines().position(|l| l.contains("/status")).unwrap();
    let list_next = screen
        .lines()
        .position(|l| l.contains("/hooks/stripe"))
        .unwrap();
    assert!(list_top < list_next, "newest first:\n{screen}");
    assert!(
        screen.lines().nth(list_top).unwrap().contains('▶'),
        "{screen}"
    );
    term.wait_for("GET /status HTTP/1.1");
    // j selects the older POST: its body is shown, decoded.
    term.send("j");
    term.wait_for("\"event\": \"paid\"");

    // `/` filters as it is typed; Enter keeps the filter.
    term.send("/method:POST");
    let screen = term.wait_for("1 of 2");
    assert!(!screen.contains("/status"), "filtered out:\n{screen}");
    term.send(keys::ENTER);

    // Tab shows the response, as the upstream answered it.
    term.send("\t");
    term.wait_for("HTTP/1.1 200 OK");
    term.send("\t");

    // `r` replays through the agent: the upstream gets the request again, and the replay is
    // captured, marked, and passes the filter.
    term.send("r");
    term.wait_for("Replayed airt_");
    let screen = term.wait_for("2 of 3");
    let replayed = screen
        .lines()
        .find(|l| l.contains('↻'))
        .expect("the replay is marked");
    assert!(
        !replayed.contains('▶'),
        "the selection stayed on its exchange:\n{screen}"
    );
    let got = up.received();
    assert_eq!(got.len(), 3, "the upstream received the replay");
    assert_eq!(
        (got[2].method.as_str(), got[2].path.as_str()),
        ("POST", "/hooks/stripe")
    );
    assert_eq!(got[2].body, b"{\"event\":\"paid\"}");
    let replays = env
        .mock
        .agent_requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/api/requests/http")
        .count();
    assert_eq!(replays, 1, "one replay through the agent's API");

    // `s` saves the selected request as an HTTP message file, named on screen.
    term.send("s");
    let name = file_named(
        &term.wait_for("Saved the request to ./airt_"),
        "Saved the request to ./",
    );
    let saved = std::fs::read(env.dir.path().join(&name)).unwrap();
    assert!(
        saved.starts_with(b"POST /hooks/stripe HTTP/1.1\r\n"),
        "{name}"
    );
    assert!(saved.ends_with(b"{\"event\":\"paid\"}"));

    // `c` has no clipboard on this terminal (xterm): the curl command goes to a file.
    term.send("c");
    let curl_file = file_named(
        &term.wait_for("Curl command written to ./airt_"),
        "Curl command written to ./",
    );
    let curl = std::fs::read_to_string(env.dir.path().join(curl_file)).unwrap();
    assert!(curl.starts_with("curl -g --path-as-is -X POST"), "{curl}");

    // `e` opens the request in the editor, then sends what was saved to the tunnel's upstream
    // (not through the agent), and the screen comes back.
    term.send("e");
    let screen = term.wait_for("Sent the edited request to http://localhost:");
    assert!(screen.contains("/hooks/stripe: 200"), "{screen}");
    let got = up.received();
    assert_eq!(got.len(), 4, "the upstream received the edited request");
    assert_eq!(got[3].body, b"{\"event\":\"refunded\"}");
    assert!(
        screen.contains("Requests"),
        "the inspector drew again:\n{screen}"
    );

    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    term.assert_restored();
}

#[test]
fn clear_asks_first_then_empties_the_agent() {
    let env = Env::new();
    env.mock
        .seed_captures(serde_json::json!([{"method": "GET", "uri": "/a"}]));
    let mut term = inspect(&env, &env.mock.agent_url(), &[]);
    term.wait_for("1 captured");
    term.send("x");
    term.wait_for("Delete every captured request in the agent?");
    term.send("n");
    term.wait_for("Nothing deleted.");
    assert!(
        env.mock
            .agent_requests()
            .iter()
            .all(|r| r.method != "DELETE"),
        "nothing deleted without a yes"
    );
    term.send("x").send("y");
    term.wait_for("Deleted every captured request.");
    term.wait_for("0 captured");
    let list = env.local(&["requests", "list", "--json"]);
    assert_eq!(list.json(), serde_json::json!([]));
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    term.assert_restored();
}

/// Ctrl-C (a key: the inspector's terminal is in raw mode) ends it as `q` does, the terminal
/// given back and what `--record` kept said, but with the exit code of an interrupted command
/// (130), as CLI.md and `sessions watch` have it.
#[test]
fn ctrl_c_gives_the_terminal_back_says_what_was_kept_and_exits_130() {
    let env = Env::new();
    env.mock
        .seed_captures(serde_json::json!([{"method": "GET", "uri": "/kept"}]));
    let mut cmd = env.inspector_cmd(&env.mock.agent_url(), &[], &["--record"]);
    cmd.env(var::HISTORY_FILE, env.dir.path().join("h.sqlite3"));
    let mut term = Pty::spawn(&cmd, 24, 80);
    term.wait_for("/kept");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 130, "{}", term.screen());
    term.assert_restored();
    term.wait_for("Kept 1 new capture(s)");
    term.wait_for("interrupted");
}

#[test]
fn waits_for_an_agent_that_is_not_running_then_shows_it() {
    let env = Env::new();
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/api");
    let mut term = inspect(&env, &url, &[]);
    let screen = term.wait_for("No agent is answering yet.");
    assert!(screen.contains(&format!("Tried: {url}")), "{screen}");
    // The agent starts after the inspector, on the address it tries.
    let late = Env::with(MockOptions {
        agent_port: port,
        ..MockOptions::default()
    });
    late.mock
        .seed_captures(serde_json::json!([{"method": "PUT", "uri": "/late"}]));
    term.wait_for("/late");
    term.wait_for("live");
    // It goes away mid-session: said so, and what was captured stays on screen.
    drop(late);
    let screen = term.wait_for("stopped answering");
    assert!(screen.contains("/late"), "{screen}");
    assert!(screen.contains("agent gone"), "{screen}");
    term.send(keys::ESC);
    assert_eq!(term.wait_exit(), 0);
    term.assert_restored();
}

#[test]
fn sigterm_gives_the_terminal_back() {
    let env = Env::new();
    // A shell on the terminal starts the inspector (its stdin the terminal), says its pid and
    // prints how it exited; the test ends it with SIGTERM, as a supervisor would, once it has
    // drawn its screen.
    let mut cmd = Command::new("sh");
    let bin = assert_cmd::cargo::cargo_bin("tunnelctl");
    cmd.args([
        "-c",
        "\"$1\" local inspect </dev/tty & pid=$!; echo \"pid=$pid.\"; wait $pid; echo \"exit=$?\"",
        "sh",
    ])
    .arg(bin)
    .env(var::AGENT_URL, env.mock.agent_url())
    .env(var::CONFIG, env.config_path())
    .env("HOME", env.dir.path());
    let mut term = Pty::spawn(&cmd, 24, 80);
    term.wait_for("tunnelctl inspect");
    let pid = || {
        let seen = String::from_utf8_lossy(&term.output()).into_owned();
        seen.split_once("pid=")
            .and_then(|(_, rest)| rest.split_once('.'))
            .map(|(pid, _)| pid.to_string())
    };
    crate::common::wait_until("the inspector's pid", || pid().is_some());
    let pid = pid().expect("the shell says the inspector's pid");
    let killed = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill runs");
    assert!(killed.success(), "kill -TERM {pid}");
    term.wait_for("exit=143");
    assert_eq!(term.wait_exit(), 0);
    term.assert_restored();
}

#[test]
fn needs_a_terminal() {
    let env = Env::new();
    let out = env.local(&["inspect"]);
    out.code(2)
        .says("needs a terminal")
        .says("local requests tail");
    assert_eq!(out.stdout, "");
    assert!(
        env.mock.agent_requests().is_empty(),
        "nothing asked of the agent"
    );
}

#[test]
fn a_wrong_filter_is_refused_before_anything_is_sent() {
    let env = Env::new();
    for bad in ["status:abc", "method:", "tunnel:\"open"] {
        let out = env.local(&["inspect", "--filter", bad]);
        out.code(2).says("--filter");
    }
    assert!(env.mock.agent_requests().is_empty());
}
