//! Faults survived, nothing done twice, nothing leaked, hostile answers defused: each test
//! injects the fault into the emulator and checks what the binary did and what the server holds.

use crate::common::{run, wait_until, Env, Out};
use serde_json::json;

#[test]
fn flaky_service_no_get_lost_no_create_doubled() {
    let env = Env::new();
    env.seed(json!({"ip_policy_count": 3}));
    // 30% of all answers are 503 (before the server acts); 10% of creates are stored and then
    // answered 500. Seeded, so every run sees the same faults.
    env.mock
        .inject(json!({"path": "/ip_policies/**", "status": 503, "probability": 0.3, "seed": 7}));
    env.mock
        .inject(json!({"path": "/ip_policies", "status": 503, "probability": 0.3, "seed": 8}));
    env.mock.inject(json!({"method": "POST", "path": "/ip_policies", "status": 500, "after": true, "probability": 0.1, "seed": 9}));
    let fast = ["--max-attempts", "8", "--rate", "off"];
    for i in 0..200 {
        let mut args = vec!["ip-policies", "list", "--limit", "1"];
        args.extend(fast);
        let out = env.run(&args);
        assert_eq!(out.code, 0, "GET {i} failed: {}", out.stderr);
    }
    let (mut ok, mut unknown, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..50 {
        let desc = format!("create-{i}");
        let mut args = vec!["ip-policies", "create", "--description", &desc];
        args.extend(fast);
        let out = env.run(&args);
        match out.code {
            0 => ok.push(desc),
            1 if out.stderr.contains("outcome is unknown") => {
                out.says("Check with: tunnelctl ip-policies list");
                unknown.push(desc)
            }
            1 => failed.push(desc),
            other => panic!("create {i}: exit {other}: {}", out.stderr),
        }
    }
    assert!(
        !unknown.is_empty(),
        "the fault should have hit some creates"
    );
    let stored: Vec<String> = env.mock.state()["ip_policies"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["description"].as_str().map(str::to_string))
        .filter(|d| d.starts_with("create-"))
        .collect();
    for d in ok.iter().chain(&unknown) {
        assert_eq!(
            stored.iter().filter(|s| *s == d).count(),
            1,
            "{d}: exactly one stored"
        );
    }
    for d in &failed {
        assert!(!stored.contains(d), "{d} was reported failed but stored");
    }
    assert_eq!(
        stored.len(),
        ok.len() + unknown.len(),
        "never two for one command"
    );
}

#[test]
fn retry_after_is_waited_out() {
    let env = Env::new();
    env.seed(json!({"ip_policy_count": 1}));
    env.mock.inject(json!({"method": "GET", "path": "/ip_policies", "status": 429, "headers": {"Retry-After": "2"}, "count": 1}));
    let out = env.run(&["ip-policies", "list", "--json"]);
    out.ok();
    let log = env.requests();
    assert_eq!(log.len(), 2);
    assert_eq!((log[0].status, log[1].status), (429, 200));
    let gap = log[1].at_ms - log[0].at_ms;
    assert!((2000..4000).contains(&gap), "waited {gap} ms");
    // The same as an HTTP date in the past: retried at once.
    env.mock.clear_requests();
    env.mock.inject(json!({"method": "GET", "path": "/ip_policies", "status": 503, "headers": {"Retry-After": "Thu, 01 Jan 1970 00:00:00 GMT"}, "count": 1}));
    env.run(&["ip-policies", "list"]).ok();
    assert_eq!(env.requests().len(), 2);
}

#[test]
fn a_reset_after_the_create_is_unknown_and_not_retried() {
    let env = Env::new();
    env.mock.inject(
        json!({"method": "POST", "path": "/ip_policies", "after": true, "reset": true, "count": 1}),
    );
    let out = env.run(&["ip-policies", "create", "--description", "once"]);
    out.code(1)
        .says("unknown")
        .says("Check with: tunnelctl ip-policies list");
    assert_eq!(env.writes().len(), 1, "not sent again");
    assert_eq!(
        env.mock.state()["ip_policies"].as_array().unwrap().len(),
        1,
        "exactly one stored"
    );
}

#[test]
fn agent_commands_after_an_ambiguous_failure_are_unknown() {
    let env = Env::new();
    let id = env.seed(json!({"sessions": [{"os": "linux"}]}))["sessions"][0]
        .as_str()
        .unwrap()
        .to_string();
    env.mock.inject(json!({"method": "POST", "path": "/tunnel_sessions/*/restart", "after": true, "reset": true, "count": 1}));
    let out = env.run(&["sessions", "restart", &id]);
    out.code(1);
    assert!(
        out.stderr.contains("unknown") && out.stderr.contains("tunnelctl sessions list"),
        "{}",
        out.stderr
    );
    assert_eq!(env.writes().len(), 1);
}

#[test]
fn a_reset_before_anything_is_retried_for_gets() {
    let env = Env::new();
    env.seed(json!({"ip_policy_count": 1}));
    env.mock
        .inject(json!({"method": "GET", "path": "/ip_policies", "reset_before": true, "count": 2}));
    env.run(&["ip-policies", "list"]).ok();
    assert_eq!(env.requests().len(), 3);
}

#[test]
fn broken_bodies_give_clear_errors() {
    let env = Env::new();
    env.seed(json!({"ip_policy_count": 1}));
    for (kind, needle) in [
        ("truncated_json", "not valid JSON"),
        ("malformed_json", "not valid JSON"),
        ("html", "not valid JSON"),
        ("invalid_utf8", "not valid JSON"),
        ("empty", "has no body"),
    ] {
        env.mock.inject(
            json!({"method": "GET", "path": "/ip_policies", "body_kind": kind, "count": 1}),
        );
        let out = env.run(&["ip-policies", "list"]);
        out.code(1);
        assert!(
            out.stderr.starts_with("error: GET /ip_policies"),
            "{kind}: {}",
            out.stderr
        );
        assert!(out.stderr.contains(needle), "{kind}: {}", out.stderr);
        assert!(out.stderr.lines().count() <= 3, "{kind}: {}", out.stderr);
    }
    env.mock.inject(json!({"method": "GET", "path": "/ip_policies", "body_kind": "huge", "size": 20_000_000, "count": 1}));
    let out = env.run(&["ip-policies", "list"]);
    out.code(1).says("larger than 16 MiB");
    // An error answer whose body is HTML or broken still reads as one line with the status.
    env.mock.inject(json!({"method": "GET", "path": "/ip_policies", "status": 502, "body_kind": "html", "count": 3}));
    let out = env.run(&["ip-policies", "list"]);
    out.code(1).says("502");
}

fn assert_escaped(out: &Out, stream: &str) {
    let text = if stream == "stdout" {
        &out.stdout
    } else {
        &out.stderr
    };
    for c in ['\u{1b}', '\r', '\u{7}', '\u{9b}'] {
        assert!(!text.contains(c), "raw {c:?} on {stream}: {text:?}");
    }
    assert!(text.contains("\\x1b"), "{stream}: {text:?}");
}

#[test]
fn control_characters_from_the_server_are_escaped() {
    let env = Env::new();
    let evil = "x\u{1b}]52;c;aGk=\u{7}y\u{1b}[2J\rz\u{9b}31m";
    env.seed(json!({"ip_policies": [{"description": evil, "metadata": evil}]}));
    let tsv = env.run(&["ip-policies", "list"]);
    tsv.ok();
    assert_escaped(&tsv, "stdout");
    tsv.prints("x\\x1b]52;c;aGk=\\x07y\\x1b[2J\\rz\\u{9b}31m");
    let table = env.run_tty(&["ip-policies", "list"]);
    assert_escaped(&table, "stdout");
    let json = env.run(&["ip-policies", "list", "--json"]);
    assert_eq!(json.json()[0]["description"], evil, "JSON stays exact");
    env.mock.inject(json!({"path": "/ip_policies", "status": 400, "content_type": "application/json",
        "body": json!({"error_code": "E\u{1b}[1m", "msg": evil, "details": {"operation_id": "op\u{7}"}}).to_string(), "count": 1}));
    let err = env.run(&["ip-policies", "list"]);
    err.code(1);
    assert_escaped(&err, "stderr");
    env.mock.inject(json!({"path": "/ip_policies", "status": 500, "content_type": "text/plain", "body": evil, "count": 1}));
    let err = env.run(&["ip-policies", "list", "--max-attempts", "1"]);
    assert_escaped(&err, "stderr");
}

#[test]
fn a_config_readable_by_others_warns() {
    let env = Env::new();
    env.write_config(&Env::default_profile(&env.mock.url()));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(env.config_path(), std::fs::Permissions::from_mode(0o644))
            .unwrap();
        let out = run(env.bare().args(["ip-policies", "list"]));
        out.ok();
        assert!(
            out.stderr.contains("warning") && out.stderr.contains("chmod 600"),
            "{}",
            out.stderr
        );
        std::fs::set_permissions(env.config_path(), std::fs::Permissions::from_mode(0o600))
            .unwrap();
        let out = run(env.bare().args(["ip-policies", "list"]));
        assert_eq!(out.stderr, "");
    }
}

#[test]
fn ctrl_c_during_a_bulk_restart_finishes_what_started_and_reports() {
    let env = Env::slow_fleet(150);
    let child = env
        .std_cmd()
        .args(["sessions", "restart", "--all", "--parallel", "4"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupted once restarts are under way, whenever that is on this machine.
    wait_until("the first restart", || {
        env.requests().iter().any(|r| r.method == "POST")
    });
    let pid = child.id().to_string();
    assert!(std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("Interrupted:") && stderr.contains("not started"),
        "{stderr}"
    );
    let restarts: Vec<_> = env
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST")
        .collect();
    assert!(
        !restarts.is_empty() && restarts.len() < 50,
        "{} restarts",
        restarts.len()
    );
    assert!(
        restarts.iter().all(|r| r.status == 204),
        "every started request finished"
    );
    for r in &restarts {
        let id = r.path.split('/').nth(2).unwrap();
        assert!(
            stderr.contains(&format!("Restart sent to {id}")),
            "each done one is reported: {stderr}"
        );
    }
}
