//! `tunnelctl backends tunnel-group …` against the emulator: what was sent, what was printed,
//! labels (repeatable, replaced on update), the tunnels a backend matches, and the API's
//! `labels: null` answer to a PATCH without labels.

mod common;

use common::{assert_management_headers, only_write, Env};
use serde_json::{json, Value};
use tunnelctl_mock::{MockOptions, RecordedRequest};

const PATH: &str = "/backends/tunnel_group";

fn ids_of(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("an array of ids")
        .iter()
        .map(|i| i.as_str().expect("a string id").to_string())
        .collect()
}

/// Three tunnels: prod web, prod api, staging web. Returns their ids in that order.
fn seed_tunnels(env: &Env) -> Vec<String> {
    ids_of(
        &env.seed(json!({"tunnels": [
            {"labels": {"env": "prod", "app": "web", "zone": "a"}},
            {"labels": {"env": "prod", "app": "api"}},
            {"labels": {"env": "staging", "app": "web"}}
        ]}))["tunnels"],
    )
}

/// Seeds backends from create bodies; returns their ids in that order.
fn seed_backends(env: &Env, bodies: Value) -> Vec<String> {
    ids_of(&env.seed(json!({ "backends": bodies }))["backends"])
}

/// The backend as the emulator renders it now.
fn stored(env: &Env, id: &str) -> Option<Value> {
    env.mock.state()["backends"]
        .as_array()
        .expect("backends in the state")
        .iter()
        .find(|b| b["id"] == id)
        .cloned()
}

fn tunnel_ids(backend: &Value) -> Vec<String> {
    let mut ids: Vec<String> = backend["tunnels"]
        .as_array()
        .unwrap_or_else(|| panic!("tunnels is a list: {backend}"))
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[track_caller]
fn assert_request(req: &RecordedRequest, method: &str, path: &str) {
    assert_eq!(req.method, method);
    assert_eq!(req.path, path);
    assert_eq!(req.query, None);
    assert_management_headers(req);
}

#[test]
fn create_sends_the_fields_and_prints_the_backend_with_its_tunnels() {
    let env = Env::new();
    let tunnels = seed_tunnels(&env);
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "create",
        "--description",
        "prod web",
        "--metadata",
        "{\"team\":\"ops\"}",
        "--label",
        "env=prod",
        "--label",
        "app=web",
        "--json",
    ]);
    out.ok();
    let req = only_write(&env);
    assert_request(&req, "POST", PATH);
    assert_eq!(
        req.body_json(),
        Some(json!({
            "description": "prod web",
            "metadata": "{\"team\":\"ops\"}",
            "labels": {"env": "prod", "app": "web"}
        }))
    );
    let printed = out.json();
    let id = printed["id"].as_str().unwrap();
    assert!(id.starts_with("bkdtg_"), "{id}");
    assert_eq!(printed["description"], "prod web");
    assert_eq!(printed["labels"], json!({"app": "web", "env": "prod"}));
    assert_eq!(
        tunnel_ids(&printed),
        vec![tunnels[0].clone()],
        "only the tunnel carrying both labels"
    );
    assert!(
        printed["tunnels"][0]["uri"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/tunnels/{}", tunnels[0])),
        "{printed}"
    );
    assert_eq!(stored(&env, id), Some(printed.clone()));
}

#[test]
fn create_without_flags_sends_an_empty_object() {
    let env = Env::new();
    seed_tunnels(&env);
    let out = env.run(&["backends", "tunnel-group", "create", "--json"]);
    out.ok();
    let req = only_write(&env);
    assert_request(&req, "POST", PATH);
    assert_eq!(req.body_json(), Some(json!({})));
    let printed = out.json();
    assert_eq!(printed["labels"], json!({}));
    assert_eq!(
        printed["tunnels"],
        json!([]),
        "no labels match no tunnel: an empty list"
    );
}

#[test]
fn create_prints_a_tsv_row_off_a_terminal() {
    let env = Env::new();
    let tunnels = seed_tunnels(&env);
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "create",
        "--label",
        "app=web",
        "--description",
        "all web",
    ]);
    out.ok();
    let b = env.mock.state()["backends"][0].clone();
    assert_eq!(
        out.stdout,
        format!(
            "{}\tall web\tapp=web\t{}\t\t{}\n",
            b["id"].as_str().unwrap(),
            tunnel_ids(&b).join(","),
            b["created_at"].as_str().unwrap()
        )
    );
    assert_eq!(
        tunnel_ids(&b),
        sorted(vec![tunnels[0].clone(), tunnels[2].clone()])
    );
}

#[test]
fn label_values_may_hold_equals_signs_or_be_empty() {
    let env = Env::new();
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "create",
        "--label",
        "expr=a=b",
        "--label",
        "empty=",
        "--label",
        "spaced key=some value",
        "--json",
    ]);
    out.ok();
    let expected = json!({"expr": "a=b", "empty": "", "spaced key": "some value"});
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({ "labels": expected }))
    );
    assert_eq!(out.json()["labels"], expected);
}

#[test]
fn bad_labels_are_usage_errors_and_send_nothing() {
    let env = Env::new();
    let ids = seed_backends(&env, json!([{"labels": {"env": "prod"}}]));
    let id = ids[0].as_str();
    env.mock.clear_requests();
    let bad: &[&[&str]] = &[
        &["--label", "novalue"],
        &["--label", "=x"],
        &["--label", " =x"],
        &["--label", ""],
        &["--label"],
        &["--label", "env=prod", "--label", "env=staging"],
        &["--label", "env=prod", "--label", "env=prod"],
        &["--description", "d", "--label", "a=1", "--label", "novalue"],
    ];
    for flags in bad {
        for base in [
            vec!["backends", "tunnel-group", "create"],
            vec!["backends", "tunnel-group", "update", id],
        ] {
            let mut args = base.clone();
            args.extend_from_slice(flags);
            let out = env.run(&args);
            out.code(2);
            assert!(out.stderr.contains("--label"), "{args:?}: {}", out.stderr);
            assert_eq!(out.stdout, "", "{args:?}");
        }
    }
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "create",
        "--label",
        "env=prod",
        "--label",
        "env=staging",
    ]);
    assert!(
        out.stderr.contains("env"),
        "the duplicate key is named: {}",
        out.stderr
    );
    assert!(env.requests().is_empty(), "{:?}", env.requests());
    assert_eq!(
        stored(&env, id).unwrap()["labels"],
        json!({"env": "prod"}),
        "unchanged"
    );
}

#[test]
fn flags_without_a_value_or_with_a_wrong_one_send_nothing() {
    let env = Env::new();
    let cases: &[(&[&str], &str)] = &[
        (
            &["backends", "tunnel-group", "create", "--description"],
            "--description",
        ),
        (
            &["backends", "tunnel-group", "create", "--metadata"],
            "--metadata",
        ),
        (
            &[
                "backends",
                "tunnel-group",
                "update",
                "bkdtg_1",
                "--description",
            ],
            "--description",
        ),
        (
            &[
                "backends",
                "tunnel-group",
                "update",
                "bkdtg_1",
                "--metadata",
            ],
            "--metadata",
        ),
        (
            &["backends", "tunnel-group", "list", "--limit", "0"],
            "--limit",
        ),
        (
            &["backends", "tunnel-group", "list", "--limit", "-3"],
            "--limit",
        ),
        (
            &["backends", "tunnel-group", "list", "--limit", "many"],
            "--limit",
        ),
        (&["backends", "tunnel-group", "list", "--limit"], "--limit"),
        (
            &["backends", "tunnel-group", "list", "-o", "csv"],
            "--output",
        ),
        (
            &["backends", "tunnel-group", "get", "bkdtg_1", "--jq", "{"],
            "--jq",
        ),
        (
            &["backends", "tunnel-group", "create", "--timeout=-1"],
            "--timeout",
        ),
        (
            &["backends", "tunnel-group", "create", "--unknown", "x"],
            "--unknown",
        ),
    ];
    for (args, flag) in cases {
        let out = env.run(args);
        out.code(2);
        assert!(out.stderr.contains(flag), "{args:?}: {}", out.stderr);
        assert_eq!(out.stdout, "", "{args:?}");
    }
    assert!(env.requests().is_empty(), "{:?}", env.requests());
}

#[test]
fn get_prints_the_backend_and_the_tunnels_it_matches() {
    let env = Env::new();
    let tunnels = seed_tunnels(&env);
    let ids = seed_backends(
        &env,
        json!([
            {"description": "prod", "metadata": "m", "labels": {"env": "prod"}},
            {"description": "none", "labels": {"env": "dev"}}
        ]),
    );
    env.mock.clear_requests();
    let out = env.run(&["backends", "tunnel-group", "get", &ids[0], "--json"]);
    out.ok();
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_request(&reqs[0], "GET", &format!("{PATH}/{}", ids[0]));
    assert!(reqs[0].body.is_empty());
    let printed = out.json();
    assert_eq!(Some(printed.clone()), stored(&env, &ids[0]));
    assert_eq!(
        tunnel_ids(&printed),
        sorted(vec![tunnels[0].clone(), tunnels[1].clone()])
    );
    assert_eq!(printed["labels"], json!({"env": "prod"}));

    let out = env.run(&["backends", "tunnel-group", "get", &ids[1], "--json"]);
    out.ok();
    assert_eq!(out.json()["tunnels"], json!([]), "no tunnel has env=dev");

    let table = common::run(env.cmd().env("TUNNELCTL_FORCE_TTY", "1").args([
        "backends",
        "tunnel-group",
        "get",
        &ids[0],
    ]));
    table.ok();
    for (label, value) in [
        ("ID", ids[0].as_str()),
        ("DESCRIPTION", "prod"),
        ("LABELS", "env=prod"),
        ("METADATA", "m"),
    ] {
        assert!(
            table
                .stdout
                .lines()
                .any(|l| l.contains(label) && l.contains(value)),
            "{label} {value}:\n{}",
            table.stdout
        );
    }
    for t in &tunnels[..2] {
        assert!(table.stdout.contains(t.as_str()), "{t}:\n{}", table.stdout);
    }
    assert!(!table.stdout.contains(tunnels[2].as_str()));
    assert!(table.stdout.contains("ago") || table.stdout.contains("just now"));
}

#[test]
fn get_missing_exits_4() {
    let env = Env::new();
    let out = env.run(&["backends", "tunnel-group", "get", "bkdtg_nothere"]);
    out.code(4);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("404"), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("GET /backends/tunnel_group/bkdtg_nothere"),
        "{}",
        out.stderr
    );
    let out = env.run(&["backends", "tunnel-group", "get", "../../ip_policies"]);
    out.code(4);
    let reqs = env.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[1].path, "/backends/tunnel_group/..%2F..%2Fip_policies");
    let out = env.run(&["backends", "tunnel-group", "get", ".."]);
    out.code(2);
    assert_eq!(env.requests().len(), 2, "'..' is refused before sending");
}

#[test]
fn list_prints_json_tsv_and_a_table() {
    let env = Env::new();
    let tunnels = seed_tunnels(&env);
    let ids = seed_backends(
        &env,
        json!([
            {"description": "prod web", "metadata": "{\"a\":1}", "labels": {"env": "prod", "app": "web"}},
            {"description": "all prod", "labels": {"env": "prod"}},
            {"description": "nothing"}
        ]),
    );
    env.mock.clear_requests();
    let out = env.run(&["backends", "tunnel-group", "list", "--json"]);
    out.ok();
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_request(&reqs[0], "GET", PATH);
    let state = env.mock.state()["backends"].clone();
    assert_eq!(out.json(), state);
    assert_eq!(state.as_array().unwrap().len(), ids.len());

    let out = env.run(&["backends", "tunnel-group", "list"]);
    out.ok();
    let expected: Vec<String> = state
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let labels: Vec<String> = b["labels"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap()))
                .collect();
            let tunnels: Vec<&str> = b["tunnels"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["id"].as_str().unwrap())
                .collect();
            [
                b["id"].as_str().unwrap(),
                b["description"].as_str().unwrap(),
                &labels.join(","),
                &tunnels.join(","),
                b["metadata"].as_str().unwrap(),
                b["created_at"].as_str().unwrap(),
            ]
            .join("\t")
        })
        .collect();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines, expected);
    let web = lines.iter().find(|l| l.starts_with(&ids[0])).unwrap();
    assert!(web.contains("\tapp=web,env=prod\t"), "{web}");
    assert!(web.contains(&format!("\t{}\t", tunnels[0])), "{web}");

    let table = common::run(env.cmd().env("TUNNELCTL_FORCE_TTY", "1").args([
        "backends",
        "tunnel-group",
        "list",
    ]));
    table.ok();
    let mut lines = table.stdout.lines();
    let header = lines.next().unwrap();
    for col in ["ID", "DESCRIPTION", "LABELS", "TUNNELS", "CREATED"] {
        assert!(header.contains(col), "{header}");
    }
    assert!(!table.stdout.contains('\t'));
    for id in &ids {
        assert!(
            table.stdout.contains(id.as_str()),
            "{id}:\n{}",
            table.stdout
        );
    }
    assert!(table.stdout.contains("env=prod"), "{}", table.stdout);
}

#[test]
fn list_follows_every_page_and_limit_stops() {
    let env = Env::with(MockOptions {
        page_size: 2,
        ..Default::default()
    });
    let bodies: Vec<Value> = (0..5)
        .map(|i| json!({"description": format!("b{i}"), "labels": {"n": i.to_string()}}))
        .collect();
    let ids = seed_backends(&env, Value::Array(bodies));
    env.mock.clear_requests();
    let out = env.run(&["backends", "tunnel-group", "list", "--json"]);
    out.ok();
    let printed: Vec<String> = out
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(printed.len(), 5);
    assert_eq!(sorted(printed), sorted(ids));
    let reqs = env.requests();
    assert_eq!(reqs.len(), 3, "{reqs:?}");
    assert_eq!(reqs[0].query, None);
    for r in &reqs {
        assert_eq!(r.method, "GET");
        assert_eq!(r.path, PATH);
        assert_management_headers(r);
    }
    for r in &reqs[1..] {
        assert!(
            r.query
                .as_deref()
                .unwrap_or("")
                .contains("before_id=bkdtg_"),
            "{r:?}"
        );
    }

    env.mock.clear_requests();
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "list",
        "--limit",
        "1",
        "-o",
        "ndjson",
    ]);
    out.ok();
    assert_eq!(out.stdout.lines().count(), 1);
    let first: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(first, env.mock.state()["backends"][0], "the newest");
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].query.as_deref(), Some("limit=1"));
}

#[test]
fn empty_list() {
    let env = Env::new();
    let out = env.run(&["backends", "tunnel-group", "list", "--json"]);
    out.ok();
    assert_eq!(out.stdout.trim(), "[]");
    let out = env.run(&["backends", "tunnel-group", "list"]);
    out.ok();
    assert_eq!(out.stdout, "");
}

#[test]
fn update_sends_only_the_flags_given_and_copes_with_labels_null() {
    let env = Env::new();
    let tunnels = seed_tunnels(&env);
    let ids = seed_backends(
        &env,
        json!([{"description": "old", "metadata": "m0", "labels": {"env": "prod", "app": "web"}}]),
    );
    let id = &ids[0];
    env.mock.clear_requests();
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "update",
        id,
        "--description",
        "new",
        "--json",
    ]);
    out.ok();
    let req = only_write(&env);
    assert_request(&req, "PATCH", &format!("{PATH}/{id}"));
    assert_eq!(req.body_json(), Some(json!({"description": "new"})));
    let printed = out.json();
    assert_eq!(printed["description"], "new");
    assert_eq!(printed["metadata"], "m0", "kept");
    assert_eq!(
        printed["labels"],
        Value::Null,
        "--json prints the answer exactly as the API returned it"
    );
    // The labels were kept all the same.
    let kept = stored(&env, id).unwrap();
    assert_eq!(kept["labels"], json!({"app": "web", "env": "prod"}));
    assert_eq!(tunnel_ids(&kept), vec![tunnels[0].clone()]);
    let out = env.run(&["backends", "tunnel-group", "get", id, "--json"]);
    out.ok();
    assert_eq!(out.json()["labels"], json!({"app": "web", "env": "prod"}));

    // --metadata alone.
    env.mock.clear_requests();
    env.run(&[
        "backends",
        "tunnel-group",
        "update",
        id,
        "--metadata",
        "m1",
        "--json",
    ])
    .ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({"metadata": "m1"}))
    );
    assert_eq!(stored(&env, id).unwrap()["metadata"], "m1");
}

#[test]
fn update_without_labels_does_not_show_them_as_empty() {
    // The API answers `"labels": null` to a PATCH without labels although it kept them; what a
    // person reads must not say that the backend has no labels.
    let env = Env::new();
    let ids = seed_backends(
        &env,
        json!([{"description": "old", "labels": {"env": "prod", "app": "web"}}]),
    );
    let id = &ids[0];
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "update",
        id,
        "--description",
        "new",
    ]);
    out.ok();
    let fields: Vec<&str> = out.stdout.trim_end_matches('\n').split('\t').collect();
    assert_eq!(fields.len(), 6, "{}", out.stdout);
    assert_eq!(fields[0], id);
    assert_eq!(fields[1], "new");
    let kept = stored(&env, id).unwrap();
    assert_eq!(kept["labels"], json!({"app": "web", "env": "prod"}));
    assert_eq!(
        fields[2], "app=web,env=prod",
        "the kept labels, not an empty cell: {}",
        out.stdout
    );

    let table = common::run(env.cmd().env("TUNNELCTL_FORCE_TTY", "1").args([
        "backends",
        "tunnel-group",
        "update",
        id,
        "--metadata",
        "x",
    ]));
    table.ok();
    let labels_line = table
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("LABELS"))
        .unwrap_or_else(|| panic!("a LABELS line:\n{}", table.stdout));
    assert!(
        labels_line.contains("app=web") && labels_line.contains("env=prod"),
        "{}",
        table.stdout
    );
    let writes = env.writes();
    assert_eq!(writes.len(), 2, "one PATCH per update: {writes:?}");
    for w in &writes {
        assert_eq!(w.method, "PATCH");
        assert!(w.body_json().unwrap().get("labels").is_none());
    }
}

#[test]
fn update_with_labels_replaces_the_whole_map() {
    let env = Env::new();
    let tunnels = seed_tunnels(&env);
    let ids = seed_backends(
        &env,
        json!([{"description": "d", "labels": {"env": "prod", "app": "web"}}]),
    );
    let id = &ids[0];
    env.mock.clear_requests();
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "update",
        id,
        "--label",
        "env=staging",
        "--json",
    ]);
    out.ok();
    let req = only_write(&env);
    assert_request(&req, "PATCH", &format!("{PATH}/{id}"));
    assert_eq!(req.body_json(), Some(json!({"labels": {"env": "staging"}})));
    let printed = out.json();
    assert_eq!(
        printed["labels"],
        json!({"env": "staging"}),
        "app=web is gone"
    );
    assert_eq!(printed["description"], "d");
    assert_eq!(tunnel_ids(&printed), vec![tunnels[2].clone()]);
    assert_eq!(stored(&env, id), Some(printed));

    // Several labels and the other fields at once.
    env.mock.clear_requests();
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "update",
        id,
        "--label",
        "app=web",
        "--label",
        "zone=a",
        "--description",
        "zone a web",
        "--metadata",
        "",
        "--json",
    ]);
    out.ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(
            json!({"description": "zone a web", "metadata": "", "labels": {"app": "web", "zone": "a"}})
        )
    );
    let printed = out.json();
    assert_eq!(printed["labels"], json!({"app": "web", "zone": "a"}));
    assert_eq!(printed["metadata"], "");
    assert_eq!(tunnel_ids(&printed), vec![tunnels[0].clone()]);
}

#[test]
fn update_with_nothing_to_change_is_a_usage_error() {
    let env = Env::new();
    let out = env.run(&["backends", "tunnel-group", "update", "bkdtg_x"]);
    out.code(2);
    for flag in ["--description", "--metadata", "--label"] {
        assert!(out.stderr.contains(flag), "{flag}: {}", out.stderr);
    }
    assert!(env.requests().is_empty());
}

#[test]
fn update_missing_exits_4() {
    let env = Env::new();
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "update",
        "bkdtg_missing",
        "--label",
        "a=b",
    ]);
    out.code(4);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("404"), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("PATCH /backends/tunnel_group/bkdtg_missing"),
        "{}",
        out.stderr
    );
    let req = only_write(&env);
    assert_request(&req, "PATCH", "/backends/tunnel_group/bkdtg_missing");
    assert_eq!(req.body_json(), Some(json!({"labels": {"a": "b"}})));
}

#[test]
fn delete_several_reports_each() {
    let env = Env::new();
    let ids = seed_backends(
        &env,
        json!([{"description": "a"}, {"description": "b"}, {}]),
    );
    env.mock.clear_requests();
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "delete",
        &ids[0],
        &ids[1],
        "--yes",
    ]);
    out.ok();
    assert_eq!(out.stdout, "", "204 prints nothing on stdout");
    for id in &ids[..2] {
        assert!(
            out.stderr
                .contains(&format!("Deleted tunnel-group backend {id}")),
            "{}",
            out.stderr
        );
    }
    let writes = env.writes();
    assert_eq!(writes.len(), 2);
    for (req, id) in writes.iter().zip(&ids) {
        assert_request(req, "DELETE", &format!("{PATH}/{id}"));
        assert!(req.body.is_empty());
    }
    let left: Vec<Value> = env.mock.state()["backends"].as_array().unwrap().clone();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["id"], ids[2].as_str());

    let out = env.run(&[
        "backends",
        "tunnel-group",
        "delete",
        &ids[2],
        "--yes",
        "--quiet",
    ]);
    out.ok();
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, "");
    assert_eq!(env.mock.state()["backends"], json!([]));
}

#[test]
fn delete_with_some_missing_is_a_partial_failure() {
    let env = Env::new();
    let ids = seed_backends(&env, json!([{}]));
    env.mock.clear_requests();
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "delete",
        "bkdtg_missing",
        &ids[0],
        "--yes",
    ]);
    out.code(5);
    assert!(
        out.stderr
            .lines()
            .any(|l| l.contains("bkdtg_missing") && l.contains("404")),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains(&format!("Deleted tunnel-group backend {}", ids[0])),
        "{}",
        out.stderr
    );
    let writes = env.writes();
    assert_eq!(writes.len(), 2, "the second delete still runs");
    assert_request(&writes[0], "DELETE", "/backends/tunnel_group/bkdtg_missing");
    assert_request(&writes[1], "DELETE", &format!("{PATH}/{}", ids[0]));
    assert_eq!(env.mock.state()["backends"], json!([]));
}

#[test]
fn delete_all_missing_exits_4() {
    let env = Env::new();
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "delete",
        "bkdtg_n1",
        "bkdtg_n2",
        "--yes",
    ]);
    out.code(4);
    for id in ["bkdtg_n1", "bkdtg_n2"] {
        assert!(out.stderr.contains(id), "{}", out.stderr);
    }
    assert_eq!(env.writes().len(), 2);
    let out = env.run(&["backends", "tunnel-group", "delete", "bkdtg_n3", "--yes"]);
    out.code(4);
    assert!(out.stderr.contains("404"), "{}", out.stderr);
}

#[test]
fn delete_without_yes_off_a_terminal_sends_nothing() {
    let env = Env::new();
    let ids = seed_backends(&env, json!([{}]));
    env.mock.clear_requests();
    let out = env.run(&["backends", "tunnel-group", "delete", &ids[0]]);
    out.code(2);
    assert!(out.stderr.contains("--yes"), "{}", out.stderr);
    assert_eq!(out.stdout, "");
    assert!(env.requests().is_empty());
    assert!(stored(&env, &ids[0]).is_some());
    let out = env.run(&["backends", "tunnel-group", "delete", "--yes"]);
    out.code(2);
    assert!(env.requests().is_empty(), "an ID is required");
}

#[test]
fn unknown_fields_reach_json_output_unchanged() {
    let env = Env::with(MockOptions {
        extra_fields: true,
        ..Default::default()
    });
    let ids = seed_backends(&env, json!([{"labels": {"a": "b"}}, {}]));
    let extra = json!({"added": "later", "n": [1, 2]});
    let one = env.run(&["backends", "tunnel-group", "get", &ids[0], "--json"]);
    one.ok();
    assert_eq!(one.json()["x_future_field"], extra);
    let all = env.run(&["backends", "tunnel-group", "list", "--json"]);
    all.ok();
    let items = all.json();
    assert_eq!(items.as_array().unwrap().len(), 2);
    for item in items.as_array().unwrap() {
        assert_eq!(item["x_future_field"], extra);
    }
    let created = env.run(&[
        "backends",
        "tunnel-group",
        "create",
        "--label",
        "x=y",
        "--json",
    ]);
    created.ok();
    assert_eq!(created.json()["x_future_field"], extra);
    let updated = env.run(&[
        "backends",
        "tunnel-group",
        "update",
        &ids[1],
        "--metadata",
        "z",
        "--json",
    ]);
    updated.ok();
    assert_eq!(updated.json()["x_future_field"], extra);
}

#[test]
fn jq_filters_backends_in_process() {
    let env = Env::new();
    let tunnels = seed_tunnels(&env);
    let ids = seed_backends(
        &env,
        json!([{"labels": {"env": "prod"}}, {"labels": {"env": "staging"}}]),
    );
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "list",
        "--jq",
        ".[] | select(.labels.env == \"staging\") | .id",
    ]);
    out.ok();
    assert_eq!(out.stdout, format!("{}\n", ids[1]));
    let out = env.run(&[
        "backends",
        "tunnel-group",
        "get",
        &ids[1],
        "--jq",
        ".tunnels[].id",
    ]);
    out.ok();
    assert_eq!(out.stdout, format!("{}\n", tunnels[2]));
}
