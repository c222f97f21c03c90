//! Fleet operations on sessions: selectors, bounded concurrency, dry runs, waits, rolling
//! upgrades and the client-side rate limit, proved from the emulator's request log.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::common::{run, strings, strings_at, wait_until, words, Env};
use serde_json::{json, Value};
use tunnelctl_mock::{MockOptions, RecordedRequest};

/// An emulator whose restarted sessions come back after `ms` milliseconds.
fn restart_delay(ms: u64) -> Env {
    Env::with(MockOptions {
        restart_delay_ms: ms,
        ..Default::default()
    })
}

fn linux_sessions(env: &Env, n: usize, extra: Value) -> Vec<String> {
    let mut list = Vec::new();
    for i in 0..n {
        let region = ["us", "eu", "ap"][i % 3];
        let mut s = json!({"os": "linux", "region": region, "ip": format!("203.0.113.{}", i + 1),
                           "metadata": format!("{{\"host\":\"web-{i}\"}}"), "agent_version": "3.19.1"});
        if let (Value::Object(m), Value::Object(e)) = (&mut s, &extra) {
            m.extend(e.clone());
        }
        list.push(s);
    }
    strings(&env.seed(json!({ "sessions": list }))["sessions"])
}

fn sessions_now(env: &Env) -> Vec<Value> {
    env.mock.state()["tunnel_sessions"]
        .as_array()
        .unwrap()
        .clone()
}

fn commands<'a>(log: &'a [RecordedRequest], verb: &str) -> Vec<&'a RecordedRequest> {
    log.iter()
        .filter(|r| r.method == "POST" && r.path.ends_with(&format!("/{verb}")))
        .collect()
}

fn session_of(r: &RecordedRequest) -> String {
    r.path.split('/').nth(2).unwrap_or("").to_string()
}

#[test]
fn upgrade_all_updates_waits_restarts_and_sees_every_agent_back() {
    let env = restart_delay(300);
    let old = linux_sessions(&env, 20, json!({"update_available": "3.20.0"}));
    let before = sessions_now(&env);
    let out = env.run(&words("sessions upgrade --all --batch 20 --parallel 16"));
    out.ok();
    let log = env.requests();
    let updates = commands(&log, "update");
    let restarts = commands(&log, "restart");
    assert_eq!(updates.len(), 20);
    assert_eq!(restarts.len(), 20);
    let updated_at: HashMap<String, u64> =
        updates.iter().map(|r| (session_of(r), r.at_ms)).collect();
    for r in &restarts {
        let id = session_of(r);
        let t = updated_at
            .get(&id)
            .unwrap_or_else(|| panic!("{id} restarted without an update"));
        assert!(
            r.at_ms >= t + 10_000,
            "{id}: restart {} ms after its update",
            r.at_ms - t
        );
    }
    assert!(updates.iter().all(|r| r.status == 204) && restarts.iter().all(|r| r.status == 204));
    // Every agent is back under a new session id, with the new version and the same identity.
    let now = sessions_now(&env);
    assert_eq!(now.len(), 20);
    for s in &now {
        assert!(
            !old.contains(&s["id"].as_str().unwrap().to_string()),
            "old id still online"
        );
        assert_eq!(s["agent_version"], "3.20.0");
        let was = before
            .iter()
            .find(|b| b["credential"]["id"] == s["credential"]["id"])
            .expect("same credential");
        assert_eq!(
            (&was["ip"], &was["os"], &was["metadata"]),
            (&s["ip"], &s["os"], &s["metadata"])
        );
    }
    for id in &old {
        let line = out
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("{id} -> ")))
            .unwrap_or_else(|| panic!("no line for {id}: {}", out.stdout));
        assert!(line.ends_with("(3.20.0)"), "{line}");
    }
}

#[test]
fn upgrade_reports_each_update_refusal_and_restarts_none_of_them() {
    let env = restart_delay(100);
    let refused = strings(
        &env.seed(json!({"sessions": [
            {"os": "linux", "update_available": null},
            {"os": "linux", "update_checks_disabled": true},
            {"os": "linux", "updating": true},
        ]}))["sessions"],
    );
    let updated = linux_sessions(&env, 1, json!({}));
    // The fourth reason: updated already, not restarted yet.
    env.run(&["sessions", "update", &updated[0]]).ok();
    let good = linux_sessions(&env, 1, json!({}));
    env.mock.clear_requests();
    let out = env.run(&["sessions", "upgrade", "--all", "--keep-going", "--json"]);
    out.code(5);
    let rows = out.json();
    let row = |id: &str| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .cloned()
            .unwrap()
    };
    for (id, reason) in refused.iter().zip([
        "no update is available",
        "update checks are disabled",
        "already updating",
    ]) {
        assert_eq!(row(id)["outcome"], "update-failed");
        assert!(
            row(id)["error"].as_str().unwrap().contains(reason),
            "{}",
            row(id)
        );
    }
    assert_eq!(row(&updated[0])["outcome"], "update-failed");
    assert!(row(&updated[0])["error"]
        .as_str()
        .unwrap()
        .contains("has not restarted yet"));
    assert_eq!(row(&good[0])["outcome"], "upgraded");
    let restarted: Vec<String> = commands(&env.requests(), "restart")
        .iter()
        .map(|r| session_of(r))
        .collect();
    assert_eq!(
        restarted,
        vec![good[0].clone()],
        "only the updated agent is restarted"
    );
}

#[test]
fn upgrade_stops_after_the_first_failed_batch() {
    let env = restart_delay(100);
    let first = strings(
        &env.seed(json!({"sessions": [{"os": "linux", "update_available": null}]}))["sessions"],
    );
    let rest = linux_sessions(&env, 2, json!({}));
    let mut all = first.clone();
    all.extend(rest.clone());
    let mut args = vec!["sessions", "upgrade", "--batch", "1"];
    args.extend(all.iter().map(String::as_str));
    let out = env.run(&args);
    out.code(5);
    assert_eq!(
        commands(&env.requests(), "update").len(),
        1,
        "later batches are not started"
    );
    for id in &rest {
        out.says(&format!("{id}: not started"));
    }
}

#[test]
fn settle_and_batch_refuse_bad_values() {
    let env = Env::new();
    for (flag, value) in [
        ("--settle", "5s"),
        ("--settle", "soon"),
        ("--batch", "0"),
        ("--batch", "x"),
        ("--parallel", "0"),
        ("--parallel", "65"),
    ] {
        env.run(&["sessions", "upgrade", "--all", flag, value])
            .code(2)
            .says(flag);
    }
    assert!(env.requests().is_empty());
}

#[test]
fn restart_wait_prints_old_and_new_ids() {
    let env = restart_delay(300);
    let old = linux_sessions(&env, 3, json!({}));
    let out = env.run(&words(&format!(
        "sessions restart {} {} {} --wait --timeout 30",
        old[0], old[1], old[2]
    )));
    out.ok();
    let now: Vec<String> = sessions_now(&env)
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    for id in &old {
        let line = out
            .stdout
            .lines()
            .find(|l| l.starts_with(id.as_str()))
            .expect("a line per session");
        let new = line.split(" -> ").nth(1).unwrap();
        assert!(now.contains(&new.to_string()), "{new} is online");
    }
}

#[test]
fn restart_wait_times_out_with_exit_7() {
    let env = restart_delay(60_000);
    let old = linux_sessions(&env, 1, json!({}));
    // The session comes back only after a minute: exit 7 says the timeout ended the wait.
    let out = env.run(&["sessions", "restart", &old[0], "--wait", "--timeout", "2"]);
    out.code(7).says(&old[0]);
}

#[test]
fn dry_run_sends_nothing() {
    let env = Env::new();
    let old = linux_sessions(&env, 3, json!({}));
    let out = env.run(&["sessions", "restart", &old[0], &old[1], "--dry-run"]);
    out.ok();
    assert!(
        env.requests().is_empty(),
        "IDs given: nothing at all is sent"
    );
    assert_eq!(out.stdout.lines().count(), 2);
    assert!(out.stdout.contains(&format!("would restart\t{}", old[0])));
    for verb in ["restart", "stop", "update", "upgrade"] {
        let out = env.run(&["sessions", verb, "--region", "eu", "--dry-run"]);
        out.ok();
        assert!(
            env.writes().is_empty(),
            "{verb}: selectors read the list, and write nothing"
        );
    }
}

#[test]
fn selectors_pick_sessions() {
    let env = Env::new();
    let seeded = strings(&env.seed(json!({"sessions": [
        {"region": "eu", "os": "linux", "agent_version": "3.19.1", "ip": "203.0.113.5", "metadata": "{\"team\":\"web\"}", "credential_id": "cr_aaa"},
        {"region": "eu", "os": "windows", "agent_version": "3.20.0", "ip": "198.51.100.7"},
        {"region": "us", "os": "linux", "agent_version": "3.18.4", "ip": "203.0.113.99"},
    ]}))["sessions"]);
    let pick = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["sessions", "list", "--json"];
        all.extend_from_slice(args);
        let out = env.run(&all);
        out.ok();
        let mut got = strings_at(&out.json(), "/id");
        got.sort();
        got
    };
    let sorted = |v: &[&String]| {
        let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(pick(&["--region", "eu"]), sorted(&[&seeded[0], &seeded[1]]));
    assert_eq!(
        pick(&["--region", "eu", "--os", "linux"]),
        sorted(&[&seeded[0]])
    );
    assert_eq!(
        pick(&["--agent-version", "<3.20"]),
        sorted(&[&seeded[0], &seeded[2]])
    );
    assert_eq!(pick(&["--agent-version", "3.19"]), sorted(&[&seeded[0]]));
    assert_eq!(
        pick(&["--ip", "203.0.113.0/24"]),
        sorted(&[&seeded[0], &seeded[2]])
    );
    assert_eq!(pick(&["--metadata-contains", "web"]), sorted(&[&seeded[0]]));
    assert_eq!(pick(&["--credential-id", "cr_aaa"]), sorted(&[&seeded[0]]));
    assert_eq!(pick(&["--all"]).len(), 3);
    env.mock.clear_requests();
    for (flag, bad) in [
        ("--ip", "nope"),
        ("--ip", "1.2.3.4/40"),
        ("--agent-version", "<x"),
        ("--region", ""),
        ("--rate", "0/5"),
        ("--rate", "fast"),
    ] {
        env.run(&["sessions", "list", flag, bad]).code(2).says(flag);
    }
    assert!(env.requests().is_empty());
}

#[test]
fn stop_by_selector_reports_each_and_mixed_failures_exit_5() {
    let env = Env::new();
    let seeded = strings(&env.seed(json!({"sessions": [{"region": "eu", "os": "linux"}, {"region": "eu", "os": "windows"}, {"region": "us"}]}))["sessions"]);
    // Named, a Windows session is sent its restart and its refusal counts (selectors would
    // skip it: see bulk_view.rs).
    let out = env.run(&["sessions", "restart", &seeded[0], &seeded[1], "--json"]);
    out.code(5);
    let rows = out.json();
    assert_eq!(rows.as_array().unwrap().len(), 2);
    let outcome = |id: &str| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap()["outcome"]
            .clone()
    };
    assert_eq!(outcome(&seeded[0]), "ok");
    assert_eq!(outcome(&seeded[1]), "failed");
    let out = env.run(&["sessions", "stop", "--region", "us", "--yes"]);
    out.ok();
    assert!(out.stderr.contains(&format!("Stopped {}", seeded[2])));
}

#[test]
fn no_ids_and_no_selector_off_a_terminal_is_a_usage_error() {
    let env = Env::new();
    linux_sessions(&env, 1, json!({}));
    for verb in ["restart", "stop", "update", "upgrade"] {
        env.run(&["sessions", verb]).code(2).says("--all");
    }
    assert!(env.requests().is_empty());
    env.run(&["sessions", "restart", "ts_1", "--all"]).code(2);
}

#[test]
fn requests_run_in_parallel_up_to_the_bound() {
    let env = Env::with(MockOptions {
        latency_ms: 300,
        ..Default::default()
    });
    let old = linux_sessions(&env, 8, json!({}));
    // The latency runs on the emulator's clock, held still: each request waits in it until
    // the test moves the clock, so what is in flight at once is counted, not timed.
    env.mock.freeze_clock(true);
    let mut child = env
        .std_cmd()
        .args(["sessions", "update", "--parallel", "4"])
        .args(&old)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let updates = || commands(&env.requests(), "update").len();
    let held = || env.mock.clock()["waiting"].as_u64().unwrap_or(0);
    // Four arrive together and are held; the fifth only once one of them was answered.
    wait_until("four updates in flight at once", || held() == 4);
    assert_eq!(updates(), 4, "no more than four at a time");
    env.mock.advance_clock(Duration::from_millis(300));
    wait_until("the other four in flight", || held() == 4 && updates() == 8);
    env.mock.advance_clock(Duration::from_millis(300));
    assert!(child.wait().unwrap().success());
    let mut at: Vec<u64> = commands(&env.requests(), "update")
        .iter()
        .map(|r| r.at_ms)
        .collect();
    at.sort();
    assert_eq!(at.len(), 8);
    assert_eq!(at[3], at[0], "the first four are sent at once: {at:?}");
    assert!(at[4] - at[0] >= 300, "no more than four at a time: {at:?}");
}

#[test]
fn the_client_stays_under_the_rate_limit() {
    let env = restart_delay(60_000);
    let old = linux_sessions(&env, 60, json!({}));
    env.mock
        .configure(json!({"rate_limit": {"max": 20, "per_ms": 5000}}));
    let started = Instant::now();
    let mut args = vec!["sessions", "restart", "--rate", "20/5", "--parallel", "8"];
    args.extend(old.iter().map(String::as_str));
    let out = env.run(&args);
    let took = started.elapsed();
    out.ok();
    let log = env.requests();
    assert_eq!(log.len(), 60);
    assert!(
        log.iter().all(|r| r.status == 204),
        "no 429: {:?}",
        log.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    assert_eq!(env.mock.stats()["rate_limited"], 0);
    // 60 requests at 20 per 5 s need two full windows of waiting: 10 s.
    assert!(took >= Duration::from_secs(10), "{took:?}");
    // And no more waiting than the limit asks for: a whole window's worth goes out at once,
    // then the next one once the first request has left the window.
    let mut at: Vec<u64> = log.iter().map(|r| r.at_ms).collect();
    at.sort();
    let first_window = at.iter().filter(|t| **t < at[0] + 5000).count();
    assert_eq!(first_window, 20, "twenty at once, then a wait: {at:?}");
}

#[test]
fn without_the_limiter_the_server_says_429() {
    let env = Env::new();
    env.seed(json!({"ip_policy_count": 1}));
    env.mock
        .configure(json!({"rate_limit": {"max": 3, "per_ms": 60000}}));
    for _ in 0..3 {
        env.run(&["ip-policies", "list", "--rate", "off"]).ok();
    }
    let out = run(env
        .cmd()
        .args(["ip-policies", "list", "--rate", "off", "--timeout", "3"]));
    out.code(1).says("429");
}

/// The agent versions `sessions list --agent-version COND` lists, sorted.
pub fn versions_selected(env: &Env, cond: &str) -> Vec<String> {
    let out = env.run(&["sessions", "list", "--agent-version", cond, "--json"]);
    out.ok();
    let mut got = strings_at(&out.json(), "/agent_version");
    got.sort();
    got
}

#[test]
fn agent_versions_compare_by_semver_rules() {
    let env = Env::new();
    let versions = ["3.19.2", "3.20.0-rc.1", "3.20.0", "3.20.0+build5", "3.20.1"];
    env.seed(json!({"sessions": versions
        .iter()
        .map(|v| json!({"agent_version": v}))
        .collect::<Vec<_>>()}));
    let pick = |cond: &str| versions_selected(&env, cond);
    // A pre-release is below its release.
    assert_eq!(pick(">3.20.0"), ["3.20.1"]);
    assert_eq!(pick("<3.20"), ["3.19.2", "3.20.0-rc.1"]);
    assert_eq!(pick(">=3.20.0"), ["3.20.0", "3.20.0+build5", "3.20.1"]);
    // Build metadata is ignored.
    assert_eq!(pick("=3.20.0"), ["3.20.0", "3.20.0+build5"]);
    assert_eq!(
        pick("<=3.20.0,>3.19.2"),
        ["3.20.0", "3.20.0+build5", "3.20.0-rc.1"]
    );
    // A full version names that release and its builds, not its pre-releases; a pre-release
    // is selected when the condition names one, or by comparison (above).
    assert_eq!(pick("3.20.0"), ["3.20.0", "3.20.0+build5"]);
    assert_eq!(pick("3.20"), ["3.20.0", "3.20.0+build5", "3.20.1"]);
    assert_eq!(pick("3.20.0-rc.1"), ["3.20.0-rc.1"]);
    assert_eq!(pick(">=3.20.0-rc.1,<3.20.0"), ["3.20.0-rc.1"]);
    // A condition is one to three numbers, a full one with a pre-release: a pre-release of
    // a partial version, a build or a fourth part is refused.
    for bad in [
        "3.20-rc.1",
        ">3.20.0+build5",
        "3.20.0-rc.1+build5",
        "3.20.0.1",
    ] {
        env.run(&["sessions", "list", "--agent-version", bad])
            .code(2)
            .says("--agent-version");
    }
}
