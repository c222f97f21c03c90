//! `tunnelctl backends tunnel-group …` against the emulator: what was sent, what was printed,
//! labels (repeatable, replaced on update), the tunnels a backend matches, and the API's
//! `labels: null` answer to a PATCH without labels.

use crate::common;

use crate::common::seed::sorted;
use crate::common::{assert_request, assert_write, only_write, Env};
use serde_json::{json, Value};
use tunnelctl::registry::env as var;

/// The command words of this module.
const CMD: &[&str] = &["backends", "tunnel-group"];

const PATH: &str = "/backends/tunnel_group";

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

#[test]
fn create_sends_the_fields_and_prints_the_backend_with_its_tunnels() {
    let env = Env::new();
    let tunnels = env.seed_tunnels();
    let out = env.run_in(
        CMD,
        &[
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
        ],
    );
    out.ok();
    assert_write(
        &env,
        "POST",
        PATH,
        json!({
            "description": "prod web",
            "metadata": "{\"team\":\"ops\"}",
            "labels": {"env": "prod", "app": "web"}
        }),
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
    assert_eq!(env.stored("backends", id), Some(printed.clone()));
}

#[test]
fn create_without_labels_matches_no_tunnel() {
    let env = Env::new();
    env.seed_tunnels();
    let out = env.run_in(CMD, &["create", "--json"]);
    out.ok();
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
    let tunnels = env.seed_tunnels();
    let out = env.run_in(
        CMD,
        &["create", "--label", "app=web", "--description", "all web"],
    );
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
    let out = env.run_in(
        CMD,
        &[
            "create",
            "--label",
            "expr=a=b",
            "--label",
            "empty=",
            "--label",
            "spaced key=some value",
            "--json",
        ],
    );
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
    let ids = env.seed_backends(json!([{"labels": {"env": "prod"}}]));
    let id = ids[0].as_str();
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
    let out = env.run_in(
        CMD,
        &["create", "--label", "env=prod", "--label", "env=staging"],
    );
    // The duplicate key is named.
    out.says("env");
    assert!(env.requests().is_empty(), "{:?}", env.requests());
    assert_eq!(
        env.stored("backends", id).unwrap()["labels"],
        json!({"env": "prod"}),
        "unchanged"
    );
}

#[test]
fn flags_without_a_value_or_with_a_wrong_one_send_nothing() {
    // The list flags are tried for every collection by the CRUD contract.
    let env = Env::new();
    let cases: &[(&[&str], &str)] = &[
        (&["create", "--description"], "--description"),
        (&["create", "--metadata"], "--metadata"),
        (&["update", "bkdtg_1", "--description"], "--description"),
        (&["update", "bkdtg_1", "--metadata"], "--metadata"),
        (&["create", "--timeout=-1"], "--timeout"),
        (&["create", "--unknown", "x"], "--unknown"),
    ];
    for (rest, flag) in cases {
        let mut args = vec!["backends", "tunnel-group"];
        args.extend_from_slice(rest);
        let out = env.run(&args);
        out.code(2);
        assert!(out.stderr.contains(flag), "{args:?}: {}", out.stderr);
        assert_eq!(out.stdout, "", "{args:?}");
    }
    assert!(env.requests().is_empty(), "{:?}", env.requests());
}

#[test]
fn get_prints_the_backend_and_the_tunnels_it_matches() {
    let env = Env::new();
    let tunnels = env.seed_tunnels();
    let ids = env.seed_backends(json!([
        {"description": "prod", "metadata": "m", "labels": {"env": "prod"}},
        {"description": "none", "labels": {"env": "dev"}}
    ]));
    let out = env.run_in(CMD, &["get", &ids[0], "--json"]);
    out.ok();
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_request(&reqs[0], "GET", &format!("{PATH}/{}", ids[0]));
    assert!(reqs[0].body.is_empty());
    let printed = out.json();
    assert_eq!(Some(printed.clone()), env.stored("backends", &ids[0]));
    assert_eq!(
        tunnel_ids(&printed),
        sorted(vec![tunnels[0].clone(), tunnels[1].clone()])
    );
    assert_eq!(printed["labels"], json!({"env": "prod"}));

    let out = env.run_in(CMD, &["get", &ids[1], "--json"]);
    out.ok();
    assert_eq!(out.json()["tunnels"], json!([]), "no tunnel has env=dev");

    let table = common::run(env.cmd().env(var::FORCE_TTY, "1").args([
        "backends",
        "tunnel-group",
        "get",
        &ids[0],
    ]));
    table.ok();
    table.shows_rows(&[
        ("ID", ids[0].as_str()),
        ("DESCRIPTION", "prod"),
        ("LABELS", "env=prod"),
        ("METADATA", "m"),
    ]);
    for t in &tunnels[..2] {
        assert!(table.stdout.contains(t.as_str()), "{t}:\n{}", table.stdout);
    }
    assert!(!table.stdout.contains(tunnels[2].as_str()));
    table.shows_age();
}

#[test]
fn list_prints_json_tsv_and_a_table() {
    let env = Env::new();
    let tunnels = env.seed_tunnels();
    let ids = env.seed_backends(json!([
            {"description": "prod web", "metadata": "{\"a\":1}", "labels": {"env": "prod", "app": "web"}},
            {"description": "all prod", "labels": {"env": "prod"}},
            {"description": "nothing"}
        ]));
    let out = env.run_in(CMD, &["list", "--json"]);
    out.ok();
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_request(&reqs[0], "GET", PATH);
    let state = env.mock.state()["backends"].clone();
    assert_eq!(out.json(), state);
    assert_eq!(state.as_array().unwrap().len(), ids.len());

    let out = env.run_in(CMD, &["list"]);
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

    let table = env.run_terminal(200, &["backends", "tunnel-group", "list"]);
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
    table.prints("env=prod");
}

#[test]
fn update_sends_only_the_flags_given_and_copes_with_labels_null() {
    let env = Env::new();
    let tunnels = env.seed_tunnels();
    let ids = env.seed_backends(
        json!([{"description": "old", "metadata": "m0", "labels": {"env": "prod", "app": "web"}}]),
    );
    let id = &ids[0];
    let out = env.run_in(CMD, &["update", id, "--description", "new", "--json"]);
    out.ok();
    assert_write(
        &env,
        "PATCH",
        &format!("{PATH}/{id}"),
        json!({"description": "new"}),
    );
    let printed = out.json();
    assert_eq!(printed["description"], "new");
    assert_eq!(printed["metadata"], "m0", "kept");
    assert_eq!(
        printed["labels"],
        Value::Null,
        "--json prints the answer exactly as the API returned it"
    );
    // The labels were kept all the same.
    let kept = env.stored("backends", id).unwrap();
    assert_eq!(kept["labels"], json!({"app": "web", "env": "prod"}));
    assert_eq!(tunnel_ids(&kept), vec![tunnels[0].clone()]);
    let out = env.run_in(CMD, &["get", id, "--json"]);
    out.ok();
    assert_eq!(out.json()["labels"], json!({"app": "web", "env": "prod"}));

    // --metadata alone.
    env.mock.clear_requests();
    env.run_in(CMD, &["update", id, "--metadata", "m1", "--json"])
        .ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({"metadata": "m1"}))
    );
    assert_eq!(env.stored("backends", id).unwrap()["metadata"], "m1");
}

#[test]
fn update_without_labels_does_not_show_them_as_empty() {
    // The API answers `"labels": null` to a PATCH without labels although it kept them; what a
    // person reads must not say that the backend has no labels.
    let env = Env::new();
    let ids =
        env.seed_backends(json!([{"description": "old", "labels": {"env": "prod", "app": "web"}}]));
    let id = &ids[0];
    let out = env.run_in(CMD, &["update", id, "--description", "new"]);
    out.ok();
    let fields: Vec<&str> = out.stdout.trim_end_matches('\n').split('\t').collect();
    assert_eq!(fields.len(), 6, "{}", out.stdout);
    assert_eq!(fields[0], id);
    assert_eq!(fields[1], "new");
    let kept = env.stored("backends", id).unwrap();
    assert_eq!(kept["labels"], json!({"app": "web", "env": "prod"}));
    assert_eq!(
        fields[2], "app=web,env=prod",
        "the kept labels, not an empty cell: {}",
        out.stdout
    );

    let table = env.run_tty(&["backends", "tunnel-group", "update", id, "--metadata", "x"]);
    table.ok();
    let labels_line = table.row("LABELS");
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
    let tunnels = env.seed_tunnels();
    let ids =
        env.seed_backends(json!([{"description": "d", "labels": {"env": "prod", "app": "web"}}]));
    let id = &ids[0];
    let out = env.run_in(CMD, &["update", id, "--label", "env=staging", "--json"]);
    out.ok();
    assert_write(
        &env,
        "PATCH",
        &format!("{PATH}/{id}"),
        json!({"labels": {"env": "staging"}}),
    );
    let printed = out.json();
    assert_eq!(
        printed["labels"],
        json!({"env": "staging"}),
        "app=web is gone"
    );
    assert_eq!(printed["description"], "d");
    assert_eq!(tunnel_ids(&printed), vec![tunnels[2].clone()]);
    assert_eq!(env.stored("backends", id), Some(printed));

    // Several labels and the other fields at once.
    env.mock.clear_requests();
    let out = env.run_in(
        CMD,
        &[
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
        ],
    );
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
fn jq_filters_backends_in_process() {
    let env = Env::new();
    let tunnels = env.seed_tunnels();
    let ids =
        env.seed_backends(json!([{"labels": {"env": "prod"}}, {"labels": {"env": "staging"}}]));
    let out = env.run_in(
        CMD,
        &[
            "list",
            "--jq",
            ".[] | select(.labels.env == \"staging\") | .id",
        ],
    );
    out.ok();
    assert_eq!(out.stdout, format!("{}\n", ids[1]));
    let out = env.run_in(CMD, &["get", &ids[1], "--jq", ".tunnels[].id"]);
    out.ok();
    assert_eq!(out.stdout, format!("{}\n", tunnels[2]));
}
