//! The `tunnelctl-mock` program: serve mode and `exec`.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

const BIN: &str = env!("CARGO_BIN_EXE_tunnelctl-mock");

#[test]
fn exec_runs_the_command_with_the_env_and_returns_its_code() {
    let out = Command::new(BIN)
        .args([
            "--api-key",
            "k1",
            "--demo",
            "exec",
            "--",
            "sh",
            "-c",
            "echo \"$TUNNELCTL_API_URL $TUNNELCTL_API_KEY\"; exit 3",
        ])
        .output()
        .expect("run the binary");
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("http://127.0.0.1:"), "{stdout}");
    assert!(stdout.trim_end().ends_with(" k1"), "{stdout}");
}

#[test]
fn exec_of_a_missing_program_is_127() {
    let out = Command::new(BIN)
        .args(["exec", "--", "/nonexistent/program"])
        .output()
        .expect("run the binary");
    assert_eq!(out.status.code(), Some(127));
}

#[test]
fn serve_prints_url_and_key_and_writes_the_ready_file() {
    let dir = std::env::temp_dir().join(format!("tunnelctl-mock-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ready = dir.join("ready");
    let mut child = Command::new(BIN)
        .args(["--demo", "--page-size", "2", "--ready-file"])
        .arg(&ready)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the binary");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !ready.exists() {
        assert!(Instant::now() < deadline, "no ready file");
        std::thread::sleep(Duration::from_millis(10));
    }
    let url = std::fs::read_to_string(&ready)
        .expect("read ready file")
        .trim()
        .to_string();
    let r = raw(
        &url,
        "GET",
        "/tunnel_sessions",
        &[
            ("Authorization", "Bearer mock-api-key"),
            ("Service-Version", "2"),
        ],
        b"",
    );
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json()["tunnel_sessions"].as_array().map(Vec::len),
        Some(2)
    );
    let _ = child.kill();
    let out = child.wait_with_output().expect("wait");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("management API: {url}\n")),
        "{stdout}"
    );
    assert!(stdout.contains("api key: mock-api-key\n"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rate_limit_flag_sets_the_limit_and_refuses_bad_values() {
    let bad = Command::new(BIN)
        .args(["--rate-limit", "120", "exec", "--", "true"])
        .output()
        .expect("run the binary");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("MAX/PER_MS"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );

    let dir = std::env::temp_dir().join(format!("tunnelctl-mock-test-rl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ready = dir.join("ready");
    let mut child = Command::new(BIN)
        .args(["--rate-limit", "1/60000", "--ready-file"])
        .arg(&ready)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the binary");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !ready.exists() {
        assert!(Instant::now() < deadline, "no ready file");
        std::thread::sleep(Duration::from_millis(10));
    }
    let url = std::fs::read_to_string(&ready)
        .expect("read ready file")
        .trim()
        .to_string();
    let cfg = raw(&url, "GET", "/_mock/config", &[], b"").json();
    let auth = [
        ("Authorization", "Bearer mock-api-key"),
        ("Service-Version", "2"),
    ];
    let first = raw(&url, "GET", "/tunnel_sessions", &auth, b"").status;
    let second = raw(&url, "GET", "/tunnel_sessions", &auth, b"").status;
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        cfg["rate_limit"],
        serde_json::json!({"max": 1, "per_ms": 60000})
    );
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
