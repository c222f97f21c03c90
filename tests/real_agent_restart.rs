//! The capture history across a real restart of the real agent.
//!
//! The other real-agent tests run inside one `../shared/real-agent/with-agent`, beside one
//! agent process for their whole run. This one runs outside the harness and starts it twice:
//! the first agent captures a webhook and `record --once` keeps it in a history file; the
//! harness then stops that agent (it ends with its command), and a new agent, started by the
//! second run, holds no capture. The capture is read back from the history alone, with the
//! same bytes. Each step is a test of this file, run inside the harness by the outer test
//! (the test binary runs itself with `--exact STEP`); the steps refuse to run on their own, so
//! run the outer test by name, as `.ci/run` does:
//!
//! ```text
//! cargo test --test real_agent_restart -- --ignored --exact \
//!     a_capture_kept_in_history_is_read_back_after_the_real_agent_restarts
//! ```

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::real_agent::{start_http_tunnel, tunnelctl, visit, wait_for_requests};

/// Where the steps keep the history file, the capture's ID and its JSON as the agent gave it.
const STEP_DIR: &str = "TUNNELCTL_RESTART_TEST_DIR";

#[test]
#[ignore = "starts the real agent twice through ../shared/real-agent/with-agent: .ci/run runs it, outside the harness"]
fn a_capture_kept_in_history_is_read_back_after_the_real_agent_restarts() {
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real-agent/with-agent");
    if !harness.exists() {
        cannot_run(&format!("{} is not there", harness.display()));
        return;
    }
    let dir = tempfile::tempdir().expect("a temp dir");
    // The first agent: a webhook captured, then kept in the history. The harness stops this
    // agent when the step ends.
    match step(&harness, dir.path(), "step_1_capture_and_record") {
        77 => return cannot_run("with-agent exited 77: it needs root, unshare, ip, npm, openssl"),
        code => assert_eq!(code, 0, "the first agent's step failed"),
    }
    // A new agent process: nothing captured; the capture comes from the history.
    assert_eq!(
        step(&harness, dir.path(), "step_2_read_back_after_the_restart"),
        0,
        "the second agent's step failed"
    );
}

/// Runs one step of this file inside a new run of the harness (a new agent); its exit code.
fn step(harness: &Path, dir: &Path, name: &str) -> i32 {
    let me = std::env::current_exe().expect("the test binary's path");
    let status = Command::new(harness)
        .arg("--")
        .arg(me)
        .args([
            name,
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(STEP_DIR, dir)
        // The harness gives its command a HOME of its own; keep the toolchain where it is.
        .env("RUSTUP_HOME", toolchain_home("RUSTUP_HOME", ".rustup"))
        .env("CARGO_HOME", toolchain_home("CARGO_HOME", ".cargo"))
        .status()
        .expect("the harness starts");
    status.code().unwrap_or(-1)
}

fn toolchain_home(var: &str, under_home: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(under_home)
    })
}

/// A harness that cannot run here fails the test under CI and is reported as skipped
/// elsewhere, never passed silently.
fn cannot_run(why: &str) {
    common::skip::cannot_run(format!("the real-agent harness cannot run here: {why}"));
}

/// The folder the outer test gave the steps, and the history file in it.
fn step_files() -> (PathBuf, String) {
    let dir = PathBuf::from(std::env::var_os(STEP_DIR).unwrap_or_else(|| {
        panic!(
            "a step of a_capture_kept_in_history_is_read_back_after_the_real_agent_restarts, \
             which runs it inside the harness; run that test instead"
        )
    }));
    let history = dir
        .join("history.sqlite3")
        .to_str()
        .expect("a UTF-8 path")
        .to_string();
    (dir, history)
}

fn history_args<'a>(history: &'a str, args: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec!["--history-file", history];
    all.extend_from_slice(args);
    all
}

#[test]
#[ignore = "a step of a_capture_kept_in_history_is_read_back_after_the_real_agent_restarts, run inside the harness by it"]
fn step_1_capture_and_record() {
    let (dir, history) = step_files();
    let history = history.as_str();
    let port = start_http_tunnel("kept");
    assert!(visit(port, "POST", "/kept?n=7", "{\"event\":\"refund.created\"}").contains("200"));
    let captured = wait_for_requests("kept (http)", 1);
    let id = captured[0]["id"].as_str().unwrap().to_string();
    let before = tunnelctl(&["local", "requests", "get", &id, "--json"]);
    before.ok();
    tunnelctl(&history_args(
        history,
        &[
            "local",
            "requests",
            "record",
            "--once",
            "--tunnel",
            "kept (http)",
        ],
    ))
    .ok()
    .says("Kept 1 new capture(s)");
    std::fs::write(dir.join("id"), &id).unwrap();
    std::fs::write(dir.join("before.json"), &before.stdout).unwrap();
}

#[test]
#[ignore = "a step of a_capture_kept_in_history_is_read_back_after_the_real_agent_restarts, run inside the harness by it"]
fn step_2_read_back_after_the_restart() {
    let (dir, history) = step_files();
    let history = history.as_str();
    let id = std::fs::read_to_string(dir.join("id")).expect("step 1 wrote the capture's ID");
    let before = std::fs::read_to_string(dir.join("before.json")).unwrap();
    // A new agent: it holds no capture, and no tunnel of the first one.
    let held = tunnelctl(&["local", "requests", "list", "--json"]);
    held.ok();
    assert_eq!(
        held.json(),
        serde_json::json!([]),
        "a new agent holds nothing"
    );
    tunnelctl(&["local", "requests", "get", &id]).code(4);

    let get = tunnelctl(&history_args(
        history,
        &["local", "requests", "get", &id, "--json"],
    ));
    get.ok().says("read from the history");
    assert_eq!(get.stdout, before, "the agent's JSON, unchanged");
    let found = tunnelctl(&history_args(
        history,
        &[
            "local",
            "requests",
            "list",
            "--history",
            "--grep",
            "refund.created",
            "--json",
        ],
    ));
    found.ok();
    assert_eq!(common::strings_at(&found.json(), "/id"), [id]);
}
