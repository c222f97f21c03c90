//! Secrets stay secret against servers that echo them: the API key repeated in an error body,
//! in a response header or body under `--verbose`; AWS secret access keys in traced request
//! and response bodies, tables, detail views and TSV; never taken from the command line; and
//! no core dump can write them to disk. (The harness itself fails any run whose output holds
//! the API key or the test AWS secret.)

use serde_json::{json, Value};

use crate::common::hostile::{page, Hostile, Reply};
use crate::common::{only_write, run, Env, API_KEY, AWS_SECRET};
use tunnelctl::registry::env as var;

/// A secret the service holds that this process never learnt: only field masking can hide it.
const UNKNOWN_SECRET: &str = "UnknownSecretKeyFromTheServer0123456789";

/// Enough of the API key to count as a leak (its redacted form shows four characters).
fn key_part() -> &'static str {
    &API_KEY[2..20]
}

#[test]
fn an_error_body_that_repeats_the_key_is_printed_with_it_redacted() {
    let env = Env::new();
    let long_msg = format!("{}Bearer {API_KEY}", "x".repeat(285));
    let bodies: Vec<(&str, String)> = vec![
        (
            "application/json",
            json!({"error_code": "ERR_1", "msg": format!("bad key Bearer {API_KEY}"),
                   "details": {"operation_id": "op_1", "got": API_KEY}})
            .to_string(),
        ),
        // The key spelled with a JSON escape is still the key once decoded.
        (
            "application/json",
            format!(r#"{{"msg": "bad key \u0074{}"}}"#, &API_KEY[1..]),
        ),
        // A message cut to length must not cut the redaction, leaving part of the key.
        ("application/json", json!({ "msg": long_msg }).to_string()),
        ("application/json", json!({ "echo": API_KEY }).to_string()),
        ("text/plain", format!("unauthorized: Bearer {API_KEY}\n")),
        (
            "text/html",
            format!("<html><title>denied {API_KEY}</title></html>"),
        ),
    ];
    for (ctype, body) in bodies {
        let reply = Reply::With(
            401,
            vec![("Content-Type".into(), ctype.into())],
            body.clone().into_bytes(),
        );
        let server = Hostile::start(move |_| reply.clone());
        let out = env.run_at(&server.url(), &["ip-policies", "list"]);
        out.code(1);
        assert!(out.stderr.contains("401"), "{body}: {}", out.stderr);
        assert!(!out.stderr.contains(key_part()), "{body}: {}", out.stderr);
        assert!(out.stderr.contains("(redacted)"), "{body}: {}", out.stderr);
    }
}

#[test]
fn verbose_traces_hide_the_key_echoed_in_headers_and_bodies() {
    let env = Env::new();
    let body = format!(
        r#"{{"ip_policies": [], "uri": "/ip_policies", "next_page_uri": null, "echo": "Bearer {API_KEY}", "escaped": "\u0074{}"}}"#,
        &API_KEY[1..]
    );
    let server = Hostile::start(move |_| {
        Reply::With(
            200,
            vec![
                ("Content-Type".into(), "application/json".into()),
                ("X-Echo-Authorization".into(), format!("Bearer {API_KEY}")),
            ],
            body.clone().into_bytes(),
        )
    });
    let out = env.run_at(&server.url(), &["-v", "ip-policies", "list"]);
    out.ok();
    assert!(
        out.stderr
            .contains("x-echo-authorization: Bearer tk_t…(redacted)"),
        "{}",
        out.stderr
    );
    // The body is traced.
    out.says("\"echo\"");
    assert!(!out.stderr.contains(key_part()), "{}", out.stderr);
    assert!(!out.stderr.contains(&API_KEY[5..]), "{}", out.stderr);
    // The key did reach the server, where it belongs.
    let auth = format!("Bearer {API_KEY}");
    assert_eq!(
        server.seen()[0].header("authorization"),
        Some(auth.as_str())
    );
}

#[test]
fn verbose_traces_mask_aws_secrets_in_request_and_response_bodies() {
    let env = Env::new();
    // A server that echoes the destination it was sent, with a secret of its own besides.
    let server = Hostile::start(|req| {
        let mut v: Value = serde_json::from_slice(&req.body).unwrap_or(json!({}));
        v["id"] = json!("ed_1");
        v["rotation"] = json!({"previous": {"aws_secret_access_key": UNKNOWN_SECRET}});
        v["note"] = json!(format!("stored {AWS_SECRET}"));
        Reply::Json(201, v.to_string())
    });
    let out = run(env
        .cmd_at(&server.url())
        .env(var::AWS_SECRET_ACCESS_KEY, AWS_SECRET)
        .args([
            "-v",
            "event-destinations",
            "create",
            "--cloudwatch-log-group-arn",
            "arn:aws:logs:us-east-1:123456789012:log-group:x",
            "--aws-access-key-id",
            "AKIAEXAMPLE",
        ]));
    out.ok();
    for text in [&out.stdout, &out.stderr] {
        assert!(!text.contains(UNKNOWN_SECRET), "{text}");
        assert!(!text.contains(&AWS_SECRET[4..]), "{text}");
    }
    assert!(
        out.stderr.contains("> {") && out.stderr.contains("< {"),
        "both bodies are traced: {}",
        out.stderr
    );
    out.says("(redacted)");
    out.prints("AKIAEXAMPLE");
    let sent: Value = serde_json::from_slice(&server.seen()[0].body).unwrap();
    assert_eq!(
        sent["target"]["cloudwatch_logs"]["auth"]["creds"]["aws_secret_access_key"], AWS_SECRET,
        "the secret goes to the API, and only there"
    );
}

#[test]
fn tables_detail_views_and_tsv_mask_the_secret() {
    let env = Env::new();
    let dest = json!({
        "id": "ed_1", "uri": "https://api/event_destinations/ed_1", "description": "d",
        "metadata": "", "format": "json", "created_at": "2026-01-01T00:00:00Z",
        "target": {"kinesis": {"stream_arn": "arn:aws:kinesis:us-east-1:1:stream/s",
            "auth": {"creds": {"aws_access_key_id": "AKIAEXAMPLE", "aws_secret_access_key": UNKNOWN_SECRET}}}},
        "rotation": {"previous": {"creds": {"AWS_SECRET_ACCESS_KEY": UNKNOWN_SECRET}}},
        "aws_secret_access_key": UNKNOWN_SECRET,
    });
    let item = dest.to_string();
    let server = Hostile::start(move |req| {
        if req.path() == "/event_destinations" {
            Reply::ok(page(
                "event_destinations",
                &item,
                "/event_destinations",
                None,
            ))
        } else {
            Reply::ok(item.clone())
        }
    });
    for args in [
        &["event-destinations", "get", "ed_1"][..],
        &["event-destinations", "list"][..],
    ] {
        for tty in ["1", "0"] {
            let out = run(env
                .cmd_at(&server.url())
                .env(var::FORCE_TTY, tty)
                .env("COLUMNS", "400")
                .args(args));
            out.ok();
            assert!(
                !out.stdout.contains(UNKNOWN_SECRET),
                "{args:?} tty={tty}:\n{}",
                out.stdout
            );
            out.prints("AKIAEXAMPLE");
        }
    }
    let detail = run(env.cmd_at(&server.url()).env(var::FORCE_TTY, "1").args([
        "event-destinations",
        "get",
        "ed_1",
    ]));
    detail.prints("ROTATION");
    detail.prints("…(redacted)");
}

#[test]
fn a_secret_in_target_json_on_the_command_line_is_refused() {
    let env = Env::new();
    let target = json!({"firehose": {
        "auth": {"creds": {"aws_access_key_id": "AKIAEXAMPLE", "aws_secret_access_key": AWS_SECRET}},
        "delivery_stream_arn": "arn:aws:firehose:us-east-1:123456789012:deliverystream/d",
    }});
    let inline = target.to_string();
    for verb in [
        vec!["event-destinations", "create"],
        vec!["event-destinations", "update", "ed_x"],
    ] {
        for value in [
            inline.as_str(),
            "{\"kinesis\": {\"aws_secret_access_key\": ",
        ] {
            let mut args = verb.clone();
            args.extend(["--target-json", value]);
            let out = run(env.cmd().args(&args));
            out.code(2);
            assert!(
                out.stderr.contains("--target-json @FILE")
                    && out.stderr.contains("--target-json -"),
                "{}",
                out.stderr
            );
        }
    }
    assert!(env.requests().is_empty(), "nothing sent");

    // From a file and from stdin, it is accepted and reaches the API.
    let file = env.dir.path().join("target.json");
    std::fs::write(&file, target.to_string()).unwrap();
    let at_file = format!("@{}", file.display());
    env.run(&["event-destinations", "create", "--target-json", &at_file])
        .ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({"target": target}))
    );
    env.mock.clear_requests();
    run(env
        .cmd()
        .args(["event-destinations", "create", "--target-json", "-"])
        .write_stdin(target.to_string()))
    .ok();
    assert_eq!(
        only_write(&env).body_json(),
        Some(json!({"target": target}))
    );
    // A wrong value on stdin is a usage error, nothing sent.
    env.mock.clear_requests();
    let bad = run(env
        .cmd()
        .args(["event-destinations", "create", "--target-json", "-"])
        .write_stdin("not json"));
    bad.code(2);
    bad.says("--target-json");
    assert!(env.requests().is_empty());
}

/// `(soft, hard)` of "Max core file size" in `/proc/<pid>/limits`.
fn core_limits(pid: u32) -> (String, String) {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).expect("limits");
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max core file size"))
        .expect("a core size line");
    let mut words = line["Max core file size".len()..].split_whitespace();
    (
        words.next().unwrap_or("").to_string(),
        words.next().unwrap_or("").to_string(),
    )
}

#[cfg(target_os = "linux")]
#[test]
fn core_dumps_are_off_while_the_key_is_in_memory() {
    use std::os::unix::fs::MetadataExt;
    use std::os::unix::process::CommandExt;

    let env = Env::new();
    let server = Hostile::start(|_| Reply::Hang);
    let mut cmd = env.std_cmd_at(&server.url());
    cmd.args(["ip-policies", "list"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // Start the child with core dumps allowed as far as the hard limit goes, so that only the
    // program itself can turn them off.
    // SAFETY: between fork and exec only async-signal-safe calls (getrlimit, setrlimit).
    unsafe {
        cmd.pre_exec(|| {
            let mut lim = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            if libc::getrlimit(libc::RLIMIT_CORE, &mut lim) == 0 {
                lim.rlim_cur = lim.rlim_max;
                libc::setrlimit(libc::RLIMIT_CORE, &lim);
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().expect("the binary starts");
    crate::common::wait_until("the child's request", || server.count() >= 1);
    assert_eq!(server.count(), 1, "the child is waiting on its request");
    let limits = core_limits(child.id());
    // Not dumpable: the kernel makes root the owner of the process's /proc files (visible
    // only when the test does not itself run as root).
    let owner = std::fs::metadata(format!("/proc/{}/environ", child.id()))
        .map(|m| m.uid())
        .ok();
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        limits,
        ("0".to_string(), "0".to_string()),
        "core size limit"
    );
    if me != 0 {
        assert_eq!(owner, Some(0), "not dumpable");
    }
}
