//! `tunnelctl ip-policies …` against the emulator: what was sent, what was printed.

mod common;

use common::{assert_management_headers, only_write, Env};
use serde_json::{json, Value};
use tunnelctl_mock::MockOptions;

#[test]
fn create_sends_the_fields_and_prints_the_policy() {
    let env = Env::new();
    let out = env.run(&[
        "ip-policies",
        "create",
        "--description",
        "office",
        "--metadata",
        "{\"team\":\"ops\"}",
        "--json",
    ]);
    out.ok();
    let req = only_write(&env);
    assert_eq!(req.method, "POST");
    assert_eq!(req.path, "/ip_policies");
    assert_management_headers(&req);
    assert_eq!(
        req.body_json(),
        Some(json!({"description": "office", "metadata": "{\"team\":\"ops\"}"}))
    );
    let printed = out.json();
    assert!(printed["id"].as_str().unwrap().starts_with("ipp_"));
    assert_eq!(printed["description"], "office");
    let stored = env.mock.state();
    assert_eq!(stored["ip_policies"][0], printed);
}

#[test]
fn create_without_flags_sends_an_empty_object() {
    let env = Env::new();
    env.run(&["ip-policies", "create", "--json"]).ok();
    assert_eq!(only_write(&env).body_json(), Some(json!({})));
}

#[test]
fn get_prints_the_policy_as_returned() {
    let env = Env::new();
    let ids = env.seed(json!({"ip_policy_count": 1}));
    let id = ids["ip_policies"][0].as_str().unwrap().to_string();
    env.mock.clear_requests();
    let out = env.run(&["ip-policies", "get", &id, "--json"]);
    out.ok();
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].method, "GET");
    assert_eq!(reqs[0].path, format!("/ip_policies/{id}"));
    assert_management_headers(&reqs[0]);
    assert_eq!(out.json()["id"], id);
}

#[test]
fn update_sends_only_the_flags_given() {
    let env = Env::new();
    let ids = env.seed(json!({"ip_policy_count": 1}));
    let id = ids["ip_policies"][0].as_str().unwrap().to_string();
    let out = env.run(&["ip-policies", "update", &id, "--metadata", "m2", "--json"]);
    out.ok();
    let req = only_write(&env);
    assert_eq!(req.method, "PATCH");
    assert_eq!(req.path, format!("/ip_policies/{id}"));
    assert_management_headers(&req);
    assert_eq!(req.body_json(), Some(json!({"metadata": "m2"})));
    assert_eq!(out.json()["metadata"], "m2");
    assert_eq!(
        out.json()["description"],
        "policy 1",
        "the description is kept"
    );
}

#[test]
fn update_with_nothing_to_change_is_a_usage_error() {
    let env = Env::new();
    let out = env.run(&["ip-policies", "update", "ipp_x"]);
    out.code(2);
    assert!(out.stderr.contains("--description"), "{}", out.stderr);
    assert!(env.requests().is_empty());
}

#[test]
fn delete_several_reports_each() {
    let env = Env::new();
    let ids = env.seed(json!({"ip_policy_count": 2}));
    let a = ids["ip_policies"][0].as_str().unwrap().to_string();
    let b = ids["ip_policies"][1].as_str().unwrap().to_string();
    let out = env.run(&["ip-policies", "delete", &a, &b, "--yes"]);
    out.ok();
    assert_eq!(out.stdout, "", "204 prints nothing on stdout");
    assert!(
        out.stderr.contains(&format!("Deleted IP policy {a}")),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains(&format!("Deleted IP policy {b}")));
    let writes = env.writes();
    assert_eq!(writes.len(), 2);
    for (req, id) in writes.iter().zip([&a, &b]) {
        assert_eq!(req.method, "DELETE");
        assert_eq!(req.path, format!("/ip_policies/{id}"));
        assert!(req.body.is_empty());
        assert_management_headers(req);
    }
    assert_eq!(env.mock.state()["ip_policies"], json!([]));
}

#[test]
fn delete_quiet_prints_nothing() {
    let env = Env::new();
    let ids = env.seed(json!({"ip_policy_count": 1}));
    let a = ids["ip_policies"][0].as_str().unwrap();
    let out = env.run(&["ip-policies", "delete", a, "--yes", "--quiet"]);
    out.ok();
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, "");
}

#[test]
fn delete_with_some_missing_is_a_partial_failure() {
    let env = Env::new();
    let ids = env.seed(json!({"ip_policy_count": 1}));
    let a = ids["ip_policies"][0].as_str().unwrap();
    let out = env.run(&["ip-policies", "delete", "ipp_missing", a, "--yes"]);
    out.code(5);
    assert!(out.stderr.contains("ipp_missing"));
    assert!(out.stderr.contains("404"));
    assert_eq!(env.writes().len(), 2, "the second delete still runs");
}

#[test]
fn delete_all_missing_exits_4() {
    let env = Env::new();
    env.run(&["ip-policies", "delete", "ipp_nope1", "ipp_nope2", "--yes"])
        .code(4);
}

#[test]
fn delete_without_yes_off_a_terminal_sends_nothing() {
    let env = Env::new();
    let ids = env.seed(json!({"ip_policy_count": 1}));
    let a = ids["ip_policies"][0].as_str().unwrap();
    env.mock.clear_requests();
    let out = env.run(&["ip-policies", "delete", a]);
    out.code(2);
    assert!(out.stderr.contains("--yes"), "{}", out.stderr);
    assert!(env.requests().is_empty());
}

#[test]
fn list_follows_every_page() {
    let env = Env::with(MockOptions {
        page_size: 4,
        ..Default::default()
    });
    env.seed(json!({"ip_policy_count": 10}));
    env.mock.clear_requests();
    let out = env.run(&["ip-policies", "list", "--json"]);
    out.ok();
    let items = out.json();
    assert_eq!(items.as_array().unwrap().len(), 10);
    let mut ids: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    ids.dedup();
    assert_eq!(ids.len(), 10, "no item twice");
    let gets = env.requests();
    assert_eq!(gets.len(), 3, "three pages: {gets:?}");
    assert!(gets
        .iter()
        .all(|r| r.method == "GET" && r.path == "/ip_policies"));
    assert_eq!(gets[0].query, None);
    assert!(gets[1]
        .query
        .as_deref()
        .unwrap_or("")
        .contains("before_id="));
    for r in &gets {
        assert_management_headers(r);
    }
}

#[test]
fn limit_stops_fetching_pages() {
    let env = Env::new();
    env.seed(json!({"ip_policy_count": 250}));
    env.mock.clear_requests();
    let out = env.run(&["ip-policies", "list", "--limit", "150", "-o", "ndjson"]);
    out.ok();
    assert_eq!(out.stdout.lines().count(), 150);
    assert_eq!(env.requests().len(), 2, "150 items need two pages of 100");

    env.mock.clear_requests();
    let out = env.run(&["ip-policies", "list", "--limit", "3", "--json"]);
    out.ok();
    assert_eq!(out.json().as_array().unwrap().len(), 3);
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].query.as_deref(), Some("limit=3"));
}

#[test]
fn limit_takes_only_positive_numbers() {
    let env = Env::new();
    for bad in ["0", "-1", "ten"] {
        let out = env.run(&["ip-policies", "list", "--limit", bad]);
        out.code(2);
        assert!(out.stderr.contains("--limit"), "{}", out.stderr);
    }
    assert!(env.requests().is_empty());
}

#[test]
fn empty_list_is_an_empty_array() {
    let env = Env::new();
    let out = env.run(&["ip-policies", "list", "--json"]);
    out.ok();
    assert_eq!(out.stdout.trim(), "[]");
    let out = env.run(&["ip-policies", "list"]);
    out.ok();
    assert_eq!(out.stdout, "");
}

#[test]
fn unknown_fields_reach_json_output_unchanged() {
    let env = Env::with(MockOptions {
        extra_fields: true,
        ..Default::default()
    });
    let ids = env.seed(json!({"ip_policy_count": 2}));
    let id = ids["ip_policies"][0].as_str().unwrap();
    let one = env.run(&["ip-policies", "get", id, "--json"]);
    one.ok();
    assert_eq!(
        one.json()["x_future_field"],
        json!({"added": "later", "n": [1, 2]})
    );
    let all = env.run(&["ip-policies", "list", "--json"]);
    all.ok();
    for item in all.json().as_array().unwrap() {
        assert_eq!(
            item["x_future_field"],
            json!({"added": "later", "n": [1, 2]})
        );
    }
}

#[test]
fn tsv_off_a_terminal_and_a_table_on_one() {
    let env = Env::new();
    let ids = env.seed(json!({"ip_policy_count": 2}));
    let out = env.run(&["ip-policies", "list"]);
    out.ok();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "no header in TSV: {}", out.stdout);
    let fields: Vec<&str> = lines[0].split('\t').collect();
    assert_eq!(fields.len(), 4);
    assert!(ids["ip_policies"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i == fields[0]));
    assert!(
        fields[3].ends_with('Z') && fields[3].contains('T'),
        "RFC 3339 time: {}",
        fields[3]
    );

    let table = common::run(
        env.cmd()
            .env("TUNNELCTL_FORCE_TTY", "1")
            .args(["ip-policies", "list"]),
    );
    table.ok();
    let header = table.stdout.lines().next().unwrap();
    for col in ["ID", "DESCRIPTION", "METADATA", "CREATED"] {
        assert!(header.contains(col), "{header}");
    }
    assert!(
        table.stdout.contains("ago") || table.stdout.contains("just now"),
        "{}",
        table.stdout
    );
}

#[test]
fn validation_names_the_flag_and_sends_nothing() {
    let env = Env::new();
    let long_desc = "d".repeat(256);
    let long_meta = "m".repeat(4097);
    let multibyte = "é".repeat(128); // 256 bytes in 128 characters
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["ip-policies", "create", "--description", &long_desc],
            "--description",
        ),
        (
            vec!["ip-policies", "create", "--description", &multibyte],
            "--description",
        ),
        (
            vec!["ip-policies", "create", "--metadata", &long_meta],
            "--metadata",
        ),
        (
            vec![
                "ip-policies",
                "update",
                "ipp_1",
                "--description",
                &long_desc,
            ],
            "--description",
        ),
        (
            vec!["ip-policies", "update", "ipp_1", "--metadata", &long_meta],
            "--metadata",
        ),
    ];
    for (args, flag) in cases {
        let out = env.run(&args);
        out.code(2);
        assert!(out.stderr.contains(flag), "{flag}: {}", out.stderr);
    }
    assert!(env.requests().is_empty());
    // At the limit is fine.
    env.run(&[
        "ip-policies",
        "create",
        "--description",
        &"d".repeat(255),
        "--metadata",
        &"m".repeat(4096),
    ])
    .ok();
}

#[test]
fn a_path_like_id_stays_one_segment() {
    let env = Env::new();
    let out = env.run(&["ip-policies", "get", "../tunnel_sessions"]);
    out.code(4);
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].path, "/ip_policies/..%2Ftunnel_sessions");
    let out = env.run(&["ip-policies", "get", ".."]);
    out.code(2);
    assert_eq!(env.requests().len(), 1, "'..' is refused before sending");
}

#[test]
fn not_found_exits_4_with_the_status() {
    let env = Env::new();
    let out = env.run(&["ip-policies", "get", "ipp_nothere"]);
    out.code(4);
    assert!(out.stderr.contains("404"), "{}", out.stderr);
    assert!(
        out.stderr.contains("GET /ip_policies/ipp_nothere"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "");
}

#[test]
fn jq_filters_in_process() {
    let env = Env::new();
    let ids = env.seed(json!({"ip_policy_count": 3}));
    let out = env.run(&["ip-policies", "list", "--jq", ".[] | .id"]);
    out.ok();
    let mut printed: Vec<&str> = out.stdout.lines().collect();
    let mut expected: Vec<&str> = ids["ip_policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    printed.sort();
    expected.sort();
    assert_eq!(printed, expected, "raw strings, one per line");
    let out = env.run(&["ip-policies", "list", "--jq", ".[] | "]);
    out.code(2);
    assert!(out.stderr.contains("--jq"), "{}", out.stderr);
}

#[test]
fn ndjson_prints_one_object_per_line() {
    let env = Env::new();
    env.seed(json!({"ip_policy_count": 3}));
    let out = env.run(&["ip-policies", "list", "-o", "ndjson"]);
    out.ok();
    let lines: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    let out = env.run(&["ip-policies", "list", "-o", "yaml"]);
    out.code(2);
    assert!(out.stderr.contains("--output"), "{}", out.stderr);
}
