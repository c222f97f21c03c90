//! A symbolic link is never replaced by a file tunnelctl writes. `/dev/stdout` is a link to
//! `/proc/self/fd/1`; renaming a file over it replaced the machine's `/dev/stdout`. A write
//! through a link goes where the link leads: a regular file there is replaced whole, there,
//! and the link stays; a descriptor's link (`/proc/self/fd/N`) is written into, so with
//! stdout redirected to a file the bytes land in that file. Every writer is tried: `export
//! --har`, `save --out`, `save --into`, `test --junit`, `test --update` (within the fixture
//! folder), the config file and the history file. Links are made in the test's own folder,
//! never under `/dev`.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::json;

use crate::common::hostile::{Hostile, Reply};
use crate::common::{run, Env, Out};
use tunnelctl::registry::env as var;

const ANSWER: &str = r#"{"received":true}"#;

/// The emulator with one captured POST to /hooks/pay that was answered 200 with [`ANSWER`]:
/// its ID.
fn one_answered_capture() -> (Env, String) {
    let env = Env::new();
    let ids = env.mock.seed_captures(json!([{
        "method": "POST",
        "uri": "/hooks/pay",
        "headers": {"Host": "example.test", "Content-Type": "application/json"},
        "body": "{\"event\":\"paid\"}",
        "status_code": 200,
        "response_headers": {"Content-Type": "application/json"},
        "response_body": ANSWER,
    }]));
    let id = ids[0].as_str().expect("an id").to_string();
    (env, id)
}

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// A link at `link` to a regular file `elsewhere/NAME` in the test's folder, holding "old":
/// the file's path.
fn link_to_a_file(env: &Env, link: &Path) -> PathBuf {
    let folder = env.dir.path().join("elsewhere");
    fs::create_dir_all(&folder).unwrap();
    let target = folder.join(link.file_name().expect("a name"));
    fs::write(&target, "old").unwrap();
    symlink(&target, link).unwrap();
    target
}

/// The link was kept, and what it leads to now holds what was written (not "old").
#[track_caller]
fn written_through(link: &Path, target: &Path) -> String {
    assert!(is_link(link), "the link {} stays a link", link.display());
    assert_eq!(
        fs::read_link(link).unwrap(),
        target,
        "it leads where it led"
    );
    let text = fs::read_to_string(target).expect("the target is a file");
    assert_ne!(text, "old", "the target was replaced");
    text
}

/// `tunnelctl local ARGS` against the emulator's agent, in the test's folder, with stdout
/// redirected to the file `stdout` (as a shell's `> stdout` would).
fn local_to_file(env: &Env, stdout: &Path, args: &[&str]) -> Out {
    let file = fs::File::create(stdout).unwrap();
    let mut cmd = env.std_cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .current_dir(env.dir.path())
        .arg("local")
        .args(args)
        .stdout(Stdio::from(file));
    run_redirected(&mut cmd)
}

/// Runs `cmd` with the stdout it was given (assert_cmd would take it into a pipe).
fn run_redirected(cmd: &mut std::process::Command) -> Out {
    let output = cmd.output().expect("the binary runs");
    let out = Out {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    crate::common::assert_no_secret(&out);
    out
}

/// `mystdout`, the shape of `/dev/stdout`, made in `dir`.
fn stdout_link(dir: &Path) -> PathBuf {
    let link = dir.join("mystdout");
    symlink("/proc/self/fd/1", &link).unwrap();
    link
}

#[test]
fn export_with_force_replaces_the_file_a_link_leads_to_and_keeps_the_link() {
    let (env, _) = one_answered_capture();
    let link = env.dir.path().join("out.har");
    let target = link_to_a_file(&env, &link);
    env.local(&["requests", "export", "--har", &link.to_string_lossy()])
        .code(2)
        .says("--force");
    assert_eq!(fs::read_to_string(&target).unwrap(), "old");
    env.local(&[
        "requests",
        "export",
        "--har",
        &link.to_string_lossy(),
        "--force",
    ])
    .ok();
    let doc: serde_json::Value = serde_json::from_str(&written_through(&link, &target)).unwrap();
    assert_eq!(doc["log"]["entries"].as_array().map(Vec::len), Some(1));
    // Nothing was left beside the link, nor beside its target.
    assert!(fs::read_dir(target.parent().unwrap()).unwrap().count() == 1);
}

#[test]
fn export_through_a_link_to_stdouts_descriptor_lands_in_the_redirect() {
    let (env, _) = one_answered_capture();
    let link = stdout_link(env.dir.path());
    let redirect = env.dir.path().join("o.txt");
    let out = local_to_file(
        &env,
        &redirect,
        &[
            "requests",
            "export",
            "--har",
            &link.to_string_lossy(),
            "--force",
        ],
    );
    out.ok();
    assert!(is_link(&link), "the link stays a link");
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("/proc/self/fd/1"));
    let doc: serde_json::Value =
        serde_json::from_slice(&fs::read(&redirect).unwrap()).expect("the HAR log in o.txt");
    assert_eq!(doc["log"]["entries"].as_array().map(Vec::len), Some(1));
}

#[test]
fn save_out_with_force_writes_through_a_link_to_a_file_or_to_stdout() {
    let (env, id) = one_answered_capture();
    let raw = env.local(&["requests", "get", &id, "--raw"]);
    raw.ok();
    let link = env.dir.path().join("req.http");
    let target = link_to_a_file(&env, &link);
    let shown = link.to_string_lossy().into_owned();
    env.local(&["requests", "save", &id, "--out", &shown])
        .code(2)
        .says("--force");
    env.local(&["requests", "save", &id, "--out", &shown, "--force"])
        .ok();
    assert_eq!(written_through(&link, &target), raw.stdout);

    let link = stdout_link(env.dir.path());
    let redirect = env.dir.path().join("o.http");
    local_to_file(
        &env,
        &redirect,
        &[
            "requests",
            "save",
            &id,
            "--out",
            &link.to_string_lossy(),
            "--force",
        ],
    )
    .ok();
    assert!(is_link(&link));
    assert_eq!(fs::read_to_string(&redirect).unwrap(), raw.stdout);
}

#[test]
fn save_into_with_force_writes_through_links_in_the_fixture_folder() {
    let (env, id) = one_answered_capture();
    let hooks = env.dir.path().join("hooks");
    fs::create_dir(&hooks).unwrap();
    let request = hooks.join("post-hooks-pay.http");
    let expect = hooks.join("post-hooks-pay.expect.toml");
    let request_target = link_to_a_file(&env, &request);
    let expect_target = link_to_a_file(&env, &expect);
    let into = hooks.to_string_lossy().into_owned();
    env.local(&["requests", "save", &id, "--into", &into])
        .code(2)
        .says("--force");
    env.local(&["requests", "save", &id, "--into", &into, "--force"])
        .ok();
    assert!(written_through(&request, &request_target).starts_with("POST /hooks/pay"));
    assert!(written_through(&expect, &expect_target).contains("status = 200"));
    let mut names: Vec<_> = fs::read_dir(&hooks)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["post-hooks-pay.expect.toml", "post-hooks-pay.http"]);
}

/// `save ID --into hooks` in the test's folder.
fn save_into_hooks(env: &Env, id: &str) {
    let mut cmd = env.cmd();
    cmd.current_dir(env.dir.path())
        .env(var::AGENT_URL, env.mock.agent_url())
        .args(["local", "requests", "save", id, "--into", "hooks"]);
    run(&mut cmd).ok();
}

/// A handler answering `body` as JSON, 200.
fn handler(body: &'static str) -> Hostile {
    Hostile::start(move |_| {
        Reply::With(
            200,
            vec![("Content-Type".into(), "application/json".into())],
            body.as_bytes().to_vec(),
        )
    })
}

/// `tunnelctl local requests test hooks --to HANDLER ARGS` in the test's folder.
fn test_fixtures(env: &Env, to: &Hostile, stdout: Option<&Path>, args: &[&str]) -> Out {
    let mut cmd = env.std_cmd();
    cmd.current_dir(env.dir.path())
        .env(var::AGENT_URL, "http://127.0.0.1:9/api")
        .args(["local", "requests", "test", "hooks", "--to", &to.url()])
        .args(args);
    match stdout {
        Some(path) => {
            cmd.stdout(Stdio::from(fs::File::create(path).unwrap()));
            run_redirected(&mut cmd)
        }
        None => run(&mut assert_cmd::Command::from_std(cmd)),
    }
}

#[test]
fn junit_writes_through_a_link_to_a_file_or_to_stdout() {
    let (env, id) = one_answered_capture();
    save_into_hooks(&env, &id);
    let app = handler(ANSWER);
    let link = env.dir.path().join("report.xml");
    let target = link_to_a_file(&env, &link);
    test_fixtures(&env, &app, None, &["--junit", &link.to_string_lossy()]).ok();
    assert!(written_through(&link, &target).contains("<testsuite"));

    let link = stdout_link(env.dir.path());
    let redirect = env.dir.path().join("o.txt");
    test_fixtures(
        &env,
        &app,
        Some(&redirect),
        &["--junit", &link.to_string_lossy()],
    )
    .ok();
    assert!(is_link(&link), "the link stays a link");
    let text = fs::read_to_string(&redirect).unwrap();
    assert!(
        text.contains("<testsuite"),
        "the report is in o.txt: {text}"
    );
}

#[test]
fn update_rewrites_the_snapshot_a_link_leads_to_and_keeps_the_link() {
    let (env, id) = one_answered_capture();
    save_into_hooks(&env, &id);
    // The expectation kept in a folder of its own within the fixture folder, beside it a
    // relative link to it (a link out of the fixture folder is refused: see
    // tests/cli/fixture_links.rs).
    let expect = env.dir.path().join("hooks/post-hooks-pay.expect.toml");
    let kept = env.dir.path().join("hooks/kept");
    fs::create_dir(&kept).unwrap();
    let target = kept.join("pay.expect.toml");
    fs::rename(&expect, &target).unwrap();
    symlink("kept/pay.expect.toml", &expect).unwrap();
    let app = handler(r#"{"received":true,"version":2}"#);
    test_fixtures(&env, &app, None, &[]).code(8);
    test_fixtures(&env, &app, None, &["--update"]).ok();
    assert!(is_link(&expect), "the link stays a link");
    let text = fs::read_to_string(&target).unwrap();
    assert!(text.contains("version"), "the snapshot was updated: {text}");
    test_fixtures(&env, &app, None, &[]).ok();
    assert_eq!(fs::read_dir(&kept).unwrap().count(), 1);
}

#[test]
fn config_set_writes_the_file_a_link_leads_to_and_leaves_no_lock_file() {
    let env = Env::new();
    let real = env.dir.path().join("dotfiles");
    fs::create_dir(&real).unwrap();
    let target = real.join("tunnelctl.toml");
    fs::write(
        &target,
        "# mine\n[default]\napi_url = \"https://old.example.com\"\n",
    )
    .unwrap();
    symlink(&target, env.config_path()).unwrap();
    run(env
        .bare()
        .args(["config", "set", "api_url", "https://new.example.com"]))
    .ok();
    assert!(is_link(&env.config_path()), "the config's link stays");
    let text = fs::read_to_string(&target).unwrap();
    assert!(text.starts_with("# mine\n"), "{text}");
    assert!(text.contains("https://new.example.com"), "{text}");
    // The lock was taken beside the file itself, and removed.
    for folder in [env.dir.path(), real.as_path()] {
        let locks: Vec<_> = fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".lock"))
            .collect();
        assert!(locks.is_empty(), "{locks:?} in {}", folder.display());
    }
}

#[test]
fn the_history_file_is_kept_where_its_link_leads() {
    let (env, _) = one_answered_capture();
    let data = env.dir.path().join("data");
    fs::create_dir(&data).unwrap();
    // A link leading nowhere yet: the history is made where it leads.
    let target = data.join("history.sqlite3");
    let link = env.dir.path().join("history.sqlite3");
    symlink("data/history.sqlite3", &link).unwrap();
    let mut cmd = env.cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, &link)
        .args(["local", "requests", "record", "--once"]);
    run(&mut cmd).ok();
    assert!(is_link(&link), "the history's link stays");
    let head = fs::read(&target).unwrap();
    assert!(
        head.starts_with(b"SQLite format 3\0"),
        "the database is the target"
    );
    // Its journal and the rest were made (and removed) beside the target, not the link.
    let beside_link: Vec<_> = fs::read_dir(env.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("history"))
        .collect();
    assert_eq!(beside_link, ["history.sqlite3"]);
    let mut cmd = env.cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, &link)
        .args(["local", "requests", "list", "--history", "--json"]);
    let listed = run(&mut cmd);
    listed.ok();
    assert_eq!(listed.json().as_array().map(Vec::len), Some(1));
}
