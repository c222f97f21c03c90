//! The `tunnelctl-mock` program's agent half: the URL it prints, `--agent-port`, and
//! `TUNNELCTL_AGENT_URL` under `exec`.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::*;

#[test]
fn exec_sets_the_agent_url() {
    let out = run_bin(&["exec", "--", "sh", "-c", "echo \"$TUNNELCTL_AGENT_URL\""]);
    assert_eq!(out.status.code(), Some(0));
    let url = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/api"),
        "{url}"
    );
}

#[test]
fn serve_prints_the_agent_url_on_the_chosen_port() {
    let port = {
        let l = std::net::TcpListener::bind(("127.0.0.1", 0)).expect("bind");
        l.local_addr().expect("addr").port()
    };
    let mut child = Command::new(BIN)
        .args(["--agent-port", &port.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the binary");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let mut agent_line = None;
    for _ in 0..3 {
        let Some(Ok(line)) = lines.next() else { break };
        if let Some(url) = line.strip_prefix("agent API: ") {
            agent_line = Some(url.to_string());
        }
    }
    let url = agent_line.expect("an 'agent API:' line");
    assert_eq!(url, format!("http://127.0.0.1:{port}/api"));
    let base = format!("http://127.0.0.1:{port}");
    let r = raw(&base, "GET", "/api/tunnels", &[], b"");
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["uri"], "/api/tunnels");
    let _ = child.kill();
    let _ = child.wait();
}
