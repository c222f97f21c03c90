//! The capture history: captured exchanges kept on the user's machine, past the agent's
//! memory (a restart clears the agent; its byte budget evicts the oldest), in one SQLite file
//! a user can open with `sqlite3`.
//!
//! - [`file`](mod@file): where the file lives, and what is at a path before SQLite is let near it (a
//!   file that is not a database is never opened, so never overwritten); created 0600 in a
//!   folder only the user can read.
//! - [`schema`]: what makes a file a history (its identity, schema version and migrations),
//!   and setting up a new file while other programs may be opening it too.
//! - [`store`]: the database: every write a transaction (WAL), captures in and out as the
//!   agent's JSON text, retention, clear.
//! - [`db_error`]: a database error as the user reads it (which file, what was being done,
//!   what to do) and its exit code.
//! - [`search`]: what the full-text index holds of a capture (its decoded text) and how a
//!   `--grep` word becomes an index query.
//! - [`recorder`]: what a recorder keeps of each poll (new captures, pending ones answered),
//!   shared by `record`, `tail --record` and `inspect --record`.
//! - [`lookup`]: a capture by ID, from the agent first and then from the history.
//!
//! The one capture model stays [`crate::capture::Exchange`]: the store keeps the agent's
//! JSON text of each capture unchanged, and reads it back into an `Exchange`, so `--json`
//! from history prints what the agent printed.

pub mod db_error;
pub mod file;
pub mod lookup;
pub mod recorder;
pub mod schema;
pub mod search;
pub mod store;

pub use store::Store;

/// Parses a size bound of the history (`--max-size`, `history_max_size`): `500MiB`, `2GB`,
/// or a number of bytes, at least [`recorder::SMALLEST_MAX_SIZE`] (a bound that cannot hold
/// a capture would drop the whole history without a word).
pub fn parse_max_size(text: &str) -> Result<u64, String> {
    let n = crate::inspect::kept::parse_budget(text)
        .map_err(|e| e.replace("is not a memory size", "is not a size"))?;
    if n < recorder::SMALLEST_MAX_SIZE {
        return Err(format!(
            "'{text}' is too small to hold the history: the smallest useful size is {}KiB",
            recorder::SMALLEST_MAX_SIZE >> 10
        ));
    }
    Ok(n)
}
