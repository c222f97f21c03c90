//! Making a history file ours: its identity (`PRAGMA application_id` "TnCt" and the schema
//! version in `PRAGMA user_version`), the schema and its migrations, and how each connection
//! is set up.
//!
//! Schema (version 2; version 1 had no `source`):
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
//!     json     TEXT NOT NULL,         -- the agent's JSON of the capture, unchanged
//!     source   TEXT NOT NULL DEFAULT '' -- which agent ('' when kept by version 1)
//! );
//! CREATE VIRTUAL TABLE search USING fts5(text, content='', contentless_delete=1,
//!     tokenize='ascii', detail='none');  -- rowid = captures.seq
//! ```
//!
//! Several programs may open a file nobody has set up yet at the same moment (two recorders,
//! a recorder and a `list --history`). Each reads the file's identity as one snapshot; only a
//! writer sets a new file up, and switching a file to WAL can be refused at once (without
//! SQLite's busy wait) while another connection sets it up, so a writer tries the setup again
//! until [`BUSY_WAIT`] has passed.

use std::path::Path;
use std::time::Instant;

use rusqlite::{Connection, TransactionBehavior};

use super::db_error::{failure, is_busy, BUSY_WAIT};
use crate::error::{Error, Result};
use crate::escape::escape_path;

/// Marks the file as a tunnelctl history (`PRAGMA application_id`): "TnCt".
pub const APPLICATION_ID: i64 = 0x546e_4374;
/// The schema this binary writes; an older one is migrated, a newer one refused.
pub const SCHEMA_VERSION: i64 = 2;

/// The page size of a new history file, in bytes: large pages write a capture's JSON (a few
/// KB each) in fewer, larger writes.
const PAGE_SIZE: i64 = 65_536;
/// The most of the file a connection keeps in memory, in KiB (`PRAGMA cache_size` takes a
/// negative number as KiB). A poll's captures go in as one transaction; with SQLite's default
/// cache (2 MiB) one of a few thousand captures spills its pages to the WAL and reads them
/// back before it commits. The cache grows only as far as it is used.
const CACHE_KIB: i64 = -65_536;
/// How long a writer waits before trying a refused setup again.
const RETRY_AFTER: std::time::Duration = std::time::Duration::from_millis(20);

/// Each schema version's step up from the one before (index 0: from an empty file to 1).
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE captures (
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
    );",
    "ALTER TABLE captures ADD COLUMN source TEXT NOT NULL DEFAULT '';
    CREATE INDEX captures_by_source ON captures(source, start_ns);",
];

/// What a file holds, read as one snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// A history of this binary's schema.
    Current,
    /// A history of an older schema.
    Older,
    /// A database with nothing in it yet (or one another program is setting up).
    Empty,
}

/// Sets the connection up for reading (waits for locks) and says what the file holds; a
/// database that is not a history, or of a newer schema, is an error (exit 3).
pub fn look(conn: &Connection, path: &Path) -> Result<Found> {
    conn.busy_timeout(BUSY_WAIT)
        .map_err(|e| failure(path, "setting it up", &e))?;
    conn.pragma_update(None, "cache_size", CACHE_KIB)
        .map_err(|e| failure(path, "setting it up", &e))?;
    identity(conn, path)
}

/// Makes the file a history of this binary's schema (a new one in WAL mode with large pages;
/// an older one migrated), trying again while another connection is doing the same.
pub fn set_up(conn: &mut Connection, path: &Path) -> Result<()> {
    let deadline = Instant::now() + BUSY_WAIT;
    loop {
        match try_set_up(conn, path) {
            Err(Setup::Busy(_)) if Instant::now() < deadline => std::thread::sleep(RETRY_AFTER),
            Err(Setup::Busy(e)) => return Err(failure(path, "setting it up", &e)),
            Err(Setup::Failed(e)) => return Err(e),
            Ok(()) => {
                return conn
                    .pragma_update(None, "synchronous", "NORMAL")
                    .map_err(|e| failure(path, "setting it up", &e))
            }
        }
    }
}

/// Why a setup did not finish.
enum Setup {
    /// Another connection held a lock: worth trying again.
    Busy(rusqlite::Error),
    /// Anything else: the answer.
    Failed(Error),
}

fn try_set_up(conn: &mut Connection, path: &Path) -> std::result::Result<(), Setup> {
    let sql = |what: &'static str| {
        move |e: rusqlite::Error| {
            if is_busy(&e) {
                Setup::Busy(e)
            } else {
                Setup::Failed(failure(path, what, &e))
            }
        }
    };
    if identity(conn, path).map_err(Setup::Failed)? == Found::Current {
        return Ok(());
    }
    // Only a file with nothing in it yet takes a page size (it is fixed once written).
    conn.pragma_update(None, "page_size", PAGE_SIZE)
        .map_err(sql("setting it up"))?;
    conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0))
        .map_err(sql("setting it up"))?;
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sql("migrating it"))?;
    // Another program may have set it up meanwhile: look again, under the write lock.
    if identity(&tx, path).map_err(Setup::Failed)? == Found::Current {
        return Ok(());
    }
    let version: i64 = tx
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(sql("migrating it"))?;
    for (from, step) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
        tx.execute_batch(step).map_err(sql("migrating it"))?;
        tx.pragma_update(None, "user_version", from as i64 + 1)
            .map_err(sql("migrating it"))?;
    }
    tx.pragma_update(None, "application_id", APPLICATION_ID)
        .map_err(sql("migrating it"))?;
    tx.commit().map_err(sql("migrating it"))
}

/// Whether a database with this application ID and schema version, with tables or not, may
/// be made or used as a history: ours, or one with nothing in it at all. A database with no
/// table, no application ID and a schema version set is another program's, being set up
/// (ours sets all three in one transaction).
pub fn could_be_ours(app: i64, version: i64, tables: bool) -> bool {
    app == APPLICATION_ID || (app == 0 && !tables && version == 0)
}

/// The error for another program's database (exit 3); it is left as it is.
pub fn not_ours(path: &Path) -> Error {
    Error::Config(format!(
        "the history file {} is a SQLite database, but not a tunnelctl history; it was left \
         as it is (give another with --history-file or TUNNELCTL_HISTORY_FILE)",
        escape_path(path)
    ))
}

/// The file's application ID, schema version and number of tables, read in one statement
/// (so from one snapshot: read one by one, another program's setup could commit between
/// them), checked.
fn identity(conn: &Connection, path: &Path) -> Result<Found> {
    let (app, version, tables): (i64, i64, i64) = conn
        .query_row(
            "SELECT (SELECT application_id FROM pragma_application_id), \
             (SELECT user_version FROM pragma_user_version), \
             (SELECT count(*) FROM sqlite_master)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .map_err(|e| failure(path, "reading it", &e))?;
    let shown = escape_path(path);
    if !could_be_ours(app, version, tables > 0) {
        return Err(not_ours(path));
    }
    if version > SCHEMA_VERSION {
        return Err(Error::Config(format!(
            "the history file {shown} has schema version {version}, written by a newer \
             tunnelctl (this one knows up to {SCHEMA_VERSION}); update tunnelctl, or give \
             another file with --history-file. The file was left as it is."
        )));
    }
    Ok(if app != APPLICATION_ID {
        Found::Empty
    } else if version == SCHEMA_VERSION {
        Found::Current
    } else {
        Found::Older
    })
}
