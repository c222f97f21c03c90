//! The capture history when its file cannot be written: held locked by another program past
//! the wait, or on a full disk. Either way the command stops with an error naming the file,
//! saying what to do, with its exit code, and the file keeps everything committed before,
//! sound (`PRAGMA integrity_check`). And the files it can take over: an empty file, or an
//! empty database of an older schema (version 0), is made a history, not refused.

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use rusqlite::Connection;
use serde_json::json;

use crate::common::{run, Env, Out};
use tunnelctl::registry::env as var;

/// `tunnelctl local ARGS` against the emulator's agent, with the history at `file`.
pub fn local(env: &Env, file: &Path, args: &[&str]) -> Out {
    run(env
        .cmd()
        .env(var::AGENT_URL, env.mock.agent_url())
        .env(var::HISTORY_FILE, file)
        .arg("local")
        .args(args))
}

/// What a user would check with `sqlite3`: the database opens, passes `PRAGMA
/// integrity_check`, and holds these captures (their IDs, in the order kept).
fn sound_with(file: &Path) -> Vec<String> {
    let c = Connection::open(file).unwrap();
    let check: String = c
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let mut stmt = c.prepare("SELECT id FROM captures ORDER BY seq").unwrap();
    let ids = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    ids
}

#[test]
fn a_history_locked_past_the_wait_is_named_with_what_to_do_and_left_intact() {
    let env = Env::new();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("history.sqlite3");
    env.mock
        .seed_captures(json!([{"method": "POST", "uri": "/first", "repeat": 3}]));
    local(&env, &file, &["requests", "record", "--once"]).ok();
    let before = sound_with(&file);
    assert_eq!(before.len(), 3);
    env.mock
        .seed_captures(json!([{"method": "POST", "uri": "/second", "repeat": 3}]));

    // Another program holds the write lock (as another recorder, or `sqlite3` in a
    // transaction, does) for longer than tunnelctl waits for it.
    let holder = Connection::open(&file).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let out = local(&env, &file, &["requests", "record", "--once"]);
    out.code(7)
        .says(file.to_str().unwrap())
        .says("locked by another program")
        .says("10 s")
        .says("what was kept before is intact")
        .says("Run again once the other is done")
        .says("--history-file");
    holder.execute_batch("ROLLBACK").unwrap();
    drop(holder);
    assert_eq!(sound_with(&file), before, "the file is as it was");

    // Once the other lets go, recording goes on.
    local(&env, &file, &["requests", "record", "--once"]).ok();
    assert_eq!(sound_with(&file).len(), 6);
}

/// A small tmpfs mounted on a temporary folder, unmounted when dropped (whatever the test
/// did before).
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts one of `size` (as `mount -o size=` reads it). Mounting needs root: when it
    /// fails the test fails under CI (which runs as root) and is SKIPPED elsewhere (`None`).
    fn mount(size: &str) -> Option<SmallDisk> {
        let dir = tempfile::tempdir().unwrap();
        let out = StdCommand::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size},mode=0700")])
            .arg("tunnelctl-test")
            .arg(dir.path())
            .output();
        let why = match out {
            Ok(out) if out.status.success() => return Some(SmallDisk { dir }),
            Ok(out) => String::from_utf8_lossy(&out.stderr).trim().to_string(),
            Err(e) => e.to_string(),
        };
        crate::common::skip::cannot_run(format!(
            "cannot mount a small disk ({why}); CI runs as root, which can"
        ));
        None
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fills what is left of it with one file (written until the disk says it is full).
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let path = self.path().join("filler");
        let mut f = std::fs::File::create(&path).unwrap();
        let chunk = vec![0x5au8; 4096];
        loop {
            match f.write_all(&chunk) {
                Ok(()) => {}
                Err(e) if e.raw_os_error() == Some(libc::ENOSPC) => break,
                Err(e) => panic!("filling the disk: {e}"),
            }
        }
        // What did not fit in a whole chunk, byte by byte.
        while f.write_all(&[0x5a]).is_ok() {}
        path
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let unmounted = StdCommand::new("umount")
            .arg(self.dir.path())
            .status()
            .is_ok_and(|s| s.success());
        if !unmounted {
            // Something still has it open: detach it now, freed when that goes.
            let _ = StdCommand::new("umount")
                .arg("-l")
                .arg(self.dir.path())
                .status();
        }
    }
}

#[test]
fn a_full_disk_stops_recording_naming_the_file_and_keeps_what_was_committed() {
    let Some(disk) = SmallDisk::mount("2m") else {
        return;
    };
    let env = Env::new();
    let file = disk.path().join("history.sqlite3");
    env.mock.seed_captures(
        json!([{"method": "POST", "uri": "/kept", "body_size": 2000, "repeat": 20}]),
    );
    local(&env, &file, &["requests", "record", "--once"]).ok();
    let before = sound_with(&file);
    assert_eq!(before.len(), 20);

    env.mock.seed_captures(
        json!([{"method": "POST", "uri": "/lost", "body_size": 20_000, "repeat": 100}]),
    );
    // The disk full before it starts (not even room for the database's shared-memory file),
    // then with some room left, less than the new captures need: it fills while writing.
    for room in [0u64, 256 * 1024] {
        let filler = disk.fill();
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(&filler)
            .unwrap();
        let size = f.metadata().unwrap().len();
        f.set_len(size.saturating_sub(room)).unwrap();
        drop(f);
        let out = local(&env, &file, &["requests", "record", "--once"]);
        out.code(1)
            .says(file.to_str().unwrap())
            .says("is full")
            .says("what was kept before is intact")
            .says("Free some space");
        assert!(!out.stderr.contains("panick"), "{}", out.stderr);
        // With room again, it opens, is sound, and holds what was committed before.
        std::fs::remove_file(filler).unwrap();
        assert_eq!(sound_with(&file), before, "room {room}");
        let listed = local(&env, &file, &["requests", "list", "--history", "--json"]);
        listed.ok();
        assert_eq!(listed.json().as_array().map(Vec::len), Some(20));
    }
}

#[test]
fn an_empty_file_or_an_empty_database_of_schema_0_is_made_a_history() {
    let env = Env::new();
    env.mock
        .seed_captures(json!([{"method": "POST", "uri": "/a", "repeat": 2}]));
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.sqlite3");
    std::fs::write(&empty, "").unwrap();
    let older = dir.path().join("older.sqlite3");
    let c = Connection::open(&older).unwrap();
    c.execute_batch("PRAGMA journal_mode = DELETE; PRAGMA user_version = 0; VACUUM;")
        .unwrap();
    drop(c);
    assert!(
        std::fs::metadata(&older).unwrap().len() > 0,
        "a database, not an empty file"
    );
    for file in [empty, older] {
        local(&env, &file, &["requests", "record", "--once"]).ok();
        assert_eq!(sound_with(&file).len(), 2, "{}", file.display());
        let c = Connection::open(&file).unwrap();
        let (app, version, mode): (i64, i64, String) = c
            .query_row(
                "SELECT (SELECT application_id FROM pragma_application_id), \
                 (SELECT user_version FROM pragma_user_version), \
                 (SELECT journal_mode FROM pragma_journal_mode)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!((app, version, mode.as_str()), (0x546e_4374, 2, "wal"));
    }
}
