//! `tunnelctl event-destinations …` against the emulator: what was sent, what was printed,
//! and that the AWS secret access key reaches the API and nothing else.

use crate::common;

use crate::common::seed::{KINESIS, ROLE};
use crate::common::words;
use crate::common::{assert_write, only_write, run, Env, AWS_SECRET};
use assert_cmd::Command;
use serde_json::{json, Value};
use tunnelctl::registry::env as var;

/// The command words of this module.
const CMD: &[&str] = &["event-destinations"];

const FIREHOSE: &str = "arn:aws:firehose:us-east-1:123456789012:deliverystream/events";
const LOGS: &str = "arn:aws:logs:us-east-1:123456789012:log-group:tunnels";
const KEY_ID: &str = "AKIAIOSFODNN7EXAMPLE";
const SECRET_ENV: &str = var::AWS_SECRET_ACCESS_KEY;

/// `event-destinations ARGS` with the AWS secret in the environment.
fn run_with_secret(env: &Env, args: &[&str]) -> common::Out {
    run(env.cmd().env(SECRET_ENV, AWS_SECRET).args(CMD).args(args))
}

/// [`run_with_secret`] with the arguments as one line.
fn with_secret(env: &Env, line: &str) -> common::Out {
    run_with_secret(env, &words(line))
}

/// A Kinesis target with a role, as `--target-json` takes it.
fn kinesis_role_json() -> String {
    json!({"kinesis": {"auth": {"role": {"role_arn": ROLE}}, "stream_arn": KINESIS}}).to_string()
}

/// The secret access key of the Kinesis target in the one write.
fn sent_kinesis_secret(env: &Env) -> Value {
    let body = only_write(env).body_json().unwrap();
    body["target"]["kinesis"]["auth"]["creds"]["aws_secret_access_key"].clone()
}

/// `event-destinations create TARGET --aws-access-key-id KEY_ID --aws-secret-access-key-stdin`
/// on `cmd`, with `stdin`.
fn create_with_stdin_secret(mut cmd: Command, target: [&str; 2], stdin: &str) -> common::Out {
    let secret = [
        "--aws-access-key-id",
        KEY_ID,
        "--aws-secret-access-key-stdin",
    ];
    run(cmd
        .args(CMD)
        .arg("create")
        .args(target)
        .args(secret)
        .write_stdin(stdin))
}

/// `event-destinations create` of a Kinesis target with an access key id (the secret still
/// to come from somewhere).
const CREATE_KINESIS_WITH_KEY_ID: [&str; 6] = [
    "event-destinations",
    "create",
    "--kinesis-stream-arn",
    KINESIS,
    "--aws-access-key-id",
    KEY_ID,
];

/// Asserts that `out` succeeded after one write, `METHOD PATH` with `body`, and printed the
/// destination at `path` as the API now stores it; returns what it printed.
#[track_caller]
fn wrote_and_printed(env: &Env, out: &common::Out, method: &str, path: &str, body: Value) -> Value {
    out.ok();
    assert_write(env, method, path, body);
    let printed = out.json();
    let id = printed["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no id printed: {printed}"));
    assert!(
        path == "/event_destinations" || path == format!("/event_destinations/{id}"),
        "{path} printed {id}"
    );
    assert_eq!(
        printed,
        env.stored("event_destinations", id).unwrap(),
        "printed as the API returned it"
    );
    printed
}

/// Runs `create FLAGS` and `update ed_x FLAGS` (with the AWS secret in the environment when
/// `secret`): each is a usage error that names every one of `named` and prints nothing.
#[track_caller]
fn refused_on_create_and_update(env: &Env, flags: &[&str], named: &[&str], secret: bool) {
    for verb in [&["create"][..], &["update", "ed_x"]] {
        let args = [verb, flags].concat();
        let out = match secret {
            true => run_with_secret(env, &args),
            false => env.run_in(CMD, &args),
        };
        out.code(2).says_all(named);
        assert_eq!(out.stdout, "", "{args:?}");
    }
}

// ---------------------------------------------------------------- create

#[test]
fn create_kinesis_with_a_role_sends_the_target_and_prints_the_destination() {
    let env = Env::new();
    let out = env.run_in(
        CMD,
        &[
            "create",
            "--kinesis-stream-arn",
            KINESIS,
            "--role-arn",
            ROLE,
            "--description",
            "audit stream",
            "--metadata",
            "{\"team\":\"sec\"}",
            "--format",
            "json",
            "--json",
        ],
    );
    let body = json!({
        "description": "audit stream",
        "metadata": "{\"team\":\"sec\"}",
        "format": "json",
        "target": {"kinesis": {"auth": {"role": {"role_arn": ROLE}}, "stream_arn": KINESIS}},
    });
    let printed = wrote_and_printed(&env, &out, "POST", "/event_destinations", body);
    let id = printed["id"].as_str().unwrap();
    assert!(id.starts_with("ed_"), "{id}");
    assert_eq!(printed["description"], "audit stream");
    assert_eq!(printed["target"]["kinesis"]["stream_arn"], KINESIS);
}

#[test]
fn create_without_format_sends_no_format() {
    let env = Env::new();
    env.run_words(
        CMD,
        &format!("create --cloudwatch-log-group-arn {LOGS} --role-arn {ROLE} --json"),
    )
    .ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({
            "target": {"cloudwatch_logs": {"auth": {"role": {"role_arn": ROLE}}, "log_group_arn": LOGS}},
        }))
    );
}

#[test]
fn create_with_an_access_key_takes_the_secret_from_the_environment() {
    let env = Env::new();
    let line = format!(
        "create --firehose-delivery-stream-arn {FIREHOSE} --aws-access-key-id {KEY_ID} --json"
    );
    let out = with_secret(&env, &line);
    // The API receives the secret.
    let body = json!({
        "target": {"firehose": {
            "auth": {"creds": {"aws_access_key_id": KEY_ID, "aws_secret_access_key": AWS_SECRET}},
            "delivery_stream_arn": FIREHOSE,
        }},
    });
    let printed = wrote_and_printed(&env, &out, "POST", "/event_destinations", body);
    assert_eq!(
        printed["target"]["firehose"]["auth"]["creds"]["aws_access_key_id"],
        KEY_ID
    );
    // (run() already failed the test if the secret reached stdout or stderr.)
}

#[test]
fn create_with_an_access_key_reads_the_secret_from_stdin() {
    let env = Env::new();
    let logs = ["--cloudwatch-log-group-arn", LOGS];
    let out = create_with_stdin_secret(env.cmd(), logs, &format!("{AWS_SECRET}\r\n"));
    out.ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({
            "target": {"cloudwatch_logs": {
                "auth": {"creds": {"aws_access_key_id": KEY_ID, "aws_secret_access_key": AWS_SECRET}},
                "log_group_arn": LOGS,
            }},
        })),
        "the first line of stdin, without its line ending"
    );
    // TSV: the key id is shown, the secret is not.
    let fields: Vec<&str> = out.stdout.trim_end_matches('\n').split('\t').collect();
    assert_eq!(fields.len(), 7, "{}", out.stdout);
    assert!(fields[0].starts_with("ed_"));
    assert_eq!(fields[3], format!("cloudwatch_logs {LOGS}"));
    assert!(fields[4].contains(KEY_ID), "{}", fields[4]);
}

#[test]
fn stdin_beats_the_environment_for_the_secret() {
    let env = Env::new();
    let mut cmd = env.cmd();
    cmd.env(SECRET_ENV, "env-secret-not-used");
    create_with_stdin_secret(
        cmd,
        ["--kinesis-stream-arn", KINESIS],
        &format!("{AWS_SECRET}\n"),
    )
    .ok();
    assert_eq!(sent_kinesis_secret(&env), AWS_SECRET);
}

#[test]
fn an_empty_stdin_holds_no_secret() {
    let env = Env::new();
    for input in ["", "\n"] {
        create_with_stdin_secret(env.cmd(), ["--kinesis-stream-arn", KINESIS], input)
            .code(2)
            .says("--aws-secret-access-key-stdin");
    }
    assert!(env.requests().is_empty());
}

#[test]
fn secret_stdin_needs_an_access_key_id() {
    let env = Env::new();
    let target_json = kinesis_role_json();
    for flags in [
        vec!["--kinesis-stream-arn", KINESIS],
        vec!["--kinesis-stream-arn", KINESIS, "--role-arn", ROLE],
        vec!["--target-json", target_json.as_str()],
    ] {
        let mut args = vec!["event-destinations", "create"];
        args.extend(flags.iter().copied());
        args.push("--aws-secret-access-key-stdin");
        run(env.cmd().args(&args).write_stdin(format!("{AWS_SECRET}\n")))
            .code(2)
            .says("--aws-access-key-id");
    }
    assert!(env.requests().is_empty(), "{:?}", env.requests());
}

#[test]
fn no_secret_source_off_a_terminal_is_a_usage_error() {
    let env = Env::new();
    let args = CREATE_KINESIS_WITH_KEY_ID;
    let out = env.run(&args);
    out.code(2)
        .says(SECRET_ENV)
        .says("--aws-secret-access-key-stdin");
    assert_eq!(out.stdout, "");
    // An empty variable is no secret either.
    let out = run(env.cmd().env(SECRET_ENV, "").args(args));
    out.code(2).says(SECRET_ENV);
    // Nor on update.
    let out = env.run_words(
        CMD,
        &format!(
            "update ed_x --firehose-delivery-stream-arn {FIREHOSE} --aws-access-key-id {KEY_ID}"
        ),
    );
    out.code(2).says(SECRET_ENV);
    assert!(env.requests().is_empty());
}

#[test]
fn the_secret_is_never_a_flag() {
    let env = Env::new();
    for args in [
        vec!["--aws-secret-access-key", "not-the-secret"],
        vec!["--aws-secret-access-key=not-the-secret"],
        vec!["--secret-access-key", "not-the-secret"],
    ] {
        let mut full = CREATE_KINESIS_WITH_KEY_ID.to_vec();
        full.extend(args.iter().copied());
        run(env.cmd().env(SECRET_ENV, AWS_SECRET).args(&full))
            .code(2)
            .says("unexpected argument");
    }
    assert!(env.requests().is_empty());
}

#[test]
fn verbose_trace_redacts_the_secret() {
    let env = Env::new();
    let line = format!(
        "create --kinesis-stream-arn {KINESIS} --aws-access-key-id {KEY_ID} --verbose --json"
    );
    let out = with_secret(&env, &line);
    out.ok()
        .says(&format!("POST {}/event_destinations", env.mock.url()));
    assert!(
        out.stderr
            .contains("\"aws_secret_access_key\":\"…(redacted)\""),
        "the trace shows a secret is set, not the secret: {}",
        out.stderr
    );
    out.says(KEY_ID).says("201");
    // The API still got the real secret.
    assert_eq!(sent_kinesis_secret(&env), AWS_SECRET);
}

#[test]
fn a_table_shows_the_key_id_but_never_the_secret() {
    let env = Env::new();
    let out = run(env
        .cmd()
        .env(SECRET_ENV, AWS_SECRET)
        .env(var::FORCE_TTY, "1")
        .args([
            "event-destinations",
            "create",
            "--firehose-delivery-stream-arn",
            FIREHOSE,
            "--aws-access-key-id",
            KEY_ID,
            "--description",
            "with a key",
        ]));
    out.ok();
    let auth = out.row("AUTH");
    assert!(auth.contains(KEY_ID), "{auth}");
    assert!(auth.contains("secret hidden"), "{auth}");
    let target = out.row("TARGET");
    assert!(target.contains("firehose"), "{target}");
    let state = env.mock.state();
    let id = state["event_destinations"][0]["id"].as_str().unwrap();
    let id_row = out.row("ID");
    assert!(id_row.contains(id), "the created id: {id_row}");
}

// ---------------------------------------------------------- target JSON

#[test]
fn target_json_is_sent_as_given() {
    let env = Env::new();
    let target = json!({"kinesis": {"auth": {"role": {"role_arn": ROLE}}, "stream_arn": KINESIS}});
    let out = env.run_in(
        CMD,
        &[
            "create",
            "--target-json",
            &target.to_string(),
            "--description",
            "from json",
            "--json",
        ],
    );
    let body = json!({"description": "from json", "target": target});
    wrote_and_printed(&env, &out, "POST", "/event_destinations", body);
}

#[test]
fn target_json_from_a_file_carries_the_secret_to_the_api_only() {
    let env = Env::new();
    let target = json!({"firehose": {
        "auth": {"creds": {"aws_access_key_id": KEY_ID, "aws_secret_access_key": AWS_SECRET}},
        "delivery_stream_arn": FIREHOSE,
    }});
    let file = env.dir.path().join("target.json");
    std::fs::write(&file, serde_json::to_string_pretty(&target).unwrap()).unwrap();
    let arg = format!("@{}", file.display());
    let out = env.run_in(
        CMD,
        &["create", "--target-json", &arg, "--verbose", "--json"],
    );
    out.ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({"target": target}))
    );
    out.says("(redacted)");
    assert_eq!(
        out.json()["target"]["firehose"]["auth"]["creds"]["aws_secret_access_key"],
        Value::Null,
        "the API never echoes it"
    );
}

#[test]
fn target_json_of_a_member_the_cli_does_not_know_is_left_to_the_server() {
    let env = Env::new();
    let target = json!({"s3": {"bucket_arn": "arn:aws:s3:::events"}});
    let out = env.run_in(
        CMD,
        &["create", "--target-json", &target.to_string(), "--json"],
    );
    out.ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({"target": target}))
    );
    assert_eq!(out.json()["target"]["s3"], target["s3"]);
}

#[test]
fn a_bad_target_json_names_the_flag_and_sends_nothing() {
    let env = Env::new();
    let missing = format!("@{}", env.dir.path().join("nope.json").display());
    let cases = [
        "not json".to_string(),
        "".to_string(),
        "[1, 2]".to_string(),
        "{}".to_string(),
        json!({"kinesis": null, "firehose": null}).to_string(),
        json!({
            "kinesis": {"auth": {"role": {"role_arn": ROLE}}, "stream_arn": KINESIS},
            "firehose": {"auth": {"role": {"role_arn": ROLE}}, "delivery_stream_arn": FIREHOSE},
        })
        .to_string(),
        json!({"kinesis": {"stream_arn": KINESIS}}).to_string(),
        json!({"kinesis": {"auth": {}, "stream_arn": KINESIS}}).to_string(),
        json!({"kinesis": {
            "auth": {"role": {"role_arn": ROLE}, "creds": {"aws_access_key_id": KEY_ID, "aws_secret_access_key": "x"}},
            "stream_arn": KINESIS,
        }})
        .to_string(),
        json!({"kinesis": "arn"}).to_string(),
        missing,
    ];
    for raw in &cases {
        refused_on_create_and_update(&env, &["--target-json", raw], &["--target-json"], false);
    }
    assert!(env.requests().is_empty());
}

// ------------------------------------------------ exactly one target / auth

#[test]
fn exactly_one_target() {
    let env = Env::new();
    let target_json = kinesis_role_json();
    for (flags, named) in [
        [
            ("--kinesis-stream-arn", KINESIS),
            ("--firehose-delivery-stream-arn", FIREHOSE),
        ],
        [
            ("--firehose-delivery-stream-arn", FIREHOSE),
            ("--cloudwatch-log-group-arn", LOGS),
        ],
        [
            ("--cloudwatch-log-group-arn", LOGS),
            ("--target-json", target_json.as_str()),
        ],
    ]
    .map(|two| (two.map(|(f, v)| [f, v]).concat(), two.map(|(f, _)| f)))
    {
        let args = [&flags[..], &["--role-arn", ROLE]].concat();
        refused_on_create_and_update(&env, &args, &named, false);
    }
    // None on create.
    let out = env.run_in(CMD, &["create", "--description", "no target"]);
    out.code(2);
    out.says_all(&words("--kinesis-stream-arn --firehose-delivery-stream-arn --cloudwatch-log-group-arn --target-json"));
    let out = env.run_in(CMD, &["create"]);
    out.code(2).says("--target-json");
    assert!(env.requests().is_empty());
}

#[test]
fn exactly_one_auth() {
    let env = Env::new();
    // Both.
    let line = format!(
        "create --kinesis-stream-arn {KINESIS} --role-arn {ROLE} --aws-access-key-id {KEY_ID}"
    );
    let out = with_secret(&env, &line);
    out.code(2).says("--role-arn").says("--aws-access-key-id");
    // None, with a target.
    let named = ["--role-arn", "--aws-access-key-id"];
    refused_on_create_and_update(&env, &["--kinesis-stream-arn", KINESIS], &named, false);
    // An auth without a target.
    // (It says which flags make a target.)
    for auth in [["--role-arn", ROLE], ["--aws-access-key-id", KEY_ID]] {
        refused_on_create_and_update(&env, &auth, &[auth[0], "--kinesis-stream-arn"], true);
    }
    // An auth flag with a whole target in JSON.
    let target_json = kinesis_role_json();
    let out = env.run_in(
        CMD,
        &["create", "--target-json", &target_json, "--role-arn", ROLE],
    );
    out.code(2).says("--target-json").says("--role-arn");
    assert!(env.requests().is_empty());
}

// ------------------------------------------------- other values of flags

#[test]
fn format_takes_only_json() {
    let env = Env::new();
    for bad in ["xml", "JSON", ""] {
        for verb in [
            vec![
                "event-destinations",
                "create",
                "--kinesis-stream-arn",
                KINESIS,
                "--role-arn",
                ROLE,
            ],
            vec!["event-destinations", "update", "ed_x"],
        ] {
            let mut args = verb.clone();
            args.extend(["--format", bad]);
            env.run(&args).code(2).says("--format");
        }
    }
    assert!(env.requests().is_empty());
}

#[test]
fn description_and_metadata_limits_are_bytes() {
    let env = Env::new();
    let long_desc = "d".repeat(256);
    let multibyte = "é".repeat(128); // 256 bytes in 128 characters
    let long_meta = "m".repeat(4097);
    let multibyte_meta = "€".repeat(1366); // 4098 bytes in 1366 characters
    let target = ["--kinesis-stream-arn", KINESIS, "--role-arn", ROLE];
    for (flag, value) in [
        ("--description", &long_desc),
        ("--description", &multibyte),
        ("--metadata", &long_meta),
        ("--metadata", &multibyte_meta),
    ] {
        let mut create = vec!["event-destinations", "create"];
        create.extend(target);
        create.extend([flag, value.as_str()]);
        let out = env.run(&create);
        out.code(2);
        assert!(out.stderr.contains(flag), "{flag}: {}", out.stderr);
        env.run_in(CMD, &["update", "ed_x", flag, value])
            .code(2)
            .says(flag);
    }
    assert!(env.requests().is_empty());
    // At the limits is fine.
    let desc = "é".repeat(127) + "d"; // 255 bytes
    let meta = "m".repeat(4096);
    let mut create = vec!["event-destinations", "create"];
    create.extend(target);
    create.extend(["--description", &desc, "--metadata", &meta, "--json"]);
    let out = env.run(&create);
    out.ok();
    assert_eq!(out.json()["description"], desc.as_str());
    assert_eq!(out.json()["metadata"], meta.as_str());
    let body = only_write(&env).body_json().unwrap();
    assert_eq!(body["description"], desc.as_str());
}

#[test]
fn every_value_flag_needs_its_value() {
    let env = Env::new();
    for flag in [
        "--description",
        "--metadata",
        "--format",
        "--kinesis-stream-arn",
        "--firehose-delivery-stream-arn",
        "--cloudwatch-log-group-arn",
        "--role-arn",
        "--aws-access-key-id",
        "--target-json",
    ] {
        env.run_in(CMD, &["create", flag]).code(2).says(flag);
    }
    assert!(env.requests().is_empty());
}

#[test]
fn empty_arns_and_key_ids_are_refused_before_sending() {
    let env = Env::new();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--kinesis-stream-arn", "", "--role-arn", ROLE],
            "--kinesis-stream-arn",
        ),
        (
            vec!["--firehose-delivery-stream-arn", "", "--role-arn", ROLE],
            "--firehose-delivery-stream-arn",
        ),
        (
            vec!["--cloudwatch-log-group-arn", "", "--role-arn", ROLE],
            "--cloudwatch-log-group-arn",
        ),
        (
            vec!["--kinesis-stream-arn", KINESIS, "--role-arn", ""],
            "--role-arn",
        ),
        (
            vec!["--kinesis-stream-arn", KINESIS, "--aws-access-key-id", ""],
            "--aws-access-key-id",
        ),
    ];
    for (flags, named) in &cases {
        let mut args = vec!["create"];
        args.extend(flags.iter().copied());
        run_with_secret(&env, &args).code(2).says(named);
    }
    assert!(env.requests().is_empty(), "{:?}", env.requests());
    assert_eq!(env.stored_all("event_destinations").len(), 0);
}

// -------------------------------------------------------------- get/list

#[test]
fn get_tsv_and_table() {
    let env = Env::new();
    let ids = env.seed_destinations(1);
    let out = env.run_in(CMD, &["get", &ids[0]]);
    out.ok();
    let d = env.stored("event_destinations", &ids[0]).unwrap();
    assert_eq!(
        out.stdout,
        format!(
            "{}\tdest 1\tjson\tkinesis {KINESIS}\trole {ROLE}\t\t{}\n",
            ids[0],
            d["created_at"].as_str().unwrap()
        )
    );
    let table = env.run_tty(&["event-destinations", "get", &ids[0]]);
    table.ok().shows_rows(&[
        ("ID", ids[0].as_str()),
        ("DESCRIPTION", "dest 1"),
        ("FORMAT", "json"),
        ("TARGET", "kinesis"),
        ("AUTH", "role"),
    ]);
    table.shows_age();
}

#[test]
fn jq_reaches_into_the_target() {
    let env = Env::new();
    env.seed_destinations(2);
    let out = env.run_in(CMD, &["list", "--jq", ".[] | .target.kinesis.stream_arn"]);
    out.ok();
    assert_eq!(out.stdout, format!("{KINESIS}\n{KINESIS}\n"));
}

// ---------------------------------------------------------------- update

#[test]
fn update_sends_only_the_flags_given() {
    let env = Env::new();
    let ids = env.seed_destinations(1);
    let before = env.stored("event_destinations", &ids[0]).unwrap();
    let out = env.run_in(CMD, &["update", &ids[0], "--metadata", "m2", "--json"]);
    let path = format!("/event_destinations/{}", ids[0]);
    let printed = wrote_and_printed(&env, &out, "PATCH", &path, json!({"metadata": "m2"}));
    assert_eq!(printed["metadata"], "m2");
    assert_eq!(printed["description"], "dest 1", "the description is kept");
    assert_eq!(printed["target"], before["target"], "the target is kept");

    env.mock.clear_requests();
    env.run_words(
        CMD,
        &format!("update {} --description renamed --format json", ids[0]),
    )
    .ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({"description": "renamed", "format": "json"}))
    );
    assert_eq!(
        env.stored("event_destinations", &ids[0]).unwrap()["description"],
        "renamed"
    );
}

#[test]
fn update_with_a_target_replaces_the_target() {
    let env = Env::new();
    let ids = env.seed_destinations(1);
    let line = format!(
        "update {} --cloudwatch-log-group-arn {LOGS} --aws-access-key-id {KEY_ID} --json",
        ids[0]
    );
    let out = with_secret(&env, &line);
    let body = json!({
        "target": {"cloudwatch_logs": {
            "auth": {"creds": {"aws_access_key_id": KEY_ID, "aws_secret_access_key": AWS_SECRET}},
            "log_group_arn": LOGS,
        }},
    });
    let path = format!("/event_destinations/{}", ids[0]);
    let printed = wrote_and_printed(&env, &out, "PATCH", &path, body);
    assert_eq!(printed["target"]["kinesis"], Value::Null, "replaced");
    assert_eq!(printed["target"]["cloudwatch_logs"]["log_group_arn"], LOGS);
    assert_eq!(printed["description"], "dest 1");

    // And with --target-json.
    env.mock.clear_requests();
    let target = json!({"firehose": {"auth": {"role": {"role_arn": ROLE}}, "delivery_stream_arn": FIREHOSE}});
    env.run_in(
        CMD,
        &["update", &ids[0], "--target-json", &target.to_string()],
    )
    .ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({"target": target}))
    );
    assert_eq!(
        env.stored("event_destinations", &ids[0]).unwrap()["target"]["firehose"]
            ["delivery_stream_arn"],
        FIREHOSE
    );
}

// ---------------------------------------------------------------- delete

#[test]
fn delete_of_a_destination_in_use_names_the_subscription() {
    let env = Env::new();
    let ids = env.seed_destinations(2);
    let subs = env.seed(json!({"event_subscriptions": [
        {"sources": [{"type": "ip_policy_created.v0"}], "destination_ids": [ids[0]]}
    ]}));
    let sub = subs["event_subscriptions"][0].as_str().unwrap().to_string();

    let out = env.run_in(CMD, &["delete", &ids[0], "--yes"]);
    out.code(1)
        .says("400")
        .says(&sub)
        .says(&format!("DELETE /event_destinations/{}", ids[0]));

    // One in use and one free: a partial failure.
    let out = env.run_in(CMD, &["delete", &ids[0], &ids[1], "--yes"]);
    out.code(5)
        .says(&sub)
        .says(&format!("Deleted event destination {}", ids[1]));
    let left = env.mock.state()["event_destinations"].clone();
    assert_eq!(left.as_array().unwrap().len(), 1);
    assert_eq!(left[0]["id"], ids[0].as_str());
}
