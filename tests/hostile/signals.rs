//! Stop signals: SIGTERM (how GitLab CI and most supervisors cancel a job) is handled as Ctrl-C
//! is, and ends with exit 143; a second signal during a graceful stop ends it at once.

use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
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

/// How long a wait may last before the test calls it a hang: far beyond what any step takes,
/// so it only fails when the awaited thing never happens.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// Waits until `cond` holds, for at most `limit`.
fn wait_for(limit: Duration, mut cond: impl FnMut() -> bool) {
    let end = Instant::now() + limit;
    while !cond() {
        assert!(Instant::now() < end, "timed out waiting");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Requests the emulator holds in its latency right now.
fn held(env: &Env) -> u64 {
    env.mock.clock()["waiting"].as_u64().unwrap_or(0)
}

/// With the emulator's clock frozen: lets the reads before the restarts (the listing of the
/// fleet) through, moving the clock by `latency` while only they are held, until `n`
/// restarts are held in their latency.
fn hold_restarts(env: &Env, n: usize, latency: Duration) {
    wait_for(HANG_GUARD, || {
        let (posts, held) = (posts(env).len(), held(env));
        if posts == 0 && held > 0 {
            env.mock.advance_clock(latency);
        }
        posts == n && held == n as u64
    });
}

/// What the child writes to stderr, read as it comes.
struct Said {
    text: Arc<Mutex<String>>,
    reader: std::thread::JoinHandle<()>,
}

impl Said {
    /// What was written so far.
    fn text(&self) -> String {
        self.text.lock().unwrap().clone()
    }

    /// Everything, once the child has closed its stderr.
    fn all(self) -> String {
        self.reader.join().unwrap();
        let text = self.text.lock().unwrap();
        text.clone()
    }
}

fn read_stderr(child: &mut Child) -> Said {
    let text = Arc::new(Mutex::new(String::new()));
    let mut stderr = child.stderr.take().unwrap();
    let reader = {
        let text = text.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = std::io::Read::read(&mut stderr, &mut buf) {
                text.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    Said { text, reader }
}

/// The child's exit and output, once it has ended (the test fails as a hang if it never does).
fn exit_of(mut child: Child) -> std::process::Output {
    let end = Instant::now() + HANG_GUARD;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() >= end {
            let _ = child.kill();
            panic!("the command did not end");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

fn posts(env: &Env) -> Vec<tunnelctl_mock::RecordedRequest> {
    env.requests()
        .into_iter()
        .filter(|r| r.method == "POST")
        .collect()
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
    // The latency runs on the emulator's clock, held still: the first four restarts stay
    // under way until the test moves it, so "under way when the signal came" is exact.
    env.mock.freeze_clock(true);
    let mut child = bulk_restart(&env);
    let said = read_stderr(&mut child);
    hold_restarts(&env, 4, Duration::from_millis(150));
    signal(&child, "TERM");
    wait_for(HANG_GUARD, || said.text().contains("Stopping (SIGTERM)"));
    let under_way = posts(&env).len();
    env.mock.advance_clock(Duration::from_millis(150));
    let output = exit_of(child);
    let stderr = said.all();
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("Stopping (SIGTERM)"), "{stderr}");
    assert!(
        stderr.contains("Interrupted:") && stderr.contains("not started"),
        "{stderr}"
    );
    assert!(stderr.contains("terminated"), "{stderr}");
    let restarts = posts(&env);
    // Nothing started after the signal: only the four under way when it came, every one
    // finished.
    assert_eq!(under_way, 4, "{stderr}");
    assert_eq!(restarts.len(), under_way, "{stderr}");
    for r in &restarts {
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
    // The latency runs on the emulator's clock, held still and never moved: the restarts
    // under way can never finish, so ending at all is ending without waiting for them.
    env.mock.freeze_clock(true);
    let mut child = bulk_restart(&env);
    // stderr read as it comes, to send the second signal once the first one is being handled.
    let said = read_stderr(&mut child);
    hold_restarts(&env, 4, Duration::from_millis(2500));
    signal(&child, "INT");
    wait_for(HANG_GUARD, || said.text().contains("Stopping (Ctrl-C)"));
    signal(&child, "TERM");
    let output = exit_of(child);
    let stderr = said.all();
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("Stopping (Ctrl-C)"), "{stderr}");
    let restarts = posts(&env);
    assert!(restarts.len() <= 4, "{stderr}");
    assert!(
        restarts.iter().all(|r| r.status == 0),
        "none was answered before it ended: {stderr}"
    );
}

/// A plain command waiting on a server that never answers ends on SIGTERM, with 143.
#[test]
fn sigterm_ends_a_command_waiting_on_a_silent_server_with_143() {
    let env = Env::new();
    let server = Hostile::start(|_| Reply::Hang);
    let mut cmd = env.std_cmd_at(&server.url());
    cmd.args(["ip-policies", "list"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().unwrap();
    wait_for(HANG_GUARD, || server.count() >= 1);
    signal(&child, "TERM");
    // The server never answers: ending with 143 is ending on the signal, not on an answer or
    // the default timeout (exit 7).
    let output = exit_of(child);
    let stderr = String::from_utf8_lossy(&output.stderr);
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

/// Ctrl-C and SIGTERM end a run in one style, each naming its signal, neither as an error: SIGTERM
/// used to print `error: terminated (SIGTERM)` where Ctrl-C printed `interrupted`.
#[test]
fn ctrl_c_and_sigterm_say_so_in_one_style() {
    let env = Env::new();
    let server = Hostile::start(|_| Reply::Hang);
    for (name, code, said) in [
        ("INT", 130, "interrupted (Ctrl-C)"),
        ("TERM", 143, "terminated (SIGTERM)"),
    ] {
        let before = server.count();
        let child = env
            .std_cmd_at(&server.url())
            .args(["ip-policies", "list"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for(HANG_GUARD, || server.count() > before);
        signal(&child, name);
        let output = exit_of(child);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{stderr}");
        assert_eq!(stderr, format!("{said}\n"), "{name}");
    }
}

/// A graceful stop waits for what is under way for less than a second, whatever the network
/// does: a bulk restart whose requests the server never answers used to wait for them until
/// their timeout (here ten minutes). It ends with 143 well before the test's hang guard, and
/// says that what was under way has an unknown outcome.
#[test]
fn sigterm_ends_a_bulk_restart_whose_requests_never_end() {
    let env = Env::slow_fleet(2500);
    // The latency runs on the emulator's clock, held still and never moved: the restarts
    // under way never finish.
    env.mock.freeze_clock(true);
    let mut child = env
        .std_cmd()
        .args([
            "sessions",
            "restart",
            "--all",
            "--parallel",
            "4",
            "--timeout",
            "600",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let said = read_stderr(&mut child);
    hold_restarts(&env, 4, Duration::from_millis(2500));
    signal(&child, "TERM");
    let output = exit_of(child);
    let stderr = said.all();
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("Stopping (SIGTERM)"), "{stderr}");
    assert!(stderr.contains("outcome is unknown"), "{stderr}");
    assert!(stderr.ends_with("terminated (SIGTERM)\n"), "{stderr}");
    assert!(
        posts(&env).iter().all(|r| r.status == 0),
        "none was answered: {stderr}"
    );
}

/// The inspector, on an agent that accepts the connection and never answers, used to run on
/// for seconds after SIGTERM (until its poll timed out): it now ends at once, the terminal
/// given back, with 143, long before the test's hang guard.
#[test]
fn sigterm_ends_the_inspector_while_the_agent_hangs() {
    use crate::common::pty::Pty;
    let env = Env::new();
    let agent = Hostile::start(|_| Reply::Hang);
    let cmd = env.inspector_cmd(&format!("{}/api", agent.url()), &["--timeout", "600"], &[]);
    let mut term = Pty::spawn(&cmd, 24, 80);
    wait_for(HANG_GUARD, || agent.count() >= 1);
    term.wait_for("inspect");
    let sent = Command::new("kill")
        .args(["-TERM", &term.pid().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    assert_eq!(term.wait_exit(), 143, "{}", term.screen());
    term.assert_restored();
}
