//! What a run of webhook fixtures promises beyond the first pass (issues 33 and 34): `--update`
//! rewrites only the snapshots and says what it changed; fixtures run in the order people read
//! their names; a fresh fixture's failure says what to do; the JUnit report parses whatever
//! the answer held; what `save --into` and `--update` write, `test` takes; one glob dialect,
//! one JSON path grammar and one request-file reader for `send`, `diff`, `test` and `replay`.

use std::fs;
use std::process::Command;

use crate::common::upstream::visit;
use crate::common::{gzip, Out};
use crate::local::edge_port;
use crate::webhook_tests::{read, World};
use tunnelctl::registry::env as var;

/// `python3`, to read the JUnit report with a real XML reader; under CI its absence fails.
fn python3(test: &str) -> bool {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found || std::env::var_os("CI").is_none(),
        "{test}: python3 is needed to read the JUnit report under CI"
    );
    if !found {
        println!("SKIPPED {test}: python3 is not installed");
    }
    found
}

/// Parses `report` with python3's `xml.etree`: the test cases' names, or the parser's error.
fn parse_xml(report: &std::path::Path) -> Result<Vec<String>, String> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E\n\
             root = E.parse(sys.argv[1]).getroot()\n\
             print('\\n'.join(c.get('name') for c in root.iter('testcase')))",
        ])
        .arg(report)
        .output()
        .unwrap();
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn update_rewrites_status_and_body_keeps_every_hand_written_glob_and_says_what_changed() {
    let w = World::new();
    w.saved("/hooks/stripe");
    let expect = w.fixtures().join("post-hooks-stripe.expect.toml");
    let mine = read(&expect).replace(
        "[headers]\n",
        "[headers]\nX-Len = \"1??\" # three digits, from 100\n",
    );
    fs::write(&expect, &mine).unwrap();
    w.set(|a| a.headers.push(("X-Len".into(), "150".into())));
    w.test(&[]).ok();
    // The app breaks: a 500 with another body and a header out of its glob.
    w.set(|a| {
        a.status = 500;
        a.body = r#"{"error":"boom"}"#.into();
        a.headers.retain(|(k, _)| k != "X-Len");
        a.headers.push(("X-Len".into(), "39".into()));
    });
    let out = w.test(&["--update"]);
    out.code(8);
    for said in [
        "FAIL    post-hooks-stripe",
        "    updated: status 200 → 500",
        "    updated: the body snapshot",
        "    header X-Len is '39', expected '1??'",
    ] {
        assert!(out.stdout.contains(said), "{said}:\n{}", out.stdout);
    }
    let now = read(&expect);
    assert!(
        now.contains("X-Len = \"1??\" # three digits, from 100"),
        "{now}"
    );
    assert!(now.contains("status = 500"), "{now}");
    assert!(now.contains("\"error\": \"boom\""), "{now}");
    // --json says it too.
    let rows = w.test(&["--json"]).json();
    assert_eq!(rows[0]["result"], "fail");
    // A case that passes is left alone and says nothing was updated.
    w.set(|a| {
        a.headers.retain(|(k, _)| k != "X-Len");
        a.headers.push(("X-Len".into(), "120".into()));
    });
    let before = read(&expect);
    let out = w.test(&["--update"]);
    out.ok();
    assert!(out.stdout.starts_with("PASS"), "{}", out.stdout);
    assert_eq!(read(&expect), before);
}

#[test]
fn an_inline_body_table_updated_passes_the_next_run() {
    let w = World::new();
    w.saved("/hooks/stripe");
    let expect = w.fixtures().join("post-hooks-stripe.expect.toml");
    fs::write(&expect, "status = 200\nbody = { json = '{\"old\": 1}' }\n").unwrap();
    w.test(&[]).code(8);
    w.test(&["--update"])
        .ok()
        .prints("UPDATED post-hooks-stripe")
        .prints("    updated: the body snapshot");
    w.test(&[]).ok();
}

#[test]
fn fixtures_run_in_the_order_people_read_their_names() {
    let w = World::new();
    w.saved_all(&["/hooks/stripe"; 3]);
    // Ten and two: by number, not by byte.
    for n in ["10", "2"] {
        let from = w.fixtures().join("post-hooks-stripe-2");
        for ext in ["http", "expect.toml"] {
            fs::copy(
                from.with_extension(ext),
                w.fixtures().join(format!("case-{n}.{ext}")),
            )
            .unwrap();
        }
    }
    let out = w.test(&[]);
    out.ok();
    let names: Vec<&str> = out
        .stdout
        .lines()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "case-2",
            "case-10",
            "post-hooks-stripe",
            "post-hooks-stripe-2",
            "post-hooks-stripe-3"
        ]
    );
}

#[test]
fn a_fresh_fixture_names_the_paths_to_ignore_and_pins_no_server_software() {
    let w = World::new();
    w.set(|a| {
        a.headers
            .push(("Server".into(), "BaseHTTP/0.6 Python/3.11.7".into()));
        a.headers.push(("X-Pattern".into(), "a*b[1]?".into()));
        a.body = r#"{"received":true,"id":"evt_1","ts":1700000000}"#.into();
    });
    w.saved("/hooks/stripe");
    let expect = w.fixtures().join("post-hooks-stripe.expect.toml");
    let text = read(&expect);
    assert!(!text.contains("Server"), "{text}");
    assert!(!text.contains("Python"), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
    // A value holding glob characters matches itself.
    w.test(&[]).ok();
    // The app makes a new ID and time for each answer: the failure says what to do.
    w.set(|a| a.body = r#"{"received":true,"id":"evt_2","ts":1700000099}"#.into());
    let out = w.test(&[]);
    out.code(8);
    assert!(
        out.stdout.contains(
            "    hint: if these values change on every answer, add them to ignore in \
             hooks/post-hooks-stripe.expect.toml: ignore = [\".id\", \".ts\"]"
        ),
        "{}",
        out.stdout
    );
    out.prints("--update");
    fs::write(
        &expect,
        text.replace("ignore = []", "ignore = [\".id\", \".ts\"]"),
    )
    .unwrap();
    w.test(&[]).ok();
}

/// A hostile agent holding one capture, `id`, of this raw request and no answer.
fn agent_with(id: &str, method_json: &str, raw: &[u8]) -> crate::common::hostile::Hostile {
    use crate::common::hostile::{Hostile, Reply};
    let capture = format!(
        "{{\"uri\":\"/api/requests/http/{id}\",\"id\":\"{id}\",\"tunnel_name\":\"t\",\
         \"remote_addr\":\"1.2.3.4\",\"start\":\"2026-11-25T01:00:00Z\",\"duration\":1000,\
         \"request\":{{\"method\":\"{method_json}\",\"proto\":\"HTTP/1.1\",\"headers\":{{}},\
         \"uri\":\"/h\",\"raw\":\"{}\"}},\"response\":null}}",
        base64(raw)
    );
    Hostile::start(move |_| Reply::ok(capture.clone()))
}

/// `save ID --into hooks` against `agent`.
fn save_into(w: &World, agent: &crate::common::hostile::Hostile, id: &str) -> Out {
    let mut cmd = w.env.bare();
    cmd.current_dir(w.dir.path())
        .env(var::AGENT_URL, format!("{}/api", agent.url()));
    crate::common::run(cmd.args(["local", "requests", "save", id, "--into", "hooks"]))
}

#[test]
fn a_capture_with_no_answer_says_its_status_is_a_guess() {
    let w = World::new();
    let agent = agent_with(
        "airt_wait",
        "POST",
        b"POST /hooks/slow HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi",
    );
    save_into(&w, &agent, "airt_wait").ok();
    let text = read(&w.fixtures().join("post-h.expect.toml"));
    assert!(text.contains("no answer yet: 2xx is a guess"), "{text}");
    assert!(text.contains("status = \"2xx\""), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
}

#[test]
fn the_junit_report_parses_whatever_control_bytes_the_answer_held() {
    if !python3("webhook_runs::junit_control_bytes") {
        return;
    }
    let w = World::new();
    w.set(|a| {
        a.headers = vec![("Content-Type".into(), "text/plain".into())];
        a.body = "ok\n".into();
    });
    w.saved("/hooks/text");
    w.set(|a| a.body = "nul \u{0} esc \u{1b}[31m nonchar \u{fffe} end\n".into());
    let out = w.test(&["--junit", "report.xml"]);
    out.code(8);
    let report = w.dir.path().join("report.xml");
    let names = parse_xml(&report).unwrap_or_else(|e| panic!("{e}\n{}", read(&report)));
    assert_eq!(names, ["post-hooks-text"]);
    assert!(read(&report).contains("\\u{fffe}"), "{}", read(&report));
}

#[test]
fn save_into_refuses_a_capture_test_could_not_send_and_writes_nothing() {
    let w = World::new();
    let agent = agent_with(
        "airt_esc",
        "P\\u001b[31mOST",
        b"P\x1b[31mOST /h HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi",
    );
    let out = save_into(&w, &agent, "airt_esc");
    out.code(2).says("airt_esc cannot be a fixture");
    assert!(!out.stderr.contains('\u{1b}'), "{}", out.stderr);
    let left: Vec<_> = fs::read_dir(w.fixtures())
        .map(|d| d.filter_map(Result::ok).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
}

fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[test]
fn one_glob_dialect_sets_work_and_a_bad_glob_stops_the_run() {
    let w = World::new();
    w.saved_all(&["/hooks/a", "/hooks/b", "/hooks/c"]);
    let out = w.test(&["--filter", "post-hooks-[ab]"]);
    out.ok();
    assert_eq!(out.stdout.lines().count(), 2, "{}", out.stdout);
    w.test(&["--filter", "post-hooks-[!ab]"])
        .ok()
        .prints("post-hooks-c");
    // The same dialect in a header glob of an expectation file: an unclosed '[' stops the run.
    let expect = w.fixtures().join("post-hooks-b.expect.toml");
    let text = read(&expect);
    fs::write(
        &expect,
        text.replace("X-Handled-By = \"hooks\"", "X-Handled-By = \"h[ook\""),
    )
    .unwrap();
    let sent = w.handler.count();
    let out = w.test(&[]);
    out.code(2)
        .says("post-hooks-b.expect.toml:")
        .says("not closed");
    assert_eq!(w.handler.count(), sent, "nothing was sent");
    fs::write(
        &expect,
        text.replace("X-Handled-By = \"hooks\"", "X-Handled-By = \"[gh]ook[s]\""),
    )
    .unwrap();
    w.test(&["--filter", "post-hooks-b"]).ok();
    // And in the list filters.
    w.requests(&[], &["list", "--path", "/hooks/[ab"])
        .code(2)
        .says("not closed");
    let out = w.requests(&[], &["list", "--path", "/hooks/[bc]", "--json"]);
    out.ok();
    assert_eq!(out.json().as_array().unwrap().len(), 2);
}

#[test]
fn replay_set_takes_the_path_diff_shows_and_the_older_form() {
    let w = World::new();
    let id = w.capture(
        "/hooks/items",
        &[],
        r#"{"data":{"amount":1,"items":[{"id":1},{"id":2}]}}"#,
    );
    let to = w.handler.url();
    let out = w.requests(
        &[],
        &[
            "replay",
            &id,
            "--set",
            ".data.items[0].id=7",
            "--set",
            "data.amount=1",
            "--set",
            "data.items.1.id=9",
            "--to",
            &to,
        ],
    );
    out.ok();
    let got = w.handler.seen().pop().unwrap();
    let body: serde_json::Value = serde_json::from_slice(&got.body).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"data": {"amount": 1, "items": [{"id": 7}, {"id": 9}]}})
    );
    let sent = w.handler.count();
    w.requests(
        &[],
        &["replay", &id, "--set", ".data.items[*].id=7", "--to", &to],
    )
    .code(2)
    .says("names many");
    w.requests(
        &[],
        &["replay", &id, "--set", ".data.items[5].id=7", "--to", &to],
    )
    .code(2)
    .says("past the end");
    assert_eq!(w.handler.count(), sent, "nothing was sent");
}

#[test]
fn replay_set_on_a_gzip_json_body_changes_it_and_sends_it_gzipped() {
    let w = World::new();
    let body = gzip(br#"{"status":"green","n":1}"#);
    visit(
        edge_port(&w.env, "hook (http)"),
        "POST",
        "/hooks/gz",
        &[
            ("Content-Type", "application/json"),
            ("Content-Encoding", "gzip"),
        ],
        &body,
    );
    let id = crate::local::captured(&w.env)[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let to = w.handler.url();
    w.requests(&[], &["replay", &id, "--set", "status=red", "--to", &to])
        .ok();
    let got = w.handler.seen().pop().unwrap();
    assert_eq!(
        got.headers
            .iter()
            .find(|(k, _)| k == "content-encoding")
            .map(|(_, v)| v.as_str()),
        Some("gzip")
    );
    let mut plain = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(got.body.as_slice()),
        &mut plain,
    )
    .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&plain).unwrap();
    assert_eq!(v, serde_json::json!({"status": "red", "n": 1}));
}

/// `send` of files in the test's folder.
fn send(w: &World, args: &[&str]) -> Out {
    let mut all = vec!["send"];
    all.extend_from_slice(args);
    w.requests(&[], &all)
}

#[test]
fn send_and_test_send_the_host_of_to_unless_told_to_keep_the_files() {
    let w = World::new();
    w.saved("/hooks/host");
    let file = w.fixtures().join("post-hooks-host.http");
    let text = read(&file);
    assert!(text.contains("Host: "), "{text}");
    let to = w.handler.url();
    let want = to.trim_start_matches("http://").trim_end_matches('/');
    let host = |w: &World| {
        w.handler
            .seen()
            .pop()
            .unwrap()
            .header("host")
            .unwrap()
            .to_string()
    };
    w.test(&[]).ok();
    assert_eq!(host(&w), want);
    send(&w, &["hooks/post-hooks-host.http", "--to", &to]).ok();
    assert_eq!(host(&w), want);
    let captured = text
        .lines()
        .find_map(|l| l.strip_prefix("Host: "))
        .unwrap()
        .trim()
        .to_string();
    assert_ne!(captured, want);
    w.test(&["--keep-host"]).ok();
    assert_eq!(host(&w), captured);
    send(
        &w,
        &["hooks/post-hooks-host.http", "--to", &to, "--keep-host"],
    )
    .ok();
    assert_eq!(host(&w), captured);
}

#[test]
fn one_request_file_reader_refuses_a_cut_body_in_send_diff_and_test() {
    let w = World::new();
    w.saved("/hooks/stripe");
    let dir = w.dir.path();
    let ok = "POST /h HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{\"a\":1}\n";
    let cut = "POST /h HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":1}";
    fs::write(dir.join("ok.http"), ok).unwrap();
    fs::write(dir.join("cut.http"), cut).unwrap();
    let out = w.requests(&[], &["diff", "cut.http", "ok.http"]);
    out.code(2)
        .says("cut.http")
        .says("7 bytes, shorter than its Content-Length of 100");
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    let sent = w.handler.count();
    let to = w.handler.url();
    send(&w, &["cut.http", "--to", &to])
        .code(2)
        .says("shorter than its Content-Length of 100");
    fs::write(w.fixtures().join("post-hooks-stripe.http"), cut).unwrap();
    w.test(&[])
        .code(2)
        .says("shorter than its Content-Length of 100");
    assert_eq!(w.handler.count(), sent, "nothing was sent");
    // A FIFO is refused at once by all of them, never waited for.
    let fifo = dir.join("pipe.http");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    w.requests(&[], &["diff", "pipe.http", "ok.http"])
        .code(2)
        .says("not a regular file");
    send(&w, &["pipe.http", "--to", &to])
        .code(2)
        .says("not a regular file");
}

/// A world whose handler never answers a request to `/hooks/{hang}`, with fixtures
/// `post-hooks-a`, `-b` and `-c` (the hanging one copied from another, since its request cannot
/// be captured through a handler that never answers).
fn hanging_on(hang: &'static str) -> World {
    let others: Vec<String> = ["a", "b", "c"]
        .iter()
        .filter(|n| **n != hang)
        .map(|n| format!("/hooks/{n}"))
        .collect();
    let w = handler_hanging_on(hang);
    w.saved_all(&others.iter().map(String::as_str).collect::<Vec<_>>());
    let from = &others[0];
    let from_name = format!("post{}", from.replace('/', "-"));
    for ext in ["http", "expect.toml"] {
        let text = read(&w.fixtures().join(format!("{from_name}.{ext}")));
        fs::write(
            w.fixtures().join(format!("post-hooks-{hang}.{ext}")),
            text.replace(from.as_str(), &format!("/hooks/{hang}")),
        )
        .unwrap();
    }
    w
}

/// A world whose handler never answers a request to `/hooks/{hang}`.
fn handler_hanging_on(hang: &'static str) -> World {
    use crate::common::hostile::{Hostile, Reply};
    use std::sync::{Arc, Mutex};
    let answer = Arc::new(Mutex::new(crate::webhook_tests::Answer::good()));
    let shared = answer.clone();
    let handler = Hostile::start(move |seen| {
        if seen.path() == format!("/hooks/{hang}") {
            return Reply::Hang;
        }
        let a = shared.lock().unwrap().clone();
        Reply::With(a.status, a.headers, a.body.into_bytes())
    });
    World::with(handler, answer)
}

/// The lines of a run, by their first word and the fixture's name.
fn verdicts(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            Some((w.next()?.to_string(), w.next()?.to_string()))
        })
        .collect()
}

fn pairs(want: &[(&str, &str)]) -> Vec<(String, String)> {
    want.iter()
        .map(|(a, b)| ((*a).to_string(), (*b).to_string()))
        .collect()
}

#[test]
fn each_case_has_its_own_deadline_and_the_next_one_still_runs() {
    let w = hanging_on("a");
    let out = w.test(&["--case-timeout", "1s"]);
    out.code(8);
    assert_eq!(
        verdicts(&out.stdout),
        pairs(&[
            ("FAIL", "post-hooks-a"),
            ("PASS", "post-hooks-b"),
            ("PASS", "post-hooks-c")
        ]),
        "{}",
        out.stdout
    );
    out.prints("no answer and checks within 1s (--case-timeout)");
    w.test(&["--case-timeout", "soon"])
        .code(2)
        .says("--case-timeout");
}

/// `local requests test hooks --to HANDLER` and `extra`.
fn test_line(w: &World, extra: &[&str]) -> Vec<String> {
    let mut line: Vec<String> = ["local", "requests", "test", "hooks", "--to"]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
    line.push(w.handler.url());
    line.extend(extra.iter().map(|s| (*s).to_string()));
    line
}

#[test]
fn when_timeout_runs_out_the_rest_are_not_run_and_the_report_says_so() {
    let w = hanging_on("a");
    let mut cmd = w.env.bare();
    cmd.current_dir(w.dir.path())
        .timeout(std::time::Duration::from_secs(120));
    let out = crate::common::run(
        cmd.args(["--timeout", "2s"])
            .args(test_line(&w, &["--junit", "report.xml"])),
    );
    out.code(7).says("2 not run");
    assert_eq!(
        verdicts(&out.stdout),
        pairs(&[
            ("FAIL", "post-hooks-a"),
            ("SKIP", "post-hooks-b"),
            ("SKIP", "post-hooks-c")
        ]),
        "{}",
        out.stdout
    );
    out.prints("not run: the time limit (--timeout 2s) ran out");
    let report = read(&w.dir.path().join("report.xml"));
    assert_eq!(report.matches("<skipped").count(), 2, "{report}");
    assert_eq!(report.matches("<failure").count(), 1, "{report}");
}

#[test]
fn a_run_shows_its_progress_at_80x24_and_ctrl_c_writes_the_report_for_what_ran() {
    let w = hanging_on("b");
    let mut cmd = w.env.std_cmd();
    cmd.current_dir(w.dir.path())
        .args(test_line(&w, &["--junit", "report.xml"]));
    let mut term = crate::common::pty::Pty::spawn(&cmd, 24, 80);
    let screen = term.wait_for("1 of 3 done; running post-hooks-b");
    assert!(screen.contains("PASS    post-hooks-a"), "{screen}");
    // Nothing wraps at 80 columns.
    assert_eq!(term.wrapped_rows(), Vec::<String>::new(), "{screen}");
    term.send(crate::common::pty::keys::CTRL_C);
    assert_eq!(term.wait_exit(), 130, "{}", term.screen());
    let screen = term.screen();
    for line in [
        "SKIP    post-hooks-b",
        "SKIP    post-hooks-c",
        "1 passed, 0 failed, 2 not run",
    ] {
        assert!(screen.contains(line), "{line}:\n{screen}");
    }
    let report = w.dir.path().join("report.xml");
    assert_eq!(read(&report).matches("<skipped").count(), 2);
    if python3("webhook_runs::ctrl_c_report") {
        let names = parse_xml(&report).unwrap();
        assert_eq!(names, ["post-hooks-a", "post-hooks-b", "post-hooks-c"]);
    }
}

/// A saved fixture whose expectation holds this `jq` check.
fn with_jq(w: &World, path: &str, check: &str) {
    w.saved_all(&[path]);
    let name = format!("post{}", path.replace('/', "-"));
    let expect = w.fixtures().join(format!("{name}.expect.toml"));
    let text = read(&expect).replace("jq = []", &format!("jq = ['{check}']"));
    fs::write(expect, text).unwrap();
}

#[test]
fn a_jq_check_that_never_ends_is_bounded_by_the_case_deadline_and_the_next_case_runs() {
    let w = World::new();
    with_jq(&w, "/hooks/a", "last(range(1e12))");
    with_jq(&w, "/hooks/b", ".received == true");
    let out = w.test(&["--case-timeout", "2s"]);
    out.code(8);
    assert_eq!(
        verdicts(&out.stdout),
        pairs(&[("FAIL", "post-hooks-a"), ("PASS", "post-hooks-b")]),
        "{}",
        out.stdout
    );
    out.prints("no answer and checks within 2s (--case-timeout)");
}

#[test]
fn a_jq_check_that_grows_without_end_is_stopped_by_the_memory_budget() {
    let w = World::new();
    with_jq(&w, "/hooks/a", "[limit(1e9; repeat(1))] | length > 0");
    let out = w.test(&["--case-timeout", "10m"]);
    out.code(8);
    out.prints("took more than 256 MiB of memory");
}

#[test]
fn sigterm_during_a_jq_check_stops_the_run_and_writes_the_report() {
    let w = World::new();
    with_jq(&w, "/hooks/a", "last(range(1e12))");
    with_jq(&w, "/hooks/b", ".received == true");
    let sent = w.handler.count();
    let mut cmd = w.env.std_cmd();
    cmd.current_dir(w.dir.path())
        .args(test_line(
            &w,
            &["--case-timeout", "10m", "--junit", "report.xml"],
        ))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let child = cmd.spawn().unwrap();
    // Its request is answered: the check runs (or is about to).
    crate::common::wait_until("the first case's request", || w.handler.count() > sent);
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        verdicts(&stdout),
        pairs(&[("SKIP", "post-hooks-a"), ("SKIP", "post-hooks-b")]),
        "{stdout}"
    );
    let report = read(&w.dir.path().join("report.xml"));
    assert_eq!(report.matches("<skipped").count(), 2, "{report}");
}

#[test]
fn long_texts_that_differ_on_every_line_are_diffed_in_a_blink() {
    let w = World::new();
    let text = |tag: &str| -> String {
        (0..40_000)
            .map(|i| format!("{tag} line {i:05}\n"))
            .collect()
    };
    let old = text("old");
    w.set(|a| {
        a.headers = vec![("Content-Type".into(), "text/plain".into())];
        a.body = old.clone();
    });
    w.saved_all(&["/hooks/text"]);
    w.set(|a| a.body = text("new"));
    // A guard far past what the diff takes now (under a second), far short of what the
    // diff took before (minutes in a debug build).
    let mut cmd = w.env.bare();
    cmd.current_dir(w.dir.path())
        .timeout(std::time::Duration::from_secs(60));
    let url = w.handler.url();
    let out = crate::common::run(cmd.args(["local", "requests", "test", "hooks", "--to", &url]));
    out.code(8);
    assert!(out.stdout.contains("-old line 39999"), "the diff is shown");
    assert!(out.stdout.contains("+new line 00000"), "the diff is shown");
    // The same through diff, on two request files.
    let file = |body: &str| {
        format!(
            "POST /h HTTP/1.1\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    fs::write(w.dir.path().join("a.http"), file(&old)).unwrap();
    fs::write(w.dir.path().join("b.http"), file(&text("new"))).unwrap();
    let mut cmd = w.env.bare();
    cmd.current_dir(w.dir.path())
        .timeout(std::time::Duration::from_secs(60));
    let out = crate::common::run(cmd.args(["local", "requests", "diff", "a.http", "b.http"]));
    out.ok();
    assert_eq!(
        out.stdout
            .lines()
            .filter(|l| l.trim_start().starts_with("-old line"))
            .count(),
        40_000
    );
}
