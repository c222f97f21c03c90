//! The capture history: captured exchanges kept past the agent's memory (a restart clears the
//! agent; its byte budget evicts the oldest), in one SQLite file a user can open with
//! `sqlite3`, or in a PostgreSQL database a team shares (`history_url`).
//!
//! - [`stores`]: the one store interface ([`Store`]) and where this run's history is
//!   ([`Location`]); every reader and recorder speaks only this.
//! - [`team`]: the PostgreSQL team store (connection, TLS, its schema, its errors).
//! - [`source`]: which agent a capture came from.
//!
//! - [`file`](mod@file): where the file lives, and what is at a path before SQLite is let near it (a
//!   file that is not a database is never opened, so never overwritten); created 0600 in a
//!   folder only the user can read.
//! - [`schema`]: what makes a file a history (its identity, schema version and migrations),
//!   and setting up a new file while other programs may be opening it too.
//! - [`store`]: the SQLite file: every write a transaction (WAL), captures in and out as the
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
pub mod source;
pub mod store;
pub mod stores;
pub mod team;

pub use stores::{Location, Store};
