//! Bulk work as a person sees it on a terminal, run in-process with memory streams whose
//! stderr counts as a terminal: the progress line (done, failed, remaining, rate-limit
//! pacing), the summary that groups failures by reason, the Windows skip of selectors, the
//! spinners of long waits; and, with stderr not a terminal or with `--json`, the per-item
//! lines as before. Also the `local tunnels stop` twin question, answered by a script.

use std::time::Duration;

use serde_json::{json, Value};
use tunnelctl_mock::{Mock, MockOptions};

use super::in_process::{context, run};
use crate::context::Context;
use crate::output::{Captured, OutputFlags};
use crate::ratelimit::{Rate, RateSetting};

/// A context whose stderr is a terminal of `width` columns (stdout one too).
fn terminal(mock: &Mock, asked: OutputFlags, keys: &str) -> (Context, Captured) {
    let (mut ctx, captured) = context(mock, asked, true, 100, keys);
    ctx.printer.streams = ctx.printer.streams.clone().with_stderr_terminal(true);
    (ctx, captured)
}

/// Starts the HTTP tunnel `web` on the emulated agent (which starts its twin `web (http)`).
fn start_web(mock: &Mock) {
    let (ctx, _) = context(mock, OutputFlags::default(), false, 100, "");
    let start = [
        "local", "tunnels", "start", "--name", "web", "--proto", "http", "--addr", "9",
    ];
    run(&ctx, &start).expect("the tunnel starts");
}

/// `n` sessions with these fields; their IDs.
fn sessions(mock: &Mock, n: usize, fields: Value) -> Vec<String> {
    let seeded = mock.seed(json!({"sessions": vec![fields; n]}));
    seeded["sessions"]
        .as_array()
        .expect("seeded IDs")
        .iter()
        .map(|v| v.as_str().expect("an ID").to_string())
        .collect()
}

fn posts(mock: &Mock, verb: &str) -> Vec<String> {
    mock.requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path.ends_with(&format!("/{verb}")))
        .map(|r| r.path)
        .collect()
}

/// The text a person reads: control sequences of the progress line taken out.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
        } else if c != '\r' {
            out.push(c);
        }
    }
    out
}

#[test]
fn a_fleet_restart_on_a_terminal_skips_windows_shows_one_progress_line_and_exits_0() {
    let mock = Mock::start(MockOptions::default()).expect("the emulator starts");
    let linux = sessions(&mock, 3, json!({"os": "linux"}));
    let windows = sessions(&mock, 2, json!({"os": "windows"}));
    let (ctx, out) = terminal(&mock, OutputFlags::default(), "");
    run(&ctx, &["sessions", "restart", "--all"]).expect("a mixed fleet restarts with exit 0");
    let err = plain(&out.stderr());
    assert!(
        err.contains(
            "Skipped 2 session(s) the selectors chose: restart is not supported on Windows"
        ),
        "{err}"
    );
    assert!(err.contains("remaining"), "a progress line: {err}");
    assert!(err.contains("3 of 3 done."), "{err}");
    assert!(
        !err.contains("Restart sent to"),
        "no line per session: {err}"
    );
    assert!(!err.contains("failed:"), "{err}");
    let sent = posts(&mock, "restart");
    assert_eq!(sent.len(), 3);
    for id in &linux {
        assert!(sent.iter().any(|p| p.contains(id.as_str())));
    }
    for id in &windows {
        assert!(
            !sent.iter().any(|p| p.contains(id.as_str())),
            "{id} skipped"
        );
    }
    assert_eq!(out.stdout(), "", "nothing on stdout without --json");
}

#[test]
fn failures_on_a_terminal_are_grouped_by_reason_with_each_id_once() {
    let mock = Mock::start(MockOptions::default()).expect("the emulator starts");
    let linux = sessions(&mock, 2, json!({"os": "linux"}));
    let windows = sessions(&mock, 3, json!({"os": "windows"}));
    let (ctx, out) = terminal(&mock, OutputFlags::default(), "");
    let mut args = vec!["sessions", "restart"];
    args.extend(linux.iter().chain(&windows).map(String::as_str));
    let e = run(&ctx, &args).expect_err("named Windows sessions are sent and fail");
    assert_eq!(e.exit_code(), crate::error::exit::PARTIAL);
    assert_eq!(posts(&mock, "restart").len(), 5, "every named ID is sent");
    let err = plain(&out.stderr());
    assert!(err.contains("2 of 5 done, 3 failed."), "{err}");
    assert!(
        err.contains("3 failed: restart is not supported on Windows\n"),
        "{err}"
    );
    let ids_line = format!("  {}", windows.join(" "));
    assert!(err.contains(&ids_line), "IDs on one wrapped line: {err}");
    for id in &windows {
        assert_eq!(err.matches(id.as_str()).count(), 1, "{id} once: {err}");
    }
    assert!(!err.contains("error:"), "no paragraph per ID: {err}");
    // The progress line counted the outcomes as they came.
    assert!(err.contains("0 done, 0 failed, 5 remaining"), "{err}");
}

#[test]
fn with_json_or_off_a_terminal_each_session_keeps_its_line() {
    let mock = Mock::start(MockOptions::default()).expect("the emulator starts");
    let linux = sessions(&mock, 1, json!({"os": "linux"}));
    let windows = sessions(&mock, 1, json!({"os": "windows"}));
    let asked = OutputFlags {
        json: true,
        ..OutputFlags::default()
    };
    let (ctx, out) = terminal(&mock, asked, "");
    let e = run(&ctx, &["sessions", "restart", &linux[0], &windows[0]]).expect_err("exit 5");
    assert_eq!(e.exit_code(), crate::error::exit::PARTIAL);
    let err = out.stderr();
    assert!(
        err.contains(&format!("Restart sent to {}", linux[0])),
        "{err}"
    );
    assert!(err.contains(&format!("error: {}: ", windows[0])), "{err}");
    assert!(
        !err.contains("remaining"),
        "no progress line with --json: {err}"
    );
    let rows: Value = serde_json::from_str(&out.stdout()).expect("JSON results");
    assert_eq!(rows[0]["outcome"], "ok");
    assert_eq!(rows[1]["outcome"], "failed");

    let (ctx, out) = context(&mock, OutputFlags::default(), false, 100, "");
    let e = run(&ctx, &["sessions", "update", &linux[0], &windows[0]]).expect_err("exit 5");
    assert_eq!(e.exit_code(), crate::error::exit::PARTIAL);
    let err = out.stderr();
    assert!(
        err.contains(&format!("Update sent to {}", windows[0])),
        "{err}"
    );
    assert!(err.contains(&format!("error: {}: ", linux[0])), "{err}");
    assert!(!err.contains("remaining"), "{err}");
}

#[test]
fn the_progress_line_says_when_it_waits_for_the_rate_limit() {
    let mock = Mock::start(MockOptions::default()).expect("the emulator starts");
    let linux = sessions(&mock, 3, json!({"os": "linux"}));
    let (mut ctx, out) = terminal(&mock, OutputFlags::default(), "yes\r");
    ctx.settings.flags.rate = Some(RateSetting::Limit(Rate {
        max: 1,
        per: Duration::from_millis(1500),
    }));
    let mut args = vec!["sessions", "stop"];
    args.extend(linux.iter().map(String::as_str));
    run(&ctx, &args).expect("stopped");
    let err = plain(&out.stderr());
    // Another test's limiter may wait at the same time (the state is the process's): this
    // run's waits are at most 2 seconds.
    assert!(rate_waits(&err).iter().any(|w| *w <= 2), "{err}");
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
    let mock = Mock::start(MockOptions::default()).expect("the emulator starts");
    mock.configure(json!({"restart_delay_ms": 600}));
    let linux = sessions(&mock, 2, json!({"os": "linux"}));
    let (ctx, out) = terminal(&mock, OutputFlags::default(), "");
    run(
        &ctx,
        &[
            "sessions",
            "restart",
            &linux[0],
            &linux[1],
            "--wait",
            "--timeout",
            "20s",
        ],
    )
    .expect("both back");
    let err = plain(&out.stderr());
    assert!(
        err.contains("for 2 agent(s) to reconnect: 0 back (0s)"),
        "{err}"
    );
    assert!(err.contains("to reconnect: 1 back"), "{err}");
    let printed = out.stdout();
    assert_eq!(printed.lines().count(), 2, "old -> new for each: {printed}");
}

#[test]
fn stopping_an_http_tunnel_asks_about_its_twin() {
    let mock = Mock::start(MockOptions::default()).expect("the emulator starts");
    start_web(&mock);
    let (ctx, out) = terminal(&mock, OutputFlags::default(), "no\r");
    run(&ctx, &["local", "tunnels", "stop", "web"]).expect("stopped");
    assert!(
        out.stderr().contains("'web (http)' is still running"),
        "{}",
        out.stderr()
    );
    let deletes = |mock: &Mock| -> Vec<String> {
        mock.agent_requests()
            .into_iter()
            .filter(|r| r.method == "DELETE")
            .map(|r| r.path)
            .collect()
    };
    assert_eq!(deletes(&mock), ["/api/tunnels/web"]);

    start_web(&mock);
    let (ctx, out) = terminal(&mock, OutputFlags::default(), "yes\r");
    run(&ctx, &["local", "tunnels", "stop", "web"]).expect("both stopped");
    assert!(
        out.stderr().contains("Stopped tunnel web (http)"),
        "{}",
        out.stderr()
    );
    assert_eq!(
        deletes(&mock),
        [
            "/api/tunnels/web",
            "/api/tunnels/web",
            "/api/tunnels/web%20%28http%29"
        ]
    );
}
