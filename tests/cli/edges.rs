//! `tunnelctl edges tls-termination …` against the emulator: what was sent, what was printed.

use crate::common::{assert_management_headers, assert_write, only_write, Env};
use serde_json::{json, Value};
use tunnelctl_mock::MockOptions;

/// The command words of this module.
const CMD: &[&str] = &["edges", "tls-termination"];

/// The module the emulator holds for this edge (null when none).
fn stored_module(env: &Env, id: &str) -> Value {
    let state = env.mock.state();
    state["tls_edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
        .unwrap_or_else(|| panic!("edge {id} in {state}"))["tls_termination"]
        .clone()
}

fn tls_path(id: &str) -> String {
    format!("/edges/tls/{id}/tls_termination")
}

/// A module that terminates at the edge with TLS 1.2 at least.
fn edge_1_2() -> Value {
    json!({"enabled": true, "terminate_at": "edge", "min_version": "1.2"})
}

#[test]
fn get_prints_the_module_as_returned() {
    let env = Env::new();
    let id = env.seed_tls_edge(edge_1_2());
    let out = env.run_in(CMD, &["get", &id, "--json"]);
    out.ok();
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].method, "GET");
    assert_eq!(reqs[0].path, tls_path(&id));
    assert_eq!(reqs[0].query, None);
    assert!(reqs[0].body.is_empty());
    assert_management_headers(&reqs[0]);
    assert_eq!(
        out.json(),
        json!({"enabled": true, "terminate_at": "edge", "min_version": "1.2"})
    );
    assert_eq!(out.json(), stored_module(&env, &id));
}

#[test]
fn get_tsv_off_a_terminal_and_a_table_on_one() {
    let env = Env::new();
    let id =
        env.seed_tls_edge(json!({"enabled": false, "terminate_at": "edge", "min_version": "1.3"}));
    let out = env.run_in(CMD, &["get", &id]);
    out.ok();
    assert_eq!(out.stdout, "false\tedge\t1.3\n", "one TSV row, no header");

    let up = env
        .seed_tls_edge(json!({"enabled": true, "terminate_at": "upstream", "min_version": null}));
    let out = env.run_in(CMD, &["get", &up]);
    out.ok();
    assert_eq!(
        out.stdout, "true\tupstream\t\n",
        "a null version is an empty cell"
    );

    let table = env.run_tty(&["edges", "tls-termination", "get", &id]);
    table.ok();
    for (header, value) in [
        ("ENABLED", "false"),
        ("TERMINATE AT", "edge"),
        ("MIN VERSION", "1.3"),
    ] {
        let line = table
            .stdout
            .lines()
            .find(|l| l.contains(header))
            .unwrap_or_else(|| panic!("no {header} row:\n{}", table.stdout));
        assert!(line.contains(value), "{header}: {line}");
    }
}

#[test]
fn unknown_fields_reach_json_output_unchanged() {
    let env = Env::with(MockOptions {
        extra_fields: true,
        ..Default::default()
    });
    let id = env.seed_tls_edge(json!({"terminate_at": "edge"}));
    let out = env.run_in(CMD, &["get", &id, "--json"]);
    out.ok();
    assert_eq!(
        out.json()["x_future_field"],
        json!({"added": "later", "n": [1, 2]})
    );
    let out = env.run_in(CMD, &["set", &id, "--enabled", "false", "--json"]);
    out.ok();
    assert_eq!(
        out.json()["x_future_field"],
        json!({"added": "later", "n": [1, 2]})
    );
}

#[test]
fn get_of_an_edge_without_a_module_exits_4() {
    let env = Env::new();
    let id = env.seed_tls_edge(Value::Null);
    let out = env.run_in(CMD, &["get", &id]);
    out.code(4)
        .says("404")
        .says(&format!("GET {}", tls_path(&id)));
    assert_eq!(out.stdout, "");
    assert_eq!(env.requests().len(), 1);
}

#[test]
fn get_of_an_unknown_edge_exits_4() {
    let env = Env::new();
    let out = env.run_in(CMD, &["get", "edgtls_nothere"]);
    out.code(4).says("404").says("edgtls_nothere");
    assert_eq!(out.stdout, "");
}

#[test]
fn set_sends_every_flag_given_and_prints_the_module() {
    let env = Env::new();
    let id = env.seed_tls_edge(Value::Null);
    let out = env.run_words(
        CMD,
        &format!("set {id} --terminate-at edge --min-version 1.2 --enabled false --json"),
    );
    out.ok();
    assert_write(
        &env,
        "PUT",
        &tls_path(&id),
        json!({"enabled": false, "terminate_at": "edge", "min_version": "1.2"}),
    );
    assert_eq!(
        out.json(),
        json!({"enabled": false, "terminate_at": "edge", "min_version": "1.2"})
    );
    assert_eq!(stored_module(&env, &id), out.json());
}

#[test]
fn set_upstream_sends_a_null_min_version() {
    let env = Env::new();
    let id =
        env.seed_tls_edge(json!({"enabled": true, "terminate_at": "edge", "min_version": "1.3"}));
    let out = env.run_in(CMD, &["set", &id, "--terminate-at", "upstream", "--json"]);
    out.ok();
    let req = assert_write(
        &env,
        "PUT",
        &tls_path(&id),
        json!({"terminate_at": "upstream", "min_version": null}),
    );
    let raw = String::from_utf8(req.body.clone()).unwrap();
    assert!(
        raw.contains("\"min_version\":null"),
        "an explicit null: {raw}"
    );
    assert_eq!(out.json()["terminate_at"], "upstream");
    assert_eq!(out.json()["min_version"], Value::Null);
    assert_eq!(stored_module(&env, &id), out.json());
}

#[test]
fn set_sends_only_the_flags_given() {
    let env = Env::new();
    let id = env.seed_tls_edge(Value::Null);
    for (args, body) in [
        (vec!["--enabled", "true"], json!({"enabled": true})),
        (vec!["--enabled", "false"], json!({"enabled": false})),
        (vec!["--min-version", "1.3"], json!({"min_version": "1.3"})),
        (
            vec!["--terminate-at", "edge"],
            json!({"terminate_at": "edge"}),
        ),
    ] {
        env.mock.clear_requests();
        let mut full = vec!["edges", "tls-termination", "set", id.as_str()];
        full.extend(args.iter().copied());
        let out = env.run(&full);
        out.ok();
        let req = only_write(&env);
        assert_eq!(req.method, "PUT");
        assert_management_headers(&req);
        assert_eq!(req.body_json(), Some(body.clone()), "{args:?}");
        // TSV of what the emulator answered.
        let stored = stored_module(&env, &id);
        let expected = format!(
            "{}\t{}\t{}\n",
            stored["enabled"],
            stored["terminate_at"].as_str().unwrap(),
            stored["min_version"].as_str().unwrap_or("")
        );
        assert_eq!(out.stdout, expected, "{args:?}");
    }
}

#[test]
fn set_with_no_flags_is_a_usage_error() {
    let env = Env::new();
    let id = env.seed_tls_edge(Value::Null);
    let out = env.run_in(CMD, &["set", &id]);
    out.code(2)
        .says_all(&["--terminate-at", "--min-version", "--enabled"]);
    assert_eq!(out.stdout, "");
    assert!(env.requests().is_empty());
}

#[test]
fn min_version_with_upstream_is_refused_before_sending() {
    let env = Env::new();
    let id = env.seed_tls_edge(Value::Null);
    let out = env.run_words(
        CMD,
        &format!("set {id} --terminate-at upstream --min-version 1.2"),
    );
    out.code(2).says("--min-version").says("upstream");
    assert_eq!(out.stdout, "");
    assert!(env.requests().is_empty());
    assert_eq!(stored_module(&env, &id), Value::Null);
}

#[test]
fn set_refuses_bad_or_missing_values() {
    let env = Env::new();
    for (flag, bads) in [
        ("--terminate-at", &["middle", "EDGE", ""][..]),
        ("--enabled", &["yes", "1", "TRUE", ""]),
    ] {
        for bad in bads {
            let out = env.run_in(CMD, &["set", "edgtls_x", flag, bad]);
            out.code(2).says(flag);
        }
    }
    for flag in ["--enabled", "--min-version"] {
        let out = env.run_in(CMD, &["set", "edgtls_x", flag]);
        out.code(2).says(flag);
    }
    assert!(env.requests().is_empty());
}

#[test]
fn an_empty_min_version_is_refused_before_sending() {
    // Whatever versions the server allows, an empty one is never a TLS version.
    let env = Env::new();
    let id = env.seed_tls_edge(Value::Null);
    for value in ["", " "] {
        env.run_in(CMD, &["set", &id, "--min-version", value])
            .code(2)
            .says("--min-version");
    }
    assert!(env.requests().is_empty(), "{:?}", env.requests());
    assert_eq!(stored_module(&env, &id), Value::Null);
}

#[test]
fn a_version_the_service_does_not_take_is_refused_before_sending() {
    // The API reference does not list the allowed versions; the emulator's list (1.0 to 1.3)
    // is the reference, checked here as the account files are (issue 41).
    let env = Env::new();
    let id = env.seed_tls_edge(Value::Null);
    let out = env.run_in(CMD, &["set", &id, "--min-version", "1.5"]);
    out.code(2)
        .says("--min-version")
        .says("'1.5'")
        .says("1.0, 1.1, 1.2, 1.3");
    assert_eq!(out.stdout, "");
    assert!(env.requests().is_empty(), "{:?}", env.requests());
    assert_eq!(stored_module(&env, &id), Value::Null);
    env.run_in(CMD, &["set", &id, "--min-version", "1.3"]).ok();
}

#[test]
fn set_on_an_unknown_edge_exits_4() {
    let env = Env::new();
    let out = env.run_in(CMD, &["set", "edgtls_nothere", "--enabled", "true"]);
    out.code(4)
        .says("404")
        .says("PUT /edges/tls/edgtls_nothere/tls_termination");
    assert_eq!(only_write(&env).method, "PUT");
}

#[test]
fn delete_removes_the_module() {
    let env = Env::new();
    let id = env.seed_tls_edge(edge_1_2());
    let out = env.run_in(CMD, &["delete", &id, "--yes"]);
    out.ok();
    assert_eq!(out.stdout, "", "204 prints nothing on stdout");
    out.says(&id).says("Removed");
    let req = only_write(&env);
    assert_eq!(req.method, "DELETE");
    assert_eq!(req.path, tls_path(&id));
    assert_eq!(req.query, None);
    assert!(req.body.is_empty());
    assert_management_headers(&req);
    assert_eq!(stored_module(&env, &id), Value::Null);
}

#[test]
fn delete_quiet_prints_nothing() {
    let env = Env::new();
    let id = env.seed_tls_edge(json!({"terminate_at": "upstream"}));
    let out = env.run_in(CMD, &["delete", &id, "--yes", "--quiet"]);
    out.ok();
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, "");
    assert_eq!(stored_module(&env, &id), Value::Null);
}

#[test]
fn delete_without_yes_off_a_terminal_sends_nothing() {
    let env = Env::new();
    let id = env.seed_tls_edge(json!({"terminate_at": "edge"}));
    let out = env.run_in(CMD, &["delete", &id]);
    out.code(2).says("--yes");
    assert_eq!(out.stdout, "");
    assert!(env.requests().is_empty());
    assert_eq!(stored_module(&env, &id)["terminate_at"], "edge");
}

#[test]
fn delete_of_a_missing_module_exits_4() {
    let env = Env::new();
    let id = env.seed_tls_edge(Value::Null);
    let out = env.run_in(CMD, &["delete", &id, "--yes"]);
    out.code(4)
        .says("404")
        .says(&format!("DELETE {}", tls_path(&id)));
    assert!(!out.stderr.contains("Removed"), "{}", out.stderr);
    assert_eq!(only_write(&env).method, "DELETE");
}

#[test]
fn delete_takes_exactly_one_edge() {
    let env = Env::new();
    let out = env.run_in(CMD, &["delete", "--yes"]);
    out.code(2).says("EDGE_ID");
    let out = env.run_in(CMD, &["delete", "edgtls_a", "edgtls_b", "--yes"]);
    out.code(2);
    assert!(env.requests().is_empty());
}

#[test]
fn a_path_like_edge_id_stays_one_segment() {
    let env = Env::new();
    let out = env.run_in(CMD, &["get", "../../ip_policies"]);
    out.code(4);
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(
        reqs[0].path,
        "/edges/tls/..%2F..%2Fip_policies/tls_termination"
    );
    let out = env.run_in(CMD, &["get", ".."]);
    out.code(2);
    assert_eq!(env.requests().len(), 1, "'..' is refused before sending");
}

#[test]
fn jq_filters_the_module() {
    let env = Env::new();
    let id =
        env.seed_tls_edge(json!({"enabled": true, "terminate_at": "edge", "min_version": "1.1"}));
    let out = env.run_in(CMD, &["get", &id, "--jq", ".min_version"]);
    out.ok();
    assert_eq!(out.stdout, "1.1\n", "a string prints raw");
}

#[test]
fn verbose_traces_the_put_without_the_key() {
    let env = Env::new();
    let id = env.seed_tls_edge(Value::Null);
    let out = env.run_words(
        CMD,
        &format!("set {id} --terminate-at upstream --verbose --json"),
    );
    out.ok()
        .says(&format!("PUT {}", env.mock.url()))
        .says("(redacted)")
        .says("\"min_version\":null");
    assert_eq!(out.json()["terminate_at"], "upstream");
}
