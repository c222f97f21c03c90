//! What decides a table's columns at 80 columns: the columns that tell rows apart are kept
//! before those that do not, and `-o wide` (kubectl's) keeps every column whatever the width.

use serde_json::json;

use crate::common::Env;

/// The headers of a table's first line.
fn headers(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .next()
        .unwrap_or_default()
        .split("  ")
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .collect()
}

/// A Kinesis and a CloudWatch Logs destination, both `json` and without metadata.
fn two_destinations(env: &Env) -> Vec<String> {
    let role = json!({"role": {"role_arn": "arn:aws:iam::123456789012:role/events"}});
    env.seed_ids(
        "event_destinations",
        json!({"event_destinations": [
            {"description": "audit", "target": {"kinesis": {
                "auth": role, "stream_arn": "arn:aws:kinesis:us-east-1:123456789012:stream/audit"}}},
            {"description": "security logs", "target": {"cloudwatch_logs": {
                "auth": role, "log_group_arn": "arn:aws:logs:eu-west-1:123456789012:log-group:/sec"}}},
        ]}),
    )
}

#[test]
fn at_80_columns_destinations_are_told_apart_by_their_target_type_not_their_format() {
    let env = Env::new();
    let ids = two_destinations(&env);
    let out = env.run_terminal(80, &["event-destinations", "list"]);
    out.ok();
    // The ARNs are too long for 80 columns beside the IDs (and are never cut); the kind of
    // target is not, and is kept before the format every destination shares.
    let shown = headers(&out.stdout);
    assert!(shown.contains(&"TYPE"), "{}", out.stdout);
    for (id, kind) in ids.iter().zip(["kinesis", "cloudwatch_logs"]) {
        let row = out
            .stdout
            .lines()
            .find(|l| l.starts_with(id.as_str()))
            .unwrap_or_else(|| panic!("{id}: {}", out.stdout));
        assert!(row.contains(&format!("  {kind}  ")), "{row}");
    }
    assert!(out.stdout.lines().all(|l| l.chars().count() <= 80));
    assert!(out.stderr.contains("TARGET"), "{}", out.stderr);
    assert!(!out.stderr.contains("TYPE"), "{}", out.stderr);
}

#[test]
fn wide_output_shows_every_column_at_80_columns_and_names_none_as_left_out() {
    let env = Env::new();
    two_destinations(&env);
    let out = env.run_terminal(80, &["event-destinations", "list", "-o", "wide"]);
    out.ok();
    assert_eq!(
        headers(&out.stdout),
        [
            "ID",
            "DESCRIPTION",
            "TYPE",
            "TARGET",
            "TARGET NAME",
            "AUTH",
            "METADATA",
            "CREATED",
            "FORMAT"
        ],
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("arn:aws:logs:eu-west-1:123456789012:log-group:/sec"),
        "{}",
        out.stdout
    );
    assert_eq!(out.stdout.lines().count(), 3, "one line per row");
    assert!(!out.stdout.contains('…'), "{}", out.stdout);
    assert_eq!(out.stderr, "");

    env.seed_session_count(2);
    let sessions = env.run_terminal(80, &["sessions", "list", "--output", "wide"]);
    sessions.ok();
    assert_eq!(
        headers(&sessions.stdout),
        [
            "ID",
            "REGION",
            "OS",
            "AGENT VERSION",
            "IP",
            "STARTED",
            "CREDENTIAL",
            "METADATA",
            "TRANSPORT"
        ],
        "{}",
        sessions.stdout
    );
    assert_eq!(sessions.stderr, "");
}

#[test]
fn wide_is_every_column_of_each_resource() {
    let env = Env::new();
    env.seed_session_count(1);
    let sessions = env.run_terminal(80, &["sessions", "list", "-o", "wide"]);
    sessions.ok();
    let row = sessions.stdout.lines().nth(1).unwrap_or_default();
    assert!(
        row.contains("cr_") && row.contains("service/v2"),
        "the credential and the transport are shown: {}",
        sessions.stdout
    );
    // Every field of the TSV row is in the wide table too, for every resource listed here.
    env.seed_ip_policies(1);
    env.seed_backends(json!([{"description": "b", "labels": {"env": "prod"}}]));
    two_destinations(&env);
    for resource in [
        &["sessions"][..],
        &["ip-policies"],
        &["backends", "tunnel-group"],
        &["event-destinations"],
    ] {
        let list = [resource, &["list"][..]].concat();
        let tsv = env.run(&list);
        tsv.ok();
        let fields = tsv
            .stdout
            .lines()
            .next()
            .unwrap_or_default()
            .split('\t')
            .count();
        let wide = env.run_terminal(400, &[&list[..], &["-o", "wide"]].concat());
        wide.ok();
        assert!(
            headers(&wide.stdout).len() >= fields,
            "{resource:?}: {} fields in TSV, fewer columns in -o wide:\n{}",
            fields,
            wide.stdout
        );
    }
}

#[test]
fn at_80_columns_destinations_show_their_target_names_before_their_format() {
    let env = Env::new();
    let ids = two_destinations(&env);
    let out = env.run_terminal(80, &["event-destinations", "list"]);
    out.ok();
    let shown = headers(&out.stdout);
    assert!(shown.contains(&"TARGET NAME"), "{}", out.stdout);
    assert!(!shown.contains(&"FORMAT"), "{}", out.stdout);
    for (id, name) in ids.iter().zip(["audit", "/sec"]) {
        let row = out
            .stdout
            .lines()
            .find(|l| l.starts_with(id.as_str()))
            .unwrap_or_else(|| panic!("{id}: {}", out.stdout));
        assert!(
            row.trim_end().ends_with(&format!("  {name}")) || row.contains(&format!("  {name}  ")),
            "{row}"
        );
    }
    assert!(out.stdout.lines().all(|l| l.chars().count() <= 80));
}

#[test]
fn a_wrong_output_format_or_wide_with_json_is_a_usage_error() {
    let env = Env::new();
    for args in [
        &["ip-policies", "list", "-o", "wider"][..],
        &["ip-policies", "list", "-o", "wide", "--json"],
        &["ip-policies", "list", "-o", "wide", "--jq", ".[]"],
    ] {
        let out = env.run(args);
        out.code(2);
        assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
    }
    assert!(env.requests().is_empty(), "nothing sent");
}
