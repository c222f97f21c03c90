//! A global `--jq` filter that never ends or grows without end is bounded as the rest of a
//! command is: `--timeout` (exit 7), Ctrl-C (130), SIGTERM (143) and the memory budget of
//! fixtures' `jq` checks (exit 2). Each run has a hang guard far past the time it takes now;
//! before, these ran for minutes.

use std::io::Read;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tunnelctl::registry::env as var;

use crate::common::{run, wait_until, Env, Out};

/// Far past what each run takes now, far short of what it took before.
const HANG_GUARD: Duration = Duration::from_secs(120);

/// Runs `tunnelctl FLAGS local tunnels list --jq FILTER` against the emulator's agent.
fn list_with(env: &Env, flags: &[&str], filter: &str) -> Out {
    let mut cmd = env.cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .timeout(HANG_GUARD)
        .args(flags)
        .args(["local", "tunnels", "list", "--jq", filter]);
    run(&mut cmd)
}

/// The agent was asked for its tunnels: the list was fetched before the filter ran.
fn tunnels_fetched(env: &Env) {
    let asked = env.mock.agent_requests();
    assert!(
        asked
            .iter()
            .any(|r| r.method == "GET" && r.path.ends_with("/tunnels")),
        "{asked:?}"
    );
}

#[test]
fn timeout_ends_a_jq_filter_that_never_ends_with_exit_7() {
    let env = Env::new();
    let out = list_with(&env, &["--timeout", "2s"], "last(range(1e12))");
    out.code(7).says(
        "error: the time limit (--timeout 2s) ran out while the --jq filter ran; the command was stopped",
    );
    assert_eq!(out.stdout, "");
    tunnels_fetched(&env);
}

#[test]
fn the_memory_budget_stops_a_jq_filter_that_grows_without_end_with_exit_2() {
    let env = Env::new();
    let out = list_with(&env, &[], "[limit(1e9; repeat(1))] | length");
    out.code(2)
        .says("error: --jq: the filter took more than 256 MiB of memory and was stopped");
    assert_eq!(out.stdout, "");
    tunnels_fetched(&env);
}

#[test]
fn a_jq_filter_that_ends_is_not_cut_short_by_the_timeout() {
    let env = Env::new();
    let out = list_with(&env, &["--timeout", "1m"], "[range(100000)] | length");
    out.ok();
    assert_eq!(out.stdout, "100000\n");
}

#[cfg(unix)]
#[test]
fn sigterm_and_ctrl_c_end_a_jq_filter_that_never_ends_with_143_and_130() {
    let env = Env::new();
    for (signal, code, says) in [
        (libc::SIGTERM, 143, "terminated (SIGTERM)"),
        (libc::SIGINT, 130, "interrupted (Ctrl-C)"),
    ] {
        // The filter prints its first results (more than the output buffer holds, so they
        // reach the pipe), then runs on without end.
        let mut child = env
            .std_cmd()
            .env(var::AGENT_URL, env.mock.agent_url())
            .args(["local", "tunnels", "list", "--jq"])
            .arg("range(5000), last(range(1e12))")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let printed = Arc::new(Mutex::new(String::new()));
        let mut stdout = child.stdout.take().expect("a pipe");
        let reader = {
            let printed = printed.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n @ 1..) = stdout.read(&mut buf) {
                    printed
                        .lock()
                        .unwrap()
                        .push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            })
        };
        wait_until("the filter's first results", || {
            printed.lock().unwrap().contains("\n3000\n")
        });
        // SAFETY: kill(2) on the child this test started.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let ended = wait_or_kill(&mut child);
        reader.join().unwrap();
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .expect("a pipe")
            .read_to_string(&mut stderr)
            .unwrap();
        assert_eq!(ended, Some(code), "signal {signal}: {stderr}");
        assert_eq!(stderr.trim_end(), says, "signal {signal}");
    }
}

/// The child's exit code, or `None` (after killing it) when it outlives [`HANG_GUARD`].
fn wait_or_kill(child: &mut std::process::Child) -> Option<i32> {
    let end = std::time::Instant::now() + HANG_GUARD;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if std::time::Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn help_output_says_how_a_jq_filter_is_bounded() {
    let env = Env::new();
    let out = run(env.bare().args(["help", "output"]));
    out.ok();
    let text = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    for said in [
        "--timeout ends it (exit 7)",
        "Ctrl-C (130) and SIGTERM (143)",
        "more than 256 MiB of memory is stopped with an error (exit 2)",
    ] {
        assert!(
            text.contains(said),
            "help output lacks {said:?}:\n{}",
            out.stdout
        );
    }
}
