//! What a `test` run says (issue 41): every problem of its expectation files at once, each
//! with file and line; a server that cannot be reached explained once, not under every case;
//! the folder it runs when none is named; and the signatures it makes, secrets like the
//! webhook secrets they are made with, never shown.

use std::fs;

use crate::webhook_tests::World;

/// The lines of `text` that hold `what`.
fn lines_with<'a>(text: &'a str, what: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.contains(what)).collect()
}

#[test]
fn every_problem_of_every_expectation_file_is_said_with_its_file_and_line() {
    let w = World::new();
    w.saved_all(&["/hooks/a", "/hooks/b", "/hooks/c"]);
    let hooks = w.fixtures();
    let visits = w.handler.count();
    fs::write(
        hooks.join("post-hooks-a.expect.toml"),
        "status = 99\nstatuss = 1\n\n[headers]\nX-B = \"v[1\"\n",
    )
    .unwrap();
    fs::write(
        hooks.join("post-hooks-b.expect.toml"),
        "status = 200\njq = [\".[\"]\n",
    )
    .unwrap();
    let out = w.test(&[]);
    out.code(2);
    let said = lines_with(&out.stderr, ".expect.toml:");
    let at: Vec<&str> = said
        .iter()
        .map(|l| {
            let l = l.trim_start_matches("error: ");
            l.split(": ").next().unwrap()
        })
        .collect();
    assert_eq!(
        at,
        [
            "hooks/post-hooks-a.expect.toml:1",
            "hooks/post-hooks-a.expect.toml:2",
            "hooks/post-hooks-a.expect.toml:5",
            "hooks/post-hooks-b.expect.toml:2",
        ],
        "{}",
        out.stderr
    );
    assert!(said[0].contains("status must be"), "{}", out.stderr);
    assert!(said[1].contains("unknown key 'statuss'"), "{}", out.stderr);
    assert!(said[2].contains("headers.X-B"), "{}", out.stderr);
    assert!(said[3].contains("jq:"), "{}", out.stderr);
    assert_eq!(w.handler.count(), visits, "nothing was sent");
}

#[test]
fn a_server_that_cannot_be_reached_is_explained_once() {
    let w = World::new();
    w.saved_all(&["/hooks/a", "/hooks/b", "/hooks/c"]);
    // A port that was free a moment ago: nothing listens there.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let to = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let mut cmd = w.env.bare();
    cmd.current_dir(w.dir.path());
    let out = crate::common::run(cmd.args(["local", "requests", "test", "hooks", "--to", &to]));
    out.code(6);
    let both = format!("{}{}", out.stdout, out.stderr);
    assert_eq!(
        lines_with(&both, "running? Give another with --to URL").len(),
        1,
        "the hint once:\n{both}"
    );
    assert_eq!(
        lines_with(&out.stdout, "could not connect").len(),
        3,
        "each case says it failed:\n{}",
        out.stdout
    );
    assert!(
        out.stderr.contains("could not be reached"),
        "{}",
        out.stderr
    );
}

#[test]
fn with_no_folder_named_the_current_one_runs_and_a_note_says_so() {
    let w = World::new();
    w.saved("/hooks/stripe");
    let mut cmd = w.env.bare();
    cmd.current_dir(w.fixtures());
    let url = w.handler.url();
    let out = crate::common::run(cmd.args(["local", "requests", "test", "--to", &url]));
    out.ok();
    assert!(
        out.stdout.starts_with("PASS    post-hooks-stripe"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr
            .contains("No fixture folder named: running the fixtures of the current folder (.)"),
        "{}",
        out.stderr
    );
    // The usage and -h say the folder may be left out, and what it is then.
    let help = crate::common::run(w.env.bare().args(["local", "requests", "test", "-h"]));
    help.ok();
    assert!(
        help.stdout.contains("[DIR|FILE]...") && help.stdout.contains("[default: .]"),
        "{}",
        help.stdout
    );
    // Named, it is run without a note.
    let mut cmd = w.env.bare();
    cmd.current_dir(w.dir.path());
    let out = crate::common::run(cmd.args(["local", "requests", "test", "hooks", "--to", &url]));
    out.ok();
    assert!(!out.stderr.contains("No fixture folder"), "{}", out.stderr);
}

/// The signatures of a request as sent, by provider: the digest each signature header holds
/// (a Stripe `v1=`, a GitHub `sha256=`/`sha1=`, a Slack `v0=`, Shopify's base64, a Standard
/// Webhooks `v1,`).
fn digests(seen: &crate::common::hostile::Seen) -> Vec<String> {
    let mut out = Vec::new();
    for (name, value) in &seen.headers {
        let parts: Vec<&str> = match name.as_str() {
            "stripe-signature" => value
                .split(',')
                .filter_map(|p| p.strip_prefix("v1="))
                .collect(),
            "x-hub-signature-256" => value.strip_prefix("sha256=").into_iter().collect(),
            "x-hub-signature" => value.strip_prefix("sha1=").into_iter().collect(),
            "x-slack-signature" => value.strip_prefix("v0=").into_iter().collect(),
            "x-shopify-hmac-sha256" => vec![value.as_str()],
            "webhook-signature" => value.strip_prefix("v1,").into_iter().collect(),
            _ => Vec::new(),
        };
        out.extend(parts.into_iter().map(str::to_string));
    }
    out
}

#[test]
fn the_signatures_a_run_makes_are_redacted_in_its_failures_as_secrets_are() {
    use crate::common::hostile::{Hostile, Reply};
    use tunnelctl::registry::env as var;
    // An app that echoes the request: its headers in a JSON body, and its signature headers
    // in one of its own.
    let echo = Hostile::start(|seen| {
        let headers: serde_json::Map<String, serde_json::Value> = seen
            .headers
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect();
        let signature = seen
            .headers
            .iter()
            .filter(|(k, _)| k.contains("signature") || k.contains("hmac"))
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        Reply::With(
            200,
            vec![
                ("Content-Type".into(), "application/json".into()),
                ("X-Echo-Signature".into(), signature),
            ],
            serde_json::json!({ "headers": headers })
                .to_string()
                .into_bytes(),
        )
    });
    let w = World::with(
        echo,
        std::sync::Arc::new(std::sync::Mutex::new(crate::webhook_tests::Answer::good())),
    );
    let hooks = w.fixtures();
    fs::create_dir_all(&hooks).unwrap();
    let body = r#"{"type":"invoice.paid"}"#;
    for (name, headers) in [
        ("stripe", "Stripe-Signature: t=1,v1=00\r\n"),
        (
            "github",
            "X-Hub-Signature-256: sha256=00\r\nX-Hub-Signature: sha1=00\r\n",
        ),
        (
            "slack",
            "X-Slack-Request-Timestamp: 1\r\nX-Slack-Signature: v0=00\r\n",
        ),
        ("shopify", "X-Shopify-Hmac-Sha256: AAAA\r\n"),
        (
            "standard",
            "webhook-id: msg_1\r\nwebhook-timestamp: 1\r\nwebhook-signature: v1,AAAA\r\n",
        ),
    ] {
        fs::write(
            hooks.join(format!("{name}.http")),
            format!(
                "POST /hooks/{name} HTTP/1.1\r\nHost: app.test\r\nContent-Type: application/json\r\n{headers}Content-Length: {}\r\n\r\n{body}",
                body.len()
            ),
        )
        .unwrap();
        fs::write(
            hooks.join(format!("{name}.expect.toml")),
            "status = 200\njq = [\".headers.nothing\"]\n\n[headers]\nX-Echo-Signature = \"none\"\n\n[body]\njson = '{\"headers\": {}}'\n",
        )
        .unwrap();
    }
    let secrets = [
        (
            var::WEBHOOK_SECRET_STRIPE,
            "whsec_run_stripe_secret_0123456789",
        ),
        (var::WEBHOOK_SECRET_GITHUB, "gh_run_secret_0123456789abcdef"),
        (
            var::WEBHOOK_SECRET_SLACK,
            "slack_run_secret_0123456789abcdef",
        ),
        (
            var::WEBHOOK_SECRET_SHOPIFY,
            "shpss_run_secret_0123456789abcdef",
        ),
        (
            var::WEBHOOK_SECRET_STANDARD,
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        ),
    ];
    let report = w.dir.path().join("report.xml");
    let report_arg = report.to_string_lossy().into_owned();
    let runs = [
        w.test_with(&secrets, &["--junit", &report_arg]),
        w.test_with(&secrets, &["--json"]),
    ];
    let sent = w.handler.seen();
    assert_eq!(sent.len(), 10, "five fixtures, run twice");
    let made: Vec<String> = sent.iter().flat_map(digests).collect();
    assert_eq!(made.len(), 12, "{made:?}");
    let junit = fs::read_to_string(&report).unwrap();
    for out in &runs {
        out.code(8);
        assert!(out.stdout.contains("(redacted)"), "{}", out.stdout);
        for digest in &made {
            for (what, text) in [
                ("stdout", &out.stdout),
                ("stderr", &out.stderr),
                ("the JUnit report", &junit),
            ] {
                assert!(
                    !text.contains(digest.as_str()),
                    "the signature {digest} is in {what}:\n{text}"
                );
            }
        }
    }
}
