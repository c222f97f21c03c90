//! The team store's schema: everything tunnelctl makes lives in the schema `tunnelctl` of the
//! database, made on the first write under a lock (two recorders starting at once make it
//! once), versioned as the history file is (an older one migrated, a newer one refused, exit
//! 3). Nothing outside that schema is touched, but the `pg_trgm` extension, made in it when
//! the database has none and the role may (without it, a search reads every capture: the same
//! results, slower).
//!
//! Schema (version 1):
//!
//! ```sql
//! CREATE TABLE tunnelctl.meta (key text PRIMARY KEY, value text NOT NULL); -- schema_version
//! CREATE SEQUENCE tunnelctl.changes;   -- the order captures were kept or updated in
//! CREATE TABLE tunnelctl.captures (
//!     seq      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
//!     source   text NOT NULL,     -- which agent (host name and agent URL, or --source)
//!     id       text NOT NULL,     -- the agent's capture ID (airt_…)
//!     tunnel   text NOT NULL,
//!     start    text NOT NULL,     -- when it was captured, as the agent wrote it
//!     start_ns bigint NOT NULL,   -- the same in Unix nanoseconds
//!     method   text NOT NULL,
//!     path     text NOT NULL,
//!     status   integer,           -- NULL while no response came
//!     answered boolean NOT NULL,
//!     size     bigint NOT NULL,   -- bytes of json
//!     kept_ns  bigint NOT NULL,   -- when it was kept (or last updated)
//!     change   bigint NOT NULL,   -- from tunnelctl.changes, at each write
//!     words    text NOT NULL,     -- its searchable words, lower-case, space around each
//!     json     text NOT NULL,     -- the agent's JSON of the capture, unchanged
//!     UNIQUE (source, id)
//! );
//! CREATE INDEX captures_words ON tunnelctl.captures USING gin (words gin_trgm_ops);
//! ```

use tokio_postgres::{Client, GenericClient};

use super::pg_error::failure;
use crate::error::{Error, Result};
use crate::parse::HistoryUrl;

/// The schema this binary writes.
pub const SCHEMA_VERSION: i64 = 1;

/// The advisory lock taken while the schema is made or migrated ("TnCt", then 1).
const SETUP_LOCK: i64 = 0x546E_4374_0001;

/// Each version's step up from the one before (index 0: from nothing to 1). `{trgm}` is the
/// schema of the `pg_trgm` extension.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE tunnelctl.meta (key text PRIMARY KEY, value text NOT NULL);
    CREATE SEQUENCE tunnelctl.changes;
    CREATE TABLE tunnelctl.captures (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        source text NOT NULL,
        id text NOT NULL,
        tunnel text NOT NULL,
        start text NOT NULL,
        start_ns bigint NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        status integer,
        answered boolean NOT NULL,
        size bigint NOT NULL,
        kept_ns bigint NOT NULL,
        change bigint NOT NULL,
        words text NOT NULL,
        json text NOT NULL,
        UNIQUE (source, id)
    );
    CREATE INDEX captures_by_start ON tunnelctl.captures (start_ns, seq);
    CREATE INDEX captures_by_id ON tunnelctl.captures (id);
    CREATE INDEX captures_by_source ON tunnelctl.captures (source, start_ns);
    CREATE INDEX captures_by_change ON tunnelctl.captures (change);",
];

/// What the database holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    /// A store of this binary's schema.
    Current,
    /// A store of an older schema.
    Older,
    /// No schema `tunnelctl` yet.
    Missing,
}

/// Says what the database holds; a schema `tunnelctl` that is not a store, or of a newer
/// version, is an error (exit 3).
pub async fn look(client: &impl GenericClient, url: &HistoryUrl) -> Result<Holds> {
    let row = client
        .query_one(
            // Read from the catalogs by a query (its snapshot sees what another recorder
            // committed while this one waited for the lock; the catalog caches may not yet).
            "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'tunnelctl'), \
             EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = 'tunnelctl' AND c.relname = 'meta')",
            &[],
        )
        .await
        .map_err(|e| failure(url, "reading it", &e))?;
    let (schema, meta): (bool, bool) = (row.get(0), row.get(1));
    if !schema {
        return Ok(Holds::Missing);
    }
    if !meta {
        return Err(not_ours(url));
    }
    let version: Option<String> = client
        .query_opt(
            "SELECT value FROM tunnelctl.meta WHERE key = 'schema_version'",
            &[],
        )
        .await
        .map_err(|e| failure(url, "reading it", &e))?
        .map(|r| r.get(0));
    let Some(version) = version.and_then(|v| v.parse::<i64>().ok()) else {
        return Err(not_ours(url));
    };
    if version > SCHEMA_VERSION {
        return Err(Error::Config(format!(
            "the history store at {} has schema version {version}, written by a newer \
             tunnelctl (this one knows up to {SCHEMA_VERSION}); update tunnelctl. The store was \
             left as it is.",
            url.place()
        )));
    }
    Ok(if version == SCHEMA_VERSION {
        Holds::Current
    } else {
        Holds::Older
    })
}

fn not_ours(url: &HistoryUrl) -> Error {
    Error::Config(format!(
        "the database of history_url ({}) has a schema 'tunnelctl' that is not a tunnelctl \
         history; it was left as it is (give another database)",
        url.shown()
    ))
}

/// Makes the schema, or migrates it, under a lock: two recorders starting at once make it
/// once; a failure leaves nothing half made (one transaction).
pub async fn set_up(client: &mut Client, url: &HistoryUrl) -> Result<()> {
    let fail = |e: tokio_postgres::Error| failure(url, "setting up its schema", &e);
    let tx = client.transaction().await.map_err(fail)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SETUP_LOCK])
        .await
        .map_err(fail)?;
    // Another recorder may have made it meanwhile: look again, under the lock.
    let found = look(&tx, url).await?;
    let from = match found {
        Holds::Current => return tx.commit().await.map_err(fail),
        Holds::Older => tx
            .query_one(
                "SELECT value::bigint FROM tunnelctl.meta WHERE key = 'schema_version'",
                &[],
            )
            .await
            .map_err(fail)?
            .get::<_, i64>(0),
        Holds::Missing => {
            tx.batch_execute("CREATE SCHEMA tunnelctl")
                .await
                .map_err(fail)?;
            0
        }
    };
    for step in MIGRATIONS.iter().skip(from.max(0) as usize) {
        tx.batch_execute(step).await.map_err(fail)?;
    }
    if from == 0 {
        search_index(&tx).await.map_err(fail)?;
    }
    tx.execute(
        "INSERT INTO tunnelctl.meta (key, value) VALUES ('schema_version', $1) \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        &[&SCHEMA_VERSION.to_string()],
    )
    .await
    .map_err(fail)?;
    tx.commit().await.map_err(fail)
}

/// The trigram index of the captures' words, with `pg_trgm` where it is or can be made (in
/// a savepoint: a role that may not make it still gets a store, searched without the index).
async fn search_index(
    tx: &tokio_postgres::Transaction<'_>,
) -> std::result::Result<(), tokio_postgres::Error> {
    let sp = "SAVEPOINT trgm";
    tx.batch_execute(sp).await?;
    let made = tx
        .batch_execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA tunnelctl")
        .await;
    if made.is_err() {
        tx.batch_execute("ROLLBACK TO SAVEPOINT trgm").await?;
        return Ok(());
    }
    let schema: String = tx
        .query_one(
            "SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'pg_trgm'",
            &[],
        )
        .await?
        .get(0);
    tx.batch_execute(&format!(
        "CREATE INDEX captures_words ON tunnelctl.captures USING gin (words {schema}.gin_trgm_ops)"
    ))
    .await
}
