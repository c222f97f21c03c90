//! A path that is not a regular file (a FIFO, a device, `/dev/stdout`) is never replaced by
//! the file a command writes: refused without `--force`, written *into* with it, and a write
//! that fails there is reported with the path the user gave. `-` is stdout. Device nodes are
//! made in a temporary folder (as root only), never under `/dev`.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

use serde_json::json;

use super::local_files::one_capture;
use crate::common::{run, Env};
use tunnelctl::registry::env as var;

/// A FIFO named `name` made in `dir` (no root needed), with a second name for it in
/// `dir/held` (a hard link), by which a reader still waiting can be let go even when the
/// command under test put something else at `name`.
fn fifo(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let c = CString::new(path.as_os_str().as_bytes()).expect("a path without NUL");
    // SAFETY: a valid C string; mkfifo touches nothing else.
    let made = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
    assert_eq!(made, 0, "mkfifo: {}", std::io::Error::last_os_error());
    std::fs::create_dir_all(dir.join(HELD)).expect("a folder");
    std::fs::hard_link(&path, held(&path)).expect("a second name");
    path
}

/// The folder of the FIFOs' second names.
const HELD: &str = "held";

fn held(path: &Path) -> PathBuf {
    let name = path.file_name().expect("a file name");
    path.with_file_name(HELD).join(name)
}

fn is_fifo(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// Reads the FIFO at `path` to its end on a thread, as `cat FIFO` would.
fn read_fifo(path: &Path) -> JoinHandle<Vec<u8>> {
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let mut got = Vec::new();
        let read = std::fs::File::open(&path).and_then(|mut f| {
            use std::io::Read;
            f.read_to_end(&mut got)
        });
        read.expect("the FIFO reads");
        got
    })
}

/// Lets a reader still waiting for a writer go (with nothing written), so a test whose
/// command never opened the FIFO ends instead of hanging; then what the reader got.
fn finish(reader: JoinHandle<Vec<u8>>, path: &Path) -> Vec<u8> {
    // Opening fails (ENXIO) until the reader waits in its open; once it opened, closing
    // this end at once is its end of file.
    while !reader.is_finished() {
        let opened = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(held(path));
        if opened.is_ok() {
            break;
        }
        std::thread::yield_now();
    }
    reader.join().expect("the reader")
}

/// Names in `dir` other than the test's own config folders.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "xdg" && n != "config.toml" && n != HELD)
        .collect();
    names.sort();
    names
}

#[test]
fn save_with_force_writes_into_a_fifo_and_leaves_it_a_fifo() {
    let (env, id) = one_capture(100);
    let pipe = fifo(env.dir.path(), "pipe.http");
    let reader = read_fifo(&pipe);
    let shown = pipe.to_string_lossy().into_owned();
    let out = env.local(&["requests", "save", &id, "--out", &shown, "--force"]);
    let got = finish(reader, &pipe);
    out.ok();
    let raw = env.local(&["requests", "get", &id, "--raw"]);
    assert_eq!(
        got,
        raw.stdout.as_bytes(),
        "the bytes went through the FIFO"
    );
    assert!(is_fifo(&pipe), "still a FIFO");
    assert_eq!(
        names_in(env.dir.path()),
        ["pipe.http"],
        "nothing made beside it"
    );
}

#[test]
fn a_fifo_is_refused_without_force_and_left_as_it_is() {
    let (env, id) = one_capture(100);
    let pipe = fifo(env.dir.path(), "pipe.har");
    let shown = pipe.to_string_lossy().into_owned();
    for args in [
        vec!["requests", "save", &id, "--out", &shown],
        vec!["requests", "export", "--limit", "5", "--har", &shown],
    ] {
        let reader = read_fifo(&pipe);
        let out = env.local(&args);
        let got = finish(reader, &pipe);
        out.code(2).says("--force").says("pipe.har");
        assert!(got.is_empty(), "nothing written into it: {got:?}");
        assert!(is_fifo(&pipe));
    }
    assert_eq!(names_in(env.dir.path()), ["pipe.har"]);
}

#[test]
fn export_with_force_writes_into_a_symlink_to_a_fifo() {
    let (env, _) = one_capture(100);
    let pipe = fifo(env.dir.path(), "pipe");
    // The shape of /dev/stdout: a symlink leading to something that is not a file.
    let link = env.dir.path().join("out.har");
    std::os::unix::fs::symlink(&pipe, &link).expect("a symlink");
    let reader = read_fifo(&pipe);
    let out = env.local(&[
        "requests",
        "export",
        "--har",
        &link.to_string_lossy(),
        "--force",
    ]);
    let got = finish(reader, &pipe);
    out.ok();
    let doc: serde_json::Value = serde_json::from_slice(&got).expect("a HAR log");
    assert_eq!(doc["log"]["entries"].as_array().map(Vec::len), Some(1));
    assert!(std::fs::symlink_metadata(&link).is_ok_and(|m| m.is_symlink()));
    assert!(is_fifo(&pipe));
}

/// A character device `major,minor` named `name` made in `dir` with mknod: `None` when not
/// root (which fails the test under CI, where it must run).
fn char_device(dir: &Path, name: &str, major: u32, minor: u32) -> Option<PathBuf> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        crate::common::skip::cannot_run("not root, so no device node can be made");
        return None;
    }
    let path = dir.join(name);
    let c = CString::new(path.as_os_str().as_bytes()).expect("a path without NUL");
    let dev = libc::makedev(major, minor);
    // SAFETY: a valid C string; mknod makes one node in the test's own folder.
    let made = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o600, dev) };
    assert_eq!(made, 0, "mknod: {}", std::io::Error::last_os_error());
    Some(path)
}

/// The node at `path` is the character device `major,minor` it was made as.
#[track_caller]
fn assert_still_device(path: &Path, major: u32, minor: u32) {
    let meta = std::fs::symlink_metadata(path).expect("the node is still there");
    assert!(
        meta.file_type().is_char_device(),
        "still a character device"
    );
    assert_eq!(meta.rdev(), libc::makedev(major, minor));
}

#[test]
fn a_full_device_is_written_into_and_its_failure_reported_never_replaced() {
    let (env, id) = one_capture(100);
    let Some(full) = char_device(env.dir.path(), "full", 1, 7) else {
        return;
    };
    let Some(null) = char_device(env.dir.path(), "null", 1, 3) else {
        return;
    };
    let shown = full.to_string_lossy().into_owned();
    let inode = std::fs::symlink_metadata(&full).expect("the node").ino();

    env.local(&["requests", "save", &id, "--out", &shown])
        .code(2)
        .says("--force")
        .says(&shown);
    let failed = env.local(&["requests", "save", &id, "--out", &shown, "--force"]);
    assert_ne!(failed.code, 0, "a write that failed is a failure");
    failed.says("No space left on device").says(&shown);
    assert!(!failed.stderr.contains("Saved"), "{}", failed.stderr);
    let failed = env.local(&["requests", "export", "--har", &shown, "--force"]);
    assert_ne!(failed.code, 0);
    failed.says("No space left on device").says(&shown);
    assert_still_device(&full, 1, 7);
    assert_eq!(
        std::fs::symlink_metadata(&full).expect("the node").ino(),
        inode
    );

    env.local(&[
        "requests",
        "save",
        &id,
        "--out",
        &null.to_string_lossy(),
        "--force",
    ])
    .ok()
    .says("Saved");
    assert_still_device(&null, 1, 3);
    assert_eq!(names_in(env.dir.path()), ["full", "null"]);
}

#[test]
fn a_dash_is_stdout_even_beside_a_file_named_dash() {
    let (env, id) = one_capture(100);
    let dash = env.dir.path().join("-");
    std::fs::write(&dash, "keep me").expect("a file named -");
    let local = |args: &[&str]| {
        let mut cmd = env.cmd();
        cmd.env(var::AGENT_URL, env.mock.agent_url())
            .current_dir(env.dir.path())
            .arg("local")
            .args(args);
        run(&mut cmd)
    };
    let saved = local(&["requests", "save", &id, "--out", "-"]);
    let raw = local(&["requests", "get", &id, "--raw"]);
    assert_eq!(saved.ok().stdout, raw.stdout);
    let exported = local(&["requests", "export", "--har", "-"]);
    let doc = exported.ok().json();
    assert_eq!(doc["log"]["entries"].as_array().map(Vec::len), Some(1));
    assert_eq!(std::fs::read_to_string(&dash).expect("-"), "keep me");
}

#[test]
fn a_har_log_to_a_terminal_is_guarded_as_raw_output() {
    let env = Env::new();
    env.mock.seed_captures(json!([
        {"method": "POST", "uri": "/evil", "headers": {"X-C1": ["\u{9b}31m"]}, "body": "x"}
    ]));
    let tty = |extra: &[&str]| {
        let mut cmd = env.cmd();
        cmd.env(var::AGENT_URL, env.mock.agent_url())
            .env(var::FORCE_TTY, "1")
            .args(["local", "requests", "export", "--har", "-"])
            .args(extra);
        run(&mut cmd)
    };
    let refused = tty(&[]);
    refused.code(2).says("--force");
    assert_eq!(refused.stdout, "");
    assert!(tty(&["--force"]).ok().stdout.contains('\u{9b}'));
}

#[test]
fn a_har_log_to_a_missing_folder_names_the_path_given() {
    let (env, _) = one_capture(10);
    let path = env.dir.path().join("no-such-dir").join("x.har");
    let shown = path.to_string_lossy().into_owned();
    let out = env.local(&["requests", "export", "--har", &shown]);
    assert_ne!(out.code, 0);
    out.says(&format!("cannot write {shown}: "))
        .says("does not exist");
    assert!(
        !out.stderr.contains(".part") && !out.stderr.contains(".tunnelctl-"),
        "no temporary file is named: {}",
        out.stderr
    );
}
