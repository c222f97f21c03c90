//! The history database: one SQLite file in WAL mode, every write a transaction.
//!
//! Schema (version 1; `PRAGMA user_version`, and `PRAGMA application_id` marks the file as a
//! tunnelctl history):
//!
//! ```sql
//! CREATE TABLE captures (
//!     seq      INTEGER PRIMARY KEY,   -- order kept in; the row of the search index
//!     id       TEXT NOT NULL UNIQUE,  -- the agent's capture ID (airt_…)
//!     tunnel   TEXT NOT NULL,         -- tunnel_name
//!     start    TEXT NOT NULL,         -- when it was captured, as the agent wrote it
//!     start_ns INTEGER NOT NULL,      -- the same in Unix nanoseconds (kept_ns if unreadable)
//!     method   TEXT NOT NULL,
//!     path     TEXT NOT NULL,         -- the request target, query string included
//!     status   INTEGER,               -- NULL while no response came
//!     answered INTEGER NOT NULL,      -- 1 once the local server answered
//!     size     INTEGER NOT NULL,      -- bytes of json
//!     kept_ns  INTEGER NOT NULL,      -- when it was kept (or last updated)
//!     json     TEXT NOT NULL          -- the agent's JSON of the capture, unchanged
//! );
//! CREATE VIRTUAL TABLE search USING fts5(text, content='', contentless_delete=1,
//!     tokenize='ascii', detail='none');  -- rowid = captures.seq
//! ```
//!
//! A capture is kept once (by its ID); one first kept while pending is updated when it comes
//! back answered. Several recorders may write at once: each write takes the database's write
//! lock first (`BEGIN IMMEDIATE`) and waits for it up to [`BUSY_WAIT`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use super::file::{self, shown, FileKind};
use super::search;
use crate::capture::Exchange;
use crate::error::{Error, Result};

/// Marks the file as a tunnelctl history (`PRAGMA application_id`): "TnCt".
pub const APPLICATION_ID: i64 = 0x546e_4374;
/// The schema this binary writes; an older one is migrated, a newer one refused.
pub const SCHEMA_VERSION: i64 = 1;
/// How long a write waits for another recorder's to finish.
pub const BUSY_WAIT: Duration = Duration::from_secs(10);

/// The page size of a new history file, in bytes.
const PAGE_SIZE: i64 = 65_536;
/// The most of the file a connection keeps in memory, in KiB (`PRAGMA cache_size` takes a
/// negative number as KiB).
const CACHE_KIB: i64 = -65_536;

/// Each schema version's step up from the one before (index 0: from an empty file to 1).
const MIGRATIONS: &[&str] = &["CREATE TABLE captures (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        tunnel TEXT NOT NULL,
        start TEXT NOT NULL,
        start_ns INTEGER NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        status INTEGER,
        answered INTEGER NOT NULL,
        size INTEGER NOT NULL,
        kept_ns INTEGER NOT NULL,
        json TEXT NOT NULL
    );
    CREATE INDEX captures_by_start ON captures(start_ns, seq);
    CREATE INDEX captures_by_tunnel ON captures(tunnel, start_ns);
    CREATE VIRTUAL TABLE search USING fts5(
        text, content='', contentless_delete=1, tokenize='ascii', detail='none'
    );"];

/// The history database, open.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

/// What one write kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KeptCount {
    /// Captures not kept before.
    pub new: usize,
    /// Captures kept while pending, now answered.
    pub updated: usize,
}

/// Which kept captures to read.
#[derive(Debug, Clone, Default)]
pub struct StoredSelection {
    /// Only this tunnel's.
    pub tunnel: Option<String>,
    /// Only those holding each of these texts (lower-case; `--grep`).
    pub texts: Vec<String>,
}

impl Store {
    /// Opens the history at `path` for writing, creating it when missing.
    pub fn open(path: &Path) -> Result<Store> {
        if file::look(path)? == FileKind::Missing {
            file::create(path)?;
        }
        Store::connect(path)
    }

    /// Opens the history at `path` when there is one (`None`: nothing kept yet).
    pub fn open_existing(path: &Path) -> Result<Option<Store>> {
        match file::look(path)? {
            FileKind::Missing | FileKind::Empty => Ok(None),
            FileKind::Database => Store::connect(path).map(Some),
        }
    }

    /// The file it is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn connect(path: &Path) -> Result<Store> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .map_err(|e| failure(path, "opening it", &e))?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
        };
        store.prepare()?;
        Ok(store)
    }

    /// Checks the file is ours and of a schema this binary knows, migrates an older one, and
    /// sets the connection up (waits for locks, WAL).
    fn prepare(&mut self) -> Result<()> {
        let path = self.path.clone();
        let fail = |what: &str| {
            let path = path.clone();
            let what = what.to_string();
            move |e: rusqlite::Error| failure(&path, &what, &e)
        };
        self.conn
            .busy_timeout(BUSY_WAIT)
            .map_err(fail("setting it up"))?;
        let (app, version, tables) = self.identity().map_err(fail("reading it"))?;
        self.check_identity(app, version, tables)?;
        // A poll's captures go in as one transaction; with SQLite's default cache (2 MiB) one
        // of a few thousand captures spills its pages to the WAL and reads them back before
        // it commits. The cache grows only as far as it is used.
        self.conn
            .pragma_update(None, "cache_size", CACHE_KIB)
            .map_err(fail("setting it up"))?;
        if app == APPLICATION_ID && version == SCHEMA_VERSION {
            // The common case: nothing to migrate; WAL is a property of the file, already set.
            self.conn
                .pragma_update(None, "synchronous", "NORMAL")
                .map_err(fail("setting it up"))?;
            return Ok(());
        }
        // Only a file with nothing in it yet takes it (it is fixed once written): large pages
        // write a capture's JSON (a few KB each) in fewer, larger writes.
        self.conn
            .pragma_update(None, "page_size", PAGE_SIZE)
            .map_err(fail("setting it up"))?;
        self.conn
            .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0))
            .map_err(fail("setting it up"))?;
        self.conn
            .pragma_update(None, "synchronous", "NORMAL")
            .map_err(fail("setting it up"))?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(fail("migrating it"))?;
        // Another process may have made or migrated it meanwhile: look again, under the lock.
        let version: i64 = tx
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(fail("migrating it"))?;
        for (from, step) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
            tx.execute_batch(step).map_err(fail("migrating it"))?;
            tx.pragma_update(None, "user_version", from as i64 + 1)
                .map_err(fail("migrating it"))?;
        }
        tx.pragma_update(None, "application_id", APPLICATION_ID)
            .map_err(fail("migrating it"))?;
        tx.commit().map_err(fail("migrating it"))
    }

    /// The file's application ID, schema version and number of tables.
    fn identity(&self) -> rusqlite::Result<(i64, i64, i64)> {
        let app = self
            .conn
            .pragma_query_value(None, "application_id", |r| r.get(0))?;
        let version = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?;
        let tables = self
            .conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
        Ok((app, version, tables))
    }

    fn check_identity(&self, app: i64, version: i64, tables: i64) -> Result<()> {
        let shown = shown(&self.path);
        if app != APPLICATION_ID && !(app == 0 && tables == 0) {
            return Err(Error::Config(format!(
                "the history file {shown} is a SQLite database, but not a tunnelctl history; it \
                 was left as it is (give another with --history-file or TUNNELCTL_HISTORY_FILE)"
            )));
        }
        if version > SCHEMA_VERSION {
            return Err(Error::Config(format!(
                "the history file {shown} has schema version {version}, written by a newer \
                 tunnelctl (this one knows up to {SCHEMA_VERSION}); update tunnelctl, or give \
                 another file with --history-file. The file was left as it is."
            )));
        }
        Ok(())
    }

    /// Starts a write: a transaction holding the database's write lock from its start, taken
    /// as soon as no other writer holds it (waiting up to [`BUSY_WAIT`]).
    fn write(&mut self, what: &str) -> Result<rusqlite::Transaction<'_>> {
        self.conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| failure(&self.path, what, &e))
    }

    /// Keeps these captures (each with the agent's JSON text: [`Exchange::json`]), newest
    /// first as the agent lists them, in one transaction: new ones added (oldest first, so
    /// that the order kept in is the order captured), pending ones now answered updated, the
    /// rest left.
    pub fn keep<'a, I>(&mut self, captures: I) -> Result<KeptCount>
    where
        I: IntoIterator<Item = &'a Exchange>,
        I::IntoIter: DoubleEndedIterator,
    {
        let path = self.path.clone();
        let fail = |e: rusqlite::Error| failure(&path, "keeping captures in it", &e);
        let mut kept = KeptCount::default();
        let now = now_ns();
        let tx = self.write("keeping captures in it")?;
        {
            let mut find = tx
                .prepare_cached("SELECT seq, answered FROM captures WHERE id = ?1")
                .map_err(fail)?;
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO captures (id, tunnel, start, start_ns, method, path, status, \
                     answered, size, kept_ns, json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                )
                .map_err(fail)?;
            let mut update = tx
                .prepare_cached(
                    "UPDATE captures SET status = ?2, answered = ?3, size = ?4, kept_ns = ?5, \
                     json = ?6 WHERE seq = ?1",
                )
                .map_err(fail)?;
            let mut unindex = tx
                .prepare_cached("DELETE FROM search WHERE rowid = ?1")
                .map_err(fail)?;
            let mut index = tx
                .prepare_cached("INSERT INTO search (rowid, text) VALUES (?1, ?2)")
                .map_err(fail)?;
            for e in captures.into_iter().rev() {
                let Some(json) = e.json().filter(|_| !e.id.is_empty()) else {
                    continue;
                };
                let status = e.status().map(i64::from);
                let found: Option<(i64, bool)> = find
                    .query_row([&e.id], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()
                    .map_err(fail)?;
                match found {
                    None => {
                        insert
                            .execute(params![
                                e.id,
                                e.tunnel,
                                e.start,
                                start_ns(&e.start).unwrap_or(now),
                                e.method(),
                                e.uri(),
                                status,
                                e.answered(),
                                json.len() as i64,
                                now,
                                json
                            ])
                            .map_err(fail)?;
                        let seq = tx.last_insert_rowid();
                        index
                            .execute(params![seq, search::index_text(e)])
                            .map_err(fail)?;
                        kept.new += 1;
                    }
                    Some((seq, false)) if e.answered() => {
                        update
                            .execute(params![seq, status, true, json.len() as i64, now, json])
                            .map_err(fail)?;
                        unindex.execute([seq]).map_err(fail)?;
                        index
                            .execute(params![seq, search::index_text(e)])
                            .map_err(fail)?;
                        kept.updated += 1;
                    }
                    Some(_) => {}
                }
            }
        }
        tx.commit().map_err(fail)?;
        Ok(kept)
    }

    /// The agent's JSON of the kept capture `id`.
    pub fn get(&self, id: &str) -> Result<Option<String>> {
        self.conn
            .query_row("SELECT json FROM captures WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| failure(&self.path, "reading it", &e))
    }

    /// Calls `each` with the JSON of every kept capture that `selection` picks, newest first,
    /// until it returns `false`.
    pub fn each(
        &self,
        selection: &StoredSelection,
        mut each: impl FnMut(&str) -> Result<bool>,
    ) -> Result<()> {
        let fail = |e: rusqlite::Error| failure(&self.path, "reading it", &e);
        let query = search::index_query(&selection.texts);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT json FROM captures WHERE (?1 IS NULL OR tunnel = ?1) AND (?2 IS NULL OR \
                 seq IN (SELECT rowid FROM search WHERE search MATCH ?2)) \
                 ORDER BY start_ns DESC, seq DESC",
            )
            .map_err(fail)?;
        let mut rows = stmt.query(params![selection.tunnel, query]).map_err(fail)?;
        while let Some(row) = rows.next().map_err(fail)? {
            let json = row
                .get_ref(0)
                .map_err(fail)?
                .as_str()
                .map_err(|e| failure(&self.path, "reading it", &rusqlite::Error::from(e)))?;
            if !selection.texts.is_empty() {
                let Some(e) = Exchange::from_json(json) else {
                    continue;
                };
                let decoded = search::text_of(&e);
                if !selection
                    .texts
                    .iter()
                    .all(|t| search::holds(&e, &decoded, t))
                {
                    continue;
                }
            }
            if !each(json)? {
                break;
            }
        }
        Ok(())
    }

    /// How many captures are kept.
    pub fn count(&self) -> Result<u64> {
        self.conn
            .query_row("SELECT count(*) FROM captures", [], |r| r.get::<_, i64>(0))
            .map(|n| n.max(0) as u64)
            .map_err(|e| failure(&self.path, "reading it", &e))
    }

    /// Removes the captures captured before `before` (all of them when `None`); how many.
    pub fn clear(&mut self, before: Option<OffsetDateTime>) -> Result<usize> {
        let cut = before.map_or(i64::MAX, nanos);
        let what = "removing captures from it";
        let path = self.path.clone();
        let fail = |e: rusqlite::Error| failure(&path, what, &e);
        let tx = self.write(what)?;
        tx.execute(
            "DELETE FROM search WHERE rowid IN (SELECT seq FROM captures WHERE start_ns < ?1)",
            [cut],
        )
        .map_err(fail)?;
        let n = tx
            .execute("DELETE FROM captures WHERE start_ns < ?1", [cut])
            .map_err(fail)?;
        tx.commit().map_err(fail)?;
        Ok(n)
    }

    /// Drops the oldest captures beyond `max_size` bytes (of their JSON) and those captured
    /// more than `max_age` ago; how many went.
    pub fn trim(&mut self, max_size: u64, max_age: Duration) -> Result<usize> {
        let age = time::Duration::try_from(max_age).unwrap_or(time::Duration::MAX);
        let mut gone = self.clear(OffsetDateTime::now_utc().checked_sub(age))?;
        let what = "removing captures from it";
        let path = self.path.clone();
        let fail = |e: rusqlite::Error| failure(&path, what, &e);
        let tx = self.write(what)?;
        let total: i64 = tx
            .query_row("SELECT coalesce(sum(size), 0) FROM captures", [], |r| {
                r.get(0)
            })
            .map_err(fail)?;
        let max = i64::try_from(max_size).unwrap_or(i64::MAX);
        if total > max {
            let mut excess = total - max;
            let mut doomed = Vec::new();
            {
                let mut oldest = tx
                    .prepare("SELECT seq, size FROM captures ORDER BY start_ns, seq")
                    .map_err(fail)?;
                let mut rows = oldest.query([]).map_err(fail)?;
                while excess > 0 {
                    let Some(row) = rows.next().map_err(fail)? else {
                        break;
                    };
                    doomed.push(row.get::<_, i64>(0).map_err(fail)?);
                    excess -= row.get::<_, i64>(1).map_err(fail)?;
                }
            }
            for seq in &doomed {
                tx.execute("DELETE FROM search WHERE rowid = ?1", [seq])
                    .map_err(fail)?;
                tx.execute("DELETE FROM captures WHERE seq = ?1", [seq])
                    .map_err(fail)?;
            }
            gone += doomed.len();
        }
        tx.commit().map_err(fail)?;
        Ok(gone)
    }
}

/// Now, in Unix nanoseconds.
fn now_ns() -> i64 {
    nanos(OffsetDateTime::now_utc())
}

fn nanos(t: OffsetDateTime) -> i64 {
    i64::try_from(t.unix_timestamp_nanos()).unwrap_or(i64::MAX)
}

/// The agent's `start` in Unix nanoseconds, when it reads as RFC 3339.
fn start_ns(start: &str) -> Option<i64> {
    OffsetDateTime::parse(start, &Rfc3339).ok().map(nanos)
}

/// A database failure as the user reads it: which file, what was being done, and what to do.
/// A file that is not a database (or is damaged) is a configuration problem (exit 3); a lock
/// held past [`BUSY_WAIT`] is a wait that ran out (exit 7); a full disk and other failures
/// exit 1. Nothing is overwritten either way.
fn failure(path: &Path, what: &str, e: &rusqlite::Error) -> Error {
    let file = shown(path);
    let code = e.sqlite_error_code();
    let full = match code {
        Some(ErrorCode::DiskFull) => Some(file::space_left_if_full(path)),
        Some(ErrorCode::SystemIoFailure) => file::space_left_if_full(path).map(Some),
        _ => None,
    };
    if let Some(left) = full {
        let left = left.map_or(String::new(), |n| format!(" ({n} bytes left)"));
        return Error::Io(format!(
            "the disk holding the history file {file} is full{left} while {what}; what was kept \
             before is intact (a write cut short is undone). Free some space, or keep the \
             history elsewhere with --history-file"
        ));
    }
    match code {
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => Error::Config(format!(
            "the history file {file} is not a usable SQLite database ({e}); it was left as it is \
             (give another with --history-file or TUNNELCTL_HISTORY_FILE)"
        )),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Error::WaitTimeout(format!(
            "the history file {file} is locked by another program (another tunnelctl recording \
             into it, or one such as sqlite3 in the middle of a write) and stayed locked for more \
             than {} s while {what}; what was kept before is intact (this write was not made). Run \
             again once the other is done, or keep this history elsewhere with \
             --history-file",
            BUSY_WAIT.as_secs()
        )),
        Some(
            ErrorCode::ReadOnly
            | ErrorCode::CannotOpen
            | ErrorCode::PermissionDenied
            | ErrorCode::AuthorizationForStatementDenied,
        ) => Error::Config(format!(
            "the history file {file} cannot be written ({e}) while {what}"
        )),
        _ => Error::Io(format!("the history file {file}: {what}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture(id: &str, start: &str, body: &str, answered: bool) -> Exchange {
        let raw = format!("POST /hooks HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{body}");
        let response = if answered {
            serde_json::json!({"status_code": 200, "raw": crate::capture::message::encode_base64(b"HTTP/1.1 200 OK\r\n\r\n")})
        } else {
            serde_json::Value::Null
        };
        let json = serde_json::json!({
            "id": id, "start": start, "tunnel_name": "t",
            "request": {"method": "POST", "uri": "/hooks", "raw": crate::capture::message::encode_base64(raw.as_bytes())},
            "response": response,
        });
        Exchange::from_agent(json.to_string()).unwrap()
    }

    fn ids(store: &Store, sel: &StoredSelection) -> Vec<String> {
        let mut out = Vec::new();
        store
            .each(sel, |j| {
                out.push(Exchange::from_json(j).unwrap().id);
                Ok(true)
            })
            .unwrap();
        out
    }

    #[test]
    fn keeps_once_updates_pending_searches_and_trims() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.sqlite3");
        let mut s = Store::open(&path).unwrap();
        let a = capture(
            "airt_a",
            "2026-01-01T00:00:00Z",
            r#"{"type":"invoice.paid"}"#,
            false,
        );
        let b = capture(
            "airt_b",
            "2026-01-02T00:00:00Z",
            r#"{"type":"charge"}"#,
            true,
        );
        assert_eq!(
            s.keep(&[a.clone(), b.clone()]).unwrap(),
            KeptCount { new: 2, updated: 0 }
        );
        assert_eq!(s.keep(&[a, b]).unwrap(), KeptCount::default());
        let a2 = capture(
            "airt_a",
            "2026-01-01T00:00:00Z",
            r#"{"type":"invoice.paid"}"#,
            true,
        );
        assert_eq!(
            s.keep(std::slice::from_ref(&a2)).unwrap(),
            KeptCount { new: 0, updated: 1 }
        );
        assert_eq!(s.get("airt_a").unwrap().as_deref(), a2.json());
        assert_eq!(ids(&s, &StoredSelection::default()), ["airt_b", "airt_a"]);
        let grep = |t: &str| StoredSelection {
            texts: vec![t.into()],
            ..StoredSelection::default()
        };
        assert_eq!(ids(&s, &grep("invoice.paid")), ["airt_a"]);
        assert_eq!(ids(&s, &grep("paid")), ["airt_a"]);
        assert_eq!(ids(&s, &grep("{")), ["airt_b", "airt_a"]);
        assert!(ids(&s, &grep("refund")).is_empty());
        assert_eq!(
            s.trim(u64::MAX, Duration::from_secs(3650 * 86_400))
                .unwrap(),
            0
        );
        let size = a2.json().unwrap().len() as u64;
        assert_eq!(s.trim(size, Duration::from_secs(3650 * 86_400)).unwrap(), 1);
        assert_eq!(
            ids(&s, &StoredSelection::default()),
            ["airt_b"],
            "the oldest went"
        );
        drop(s);
        // Opened again: same schema, same captures.
        let s = Store::open_existing(&path).unwrap().unwrap();
        assert_eq!(s.count().unwrap(), 1);
    }

    #[test]
    fn refuses_what_is_not_ours() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.db");
        let c = Connection::open(&path).unwrap();
        c.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            .unwrap();
        drop(c);
        let before = std::fs::read(&path).unwrap();
        let e = Store::open(&path).err().unwrap();
        assert_eq!(e.exit_code(), 3);
        assert!(e.to_string().contains("not a tunnelctl history"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
        let newer = dir.path().join("newer.sqlite3");
        drop(Store::open(&newer).unwrap());
        let c = Connection::open(&newer).unwrap();
        c.pragma_update(None, "user_version", 7).unwrap();
        drop(c);
        let e = Store::open(&newer).err().unwrap();
        assert!(e.to_string().contains("schema version 7"), "{e}");
    }

    #[test]
    fn fts5_is_compiled_in() {
        let c = Connection::open_in_memory().unwrap();
        let on: i64 = c
            .query_row("SELECT sqlite_compileoption_used('ENABLE_FTS5')", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(on, 1);
    }
}
