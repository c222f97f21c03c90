//! The capture history on PostgreSQL (issue 43), against a real server (tests/common/postgres):
//! every reader and recorder as on the file, the same answers as the file for the same
//! captures, many recorders at once, sources, roles, TLS, faults, and `copy`. What the store
//! holds is checked with `psql`, as a user would.

use std::path::Path;

use serde_json::{json, Value};
use tunnelctl::registry::env as var;

use crate::common::postgres::{self, Cluster, TestDb, PASSWORD, SUPER_PASSWORD};
use crate::common::{run, skip, strings, strings_at, Env, Out};

/// The shared cluster, or `None` after saying why it cannot run (a failure under CI).
fn cluster() -> Option<&'static Cluster> {
    let c = postgres::plain();
    if c.is_none() {
        skip::cannot_run(format!(
            "PostgreSQL cannot run here: {}",
            postgres::why_not()
        ));
    }
    c
}

/// No password of the test clusters in an output.
#[track_caller]
fn no_password(out: &Out) {
    for p in [PASSWORD, SUPER_PASSWORD] {
        assert!(
            !out.stdout.contains(p) && !out.stderr.contains(p),
            "a database password was shown:\n{}\n{}",
            out.stdout,
            out.stderr
        );
    }
}

/// `tunnelctl local ARGS` against the emulator's agent, with the history at `url`.
fn team(env: &Env, url: &str, args: &[&str]) -> Out {
    let out = run(env
        .cmd()
        .env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_URL, url)
        .arg("local")
        .args(args));
    no_password(&out);
    out
}

/// `tunnelctl local ARGS` with the history in the file `file`.
fn file(env: &Env, file: &Path, args: &[&str]) -> Out {
    crate::history_failures::local(env, file, args)
}

/// The kept captures' IDs as `psql` lists them (source, then ID).
fn kept_rows(c: &Cluster, db: &TestDb) -> Vec<String> {
    let out = c.psql(
        &db.name,
        "SELECT source || ' ' || id FROM tunnelctl.captures ORDER BY source, id",
    );
    out.lines().map(str::to_string).collect()
}

/// Issue 43: the same captures recorded into a SQLite file and into PostgreSQL give the same
/// `list --history` (every filter, every format), `--grep` over hostile bodies (gzip, NUL
/// bytes, Latin-1, 1 MB of JSON, Unicode case), `get` and `export`.
#[test]
fn the_team_store_answers_as_the_file_does() {
    let Some(c) = cluster() else { return };
    let db = c.database();
    let url = db.url();
    let env = Env::new();
    let mut bodies = crate::history_search::hostile_bodies();
    bodies.push(
        json!({"method": "PUT", "uri": "/hooks/a?x=1", "tunnel_name": "web (http)",
                       "status_code": 503, "body": "{\"type\":\"invoice.paid\"}",
                       "headers": {"Content-Type": ["application/json"]}}),
    );
    bodies.push(
        json!({"method": "POST", "uri": "/hooks/b", "tunnel_name": "web (http)",
                       "status_code": 404, "pending": true}),
    );
    bodies.push(json!({"method": "GET", "uri": "/old", "start": "2020-01-02T03:04:05Z"}));
    let ids = strings(&env.mock.seed_captures(json!(bodies)));
    let dir = tempfile::tempdir().unwrap();
    let sqlite = dir.path().join("h.sqlite3");
    file(
        &env,
        &sqlite,
        &["requests", "record", "--once", "--max-age", "3650d"],
    )
    .ok();
    let recorded = team(
        &env,
        &url,
        &[
            "requests",
            "record",
            "--once",
            "--json",
            "--max-age",
            "3650d",
        ],
    );
    recorded.ok();
    let doc = recorded.json();
    assert_eq!(doc["new"], ids.len(), "{doc}");
    assert!(
        doc["store"].as_str().unwrap().starts_with("postgres://"),
        "{doc}"
    );
    assert!(!doc.to_string().contains(PASSWORD));
    assert_eq!(
        kept_rows(c, &db).len(),
        ids.len(),
        "psql sees every capture once"
    );
    let mut lists: Vec<Vec<&str>> = vec![
        vec![],
        vec!["--json"],
        vec!["-o", "ndjson"],
        vec!["--method", "POST"],
        vec!["--status", "5xx"],
        vec!["--status", "pending"],
        vec!["--tunnel", "web (http)"],
        vec!["--path", "/hooks/*"],
        vec!["--since", "1h"],
        vec!["--limit", "3", "--json"],
        vec!["--grep", "invoice", "--grep", "paid", "--json"],
        vec!["--grep", "{}"],
        vec!["--grep", "zz-nothing"],
    ];
    let words: Vec<Vec<&str>> = crate::history_search::HOSTILE_WORDS
        .iter()
        .map(|(w, _)| vec!["--grep", *w, "--json"])
        .collect();
    lists.extend(words);
    for filters in &lists {
        let mut args = vec!["requests", "list", "--history"];
        args.extend(filters);
        let from_file = file(&env, &sqlite, &args);
        from_file.ok();
        let from_team = team(&env, &url, &args);
        from_team.ok();
        assert_eq!(
            from_team.stdout, from_file.stdout,
            "list --history {filters:?}"
        );
    }
    for (word, at) in crate::history_search::HOSTILE_WORDS {
        let out = team(
            &env,
            &url,
            &["requests", "list", "--history", "--grep", word, "--json"],
        );
        assert_eq!(
            strings_at(&out.json(), "/id"),
            [ids[*at].clone()],
            "--grep {word}"
        );
    }
    // Read from the history once the agent no longer has them.
    team(&env, &url, &["requests", "clear", "--yes"]).ok();
    for id in [&ids[0], &ids[1], &ids[3]] {
        let a = file(&env, &sqlite, &["requests", "get", id, "--json"]);
        let b = team(&env, &url, &["requests", "get", id, "--json"]);
        b.ok().says("read from the history (postgres://");
        assert_eq!(b.stdout, a.stdout, "get {id}");
    }
    let har_file = dir.path().join("file.har");
    let har_team = dir.path().join("team.har");
    for (out, har) in [(&har_file, "file"), (&har_team, "team")] {
        let args = [
            "requests",
            "export",
            "--history",
            "--har",
            out.to_str().unwrap(),
        ];
        match har {
            "file" => file(&env, &sqlite, &args).ok(),
            _ => team(&env, &url, &args).ok(),
        };
    }
    assert_eq!(
        std::fs::read_to_string(&har_team).unwrap(),
        std::fs::read_to_string(&har_file).unwrap()
    );
    // Everything lives in the schema tunnelctl: nothing else was made.
    assert_eq!(
        c.psql(&db.name, "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('tunnelctl', 'pg_catalog', 'information_schema')"),
        "0"
    );
}

/// Issue 43: several agents, each with a recorder, and two recorders of one agent, all into
/// one store at once: every capture exactly once (checked with `psql`), each under its
/// source; `list --history` shows a SOURCE column and `--source` filters by it.
#[test]
fn many_recorders_into_one_store_keep_every_capture_once() {
    let Some(c) = cluster() else { return };
    let db = c.database();
    let url = db.url();
    let agents: Vec<Env> = (0..3).map(|_| Env::new()).collect();
    for (i, env) in agents.iter().enumerate() {
        let spec: Vec<Value> = (0..40)
            .map(|n| json!({"method": "POST", "uri": format!("/agent{i}/{n}"), "body": format!("hook {i} {n}")}))
            .collect();
        env.mock.seed_captures(json!(spec));
    }
    let target = &url;
    let children: Vec<_> = agents
        .iter()
        .enumerate()
        .flat_map(|(i, env)| {
            // The first agent has two recorders.
            let copies = if i == 0 { 2 } else { 1 };
            (0..copies).map(move |_| {
                let mut cmd = env.std_cmd();
                cmd.env(var::AGENT_URL, env.mock.agent_url())
                    .env(var::HISTORY_URL, target)
                    .args(["local", "requests", "record", "--once", "--source"])
                    .arg(format!("agent-{i}"));
                cmd.stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let rows = kept_rows(c, &db);
    assert_eq!(rows.len(), 120, "every capture once");
    assert_eq!(
        c.psql(&db.name, "SELECT count(*) FROM (SELECT source, id FROM tunnelctl.captures GROUP BY 1, 2 HAVING count(*) > 1) d"),
        "0"
    );
    for i in 0..3 {
        assert_eq!(
            c.psql(
                &db.name,
                &format!("SELECT count(*) FROM tunnelctl.captures WHERE source = 'agent-{i}'")
            ),
            "40"
        );
    }
    let env = &agents[0];
    let table = run(env
        .cmd()
        .env(var::HISTORY_URL, &url)
        .env(var::FORCE_TTY, "1")
        .env("COLUMNS", "160")
        .args(["local", "requests", "list", "--history", "--limit", "5"]));
    table.ok().prints("SOURCE").prints("agent-");
    let only = team(
        env,
        &url,
        &[
            "requests",
            "list",
            "--history",
            "--source",
            "agent-2",
            "--json",
        ],
    );
    let paths = strings_at(&only.ok().json(), "/request/uri");
    assert_eq!(paths.len(), 40);
    assert!(paths.iter().all(|p| p.starts_with("/agent2/")), "{paths:?}");
    // One source listed: no SOURCE column.
    let one = run(env
        .cmd()
        .env(var::HISTORY_URL, &url)
        .env(var::FORCE_TTY, "1")
        .args([
            "local",
            "requests",
            "list",
            "--history",
            "--source",
            "agent-1",
            "--limit",
            "2",
        ]));
    assert!(!one.ok().stdout.contains("SOURCE"), "{}", one.stdout);
    // A wrong --source, and --source without --history.
    team(
        env,
        &url,
        &["requests", "list", "--history", "--source", ""],
    )
    .code(2);
    team(env, &url, &["requests", "list", "--source", "agent-1"]).code(2);
}

/// Issue 43: a role that may only read lists and searches; `record` and `clear` stop with an
/// error naming what it lacks (exit 3), and nothing is written.
#[test]
fn a_read_only_role_reads_and_may_not_record_or_clear() {
    let Some(c) = cluster() else { return };
    let db = c.database();
    let env = Env::new();
    env.mock
        .seed_captures(json!([{"method": "POST", "uri": "/r", "body": "readable"}]));
    team(&env, &db.url(), &["requests", "record", "--once"]).ok();
    let reader = format!("reader_{}", db.name);
    c.psql(&db.name, &format!(
        "CREATE ROLE {reader} LOGIN PASSWORD '{PASSWORD}'; GRANT CONNECT ON DATABASE {} TO {reader}; \
         GRANT USAGE ON SCHEMA tunnelctl TO {reader}; GRANT SELECT ON ALL TABLES IN SCHEMA tunnelctl TO {reader};",
        db.name
    ));
    let url = db
        .url()
        .replace(&format!("{}:", db.role), &format!("{reader}:"));
    let listed = team(
        &env,
        &url,
        &[
            "requests",
            "list",
            "--history",
            "--grep",
            "readable",
            "--json",
        ],
    );
    assert_eq!(listed.ok().json().as_array().unwrap().len(), 1);
    env.mock.seed_captures(json!([{"uri": "/second"}]));
    team(&env, &url, &["requests", "record", "--once"])
        .code(3)
        .says("may not record")
        .says("INSERT");
    team(&env, &url, &["requests", "clear", "--history", "--yes"])
        .code(3)
        .says("DELETE");
    assert_eq!(
        c.psql(&db.name, "SELECT count(*) FROM tunnelctl.captures"),
        "1"
    );
}

/// Issue 43: the server down at the start exits 6 naming host and port; `config show` shows
/// the URL without its password; a URL that does not read stops with exit 3, not echoing it.
#[test]
fn an_unreachable_store_and_the_password_are_said_right() {
    let env = Env::new();
    let port = postgres::free_port();
    let url = format!("postgres://rec:{PASSWORD}@127.0.0.1:{port}/caps");
    team(&env, &url, &["requests", "list", "--history"])
        .code(6)
        .says(&format!("127.0.0.1:{port}"));
    team(&env, &url, &["requests", "record", "--once"]).code(6);
    let shown = run(env
        .cmd()
        .env(var::HISTORY_URL, &url)
        .args(["config", "show"]));
    shown.ok().prints("postgres://rec:…(redacted)@127.0.0.1");
    no_password(&shown);
    let doc = run(env
        .cmd()
        .env(var::HISTORY_URL, &url)
        .args(["config", "show", "--json"]));
    assert_eq!(doc.ok().json()["history"], "team store (history_url)");
    let tty = run(env
        .cmd()
        .env(var::HISTORY_URL, &url)
        .env(var::FORCE_TTY, "1")
        .args(["config", "show"]));
    tty.ok().prints("history:     team store (history_url)");
    no_password(&tty);
    let traced = team(&env, &url, &["-v", "requests", "list", "--history"]);
    traced.code(6);
    team(
        &env,
        &format!("mysql://rec:{PASSWORD}@h/x"),
        &["requests", "list", "--history"],
    )
    .code(3)
    .says("postgres://");
    team(
        &env,
        &format!("postgres://rec:{PASSWORD}@h:99999/x"),
        &["requests", "list", "--history"],
    )
    .code(3);
    run(env.cmd().args([
        "--history-url",
        &format!("postgres://rec:{PASSWORD}@h/x?sslmode=maybe"),
        "local",
        "requests",
        "list",
        "--history",
    ]))
    .code(3)
    .says("sslmode");
}

/// Issue 43: TLS is checked: `verify-full` against the test CA works for `localhost`, and is
/// refused for a wrong CA and for a host name the certificate does not name (`127.0.0.1`).
#[test]
fn tls_is_verified_against_the_ca_and_the_host_name() {
    let Some(c) = postgres::with_tls() else {
        skip::cannot_run(format!(
            "PostgreSQL with TLS cannot run here: {}",
            postgres::why_not()
        ));
        return;
    };
    let db = c.database();
    let env = Env::new();
    env.mock
        .seed_captures(json!([{"uri": "/tls", "body": "over.tls"}]));
    let ca = c.ca.as_ref().unwrap().display().to_string();
    let good = db
        .url_with(&format!("sslmode=verify-full&sslrootcert={ca}"))
        .replace("127.0.0.1", "localhost");
    team(&env, &good, &["requests", "record", "--once"]).ok();
    let listed = team(
        &env,
        &good,
        &[
            "requests",
            "list",
            "--history",
            "--grep",
            "over.tls",
            "--json",
        ],
    );
    assert_eq!(listed.ok().json().as_array().unwrap().len(), 1);
    let wrong_ca = crate::common::tls::TlsServer::ca_file();
    let bad = good.replace(&ca, &wrong_ca.display().to_string());
    team(&env, &bad, &["requests", "list", "--history"])
        .code(6)
        .says("certificate");
    let by_ip = db.url_with(&format!("sslmode=verify-full&sslrootcert={ca}"));
    team(&env, &by_ip, &["requests", "list", "--history"])
        .code(6)
        .says("certificate");
    // The server takes TLS only: a plain connection is refused by it.
    team(
        &env,
        &db.url_with("sslmode=disable"),
        &["requests", "list", "--history"],
    )
    .code(3);
}

/// Issue 43: a lock held on the store past the wait stops a recorder with exit 7, writing
/// nothing; a store of a newer schema is refused (exit 3) and left as it is.
#[test]
fn a_lock_held_too_long_and_a_newer_schema_are_refused() {
    let Some(c) = cluster() else { return };
    let db = c.database();
    let env = Env::new();
    env.mock.seed_captures(json!([{"uri": "/one"}]));
    team(&env, &db.url(), &["requests", "record", "--once"]).ok();
    env.mock.seed_captures(json!([{"uri": "/two"}]));
    let mut holder = std::process::Command::new("psql")
        .env("PGPASSWORD", SUPER_PASSWORD)
        .args(["-X", "-q", "-h", "127.0.0.1", "-p", &c.port.to_string(), "-U", "postgres", "-d", &db.name])
        .args(["-c", "BEGIN; LOCK TABLE tunnelctl.captures IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(25); COMMIT;"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the lock is held.
    let held = "SELECT count(*) FROM pg_locks l JOIN pg_class r ON r.oid = l.relation WHERE r.relname = 'captures' AND l.mode = 'AccessExclusiveLock' AND l.granted";
    while c.psql(&db.name, held) != "1" {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    team(&env, &db.url(), &["requests", "record", "--once"])
        .code(7)
        .says("waiting");
    let _ = holder.kill();
    let _ = holder.wait();
    assert_eq!(
        c.psql(&db.name, "SELECT count(*) FROM tunnelctl.captures"),
        "1"
    );
    c.psql(
        &db.name,
        "UPDATE tunnelctl.meta SET value = '9' WHERE key = 'schema_version'",
    );
    team(&env, &db.url(), &["requests", "list", "--history"])
        .code(3)
        .says("schema version 9");
    assert_eq!(
        c.psql(&db.name, "SELECT count(*) FROM tunnelctl.captures"),
        "1"
    );
}

/// Issue 43: `copy` takes a laptop's file into the team store and the team store into a
/// file, with the list filters; copied twice, kept once; it says what it copied.
#[test]
fn copy_between_a_file_and_the_team_store_keeps_each_capture_once() {
    let Some(c) = cluster() else { return };
    let db = c.database();
    let env = Env::new();
    let ids = strings(&env.mock.seed_captures(json!([
        {"method": "POST", "uri": "/a", "body": "copied.one"},
        {"method": "GET", "uri": "/b", "tunnel_name": "web (http)"},
        {"method": "POST", "uri": "/c", "pending": true}
    ])));
    let dir = tempfile::tempdir().unwrap();
    let laptop = dir.path().join("laptop.sqlite3");
    file(&env, &laptop, &["requests", "record", "--once"]).ok();
    let url = db.url();
    let laptop_s = laptop.to_str().unwrap();
    let first = team(
        &env,
        &url,
        &[
            "requests", "copy", "--from", laptop_s, "--to", &url, "--json",
        ],
    );
    let doc = first.ok().json();
    assert_eq!(
        (doc["new"].clone(), doc["already"].clone()),
        (json!(3), json!(0)),
        "{doc}"
    );
    assert!(!first.stdout.contains(PASSWORD));
    let again = team(
        &env,
        &url,
        &["requests", "copy", "--from", laptop_s, "--to", &url],
    );
    again
        .ok()
        .says("Copied 0 new capture(s)")
        .says("(3 already there)");
    assert_eq!(kept_rows(c, &db).len(), 3, "copied twice, kept once");
    let listed = team(&env, &url, &["requests", "list", "--history", "--json"]);
    assert_eq!(strings_at(&listed.ok().json(), "/id").len(), 3);
    // The team store's POSTs into a file for a flight.
    let flight = dir.path().join("flight.sqlite3");
    let flight_s = flight.to_str().unwrap();
    team(
        &env,
        &url,
        &[
            "requests", "copy", "--from", &url, "--to", flight_s, "--method", "POST", "--since",
            "1h",
        ],
    )
    .ok()
    .says("Copied 2 new capture(s)");
    let kept = file(&env, &flight, &["requests", "list", "--history", "--json"]);
    let mut got = strings_at(&kept.ok().json(), "/id");
    got.sort();
    let mut want = vec![ids[0].clone(), ids[2].clone()];
    want.sort();
    assert_eq!(got, want);
    // Wrong stores.
    team(
        &env,
        &url,
        &[
            "requests",
            "copy",
            "--from",
            "mysql://x/y",
            "--to",
            flight_s,
        ],
    )
    .code(2);
    team(
        &env,
        &url,
        &[
            "requests",
            "copy",
            "--from",
            dir.path().join("none.sqlite3").to_str().unwrap(),
            "--to",
            flight_s,
        ],
    )
    .code(3);
    team(
        &env,
        &url,
        &[
            "requests", "copy", "--from", laptop_s, "--to", flight_s, "--source", "",
        ],
    )
    .code(2);
}

/// Reads lines of a child's stdout on a thread, so a test can wait for one.
fn lines_of(child: &mut std::process::Child) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines().map_while(|l| l.ok()) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// Issue 43: `tail --history` on the team store shows what another recorder, of another
/// agent, keeps while it runs.
#[test]
fn tail_history_follows_what_any_recorder_keeps() {
    let Some(c) = cluster() else { return };
    let db = c.database();
    let url = db.url();
    let env = Env::new();
    env.mock.seed_captures(json!([{"uri": "/before"}]));
    team(&env, &url, &["requests", "record", "--once"]).ok();
    let mut tail = env.std_cmd();
    tail.env(var::HISTORY_URL, &url)
        .args(["local", "requests", "tail", "--history", "-o", "ndjson"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = tail.spawn().unwrap();
    let lines = lines_of(&mut child);
    // It says it follows once it knows where it starts.
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    std::io::BufRead::read_line(&mut err, &mut said).unwrap();
    assert!(
        said.starts_with("Following what is kept in postgres://"),
        "{said}"
    );
    // Another agent, another host's recorder.
    let other = Env::new();
    let id = strings(
        &other
            .mock
            .seed_captures(json!([{"method": "POST", "uri": "/from-the-fleet"}])),
    )[0]
    .clone();
    team(
        &other,
        &url,
        &["requests", "record", "--once", "--source", "fleet"],
    )
    .ok();
    let got = lines.recv_timeout(std::time::Duration::from_secs(120));
    let _ = child.kill();
    let _ = child.wait();
    let got = got.expect("tail --history printed the capture kept");
    let v: Value = serde_json::from_str(&got).unwrap();
    assert_eq!(v["id"], json!(id), "{got}");
    assert!(!got.contains("/before"));
}

/// Issue 43: the server restarted while `record` runs: it says so once, holds what the agent
/// shows meanwhile, and keeps it once the server is back; nothing it saw is lost.
#[test]
fn record_outlives_a_restart_of_the_server() {
    if postgres::plain().is_none() {
        skip::cannot_run(format!(
            "PostgreSQL cannot run here: {}",
            postgres::why_not()
        ));
        return;
    }
    // A cluster of its own: the shared one stays up for the other tests.
    let c = Cluster::start(false).unwrap();
    let db = c.database();
    let env = Env::new();
    env.mock
        .seed_captures(json!([{"uri": "/one"}, {"uri": "/two"}]));
    let mut rec = env.std_cmd();
    rec.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_URL, db.url())
        .args(["local", "requests", "record"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let child = rec.spawn().unwrap();
    let made = "SELECT to_regclass('tunnelctl.captures') IS NOT NULL";
    while c.psql(&db.name, made) != "t" {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let count = || c.psql(&db.name, "SELECT count(*) FROM tunnelctl.captures");
    let wait_for = |n: &str| {
        let start = std::time::Instant::now();
        while count() != n {
            if start.elapsed().as_secs() > 120 {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        true
    };
    let stop = |child: std::process::Child| {
        // SAFETY: signalling our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert!(wait_for("2"));
    c.stop();
    env.mock.seed_captures(json!([{"uri": "/while-down"}]));
    // The recorder polls four times a second: a few polls find the store gone.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    env.mock.seed_captures(json!([{"uri": "/still-down"}]));
    std::thread::sleep(std::time::Duration::from_millis(1000));
    c.start_again();
    let all_kept = wait_for("4");
    let (code, stderr) = stop(child);
    assert!(
        all_kept,
        "the captures seen while it was down were not kept: {stderr}"
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stderr.matches("Holding what the agent shows").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("The history store is back"), "{stderr}");
    assert!(stderr.contains("Kept 4 new capture(s)"), "{stderr}");
    assert!(!stderr.contains(PASSWORD));
}

/// `--source` names what a recorder keeps (flag, `TUNNELCTL_HISTORY_SOURCE`, the profile's
/// `history_source`), and a wrong source or history URL is refused wherever it is given: a
/// flag's with exit 2, the environment's or the profile's with exit 3, naming the key.
#[test]
fn sources_and_history_urls_are_read_and_checked_wherever_given() {
    let env = Env::new();
    env.mock.seed_captures(json!([{"uri": "/s"}]));
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path().join("h.sqlite3");
    let kept = |cmd: &mut assert_cmd::Command, more: &[&str]| {
        let out = run(cmd
            .env(var::AGENT_URL, env.mock.agent_url())
            .env(var::HISTORY_FILE, &h)
            .args(["local", "requests", "record", "--once", "--json"])
            .args(more));
        out.ok().json()["source"].clone()
    };
    let from_env = || {
        let mut c = env.cmd();
        c.env(var::HISTORY_SOURCE, "from-env");
        c
    };
    assert_eq!(kept(&mut from_env(), &[]), "from-env");
    assert_eq!(
        kept(&mut from_env(), &["--source", "from-flag"]),
        "from-flag"
    );
    let default = kept(&mut env.cmd(), &[]);
    assert!(
        default.as_str().unwrap().ends_with(&env.mock.agent_url()),
        "{default}"
    );
    for args in [
        vec!["requests", "record", "--once", "--source", ""],
        vec!["requests", "tail", "--record", "--source", "a\u{7}b"],
        vec!["inspect", "--history", "--source", ""],
        vec!["inspect", "--source", "s"],
        vec!["requests", "tail", "--source", "s"],
        vec!["requests", "clear", "--history", "--source", "", "--yes"],
        vec![
            "requests",
            "list",
            "--history",
            "--source",
            &"x".repeat(300),
        ],
        vec!["requests", "export", "--har", "-", "--source", "s"],
    ] {
        file(&env, &h, &args).code(2);
    }
    run(env
        .cmd()
        .env(var::HISTORY_SOURCE, "two\nlines")
        .args(["local", "requests", "record", "--once"]))
    .code(3)
    .says("history_source");
    env.write_config("[default]\nhistory_url = \"mysql://u:hunter2secret@h/x\"\n");
    let out = run(env.cmd().args(["local", "requests", "list", "--history"]));
    out.code(3).says("history_url").says("default");
    assert!(!out.stderr.contains("hunter2secret"), "{}", out.stderr);
    let shown = run(env.cmd().args(["config", "show"]));
    assert!(
        !shown.ok().stdout.contains("hunter2secret"),
        "{}",
        shown.stdout
    );
    env.write_config("[default]\nhistory_source = \"a\\u0007b\"\n");
    run(env.cmd().args(["local", "requests", "record", "--once"]))
        .code(3)
        .says("history_source");
}

/// Issue 43: the bounds hold for the team store (applied by the recorder, never by a reader),
/// and `clear --history` removes kept captures, of one source with `--source`.
#[test]
fn bounds_and_clear_hold_for_the_team_store() {
    let Some(c) = cluster() else { return };
    let db = c.database();
    let url = db.url();
    let env = Env::new();
    env.mock.seed_captures(json!([
        {"uri": "/old", "start": "2020-01-01T00:00:00Z"},
        {"uri": "/a", "body_size": 40000},
        {"uri": "/b", "body_size": 40000},
        {"uri": "/c", "body_size": 40000}
    ]));
    let out = team(
        &env,
        &url,
        &[
            "requests",
            "record",
            "--once",
            "--max-size",
            "100KiB",
            "--json",
            "--yes",
        ],
    );
    let doc = out.ok().json();
    assert_eq!(doc["kept"], json!(1), "{doc}");
    let left = c.psql(&db.name, "SELECT path FROM tunnelctl.captures");
    assert_eq!(left, "/c", "the newest is kept, the rest dropped");
    // A reader never trims, whatever the bounds say.
    env.write_config("[default]\nhistory_max_size = \"64KiB\"\nhistory_max_age = \"1h\"\n");
    let other = Env::new();
    other.mock.seed_captures(json!([{"uri": "/other"}]));
    team(
        &other,
        &url,
        &[
            "requests",
            "record",
            "--once",
            "--source",
            "other",
            "--max-size",
            "1GiB",
        ],
    )
    .ok();
    team(&env, &url, &["requests", "list", "--history"]).ok();
    assert_eq!(
        c.psql(&db.name, "SELECT count(*) FROM tunnelctl.captures"),
        "2"
    );
    let cleared = team(
        &env,
        &url,
        &[
            "requests",
            "clear",
            "--history",
            "--source",
            "other",
            "--yes",
            "--json",
        ],
    );
    assert_eq!(cleared.ok().json()["deleted"], json!(1));
    assert_eq!(
        c.psql(&db.name, "SELECT path FROM tunnelctl.captures"),
        "/c"
    );
    team(&env, &url, &["requests", "clear", "--history", "--yes"]).ok();
    assert_eq!(
        c.psql(&db.name, "SELECT count(*) FROM tunnelctl.captures"),
        "0"
    );
}

/// Issue 43: `inspect --history` on the team store shows what recorders keep while it runs
/// (at 80x24 in a pseudo-terminal), and its title names the store without its password.
#[test]
fn the_inspector_follows_the_team_store() {
    let Some(c) = cluster() else { return };
    let db = c.database();
    let url = db.url();
    let env = Env::new();
    env.mock
        .seed_captures(json!([{"method": "POST", "uri": "/kept-before"}]));
    team(&env, &url, &["requests", "record", "--once"]).ok();
    let mut cmd = env.inspector_cmd(&env.mock.agent_url(), &[], &["--history"]);
    cmd.env(var::HISTORY_URL, &url);
    let mut term = crate::common::pty::Pty::spawn(&cmd, 24, 80);
    let screen = term.wait_for("/kept-before");
    assert!(!screen.contains(PASSWORD), "{screen}");
    assert!(screen.contains("history postgres://"), "{screen}");
    let other = Env::new();
    other
        .mock
        .seed_captures(json!([{"method": "POST", "uri": "/kept-while-open"}]));
    team(
        &other,
        &url,
        &["requests", "record", "--once", "--source", "fleet"],
    )
    .ok();
    term.wait_for("/kept-while-open");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    term.assert_restored();
}
