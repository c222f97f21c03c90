//! `tunnelctl sessions …` against the emulator: what was sent, what was printed, and the
//! API reference's rules for the agent commands (restart, stop, update).

use std::time::Duration;

use crate::common::{assert_management_headers, only_write, Env};
use serde_json::json;
use tunnelctl_mock::{MockOptions, RecordedRequest};

/// The command words of this module.
const CMD: &[&str] = &["sessions"];

/// Asserts that `req` is the agent command `command` for session `id`, with `{}` as body.
#[track_caller]
fn assert_command(req: &RecordedRequest, id: &str, command: &str) {
    assert_eq!(req.method, "POST");
    assert_eq!(req.path, format!("/tunnel_sessions/{id}/{command}"));
    assert_eq!(req.query, None);
    assert_eq!(
        String::from_utf8_lossy(&req.body),
        "{}",
        "the body is exactly an empty JSON object"
    );
    assert_management_headers(req);
}

/// Asserts one `command` request for each session, whatever the order (sessions are
/// commanded in parallel).
#[track_caller]
fn assert_commanded(env: &Env, ids: &[String], command: &str) {
    let writes = env.writes();
    assert_eq!(writes.len(), ids.len(), "{writes:?}");
    for id in ids {
        let req = writes
            .iter()
            .find(|r| r.path.contains(id.as_str()))
            .unwrap_or_else(|| panic!("no request for {id}"));
        assert_command(req, id, command);
    }
}

fn env_with_restart_delay(ms: u64) -> Env {
    Env::with(MockOptions {
        restart_delay_ms: ms,
        ..Default::default()
    })
}

#[test]
fn get_shows_an_empty_metadata_cell_and_every_field_in_detail() {
    // What `get` sends and prints as JSON is the CRUD contract's (crud_contract.rs).
    let env = Env::new();
    let ids = env.seed_sessions(
        json!([{"region": "eu", "os": "linux", "metadata": "m1", "ip": "192.0.2.77"}, {}]),
    );
    let id = &ids[0];

    // A session without metadata has no metadata field; TSV shows an empty cell.
    let other = &ids[1];
    let out = env.run_in(CMD, &["get", other, "--json"]);
    out.ok();
    assert!(out.json().get("metadata").is_none(), "{}", out.stdout);
    let out = env.run_in(CMD, &["get", other]);
    out.ok();
    let fields: Vec<&str> = out.stdout.trim_end_matches('\n').split('\t').collect();
    assert_eq!(fields.len(), 8, "{}", out.stdout);
    assert_eq!(fields[0], other);
    assert_eq!(fields[7], "");

    // The detail view shows every field, those without a column too.
    let table = env.run_tty(&["sessions", "get", id]);
    table.ok();
    let s = env.stored("tunnel_sessions", id).unwrap();
    table.shows_rows(&[
        ("ID", s["id"].as_str().unwrap()),
        ("REGION", "eu"),
        ("IP", "192.0.2.77"),
        ("CREDENTIAL", s["credential"]["id"].as_str().unwrap()),
        ("TRANSPORT", "service/v2"),
    ]);
}

#[test]
fn ids_are_required_and_stay_one_segment() {
    let env = Env::new();
    // `get` and `stop` are tried by the CRUD contract.
    for args in [
        &["sessions", "restart"][..],
        &["sessions", "update"],
        &["sessions", "restart", ".."],
        &["sessions", "update", ""],
    ] {
        let out = env.run(args);
        out.code(2);
        assert_ne!(out.stderr, "", "{args:?}");
    }
    assert!(env.requests().is_empty());

    let out = env.run_in(CMD, &["restart", "../ip_policies"]);
    out.code(4);
    let req = only_write(&env);
    assert_eq!(req.path, "/tunnel_sessions/..%2Fip_policies/restart");
}

#[test]
fn restart_comes_back_with_a_new_id_after_the_delay() {
    let delay = Duration::from_millis(400);
    let env = env_with_restart_delay(delay.as_millis() as u64);
    let ids = env.seed_sessions(json!([{"region": "eu", "os": "linux", "ip": "192.0.2.9", "metadata": "{\"host\":\"web-1\"}",
                "credential_id": "cr_2abcdefghijklmnopqrstuvwxyz", "agent_version": "3.19.1"}]));
    let id = &ids[0];
    let before = env.stored("tunnel_sessions", id).unwrap();

    // The delay runs on the emulator's clock, which stands still until the test moves it.
    env.mock.freeze_clock(true);
    let out = env.run_in(CMD, &["restart", id]);
    out.ok();
    let state = env.mock.state();
    assert_eq!(state["tunnel_sessions"], json!([]), "gone at once");
    assert_eq!(state["pending_restarts"], 1);
    assert_eq!(out.stdout, "", "204 prints nothing on stdout");
    out.says(&format!("Restart sent to {id}"));
    assert_command(&only_write(&env), id, "restart");
    assert_eq!(env.requests().len(), 1);
    env.run_in(CMD, &["get", id]).code(4);

    let listed = || {
        let out = env.run_in(CMD, &["list", "--json"]);
        out.ok();
        out.json().as_array().unwrap().first().cloned()
    };
    env.mock.advance_clock(delay - Duration::from_millis(1));
    assert_eq!(listed(), None, "not before the delay");
    env.mock.advance_clock(Duration::from_millis(1));
    let after = listed().expect("the session came back after the delay");
    let new_id = after["id"].as_str().unwrap();
    assert_ne!(new_id, id.as_str());
    assert!(new_id.starts_with("ts_"), "{new_id}");
    for k in [
        "credential",
        "ip",
        "os",
        "region",
        "metadata",
        "agent_version",
    ] {
        assert_eq!(after[k], before[k], "{k} is kept");
    }
    assert!(after["started_at"].as_str().unwrap() >= before["started_at"].as_str().unwrap());
    let out = env.run_in(CMD, &["get", new_id, "--json"]);
    out.ok();
    assert_eq!(out.json(), after);
}

#[test]
fn restart_after_a_finished_update_runs_the_new_version() {
    let env = env_with_restart_delay(0);
    let ids = env.seed_sessions(
        json!([{"agent_version": "3.19.1", "update_available": "3.19.7", "os": "darwin"}]),
    );
    let id = &ids[0];
    let out = env.run_in(CMD, &["update", id]);
    out.ok();
    assert_eq!(out.stdout, "");
    out.says(&format!("Update sent to {id}"));
    assert_command(&only_write(&env), id, "update");
    env.run_in(CMD, &["restart", id]).ok();
    let writes = env.writes();
    assert_eq!(writes.len(), 2);
    assert_command(&writes[1], id, "restart");
    let out = env.run_in(CMD, &["list", "--json"]);
    out.ok();
    let list = out.json();
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    assert_ne!(list[0]["id"], id.as_str());
    assert_eq!(list[0]["agent_version"], "3.19.7");
    assert_eq!(list[0]["os"], "darwin");
}

#[test]
fn restart_on_windows_is_refused_with_the_service_message() {
    let env = env_with_restart_delay(0);
    let ids = env.seed_sessions(json!([{"os": "windows"}]));
    let id = &ids[0];
    let out = env.run_in(CMD, &["restart", id]);
    out.code(1);
    assert_eq!(out.stdout, "");
    out.says_all(&[
        "restart is not supported on Windows",
        "400",
        &format!("POST /tunnel_sessions/{id}/restart"),
    ]);
    assert!(!out.stderr.contains("Restart sent to"), "{}", out.stderr);
    assert_command(&only_write(&env), id, "restart");
    assert!(
        env.stored("tunnel_sessions", id).is_some(),
        "the session stays"
    );
    assert_eq!(env.mock.state()["pending_restarts"], 0);
}

#[test]
fn restart_several_reports_each_and_windows_makes_it_partial() {
    let env = env_with_restart_delay(0);
    let ids = env.seed_sessions(json!([{"os": "linux"}, {"os": "Windows"}, {"os": "darwin"}]));
    let out = env.run_in(CMD, &["restart", &ids[0], &ids[1], &ids[2]]);
    out.code(5);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains(&format!("Restart sent to {}", ids[0])));
    assert!(out.stderr.contains(&format!("Restart sent to {}", ids[2])));
    assert!(!out.stderr.contains(&format!("Restart sent to {}", ids[1])));
    let line = out
        .stderr
        .lines()
        .find(|l| l.contains(ids[1].as_str()))
        .unwrap_or_else(|| panic!("the failure names {}: {}", ids[1], out.stderr));
    assert!(
        line.contains("restart is not supported on Windows"),
        "{}",
        out.stderr
    );
    let writes = env.writes();
    assert_eq!(writes.len(), 3, "every ID is tried");
    // Sessions are commanded in parallel: match each request to its session, whatever the order.
    for id in &ids {
        let req = writes
            .iter()
            .find(|r| r.path.contains(id.as_str()))
            .unwrap_or_else(|| panic!("no request for {id}"));
        assert_command(req, id, "restart");
    }
    let state = env.mock.state();
    let now: Vec<&str> = state["tunnel_sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(now.len(), 3, "two came back, the Windows one stayed");
    assert!(now.contains(&ids[1].as_str()));
    assert!(!now.contains(&ids[0].as_str()));
    assert!(!now.contains(&ids[2].as_str()));
}

#[test]
fn restart_with_every_id_refused_exits_1() {
    let env = Env::new();
    let ids = env.seed_sessions(json!([{"os": "windows"}, {"os": "windows"}]));
    let out = env.run_in(CMD, &["restart", &ids[0], &ids[1]]);
    out.code(1);
    for id in &ids {
        assert!(
            out.stderr
                .lines()
                .any(|l| l.contains(id.as_str()) && l.contains("not supported on Windows")),
            "{id}: {}",
            out.stderr
        );
    }
    assert_eq!(env.writes().len(), 2);
}

#[test]
fn commands_on_a_missing_session_exit_4() {
    let env = Env::new();
    // `stop` of a missing session is the CRUD contract's (crud_contract.rs).
    for cmd in ["restart", "update"] {
        env.mock.clear_requests();
        let out = env.run(&["sessions", cmd, "ts_missing"]);
        out.code(4);
        assert!(out.stderr.contains("404"), "{cmd}: {}", out.stderr);
        assert!(
            out.stderr
                .contains(&format!("POST /tunnel_sessions/ts_missing/{cmd}")),
            "{cmd}: {}",
            out.stderr
        );
        assert_command(&only_write(&env), "ts_missing", cmd);
    }
}

#[test]
fn a_stopped_session_does_not_come_back() {
    // What `stop` sends, says and removes is the CRUD contract's (crud_contract.rs).
    let env = Env::new();
    let ids = env.seed_sessions(json!([{}, {}]));
    env.run_in(CMD, &["stop", &ids[0], "--yes"]).ok();
    assert_eq!(
        env.mock.state()["pending_restarts"],
        0,
        "and do not come back"
    );
    env.run_in(CMD, &["get", &ids[0]]).code(4);
}

#[test]
fn update_refusals_show_the_reason_and_exit_1() {
    let env = Env::new();
    let ids = env.seed_sessions(json!([
        {"update_available": null},
        {"update_checks_disabled": true},
        {"updating": true},
        {},
        {"update_duration_ms": 600000}
    ]));
    // The last two get a first update that succeeds.
    for id in &ids[3..] {
        env.run_in(CMD, &["update", id]).ok();
    }
    // ids[0] has no update available: already up to date, not a failure (below).
    let cases = [
        (
            &ids[1],
            "update checks are disabled in the agent configuration",
            "update_checks_disabled",
        ),
        (&ids[2], "the agent is already updating", "updating"),
        (
            &ids[3],
            "the agent already updated and has not restarted yet",
            "updated_not_restarted",
        ),
        (&ids[4], "the agent is already updating", "updating"),
    ];
    for (id, msg, reason) in cases {
        env.mock.clear_requests();
        let out = env.run_in(CMD, &["update", id]);
        out.code(1);
        assert_eq!(out.stdout, "");
        out.says_all(&[
            msg,
            reason,
            "400",
            &format!("POST /tunnel_sessions/{id}/update"),
        ]);
        assert!(!out.stderr.contains("Update sent to"), "{}", out.stderr);
        assert_command(&only_write(&env), id, "update");
    }
}

#[test]
fn update_mixed_with_successes_exits_5() {
    let env = Env::new();
    let ids = env
        .seed_sessions(json!([{}, {"update_checks_disabled": true}, {"agent_version": "3.18.4"}]));
    let out = env.run_in(CMD, &["update", &ids[0], &ids[1], &ids[2]]);
    out.code(5);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains(&format!("Update sent to {}", ids[0])));
    assert!(out.stderr.contains(&format!("Update sent to {}", ids[2])));
    assert!(
        out.stderr.lines().any(|l| l.contains(ids[1].as_str())
            && l.contains("update checks are disabled in the agent configuration")),
        "{}",
        out.stderr
    );
    assert_commanded(&env, &ids, "update");
    // The two that succeeded are now "updated, not restarted": a second round is refused.
    let out = env.run_in(CMD, &["update", &ids[0], &ids[2]]);
    out.code(1);
    assert_eq!(
        out.stderr
            .matches("the agent already updated and has not restarted yet")
            .count(),
        2,
        "{}",
        out.stderr
    );
}

#[test]
fn update_all_fine_reports_each() {
    let env = Env::new();
    let ids = env.seed_sessions(json!([{}, {}]));
    let out = env.run_in(CMD, &["update", &ids[0], &ids[1]]);
    out.ok();
    assert_eq!(out.stdout, "");
    for id in &ids {
        out.says(&format!("Update sent to {id}"));
    }
    assert_commanded(&env, &ids, "update");
    let out = env.run_in(CMD, &["restart", &ids[0], &ids[1], "-q"]);
    out.ok();
    assert_eq!(out.stderr, "", "--quiet");
}

/// An agent already on the newest version is its own outcome: said once, not a failure.
#[test]
fn update_of_an_agent_already_up_to_date_is_not_a_failure() {
    let env = Env::new();
    let ids = env.seed_sessions(json!([{"update_available": null}, {}]));
    let out = env.run_in(CMD, &["update", &ids[0], &ids[1]]);
    out.ok();
    assert_eq!(out.stdout, "");
    out.says(&format!("{}: already up to date", ids[0]))
        .says(&format!("Update sent to {}", ids[1]));
    assert!(!out.stderr.contains("error"), "{}", out.stderr);
    assert_eq!(
        out.stderr.matches("up to date").count(),
        1,
        "{}",
        out.stderr
    );
    assert_commanded(&env, &ids, "update");
    // Alone too, and in the results as "up-to-date".
    let out = env.run_in(CMD, &["update", &ids[0], "--json"]);
    out.ok();
    assert_eq!(out.json(), json!([{"id": ids[0], "outcome": "up-to-date"}]));
    // Beside a real refusal, only the refusal counts as failed.
    let refused = env.seed_sessions(json!([{"update_checks_disabled": true}]));
    let out = env.run_in(CMD, &["update", &ids[0], &refused[0]]);
    out.code(5).says("1 of 2 operations failed");
}

/// On an 80x24 terminal the summary is said once: the view's line, and no `error:` line
/// repeating its count.
#[test]
fn at_80x24_an_update_summary_is_printed_once() {
    let env = Env::new();
    let ids = env.seed_sessions(json!([
        {"update_available": null},
        {},
        {"update_checks_disabled": true}
    ]));
    let mut term = env.pty(&["sessions", "update", &ids[0], &ids[1]], 24, 80);
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    let screen = term.screen();
    assert_eq!(
        screen.matches("1 of 2 done, 1 already up to date.").count(),
        1,
        "{screen}"
    );
    assert!(!screen.contains("error"), "{screen}");
    term.assert_restored();
    env.mock.clear_requests();
    let mut term = env.pty(&["sessions", "update", &ids[0], &ids[2]], 24, 80);
    assert_eq!(term.wait_exit(), 5, "{}", term.screen());
    let screen = term.screen();
    assert!(
        screen.contains("0 of 2 done, 1 already up to date, 1 failed."),
        "{screen}"
    );
    assert!(
        screen.contains("update checks are disabled in the agent configuration"),
        "{screen}"
    );
    assert!(!screen.contains("operations failed"), "{screen}");
}
