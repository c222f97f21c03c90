//! Signed webhooks through the binary and a real tunnel of the emulator: a webhook signed by
//! the provider's official library is captured, `verify` judges it, and what a changed replay
//! or a `send` delivers to the upstream is accepted by the official verifier again. The
//! libraries come from `tests/providers/setup.sh`; without them each test says SKIPPED, or
//! fails under CI (the variable `CI` set).

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::json;

use crate::common::upstream::{visit, Received, Upstream};
use crate::common::{run, Env, Out};
use crate::local::{captured, edge_port, tunnels_to_upstream};
use crate::official::{accepted, verify_op, Official};
use tunnelctl::registry::env as var;

const STRIPE: &str = "whsec_cli_stripe_secret_5d1e8f0a7b";
const GITHUB: &str = "cli-github-secret-0c4e7a9d1f";
const STRIPE_VAR: &str = var::WEBHOOK_SECRET_STRIPE;
const GITHUB_VAR: &str = var::WEBHOOK_SECRET_GITHUB;
const BODY: &str = r#"{"type":"invoice.paid","data":{"amount":100,"note":"café"}}"#;

fn now() -> i64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    i64::try_from(since.as_secs()).unwrap()
}

/// `tunnelctl local ARGS` with these environment variables.
fn local(env: &Env, vars: &[(&str, &str)], args: &[&str]) -> Out {
    let mut cmd = env.cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url());
    for (k, v) in vars {
        cmd.env(k, v);
    }
    run(cmd.arg("local").args(args))
}

/// A tunnel `hook` and a webhook through it, signed by `lib` (the official library) with
/// `secret` at `at`, its body then replaced by `body`: the env, upstream and capture ID.
fn captured_webhook(
    official: &Official,
    lib: &str,
    secret: &str,
    at: i64,
    body: &str,
) -> (Env, Upstream, String) {
    let signed = official.sign(lib, BODY, secret, at);
    let (env, up) = tunnels_to_upstream(&["hook"]);
    let mut headers: Vec<(&str, &str)> = vec![("Content-Type", "application/json")];
    headers.extend(signed.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    visit(
        edge_port(&env, "hook (http)"),
        "POST",
        "/hooks/pay",
        &headers,
        body.as_bytes(),
    );
    let id = captured(&env)[0]["id"].as_str().unwrap().to_string();
    (env, up, id)
}

/// Does the official verifier of `lib` accept what the upstream received last?
fn official_accepts(official: &Official, lib: &str, secret: &str, up: &Upstream) -> bool {
    let got: Received = up
        .received()
        .pop()
        .expect("the upstream received a request");
    let body = String::from_utf8(got.body).unwrap();
    // HTTP header names have no case (HTTP/1 clients send them lower-cased); a web framework
    // hands them to the verifier in its own case, here the one Stripe's library asks for.
    let headers: Vec<(String, String)> = got
        .headers
        .into_iter()
        .map(|(k, v)| (title_case(&k), v))
        .collect();
    accepted(&official.run(lib, vec![verify_op(&headers, &body, secret)])[0])
}

fn title_case(name: &str) -> String {
    name.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join("-")
}

fn last_header(up: &Upstream, name: &str) -> Option<String> {
    let got = up.received().pop()?;
    got.headers
        .into_iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v)
}

#[test]
fn a_signed_webhook_is_valid_and_a_changed_replay_is_accepted_by_stripes_library() {
    let Some(official) = Official::find("signed_webhooks::changed_replay") else {
        return;
    };
    let (env, up, id) = captured_webhook(&official, "stripe", STRIPE, now(), BODY);
    let secret = [(STRIPE_VAR, STRIPE)];

    let out = local(&env, &secret, &["requests", "verify", &id]);
    out.ok().prints("valid");
    let out = local(&env, &secret, &["requests", "verify", "--json"]);
    out.ok();
    let rows = out.json();
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id.as_str())
        .unwrap();
    let keys: Vec<&String> = row.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["id", "provider", "result", "detail"]);
    assert_eq!(
        (&row["provider"], &row["result"]),
        (&json!("stripe"), &json!("valid"))
    );

    local(&env, &secret, &["requests", "get", &id])
        .ok()
        .prints("Signature: Stripe, valid");
    let raw = local(&env, &secret, &["requests", "get", &id, "--json"]);
    assert!(
        !raw.ok().stdout.contains("Signature:"),
        "--json stays the agent's"
    );
    local(
        &env,
        &secret,
        &["requests", "list", "--signature", "valid", "--json"],
    )
    .ok()
    .prints(&id);
    let none = local(
        &env,
        &secret,
        &["requests", "list", "--signature", "invalid", "--json"],
    );
    assert!(!none.ok().stdout.contains(&id));

    let sent = local(
        &env,
        &secret,
        &["requests", "replay", &id, "--set", "data.amount=2500"],
    );
    sent.ok();
    assert!(!sent.stderr.contains("warning"), "{}", sent.stderr);
    assert!(String::from_utf8_lossy(&up.received().pop().unwrap().body).contains("2500"));
    assert!(
        official_accepts(&official, "stripe", STRIPE, &up),
        "stripe's verifier refused the re-signed replay"
    );

    // Without re-signing, the official verifier refuses the changed body.
    local(
        &env,
        &secret,
        &[
            "requests",
            "replay",
            &id,
            "--set",
            "data.amount=7",
            "--keep-signature",
        ],
    )
    .ok();
    assert!(!official_accepts(&official, "stripe", STRIPE, &up));
}

#[test]
fn a_tampered_capture_is_invalid_and_verify_exits_8() {
    let Some(official) = Official::find("signed_webhooks::tampered") else {
        return;
    };
    let tampered = BODY.replace("100", "999");
    let (env, _up, id) = captured_webhook(&official, "github", GITHUB, now(), &tampered);
    let secret = [(GITHUB_VAR, GITHUB)];
    let out = local(&env, &secret, &["requests", "verify"]);
    out.code(8).prints("invalid");
    let out = local(&env, &secret, &["requests", "verify", &id, "--json"]);
    out.code(8);
    assert_eq!(out.json()[0]["result"], "invalid");
    local(
        &env,
        &secret,
        &["requests", "list", "--signature", "invalid"],
    )
    .ok()
    .prints(&id);
    // No secret: signed, not checked, and nothing failed.
    let out = local(&env, &[], &["requests", "verify", "--json"]);
    out.ok();
    assert_eq!(out.json()[0]["result"], "no-secret");
    assert!(out.json()[0]["detail"]
        .as_str()
        .unwrap()
        .contains(GITHUB_VAR));
}

#[test]
fn an_hour_old_stripe_capture_is_expired_and_sent_again_it_is_accepted() {
    let Some(official) = Official::find("signed_webhooks::expired") else {
        return;
    };
    let (env, up, id) = captured_webhook(&official, "stripe", STRIPE, now() - 3600, BODY);
    let secret = [(STRIPE_VAR, STRIPE)];
    let out = local(&env, &secret, &["requests", "verify", &id]);
    out.code(8).prints("expired");

    // Unchanged, it goes through the agent as asked, with a word on what will happen.
    let out = local(&env, &secret, &["requests", "replay", &id]);
    out.ok();
    assert!(
        out.stderr.contains("expired") && out.stderr.contains("--resign"),
        "{}",
        out.stderr
    );
    let out = local(&env, &secret, &["requests", "replay", &id, "--resign"]);
    out.ok();
    assert!(official_accepts(&official, "stripe", STRIPE, &up));

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("paid.http");
    let file = file.to_str().unwrap();
    local(&env, &[], &["requests", "save", &id, "--out", file]).ok();
    let to = format!("http://127.0.0.1:{}", up.port);
    local(&env, &secret, &["requests", "send", file, "--to", &to]).ok();
    assert!(
        official_accepts(&official, "stripe", STRIPE, &up),
        "stripe's verifier refused the re-signed send"
    );
    // As it was saved, the signature is an hour old: refused.
    local(
        &env,
        &secret,
        &["requests", "send", file, "--to", &to, "--keep-signature"],
    )
    .ok();
    assert!(!official_accepts(&official, "stripe", STRIPE, &up));
}

#[test]
fn a_kept_capture_replayed_from_history_is_signed_again_and_stripes_library_accepts_it() {
    let Some(official) = Official::find("signed_webhooks::from_history") else {
        return;
    };
    let (env, up, id) = captured_webhook(&official, "stripe", STRIPE, now() - 3600, BODY);
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("history.sqlite3");
    let history = history.to_str().unwrap();
    let kept = [(var::HISTORY_FILE, history), (STRIPE_VAR, STRIPE)];
    local(&env, &kept, &["requests", "record", "--once"]).ok();
    // The agent forgets it, as a restart makes it.
    local(&env, &[], &["requests", "clear", "--yes"]).ok();
    assert!(!official_accepts(&official, "stripe", STRIPE, &up), "stale");
    let stale = last_header(&up, "Stripe-Signature");

    // To the tunnel's upstream, signed afresh by tunnelctl.
    let out = local(&env, &kept, &["requests", "replay", &id]);
    out.ok().says("read from the history");
    assert_ne!(last_header(&up, "Stripe-Signature"), stale);
    assert!(
        official_accepts(&official, "stripe", STRIPE, &up),
        "stripe's verifier refused the replay from history"
    );
    // And with --to.
    let n = up.received().len();
    let to = format!("http://127.0.0.1:{}", up.port);
    local(&env, &kept, &["requests", "replay", &id, "--to", &to]).ok();
    assert_eq!(up.received().len(), n + 1);
    assert!(official_accepts(&official, "stripe", STRIPE, &up));
}

#[test]
fn without_a_secret_a_changed_replay_goes_as_changed_with_one_warning() {
    let Some(official) = Official::find("signed_webhooks::no_secret") else {
        return;
    };
    let (env, up, id) = captured_webhook(&official, "stripe", STRIPE, now(), BODY);
    let before = last_header(&up, "Stripe-Signature");
    let out = local(
        &env,
        &[],
        &[
            "requests",
            "replay",
            &id,
            "--set",
            "data.amount=1",
            "-H",
            "X-A: 1",
        ],
    );
    out.ok();
    let warnings: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains("warning"))
        .collect();
    assert_eq!(warnings.len(), 1, "{}", out.stderr);
    assert!(warnings[0].contains(STRIPE_VAR), "{}", warnings[0]);
    assert_eq!(last_header(&up, "Stripe-Signature"), before);
    assert!(String::from_utf8_lossy(&up.received().pop().unwrap().body).contains("\"amount\":1"));
    // --resign cannot sign without the secret: a configuration error, nothing sent.
    let n = up.received().len();
    local(&env, &[], &["requests", "replay", &id, "--resign"])
        .code(3)
        .says(STRIPE_VAR);
    assert_eq!(up.received().len(), n);
}

#[test]
fn send_sign_signs_a_fixture_for_githubs_library() {
    let Some(official) = Official::find("signed_webhooks::send_sign") else {
        return;
    };
    let up = Upstream::start();
    let env = Env::new();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fixture.http");
    std::fs::write(
        &file,
        format!(
            "POST /hooks/gh HTTP/1.1\r\nHost: example.test\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{BODY}",
            BODY.len()
        ),
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let to = format!("http://127.0.0.1:{}", up.port);
    let args = ["requests", "send", file, "--to", &to, "--sign", "github"];
    local(&env, &[(GITHUB_VAR, GITHUB)], &args).ok();
    assert!(official_accepts(&official, "github", GITHUB, &up));
    // No secret for it: nothing is sent.
    local(&env, &[], &args).code(3).says(GITHUB_VAR);
    assert_eq!(up.received().len(), 1);
}

#[test]
fn wrong_signature_and_sign_values_are_usage_errors() {
    let env = Env::new();
    local(&env, &[], &["requests", "list", "--signature", "broken"]).code(2);
    local(
        &env,
        &[],
        &[
            "requests",
            "send",
            "x.http",
            "--to",
            "http://127.0.0.1:9",
            "--sign",
            "paypal",
        ],
    )
    .code(2)
    .says("stripe");
    local(
        &env,
        &[],
        &[
            "requests",
            "replay",
            "airt_1",
            "--resign",
            "--keep-signature",
        ],
    )
    .code(2);
}

#[test]
fn no_secret_is_printed_by_any_new_command_even_with_v() {
    let Some(official) = Official::find("signed_webhooks::no_secret_printed") else {
        return;
    };
    let (env, up, id) = captured_webhook(&official, "stripe", STRIPE, now() - 3600, BODY);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.http");
    let file = file.to_str().unwrap();
    local(&env, &[], &["requests", "save", &id, "--out", file]).ok();
    let to = format!("http://127.0.0.1:{}", up.port);
    let vars = [(STRIPE_VAR, STRIPE), (GITHUB_VAR, GITHUB)];
    let runs: Vec<Vec<&str>> = vec![
        vec!["requests", "verify"],
        vec!["requests", "verify", &id, "--json"],
        vec!["requests", "get", &id],
        vec!["requests", "list", "--signature", "expired"],
        vec!["requests", "replay", &id],
        vec!["requests", "replay", &id, "--resign"],
        vec!["requests", "replay", &id, "--set", "data.amount=3"],
        vec![
            "requests",
            "replay",
            &id,
            "--keep-signature",
            "-H",
            "X-B: 2",
        ],
        vec!["requests", "send", file, "--to", &to],
        vec!["requests", "send", file, "--to", &to, "--sign", "github"],
    ];
    for args in runs {
        let mut with_v = vec!["-v"];
        with_v.extend(&args);
        let out = local(&env, &vars, &with_v);
        for secret in [STRIPE, GITHUB] {
            assert!(
                !out.stdout.contains(secret) && !out.stderr.contains(secret),
                "{args:?} printed a secret:\n{}\n{}",
                out.stdout,
                out.stderr
            );
        }
    }
}
