//! The team store: the capture history in a PostgreSQL database that many recorders fill and
//! anyone with a role may read; one of the two stores behind [`super::Store`].
//!
//! - [`connect`]: reaching the server as `psql` would (the URL, `PGPASSWORD`, the password
//!   file), over TLS checked by default.
//! - [`namespace`]: its own schema `tunnelctl`, versioned, made under a lock.
//! - [`pg_error`]: its errors as the user reads them, and their exit codes.
//!
//! Every write is one transaction under one advisory lock, so writes from many hosts go one
//! after the other (as in the SQLite file), a capture is kept once per source, and `change`
//! numbers follow the order of commits (what a reader that follows the store relies on). The
//! bounds are applied under a second lock, by one recorder at a time.

pub mod connect;
pub mod namespace;
pub mod pg_error;

use std::time::Duration;

use futures_util::{pin_mut, TryStreamExt};
use time::OffsetDateTime;
use tokio_postgres::types::ToSql;
use tokio_postgres::Client;

use super::search;
use super::store::{
    nanos, now_ns, start_ns, Doomed, Footprint, KeptCount, KeptRow, StoredSelection,
};
use crate::capture::Exchange;
use crate::error::{Error, Result};
use crate::parse::HistoryUrl;
use namespace::Holds;
use pg_error::{failure, LOCK_WAIT};

/// The advisory lock every write takes ("TnCt", then 2).
const WRITE_LOCK: i64 = 0x546E_4374_0002;
/// The advisory lock of applying the bounds ("TnCt", then 3).
const TRIM_LOCK: i64 = 0x546E_4374_0003;
/// Rows read from the server at a time while a list is read (a `--limit` stops early).
const BATCH: i32 = 256;
/// Captures sent in one statement at most.
const CHUNK: usize = 500;

/// The team store, open.
pub struct TeamStore {
    url: HistoryUrl,
    client: Client,
    user: String,
}

impl TeamStore {
    async fn connect(url: &HistoryUrl) -> Result<TeamStore> {
        let c = connect::connect(url).await?;
        let store = TeamStore {
            url: url.clone(),
            client: c.client,
            user: c.user,
        };
        store
            .client
            .batch_execute(&format!(
                "SET lock_timeout = '{}s'; SET idle_in_transaction_session_timeout = '60s'",
                LOCK_WAIT.as_secs()
            ))
            .await
            .map_err(|e| store.fail("connecting", &e))?;
        Ok(store)
    }

    /// Opens the store for writing: its schema made or migrated when it is not current, and
    /// the role's right to write checked (exit 3 naming what it lacks).
    pub async fn open(url: &HistoryUrl) -> Result<TeamStore> {
        let mut store = TeamStore::connect(url).await?;
        if namespace::look(&store.client, url).await? != Holds::Current {
            namespace::set_up(&mut store.client, url).await?;
        }
        store
            .may(&["INSERT", "UPDATE", "DELETE"], "record into it")
            .await?;
        Ok(store)
    }

    /// Opens the store for reading (`None`: nothing kept yet, no schema).
    pub async fn open_existing(url: &HistoryUrl) -> Result<Option<TeamStore>> {
        let store = TeamStore::connect(url).await?;
        match namespace::look(&store.client, url).await? {
            Holds::Missing => Ok(None),
            // A reader reads what an older schema holds; the next recorder migrates it.
            Holds::Current | Holds::Older => Ok(Some(store)),
        }
    }

    /// The URL, as it may be shown.
    pub fn shown(&self) -> String {
        self.url.shown()
    }

    fn fail(&self, what: &str, e: &tokio_postgres::Error) -> Error {
        failure(&self.url, what, e)
    }

    /// Checks that the role may do each of `privileges` on the captures' table: a role that
    /// may only read is told at once, naming what it lacks (exit 3).
    pub async fn may(&self, privileges: &[&str], what: &str) -> Result<()> {
        let mut lacking = Vec::new();
        for p in privileges {
            let has: bool = self
                .client
                .query_one(
                    "SELECT has_table_privilege('tunnelctl.captures', $1) \
                     AND has_sequence_privilege('tunnelctl.changes', 'USAGE')",
                    &[p],
                )
                .await
                .map_err(|e| self.fail("reading it", &e))?
                .get(0);
            if !has {
                lacking.push(*p);
            }
        }
        if lacking.is_empty() {
            return Ok(());
        }
        Err(Error::Config(format!(
            "the role '{}' may not {what}: it lacks {} on tunnelctl.captures (a role that may only \
             read lists, searches and replays; docs/team-history.md shows the GRANT lines for a \
             recorder). Nothing was written.",
            crate::escape::escape(&self.user),
            lacking.join(", ")
        )))
    }

    /// Comes back after the connection was lost (the server restarted): a new one.
    pub async fn reconnect(&mut self) -> Result<()> {
        *self = TeamStore::connect(&self.url).await?;
        Ok(())
    }

    /// Is the connection gone?
    pub fn is_closed(&self) -> bool {
        self.client.is_closed()
    }

    /// Keeps these captures as `source`'s, in one transaction: new ones added (oldest first),
    /// pending ones now answered updated, the rest left.
    pub async fn keep(&mut self, captures: &[&Exchange], source: &str) -> Result<KeptCount> {
        let what = "keeping captures in it";
        let now = now_ns();
        // Oldest first, so that the order kept in is the order captured; one row per ID (the
        // answered one, when a capture came both pending and answered), as one statement may
        // touch a row once.
        let mut worth: Vec<(&Exchange, &str)> = Vec::with_capacity(captures.len());
        let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for e in captures.iter().rev().filter(|e| !e.id.is_empty()) {
            let Some(json) = e.json() else { continue };
            match at.get(e.id.as_str()) {
                Some(&i) if e.answered() && !worth[i].0.answered() => worth[i] = (*e, json),
                Some(_) => {}
                None => {
                    at.insert(e.id.as_str(), worth.len());
                    worth.push((*e, json));
                }
            }
        }
        let mut kept = KeptCount::default();
        if worth.is_empty() {
            return Ok(kept);
        }
        // Made before the lock is taken: most of the work, and no other writer waits.
        let texts = search::index_texts(&worth.iter().map(|(e, _)| *e).collect::<Vec<_>>());
        let url = self.url.clone();
        let fail = |e: tokio_postgres::Error| failure(&url, what, &e);
        let tx = self.client.transaction().await.map_err(fail)?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&WRITE_LOCK])
            .await
            .map_err(fail)?;
        let insert = tx
            .prepare(
                "INSERT INTO tunnelctl.captures (source, id, tunnel, start, start_ns, method, \
                 path, status, answered, size, kept_ns, change, words, json) \
                 SELECT $1, c.id, c.tunnel, c.start, c.start_ns, c.method, c.path, c.status, \
                 c.answered, octet_length(c.json), $2, nextval('tunnelctl.changes'), c.words, c.json \
                 FROM unnest($3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], \
                 $8::text[], $9::int[], $10::bool[], $11::text[], $12::text[]) WITH ORDINALITY \
                 AS c(id, tunnel, start, start_ns, method, path, status, answered, words, json, n) \
                 ORDER BY c.n \
                 ON CONFLICT (source, id) DO UPDATE SET status = excluded.status, \
                 answered = true, size = excluded.size, kept_ns = excluded.kept_ns, \
                 change = excluded.change, words = excluded.words, json = excluded.json \
                 WHERE NOT tunnelctl.captures.answered AND excluded.answered \
                 RETURNING (xmax = 0)",
            )
            .await
            .map_err(fail)?;
        let pairs: Vec<_> = worth.into_iter().zip(texts).collect();
        for chunk in pairs.chunks(CHUNK) {
            let mut ids = Vec::with_capacity(chunk.len());
            let mut tunnels = Vec::with_capacity(chunk.len());
            let mut starts = Vec::with_capacity(chunk.len());
            let mut start_nss = Vec::with_capacity(chunk.len());
            let mut methods = Vec::with_capacity(chunk.len());
            let mut paths = Vec::with_capacity(chunk.len());
            let mut statuses: Vec<Option<i32>> = Vec::with_capacity(chunk.len());
            let mut answered = Vec::with_capacity(chunk.len());
            let mut words = Vec::with_capacity(chunk.len());
            let mut jsons = Vec::with_capacity(chunk.len());
            for ((e, json), text) in chunk {
                ids.push(e.id.as_str());
                tunnels.push(e.tunnel.as_str());
                starts.push(e.start.as_str());
                start_nss.push(start_ns(&e.start).unwrap_or(now));
                methods.push(e.method());
                paths.push(e.uri());
                statuses.push(e.status().map(i32::from));
                answered.push(e.answered());
                words.push(format!(" {text} "));
                jsons.push(*json);
            }
            let params: [&(dyn ToSql + Sync); 12] = [
                &source, &now, &ids, &tunnels, &starts, &start_nss, &methods, &paths, &statuses,
                &answered, &words, &jsons,
            ];
            for row in tx.query(&insert, &params).await.map_err(fail)? {
                if row.get::<_, bool>(0) {
                    kept.new += 1;
                } else {
                    kept.updated += 1;
                }
            }
        }
        tx.commit().await.map_err(fail)?;
        Ok(kept)
    }

    /// The agent's JSON of the kept capture `id` (`source`'s alone when given; the newest
    /// kept when several sources hold that ID).
    pub async fn get(&self, id: &str, source: Option<&str>) -> Result<Option<String>> {
        self.client
            .query_opt(
                "SELECT json FROM tunnelctl.captures WHERE id = $1 AND ($2::text IS NULL OR \
                 source = $2) ORDER BY kept_ns DESC LIMIT 1",
                &[&id, &source],
            )
            .await
            .map(|r| r.map(|r| r.get(0)))
            .map_err(|e| self.fail("reading it", &e))
    }

    /// Calls `each` with the JSON and the source of every kept capture that `selection` picks,
    /// newest first, until it returns `false`. The server's trigram index narrows a search
    /// down to the captures holding its words as [`search::index_terms`] says, exactly as the
    /// file's index does; each one is then read for the whole text ([`search::holds_all`]).
    pub async fn each(
        &mut self,
        selection: &StoredSelection,
        mut each: impl FnMut(&str, &str) -> Result<bool>,
    ) -> Result<()> {
        let mut sql = String::from(
            "SELECT json, source FROM tunnelctl.captures WHERE ($1::text IS NULL OR tunnel = $1) \
             AND ($2::text IS NULL OR source = $2)",
        );
        let mut patterns: Vec<String> = Vec::new();
        for term in search::index_terms(&selection.texts) {
            patterns.push(match term.prefix {
                true => format!("% {}%", term.word),
                false => format!("% {} %", term.word),
            });
            sql.push_str(&format!(" AND words LIKE ${}", patterns.len() + 2));
        }
        sql.push_str(" ORDER BY start_ns DESC, seq DESC");
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![&selection.tunnel, &selection.source];
        params.extend(patterns.iter().map(|p| p as &(dyn ToSql + Sync)));
        self.rows(&sql, &params, |row| {
            let json: &str = row.get(0);
            if !search::holds_all(json, &selection.texts) {
                return Ok(true);
            }
            each(json, row.get(1))
        })
        .await
    }

    /// Reads the rows of `sql` a batch at a time (a reader that stops early has not had them
    /// all sent), calling `each` on each until it returns `false`.
    async fn rows(
        &mut self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
        mut each: impl FnMut(&tokio_postgres::Row) -> Result<bool>,
    ) -> Result<()> {
        let url = self.url.clone();
        let fail = |e: tokio_postgres::Error| failure(&url, "reading it", &e);
        let tx = self
            .client
            .build_transaction()
            .read_only(true)
            .start()
            .await
            .map_err(fail)?;
        let portal = tx.bind(sql, params).await.map_err(fail)?;
        loop {
            let stream = tx.query_portal_raw(&portal, BATCH).await.map_err(fail)?;
            pin_mut!(stream);
            let mut got = 0;
            while let Some(row) = stream.try_next().await.map_err(fail)? {
                got += 1;
                if !each(&row)? {
                    return Ok(());
                }
            }
            if got < BATCH {
                return Ok(());
            }
        }
    }

    /// A number the server answers to `sql`.
    async fn number(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<i64> {
        self.client
            .query_one(sql, params)
            .await
            .map(|r| r.get(0))
            .map_err(|e| self.fail("reading it", &e))
    }

    /// How many captures are kept.
    pub async fn count(&self) -> Result<u64> {
        let n = self
            .number("SELECT count(*) FROM tunnelctl.captures", &[])
            .await?;
        Ok(n.max(0) as u64)
    }

    /// Does it hold the captures of more than one source?
    pub async fn many_sources(&self) -> Result<bool> {
        self.client
            .query_one(
                "SELECT coalesce(min(source) <> max(source), false) FROM tunnelctl.captures",
                &[],
            )
            .await
            .map(|r| r.get(0))
            .map_err(|e| self.fail("reading it", &e))
    }

    /// Where following what is kept next starts: the last change made.
    pub async fn last_row(&self) -> Result<i64> {
        self.number(
            "SELECT coalesce(max(change), 0) FROM tunnelctl.captures",
            &[],
        )
        .await
    }

    /// The captures kept or updated after the change `after`, in the order they were, with
    /// each one's change.
    pub async fn kept_after(&self, after: i64, source: Option<&str>) -> Result<Vec<KeptRow>> {
        self.client
            .query(
                "SELECT change, json, source FROM tunnelctl.captures WHERE change > $1 AND \
                 ($2::text IS NULL OR source = $2) ORDER BY change LIMIT 1000",
                &[&after, &source],
            )
            .await
            .map(|rows| {
                rows.iter()
                    .map(|r| KeptRow {
                        row: r.get(0),
                        json: r.get(1),
                        source: r.get(2),
                    })
                    .collect()
            })
            .map_err(|e| self.fail("reading it", &e))
    }

    /// How many captures (of `source`, when given) were captured before `before` (all when
    /// `None`).
    pub async fn count_before(
        &self,
        before: Option<OffsetDateTime>,
        source: Option<&str>,
    ) -> Result<u64> {
        let cut = before.map_or(i64::MAX, nanos);
        let n = self
            .number(
                "SELECT count(*) FROM tunnelctl.captures WHERE start_ns < $1 AND ($2::text IS \
                 NULL OR source = $2)",
                &[&cut, &source],
            )
            .await?;
        Ok(n.max(0) as u64)
    }

    /// Removes the captures (of `source`, when given) captured before `before` (all when
    /// `None`); how many.
    pub async fn clear(
        &mut self,
        before: Option<OffsetDateTime>,
        source: Option<&str>,
    ) -> Result<usize> {
        self.may(&["DELETE"], "clear it").await?;
        let cut = before.map_or(i64::MAX, nanos);
        let url = self.url.clone();
        let fail = |e: tokio_postgres::Error| failure(&url, "removing captures from it", &e);
        let tx = self.client.transaction().await.map_err(fail)?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&WRITE_LOCK])
            .await
            .map_err(fail)?;
        let n = tx
            .execute(
                "DELETE FROM tunnelctl.captures WHERE start_ns < $1 AND ($2::text IS NULL OR \
                 source = $2)",
                &[&cut, &source],
            )
            .await
            .map_err(fail)?;
        tx.commit().await.map_err(fail)?;
        Ok(n as usize)
    }

    /// What the bounds drop now (the same rule as the file's: `Doomed::choosing`).
    pub async fn doomed(&mut self, max_size: u64, max_age: Duration) -> Result<Doomed> {
        let row = self
            .client
            .query_one(
                "SELECT (SELECT seq FROM tunnelctl.captures ORDER BY start_ns DESC, seq DESC \
                 LIMIT 1), (SELECT coalesce(sum(size), 0)::bigint FROM tunnelctl.captures)",
                &[],
            )
            .await
            .map_err(|e| self.fail("reading it", &e))?;
        let (newest, total): (Option<i64>, i64) = (row.get(0), row.get(1));
        let Some(newest) = newest else {
            return Ok(Doomed::default());
        };
        let mut choice = Doomed::choosing(total, newest, max_size, max_age);
        self.rows(
            "SELECT seq, size, start_ns, id FROM tunnelctl.captures ORDER BY start_ns, seq",
            &[],
            |row| {
                choice.take(row.get(0), row.get(1), row.get(2), || {
                    Ok::<_, Error>(row.get::<_, String>(3))
                })
            },
        )
        .await?;
        Ok(choice.chosen())
    }

    /// Drops what [`TeamStore::doomed`] found, in one transaction, under the bounds' lock (one
    /// recorder at a time); the IDs of those that went and what is left.
    pub async fn drop_doomed(&mut self, doomed: Doomed) -> Result<(Vec<String>, Footprint)> {
        let left = doomed.left;
        if doomed.is_empty() {
            return Ok((Vec::new(), left));
        }
        let url = self.url.clone();
        let fail = |e: tokio_postgres::Error| failure(&url, "removing captures from it", &e);
        let seqs: Vec<i64> = doomed.rows().collect();
        let tx = self.client.transaction().await.map_err(fail)?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&TRIM_LOCK])
            .await
            .map_err(fail)?;
        tx.execute(
            "DELETE FROM tunnelctl.captures WHERE seq = ANY($1)",
            &[&seqs],
        )
        .await
        .map_err(fail)?;
        tx.commit().await.map_err(fail)?;
        Ok((doomed.into_ids(), left))
    }
}
