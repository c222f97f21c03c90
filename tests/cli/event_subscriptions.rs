//! `tunnelctl event-subscriptions …` and `event-subscriptions sources …` against the
//! emulator: what was sent, what was printed.

use crate::common;

use crate::common::{assert_management_headers, assert_write, only_write, Env};
use serde_json::{json, Value};
use tunnelctl::registry::env as var;
use tunnelctl_mock::MockOptions;

/// The command words of this module.
const CMD: &[&str] = &["event-subscriptions"];

/// The `type` of each EventSource in a list.
/// The event types a subscription has in the emulator.
fn stored_types(env: &Env, id: &str) -> Vec<String> {
    types(&env.stored("event_subscriptions", id).unwrap()["sources"])
}

fn types(sources: &Value) -> Vec<String> {
    sources
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {sources}"))
        .iter()
        .map(|s| s["type"].as_str().expect("a type").to_string())
        .collect()
}

/// The `id` of each Ref in a list.
fn ref_ids(refs: &Value) -> Vec<String> {
    refs.as_array()
        .unwrap_or_else(|| panic!("not an array: {refs}"))
        .iter()
        .map(|r| r["id"].as_str().expect("an id").to_string())
        .collect()
}

// ---------------------------------------------------------------------------------------
// event-subscriptions create
// ---------------------------------------------------------------------------------------

#[test]
fn create_sends_every_flag_and_prints_the_subscription() {
    let env = Env::new();
    let dests = env.seed_destinations(2);
    let out = env.run_in(
        CMD,
        &[
            "create",
            "--description",
            "policy changes",
            "--metadata",
            "{\"team\":\"sec\"}",
            "--source",
            "ip_policy_created.v0",
            "--source",
            "ip_policy_updated.v0",
            "--destination-id",
            &dests[0],
            "--destination-id",
            &dests[1],
            "--json",
        ],
    );
    out.ok();
    assert_write(
        &env,
        "POST",
        "/event_subscriptions",
        json!({
            "description": "policy changes",
            "metadata": "{\"team\":\"sec\"}",
            "sources": [{"type": "ip_policy_created.v0"}, {"type": "ip_policy_updated.v0"}],
            "destination_ids": [dests[0], dests[1]],
        }),
    );
    let printed = out.json();
    let id = printed["id"].as_str().expect("an id");
    assert!(id.starts_with("esb_"), "{id}");
    assert_eq!(printed["description"], "policy changes");
    assert_eq!(printed["metadata"], "{\"team\":\"sec\"}");
    assert_eq!(
        types(&printed["sources"]),
        ["ip_policy_created.v0", "ip_policy_updated.v0"]
    );
    assert_eq!(ref_ids(&printed["destinations"]), dests);
    for (r, d) in printed["destinations"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&dests)
    {
        assert_eq!(
            r["uri"],
            format!("{}/event_destinations/{d}", env.mock.url()),
            "a Ref"
        );
    }
    assert_eq!(
        env.stored("event_subscriptions", id),
        Some(printed.clone()),
        "printed as returned"
    );
}

#[test]
fn create_prints_a_tsv_row_off_a_terminal() {
    let env = Env::new();
    let dests = env.seed_destinations(1);
    let out = env.run_words(CMD, &format!("create --description desc --metadata meta --source a.v0 --source b.v0 --destination-id {}", dests[0]));
    out.ok();
    let sub = env.mock.state()["event_subscriptions"][0].clone();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one row, no header: {}", out.stdout);
    let fields: Vec<&str> = lines[0].split('\t').collect();
    assert_eq!(
        fields,
        [
            sub["id"].as_str().unwrap(),
            "desc",
            "a.v0,b.v0",
            dests[0].as_str(),
            "meta",
            sub["created_at"].as_str().unwrap(),
        ],
        "ID, DESCRIPTION, SOURCES, DESTINATIONS, METADATA, CREATED (RFC 3339)"
    );
}

#[test]
fn create_with_an_unknown_destination_reports_the_api_error() {
    let env = Env::new();
    let out = env.run_in(CMD, &["create", "--destination-id", "ed_doesnotexist"]);
    out.code(1);
    assert_eq!(out.stdout, "");
    out.says("400")
        .says("POST /event_subscriptions")
        .says("ed_doesnotexist");
    let req = only_write(&env);
    assert_eq!(
        req.body_json(),
        Some(json!({"destination_ids": ["ed_doesnotexist"]}))
    );
    assert_eq!(env.mock.state()["event_subscriptions"], json!([]));
}

// ---------------------------------------------------------------------------------------
// event-subscriptions get
// ---------------------------------------------------------------------------------------

#[test]
fn get_shows_a_detail_table_on_a_terminal() {
    let env = Env::new();
    let dests = env.seed_destinations(1);
    let id = env.seed_subscription(json!({"description": "office events", "metadata": "m1",
               "sources": [{"type": "ip_policy_created.v0"}, {"type": "ip_policy_updated.v0"}],
               "destination_ids": [dests[0]]}));
    let out = env.run_tty(&["event-subscriptions", "get", &id]);
    out.ok();
    let row = |label: &str| out.row(label);
    assert!(row("ID").contains(&id), "{}", out.stdout);
    assert!(row("DESCRIPTION").contains("office events"));
    assert!(row("SOURCES").contains("ip_policy_created.v0, ip_policy_updated.v0"));
    assert!(row("DESTINATIONS").contains(&dests[0]));
    assert!(row("METADATA").contains("m1"));
    let created = row("CREATED");
    assert!(
        created.contains("ago") || created.contains("just now"),
        "human time: {created}"
    );
}

// ---------------------------------------------------------------------------------------
// event-subscriptions update
// ---------------------------------------------------------------------------------------

#[test]
fn update_sends_only_the_flags_given() {
    let env = Env::new();
    let dests = env.seed_destinations(1);
    let id = env.seed_subscription(json!({"description": "keep me", "metadata": "m1",
               "sources": [{"type": "a.v0"}], "destination_ids": [dests[0]]}));
    let before = env.stored("event_subscriptions", &id).unwrap();
    let out = env.run_in(CMD, &["update", &id, "--metadata", "m2", "--json"]);
    out.ok();
    assert_write(
        &env,
        "PATCH",
        &format!("/event_subscriptions/{id}"),
        json!({"metadata": "m2"}),
    );
    let printed = out.json();
    assert_eq!(printed["metadata"], "m2");
    assert_eq!(printed["description"], before["description"], "kept");
    assert_eq!(printed["sources"], before["sources"], "kept");
    assert_eq!(printed["destinations"], before["destinations"], "kept");
    assert_eq!(env.stored("event_subscriptions", &id), Some(printed));

    env.mock.clear_requests();
    let out = env.run_in(
        CMD,
        &["update", &id, "--description", "new words", "--json"],
    );
    out.ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({"description": "new words"}))
    );
    assert_eq!(out.json()["description"], "new words");
    assert_eq!(out.json()["metadata"], "m2");
}

#[test]
fn update_a_given_list_replaces_the_stored_one() {
    let env = Env::new();
    let dests = env.seed_destinations(3);
    let id = env.seed_subscription(
        json!({"description": "d", "sources": [{"type": "a.v0"}, {"type": "b.v0"}],
               "destination_ids": [dests[0], dests[1]]}),
    );
    let out = env.run_words(
        CMD,
        &format!(
            "update {id} --source c.v0 --destination-id {} --json",
            dests[2]
        ),
    );
    out.ok();
    assert_write(
        &env,
        "PATCH",
        &format!("/event_subscriptions/{id}"),
        json!({"sources": [{"type": "c.v0"}], "destination_ids": [dests[2]]}),
    );
    let printed = out.json();
    assert_eq!(types(&printed["sources"]), ["c.v0"]);
    assert_eq!(ref_ids(&printed["destinations"]), [dests[2].clone()]);
    assert_eq!(printed["description"], "d");
    let now = env.stored("event_subscriptions", &id).unwrap();
    assert_eq!(types(&now["sources"]), ["c.v0"]);
    assert_eq!(ref_ids(&now["destinations"]), [dests[2].clone()]);

    // Only the sources: the destinations stay.
    env.mock.clear_requests();
    let out = env.run_words(
        CMD,
        &format!("update {id} --source x.v0 --source y.v0 --json"),
    );
    out.ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({"sources": [{"type": "x.v0"}, {"type": "y.v0"}]}))
    );
    assert_eq!(types(&out.json()["sources"]), ["x.v0", "y.v0"]);
    assert_eq!(ref_ids(&out.json()["destinations"]), [dests[2].clone()]);
}

// ---------------------------------------------------------------------------------------
// event-subscriptions delete
// ---------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------
// event-subscriptions list
// ---------------------------------------------------------------------------------------

#[test]
fn sources_list_limit_takes_only_positive_numbers() {
    let env = Env::new();
    for bad in ["0", "-1", "ten", ""] {
        env.run_in(CMD, &["sources", "list", "esb_x", "--limit", bad])
            .code(2)
            .says("--limit");
    }
    assert!(env.requests().is_empty());
}

#[test]
fn unknown_fields_of_sources_reach_json_output_unchanged() {
    let env = Env::with(MockOptions {
        extra_fields: true,
        ..Default::default()
    });
    let id = env.seed_subscription(json!({"sources": [{"type": "a.v0"}]}));
    let extra = json!({"added": "later", "n": [1, 2]});
    let one = env.run_in(CMD, &["get", &id, "--json"]);
    one.ok();
    assert_eq!(one.json()["sources"][0]["x_future_field"], extra);
    let sources = env.run_in(CMD, &["sources", "list", &id, "--json"]);
    sources.ok();
    assert_eq!(sources.json()[0]["x_future_field"], extra);
    let source = env.run_in(CMD, &["sources", "get", &id, "a.v0", "--json"]);
    source.ok();
    assert_eq!(source.json()["x_future_field"], extra);
}

// ---------------------------------------------------------------------------------------
// Validation of create/update flags: exit 2, the flag named, nothing sent
// ---------------------------------------------------------------------------------------

#[test]
fn description_and_metadata_limits_count_characters() {
    let env = Env::new();
    let desc_256 = "d".repeat(256);
    let desc_256_multi = "é".repeat(256);
    let desc_256_emoji = "🦀".repeat(256);
    let meta_4097 = "m".repeat(4097);
    let meta_4097_multi = "ü".repeat(4097);
    let mut cases: Vec<(Vec<&str>, &str)> = Vec::new();
    for verb in [vec!["create"], vec!["update", "esb_1"]] {
        for (flag, value) in [
            ("--description", &desc_256),
            ("--description", &desc_256_multi),
            ("--description", &desc_256_emoji),
            ("--metadata", &meta_4097),
            ("--metadata", &meta_4097_multi),
        ] {
            let mut args = vec!["event-subscriptions"];
            args.extend(verb.iter().copied());
            args.extend([flag, value.as_str()]);
            cases.push((args, flag));
        }
    }
    for (args, flag) in cases {
        let out = env.run(&args);
        out.code(2);
        assert!(
            out.stderr.contains(flag),
            "{flag} ({} chars): {}",
            args.last().unwrap().chars().count(),
            out.stderr
        );
    }
    assert!(env.requests().is_empty(), "nothing sent");

    // At the limit, in multi-byte characters (more than 255/4096 bytes), is fine.
    let desc_255 = "é".repeat(255);
    let meta_4096 = "🦀".repeat(4096);
    let out = env.run_words(
        CMD,
        &format!("create --description {desc_255} --metadata {meta_4096} --json"),
    );
    out.ok();
    let req = only_write(&env);
    assert_eq!(
        req.body_json(),
        Some(json!({"description": desc_255, "metadata": meta_4096}))
    );
    let id = out.json()["id"].as_str().unwrap().to_string();
    assert_eq!(out.json()["description"], desc_255.as_str());
    assert_eq!(out.json()["metadata"], meta_4096.as_str());

    env.mock.clear_requests();
    let desc_255_emoji = "🦀".repeat(255);
    let meta_4096_multi = "é".repeat(4096);
    let out = env.run_words(
        CMD,
        &format!("update {id} --description {desc_255_emoji} --metadata {meta_4096_multi} --json"),
    );
    out.ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({"description": desc_255_emoji, "metadata": meta_4096_multi}))
    );
    assert_eq!(
        env.stored("event_subscriptions", &id).unwrap()["description"],
        desc_255_emoji.as_str()
    );
}

#[test]
fn value_flags_refuse_wrong_values_and_send_nothing() {
    let env = Env::new();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["event-subscriptions", "create", "--source", ""],
            "--source",
        ),
        (
            vec!["event-subscriptions", "create", "--source", "  "],
            "--source",
        ),
        (
            vec!["event-subscriptions", "update", "esb_1", "--source", ""],
            "--source",
        ),
        (
            vec!["event-subscriptions", "create", "--destination-id", ""],
            "--destination-id",
        ),
        (
            vec!["event-subscriptions", "create", "--destination-id", " "],
            "--destination-id",
        ),
        (
            vec![
                "event-subscriptions",
                "update",
                "esb_1",
                "--destination-id",
                "",
            ],
            "--destination-id",
        ),
        // A flag given without its value.
        (
            vec!["event-subscriptions", "create", "--description"],
            "--description",
        ),
        (
            vec!["event-subscriptions", "create", "--metadata"],
            "--metadata",
        ),
        (
            vec!["event-subscriptions", "create", "--source"],
            "--source",
        ),
        (
            vec!["event-subscriptions", "update", "esb_1", "--destination-id"],
            "--destination-id",
        ),
        // An unknown flag.
        (
            vec!["event-subscriptions", "create", "--sources", "a.v0"],
            "--sources",
        ),
    ];
    for (args, flag) in cases {
        let out = env.run(&args);
        out.code(2);
        assert!(out.stderr.contains(flag), "{args:?}: {}", out.stderr);
        assert_eq!(out.stdout, "");
    }
    assert!(env.requests().is_empty());
}

// ---------------------------------------------------------------------------------------
// event-subscriptions sources …
// ---------------------------------------------------------------------------------------

#[test]
fn sources_list_prints_every_type_from_one_request() {
    // A page size smaller than the list: the sources list is not paged all the same.
    let env = Env::with(MockOptions {
        page_size: 2,
        ..Default::default()
    });
    let id = env.seed_subscription(
        json!({"sources": [{"type": "a.v0"}, {"type": "b.v0"}, {"type": "c.v0"}]}),
    );
    let out = env.run_in(CMD, &["sources", "list", &id, "--json"]);
    out.ok();
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1, "{reqs:?}");
    assert_eq!(reqs[0].method, "GET");
    assert_eq!(reqs[0].path, format!("/event_subscriptions/{id}/sources"));
    assert_eq!(reqs[0].query, None);
    assert!(reqs[0].body.is_empty());
    assert_management_headers(&reqs[0]);
    let sub = env.stored("event_subscriptions", &id).unwrap();
    assert_eq!(out.json(), sub["sources"], "the items as returned");
    assert_eq!(types(&out.json()), ["a.v0", "b.v0", "c.v0"]);

    let out = env.run_in(CMD, &["sources", "list", &id]);
    out.ok();
    let expected: Vec<String> = sub["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{}\t{}",
                s["type"].as_str().unwrap(),
                s["uri"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        out.stdout.lines().collect::<Vec<_>>(),
        expected,
        "TYPE\\tURI"
    );

    let out = env.run_in(CMD, &["sources", "list", &id, "-o", "ndjson"]);
    out.ok();
    let lines = out.ndjson();
    assert_eq!(Value::Array(lines), sub["sources"]);

    let table = common::run(
        env.cmd()
            .env(var::FORCE_TTY, "1")
            .env("COLUMNS", "200")
            .args(["event-subscriptions", "sources", "list", &id]),
    );
    table.ok();
    let mut lines = table.stdout.lines();
    let header = lines.next().unwrap();
    assert!(
        header.contains("TYPE") && header.contains("URI"),
        "{header}"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 3, "{}", table.stdout);
    for (row, s) in rows.iter().zip(sub["sources"].as_array().unwrap()) {
        assert!(row.contains(s["type"].as_str().unwrap()), "{row}");
        assert!(row.contains(s["uri"].as_str().unwrap()), "{row}");
    }
}

#[test]
fn sources_list_limit_cuts_the_one_answer() {
    let env = Env::new();
    let id = env.seed_subscription(
        json!({"sources": [{"type": "a.v0"}, {"type": "b.v0"}, {"type": "c.v0"}]}),
    );
    let out = env.run_in(CMD, &["sources", "list", &id, "--limit", "2", "--json"]);
    out.ok();
    let sub = env.stored("event_subscriptions", &id).unwrap();
    assert_eq!(
        out.json(),
        json!([sub["sources"][0], sub["sources"][1]]),
        "the first two"
    );
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].path, format!("/event_subscriptions/{id}/sources"));
}

#[test]
fn sources_list_never_follows_a_next_page_uri() {
    let env = Env::new();
    let id = env.seed_subscription(json!({"sources": [{"type": "a.v0"}]}));
    let path = format!("/event_subscriptions/{id}/sources");
    // An answer that carries a next_page_uri anyway: the list has none, so it is not followed.
    env.mock.inject(json!({
        "method": "GET",
        "path": path,
        "status": 200,
        "count": 1,
        "body": json!({
            "sources": [{"type": "z.v0", "uri": format!("{}{path}/z.v0", env.mock.url())}],
            "uri": format!("{}{path}", env.mock.url()),
            "next_page_uri": format!("{}{path}?before_id=z", env.mock.url()),
        }).to_string(),
    }));
    let out = env.run_in(CMD, &["sources", "list", &id, "--json"]);
    out.ok();
    assert_eq!(types(&out.json()), ["z.v0"]);
    assert_eq!(env.requests().len(), 1, "{:?}", env.requests());
}

#[test]
fn sources_list_of_a_subscription_without_sources_is_empty() {
    let env = Env::new();
    let id = env.seed_subscription(json!({}));
    let out = env.run_in(CMD, &["sources", "list", &id, "--json"]);
    out.ok();
    assert_eq!(out.stdout.trim(), "[]");
    let out = env.run_in(CMD, &["sources", "list", &id]);
    out.ok();
    assert_eq!(out.stdout, "");
}

#[test]
fn sources_list_of_an_unknown_subscription_exits_4() {
    let env = Env::new();
    let out = env.run_in(CMD, &["sources", "list", "esb_nothere"]);
    out.not_found("GET /event_subscriptions/esb_nothere/sources");
}

#[test]
fn sources_get_prints_the_source_as_returned() {
    let env = Env::new();
    let id = env.seed_subscription(
        json!({"sources": [{"type": "ip_policy_created.v0"}, {"type": "ip_policy_updated.v0"}]}),
    );
    let out = env.run_in(
        CMD,
        &["sources", "get", &id, "ip_policy_updated.v0", "--json"],
    );
    out.ok();
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].method, "GET");
    assert_eq!(
        reqs[0].path,
        format!("/event_subscriptions/{id}/sources/ip_policy_updated.v0")
    );
    assert!(reqs[0].body.is_empty());
    assert_management_headers(&reqs[0]);
    let sub = env.stored("event_subscriptions", &id).unwrap();
    assert_eq!(out.json(), sub["sources"][1]);

    let out = env.run_in(CMD, &["sources", "get", &id, "ip_policy_created.v0"]);
    out.ok();
    assert_eq!(
        out.stdout,
        format!(
            "ip_policy_created.v0\t{}\n",
            sub["sources"][0]["uri"].as_str().unwrap()
        )
    );
}

#[test]
fn sources_get_unknown_type_exits_4() {
    let env = Env::new();
    let id = env.seed_subscription(json!({"sources": [{"type": "a.v0"}]}));
    let out = env.run_in(CMD, &["sources", "get", &id, "b.v0"]);
    out.code(4);
    assert_eq!(out.stdout, "");
    out.says(&format!("GET /event_subscriptions/{id}/sources/b.v0"));
    let out = env.run_in(CMD, &["sources", "get", "esb_nothere", "a.v0"]);
    out.code(4);
}

#[test]
fn sources_create_posts_the_type() {
    let env = Env::new();
    let id = env.seed_subscription(json!({"sources": [{"type": "a.v0"}]}));
    let out = env.run_in(
        CMD,
        &["sources", "create", &id, "ip_policy_deleted.v0", "--json"],
    );
    out.ok();
    assert_write(
        &env,
        "POST",
        &format!("/event_subscriptions/{id}/sources"),
        json!({"type": "ip_policy_deleted.v0"}),
    );
    let sub = env.stored("event_subscriptions", &id).unwrap();
    assert_eq!(types(&sub["sources"]), ["a.v0", "ip_policy_deleted.v0"]);
    assert_eq!(out.json(), sub["sources"][1], "printed as returned");

    // Off a terminal: one TSV row.
    let out = env.run_in(CMD, &["sources", "create", &id, "b.v0"]);
    out.ok();
    let sub = env.stored("event_subscriptions", &id).unwrap();
    assert_eq!(
        out.stdout,
        format!("b.v0\t{}\n", sub["sources"][2]["uri"].as_str().unwrap())
    );
}

#[test]
fn sources_create_a_type_already_there_reports_the_api_error() {
    let env = Env::new();
    let id = env.seed_subscription(json!({"sources": [{"type": "a.v0"}]}));
    let out = env.run_in(CMD, &["sources", "create", &id, "a.v0"]);
    out.code(1);
    assert_eq!(out.stdout, "");
    out.says("400")
        .says(&format!("POST /event_subscriptions/{id}/sources"));
    assert_eq!(only_write(&env).body_json(), Some(json!({"type": "a.v0"})));
    assert_eq!(stored_types(&env, &id), ["a.v0"]);
}

#[test]
fn sources_create_on_an_unknown_subscription_exits_4() {
    let env = Env::new();
    let out = env.run_in(CMD, &["sources", "create", "esb_nothere", "a.v0"]);
    out.code(4).says("404");
    assert_eq!(
        only_write(&env).path,
        "/event_subscriptions/esb_nothere/sources"
    );
}

#[test]
fn sources_update_sends_an_empty_object() {
    let env = Env::new();
    let id = env.seed_subscription(json!({"sources": [{"type": "a.v0"}, {"type": "b.v0"}]}));
    let out = env.run_in(CMD, &["sources", "update", &id, "b.v0", "--json"]);
    out.ok();
    let req = only_write(&env);
    assert_eq!(req.method, "PATCH");
    assert_eq!(req.path, format!("/event_subscriptions/{id}/sources/b.v0"));
    assert_management_headers(&req);
    assert_eq!(req.header("content-type"), Some("application/json"));
    assert_eq!(String::from_utf8_lossy(&req.body).trim(), "{}");
    assert_eq!(req.body_json(), Some(json!({})));
    let sub = env.stored("event_subscriptions", &id).unwrap();
    assert_eq!(out.json(), sub["sources"][1]);
    assert_eq!(types(&sub["sources"]), ["a.v0", "b.v0"], "nothing changes");
}

#[test]
fn sources_update_unknown_type_exits_4() {
    let env = Env::new();
    let id = env.seed_subscription(json!({"sources": [{"type": "a.v0"}]}));
    let out = env.run_in(CMD, &["sources", "update", &id, "zzz.v0"]);
    out.code(4)
        .says(&format!("PATCH /event_subscriptions/{id}/sources/zzz.v0"));
    assert_eq!(only_write(&env).method, "PATCH");
}

#[test]
fn sources_delete_removes_the_type() {
    let env = Env::new();
    let id = env.seed_subscription(json!({"sources": [{"type": "a.v0"}, {"type": "b.v0"}]}));
    let out = env.run_in(CMD, &["sources", "delete", &id, "a.v0", "--yes"]);
    out.ok();
    assert_eq!(out.stdout, "", "204 prints nothing on stdout");
    out.says("a.v0").says(&id);
    let req = only_write(&env);
    assert_eq!(req.method, "DELETE");
    assert_eq!(req.path, format!("/event_subscriptions/{id}/sources/a.v0"));
    assert!(req.body.is_empty());
    assert_management_headers(&req);
    assert_eq!(stored_types(&env, &id), ["b.v0"]);

    let out = env.run_in(CMD, &["sources", "delete", &id, "b.v0", "--yes", "--quiet"]);
    out.ok();
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, "");
    assert_eq!(
        env.stored("event_subscriptions", &id).unwrap()["sources"],
        json!([])
    );
}

#[test]
fn sources_delete_sends_the_type_as_typed_and_shows_it_escaped() {
    let env = Env::new();
    let kind = "a\u{200b}.v0";
    let id = env.seed_subscription(json!({"sources": [{"type": kind}, {"type": "b.v0"}]}));
    let out = env.run_in(CMD, &["sources", "delete", &id, kind, "--yes"]);
    out.ok().says("a\\u{200b}.v0");
    assert!(!out.stderr.contains('\u{200b}'), "{}", out.stderr);
    let req = only_write(&env);
    assert_eq!(
        req.path,
        format!("/event_subscriptions/{id}/sources/a%E2%80%8B.v0")
    );
    assert_eq!(stored_types(&env, &id), ["b.v0"]);
}

#[test]
fn sources_delete_unknown_type_exits_4() {
    let env = Env::new();
    let id = env.seed_subscription(json!({"sources": [{"type": "a.v0"}]}));
    let out = env.run_in(CMD, &["sources", "delete", &id, "b.v0", "--yes"]);
    out.code(4)
        .says(&format!("DELETE /event_subscriptions/{id}/sources/b.v0"))
        .says("404");
    assert_eq!(stored_types(&env, &id), ["a.v0"]);
}

#[test]
fn sources_delete_without_yes_off_a_terminal_sends_nothing() {
    let env = Env::new();
    let id = env.seed_subscription(json!({"sources": [{"type": "a.v0"}]}));
    let out = env.run_in(CMD, &["sources", "delete", &id, "a.v0"]);
    out.code(2).says("--yes");
    assert_eq!(out.stdout, "");
    assert!(env.requests().is_empty());
    assert_eq!(stored_types(&env, &id), ["a.v0"]);
}

#[test]
fn a_type_with_odd_characters_is_one_encoded_segment() {
    let env = Env::new();
    let id = env.seed_subscription(json!({}));
    let odd = "a b/c";
    let encoded = format!("/event_subscriptions/{id}/sources/a%20b%2Fc");

    let out = env.run_in(CMD, &["sources", "create", &id, odd, "--json"]);
    out.ok();
    let req = only_write(&env);
    assert_eq!(req.path, format!("/event_subscriptions/{id}/sources"));
    assert_eq!(
        req.body_json(),
        Some(json!({"type": odd})),
        "the body has it raw"
    );
    assert_eq!(out.json()["type"], odd);
    assert_eq!(
        out.json()["uri"],
        format!("{}{encoded}", env.mock.url()),
        "{}",
        out.stdout
    );

    env.mock.clear_requests();
    let out = env.run_in(CMD, &["sources", "get", &id, odd, "--json"]);
    out.ok();
    assert_eq!(out.json()["type"], odd);
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].path, encoded);

    env.mock.clear_requests();
    let out = env.run_in(CMD, &["sources", "update", &id, odd, "--json"]);
    out.ok();
    assert_eq!(out.json()["type"], odd);
    let req = only_write(&env);
    assert_eq!(req.method, "PATCH");
    assert_eq!(req.path, encoded);

    env.mock.clear_requests();
    let out = env.run_in(CMD, &["sources", "delete", &id, odd, "--yes"]);
    out.ok();
    let req = only_write(&env);
    assert_eq!(req.method, "DELETE");
    assert_eq!(req.path, encoded);
    assert_eq!(
        env.stored("event_subscriptions", &id).unwrap()["sources"],
        json!([])
    );

    // A path-like subscription ID stays one segment too.
    env.mock.clear_requests();
    let out = env.run_in(CMD, &["sources", "list", "../event_destinations"]);
    out.code(4);
    assert_eq!(
        env.requests()[0].path,
        "/event_subscriptions/..%2Fevent_destinations/sources"
    );
}

#[test]
fn sources_refuse_an_empty_or_dot_type_before_sending() {
    let env = Env::new();
    let id = env.seed_subscription(json!({"sources": [{"type": "a.v0"}]}));
    for verb in ["get", "update", "delete", "create"] {
        for bad in ["", "..", "."] {
            if verb == "create" && !bad.is_empty() {
                // `..` is a valid type string in a body; it only cannot be a path segment.
                continue;
            }
            let out = env.run_in(CMD, &["sources", verb, &id, bad, "--yes"]);
            out.code(2);
            assert!(
                out.stderr.contains("type") || out.stderr.contains("TYPE"),
                "{verb} {bad:?}: {}",
                out.stderr
            );
        }
        env.run_in(CMD, &["sources", verb, "", "a.v0", "--yes"])
            .code(2);
    }
    assert!(env.requests().is_empty(), "{:?}", env.requests());
}

#[test]
fn sources_commands_need_their_arguments() {
    let env = Env::new();
    for args in [
        vec!["event-subscriptions", "sources", "list"],
        vec!["event-subscriptions", "sources", "get", "esb_1"],
        vec!["event-subscriptions", "sources", "create", "esb_1"],
        vec!["event-subscriptions", "sources", "update", "esb_1"],
        vec!["event-subscriptions", "sources", "delete", "esb_1", "--yes"],
        vec![
            "event-subscriptions",
            "sources",
            "get",
            "esb_1",
            "a.v0",
            "extra",
        ],
    ] {
        let out = env.run(&args);
        out.code(2);
        assert_eq!(out.stdout, "", "{args:?}");
    }
    assert!(env.requests().is_empty());
}
