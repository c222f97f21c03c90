//! `tunnelctl sessions watch` in a real pseudo-terminal, at 80x24 and 200x50: rows shown and
//! refreshed, sessions that appear and disappear marked, filter, sort and marks, actions asked
//! in the screen and sent once each (the emulator's request log), read-only, a failed refresh
//! shown and recovered from, the terminal given back, the summary on quit and its exit code.

use serde_json::{json, Value};

use crate::common::pty::Pty;
use crate::common::{strings, wait_until, Env};
use tunnelctl_mock::RecordedRequest;

/// Sessions in eu, eu, us, ap, eu (the last on Windows, where restart is refused).
fn seed(env: &Env) -> Vec<String> {
    let list: Vec<Value> = [
        ("eu", "linux", "3.19.1"),
        ("eu", "linux", "3.18.4"),
        ("us", "darwin", "3.19.1"),
        ("ap", "linux", "3.19.1"),
        ("eu", "windows", "3.19.1"),
    ]
    .iter()
    .enumerate()
    .map(|(i, (region, os, v))| {
        json!({"region": region, "os": os, "agent_version": v,
               "ip": format!("203.0.113.{}", i + 1), "metadata": format!("host-{i}")})
    })
    .collect();
    strings(&env.seed(json!({ "sessions": list }))["sessions"])
}

/// `tunnelctl [flags] sessions watch --every 1s [args]` on a `rows` x `cols` terminal.
fn watch(env: &Env, flags: &[&str], args: &[&str], rows: u16, cols: u16) -> Pty {
    let mut cmd = env.std_cmd();
    cmd.args(flags)
        .args(["sessions", "watch", "--every", "1s"])
        .args(args);
    Pty::spawn(&cmd, rows, cols)
}

fn posts(env: &Env) -> Vec<RecordedRequest> {
    env.writes()
}

/// The screen's line holding `text`.
pub(crate) fn line_of(screen: &str, text: &str) -> String {
    screen
        .lines()
        .find(|l| l.contains(text))
        .unwrap_or_else(|| panic!("{text:?} not on screen:\n{screen}"))
        .to_string()
}

#[test]
fn rows_are_shown_and_a_session_that_appears_or_goes_is_marked_at_80x24() {
    let env = Env::new();
    let ids = seed(&env);
    let mut term = watch(&env, &[], &[], 24, 80);
    let screen = term.wait_for(&ids[4]);
    for id in &ids {
        assert!(screen.contains(id.as_str()), "{id} missing:\n{screen}");
    }
    for header in ["STATUS", "ID", "VERSION", "REGION", "OS"] {
        assert!(
            screen.contains(header),
            "{header} missing at 80 columns:\n{screen}"
        );
    }
    assert!(screen.contains("5 online"), "{screen}");
    // One appears; one goes (stopped through the API, as another operator would).
    let added =
        strings(&env.seed(json!({"sessions": [{"region": "us", "os": "linux"}]}))["sessions"]);
    env.run(&["sessions", "stop", &ids[3], "--yes"]).ok();
    let screen = term.wait_until("new and gone rows", |s| {
        s.contains(added[0].as_str())
            && s.lines()
                .any(|l| l.contains(added[0].as_str()) && l.contains("new"))
            && s.lines()
                .any(|l| l.contains(ids[3].as_str()) && l.contains("gone"))
    });
    assert!(
        screen.contains("5 online"),
        "the gone one is not counted:\n{screen}"
    );
    // A gone row is dropped after a few refreshes.
    term.wait_until("the gone row dropped", |s| !s.contains(ids[3].as_str()));
    // The help lists every key, whole at 80 columns; any key closes it.
    term.send("?");
    let screen = term.wait_for("Help · any key closes");
    for words in [
        "column=value",
        "rolling upgrade",
        "mark every session shown",
        "quit (a summary",
    ] {
        assert!(
            screen.contains(words),
            "{words:?} not in the help:\n{screen}"
        );
    }
    term.send("x");
    term.wait_until("the help closed", |s| !s.contains("Help · any key"));
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    term.assert_restored();
}

#[test]
fn filter_sort_marks_and_a_restart_of_three_marked_sends_two_and_skips_windows_at_200x50() {
    let env = Env::new();
    let ids = seed(&env);
    let mut term = watch(&env, &[], &[], 50, 200);
    let screen = term.wait_for(&ids[4]);
    for header in ["IP", "STARTED", "CREDENTIAL", "METADATA"] {
        assert!(
            screen.contains(header),
            "{header} missing at 200 columns:\n{screen}"
        );
    }
    term.send("/region=eu os=linux\r");
    let screen = term.wait_until("two eu linux rows", |s| {
        !s.contains(ids[2].as_str()) && !s.contains(ids[4].as_str()) && s.contains(ids[1].as_str())
    });
    assert!(screen.contains("2 shown"), "{screen}");
    // Sort by version (column 2): 3.18.4 first.
    term.send("2");
    let screen = term.wait_for("VERSION▲");
    let first = screen.find(ids[1].as_str()).unwrap();
    assert!(first < screen.find(ids[0].as_str()).unwrap(), "{screen}");
    // Every eu session (by its column: free text "eu" would also match a random ID or
    // credential that holds those letters): mark all three.
    term.send("/\x15region=eu\r");
    term.wait_for("3 shown");
    term.send("a");
    term.wait_for("3 marked");
    term.send("r");
    // The Windows agent is left out, as `sessions restart --all` leaves it out.
    let screen = term.wait_until("the whole question", |s| {
        s.contains("Restart the agent of 2 session(s)?") && s.contains('┘')
    });
    assert!(posts(&env).is_empty(), "asked first: nothing sent yet");
    for id in [&ids[0], &ids[1]] {
        assert!(line_of(&screen, id).contains(id.as_str()));
    }
    assert!(
        screen.contains("Skipped 1 session(s) chosen: restart is not supported on Windows."),
        "{screen}"
    );
    term.send("y");
    term.wait_until("two answers", |s| {
        [&ids[0], &ids[1]].iter().all(|id| {
            s.lines()
                .any(|l| l.contains(id.as_str()) && l.contains("restarted"))
        })
    });
    // Each restarted agent comes back under a new session, linked to its old one (the
    // filter `eu` still shows both).
    term.wait_until("both agents back", |s| {
        s.matches("new, back").count() == 2 && s.matches("restarted, back").count() == 2
    });
    let restarts: Vec<String> = posts(&env).iter().map(|r| r.path.clone()).collect();
    let mut expected: Vec<String> = [&ids[0], &ids[1]]
        .iter()
        .map(|id| format!("/tunnel_sessions/{id}/restart"))
        .collect();
    let mut got = restarts.clone();
    got.sort();
    expected.sort();
    assert_eq!(got, expected, "exactly two restarts, one each");
    // Refreshes go on: the old sessions are dropped a few refreshes later.
    term.wait_until("the old sessions dropped", |s| {
        !s.contains(ids[0].as_str()) && !s.contains(ids[1].as_str())
    });
    // Marks are cleared once sent (the Windows agent's stays: nothing was sent to it); unmarked,
    // a second `r` asks about the current row alone.
    term.send("/\x15os=windows\r");
    term.wait_for("1 shown");
    term.send(" ");
    term.wait_until("no mark", |s| !s.contains("marked"));
    term.send("/\x15region=us\r");
    term.wait_for("1 shown");
    term.send("r");
    term.wait_for("Restart the agent of 1 session(s)?");
    term.send("n");
    term.wait_for("Cancelled");
    assert_eq!(posts(&env).len(), 2, "cancelled: nothing more sent");
    term.send("q");
    assert_eq!(
        term.wait_exit(),
        0,
        "a Windows agent left out is no failure"
    );
    let screen = term.screen();
    assert!(
        screen.contains("restarted 2, stopped 0, updated 0, upgraded 0, failed 0."),
        "{screen}"
    );
    term.assert_restored();
}

#[test]
fn read_only_refuses_every_action_key_and_sends_nothing() {
    let env = Env::new();
    let ids = seed(&env);
    for flags in [&["--read-only"][..], &[]] {
        let mut term = if flags.is_empty() {
            env.write_config("[default]\nread_only = \"true\"\n");
            watch(&env, flags, &[], 24, 80)
        } else {
            watch(&env, flags, &[], 24, 80)
        };
        let screen = term.wait_for(&ids[0]);
        assert!(screen.contains("READ-ONLY"), "the title says so:\n{screen}");
        term.send(" a");
        for key in ["r", "s", "u", "U"] {
            term.send(key);
            term.wait_for("Read-only: no");
            term.send("y");
        }
        term.send("q");
        assert_eq!(term.wait_exit(), 0);
        assert!(posts(&env).is_empty(), "{flags:?}: nothing sent");
        assert!(
            !term.screen().contains("restarted"),
            "no summary: nothing done"
        );
    }
}

/// A service slower than the first frame's wait: the screen is shown at once, loading, and the
/// rows come when the list does.
#[test]
fn a_slow_first_list_shows_the_screen_loading_then_the_rows() {
    let env = Env::with(tunnelctl_mock::MockOptions {
        latency_ms: 60_000,
        ..Default::default()
    });
    let ids = seed(&env);
    env.mock.freeze_clock(true);
    let mut term = watch(&env, &[], &[], 24, 80);
    let screen = term.wait_for("loading…");
    assert!(
        !screen.contains(ids[0].as_str()),
        "no row before the list:\n{screen}"
    );
    wait_until("the first list held in the emulator's latency", || {
        env.mock.clock()["waiting"].as_u64() >= Some(1)
    });
    env.mock.advance_clock(std::time::Duration::from_secs(60));
    let screen = term.wait_for(&ids[4]);
    assert!(screen.contains("5 online"), "{screen}");
    assert!(!screen.contains("loading…"), "{screen}");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn a_429_and_a_500_during_refresh_are_shown_and_recovered_from() {
    let env = Env::new();
    let ids = seed(&env);
    let mut term = watch(&env, &["--max-attempts", "1"], &[], 24, 80);
    term.wait_for(&ids[0]);
    for status in [500, 429] {
        env.mock.inject(
            json!({"method": "GET", "path": "/tunnel_sessions", "status": status, "count": 1}),
        );
        let screen = term.wait_for("refresh failed");
        let lines: Vec<&str> = screen.lines().collect();
        let keys = lines.iter().rposition(|l| l.contains("? help")).unwrap();
        assert!(
            lines[keys + 1..].join(" ").contains(&status.to_string()),
            "the error in full under the keys:\n{screen}"
        );
        assert!(screen.contains(ids[0].as_str()), "the rows stay:\n{screen}");
        let screen = term.wait_until("recovered", |s| !s.contains("refresh failed"));
        assert!(screen.contains(ids[0].as_str()));
    }
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

/// Ctrl-C (a key: the screen's terminal is in raw mode), a SIGINT sent with kill and SIGTERM
/// end the screen as `q` does, the terminal given back and the summary printed, but with the
/// exit code of an interrupted command (CLI.md: 130, 143), whatever was done before.
#[test]
fn ctrl_c_and_sigterm_give_the_terminal_back_print_the_summary_and_exit_130_or_143() {
    for (stop, code) in [("Ctrl-C", 130), ("SIGINT", 130), ("SIGTERM", 143)] {
        let env = Env::new();
        let ids = seed(&env);
        let mut term = watch(&env, &[], &["--region", "us"], 24, 80);
        term.wait_for(&ids[2]);
        term.send("u");
        term.wait_for("Update the agent of 1 session(s)?");
        term.send("y");
        term.wait_for("updated ✓");
        match stop {
            "Ctrl-C" => {
                term.send("\x03");
            }
            // SAFETY: kill sends a signal to the child this test started.
            "SIGINT" => assert_eq!(unsafe { libc::kill(term.pid() as i32, libc::SIGINT) }, 0),
            _ => assert_eq!(unsafe { libc::kill(term.pid() as i32, libc::SIGTERM) }, 0),
        }
        assert_eq!(term.wait_exit(), code, "{stop}:\n{}", term.screen());
        term.assert_restored();
        term.wait_for("restarted 0, stopped 0, updated 1, upgraded 0, failed 0");
        assert_eq!(posts(&env).len(), 1, "{stop}: the one update, nothing more");
    }
}

#[test]
fn an_update_shows_its_result_and_the_summary_exits_0() {
    let env = Env::new();
    let ids = seed(&env);
    let mut term = watch(&env, &[], &["--region", "us"], 24, 80);
    let screen = term.wait_for(&ids[2]);
    assert!(
        !screen.contains(ids[0].as_str()),
        "selectors choose the rows:\n{screen}"
    );
    term.send("\r");
    let detail = term.wait_for("On this screen");
    // Every field the service gave, the credential by its ID, and when it was seen here.
    let listed: Value =
        serde_json::from_str(&env.run(&["sessions", "get", &ids[2], "--json"]).stdout).unwrap();
    for (field, value) in [
        ("agent_version", "3.19.1"),
        ("region", "us"),
        ("os", "darwin"),
        ("metadata", "host-2"),
        ("credential", listed["credential"]["id"].as_str().unwrap()),
    ] {
        assert!(
            detail
                .lines()
                .any(|l| l.contains(field) && l.contains(value)),
            "{field} {value} not in the details:\n{detail}"
        );
    }
    assert!(detail.lines().any(|l| l.contains(": seen ")), "{detail}");
    term.send("x");
    term.send("u");
    term.wait_for("Update the agent of 1 session(s)?");
    term.send("y");
    term.wait_for("updated ✓");
    wait_until("the update is logged", || posts(&env).len() == 1);
    assert_eq!(
        posts(&env)[0].path,
        format!("/tunnel_sessions/{}/update", ids[2])
    );
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    term.wait_for("restarted 0, stopped 0, updated 1, upgraded 0, failed 0");
}

#[test]
fn off_a_terminal_it_exits_2_and_names_sessions_list_json() {
    let env = Env::new();
    seed(&env);
    let out = env.run(&["sessions", "watch"]);
    out.code(2)
        .says("needs a terminal")
        .says("sessions list --json");
    assert!(env.requests().is_empty());
    let out = env.run(&["sessions", "watch", "--every", "0.5s"]);
    out.code(2).says("less than 1s");
    let out = env.run(&["sessions", "watch", "--every", "soon"]);
    out.code(2).says("not a duration");
    assert!(env.requests().is_empty());
}

/// `U`: a rolling upgrade of the current session, asked first; update, then restart no sooner
/// than the service's 10 seconds (the emulator refuses an earlier one), the agent back under
/// a new session linked to its old one, and the summary counts it.
#[test]
fn a_rolling_upgrade_updates_then_restarts_and_the_agent_comes_back() {
    let env = Env::new();
    let ids = seed(&env);
    let mut term = watch(&env, &[], &["--region", "us"], 24, 80);
    term.wait_for(&ids[2]);
    term.send("U");
    term.wait_for("Upgrade the agent of 1 session(s)?");
    assert!(posts(&env).is_empty());
    term.send("y");
    term.wait_until("upgraded and back", |s| {
        s.lines()
            .any(|l| l.contains(ids[2].as_str()) && l.contains("upgraded, back"))
            && s.contains("new, back")
    });
    let paths: Vec<String> = posts(&env).iter().map(|r| r.path.clone()).collect();
    assert_eq!(
        paths,
        [
            format!("/tunnel_sessions/{}/update", ids[2]),
            format!("/tunnel_sessions/{}/restart", ids[2])
        ]
    );
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    term.wait_for("upgraded 1, failed 0");
}
