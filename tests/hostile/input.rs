//! Hostile input: IDs longer than any real one, `@FILE` values that never end (`/dev/zero`),
//! never start (a FIFO with no writer) or are too large, and `--jq` filters that recurse
//! without end. Each is refused with a clear error before anything is sent.

use std::time::{Duration, Instant};

use crate::common::hostile::{Hostile, Reply};
use crate::common::{run, Env};

const LIMIT_TEXT: &str = "more than 1 MiB";

/// A 70,000-character ID used to be sent, and the answer (a reset) read as "check your
/// network" (exit 6).
#[test]
fn an_id_longer_than_any_real_one_is_refused_and_nothing_is_sent() {
    let env = Env::new();
    let long = "a".repeat(70_000);
    for args in [
        vec!["ip-policies", "get", long.as_str()],
        vec!["ip-policies", "delete", long.as_str(), "--yes"],
        // With a good ID before it: still nothing is sent.
        vec!["ip-policies", "delete", "ipp_1", long.as_str(), "--yes"],
        vec!["sessions", "restart", long.as_str()],
        vec![
            "event-subscriptions",
            "sources",
            "get",
            "esb_1",
            long.as_str(),
        ],
        vec!["edges", "tls-termination", "get", long.as_str()],
    ] {
        let out = env.run(&args);
        out.code(2);
        assert!(
            out.stderr.contains("70000 bytes long") && out.stderr.contains("at most 256"),
            "{args:?}: {}",
            out.stderr
        );
        assert!(out.stderr.lines().count() <= 2, "{}", out.stderr);
    }
    assert!(env.requests().is_empty(), "{:?}", env.requests().len());

    // The agent: a tunnel name or captured-request ID as long.
    let agent = Hostile::start(|_| Reply::ok("{}"));
    for args in [
        vec!["local", "tunnels", "get", long.as_str()],
        vec!["local", "requests", "get", long.as_str()],
    ] {
        env.run_at(&agent.url(), &args).code(2);
    }
    assert_eq!(agent.count(), 0);

    // A long but plausible ID still goes through (and gets its 404).
    let id = format!("ipp_{}", "x".repeat(200));
    env.run(&["ip-policies", "get", &id]).code(4);
}

/// `--target-json @/dev/zero` read without end and grew memory until the machine gave out.
#[test]
fn an_endless_file_is_refused_at_the_limit_with_bounded_memory() {
    let env = Env::new();
    let mut cmd = env.std_cmd();
    cmd.args([
        "event-destinations",
        "create",
        "--target-json",
        "@/dev/zero",
    ]);
    let run = crate::common::rusage::measure(cmd);
    // Refused at the size limit (not at the end of a file that has none), in bounded memory.
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains(LIMIT_TEXT), "{}", run.stderr);
    assert!(run.peak < 64 * 1024 * 1024, "peak RSS {} bytes", run.peak);
    assert!(env.requests().is_empty());
}

/// `--target-json @FIFO` with no writer blocked forever (even in `open`).
#[test]
fn a_fifo_with_no_writer_is_given_up_on_within_the_timeout() {
    let env = Env::new();
    let fifo = env.dir.path().join("target.fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let arg = format!("@{}", fifo.display());
    let start = Instant::now();
    let out = env.run(&[
        "--timeout",
        "2",
        "event-destinations",
        "create",
        "--target-json",
        &arg,
    ]);
    let took = start.elapsed();
    out.code(2);
    out.says("gave up reading");
    out.says("--timeout");
    // The reader gave up because of the timeout (the message says so), not before it.
    assert!(took >= Duration::from_millis(1900), "{took:?}");
    assert!(env.requests().is_empty());

    // Without --timeout: the default of 10 s.
    let start = Instant::now();
    let out = env.run(&[
        "api",
        "POST",
        "/ip_policies",
        "--input",
        &fifo.to_string_lossy(),
    ]);
    let took = start.elapsed();
    out.code(2);
    out.says("within 10s");
    assert!(took >= Duration::from_millis(9500), "{took:?}");
    assert!(env.requests().is_empty());
}

/// A 2 MiB file or stdin is refused by every reader of `@FILE`, `--input` and `-`; 1 MiB is
/// still accepted.
#[test]
fn input_over_a_mebibyte_is_refused_by_every_reader() {
    let env = Env::new();
    let big = env.dir.path().join("big.json");
    let body = format!("{{\"description\":\"{}\"}}", "x".repeat(2 * 1024 * 1024));
    std::fs::write(&big, &body).unwrap();
    let at_big = format!("@{}", big.display());
    let agent = Hostile::start(|_| Reply::ok("{}"));
    let cases: Vec<Vec<&str>> = vec![
        vec!["event-destinations", "create", "--target-json", &at_big],
        vec![
            "api",
            "POST",
            "/ip_policies",
            "--input",
            big.to_str().unwrap(),
        ],
    ];
    for args in &cases {
        env.run(args).code(2).says(LIMIT_TEXT);
    }
    let out = env.run_at(
        &agent.url(),
        &[
            "local",
            "tunnels",
            "start",
            "--name",
            "t",
            "--proto",
            "http",
            "--addr",
            "80",
            "--config-json",
            &at_big,
        ],
    );
    out.code(2);
    out.says(LIMIT_TEXT);
    assert_eq!(agent.count(), 0);

    let out = run(env
        .cmd()
        .args(["api", "POST", "/ip_policies", "--input", "-"])
        .write_stdin(body.clone()));
    out.code(2);
    out.says(LIMIT_TEXT);
    let out = run(env
        .cmd()
        .args(["event-destinations", "create", "--target-json", "@-"])
        .write_stdin(body.clone()));
    out.code(2);
    out.says(LIMIT_TEXT);
    let out = run(env
        .bare()
        .args(["config", "set", "api_url", "-"])
        .write_stdin("x".repeat(2 * 1024 * 1024)));
    out.code(2);
    out.says("longer than 1 MiB");
    assert!(env.requests().is_empty());

    // Just under the bound is read and sent.
    let fits = format!(
        "{{\"description\":\"x\",\"metadata\":\"{}\"}}",
        "y".repeat(1000)
    );
    let ok = env.dir.path().join("ok.json");
    std::fs::write(&ok, &fits).unwrap();
    env.run(&[
        "api",
        "POST",
        "/ip_policies",
        "--input",
        ok.to_str().unwrap(),
    ])
    .ok();
    assert_eq!(env.requests().len(), 1);
}

/// `--jq 'def f: [f]; f'` overflowed the stack and aborted (exit 134, "has overflowed its
/// stack"). It now ends with one clear line and exit 2, like any other bad filter.
#[test]
fn a_jq_filter_that_recurses_without_end_is_a_clear_error() {
    let env = Env::new();
    for filter in ["def f: [f]; f", "def f: 1 + f; f", "def f: {a: f}; f"] {
        let out = env.run(&["ip-policies", "list", "--jq", filter]);
        out.code(2);
        assert!(
            out.stderr.contains("--jq: the filter recursed too deeply"),
            "{filter}: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("overflowed"), "{}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    }
    // Without --jq, and with a filter that ends, nothing changed.
    env.run(&[
        "ip-policies",
        "list",
        "--jq",
        "def f: if . > 0 then . - 1 | f else . end; 5000 | f",
    ])
    .ok();
}
