//! What people read at 80 columns and what the commands say (issue 33): notes folded at
//! spaces on a terminal, never broken inside a word; `tail` keeping the path and its columns;
//! `save` saying once that it read from the history; and messages that said the wrong thing
//! or the same thing twice.

use std::path::PathBuf;

use serde_json::json;

use crate::common::pty::Pty;
use crate::common::upstream::visit;
use crate::common::{run, Env, Out};
use crate::local::{edge_port, tunnels_to_upstream};
use tunnelctl::registry::env as var;

/// The history file of a test: a note naming it with an ID runs past 80 columns, while the
/// path alone fits a line.
fn long_history_file(env: &Env) -> PathBuf {
    env.dir.path().join("kept").join("history.sqlite3")
}

/// `tunnelctl local ARGS` against the emulator's agent, with the test's history file, in its
/// folder.
fn local(env: &Env, args: &[&str]) -> Out {
    let mut cmd = env.cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, long_history_file(env))
        .current_dir(env.dir.path())
        .arg("local")
        .args(args);
    run(&mut cmd)
}

/// `n` captures kept in the history and then gone from the agent (as after its restart):
/// their IDs.
fn kept_and_gone(env: &Env, n: usize) -> Vec<String> {
    let specs: Vec<_> = (0..n)
        .map(|i| {
            json!({
                "method": "POST",
                "uri": format!("/hooks/{i}"),
                "headers": {"Content-Type": "application/json"},
                "body": "{}",
                "status_code": 200,
                "response_body": "ok",
            })
        })
        .collect();
    let ids = env.mock.seed_captures(json!(specs));
    local(env, &["requests", "record", "--once"]).ok();
    local(env, &["requests", "clear", "--yes"]).ok();
    ids.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// `save` of seven kept IDs said "the agent no longer has it; read from the history (…)"
/// seven times (fourteen lines at 80 columns) before its own lines: now once, naming a few;
/// `verify` too.
#[test]
fn save_says_once_that_it_read_from_the_history() {
    let env = Env::new();
    let ids = kept_and_gone(&env, 7);
    let mut args = vec!["requests", "save"];
    args.extend(ids.iter().map(String::as_str));
    args.extend(["--into", "hooks"]);
    let out = local(&env, &args);
    out.ok();
    assert_eq!(
        out.stderr.matches("read from the history").count(),
        1,
        "{}",
        out.stderr
    );
    let said = out
        .stderr
        .lines()
        .find(|l| l.contains("read from the history"))
        .unwrap();
    assert!(
        said.contains(&ids[0]) && said.contains("and 2 more"),
        "{said}"
    );
    assert_eq!(out.stderr.matches("Saved").count(), 7, "{}", out.stderr);
    // verify of several IDs says it once too.
    let mut args = vec!["requests", "verify"];
    args.extend(ids.iter().map(String::as_str));
    let out = local(&env, &args);
    assert_eq!(
        out.stderr.matches("read from the history").count(),
        1,
        "{}",
        out.stderr
    );
}

/// On a terminal 80 columns wide, a note longer than a line is folded at spaces (the path it
/// names whole), never broken inside a word by the terminal (`read from the hist` / `ory`).
#[test]
fn a_long_note_is_folded_at_spaces_on_a_terminal() {
    let env = Env::new();
    let ids = kept_and_gone(&env, 1);
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, long_history_file(&env))
        .current_dir(env.dir.path())
        .args(["local", "requests", "save", &ids[0], "--out", "one.http"]);
    let mut term = Pty::spawn(&cmd, 24, 80);
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    let screen = term.screen();
    // Folded: a line goes on, indented, on the next.
    let unfolded = screen.replace("\n  ", " ");
    assert!(unfolded.contains("read from the history ("), "{screen}");
    assert!(screen.lines().count() > 2, "the note was folded:\n{screen}");
    assert!(
        term.wrapped_rows().is_empty(),
        "rows the terminal broke: {:?}\n{screen}",
        term.wrapped_rows()
    );
}

/// `tail` at 80 columns: the path keeps most of the line (it was cut to `/hooks/…`), and the
/// columns stand one under the other whatever the method, status or duration of each line.
#[test]
fn tail_at_80_columns_keeps_the_path_and_its_columns() {
    let (env, _up) = tunnels_to_upstream(&["t"]);
    let port = edge_port(&env, "t (http)");
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .args(["local", "requests", "tail"]);
    let mut term = Pty::spawn(&cmd, 24, 80);
    term.wait_for("Following captured requests");
    visit(port, "GET", "/a", &[], b"");
    visit(port, "DELETE", "/hooks/stripe/events?attempt=1", &[], b"x");
    visit(port, "POST", "/hooks/github", &[], b"{}");
    let screen = term.wait_until("three tail lines", |s| s.matches("airt_").count() >= 3);
    term.send("\x03");
    let lines: Vec<&str> = screen.lines().filter(|l| l.contains("airt_")).collect();
    let id_column: Vec<usize> = lines
        .iter()
        .map(|l| l[..l.find("airt_").unwrap()].chars().count())
        .collect();
    assert!(
        id_column.iter().all(|&c| c == id_column[0]),
        "the IDs stand in one column:\n{screen}"
    );
    assert!(
        screen.contains("/hooks/stripe/events"),
        "the path keeps the room:\n{screen}"
    );
    assert!(term.wrapped_rows().is_empty(), "{screen}");
}

/// `save --into` with `--json` or `--jq` printed nothing: now what it wrote, as an object.
#[test]
fn save_into_prints_what_it_wrote_for_json_and_jq() {
    let env = Env::new();
    let ids = kept_and_gone(&env, 2);
    let out = local(
        &env,
        &[
            "requests", "save", &ids[0], &ids[1], "--into", "hooks", "--json",
        ],
    );
    out.ok();
    let doc = out.json();
    assert_eq!(doc["folder"], "hooks");
    let names: Vec<&str> = doc["fixtures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["post-hooks-0", "post-hooks-1"]);
    assert_eq!(doc["fixtures"][0]["id"], ids[0].as_str());
    assert_eq!(
        doc["fixtures"][0]["files"],
        json!(["hooks/post-hooks-0.http", "hooks/post-hooks-0.expect.toml"])
    );
    assert_eq!(doc["from_history"], json!(ids));
    let out = local(
        &env,
        &[
            "requests",
            "save",
            &ids[0],
            "--into",
            "more",
            "--jq",
            ".fixtures[].name",
        ],
    );
    out.ok();
    assert_eq!(out.stdout.trim(), "post-hooks-0");
}

/// Messages that repeated themselves or pointed the wrong way (issue 33, item 27): each says
/// once what is wrong and what to do, and nothing is asked of the agent for input refused.
#[test]
fn messages_say_once_what_is_wrong() {
    let env = Env::new();
    std::fs::create_dir(env.dir.path().join("hooks")).unwrap();
    let request = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    std::fs::write(env.dir.path().join("a.http"), request).unwrap();
    std::fs::write(env.dir.path().join("b.http"), request).unwrap();
    env.mock.clear_agent_requests();

    let out = local(&env, &["requests", "diff", "nope.http", "a.http"]);
    out.code(2).says("cannot read the request file nope.http");
    assert_eq!(out.stderr.matches("nope.http").count(), 1, "{}", out.stderr);

    let out = local(&env, &["requests", "diff", "hooks", "a.http"]);
    out.code(2).says("hooks is a folder");

    let out = local(&env, &["requests", "diff", "a.http", "b.http"]);
    out.ok().says("No differences");
    assert!(
        !out.stderr.contains("Date"),
        "no answers were compared: {}",
        out.stderr
    );

    let out = local(&env, &["requests", "export", "--har", "nodir/x.har"]);
    out.code(2).says("the folder nodir does not exist");
    assert_eq!(
        out.stderr.matches("nodir/x.har").count(),
        1,
        "{}",
        out.stderr
    );

    for force in [&[][..], &["--force"][..]] {
        let mut args = vec!["requests", "export", "--har", "hooks"];
        args.extend_from_slice(force);
        let out = local(&env, &args);
        out.code(2).says("hooks is a folder; name a file");
        assert!(!out.stderr.contains("--force"), "{}", out.stderr);
    }
    assert!(
        env.mock.agent_requests().is_empty(),
        "nothing asked of the agent: {:?}",
        env.mock.agent_requests()
    );

    let out = local(
        &env,
        &["requests", "test", "nope/", "--to", "http://127.0.0.1:9"],
    );
    out.code(2).says("nothing at nope/");
    assert!(!out.stderr.contains("os error"), "{}", out.stderr);

    // An unknown ID: the history was searched too, or there is none.
    let out = local(&env, &["requests", "get", "airt_nope"]);
    out.code(4).says("No history was searched");
    local(&env, &["requests", "record", "--once"]).ok();
    let out = local(&env, &["requests", "get", "airt_nope"]);
    out.code(4).says("does not hold it either");
}

/// An editor that is not installed said "exited with exit status: 127" (what `sh` answers):
/// now that it was not found, and what to set; nothing is sent.
#[test]
fn a_missing_editor_is_said_to_be_not_found() {
    let (env, up, id) = crate::replay::one_webhook();
    let mut cmd = env.cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env("VISUAL", "")
        .env("EDITOR", "no-such-editor-9q")
        .args(["local", "requests", "replay", &id, "--edit"]);
    let out = run(&mut cmd);
    out.code(2)
        .says("the editor (no-such-editor-9q) was not found")
        .says("EDITOR=")
        .says("nothing was sent");
    assert!(!out.stderr.contains("exit status"), "{}", out.stderr);
    assert_eq!(up.received().len(), 1, "only the visit that was captured");
}

/// Ctrl-C while `sessions restart --wait` waits for the agents printed "interrupted" alone:
/// now the wait ends as a graceful stop does, naming the agents not back yet, exit 130.
#[test]
fn ctrl_c_during_a_restart_wait_names_the_agents_not_back() {
    use std::io::Read;
    let env = Env::with(tunnelctl_mock::MockOptions {
        restart_delay_ms: 600_000,
        ..Default::default()
    });
    let seeded = env.seed(json!({"sessions": [
        {"os": "linux", "region": "eu", "ip": "203.0.113.1", "metadata": "{\"host\":\"a\"}"},
        {"os": "linux", "region": "eu", "ip": "203.0.113.2", "metadata": "{\"host\":\"b\"}"},
    ]}));
    let ids = crate::common::strings(&seeded["sessions"]);
    let mut child = env
        .std_cmd()
        .args([
            "sessions",
            "restart",
            &ids[0],
            &ids[1],
            "--wait",
            "--timeout",
            "600",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let said = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let into = said.clone();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 1024];
        while let Ok(n) = stderr.read(&mut buf) {
            if n == 0 {
                break;
            }
            into.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    crate::common::wait_until("the wait for the agents", || {
        said.lock().unwrap().contains("to reconnect")
    });
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    reader.join().unwrap();
    let said = said.lock().unwrap().clone();
    assert_eq!(status.code(), Some(130), "{said}");
    let line = said
        .lines()
        .find(|l| l.contains("agent(s) not back yet:"))
        .unwrap_or_else(|| panic!("the agents not back are named:\n{said}"));
    assert!(line.contains(&ids[0]) && line.contains(&ids[1]), "{line}");
}

/// `config show` on a terminal: every value starts in one column (they stopped lining up
/// after `history_file`, the keys being padded to 12).
#[test]
fn config_show_lines_up_its_values() {
    let env = Env::new();
    let out = env.run_terminal(100, &["config", "show"]);
    out.ok();
    let value_at = |key: &str| {
        let line = out
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("{key} ")))
            .unwrap_or_else(|| panic!("{key}:\n{}", out.stdout));
        line[key.len()..].find(|c: char| c != ' ').unwrap() + key.len()
    };
    let at = value_at("api_url");
    for key in [
        "history_file",
        "history_max_size",
        "webhook_secret_standard",
    ] {
        assert_eq!(value_at(key), at, "{key}:\n{}", out.stdout);
    }
}

/// A failing case's message longer than the terminal went on at column 0 under its indented
/// line: now it is folded at spaces under its own indentation.
#[test]
fn a_long_test_failure_is_folded_under_its_indentation() {
    let env = Env::new();
    let app = crate::common::hostile::Hostile::start(|_| {
        crate::common::hostile::Reply::With(
            200,
            vec![(
                "X-Note".into(),
                "a value long enough to run well past the end of an eighty column line".into(),
            )],
            b"{}".to_vec(),
        )
    });
    let hooks = env.dir.path().join("hooks");
    std::fs::create_dir(&hooks).unwrap();
    std::fs::write(
        hooks.join("x.http"),
        "POST /hooks/x HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
    )
    .unwrap();
    std::fs::write(
        hooks.join("x.expect.toml"),
        "status = 200\n\n[headers]\nX-Note = \"short\"\n",
    )
    .unwrap();
    let mut cmd = env.std_cmd();
    cmd.current_dir(env.dir.path()).args([
        "local",
        "requests",
        "test",
        "hooks",
        "--to",
        &app.url(),
    ]);
    let mut term = Pty::spawn(&cmd, 24, 80);
    assert_eq!(term.wait_exit(), 8, "{}", term.screen());
    let screen = term.screen();
    assert!(screen.contains("FAIL"), "{screen}");
    assert!(screen.contains("X-Note"), "{screen}");
    assert!(
        term.wrapped_rows().is_empty(),
        "rows the terminal broke: {:?}\n{screen}",
        term.wrapped_rows()
    );
}

/// The line that says where a request was sent names a URL of any length: it broke inside
/// `took` at 80 columns ("too" / "k"); now it is folded before `took`.
#[test]
fn the_sent_line_is_folded_before_took() {
    let env = Env::new();
    let app = crate::common::hostile::Hostile::start(|_| crate::common::hostile::Reply::ok("ok"));
    std::fs::write(
        env.dir.path().join("x.http"),
        "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
    )
    .unwrap();
    let to = format!("{}/a-rather-long-prefix/for-the-path", app.url());
    let mut cmd = env.std_cmd();
    cmd.current_dir(env.dir.path())
        .args(["local", "requests", "send", "x.http", "--to", &to]);
    let mut term = Pty::spawn(&cmd, 24, 80);
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    let screen = term.screen();
    let first = screen.lines().position(|l| l.starts_with("sent ")).unwrap();
    let next = screen.lines().nth(first + 1).unwrap();
    assert!(
        next.trim_start().starts_with("took ") || next.contains(" took "),
        "{screen}"
    );
    assert!(
        !term.wrapped_rows().iter().any(|r| r.starts_with("sent ")),
        "{screen}"
    );
}

/// An error longer than the terminal is folded at spaces too, each of its lines.
#[test]
fn a_long_error_is_folded_on_a_terminal() {
    let env = Env::new();
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, long_history_file(&env))
        .args(["local", "requests", "get", "airt_nope"]);
    let mut term = Pty::spawn(&cmd, 24, 80);
    assert_eq!(term.wait_exit(), 4, "{}", term.screen());
    let screen = term.screen();
    assert!(
        screen.starts_with("error: GET /api/requests/http/airt_nope"),
        "{screen}"
    );
    assert!(screen.contains("No history was searched"), "{screen}");
    assert!(
        term.wrapped_rows().is_empty(),
        "rows the terminal broke: {:?}\n{screen}",
        term.wrapped_rows()
    );
}
