//! `tunnelctl export`: `-o` is the output format there as everywhere (export writes TOML
//! only, to stdout or `--out FILE`), TLS termination is exported for the edges named with
//! `--edge`, and the file it writes is one a person can read and use: no empty tables, and a
//! comment beside every secret variable it names.

use serde_json::json;

use crate::common::{self, Env};

fn seeded() -> Env {
    let env = Env::new();
    env.seed_ids(
        "ip_policies",
        json!({"ip_policies": [{"description": "office network"}]}),
    );
    env.seed_destinations(1);
    env
}

#[test]
fn o_is_the_output_format_and_a_format_export_does_not_write_is_refused() {
    let env = seeded();
    let dir = env.dir.path();
    for args in [
        &["export", "-o", "json"][..],
        &["export", "-ojson"],
        &["export", "--json"],
        &["export", "-o", "ndjson"],
        &["export", "-o", "wide"],
        &["export", "-o", "table"],
        &["export", "--jq", ".ip_policies"],
        &["-o", "json", "export"],
    ] {
        env.mock.clear_requests();
        let out = common::run(env.cmd().current_dir(dir).args(args));
        out.code(2).says("TOML").says("--out FILE");
        assert_eq!(out.stdout, "", "{args:?}");
        assert!(env.requests().is_empty(), "{args:?}: {:?}", env.requests());
    }
    assert!(!dir.join("json").exists(), "a file named json was written");
    assert!(!dir.join("table").exists());
    // A file name after -o is no format: clap says which formats there are, and the tip
    // names --out.
    let out = common::run(
        env.cmd()
            .current_dir(dir)
            .args(["export", "-o", "account.toml"]),
    );
    out.code(2).says("--out");
    assert!(!dir.join("account.toml").exists());
    // --out FILE alone writes the file.
    let file = dir.join("account.toml");
    env.run(&["export", "--out", &file.to_string_lossy()])
        .ok()
        .says("Exported 2 resource(s)");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("[ip_policies.office-network]"), "{text}");
    // Its help offers no output format.
    let help = env.run(&["export", "--help"]);
    help.ok();
    for flag in ["-o, --output", "--json", "--jq <EXPR>"] {
        assert!(
            !help
                .stdout
                .lines()
                .any(|l| l.trim_start().starts_with(flag)),
            "{flag}:\n{}",
            help.stdout
        );
    }
    assert!(help.stdout.contains("--out <FILE|->"), "{}", help.stdout);
    assert!(help.stdout.contains("--edge"), "{}", help.stdout);
    // Elsewhere, -o json is still JSON.
    env.run(&["ip-policies", "list", "-o", "json"]).ok().json();
}

#[test]
fn tls_termination_is_exported_for_the_edges_named() {
    let env = seeded();
    let edge = env.seed_tls_edge(json!({"terminate_at": "edge", "min_version": "1.2"}));
    let bare = env.seed_tls_edge(json!(null));
    let upstream = env.seed_tls_edge(json!({"terminate_at": "upstream", "enabled": false}));
    let out = env.run(&[
        "export",
        "tls-termination",
        "--edge",
        &edge,
        "--edge",
        &bare,
        "--edge",
        &upstream,
    ]);
    out.ok();
    let text = &out.stdout;
    assert!(
        text.contains(&format!(
            "[tls_termination.{edge}]\nenabled = true\nterminate_at = \"edge\"\nmin_version = \"1.2\"\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "[tls_termination.{upstream}]\nenabled = false\nterminate_at = \"upstream\"\n"
        )),
        "{text}"
    );
    assert!(!text.contains("[ip_policies"), "{text}");
    // An edge without the module is said to have none, and left out.
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with(&format!("[tls_termination.{bare}]"))),
        "{text}"
    );
    assert!(
        text.contains(&format!("# {bare} has no TLS termination")),
        "{text}"
    );
    // Exactly one GET per edge, nothing listed.
    let paths: Vec<String> = env.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths.len(), 3, "{paths:?}");
    assert!(
        paths.iter().all(|p| p.starts_with("/edges/tls/")),
        "{paths:?}"
    );
    // The file plans with no changes.
    let file = env.dir.path().join("tls.toml");
    std::fs::write(&file, text).unwrap();
    env.run(&["plan", "-f", &file.to_string_lossy(), "--exit-code"])
        .ok()
        .says("No changes");
    // Every kind, with the edges named: the TLS tables come with the rest.
    let all = env.run(&["export", "--edge", &edge]);
    all.ok()
        .prints("[ip_policies.office-network]")
        .prints(&format!("[tls_termination.{edge}]"));
    assert!(!all
        .stdout
        .contains("the API lists no edges, so none is exported"));
}

#[test]
fn tls_termination_without_edges_or_with_a_wrong_one_is_refused() {
    let env = seeded();
    env.mock.clear_requests();
    env.run(&["export", "tls-termination"])
        .code(2)
        .says("--edge EDGE_ID");
    env.run(&["export", "tls_termination", "--edge", "ipp_123"])
        .code(2)
        .says("edgtls_");
    env.run(&["export", "ip-policies", "--edge", "edgtls_123"])
        .code(2)
        .says("tls-termination");
    assert!(env.requests().is_empty(), "{:?}", env.requests());
    // An edge the account does not have: not found.
    env.run(&[
        "export",
        "tls-termination",
        "--edge",
        "edgtls_2gxNoSuchEdge",
    ])
    .code(4)
    .says("edgtls_2gxNoSuchEdge");
    // Without --edge, the file says how to add them.
    env.run(&["export"]).ok().prints("--edge");
}

#[test]
fn an_exported_file_has_no_empty_tables_and_says_which_secret_variables_to_set() {
    let env = Env::new();
    env.seed_ids(
        "event_destinations",
        json!({"event_destinations": [{
            "description": "logs s3",
            "target": {"cloudwatch_logs": {
                "log_group_arn": "arn:aws:logs:us-east-1:123456789012:log-group:audit",
                "auth": {"creds": {"aws_access_key_id": "AKIAEXAMPLE", "aws_secret_access_key": "s3cr3t"}}
            }}
        }]}),
    );
    let out = env.run(&["export"]);
    out.ok();
    let text = &out.stdout;
    assert!(
        !text.contains("[event_destinations.logs-s3.target]\n"),
        "an empty table:\n{text}"
    );
    assert!(
        text.contains("aws_secret_access_key_env = \"AWS_SECRET_LOGS_S3\""),
        "{text}"
    );
    let comment = text
        .lines()
        .position(|l| l.starts_with('#') && l.contains("AWS_SECRET_LOGS_S3"))
        .unwrap_or_else(|| panic!("no comment names the variable:\n{text}"));
    let said: String = text
        .lines()
        .skip(comment)
        .take(3)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(said.contains("set"), "{said}");
    assert!(!text.contains("s3cr3t"));
    // The stderr note names it too, and the file plans clean without it.
    let file = env.dir.path().join("account.toml");
    env.run(&["export", "--out", &file.to_string_lossy()])
        .ok()
        .says("AWS_SECRET_LOGS_S3");
    env.run(&["plan", "-f", &file.to_string_lossy(), "--exit-code"])
        .ok();
}
