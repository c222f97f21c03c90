//! `tunnelctl ip-policies …` against the emulator: what was sent, what was printed.

use crate::common::{assert_write, Env};
use serde_json::json;

/// The command words of this module.
const CMD: &[&str] = &["ip-policies"];

#[test]
fn create_sends_the_fields_and_prints_the_policy() {
    let env = Env::new();
    let out = env.run_in(
        CMD,
        &[
            "create",
            "--description",
            "office",
            "--metadata",
            "{\"team\":\"ops\"}",
            "--json",
        ],
    );
    out.ok();
    assert_write(
        &env,
        "POST",
        "/ip_policies",
        json!({"description": "office", "metadata": "{\"team\":\"ops\"}"}),
    );
    let printed = out.json();
    assert!(printed["id"].as_str().unwrap().starts_with("ipp_"));
    assert_eq!(printed["description"], "office");
    let stored = env.mock.state();
    assert_eq!(stored["ip_policies"][0], printed);
}

#[test]
fn update_sends_only_the_flags_given() {
    let env = Env::new();
    let ids = env.seed(json!({"ip_policy_count": 1}));
    let id = ids["ip_policies"][0].as_str().unwrap().to_string();
    let out = env.run_in(CMD, &["update", &id, "--metadata", "m2", "--json"]);
    out.ok();
    assert_write(
        &env,
        "PATCH",
        &format!("/ip_policies/{id}"),
        json!({"metadata": "m2"}),
    );
    assert_eq!(out.json()["metadata"], "m2");
    assert_eq!(
        out.json()["description"],
        "policy 1",
        "the description is kept"
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
        env.run(&args).code(2).says(flag);
    }
    assert!(env.requests().is_empty());
    // At the limit is fine.
    env.run_in(
        CMD,
        &[
            "create",
            "--description",
            &"d".repeat(255),
            "--metadata",
            &"m".repeat(4096),
        ],
    )
    .ok();
}
