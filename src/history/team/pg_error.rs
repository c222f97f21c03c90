//! A failure of the team store as the user reads it: which server (never the password), what
//! was being done, what to do, and its exit code: the server not reached, 6; a login, a
//! database or a privilege refused, 3; a lock or a statement that waited past its time, 7;
//! anything else, 1.

use tokio_postgres::error::SqlState;

use crate::error::Error;
use crate::parse::HistoryUrl;

/// How long a write waits for another's lock, and a statement runs, before giving up (exit 7).
pub const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The server at `url` could not be reached (exit 6).
pub fn unreachable_at(url: &HistoryUrl, why: &str) -> Error {
    Error::Unreachable(format!(
        "could not reach the history store's PostgreSQL server at {} ({why}); is it running, \
         and is history_url right? ({})",
        url.place(),
        url.shown()
    ))
}

/// Why `e` happened while connecting to `url`.
pub fn connect_failure(url: &HistoryUrl, e: &tokio_postgres::Error) -> Error {
    if e.as_db_error().is_none() {
        return unreachable_at(url, &cause_of(e));
    }
    failure(url, "connecting", e)
}

/// The innermost cause of `e`, in its own words (TLS and socket errors are nested).
fn cause_of(e: &tokio_postgres::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text = s.to_string();
        source = s.source();
    }
    text
}

/// Is `e` the connection having gone (the server restarted, the network cut)?
pub fn is_gone(e: &Error) -> bool {
    matches!(e, Error::Unreachable(_))
}

/// The error for `e`, met on the store at `url` while doing `what`.
pub fn failure(url: &HistoryUrl, what: &str, e: &tokio_postgres::Error) -> Error {
    let place = url.place();
    let Some(db) = e.as_db_error() else {
        if e.is_closed() || std::error::Error::source(e).is_some() {
            return Error::Unreachable(format!(
                "the connection to the history store at {place} was lost while {what} ({}); \
                 what was kept before is intact (a write cut short is undone)",
                cause_of(e)
            ));
        }
        return Error::Io(format!("the history store at {place}: {what}: {e}"));
    };
    let code = db.code();
    let said = db.message();
    if *code == SqlState::INSUFFICIENT_PRIVILEGE {
        return Error::Config(format!(
            "the history store at {place} refused while {what}: {said}. The role in history_url \
             may read but not write: recording needs INSERT, UPDATE and DELETE on the tables of \
             schema tunnelctl (and CREATE on the database for its first write); clearing needs \
             DELETE. docs/team-history.md shows the GRANT lines"
        ));
    }
    if *code == SqlState::LOCK_NOT_AVAILABLE || *code == SqlState::QUERY_CANCELED {
        return Error::WaitTimeout(format!(
            "the history store at {place} kept {what} waiting for more than {} s ({said}): \
             another program holds a lock on its tables; what was kept before is intact (this \
             write was not made). Run again once the other is done",
            LOCK_WAIT.as_secs()
        ));
    }
    if [
        SqlState::INVALID_PASSWORD,
        SqlState::INVALID_AUTHORIZATION_SPECIFICATION,
        SqlState::INVALID_CATALOG_NAME,
        SqlState::UNDEFINED_OBJECT,
    ]
    .contains(code)
    {
        return Error::Config(format!(
            "the history store at {place} refused while {what}: {said} (history_url: {})",
            url.shown()
        ));
    }
    if matches!(code.code().get(..2), Some("08" | "57")) {
        return Error::Unreachable(format!(
            "the history store at {place} went away while {what} ({said}); what was kept before \
             is intact (a write cut short is undone)"
        ));
    }
    Error::Io(format!(
        "the history store at {place}: {what}: {said} ({})",
        code.code()
    ))
}
