//! The capture history (`local requests record`, `--history`): captures kept in a SQLite file
//! past the agent's memory, read back after the agent was cleared (as a restart clears it),
//! searched, replayed, verified and exported; several recorders at once; a recorder killed
//! mid-write; files that are not a history of ours; the bounds; the file's mode; secrets.

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use serde_json::{json, Value};

use crate::common::seed::capture_kinds;
use crate::common::upstream::visit;
use crate::common::{run, strings, wait_until, Env, Out, API_KEY};
use crate::local::edge_port;
use crate::replay::one_webhook;
use tunnelctl::registry::env as var;

/// The history file of a test.
fn history_file(env: &Env) -> PathBuf {
    env.dir.path().join("data").join("history.sqlite3")
}

/// `tunnelctl local ARGS` against the emulator's agent, with the test's history file.
fn local(env: &Env, args: &[&str]) -> Out {
    local_env(env, &[], args)
}

fn local_env(env: &Env, vars: &[(&str, &str)], args: &[&str]) -> Out {
    let mut cmd = env.cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, history_file(env));
    for (k, v) in vars {
        cmd.env(k, v);
    }
    run(cmd.arg("local").args(args))
}

/// The IDs `list --history FLAGS --json` lists.
fn kept_ids(env: &Env, flags: &[&str]) -> Vec<String> {
    let mut args = vec!["requests", "list", "--history", "--json"];
    args.extend_from_slice(flags);
    ids(&local(env, &args))
}

/// Clears the agent's captures, as a restart of the agent does.
fn clear_agent(env: &Env) {
    local(env, &["requests", "clear", "--yes"]).ok();
    assert_eq!(
        local(env, &["requests", "list", "--json"]).json(),
        json!([])
    );
}

/// The `sqlite3` command-line shell on `file`, for what a user would check with it. Without
/// it the test cannot check: it fails in CI, and says SKIPPED elsewhere (`None`).
fn sqlite3(file: &Path, sql: &str) -> Option<String> {
    let out = match StdCommand::new("sqlite3").arg(file).arg(sql).output() {
        Ok(out) => out,
        Err(e) => {
            crate::common::skip::cannot_run(format!(
                "no sqlite3 command ({e}); .ci/run installs it"
            ));
            return None;
        }
    };
    assert!(
        out.status.success(),
        "sqlite3 {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn ids(out: &Out) -> Vec<String> {
    out.ok();
    out.json()
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {}", out.stdout))
        .iter()
        .map(|c| c["id"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_capture_outlives_the_agent_and_is_read_replayed_verified_and_exported_from_history() {
    let (env, up, id) = one_webhook();
    let from_agent = local(&env, &["requests", "get", &id, "--json"]);
    from_agent.ok();
    let raw_before = local(&env, &["requests", "get", &id, "--raw"]);
    raw_before.ok();
    let record = local(&env, &["requests", "record", "--once"]);
    record.ok().says("Kept 1 new capture(s)");
    clear_agent(&env);

    // Listed and searched.
    assert_eq!(
        ids(&local(&env, &["requests", "list", "--history", "--json"])),
        std::slice::from_ref(&id)
    );
    let found = local(
        &env,
        &[
            "requests",
            "list",
            "--history",
            "--grep",
            "amount",
            "--json",
        ],
    );
    assert_eq!(ids(&found), std::slice::from_ref(&id));
    let none = local(
        &env,
        &[
            "requests",
            "list",
            "--history",
            "--grep",
            "refund",
            "--json",
        ],
    );
    assert!(ids(&none).is_empty());

    // Read: the same bytes as the agent's answer, and said where from.
    let get = local(&env, &["requests", "get", &id, "--json"]);
    get.ok().says("read from the history");
    assert_eq!(get.stdout, from_agent.stdout);
    assert_eq!(get.stderr.lines().count(), 1, "one line: {}", get.stderr);
    let raw = local(&env, &["requests", "get", &id, "--raw"]);
    assert_eq!(raw.stdout, raw_before.stdout);

    // Replayed by tunnelctl to the tunnel's upstream: the same request again.
    let first = up.received()[0].clone();
    local(&env, &["requests", "replay", &id]).ok();
    let again = up
        .received()
        .last()
        .cloned()
        .expect("the replay reached the upstream");
    assert_eq!(up.received().len(), 2);
    assert_eq!(
        (again.method, again.path, again.body),
        (first.method, first.path, first.body)
    );

    // Saved and verified.
    let file = env.dir.path().join("paid.http");
    local(
        &env,
        &["requests", "save", &id, "--out", file.to_str().unwrap()],
    )
    .ok();
    assert_eq!(std::fs::read(&file).unwrap(), raw_before.stdout.as_bytes());
    let verify = local(&env, &["requests", "verify", &id, "--json"]);
    verify.ok();
    assert_eq!(verify.json()[0]["id"], json!(id));
    assert_eq!(verify.json()[0]["result"], json!("unsigned"));

    // Exported.
    let har = env.dir.path().join("kept.har");
    local(
        &env,
        &[
            "requests",
            "export",
            "--har",
            har.to_str().unwrap(),
            "--history",
        ],
    )
    .ok();
    let doc: Value = serde_json::from_slice(&std::fs::read(&har).unwrap()).unwrap();
    assert_eq!(doc["log"]["entries"].as_array().map(Vec::len), Some(1));
    assert_eq!(doc["log"]["entries"][0]["request"]["method"], json!("POST"));

    // An ID neither has: the agent's 404.
    local(&env, &["requests", "get", "airt_nothere"]).code(4);
}

/// `hours` ago, as the agent writes a capture's start.
fn hours_ago(hours: i64) -> String {
    (time::OffsetDateTime::now_utc() - time::Duration::hours(hours))
        .format(&time::format_description::well_known::Rfc3339)
        .expect("a time")
}

#[test]
fn every_filter_and_output_of_list_reads_the_history_as_it_read_the_agent() {
    let env = Env::new();
    capture_kinds(&env, &hours_ago(48));
    let cases: &[&[&str]] = &[
        &[],
        &["--method", "POST"],
        &["--status", "5xx,404"],
        &["--status", "pending"],
        &["--path", "/hooks/*"],
        &["--grep", "invoice.paid"],
        &["--grep", "INVOICE", "--method", "put"],
        &["--since", "1h"],
        &["--tunnel", "a (http)", "--limit", "2"],
        &["--signature", "unsigned", "--limit", "1"],
        &["-o", "ndjson"],
        &["--jq", ".[].request.uri"],
        &["--json"],
    ];
    let outputs = |history: bool| -> Vec<Out> {
        cases
            .iter()
            .map(|flags| {
                let mut args = vec!["requests", "list"];
                args.extend_from_slice(flags);
                if history {
                    args.push("--history");
                }
                local(&env, &args)
            })
            .collect()
    };
    let live = outputs(false);
    local(&env, &["requests", "record", "--once"]).ok();
    clear_agent(&env);
    let kept = outputs(true);
    for ((flags, a), b) in cases.iter().zip(&live).zip(&kept) {
        a.ok();
        b.ok();
        assert_eq!(a.stdout, b.stdout, "list {flags:?}");
    }
    // A table on a terminal, newest first.
    let table = local_env(
        &env,
        &[(var::FORCE_TTY, "1")],
        &["requests", "list", "--history"],
    );
    table.ok();
    let slow = table.stdout.find("/hooks/slow").expect("the newest row");
    let stripe = table.stdout.find("/hooks/stripe").expect("the oldest row");
    assert!(slow < stripe, "{}", table.stdout);
}

#[test]
fn two_recorders_at_once_neither_fail_nor_keep_a_capture_twice() {
    let env = Env::new();
    env.mock
        .seed_captures(json!([{"method": "POST", "uri": "/a", "body_size": 2000, "repeat": 1500}]));
    let spawn = || {
        let mut cmd = env.std_cmd();
        cmd.env(var::AGENT_URL, env.mock.agent_url())
            .env(var::HISTORY_FILE, history_file(&env))
            .args(["local", "requests", "record", "--once"]);
        cmd.output().expect("the binary runs")
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(spawn);
        let b = s.spawn(spawn);
        (a.join().unwrap(), b.join().unwrap())
    });
    for out in [&a, &b] {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let kept = ids(&local(&env, &["requests", "list", "--history", "--json"]));
    assert_eq!(kept.len(), 1500);
    let mut unique = kept.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 1500, "no capture kept twice");
}

/// A request to `/wait` through a tunnel whose upstream holds its answer until the test
/// opens the gate, captured while its response is pending.
struct PendingCapture {
    _upstream: crate::common::hostile::Hostile,
    gate: std::sync::Arc<std::sync::atomic::AtomicBool>,
    visitor: std::thread::JoinHandle<()>,
}

impl PendingCapture {
    fn start(env: &Env) -> PendingCapture {
        use crate::common::hostile::{Hostile, Reply};
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::time::{Duration, Instant};
        let gate = std::sync::Arc::new(AtomicBool::new(false));
        let opened = gate.clone();
        let upstream = Hostile::start(move |_| {
            // A test that fails before opening the gate still ends this thread.
            let give_up = Instant::now() + Duration::from_secs(120);
            while !opened.load(Ordering::SeqCst) && Instant::now() < give_up {
                std::thread::sleep(Duration::from_millis(10));
            }
            Reply::ok("late answer")
        });
        local(
            env,
            &[
                "tunnels",
                "start",
                "--name",
                "slow",
                "--proto",
                "http",
                "--addr",
                &upstream.port().to_string(),
            ],
        )
        .ok();
        let port = edge_port(env, "slow (http)");
        let visitor = std::thread::spawn(move || {
            visit(port, "GET", "/wait", &[], b"");
        });
        wait_until("the pending capture", || {
            local(env, &["requests", "list", "--status", "pending", "--json"]).json() != json!([])
        });
        PendingCapture {
            _upstream: upstream,
            gate,
            visitor,
        }
    }

    /// Lets the upstream answer, and waits for the visitor to get the answer.
    fn answer(self) {
        self.gate.store(true, std::sync::atomic::Ordering::SeqCst);
        self.visitor.join().unwrap();
    }
}

/// A child process stopped (SIGTERM) when the test ends, whether it passes or not.
#[cfg(unix)]
struct Stopped(std::process::Child);

#[cfg(unix)]
impl Drop for Stopped {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the child's own pid.
        unsafe { libc::kill(self.0.id() as i32, libc::SIGTERM) };
        let _ = self.0.wait();
    }
}

#[test]
fn a_pending_capture_is_kept_then_updated_when_its_answer_comes() {
    let env = Env::new();
    let pending_capture = PendingCapture::start(&env);
    local(&env, &["requests", "record", "--once"]).ok();
    let pending = kept_ids(&env, &["--status", "pending"]);
    assert_eq!(pending.len(), 1, "kept while pending");
    pending_capture.answer();
    local(&env, &["requests", "record", "--once"])
        .ok()
        .says("1 answered since");
    assert_eq!(kept_ids(&env, &["--status", "200"]), pending);
    assert!(kept_ids(&env, &["--status", "pending"]).is_empty());
}

/// Issue 34: one capture follower. `tail --record`, `record` and `inspect --record` each bring
/// a capture kept while pending up to date when it is answered once newer captures have
/// pushed it out of the window they poll.
#[cfg(unix)]
#[test]
fn every_recorder_brings_a_pending_capture_up_to_date_when_it_is_answered_beyond_its_window() {
    for follower in ["tail --record", "record", "inspect --record"] {
        let env = Env::new();
        let pending_capture = PendingCapture::start(&env);
        let running: Box<dyn std::any::Any> = match follower {
            "inspect --record" => {
                let mut cmd = env.inspector_cmd(&env.mock.agent_url(), &[], &["--record"]);
                cmd.env(var::HISTORY_FILE, history_file(&env));
                Box::new(crate::common::pty::Pty::spawn(&cmd, 24, 80))
            }
            _ => {
                let mut args = vec!["requests"];
                args.extend(follower.split(' '));
                Box::new(Stopped(spawn_local(&env, &args)))
            }
        };
        wait_until("the capture, kept while pending", || kept_count(&env) == 1);
        // 120 newer captures. Once they are kept, the window shrinks back to 50 (nothing is
        // new any more), which no longer reaches the pending one: a poll for 50 says so.
        let newer: Vec<Value> = (0..120).map(|i| json!({"uri": format!("/n{i}")})).collect();
        env.mock.seed_captures(Value::Array(newer));
        wait_until("the newer captures, kept", || kept_count(&env) == 121);
        env.mock.clear_agent_requests();
        wait_until("a poll for the 50 newest", || {
            env.mock.agent_requests().iter().any(|r| {
                r.query
                    .as_deref()
                    .is_some_and(|q| q.split('&').any(|p| p == "limit=50"))
            })
        });
        pending_capture.answer();
        wait_until("the answer, kept", || {
            kept_ids(&env, &["--status", "pending"]).is_empty()
        });
        drop(running);
        let answered = local(
            &env,
            &["requests", "list", "--history", "--path", "/wait", "--json"],
        )
        .json();
        assert_eq!(
            answered[0]["response"]["status_code"], 200,
            "{follower}: {answered}"
        );
    }
}

#[test]
fn a_file_that_is_not_our_history_is_refused_and_left_as_it_is() {
    let env = Env::new();
    env.mock
        .seed_captures(json!([{"method": "GET", "uri": "/"}]));
    let path = history_file(&env);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let random: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    for content in [random, b"just some notes\nnot a database\n".to_vec()] {
        std::fs::write(&path, &content).unwrap();
        for args in [
            &["requests", "record", "--once"][..],
            &["requests", "list", "--history"],
            &["requests", "clear", "--history", "--yes"],
        ] {
            let out = local(&env, args);
            out.code(3)
                .says("not a SQLite database")
                .says(path.to_str().unwrap());
            assert_eq!(std::fs::read(&path).unwrap(), content, "{args:?} left it");
        }
    }
    // A folder where the file should be.
    let folder = env.dir.path().join("a-folder");
    std::fs::create_dir(&folder).unwrap();
    let out = local(
        &env,
        &[
            "--history-file",
            folder.to_str().unwrap(),
            "requests",
            "record",
            "--once",
        ],
    );
    out.code(3).says("is a folder");
}

#[test]
fn a_newer_schema_is_refused_and_the_file_is_safe_after_a_kill() {
    let env = Env::new();
    env.mock
        .seed_captures(json!([{"method": "POST", "uri": "/a", "body_size": 1000, "repeat": 300}]));
    local(&env, &["requests", "record", "--once"]).ok();
    let path = history_file(&env);
    let Some(check) = sqlite3(&path, "PRAGMA integrity_check;") else {
        return;
    };
    assert_eq!(check, "ok");
    assert_eq!(
        sqlite3(&path, "SELECT count(*) FROM captures;").as_deref(),
        Some("300")
    );
    sqlite3(&path, "PRAGMA user_version = 99;");
    let before = std::fs::read(&path).unwrap();
    local(&env, &["requests", "list", "--history"])
        .code(3)
        .says("schema version 99")
        .says("newer");
    local(&env, &["requests", "record", "--once"]).code(3);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_recorder_killed_mid_write_leaves_a_sound_file_with_all_it_reported() {
    let env = Env::new();
    let path = history_file(&env);
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, &path)
        .args(["local", "requests", "record"]);
    let mut term = crate::common::pty::Pty::spawn(&cmd, 24, 200);
    // Captures keep coming while it records: it is writing when it is killed.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let reported = std::thread::scope(|s| {
        s.spawn(|| {
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                env.mock.seed_captures(
                    json!([{"method": "POST", "uri": "/k", "body_size": 3000, "repeat": 200}]),
                );
            }
        });
        let screen = term.wait_until("a few hundred kept", |screen| kept_on(screen) >= 600);
        // The count on screen is what was written when it was drawn: kill now, mid-write.
        let reported = kept_on(&screen);
        // SAFETY: kill(2) on the child's own pid.
        unsafe { libc::kill(term.pid() as i32, libc::SIGKILL) };
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
        reported
    });
    let pid = term.pid();
    wait_until("the recorder to be dead", || {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
            stat.rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'))
        })
    });
    let Some(check) = sqlite3(&path, "PRAGMA integrity_check;") else {
        return;
    };
    assert_eq!(check, "ok");
    let count: u64 = sqlite3(&path, "SELECT count(*) FROM captures;")
        .unwrap()
        .parse()
        .unwrap();
    assert!(count >= reported, "{count} kept, {reported} reported");
    let listed = ids(&local(&env, &["requests", "list", "--history", "--json"]));
    assert_eq!(listed.len() as u64, count);
}

/// The count a recorder's running line shows (`…: N kept, …`).
fn kept_on(screen: &str) -> u64 {
    screen
        .match_indices(" kept")
        .filter_map(|(at, _)| {
            let before = &screen[..at];
            let start = before
                .rfind(|c: char| !c.is_ascii_digit())
                .map_or(0, |i| i + 1);
            before[start..].parse::<u64>().ok()
        })
        .last()
        .unwrap_or(0)
}

#[test]
fn the_bounds_drop_the_oldest_and_clear_removes_what_is_asked() {
    let env = Env::new();
    let ago = hours_ago;
    let seeded = strings(&env.mock.seed_captures(json!([
        {"uri": "/40-days", "start": ago(40 * 24)},
        {"uri": "/3-days", "start": ago(72)},
        {"uri": "/2-hours", "start": ago(2), "body_size": 80_000},
        {"uri": "/now", "start": ago(0)}
    ])));
    let kept = || ids(&local(&env, &["requests", "list", "--history", "--json"]));
    // The default bound (30d) leaves the 40-day-old one out.
    local(&env, &["requests", "record", "--once"])
        .ok()
        .says("1 dropped by the bounds");
    assert_eq!(
        kept(),
        [seeded[3].clone(), seeded[2].clone(), seeded[1].clone()]
    );
    local(&env, &["requests", "record", "--once", "--max-age", "1d"]).ok();
    assert_eq!(kept(), [seeded[3].clone(), seeded[2].clone()]);
    // The newest alone fits in 64 KiB: the one with an 80 KB body goes.
    local(
        &env,
        &["requests", "record", "--once", "--max-size", "64KiB"],
    )
    .ok();
    assert_eq!(kept(), [seeded[3].clone()]);
    // The config key is the default bound.
    env.write_config("[default]\nhistory_max_age = \"1h\"\n");
    let cfg = local(
        &env,
        &["requests", "clear", "--history", "--before", "1h", "--yes"],
    );
    cfg.ok().says("Deleted 0 kept capture(s)");
    // Off a terminal, clear --history asks for --yes.
    local(&env, &["requests", "clear", "--history"])
        .code(2)
        .says("--yes");
    assert_eq!(kept(), [seeded[3].clone()]);
    local(&env, &["requests", "clear", "--history", "--yes"])
        .ok()
        .says("Deleted 1");
    assert!(kept().is_empty());
}

#[cfg(unix)]
#[test]
fn the_file_is_the_users_alone() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    env.mock.seed_captures(json!([{"uri": "/"}]));
    local(&env, &["requests", "record", "--once"]).ok();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let path = history_file(&env);
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(path.parent().unwrap()), 0o700);
    // `config show` says where it is and why.
    let config = |args: &[&str]| {
        let mut cmd = env.cmd();
        cmd.env(var::HISTORY_FILE, history_file(&env));
        run(cmd.args(args))
    };
    let show = config(&["--history-file", "/tmp/elsewhere.sqlite3", "config", "show"]);
    show.ok();
    assert!(
        show.stdout.contains("/tmp/elsewhere.sqlite3"),
        "{}",
        show.stdout
    );
    let show = config(&["config", "show", "--json"]);
    let text = show.stdout.clone();
    assert!(
        text.contains("history_max_size") && text.contains("history_max_age"),
        "{text}"
    );
    assert!(text.contains(var::HISTORY_FILE), "{text}");
}

/// A history file whose name is not UTF-8 is the file written, not one named with
/// replacement characters.
#[cfg(unix)]
#[test]
fn a_history_file_name_that_is_not_utf8_is_the_file_written() {
    use std::os::unix::ffi::OsStrExt;
    let env = Env::new();
    env.mock.seed_captures(json!([{"uri": "/"}]));
    let file = env
        .dir
        .path()
        .join(std::ffi::OsStr::from_bytes(b"h\xff.sqlite3"));
    let mut cmd = env.cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, &file)
        .args(["local", "requests", "record", "--once"]);
    run(&mut cmd).ok();
    assert!(file.is_file(), "{} was not written", file.display());
    let lossy = env.dir.path().join("h\u{fffd}.sqlite3");
    assert!(!lossy.exists(), "a file was written under another name");
}

#[test]
fn the_api_key_read_from_history_is_redacted_on_a_terminal() {
    let env = Env::new();
    let id = strings(&env.mock.seed_captures(json!([
        {"method": "POST", "uri": "/echo", "headers": {"Authorization": [format!("Bearer {API_KEY}")]},
         "body": format!("key={API_KEY}\u{1b}[2J")}
    ])))[0]
        .clone();
    local(&env, &["requests", "record", "--once"]).ok();
    clear_agent(&env);
    let tty = [(var::FORCE_TTY, "1")];
    // `run` fails the test if the key shows; the escape is shown, not sent.
    let get = local_env(&env, &tty, &["requests", "get", &id]);
    get.ok();
    assert!(get.stdout.contains("redacted"), "{}", get.stdout);
    assert!(!get.stdout.contains('\u{1b}'), "{}", get.stdout);
    local_env(
        &env,
        &tty,
        &["requests", "list", "--history", "--grep", "key"],
    )
    .ok();
}

#[test]
fn bad_values_of_the_new_flags_are_usage_errors() {
    let env = Env::new();
    for (args, says) in [
        (
            &["requests", "record", "--max-size", "abc"][..],
            "not a size",
        ),
        (&["requests", "record", "--max-size", "0"], "--max-size"),
        (&["requests", "record", "--max-age", "x"], "not a duration"),
        (
            &["requests", "clear", "--history", "--before", "-1", "--yes"],
            "--before",
        ),
        (
            &["requests", "clear", "--before", "1h", "--yes"],
            "--history",
        ),
        (&["inspect", "--history", "--record"], "cannot be used with"),
    ] {
        local(&env, args).code(2).says(says);
    }
    assert!(!history_file(&env).exists(), "nothing was created");
    env.write_config("[default]\nhistory_max_size = \"lots\"\n");
    local(&env, &["requests", "record", "--once"])
        .code(3)
        .says("history_max_size");
    env.run(&["config", "set", "history_max_age", "soon"])
        .code(2)
        .says("history_max_age: 'soon' is not a duration");
    // A value that starts with '-' is checked as the key's value, not taken for a flag.
    env.run(&["config", "set", "history_max_age", "-2d"])
        .code(2)
        .says("history_max_age: '-2d' is a negative duration");
    env.run(&["config", "set", "history_max_size", "-5MiB"])
        .code(2)
        .says("history_max_size: '-5MiB'");
    let config = std::fs::read_to_string(env.config_path()).unwrap_or_default();
    assert!(
        !config.contains("history_max_age"),
        "nothing was set: {config}"
    );
}

#[test]
fn the_inspector_records_what_it_shows_and_browses_the_history() {
    let env = Env::new();
    env.mock.seed_captures(
        json!([{"method": "POST", "uri": "/hooks/first"}, {"method": "GET", "uri": "/second"}]),
    );
    let spawn = |args: &[&str]| {
        let mut cmd = env.inspector_cmd(&env.mock.agent_url(), &[], args);
        cmd.env(var::HISTORY_FILE, history_file(&env));
        crate::common::pty::Pty::spawn(&cmd, 24, 100)
    };
    let mut term = spawn(&["--record"]);
    term.wait_for("/hooks/first");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    term.assert_restored();
    clear_agent(&env);
    assert_eq!(
        ids(&local(&env, &["requests", "list", "--history", "--json"])).len(),
        2
    );
    let mut term = spawn(&["--history"]);
    term.wait_for("history ");
    term.wait_for("/second");
    term.wait_for("/hooks/first");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

/// Starts `tunnelctl local ARGS` with the test's history, its stderr piped.
fn spawn_local(env: &Env, args: &[&str]) -> std::process::Child {
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, history_file(env))
        .arg("local")
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    cmd.spawn().expect("the binary starts")
}

/// How many captures the history holds (0 before it exists).
fn kept_count(env: &Env) -> usize {
    let out = local(env, &["requests", "list", "--history", "--json"]);
    out.ok();
    out.json().as_array().map_or(0, Vec::len)
}

#[cfg(unix)]
#[test]
fn a_recorder_stops_on_sigterm_or_ctrl_c_with_exit_0_and_says_what_it_kept() {
    let env = Env::new();
    for signal in [libc::SIGTERM, libc::SIGINT] {
        local(&env, &["requests", "clear", "--history", "--yes"]).ok();
        clear_agent(&env);
        env.mock.seed_captures(json!([
            {"tunnel_name": "a (http)", "uri": "/a", "repeat": 3},
            {"tunnel_name": "b (http)", "uri": "/b", "repeat": 2}
        ]));
        let child = spawn_local(&env, &["requests", "record", "--tunnel", "a (http)"]);
        wait_until("the first captures kept", || kept_count(&env) == 3);
        // More arrive while it runs: it keeps them too.
        env.mock
            .seed_captures(json!([{"tunnel_name": "a (http)", "uri": "/later"}]));
        wait_until("the later capture kept", || kept_count(&env) == 4);
        // SAFETY: kill(2) on the child's own pid.
        unsafe { libc::kill(child.id() as i32, signal) };
        let out = child.wait_with_output().expect("it ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "signal {signal}: {stderr}");
        assert!(stderr.contains("Kept 4 new capture(s)"), "{stderr}");
        let tunnels = local(
            &env,
            &["requests", "list", "--history", "--jq", ".[].tunnel_name"],
        );
        assert!(
            !tunnels.stdout.contains("b (http)"),
            "--tunnel: {}",
            tunnels.stdout
        );
    }
}

#[cfg(unix)]
#[test]
fn tail_record_keeps_what_it_follows() {
    let env = Env::new();
    env.mock.seed_captures(json!([{"uri": "/before"}]));
    let tail = Stopped(spawn_local(&env, &["requests", "tail", "--record"]));
    wait_until("what the agent held, kept", || kept_count(&env) == 1);
    env.mock.seed_captures(json!([{"uri": "/after"}]));
    wait_until("the new capture, kept", || kept_count(&env) == 2);
    drop(tail);
    let uris = local(
        &env,
        &["requests", "list", "--history", "--jq", ".[].request.uri"],
    );
    assert_eq!(uris.stdout, "/after\n/before\n");
}

/// Issue 33 item 15: the user's API key in a kept capture is redacted as in a live one, in
/// every format (`run` fails the test if the key shows anywhere in stdout or stderr).
#[test]
fn the_api_key_in_kept_captures_is_redacted_in_every_format() {
    let env = Env::new();
    env.mock.seed_captures(json!([
        {"method": "POST", "uri": "/echo", "headers": {"Authorization": [format!("Bearer {API_KEY}")]},
         "body": format!("{{\"key\":\"{API_KEY}\"}}")}
    ]));
    local(&env, &["requests", "record", "--once"]).ok();
    let har = env.dir.path().join("kept.har");
    for history in [true, false] {
        let h: &[&str] = if history { &["--history"] } else { &[] };
        for format in [
            &["--json"][..],
            &["-o", "ndjson"],
            &["--jq", ".[].request.headers"],
            &["--jq", ".[].request.raw"],
        ] {
            let mut args = vec!["requests", "list"];
            args.extend_from_slice(h);
            args.extend_from_slice(format);
            let out = local(&env, &args);
            out.ok();
            assert!(!out.stdout.trim().is_empty(), "{args:?} printed nothing");
        }
        // On a terminal, redacted; in a file (or a pipe), written as captured, with a word
        // that it holds the key: the same for the agent's captures and the kept ones.
        let mut args = vec!["requests", "export", "--har", "-"];
        args.extend_from_slice(h);
        local_env(&env, &[(var::FORCE_TTY, "1")], &args)
            .ok()
            .says("Wrote 1 exchange");
        let mut args = vec![
            "requests",
            "export",
            "--har",
            har.to_str().unwrap(),
            "--force",
        ];
        args.extend_from_slice(h);
        local(&env, &args)
            .ok()
            .says("holds one of your own secrets");
    }
}

/// Issue 33 item 13: another program's SQLite database, its last writes still in its
/// write-ahead log (the program was killed before it checkpointed), is only read: neither the
/// database nor its log changes, and the program reads its rows after. An empty database with
/// a schema version set is another program's too.
#[cfg(unix)]
#[test]
fn another_programs_database_and_its_write_ahead_log_are_only_read() {
    use std::io::{BufRead, Write};
    let env = Env::new();
    env.mock.seed_captures(json!([{"uri": "/"}]));
    let path = history_file(&env);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    if sqlite3(&path, "PRAGMA journal_mode = WAL;").is_none() {
        return;
    }
    let mut shell = StdCommand::new("sqlite3")
        .arg(&path)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("sqlite3 runs");
    let mut stdin = shell.stdin.take().unwrap();
    writeln!(
        stdin,
        "CREATE TABLE notes (x); INSERT INTO notes VALUES ('theirs');\n.print written"
    )
    .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(shell.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "written");
    shell.kill().unwrap();
    shell.wait().unwrap();
    let wal = PathBuf::from(format!("{}-wal", path.display()));
    let read = |p: &Path| std::fs::read(p).unwrap_or_default();
    let (db, log) = (read(&path), read(&wal));
    assert!(!log.is_empty(), "the rows are in the log");
    for args in [
        &["requests", "record", "--once"][..],
        &["requests", "list", "--history"],
        &["requests", "clear", "--history", "--yes"],
    ] {
        local(&env, args)
            .code(3)
            .says("not a tunnelctl history")
            .says("left as it is");
        assert!(read(&path) == db, "{args:?}: the database changed");
        assert!(read(&wal) == log, "{args:?}: the log changed");
    }
    assert_eq!(
        sqlite3(&path, "SELECT x FROM notes;").as_deref(),
        Some("theirs")
    );
    // Closed cleanly, in WAL mode: looking at it makes no `-wal` or `-shm` file beside it.
    let clean = env.dir.path().join("clean.sqlite3");
    sqlite3(&clean, "PRAGMA journal_mode = WAL; CREATE TABLE t (x);");
    let before = read(&clean);
    let shown = clean.to_str().unwrap();
    local(
        &env,
        &["--history-file", shown, "requests", "record", "--once"],
    )
    .code(3)
    .says("not a tunnelctl history");
    assert!(read(&clean) == before, "the clean database changed");
    for beside in ["-wal", "-shm"] {
        let made = PathBuf::from(format!("{shown}{beside}"));
        assert!(!made.exists(), "{} was made", made.display());
    }
    let versioned = env.dir.path().join("versioned.sqlite3");
    sqlite3(&versioned, "PRAGMA user_version = 5;");
    let before = read(&versioned);
    let other = versioned.to_str().unwrap();
    for args in [
        &["--history-file", other, "requests", "record", "--once"][..],
        &["--history-file", other, "requests", "list", "--history"],
    ] {
        local(&env, args).code(3).says("not a tunnelctl history");
    }
    assert!(read(&versioned) == before, "the versioned database changed");
}

/// Issue 33 items 1 and 2: in `inspect --history`, `r` and `e` send the kept request by
/// tunnelctl itself, as `replay` does (the agent no longer has it); `x` is not offered there
/// and deletes nothing of the agent's; the help says what the keys do there.
#[cfg(unix)]
#[test]
fn the_history_view_replays_kept_captures_itself_and_never_clears_the_agent() {
    use std::os::unix::fs::PermissionsExt;
    let (env, up, _id) = one_webhook();
    local(&env, &["requests", "record", "--once"]).ok();
    let editor = env.dir.path().join("editor.sh");
    std::fs::write(&editor, "#!/bin/sh\nsed -i 's/paid/edited/' \"$1\"\n").unwrap();
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cmd = env.inspector_cmd(&env.mock.agent_url(), &[], &["--history"]);
    cmd.env(var::HISTORY_FILE, history_file(&env))
        .env("EDITOR", &editor);
    let mut term = crate::common::pty::Pty::spawn(&cmd, 24, 80);
    term.wait_for("/hooks/pay");
    term.send("?");
    term.wait_for("send the kept request again");
    term.send(" ");
    // A capture the agent holds and the history does not: `x` must not lose it.
    env.mock.seed_captures(json!([{"uri": "/not-kept"}]));
    term.send("x");
    term.wait_for("not offered in the history");
    term.send("y");
    assert_eq!(
        ids(&local(&env, &["requests", "list", "--json"])).len(),
        2,
        "the agent's captures are all there"
    );
    clear_agent(&env);
    term.send("r");
    term.wait_for("Replayed the kept");
    assert_eq!(up.received().len(), 2, "r sent it to the upstream");
    term.send("e");
    term.wait_for("Sent the edited request");
    let edited = up.received().last().cloned().unwrap();
    assert!(
        String::from_utf8_lossy(&edited.body).contains("\"edited\""),
        "{edited:?}"
    );
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    term.assert_restored();
}

/// Issue 33 item 3: a size bound too small to hold a capture is refused (exit 2, saying the
/// smallest useful size), and bounds that would drop most of the history ask first.
#[test]
fn a_bound_too_small_is_refused_and_one_that_drops_most_asks_first() {
    let env = Env::new();
    env.run(&["config", "set", "history_max_size", "10"])
        .code(2)
        .says("smallest useful size is 64KiB");
    local(&env, &["requests", "record", "--once", "--max-size", "10"])
        .code(2)
        .says("smallest useful size");
    assert!(!history_file(&env).exists(), "nothing was created");
    env.mock.seed_captures(json!([
        {"uri": "/old", "start": hours_ago(2), "repeat": 3},
        {"uri": "/new", "start": hours_ago(0)}
    ]));
    local(&env, &["requests", "record", "--once"]).ok();
    let bounded = ["requests", "record", "--once", "--max-age", "1h"];
    local(&env, &bounded)
        .code(2)
        .says("drop 3 of the 4 captures")
        .says("--yes");
    assert_eq!(kept_count(&env), 4, "nothing was dropped");
    let mut yes = vec!["--yes"];
    yes.extend(bounded);
    local(&env, &yes).ok().says("3 dropped by the bounds");
    assert_eq!(kept_count(&env), 1);
}

/// Issue 33 item 26: `record --once` and `clear --history` print a result object for
/// `--json` and `--jq`.
#[test]
fn record_once_and_clear_history_print_a_result_object() {
    let env = Env::new();
    env.mock.seed_captures(json!([{"uri": "/a", "repeat": 2}]));
    let out = local(&env, &["--json", "requests", "record", "--once"]);
    out.ok();
    let doc = out.json();
    assert_eq!(
        (doc["new"].clone(), doc["kept"].clone()),
        (json!(2), json!(2)),
        "{doc}"
    );
    assert_eq!(doc["file"], json!(history_file(&env).to_str().unwrap()));
    let out = local(&env, &["requests", "record", "--once", "--jq", ".kept"]);
    assert_eq!(out.ok().stdout, "2\n");
    let out = local(&env, &["requests", "clear", "--history", "--yes", "--json"]);
    out.ok();
    assert_eq!(out.json()["deleted"], json!(2));
    let out = local(
        &env,
        &[
            "requests",
            "clear",
            "--history",
            "--yes",
            "--jq",
            ".deleted",
        ],
    );
    assert_eq!(out.ok().stdout, "0\n");
}

/// Issue 33 item 28: the question of `clear --history` says how many it deletes.
#[test]
fn clear_history_asks_about_how_many_it_deletes() {
    let env = Env::new();
    env.mock.seed_captures(json!([{"uri": "/a", "repeat": 3}]));
    local(&env, &["requests", "record", "--once"]).ok();
    local(&env, &["requests", "clear", "--history"])
        .code(2)
        .says("Delete the 3 capture(s) kept in");
    assert_eq!(kept_count(&env), 3);
}

/// Issue 33 items 5 and 17: `record --tunnel` keeps only that tunnel's captures when the
/// agent ignores the filter, refuses a tunnel that does not exist (no file made), and a
/// recorder whose agent cannot be reached says why and what it does, and does not end in
/// success when it never reached it.
#[cfg(unix)]
#[test]
fn record_checks_the_tunnel_itself_and_says_what_is_wrong() {
    use crate::common::hostile::{Hostile, Reply};
    let env = Env::new();
    let capture = |id: &str, tunnel: &str| {
        json!({"id": id, "tunnel_name": tunnel, "start": "2026-11-27T10:00:00Z",
               "request": {"method": "GET", "uri": format!("/{id}"), "raw": "R0VUIC8gSFRUUC8xLjENCg0K"},
               "response": {"status_code": 200, "raw": "SFRUUC8xLjEgMjAwIE9LDQoNCg=="}})
    };
    let list = json!({"requests": [capture("airt_web", "web"), capture("airt_other", "other")]});
    let agent = Hostile::start(move |seen| match seen.path() {
        // It ignores ?tunnel_name=.
        "/api/requests/http" => Reply::ok(list.to_string()),
        "/api/tunnels" => Reply::ok(r#"{"tunnels":[{"name":"web"}]}"#),
        _ => Reply::Json(404, "{}".into()),
    });
    let hostile = format!("{}/api", agent.url());
    let vars = [(var::AGENT_URL, hostile.as_str())];
    local_env(
        &env,
        &vars,
        &["requests", "record", "--once", "--tunnel", "web"],
    )
    .ok();
    assert_eq!(kept_ids(&env, &[]), ["airt_web"]);

    // A tunnel that does not exist: said, and nothing kept or made.
    let elsewhere = env.dir.path().join("elsewhere.sqlite3");
    let other_file = [(var::HISTORY_FILE, elsewhere.to_str().unwrap())];
    local_env(
        &env,
        &other_file,
        &["requests", "record", "--once", "--tunnel", "nope"],
    )
    .code(2)
    .says("No tunnel is named 'nope'");
    assert!(!elsewhere.exists(), "no file was made");

    // An agent that cannot be reached.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let gone = format!(
        "http://127.0.0.1:{}/api",
        closed.local_addr().unwrap().port()
    );
    drop(closed);
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, &gone)
        .env(var::HISTORY_FILE, history_file(&env))
        .args(["local", "requests", "record"])
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains("Trying again") {
        let mut line = String::new();
        if std::io::BufRead::read_line(&mut stderr, &mut line).unwrap() == 0 {
            break;
        }
        said.push_str(&line);
    }
    assert!(said.contains("Is the agent running?"), "{said}");
    // SAFETY: kill(2) on the child's own pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(6), "{said}{rest}");
    assert!(rest.contains("Kept 0 new capture(s)"), "{rest}");
}

/// Issue 33 item 14: the bounds hold while `record` runs, not only when it starts.
#[cfg(unix)]
#[test]
fn the_bounds_hold_while_recording() {
    let env = Env::new();
    let rec = Stopped(spawn_local(
        &env,
        &[
            "requests",
            "record",
            "--max-size",
            "64KiB",
            "--max-age",
            "3s",
        ],
    ));
    // More than 64 KiB at once: the oldest go as soon as they are kept.
    env.mock
        .seed_captures(json!([{"uri": "/big", "body_size": 4000, "repeat": 40}]));
    env.mock.seed_captures(json!([{"uri": "/last"}]));
    wait_until("the last capture, kept", || {
        kept_ids(&env, &["--path", "/last"]).len() == 1
    });
    let kept = local(&env, &["requests", "list", "--history", "--json"]);
    let size: usize = kept
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.to_string().len())
        .sum();
    assert!(size <= 64 * 1024, "{size} bytes kept");
    // And every one of them goes once older than 3 s, while it still runs.
    wait_until("the captures older than 3 s, dropped", || {
        kept_count(&env) == 0
    });
    drop(rec);
}

/// Issue 33 item 6: one behaviour for the three recorders, seen at 80x24. `record`, `tail
/// --record` and `inspect --record` say that they record and into which file; stopped
/// (Ctrl-C; `q` in the inspector) they say what they kept, whole, with nothing of the running
/// line left, and exit 0.
#[cfg(unix)]
#[test]
fn the_three_recorders_say_they_record_and_what_they_kept() {
    for follower in ["record", "tail --record", "inspect --record"] {
        let env = Env::new();
        env.mock.seed_captures(json!([{"uri": "/a", "repeat": 2}]));
        let file = history_file(&env);
        let mut cmd = match follower {
            "inspect --record" => env.inspector_cmd(&env.mock.agent_url(), &[], &["--record"]),
            _ => {
                let mut cmd = env.std_cmd();
                cmd.env(var::AGENT_URL, env.mock.agent_url())
                    .args(["local", "requests"])
                    .args(follower.split(' '));
                cmd
            }
        };
        cmd.env(var::HISTORY_FILE, &file);
        let mut term = crate::common::pty::Pty::spawn(&cmd, 24, 80);
        let says = match follower {
            "inspect --record" => "recording",
            _ => "Recording into",
        };
        term.wait_for(says);
        wait_until("the captures, kept", || kept_count(&env) == 2);
        term.send(match follower {
            "inspect --record" => "q",
            _ => "\u{3}",
        });
        assert_eq!(term.wait_exit(), 0, "{follower}");
        let screen = term.screen();
        // A line wider than the screen is folded at a space, its rest indented.
        let joined = screen.split_whitespace().collect::<Vec<_>>().join(" ");
        let summary = format!(
            "Kept 2 new capture(s), 0 answered since, in {} (2 in all)",
            file.display()
        );
        assert!(joined.contains(&summary), "{follower}:\n{screen}");
        assert!(
            !screen.contains("Recording:"),
            "{follower}: the running line stays:\n{screen}"
        );
    }
}
