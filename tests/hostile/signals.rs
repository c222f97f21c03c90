//! Stop signals: SIGTERM (how GitLab CI and most supervisors cancel a job) is handled as Ctrl-C
//! is, and ends with exit 143; a second signal during a graceful stop ends it at once.

use std::io::Write;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::hostile::{Hostile, Reply};
use crate::common::Env;

fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("kill runs")
        .success();
    assert!(ok, "kill -{name}");
}

/// Waits until `cond` holds, for at most `limit`.
fn wait_for(limit: Duration, mut cond: impl FnMut() -> bool) {
    let end = Instant::now() + limit;
    while !cond() {
        assert!(Instant::now() < end, "timed out waiting");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn posts(env: &Env) -> Vec<tunnelctl_mock::RecordedRequest> {
    env.requests()
        .into_iter()
        .filter(|r| r.method == "POST")
        .collect()
}

/// A request of our own to the emulator, so that its log has a mark of "now" (`at_ms`) to
/// compare the client's requests with.
fn mark(env: &Env) -> u64 {
    let addr = env.mock.url().trim_start_matches("http://").to_string();
    let mut conn = std::net::TcpStream::connect(&addr).unwrap();
    conn.write_all(b"GET /signal-mark HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut at = None;
    wait_for(Duration::from_secs(5), || {
        at = env
            .requests()
            .iter()
            .find(|r| r.path == "/signal-mark")
            .map(|r| r.at_ms);
        at.is_some()
    });
    at.unwrap()
}

/// `sessions restart --all` of the whole fleet, running, its output captured.
fn bulk_restart(env: &Env) -> std::process::Child {
    env.std_cmd()
        .args(["sessions", "restart", "--all", "--parallel", "4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// SIGTERM used to kill a bulk restart on the spot: no report of what was done, exit by
/// signal. Now it stops starting restarts, lets those under way finish, reports, exits 143.
#[test]
fn sigterm_during_a_bulk_restart_finishes_what_started_reports_and_exits_143() {
    let env = Env::slow_fleet(150);
    let child = bulk_restart(&env);
    wait_for(Duration::from_secs(20), || posts(&env).len() >= 6);
    signal(&child, "TERM");
    let signalled = mark(&env);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("Stopping (SIGTERM)"), "{stderr}");
    assert!(
        stderr.contains("Interrupted:") && stderr.contains("not started"),
        "{stderr}"
    );
    assert!(stderr.contains("terminated"), "{stderr}");
    let restarts = posts(&env);
    assert!(
        restarts.len() >= 6 && restarts.len() < 50,
        "{} restarts",
        restarts.len()
    );
    // Nothing started after the signal: every restart arrived before it was sent (or within
    // a moment of it, for one already leaving the client), and every one finished.
    for r in &restarts {
        assert!(
            r.at_ms <= signalled + 300,
            "a restart arrived {} ms after the signal",
            r.at_ms - signalled
        );
        assert_eq!(r.status, 204, "every started restart finished");
        let id = r.path.split('/').nth(2).unwrap();
        assert!(
            stderr.contains(&format!("Restart sent to {id}")),
            "each one done is reported: {stderr}"
        );
    }
}

/// A second signal (here SIGTERM after Ctrl-C, as GitHub Actions sends them) during a graceful
/// stop ends the run at once, without waiting for the requests under way.
#[test]
fn a_second_signal_during_a_graceful_stop_stops_at_once() {
    let env = Env::slow_fleet(2500);
    let mut child = bulk_restart(&env);
    // stderr read as it comes, to send the second signal once the first one is being handled.
    let said = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let reader = {
        let said = said.clone();
        let mut stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = std::io::Read::read(&mut stderr, &mut buf) {
                said.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    wait_for(Duration::from_secs(20), || !posts(&env).is_empty());
    signal(&child, "INT");
    wait_for(Duration::from_secs(20), || {
        said.lock().unwrap().contains("Stopping (Ctrl-C)")
    });
    signal(&child, "TERM");
    let start = Instant::now();
    let output = child.wait_with_output().unwrap();
    reader.join().unwrap();
    let stderr = said.lock().unwrap().clone();
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "took {:?} after the second signal: {stderr}",
        start.elapsed()
    );
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("Stopping (Ctrl-C)"), "{stderr}");
    assert!(posts(&env).len() <= 4, "{stderr}");
}

/// A plain command waiting on a server that never answers ends promptly on SIGTERM, with 143.
#[test]
fn sigterm_ends_a_plain_command_promptly_with_143() {
    let env = Env::new();
    let server = Hostile::start(|_| Reply::Hang);
    let mut cmd = env.std_cmd_at(&server.url());
    cmd.args(["ip-policies", "list"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().unwrap();
    wait_for(Duration::from_secs(10), || server.count() >= 1);
    signal(&child, "TERM");
    let start = Instant::now();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(start.elapsed() < Duration::from_secs(2), "{stderr}");
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("terminated"), "{stderr}");
    assert_eq!(server.count(), 1, "nothing retried after the signal");
}

/// `help exit-codes` names 143.
#[test]
fn help_exit_codes_names_sigterm() {
    let env = Env::new();
    let out = env.run(&["help", "exit-codes"]);
    out.ok();
    assert!(
        out.stdout.contains("143") && out.stdout.contains("SIGTERM"),
        "{}",
        out.stdout
    );
}
