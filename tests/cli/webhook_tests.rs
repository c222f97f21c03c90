//! Captured webhooks become tests: a capture saved as a fixture (`save --into`) passes `test`
//! against the handler that answered it; the handler changed (another status, another body,
//! a header gone) fails with exit 8 and the difference; `--update` makes it pass again and
//! keeps what a person wrote; a stale signature goes out fresh and the provider's official
//! library accepts it; the JUnit report reads in a JUnit reader from PyPI; `diff` shows the
//! changed JSON path; and every new flag refuses a bad value.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::common::hostile::{Hostile, Reply};
use crate::common::upstream::visit;
use crate::common::{gzip, words, Env, Out};
use crate::local::{captured, edge_port};
use crate::official::{accepted, verify_op, Official};
use tunnelctl::registry::env as var;

const STRIPE: &str = "whsec_fixture_stripe_secret_9a7c3e";
const STRIPE_VAR: &str = var::WEBHOOK_SECRET_STRIPE;
const BODY: &str = r#"{"type":"invoice.paid","data":{"amount":100}}"#;

/// What the handler answers; tests change it while it runs.
#[derive(Debug, Clone)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Answer {
    pub(crate) fn good() -> Answer {
        Answer {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "application/json".into()),
                ("X-Handled-By".into(), "hooks".into()),
            ],
            body: r#"{"received":true,"id":"evt_1","amount":100}"#.into(),
        }
    }
}

/// The emulator, a handler whose answer the test sets, and a tunnel `hook` to it.
pub(crate) struct World {
    pub(crate) env: Env,
    pub(crate) handler: Hostile,
    answer: Arc<Mutex<Answer>>,
    pub(crate) dir: tempfile::TempDir,
}

impl World {
    pub(crate) fn new() -> World {
        let answer = Arc::new(Mutex::new(Answer::good()));
        let shared = answer.clone();
        let handler = Hostile::start(move |_| {
            let a = shared.lock().unwrap().clone();
            Reply::With(a.status, a.headers, a.body.into_bytes())
        });
        World::with(handler, answer)
    }

    pub(crate) fn with(handler: Hostile, answer: Arc<Mutex<Answer>>) -> World {
        let env = Env::new();
        env.local(&words(&format!(
            "tunnels start --name hook --proto http --addr {}",
            handler.port()
        )))
        .ok();
        World {
            env,
            handler,
            answer,
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// A webhook through the tunnel, with these headers: its capture ID.
    pub(crate) fn capture(&self, path: &str, headers: &[(&str, &str)], body: &str) -> String {
        let before = captured(&self.env).len();
        let mut all = vec![("Content-Type", "application/json")];
        all.extend_from_slice(headers);
        visit(
            edge_port(&self.env, "hook (http)"),
            "POST",
            path,
            &all,
            body.as_bytes(),
        );
        let list = captured(&self.env);
        assert_eq!(list.len(), before + 1);
        list[0]["id"].as_str().unwrap().to_string()
    }

    /// A webhook to `path` captured and saved as a fixture in `hooks/`: its capture ID.
    pub(crate) fn saved(&self, path: &str) -> String {
        let id = self.capture(path, &[], BODY);
        self.requests(&[], &["save", &id, "--into", "hooks"]).ok();
        id
    }

    /// A webhook to each of `paths` captured, then all saved as fixtures in `hooks/` at once.
    pub(crate) fn saved_all(&self, paths: &[&str]) {
        let ids: Vec<String> = paths.iter().map(|p| self.capture(p, &[], BODY)).collect();
        let mut args = vec!["save"];
        args.extend(ids.iter().map(String::as_str));
        args.extend(["--into", "hooks"]);
        self.requests(&[], &args).ok();
    }

    pub(crate) fn fixtures(&self) -> PathBuf {
        self.dir.path().join("hooks")
    }

    pub(crate) fn set(&self, change: impl FnOnce(&mut Answer)) {
        change(&mut self.answer.lock().unwrap());
    }

    /// `tunnelctl local requests ARGS` with these environment variables.
    pub(crate) fn requests(&self, vars: &[(&str, &str)], args: &[&str]) -> Out {
        let mut cmd = self.env.cmd();
        cmd.env(var::AGENT_URL, self.env.mock.agent_url())
            .current_dir(self.dir.path());
        for (k, v) in vars {
            cmd.env(k, v);
        }
        crate::common::run(cmd.args(["local", "requests"]).args(args))
    }

    /// `test` of the fixture folder against the handler, with no agent and no API key.
    pub(crate) fn test(&self, extra: &[&str]) -> Out {
        self.test_with(&[], extra)
    }

    pub(crate) fn test_with(&self, vars: &[(&str, &str)], extra: &[&str]) -> Out {
        let mut cmd = self.env.bare();
        cmd.current_dir(self.dir.path())
            .env(var::AGENT_URL, "http://127.0.0.1:9/api");
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let url = self.handler.url();
        // A guard, far past what a run takes: a fixture that would block the run (a FIFO)
        // fails the test instead of holding it.
        cmd.timeout(std::time::Duration::from_secs(120));
        crate::common::run(
            cmd.args(["local", "requests", "test", "hooks", "--to", &url])
                .args(extra),
        )
    }
}

fn now() -> i64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    i64::try_from(since.as_secs()).unwrap()
}

/// The official libraries; under CI their absence fails the test instead of skipping it
/// ([`Official::find`]).
fn official(test: &str) -> Option<Official> {
    Official::find(test)
}

pub(crate) fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_capture_saved_as_a_fixture_passes_and_a_changed_handler_fails_with_the_difference() {
    let w = World::new();
    let id = w.saved("/hooks/stripe?attempt=1");
    let http = w.fixtures().join("post-hooks-stripe.http");
    let expect = w.fixtures().join("post-hooks-stripe.expect.toml");
    // The request file is exactly what `save --out` writes, so `send` takes it.
    w.requests(&[], &["save", &id, "--out", "one.http"]).ok();
    assert_eq!(
        fs::read(&http).unwrap(),
        fs::read(w.dir.path().join("one.http")).unwrap()
    );
    let text = read(&expect);
    assert!(text.contains("status = 200"), "{text}");
    assert!(text.contains("X-Handled-By = \"hooks\""), "{text}");
    assert!(
        !text.contains("Date"),
        "volatile headers are not kept: {text}"
    );

    let out = w.test(&[]);
    out.ok();
    assert!(
        out.stdout.starts_with("PASS    post-hooks-stripe  "),
        "{}",
        out.stdout
    );
    assert!(out.stderr.contains("1 passed, 0 failed"), "{}", out.stderr);
    let sent = w.handler.seen().pop().unwrap();
    assert_eq!(sent.target, "/hooks/stripe?attempt=1");
    assert_eq!(sent.body, BODY.as_bytes());

    // Another status.
    w.set(|a| a.status = 500);
    let out = w.test(&[]);
    out.code(8);
    assert!(
        out.stdout.starts_with("FAIL    post-hooks-stripe"),
        "{}",
        out.stdout
    );
    out.prints("status 500, expected 200");
    // Another body: the changed JSON path is shown.
    w.set(|a| {
        a.status = 200;
        a.body = r#"{"received":true,"id":"evt_1","amount":2500}"#.into();
    });
    w.test(&[]).code(8).prints("~ .amount: 100 → 2500");
    // On a terminal the difference is coloured.
    let mut cmd = w.env.bare();
    cmd.current_dir(w.dir.path())
        .env_remove("NO_COLOR")
        .env(var::FORCE_TTY, "1");
    let url = w.handler.url();
    let out = crate::common::run(cmd.args(["local", "requests", "test", "hooks", "--to", &url]));
    out.code(8);
    assert!(
        out.stdout.contains("\x1b[") && out.stdout.contains(".amount"),
        "{}",
        out.stdout
    );
    // A header gone.
    w.set(|a| a.headers.retain(|(k, _)| k != "X-Handled-By"));
    let out = w.test(&["--json"]);
    out.code(8);
    let rows = out.json();
    assert_eq!(rows[0]["result"], "fail");
    let messages: Vec<&str> = rows[0]["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "header X-Handled-By is missing, expected 'hooks'",
            "the body differs from the snapshot"
        ]
    );

    // A person adds a check and a comment; --update follows the answer (status, body) and
    // keeps them, and the header globs too: a header gone still fails, for a person to decide.
    let mine = text
        .replace("jq = []", "jq = [\".received == true\"] # must hold")
        .replace("ignore = []", "# ids change\nignore = [\".id\"]");
    fs::write(&expect, &mine).unwrap();
    w.set(|a| a.status = 202);
    let out = w.test(&["--update"]);
    out.code(8);
    assert!(
        out.stdout.starts_with("FAIL    post-hooks-stripe"),
        "{}",
        out.stdout
    );
    for said in [
        "    updated: status 200 → 202",
        "    updated: the body snapshot",
        "    header X-Handled-By is missing, expected 'hooks'",
    ] {
        assert!(out.stdout.contains(said), "{said}:\n{}", out.stdout);
    }
    let updated = read(&expect);
    for kept in [
        "jq = [\".received == true\"] # must hold",
        "# ids change",
        "ignore = [\".id\"]",
        "# What the answer",
        "X-Handled-By = \"hooks\"",
    ] {
        assert!(updated.contains(kept), "{kept} lost:\n{updated}");
    }
    assert!(updated.contains("status = 202"), "{updated}");
    assert!(updated.contains("\"amount\": 2500"), "{updated}");
    w.set(|a| a.headers.push(("X-Handled-By".into(), "hooks".into())));
    w.test(&[]).ok();
    // The ignored path may change.
    w.set(|a| a.body = r#"{"received":true,"id":"evt_9","amount":2500}"#.into());
    w.test(&[]).ok();

    // A jq expression that is false fails, named.
    w.set(|a| a.body = r#"{"received":false,"id":"evt_9","amount":2500}"#.into());
    let out = w.test(&[]);
    out.code(8).prints("jq '.received == true' is false");
    // --update does not rewrite a hand-written check.
    w.test(&["--update"])
        .code(8)
        .prints("jq '.received == true' is false");
}

#[test]
fn a_stale_signature_goes_out_fresh_and_stripes_library_accepts_it() {
    let Some(official) = official("webhook_tests::stale_signature") else {
        return;
    };
    let official = Arc::new(official);
    let checker = official.clone();
    // The handler verifies as a Stripe integration does, with Stripe's own library.
    let handler = Hostile::start(move |seen| {
        let body = String::from_utf8_lossy(&seen.body).into_owned();
        let headers: Vec<(String, String)> = seen
            .headers
            .iter()
            .map(|(k, v)| {
                let k = if k == "stripe-signature" {
                    "Stripe-Signature".into()
                } else {
                    k.clone()
                };
                (k, v.clone())
            })
            .collect();
        let result = checker.run("stripe", vec![verify_op(&headers, &body, STRIPE)]);
        if accepted(&result[0]) {
            Reply::ok(r#"{"received":true}"#)
        } else {
            Reply::Json(400, format!("{{\"error\":{}}}", result[0]["reason"]))
        }
    });
    let w = World::with(handler, Arc::new(Mutex::new(Answer::good())));
    let stale = official.sign("stripe", BODY, STRIPE, now() - 3600);
    let signature = stale[0].1.clone();
    let id = w.capture("/hooks/stripe", &[("Stripe-Signature", &signature)], BODY);
    // Captured an hour late, the handler refused it.
    let shown = w.requests(&[], &["get", &id]);
    shown.ok();
    w.requests(&[], &["save", &id, "--into", "hooks"]).ok();
    let expect = w.fixtures().join("post-hooks-stripe.expect.toml");
    assert!(read(&expect).contains("status = 400"), "{}", read(&expect));
    fs::write(&expect, "status = 200\njq = [\".received\"]\n").unwrap();

    // Without the secret the case fails and names the variable to set.
    let out = w.test(&[]);
    out.code(8).prints(STRIPE_VAR);
    assert_eq!(w.handler.count(), 1, "nothing was sent unsigned");

    let out = w.test_with(&[(STRIPE_VAR, STRIPE)], &[]);
    out.ok();
    let sent = w.handler.seen().pop().unwrap();
    let fresh = sent.header("stripe-signature").unwrap();
    assert_ne!(fresh, signature);
    assert!(!out.stdout.contains(STRIPE) && !out.stderr.contains(STRIPE));
    // `sign = "none"` sends it as written: the stale signature is refused again.
    fs::write(&expect, "status = 200\nsign = \"none\"\n").unwrap();
    w.test_with(&[(STRIPE_VAR, STRIPE)], &[])
        .code(8)
        .prints("status 400, expected 200");
}

/// Reads a JUnit report with junitparser (from PyPI, in the providers' environment): the
/// suites' counts and each case's name and failure message, as JSON.
fn read_junit(official_python: &Path, report: &Path) -> serde_json::Value {
    let script = r#"
import json, sys
from junitparser import JUnitXml, Failure
xml = JUnitXml.fromfile(sys.argv[1])
cases = []
for suite in xml:
    for case in suite:
        failures = [r for r in case.result if isinstance(r, Failure)]
        cases.append({"name": case.name, "failure": failures[0].message if failures else None, "time": case.time})
print(json.dumps({"tests": xml.tests, "failures": xml.failures, "cases": cases}))
"#;
    let out = Command::new(official_python)
        .args(["-c", script])
        .arg(report)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_junit_report_reads_in_a_junit_reader_and_parallel_runs_report_in_name_order() {
    let Some(_) = official("webhook_tests::junit") else {
        return;
    };
    let w = World::new();
    w.saved_all(&["/b", "/a", "/c", "/d"]);
    fs::write(w.fixtures().join("post-c.expect.toml"), "status = 201\n").unwrap();
    let out = w.test(&["--junit", "report.xml", "--parallel", "4"]);
    out.code(8);
    let names: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| !l.starts_with(' '))
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(names, ["post-a", "post-b", "post-c", "post-d"]);
    let python = providers_python();
    let report = read_junit(&python, &w.dir.path().join("report.xml"));
    assert_eq!(report["tests"], 4);
    assert_eq!(report["failures"], 1);
    let cases = report["cases"].as_array().unwrap();
    let failed: Vec<(&str, &str)> = cases
        .iter()
        .filter(|c| !c["failure"].is_null())
        .map(|c| (c["name"].as_str().unwrap(), c["failure"].as_str().unwrap()))
        .collect();
    assert_eq!(failed, [("post-c", "status 200, expected 201")]);

    // --filter picks cases by name; the report is replaced whole.
    let out = w.test(&["--filter", "post-[ab]", "--junit", "report.xml"]);
    out.ok();
    assert_eq!(out.stdout.lines().count(), 2, "{}", out.stdout);
    let report = read_junit(&python, &w.dir.path().join("report.xml"));
    assert_eq!(
        (&report["tests"], &report["failures"]),
        (&serde_json::json!(2), &serde_json::json!(0))
    );
}

/// The providers' Python, where junitparser is installed.
fn providers_python() -> PathBuf {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/providers/venv/bin/python");
    std::env::var_os("TUNNELCTL_PROVIDERS_DIR")
        .map(|d| PathBuf::from(d).join("venv/bin/python"))
        .unwrap_or(python)
}

#[test]
fn junit_dash_writes_the_report_alone_to_stdout_and_the_lines_to_stderr() {
    let Some(_) = official("webhook_tests::junit_stdout") else {
        return;
    };
    let w = World::new();
    let ids: Vec<String> = ["/a", "/b"]
        .iter()
        .map(|p| w.capture(p, &[], BODY))
        .collect();
    w.requests(&[], &["save", &ids[0], &ids[1], "--into", "hooks"])
        .ok();
    fs::write(w.fixtures().join("post-b.expect.toml"), "status = 201\n").unwrap();
    let out = w.test(&["--junit", "-"]);
    out.code(8);
    assert!(
        !w.dir.path().join("-").exists(),
        "no file named '-' was written"
    );
    // Stdout is the report and nothing else: a JUnit reader reads it whole.
    let report_file = w.dir.path().join("stdout.xml");
    fs::write(&report_file, &out.stdout).unwrap();
    let report = read_junit(&providers_python(), &report_file);
    assert_eq!(
        (&report["tests"], &report["failures"]),
        (&serde_json::json!(2), &serde_json::json!(1))
    );
    // The lines per case, and what differed, are on stderr.
    assert!(out.stderr.contains("PASS    post-a"), "{}", out.stderr);
    assert!(out.stderr.contains("FAIL    post-b"), "{}", out.stderr);
    assert!(
        out.stderr.contains("status 200, expected 201"),
        "{}",
        out.stderr
    );
    assert!(
        out.stdout.trim_start().starts_with("<?xml"),
        "{}",
        out.stdout
    );

    // Both the report and --json want stdout: refused before anything is sent.
    let sent = w.handler.count();
    for extra in [&["--json"][..], &["-o", "ndjson"], &["--jq", ".[0]"]] {
        let mut args = vec!["--junit", "-"];
        args.extend_from_slice(extra);
        w.test(&args).code(2).says("--junit -").says("name a file");
    }
    assert_eq!(w.handler.count(), sent, "nothing was sent");
}

#[test]
fn a_bad_expectation_file_exits_2_naming_file_and_line_and_nothing_is_sent() {
    let w = World::new();
    let id = w.saved("/hooks/stripe");
    let expect = w.fixtures().join("post-hooks-stripe.expect.toml");
    let sent = w.handler.count();
    fs::write(
        &expect,
        "status = 200\n\n[headers]\nX-A = \"1\"\n\n[bodyy]\njson = '{}'\n",
    )
    .unwrap();
    w.test(&[])
        .code(2)
        .says("hooks/post-hooks-stripe.expect.toml:6: unknown key 'bodyy'");
    fs::write(&expect, "status = 200\njq = [\".a |\"]\n").unwrap();
    w.test(&[])
        .code(2)
        .says("post-hooks-stripe.expect.toml:2: jq:");
    fs::remove_file(&expect).unwrap();
    w.test(&[]).code(2).says("--update");
    assert_eq!(w.handler.count(), sent, "nothing was sent");
    // --update makes a missing expectation file from the answer.
    w.test(&["--update"])
        .ok()
        .prints("UPDATED post-hooks-stripe");
    assert!(read(&expect).contains("status = 200"));
    w.test(&[]).ok();
    // Existing files are refused without --force.
    w.requests(&[], &["save", &id, "--into", "hooks"])
        .code(2)
        .says("exists; add --force");
    w.requests(&[], &["save", &id, "--into", "hooks", "--force"])
        .ok();
    assert!(expect.exists());
    w.requests(&[], &["save", &id, "--into", "hooks", "--name", "paid"])
        .ok();
    assert!(w.fixtures().join("paid.expect.toml").exists());
}

#[test]
fn an_unreachable_target_exits_6() {
    let w = World::new();
    w.saved("/h");
    let mut cmd = w.env.bare();
    cmd.current_dir(w.dir.path());
    crate::common::run(cmd.args([
        "local",
        "requests",
        "test",
        "hooks",
        "--to",
        "http://127.0.0.1:9",
    ]))
    .code(6);
}

#[test]
fn a_status_class_a_header_glob_an_ignored_header_a_text_and_a_binary_body_are_checked() {
    let w = World::new();
    w.set(|a| {
        a.headers = vec![
            ("Content-Type".into(), "text/plain; charset=utf-8".into()),
            ("X-Request-Id".into(), "req-1".into()),
        ];
        a.body = "ok\n".into();
    });
    let a = w.capture("/hooks/text", &[], BODY);
    let b = w.capture("/hooks/text", &[], BODY);
    w.requests(&[], &["save", &a, &b, "--into", "hooks"]).ok();
    // One method and path twice: the names are made unique.
    let first = w.fixtures().join("post-hooks-text.expect.toml");
    let second = w.fixtures().join("post-hooks-text-2.http");
    assert!(second.exists(), "{:?}", fs::read_dir(w.fixtures()).unwrap());
    let text = read(&first);
    assert!(
        text.contains("text = "),
        "a text body is kept as text: {text}"
    );
    w.test(&[]).ok();
    // A FILE runs that fixture alone.
    let mut cmd = w.env.bare();
    cmd.current_dir(w.dir.path());
    let url = w.handler.url();
    let out = crate::common::run(cmd.args([
        "local",
        "requests",
        "test",
        second.to_str().unwrap(),
        "--to",
        &url,
    ]));
    out.ok();
    assert_eq!(out.stdout.lines().count(), 1, "{}", out.stdout);
    assert!(
        out.stdout.starts_with("PASS    post-hooks-text-2"),
        "{}",
        out.stdout
    );
    fs::remove_file(&second).unwrap();
    fs::remove_file(w.fixtures().join("post-hooks-text-2.expect.toml")).unwrap();

    // Written by hand: a class of status, a glob, a header not compared, the body as text.
    fs::write(
        &first,
        "status = \"2xx\"\nignore = [\"X-Request-Id\"]\n\n[headers]\n\
         Content-Type = \"text/plain*\"\nX-Request-Id = \"req-1\"\n\n[body]\ntext = \"ok\\n\"\n",
    )
    .unwrap();
    w.set(|a| {
        a.status = 201;
        a.headers[1].1 = "req-2".into();
    });
    w.test(&[]).ok();
    w.set(|a| a.status = 500);
    w.test(&[]).code(8).prints("status 500, expected 2xx");
    w.set(|a| {
        a.status = 200;
        a.headers[0].1 = "application/json".into();
    });
    w.test(&[])
        .code(8)
        .prints("header Content-Type")
        .prints("text/plain*");
    w.set(|a| {
        a.headers[0].1 = "text/plain".into();
        a.body = "nope\n".into();
    });
    w.test(&[])
        .code(8)
        .prints("the body differs from the snapshot")
        .prints("nope");
    // --update follows the answer and keeps the glob that still matches and the ignore.
    w.set(|a| a.status = 503);
    w.test(&["--update"]).ok();
    let updated = read(&first);
    for kept in [
        "Content-Type = \"text/plain*\"",
        "ignore = [\"X-Request-Id\"]",
        "status = 503",
        "nope",
    ] {
        assert!(updated.contains(kept), "{kept} lost:\n{updated}");
    }
    w.test(&[]).ok();

    // A binary body goes to a sidecar file beside the expectation, and is checked.
    let bytes = Arc::new(Mutex::new(vec![0xffu8, 0xfe, 0, 1, b'b', b'i', b'n']));
    let served = bytes.clone();
    let handler = Hostile::start(move |_| {
        let headers = vec![("Content-Type".into(), "application/octet-stream".into())];
        Reply::With(200, headers, served.lock().unwrap().clone())
    });
    let w = World::with(handler, Arc::new(Mutex::new(Answer::good())));
    let id = w.capture("/hooks/bin", &[], BODY);
    w.requests(&[], &["save", &id, "--into", "hooks"]).ok();
    let sidecar = w.fixtures().join("post-hooks-bin.body");
    assert_eq!(fs::read(&sidecar).unwrap(), *bytes.lock().unwrap());
    let expect = read(&w.fixtures().join("post-hooks-bin.expect.toml"));
    assert!(
        expect.contains("file = \"post-hooks-bin.body\""),
        "{expect}"
    );
    w.test(&[]).ok();
    bytes.lock().unwrap()[0] = 0xfd;
    w.test(&[])
        .code(8)
        .prints("the body differs from the snapshot");
}

#[test]
fn diff_reads_captures_the_agent_no_longer_has_from_the_history() {
    let w = World::new();
    let history = w.dir.path().join("history.sqlite3");
    let history = history.to_str().unwrap();
    let a = w.capture("/hooks/stripe", &[("X-Attempt", "1")], BODY);
    let b = w.capture(
        "/hooks/stripe",
        &[("X-Attempt", "2")],
        r#"{"type":"invoice.paid","data":{"amount":2500}}"#,
    );
    let with_history = [(var::HISTORY_FILE, history)];
    w.requests(&with_history, &["record", "--once"]).ok();
    w.requests(&[], &["clear", "--yes"]).ok();
    w.requests(&[], &["diff", &a, &b]).code(4);
    let out = w.requests(&with_history, &["diff", &a, &b]);
    out.ok()
        .prints("~ X-Attempt: 1 → 2")
        .prints("~ .data.amount: 100 → 2500")
        .says("history");
}

#[test]
fn diff_of_two_captures_shows_the_changed_json_path() {
    let w = World::new();
    let a = w.capture("/hooks/stripe", &[("X-Attempt", "1")], BODY);
    w.set(|x| x.body = r#"{"received":true,"id":"evt_1","amount":7}"#.into());
    let b = w.capture(
        "/hooks/stripe",
        &[("X-Attempt", "2")],
        r#"{"type":"invoice.paid","data":{"amount":2500}}"#,
    );
    let out = w.requests(&[], &["diff", &a, &b]);
    out.ok();
    for text in [
        "request:",
        "~ X-Attempt: 1 → 2",
        "~ .data.amount: 100 → 2500",
        "response:",
        "~ .amount: 100 → 7",
    ] {
        out.prints(text);
    }
    w.requests(&[], &["diff", &a, &b, "--exit-code"]).code(8);
    w.requests(&[], &["diff", &a, &a, "--exit-code"]).ok();
    // A request file against a capture.
    w.requests(&[], &["save", &a, "--out", "a.http"]).ok();
    let out = w.requests(&[], &["diff", "a.http", &b, "--json"]);
    out.ok();
    let doc = out.json();
    assert_eq!(doc["same"], false);
    assert!(doc["response"].is_null());
    w.requests(&[], &["diff", "missing.http", &b])
        .code(2)
        .says("missing.http");
}

#[test]
fn every_new_flag_refuses_a_bad_value() {
    let w = World::new();
    let id = w.saved("/h");
    for (flag, value, says) in [
        ("--parallel", "0", "not a number from 1"),
        ("--parallel", "abc", "not a number from 1"),
        ("--filter", "[", "not a glob"),
        ("--to", "not-a-url", "not a URL"),
    ] {
        let mut cmd = w.env.bare();
        cmd.current_dir(w.dir.path());
        let mut args = vec!["local", "requests", "test", "hooks"];
        if flag != "--to" {
            args.extend(["--to", "http://127.0.0.1:9"]);
        }
        args.extend([flag, value]);
        crate::common::run(cmd.args(&args)).code(2).says(says);
    }
    fs::write(w.dir.path().join("file"), "x").unwrap();
    w.requests(&[], &["save", &id, "--into", "file"])
        .code(2)
        .says("is not a folder");
    w.requests(&[], &["save", &id, "--into", "hooks", "--name", "../x"])
        .code(2)
        .says("not a fixture name");
    w.requests(&[], &["save", &id, &id, "--out", "x.http"])
        .code(2)
        .says("--out writes one capture");
}

#[test]
fn a_gzip_json_answer_is_saved_checked_and_updated_as_json() {
    // The handler gzips its JSON, as many frameworks do for a client that accepts it.
    let json = Arc::new(Mutex::new(r#"{"received":true,"amount":100}"#.to_string()));
    let shared = json.clone();
    let handler = Hostile::start(move |_| {
        let headers = vec![
            ("Content-Type".into(), "application/json".into()),
            ("Content-Encoding".into(), "gzip".into()),
        ];
        Reply::With(200, headers, gzip(shared.lock().unwrap().as_bytes()))
    });
    let w = World::with(handler, Arc::new(Mutex::new(Answer::good())));
    let first = w.saved("/hooks/gz");
    let expect = w.fixtures().join("post-hooks-gz.expect.toml");
    let text = read(&expect);
    assert!(text.contains("\"amount\": 100"), "{text}");
    assert!(
        !w.fixtures().join("post-hooks-gz.body").exists(),
        "a gzip JSON answer is no binary sidecar"
    );

    w.test(&[]).ok().prints("PASS    post-hooks-gz");
    // A fixture saved before bodies were decoded: its sidecar holds the gzipped bytes as sent.
    let side = w.fixtures().join("post-hooks-gz.body");
    fs::write(&side, gzip(json.lock().unwrap().as_bytes())).unwrap();
    let before = text.replace(
        &text[text.rfind("\n[body]\n").unwrap()..],
        "\n[body]\nfile = \"post-hooks-gz.body\"\n",
    );
    fs::write(&expect, &before).unwrap();
    w.test(&[]).ok().prints("PASS    post-hooks-gz");
    fs::write(&expect, &text).unwrap();
    fs::remove_file(&side).unwrap();
    // Another JSON, gzipped too: the changed path is shown, not "the bytes differ".
    *json.lock().unwrap() = r#"{"received":true,"amount":2500}"#.into();
    w.test(&[]).code(8).prints("~ .amount: 100 → 2500");
    // `diff` of two captures compares their gzipped answers as JSON too.
    let second = w.capture("/hooks/gz", &[], BODY);
    w.requests(&[], &["diff", &first, &second])
        .ok()
        .prints("response:")
        .prints("~ .amount: 100 → 2500");
    // A jq check reads the decoded JSON.
    fs::write(
        &expect,
        text.replace("jq = []", "jq = [\".amount > 1000\"]"),
    )
    .unwrap();
    w.test(&["--update"]).ok().prints("UPDATED post-hooks-gz");
    let updated = read(&expect);
    assert!(updated.contains("\"amount\": 2500"), "{updated}");
    assert!(!w.fixtures().join("post-hooks-gz.body").exists());
    w.test(&[]).ok();
}

#[test]
fn a_fixture_file_that_is_a_fifo_or_a_folder_is_refused_at_once_and_nothing_is_sent() {
    let w = World::new();
    w.saved("/hooks/stripe");
    let expect = w.fixtures().join("post-hooks-stripe.expect.toml");
    let sent = w.handler.count();
    // A FIFO with no writer would hold `open` forever.
    fs::remove_file(&expect).unwrap();
    let made = Command::new("mkfifo").arg(&expect).status().unwrap();
    assert!(made.success());
    w.test(&[])
        .code(2)
        .says("the expectation file hooks/post-hooks-stripe.expect.toml is not a regular file");
    w.test(&["--update"]).code(2).says("is not a regular file");
    fs::remove_file(&expect).unwrap();
    fs::create_dir(&expect).unwrap();
    w.test(&[]).code(2).says("is not a regular file");
    // A request file named on the command line, too.
    let fifo = w.dir.path().join("pipe.http");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let url = w.handler.url();
    let mut cmd = w.env.bare();
    cmd.current_dir(w.dir.path())
        .timeout(std::time::Duration::from_secs(120));
    crate::common::run(cmd.args(["local", "requests", "test", "pipe.http", "--to", &url]))
        .code(2)
        .says("the request file pipe.http is not a regular file");
    assert_eq!(w.handler.count(), sent, "nothing was sent");
}

#[test]
fn a_body_that_does_not_decode_is_compared_as_sent_and_the_failure_says_why() {
    // The answer says gzip, but its bytes are not.
    let body = Arc::new(Mutex::new("not gzip at all".to_string()));
    let shared = body.clone();
    let handler = Hostile::start(move |_| {
        let headers = vec![
            ("Content-Type".into(), "text/plain".into()),
            ("Content-Encoding".into(), "gzip".into()),
        ];
        Reply::With(200, headers, shared.lock().unwrap().clone().into_bytes())
    });
    let w = World::with(handler, Arc::new(Mutex::new(Answer::good())));
    w.saved("/hooks/bad");
    w.test(&[]).ok();
    *body.lock().unwrap() = "still not gzip".into();
    w.test(&[])
        .code(8)
        .prints("the body differs from the snapshot (gzip encoded:")
        .prints("shown as sent)");
}
