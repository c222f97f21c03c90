//! The real agent with no session to the tunnel service (`with-agent --no-server`): starting a
//! tunnel is refused with 503, and the user is told what that means. Ignored in a plain
//! `cargo test`; `.ci/run` runs it inside the harness.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

#[test]
#[ignore = "needs the real agent without a server: run through ../shared/real-agent/with-agent --no-server (see .ci/run)"]
fn not_ready_is_explained() {
    assert_eq!(
        std::env::var("REAL_AGENT").as_deref(),
        Ok("1"),
        "run through with-agent --no-server"
    );
    let mut cmd = assert_cmd::Command::cargo_bin("tunnelctl").expect("the binary is built");
    cmd.env_remove("RUST_BACKTRACE").args([
        "local", "tunnels", "start", "--name", "t", "--proto", "http", "--addr", "8080",
    ]);
    let out = common::run(&mut cmd);
    out.code(1);
    assert!(out.stderr.contains("503"), "{}", out.stderr);
    assert!(out.stderr.contains("not yet ready"), "{}", out.stderr);
    assert!(
        out.stderr.contains("no session with the tunnel service"),
        "the hint explains it: {}",
        out.stderr
    );
}
