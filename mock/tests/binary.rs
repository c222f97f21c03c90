//! The `tunnelctl-mock` program: serve mode and `exec`.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::{Command, Stdio};

use common::*;

#[test]
fn exec_runs_the_command_with_the_env_and_returns_its_code() {
    let script = "echo \"$TUNNELCTL_API_URL $TUNNELCTL_API_KEY\"; exit 3";
    let out = run_bin(&[
        "--api-key",
        "k1",
        "--demo",
        "exec",
        "--",
        "sh",
        "-c",
        script,
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("http://127.0.0.1:"), "{stdout}");
    assert!(stdout.trim_end().ends_with(" k1"), "{stdout}");
}

#[test]
fn exec_of_a_missing_program_is_127() {
    let out = run_bin(&["exec", "--", "/nonexistent/program"]);
    assert_eq!(out.status.code(), Some(127));
}

#[test]
fn serve_prints_url_and_key_and_writes_the_ready_file() {
    let served = serve(&["--demo", "--page-size", "2"], Stdio::piped());
    let url = served.url.clone();
    let r = get_at(&url, "mock-api-key", "/tunnel_sessions");
    assert_eq!(r.status, 200);
    let sessions = r.json()["tunnel_sessions"].as_array().map(Vec::len);
    assert_eq!(sessions, Some(2));
    let out = served.stop();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = format!("management API: {url}\n");
    assert!(stdout.contains(&line), "{stdout}");
    assert!(stdout.contains("api key: mock-api-key\n"), "{stdout}");
}

#[test]
fn rate_limit_flag_sets_the_limit_and_refuses_bad_values() {
    let bad = run_bin(&["--rate-limit", "120", "exec", "--", "true"]);
    assert_eq!(bad.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(stderr.contains("MAX/PER_MS"), "{stderr}");

    let served = serve(&["--rate-limit", "1/60000"], Stdio::null());
    let url = served.url.clone();
    let cfg = raw(&url, "GET", "/_mock/config", &[], b"").json();
    let first = get_at(&url, "mock-api-key", "/tunnel_sessions").status;
    let second = get_at(&url, "mock-api-key", "/tunnel_sessions").status;
    served.stop();
    let limit = serde_json::json!({"max": 1, "per_ms": 60000});
    assert_eq!(cfg["rate_limit"], limit);
    assert_eq!((first, second), (200, 429));
}

/// `exec -- tunnelctl …` right after a build: a program that is not on PATH is found beside
/// the emulator (as `target/debug/tunnelctl` is beside `target/debug/tunnelctl-mock`).
#[test]
fn exec_finds_a_program_beside_itself() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("tunnelctl-mock-beside-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mock = dir.join("tunnelctl-mock");
    std::fs::copy(BIN, &mock).expect("copy the emulator");
    let beside = dir.join("tunnelctl");
    std::fs::write(
        &beside,
        "#!/bin/sh\necho \"beside $TUNNELCTL_API_URL $*\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&beside, std::fs::Permissions::from_mode(0o755)).unwrap();
    let run = |args: &[&str]| {
        Command::new(&mock)
            .args(args)
            .env("PATH", "/usr/bin:/bin")
            .output()
            .expect("run the copy")
    };
    let direct = run(&["exec", "--", "tunnelctl", "sessions", "list"]);
    let nested = run(&["exec", "--", "sh", "-c", "tunnelctl x"]);
    let _ = std::fs::remove_dir_all(&dir);
    for (out, args) in [(direct, "sessions list"), (nested, "x")] {
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.starts_with("beside http://127.0.0.1:"), "{stdout}");
        assert!(stdout.trim_end().ends_with(args), "{stdout}");
    }
}

#[test]
fn serve_prints_the_export_lines() {
    let mut child = Command::new(BIN)
        .args(["--api-key", "k2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the binary");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut lines = Vec::new();
    while lines.len() < 8 {
        let mut line = String::new();
        if std::io::BufRead::read_line(&mut stdout, &mut line).unwrap_or(0) == 0 {
            break;
        }
        lines.push(line);
    }
    let _ = child.kill();
    let _ = child.wait();
    let text = lines.concat();
    assert!(
        text.contains("  export TUNNELCTL_API_URL=http://127.0.0.1:"),
        "{text}"
    );
    assert!(text.contains("  export TUNNELCTL_API_KEY=k2\n"), "{text}");
    assert!(
        text.contains("  export TUNNELCTL_AGENT_URL=http://127.0.0.1:"),
        "{text}"
    );
}

/// No API call lists TLS edges, so the demo's edge is named where a person looks first: the
/// served banner (with the command that reads it) and, for `exec`, a variable.
#[test]
fn the_demo_names_its_tls_edge_and_says_which_tunnel_address_answers() {
    let mut served = serve(&["--demo", "--api-key", "k3"], Stdio::piped());
    let stdout = served.child.stdout.take().expect("stdout");
    let mut banner = String::new();
    for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
        let line = line.unwrap_or_default();
        banner.push_str(&line);
        banner.push('\n');
        if line.contains("nothing answers it") {
            break;
        }
    }
    let id = banner
        .split_whitespace()
        .find(|w| w.starts_with("edgtls_"))
        .unwrap_or_else(|| panic!("no TLS edge named:\n{banner}"))
        .to_string();
    let got = get_at(
        &served.url,
        "k3",
        &format!("/edges/tls/{id}/tls_termination"),
    );
    assert_eq!(got.status, 200, "{}", got.text());
    assert!(
        banner.contains(&format!("  tunnelctl edges tls-termination get {id}\n")),
        "{banner}"
    );
    assert!(banner.contains("`NAME (http)` twin"), "{banner}");
    assert!(
        banner
            .contains("Demo web app (answers every request with an echo of it): http://127.0.0.1:"),
        "{banner}"
    );
    assert!(banner.lines().all(|l| l.chars().count() <= 80), "{banner}");
    served.stop();

    let out = run_bin(&[
        "--demo",
        "exec",
        "--",
        "sh",
        "-c",
        "echo \"$TUNNELCTL_DEMO_TLS_EDGE $TUNNELCTL_DEMO_UPSTREAM\"",
    ]);
    let vars = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(vars.starts_with("edgtls_"), "{out:?}");
    assert!(vars.contains(" http://127.0.0.1:"), "{out:?}");
}
