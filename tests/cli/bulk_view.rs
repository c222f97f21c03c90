//! Bulk operations as their users meet them, driving the binary: on a terminal (stderr on a
//! real pseudo-terminal) one progress line and a summary grouping failures by reason; selectors
//! skipping the Windows sessions that cannot restart (exit 0, one line saying so, skipped in
//! `--json` and `--dry-run`), while named Windows IDs are still sent and counted; a line per
//! session with `--json` or off a terminal; the rate-limit pacing and the wait for restarted
//! agents on the progress line; every refused `--agent-version` form; `delete --json`
//! results; and the `local tunnels` twins, asked about on a terminal.

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::Stdio;

use serde_json::{json, Value};
use tunnelctl_mock::MockOptions;

use crate::common::pty::{keys, Pty};
use crate::common::{strings, Env, Out};
use tunnelctl::registry::env as var;

/// A mixed fleet: `linux` Linux sessions, then `windows` Windows ones.
fn fleet(env: &Env, linux: usize, windows: usize) -> (Vec<String>, Vec<String>) {
    let l =
        strings(&env.seed(json!({"sessions": vec![json!({"os": "linux"}); linux]}))["sessions"]);
    let w = strings(
        &env.seed(json!({"sessions": vec![json!({"os": "windows"}); windows]}))["sessions"],
    );
    (l, w)
}

/// The paths of the agent commands the emulator received.
fn commands_sent(env: &Env, verb: &str) -> Vec<String> {
    env.requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path.ends_with(&format!("/{verb}")))
        .map(|r| r.path)
        .collect()
}

/// Runs the binary with stderr on a pseudo-terminal of 100 columns (stdout a pipe, stdin
/// empty), as a person at a terminal piping the data on would; stderr comes back with the
/// progress line's control sequences taken out.
fn run_with_terminal_stderr(env: &Env, args: &[&str]) -> Out {
    let (mut master, mut slave) = (0, 0);
    let size = libc::winsize {
        ws_row: 40,
        ws_col: 100,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty writes two descriptors into the given ints; no name buffer or termios.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened for us and are owned here alone.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut child = env
        .std_cmd()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(slave))
        .spawn()
        .expect("the binary runs");
    let mut tty = std::fs::File::from(master);
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let mut buf = [0u8; 4096];
        // The read fails (EIO) once the child's end is closed: that is the end.
        while let Ok(n) = tty.read(&mut buf) {
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&buf[..n]);
        }
        bytes
    });
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("stdout is read");
    let status = child.wait().expect("the binary ends");
    let stderr = reader.join().expect("the terminal is read");
    Out {
        code: status.code().unwrap_or(-1),
        stdout,
        stderr: plain(&String::from_utf8_lossy(&stderr)),
    }
}

/// Text without CSI sequences and carriage returns; the terminal's CRLF becomes LF.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' if chars.peek() == Some(&'[') => {
                chars.next();
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

#[test]
fn on_a_terminal_a_bulk_restart_shows_progress_then_failures_grouped_by_reason() {
    let env = Env::new();
    let (linux, windows) = fleet(&env, 3, 4);
    let mut args = vec!["sessions", "restart"];
    args.extend(linux.iter().chain(&windows).map(String::as_str));
    let out = run_with_terminal_stderr(&env, &args);
    out.code(5);
    assert_eq!(
        commands_sent(&env, "restart").len(),
        7,
        "named IDs are sent"
    );
    out.says("done, ")
        .says("remaining")
        .says("3 of 7 done, 4 failed.")
        .says("4 failed: restart is not supported on Windows\n");
    for id in &windows {
        assert_eq!(out.stderr.matches(id.as_str()).count(), 1, "{}", out.stderr);
    }
    assert!(!out.stderr.contains("error: ts_"), "{}", out.stderr);
    assert!(!out.stderr.contains("Restart sent to"), "{}", out.stderr);
}

#[test]
fn on_a_terminal_a_fleet_restart_skips_windows_and_exits_0() {
    let env = Env::new();
    let (linux, _) = fleet(&env, 2, 2);
    let out = run_with_terminal_stderr(&env, &["sessions", "restart", "--all"]);
    out.ok()
        .says("Skipped 2 session(s) the selectors chose: restart is not supported on Windows")
        .says("2 of 2 done.");
    assert_eq!(commands_sent(&env, "restart").len(), linux.len());
}

#[test]
fn a_mixed_fleet_restart_by_selector_exits_0_with_one_skip_line() {
    let env = Env::new();
    let (linux, windows) = fleet(&env, 3, 2);
    let out = env.run(&["sessions", "restart", "--all"]);
    out.ok();
    let skips: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("Skipped"))
        .collect();
    assert_eq!(
        skips,
        ["Skipped 2 session(s) the selectors chose: restart is not supported on Windows (not counted as failures)."]
    );
    // Off a terminal each session still gets its line.
    for id in &linux {
        out.says(&format!("Restart sent to {id}"));
    }
    let sent = commands_sent(&env, "restart");
    assert_eq!(sent.len(), 3);
    for id in &windows {
        assert!(!sent.iter().any(|p| p.contains(id.as_str())));
    }

    // --os windows selects only sessions that cannot restart: nothing to send, exit 0.
    let out = env.run(&["sessions", "restart", "--os", "windows", "--json"]);
    out.ok().says("Skipped 2 session(s)");
    let rows = out.json();
    assert_eq!(rows.as_array().unwrap().len(), 2);
    assert_eq!(rows[0]["outcome"], "skipped");
    assert_eq!(commands_sent(&env, "restart").len(), 3, "nothing more sent");
}

#[test]
fn json_results_list_skipped_sessions_after_the_others_with_the_reason() {
    let env = Env::new();
    let (linux, windows) = fleet(&env, 2, 1);
    let out = env.run(&["sessions", "restart", "--all", "--json"]);
    out.ok();
    let rows = out.json();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for row in &rows[..2] {
        assert_eq!(row["outcome"], "ok");
        assert!(linux.contains(&row["id"].as_str().unwrap().to_string()));
    }
    assert_eq!(
        rows[2],
        json!({"id": windows[0], "outcome": "skipped", "reason": "restart is not supported on Windows"})
    );
}

#[test]
fn named_windows_ids_are_still_sent_and_their_refusals_count() {
    let env = Env::new();
    let (linux, windows) = fleet(&env, 1, 1);
    let out = env.run(&["sessions", "restart", &linux[0], &windows[0]]);
    out.code(5)
        .says(&format!("error: {}: ", windows[0]))
        .says("restart is not supported on Windows");
    assert!(!out.stderr.contains("Skipped"), "{}", out.stderr);
    assert_eq!(commands_sent(&env, "restart").len(), 2);
    // Alone, a named Windows session fails with the API's code.
    env.run(&["sessions", "restart", &windows[0]]).code(1);
}

#[test]
fn update_and_stop_skip_nothing_since_the_api_reference_gives_no_reason_to() {
    let env = Env::new();
    let (_, windows) = fleet(&env, 1, 1);
    let out = env.run(&["sessions", "update", "--all"]);
    out.ok();
    assert!(!out.stderr.contains("Skipped"), "{}", out.stderr);
    assert_eq!(commands_sent(&env, "update").len(), 2);
    let out = env.run(&["sessions", "stop", "--os", "windows", "--yes"]);
    out.ok().says(&format!("Stopped {}", windows[0]));
}

#[test]
fn a_dry_run_shows_the_skip_and_sends_nothing() {
    let env = Env::new();
    let (linux, windows) = fleet(&env, 1, 1);
    for verb in ["restart", "upgrade"] {
        let out = env.run(&["sessions", verb, "--all", "--dry-run"]);
        out.ok().says("Skipped 1 session(s)").says("Dry run");
        out.prints(&format!("would {verb}\t{}\t", linux[0]))
            .prints(&format!(
                "would skip\t{}\trestart is not supported on Windows\n",
                windows[0]
            ));
        let out = env.run(&["sessions", verb, "--all", "--dry-run", "--json"]);
        out.ok();
        assert_eq!(
            out.json(),
            json!([
                {"id": linux[0], "action": verb},
                {"id": windows[0], "action": "skip", "reason": "restart is not supported on Windows"}
            ])
        );
    }
    assert!(env.writes().is_empty(), "a dry run sends nothing");
}

#[test]
fn every_agent_version_outside_the_grammar_exits_2_before_any_request() {
    let env = Env::new();
    fleet(&env, 1, 0);
    for bad in [
        "abc",
        "=>3.19",
        "~3.19",
        "v3.19",
        "^3.19",
        "",
        " ",
        "3.",
        "3..1",
        "<",
        ">=",
        "3.19,",
        "3.19-beta",
        "3.x",
        "== 3.19",
    ] {
        for verb in [["sessions", "list"], ["sessions", "restart"]] {
            let mut args = verb.to_vec();
            args.extend(["--agent-version", bad]);
            let out = env.run(&args);
            out.code(2).says("--agent-version");
            assert!(out.stdout.is_empty());
        }
    }
    assert!(env.requests().is_empty(), "nothing sent");
    env.run(&["sessions", "list", "--help"])
        .ok()
        .prints(">=3.19,<3.20");
}

#[test]
fn accepted_agent_versions_select_what_they_say() {
    let env = Env::new();
    let versions = ["3.18.0", "3.19", "3.19.1", "3.19.2", "3.20.0"];
    let seeded = strings(
        &env.seed(json!({"sessions": versions
        .iter()
        .map(|v| json!({"agent_version": v}))
        .collect::<Vec<_>>()}))["sessions"],
    );
    let pick = |cond: &str| crate::fleet::versions_selected(&env, cond);
    assert_eq!(pick("3.19"), ["3.19", "3.19.1", "3.19.2"]);
    assert_eq!(pick("3.19.2"), ["3.19.2"]);
    assert_eq!(pick("=3.19.1"), ["3.19.1"]);
    assert_eq!(pick(">=3.19.1, <3.20"), ["3.19.1", "3.19.2"]);
    assert_eq!(pick("<3.19"), ["3.18.0"]);
    assert_eq!(pick(">3.19.2"), ["3.20.0"]);
    assert_eq!(seeded.len(), 5);
}

#[test]
fn delete_json_prints_one_result_per_id() {
    let env = Env::new();
    let policies = strings(
        &env.seed(json!({"ip_policies": [{"description": "a"}, {"description": "b"}]}))
            ["ip_policies"],
    );
    let out = env.run(&[
        "ip-policies",
        "delete",
        &policies[0],
        "ipp_missing",
        "--yes",
        "--json",
    ]);
    out.code(5);
    let rows = out.json();
    assert_eq!(rows[0], json!({"id": policies[0], "outcome": "ok"}));
    assert_eq!(rows[1]["id"], "ipp_missing");
    assert_eq!(rows[1]["outcome"], "failed");
    assert!(rows[1]["error"].as_str().unwrap().contains("404"));

    let out = env.run(&["ip-policies", "delete", &policies[1], "--yes", "--json"]);
    out.ok();
    assert_eq!(out.json(), json!([{"id": policies[1], "outcome": "ok"}]));
    // Without --json, stdout stays empty.
    let out = env.run(&["ip-policies", "delete", "ipp_gone", "--yes"]);
    out.code(4);
    assert_eq!(out.stdout, "");
}

#[test]
fn starting_an_http_tunnel_names_both_tunnels_and_their_urls() {
    let env = Env::new();
    let out = env.local(&[
        "tunnels", "start", "--name", "web", "--proto", "http", "--addr", "9",
    ]);
    out.ok().says("Started 2 tunnels:");
    let list = env.local(&["tunnels", "list", "--json"]).json();
    for t in list.as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        let url = t["public_url"].as_str().unwrap();
        assert!(
            out.stderr
                .lines()
                .any(|l| l.trim_start().starts_with(name) && l.ends_with(url)),
            "{name} {url}: {}",
            out.stderr
        );
    }
    // One scheme asked for: one tunnel, no list.
    let out = env.local(&[
        "tunnels",
        "start",
        "--name",
        "one",
        "--proto",
        "http",
        "--addr",
        "9",
        "--schemes",
        "https",
    ]);
    out.ok();
    assert!(!out.stderr.contains("Started 2"), "{}", out.stderr);
}

#[test]
fn stopping_an_http_tunnel_off_a_terminal_leaves_its_twin_unless_yes() {
    let env = Env::new();
    let start = [
        "tunnels", "start", "--name", "web", "--proto", "http", "--addr", "9",
    ];
    env.local(&start).ok();
    let out = env.local(&["tunnels", "stop", "web"]);
    out.ok().says("Stopped tunnel web").says(
        "'web (http)' is still running; stop it with: tunnelctl local tunnels stop 'web (http)'",
    );
    env.local(&["tunnels", "get", "web (http)"]).ok();
    env.local(&["tunnels", "get", "web"]).code(4);

    env.local(&start).ok();
    let out = env.local(&["tunnels", "stop", "web", "--yes"]);
    out.ok()
        .says("Stopped tunnel web\n")
        .says("Stopped tunnel web (http)");
    let left = env.local(&["tunnels", "list", "--json"]).json();
    assert_eq!(left, json!([]));

    // A twin stopped by its own name stops only itself.
    env.local(&start).ok();
    env.local(&["tunnels", "stop", "web (http)"]).ok();
    env.local(&["tunnels", "get", "web"]).ok();
}

#[test]
fn with_json_or_off_a_terminal_each_session_keeps_its_line() {
    let env = Env::new();
    let (linux, windows) = fleet(&env, 1, 1);
    let out = run_with_terminal_stderr(
        &env,
        &["sessions", "restart", &linux[0], &windows[0], "--json"],
    );
    out.code(5);
    let err = &out.stderr;
    assert!(
        err.contains(&format!("Restart sent to {}", linux[0])),
        "{err}"
    );
    assert!(err.contains(&format!("error: {}: ", windows[0])), "{err}");
    assert!(
        !err.contains("remaining"),
        "no progress line with --json: {err}"
    );
    let rows: Value = serde_json::from_str(&out.stdout).expect("JSON results");
    assert_eq!(rows[0]["outcome"], "ok");
    assert_eq!(rows[1]["outcome"], "failed");

    let out = env.run(&["sessions", "update", &linux[0], &windows[0]]);
    out.code(5);
    let err = &out.stderr;
    assert!(
        err.contains(&format!("Update sent to {}", windows[0])),
        "{err}"
    );
    assert!(err.contains(&format!("error: {}: ", linux[0])), "{err}");
    assert!(!err.contains("remaining"), "{err}");
}

#[test]
fn the_progress_line_says_when_it_waits_for_the_rate_limit() {
    let env = Env::new();
    let (linux, _) = fleet(&env, 3, 0);
    let mut args = vec!["sessions", "stop", "--yes", "--rate", "1/1.5"];
    args.extend(linux.iter().map(String::as_str));
    let out = run_with_terminal_stderr(&env, &args);
    out.ok();
    let err = &out.stderr;
    assert!(rate_waits(err).iter().any(|w| *w <= 2), "{err}");
    assert!(err.contains("3 of 3 done."), "{err}");
}

/// The seconds of each `waiting 2s for the rate limit` shown.
fn rate_waits(err: &str) -> Vec<u64> {
    err.split("waiting ")
        .filter_map(|rest| rest.split_once("s for the rate limit"))
        .filter_map(|(secs, _)| secs.parse().ok())
        .collect()
}

#[test]
fn waiting_for_restarted_agents_shows_what_and_for_how_long() {
    let env = Env::with(MockOptions {
        restart_delay_ms: 600,
        ..Default::default()
    });
    let (linux, _) = fleet(&env, 2, 0);
    let out = run_with_terminal_stderr(
        &env,
        &[
            "sessions",
            "restart",
            &linux[0],
            &linux[1],
            "--wait",
            "--timeout",
            "20s",
        ],
    );
    out.ok();
    let err = &out.stderr;
    assert!(
        err.contains("for 2 agent(s) to reconnect: 0 back (0s)"),
        "{err}"
    );
    assert!(err.contains("to reconnect: 1 back"), "{err}");
    let printed = &out.stdout;
    assert_eq!(printed.lines().count(), 2, "old -> new for each: {printed}");
}

/// Starts the http tunnel `web` (and so its twin), then stops `web` on a terminal, answering
/// `answer` to the question about the twin; the screen at the end.
fn stop_web_answering(env: &Env, answer: &str) -> String {
    env.local(&[
        "tunnels", "start", "--name", "web", "--proto", "http", "--addr", "9",
    ])
    .ok();
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .args(["local", "tunnels", "stop", "web"]);
    let mut term = Pty::spawn(&cmd, 24, 100);
    term.wait_for("Also stop");
    term.send(answer).send(keys::ENTER);
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    term.screen()
}

#[test]
fn stopping_an_http_tunnel_on_a_terminal_asks_about_its_twin() {
    let env = Env::new();
    let deletes = |env: &Env| -> Vec<String> {
        env.mock
            .agent_requests()
            .into_iter()
            .filter(|r| r.method == "DELETE")
            .map(|r| r.path)
            .collect()
    };
    let screen = stop_web_answering(&env, "no");
    assert!(screen.contains("'web (http)' is still running"), "{screen}");
    assert_eq!(deletes(&env), ["/api/tunnels/web"]);

    let screen = stop_web_answering(&env, "yes");
    assert!(screen.contains("Stopped tunnel web (http)"), "{screen}");
    assert_eq!(
        deletes(&env),
        [
            "/api/tunnels/web",
            "/api/tunnels/web",
            "/api/tunnels/web%20%28http%29"
        ]
    );
}
