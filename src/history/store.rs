//! The history file: one SQLite file in WAL mode, every write a transaction; one of the two
//! stores behind [`super::Store`].
//!
//! The schema, and how a file is made one, are in [`super::schema`].
//!
//! A capture is kept once (by its ID, whichever source it came from); one first kept while pending is updated when it comes
//! back answered. Several recorders may write at once: each write takes the database's write
//! lock first (`BEGIN IMMEDIATE`) and waits for it up to [`super::db_error::BUSY_WAIT`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use super::db_error::failure;
use super::file::{self, FileKind};
use super::schema::{self, Found};
use super::search;
use crate::capture::Exchange;
use crate::error::Result;

/// A kept capture's row and whether it was kept answered, by its ID.
const FIND: &str = "SELECT seq, answered FROM captures WHERE id = ?1";

/// The history file, open.
pub struct FileStore {
    conn: Connection,
    path: PathBuf,
}

/// A kept capture read in the order kept ([`FileStore::kept_after`]).
#[derive(Debug, Clone)]
pub struct KeptRow {
    /// Where following on from it starts.
    pub row: i64,
    /// The agent's JSON of it.
    pub json: String,
    /// The source it was kept from.
    pub source: String,
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
    /// Only this source's (`--source`).
    pub source: Option<String>,
    /// Only those holding each of these texts (lower-case; `--grep`).
    pub texts: Vec<String>,
}

impl FileStore {
    /// Opens the history at `path` for writing, creating it when missing.
    pub fn open(path: &Path) -> Result<FileStore> {
        if file::look(path)? == FileKind::Missing {
            file::create(path)?;
        }
        let (mut conn, found) = FileStore::connect(path)?;
        if found != Found::Current {
            schema::set_up(&mut conn, path)?;
        }
        Ok(FileStore::of(conn, path))
    }

    /// Opens the history at `path` when there is one (`None`: nothing kept yet).
    pub fn open_existing(path: &Path) -> Result<Option<FileStore>> {
        if matches!(file::look(path)?, FileKind::Missing | FileKind::Empty) {
            return Ok(None);
        }
        let (mut conn, found) = FileStore::connect(path)?;
        match found {
            Found::Current => {}
            // Nothing kept yet (or another program is setting it up); a reader does not.
            Found::Empty => return Ok(None),
            Found::Older => schema::set_up(&mut conn, path)?,
        }
        Ok(Some(FileStore::of(conn, path)))
    }

    /// The file it is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Opens `path` for writing once it is known to be ours (or empty). A read-write
    /// connection may change a file as it closes (the last one checkpoints the write-ahead
    /// log into the database and deletes the log), and any connection to a database in WAL
    /// mode makes the `-wal` and `-shm` files beside it: another program's database is told
    /// by its header alone, and when a write-ahead log beside it may hold more, by a
    /// read-only look, so that it is left exactly as it was.
    fn connect(path: &Path) -> Result<(Connection, Found)> {
        let open = |flags: OpenFlags| {
            Connection::open_with_flags(path, flags | OpenFlags::SQLITE_OPEN_NO_MUTEX)
                .map_err(|e| failure(path, "opening it", &e))
        };
        if file::has_log(path) {
            let reader = open(OpenFlags::SQLITE_OPEN_READ_ONLY)?;
            schema::look(&reader, path)?;
        } else if let Some(h) = file::header(path) {
            if !schema::could_be_ours(h.application_id, h.user_version, h.has_tables) {
                return Err(schema::not_ours(path));
            }
        }
        let conn = open(OpenFlags::SQLITE_OPEN_READ_WRITE)?;
        let found = schema::look(&conn, path)?;
        Ok((conn, found))
    }

    fn of(conn: Connection, path: &Path) -> FileStore {
        FileStore {
            conn,
            path: path.to_path_buf(),
        }
    }

    /// Starts a write: a transaction holding the database's write lock from its start, taken
    /// as soon as no other writer holds it (waiting up to [`super::db_error::BUSY_WAIT`]).
    fn write(&mut self, what: &str) -> Result<rusqlite::Transaction<'_>> {
        self.conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| failure(&self.path, what, &e))
    }

    /// Keeps these captures (each with the agent's JSON text: [`Exchange::json`]), newest
    /// first as the agent lists them, in one transaction: new ones added (oldest first, so
    /// that the order kept in is the order captured), pending ones now answered updated, the
    /// rest left. New ones are kept as `source`'s.
    pub fn keep<'a, I>(&mut self, captures: I, source: &str) -> Result<KeptCount>
    where
        I: IntoIterator<Item = &'a Exchange>,
        I::IntoIter: DoubleEndedIterator,
    {
        let path = self.path.clone();
        let fail = |e: rusqlite::Error| failure(&path, "keeping captures in it", &e);
        let mut kept = KeptCount::default();
        let now = now_ns();
        // Oldest first, so that the order kept in is the order captured; only those the file
        // does not hold yet, or holds pending and now answered (a recorder that starts again
        // is given every capture the agent holds).
        let mut worth = Vec::new();
        {
            let mut find = self.conn.prepare_cached(FIND).map_err(fail)?;
            for e in captures.into_iter().rev().filter(|e| !e.id.is_empty()) {
                let Some(json) = e.json() else { continue };
                let answered: Option<bool> = find
                    .query_row([&e.id], |r| r.get(1))
                    .optional()
                    .map_err(fail)?;
                if answered.is_none_or(|answered| !answered && e.answered()) {
                    worth.push((e, json));
                }
            }
        }
        // Made before the write lock is taken: most of the work, and no other writer waits.
        let texts = search::index_texts(&worth.iter().map(|(e, _)| *e).collect::<Vec<_>>());
        let tx = self.write("keeping captures in it")?;
        {
            // Looked up again under the lock: another recorder may have kept some meanwhile.
            let mut find = tx.prepare_cached(FIND).map_err(fail)?;
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO captures (id, tunnel, start, start_ns, method, path, status, \
                     answered, size, kept_ns, json, source) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
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
            for ((e, json), text) in worth.into_iter().zip(texts) {
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
                                json,
                                source
                            ])
                            .map_err(fail)?;
                        // SQLite holds a copy of each text bound until the next binding: a
                        // large capture's is let go before its index text is bound.
                        insert.clear_bindings();
                        let seq = tx.last_insert_rowid();
                        index.execute(params![seq, text]).map_err(fail)?;
                        index.clear_bindings();
                        kept.new += 1;
                    }
                    Some((seq, false)) if e.answered() => {
                        update
                            .execute(params![seq, status, true, json.len() as i64, now, json])
                            .map_err(fail)?;
                        update.clear_bindings();
                        unindex.execute([seq]).map_err(fail)?;
                        index.execute(params![seq, text]).map_err(fail)?;
                        index.clear_bindings();
                        kept.updated += 1;
                    }
                    Some(_) => {}
                }
            }
        }
        tx.commit().map_err(fail)?;
        Ok(kept)
    }

    /// The agent's JSON of the kept capture `id` (`source`'s alone when given).
    pub fn get(&self, id: &str, source: Option<&str>) -> Result<Option<String>> {
        self.conn
            .query_row(
                "SELECT json FROM captures WHERE id = ?1 AND (?2 IS NULL OR source = ?2)",
                params![id, source],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| failure(&self.path, "reading it", &e))
    }

    /// Calls `each` with the JSON and the source of every kept capture that `selection`
    /// picks, newest first, until it returns `false`.
    pub fn each(
        &self,
        selection: &StoredSelection,
        mut each: impl FnMut(&str, &str) -> Result<bool>,
    ) -> Result<()> {
        let fail = |e: rusqlite::Error| failure(&self.path, "reading it", &e);
        let query = search::index_query(&selection.texts);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT json, source FROM captures WHERE (?1 IS NULL OR tunnel = ?1) AND (?2 IS NULL OR \
                 seq IN (SELECT rowid FROM search WHERE search MATCH ?2)) AND (?3 IS NULL OR source = ?3) \
                 ORDER BY start_ns DESC, seq DESC",
            )
            .map_err(fail)?;
        let mut rows = stmt
            .query(params![selection.tunnel, query, selection.source])
            .map_err(fail)?;
        while let Some(row) = rows.next().map_err(fail)? {
            let json = row
                .get_ref(0)
                .map_err(fail)?
                .as_str()
                .map_err(|e| failure(&self.path, "reading it", &rusqlite::Error::from(e)))?;
            if !search::holds_all(json, &selection.texts) {
                continue;
            }
            let source = row
                .get_ref(1)
                .map_err(fail)?
                .as_str()
                .map_err(|e| failure(&self.path, "reading it", &rusqlite::Error::from(e)))?;
            if !each(json, source)? {
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

    /// Does it hold the captures of more than one source?
    pub fn many_sources(&self) -> Result<bool> {
        self.conn
            .query_row(
                "SELECT coalesce(min(source) <> max(source), 0) FROM captures",
                [],
                |r| r.get::<_, bool>(0),
            )
            .map_err(|e| failure(&self.path, "reading it", &e))
    }

    /// The row of the newest capture kept (0: none): where following what is kept next starts.
    pub fn last_row(&self) -> Result<i64> {
        self.conn
            .query_row("SELECT coalesce(max(seq), 0) FROM captures", [], |r| {
                r.get(0)
            })
            .map_err(|e| failure(&self.path, "reading it", &e))
    }

    /// The captures kept after the row `after` ([`FileStore::last_row`]), oldest first, with
    /// each one's row: what a reader that follows the history shows next.
    pub fn kept_after(&self, after: i64, source: Option<&str>) -> Result<Vec<KeptRow>> {
        let fail = |e: rusqlite::Error| failure(&self.path, "reading it", &e);
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT seq, json, source FROM captures WHERE seq > ?1 AND (?2 IS NULL OR \
                 source = ?2) ORDER BY seq LIMIT 1000",
            )
            .map_err(fail)?;
        let rows = stmt
            .query_map(params![after, source], |r| {
                Ok(KeptRow {
                    row: r.get(0)?,
                    json: r.get(1)?,
                    source: r.get(2)?,
                })
            })
            .map_err(fail)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(fail)
    }

    /// How many captures (of `source`, when given) were captured before `before` (all of
    /// them when `None`).
    pub fn count_before(
        &self,
        before: Option<OffsetDateTime>,
        source: Option<&str>,
    ) -> Result<u64> {
        let cut = before.map_or(i64::MAX, nanos);
        self.conn
            .query_row(
                "SELECT count(*) FROM captures WHERE start_ns < ?1 AND (?2 IS NULL OR source = ?2)",
                params![cut, source],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n.max(0) as u64)
            .map_err(|e| failure(&self.path, "reading it", &e))
    }

    /// Removes the captures (of `source`, when given) captured before `before` (all of them
    /// when `None`); how many.
    pub fn clear(&mut self, before: Option<OffsetDateTime>, source: Option<&str>) -> Result<usize> {
        let cut = before.map_or(i64::MAX, nanos);
        let what = "removing captures from it";
        let path = self.path.clone();
        let fail = |e: rusqlite::Error| failure(&path, what, &e);
        let tx = self.write(what)?;
        tx.execute(
            "DELETE FROM search WHERE rowid IN (SELECT seq FROM captures WHERE start_ns < ?1 \
             AND (?2 IS NULL OR source = ?2))",
            params![cut, source],
        )
        .map_err(fail)?;
        let n = tx
            .execute(
                "DELETE FROM captures WHERE start_ns < ?1 AND (?2 IS NULL OR source = ?2)",
                params![cut, source],
            )
            .map_err(fail)?;
        tx.commit().map_err(fail)?;
        Ok(n)
    }

    /// What the bounds drop now: the oldest captures beyond `max_size` bytes (of their JSON)
    /// and those captured more than `max_age` ago (the newest is kept whatever its size).
    /// Read in one pass over the file, so that the caller may ask before [`FileStore::drop_doomed`].
    pub fn doomed(&self, max_size: u64, max_age: Duration) -> Result<Doomed> {
        doomed(&self.conn, max_size, max_age).map_err(|e| failure(&self.path, "reading it", &e))
    }

    /// Drops what [`FileStore::doomed`] found, in one transaction; the IDs of those that went and
    /// what is left.
    pub fn drop_doomed(&mut self, doomed: Doomed) -> Result<(Vec<String>, Footprint)> {
        let what = "removing captures from it";
        let path = self.path.clone();
        let fail = |e: rusqlite::Error| failure(&path, what, &e);
        let tx = self.write(what)?;
        for (seq, _) in &doomed.rows {
            tx.execute("DELETE FROM search WHERE rowid = ?1", [seq])
                .map_err(fail)?;
            tx.execute("DELETE FROM captures WHERE seq = ?1", [seq])
                .map_err(fail)?;
        }
        tx.commit().map_err(fail)?;
        let gone = doomed.rows.into_iter().map(|(_, id)| id).collect();
        Ok((gone, doomed.left))
    }

    /// [`FileStore::doomed`], then [`FileStore::drop_doomed`].
    pub fn trim(&mut self, max_size: u64, max_age: Duration) -> Result<(Vec<String>, Footprint)> {
        let doomed = self.doomed(max_size, max_age)?;
        self.drop_doomed(doomed)
    }
}

/// What the kept captures take: the bytes of their JSON, and when the oldest was captured
/// (Unix nanoseconds), to tell cheaply when the bounds are passed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Footprint {
    /// Bytes of JSON.
    pub size: u64,
    /// When the oldest was captured.
    pub oldest_ns: Option<i64>,
}

/// The captures the bounds drop, and what is left once they went.
#[derive(Debug, Default)]
pub struct Doomed {
    /// Each one's row and ID, oldest first.
    rows: Vec<(i64, String)>,
    /// What is left.
    pub left: Footprint,
}

impl Doomed {
    /// Each one's row, oldest first.
    pub(super) fn rows(&self) -> impl Iterator<Item = i64> + '_ {
        self.rows.iter().map(|(seq, _)| *seq)
    }

    /// The IDs of those that went.
    pub(super) fn into_ids(self) -> Vec<String> {
        self.rows.into_iter().map(|(_, id)| id).collect()
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// None?
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// The rows that the bounds drop: those captured more than `max_age` ago, then the oldest
/// beyond `max_size` bytes (but not the newest: one capture larger than the bound is kept
/// alone rather than leave nothing).
fn doomed(conn: &Connection, max_size: u64, max_age: Duration) -> rusqlite::Result<Doomed> {
    let newest: Option<i64> = conn
        .query_row(
            "SELECT seq FROM captures ORDER BY start_ns DESC, seq DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()?;
    let Some(newest) = newest else {
        return Ok(Doomed::default());
    };
    let total: i64 = conn.query_row("SELECT coalesce(sum(size), 0) FROM captures", [], |r| {
        r.get(0)
    })?;
    let mut choice = Doomed::choosing(total, newest, max_size, max_age);
    let mut oldest =
        conn.prepare("SELECT seq, size, start_ns, id FROM captures ORDER BY start_ns, seq")?;
    let mut rows = oldest.query([])?;
    while let Some(row) = rows.next()? {
        if !choice.take(row.get(0)?, row.get(1)?, row.get(2)?, || row.get(3))? {
            break;
        }
    }
    Ok(choice.chosen())
}

/// Choosing what the bounds drop, the kept captures read oldest first: one rule for both
/// stores.
pub(super) struct DoomedChoice {
    cut: i64,
    newest: i64,
    left: i64,
    excess: i64,
    doomed: Doomed,
}

impl Doomed {
    /// Starts choosing among captures of `total` bytes whose newest is the row `newest`.
    pub(super) fn choosing(
        total: i64,
        newest: i64,
        max_size: u64,
        max_age: Duration,
    ) -> DoomedChoice {
        let age = time::Duration::try_from(max_age).unwrap_or(time::Duration::MAX);
        let cut = OffsetDateTime::now_utc()
            .checked_sub(age)
            .map_or(i64::MIN, nanos);
        DoomedChoice {
            cut,
            newest,
            left: total,
            excess: total.saturating_sub(i64::try_from(max_size).unwrap_or(i64::MAX)),
            doomed: Doomed::default(),
        }
    }
}

impl DoomedChoice {
    /// Takes the next oldest capture (its row, size and start); `false` once the rest stay
    /// (its ID is read only for one that goes).
    pub(super) fn take<E>(
        &mut self,
        seq: i64,
        size: i64,
        start: i64,
        id: impl FnOnce() -> std::result::Result<String, E>,
    ) -> std::result::Result<bool, E> {
        let too_old = start < self.cut;
        if !too_old && (self.excess <= 0 || seq == self.newest) {
            self.doomed.left.oldest_ns = Some(start);
            return Ok(false);
        }
        self.doomed.rows.push((seq, id()?));
        self.excess -= size;
        self.left -= size;
        Ok(true)
    }

    /// What was chosen.
    pub(super) fn chosen(mut self) -> Doomed {
        self.doomed.left.size = self.left.max(0) as u64;
        self.doomed
    }
}

/// Now, in Unix nanoseconds.
pub(super) fn now_ns() -> i64 {
    nanos(OffsetDateTime::now_utc())
}

pub(super) fn nanos(t: OffsetDateTime) -> i64 {
    i64::try_from(t.unix_timestamp_nanos()).unwrap_or(i64::MAX)
}

/// The agent's `start` in Unix nanoseconds, when it reads as RFC 3339.
pub fn start_ns(start: &str) -> Option<i64> {
    OffsetDateTime::parse(start, &Rfc3339).ok().map(nanos)
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

    fn ids(store: &FileStore, sel: &StoredSelection) -> Vec<String> {
        let mut out = Vec::new();
        store
            .each(sel, |j, _| {
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
        let mut s = FileStore::open(&path).unwrap();
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
        let b_size = b.json().unwrap().len() as u64;
        assert_eq!(
            s.keep(&[a.clone(), b.clone()], "here").unwrap(),
            KeptCount { new: 2, updated: 0 }
        );
        assert_eq!(s.keep(&[a, b], "here").unwrap(), KeptCount::default());
        let a2 = capture(
            "airt_a",
            "2026-01-01T00:00:00Z",
            r#"{"type":"invoice.paid"}"#,
            true,
        );
        assert_eq!(
            s.keep(std::slice::from_ref(&a2), "here").unwrap(),
            KeptCount { new: 0, updated: 1 }
        );
        assert_eq!(s.get("airt_a", None).unwrap().as_deref(), a2.json());
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
                .unwrap()
                .0
                .len(),
            0
        );
        let size = a2.json().unwrap().len() as u64;
        let (gone, left) = s.trim(size, Duration::from_secs(3650 * 86_400)).unwrap();
        assert_eq!(gone, ["airt_a"]);
        assert_eq!(left.size, b_size);
        assert_eq!(
            ids(&s, &StoredSelection::default()),
            ["airt_b"],
            "the oldest went"
        );
        drop(s);
        // Opened again: same schema, same captures.
        let s = FileStore::open_existing(&path).unwrap().unwrap();
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
        let e = FileStore::open(&path).err().unwrap();
        assert_eq!(e.exit_code(), 3);
        assert!(e.to_string().contains("not a tunnelctl history"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
        let newer = dir.path().join("newer.sqlite3");
        drop(FileStore::open(&newer).unwrap());
        let c = Connection::open(&newer).unwrap();
        c.pragma_update(None, "user_version", 7).unwrap();
        drop(c);
        let e = FileStore::open(&newer).err().unwrap();
        assert!(e.to_string().contains("schema version 7"), "{e}");
    }

    /// Recorders and readers that all open a history file not made yet, at the same moment:
    /// every one of them opens it, none keeps a capture twice.
    #[test]
    fn many_open_a_new_file_at_once() {
        for round in 0..20 {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("h.sqlite3");
            let start = std::sync::Arc::new(std::sync::Barrier::new(12));
            let threads: Vec<_> = (0..12)
                .map(|i| {
                    let path = path.clone();
                    let start = start.clone();
                    std::thread::spawn(move || -> std::result::Result<(), String> {
                        start.wait();
                        if i % 3 == 2 {
                            if let Some(s) =
                                FileStore::open_existing(&path).map_err(|e| e.to_string())?
                            {
                                s.count().map_err(|e| e.to_string())?;
                            }
                            return Ok(());
                        }
                        let mut s = FileStore::open(&path).map_err(|e| e.to_string())?;
                        let c = capture("airt_same", "2026-01-01T00:00:00Z", "{}", true);
                        s.keep(std::slice::from_ref(&c), "here")
                            .map_err(|e| e.to_string())?;
                        Ok(())
                    })
                })
                .collect();
            for t in threads {
                if let Err(e) = t.join().unwrap() {
                    panic!("round {round}: {e}");
                }
            }
            let s = FileStore::open_existing(&path).unwrap().unwrap();
            assert_eq!(s.count().unwrap(), 1, "round {round}");
        }
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
