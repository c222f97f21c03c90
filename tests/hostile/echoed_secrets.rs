//! A secret the service echoes back (an AWS secret access key in an event destination) is
//! masked in every output, `--json`, `-o ndjson`, `--jq` and `api` included, unless the user
//! asks to see it with `--show-secrets`.

use crate::common::hostile::{page, Hostile, Reply};
use crate::common::{words, Env, AWS_SECRET};
use tunnelctl::registry::env as var;

fn destination(secret: &str) -> String {
    format!(
        "{{\"id\":\"ed_1\",\"uri\":\"/event_destinations/ed_1\",\"created_at\":\"2026-01-01T00:00:00Z\",\"description\":\"d\",\"metadata\":\"\",\"format\":\"json\",\"target\":{{\"kinesis\":{{\"stream_arn\":\"arn:aws:kinesis:us-east-1:1:stream/s\",\"auth\":{{\"role\":null,\"creds\":{{\"aws_access_key_id\":\"AKIAEXAMPLE\",\"aws_secret_access_key\":\"{secret}\"}}}}}},\"firehose\":null,\"cloudwatch_logs\":null}}}}"
    )
}

fn echoing(secret: &'static str) -> Hostile {
    Hostile::start(move |req| {
        if req.path() == "/event_destinations" {
            Reply::ok(page(
                "event_destinations",
                &destination(secret),
                "/event_destinations",
                None,
            ))
        } else {
            Reply::ok(destination(secret))
        }
    })
}

#[test]
fn an_echoed_secret_is_masked_in_every_output() {
    let server = echoing(AWS_SECRET);
    let env = Env::new();
    // The harness fails any run whose output holds AWS_SECRET.
    for args in [
        &["event-destinations", "get", "ed_1"][..],
        &["event-destinations", "get", "ed_1", "--json"],
        &["event-destinations", "list"],
        &["event-destinations", "list", "--json"],
        &["event-destinations", "list", "-o", "ndjson"],
        &words("event-destinations list --jq .[].target.kinesis.auth.creds.aws_secret_access_key"),
        &words("event-destinations get ed_1 --jq .target.kinesis.auth.creds"),
        &["api", "GET", "/event_destinations/ed_1"],
        &["api", "GET", "/event_destinations", "--paginate"],
    ] {
        let out = env.run_at(&server.url(), args);
        out.ok();
        if args.contains(&"--json") || args.contains(&"--jq") || args[0] == "api" {
            assert!(
                out.stdout.contains("…(redacted)"),
                "{args:?}: {}",
                out.stdout
            );
        }
    }
    let tty = crate::common::run(env.cmd_at(&server.url()).env(var::FORCE_TTY, "1").args([
        "event-destinations",
        "get",
        "ed_1",
        "--json",
    ]));
    tty.ok();
    tty.prints("…(redacted)");
}

#[test]
fn show_secrets_prints_what_the_service_sent() {
    const SHOWN: &str = "echoed-secret-the-user-asked-for";
    let server = echoing(SHOWN);
    let env = Env::new();
    let out = env.run_at(
        &server.url(),
        &words("event-destinations get ed_1 --json --show-secrets"),
    );
    out.ok();
    assert_eq!(
        out.json()["target"]["kinesis"]["auth"]["creds"]["aws_secret_access_key"],
        SHOWN
    );
    let list = env.run_at(
        &server.url(),
        &["event-destinations", "list", "--json", "--show-secrets"],
    );
    list.prints(SHOWN);
    // Tables never show it, whatever the flag.
    let table = env.run_at(
        &server.url(),
        &["event-destinations", "get", "ed_1", "--show-secrets"],
    );
    assert!(!table.stdout.contains(SHOWN), "{}", table.stdout);
}
