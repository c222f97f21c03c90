//! A database failure as the user reads it: which file, what was being done, and what to do.

use std::path::Path;

use rusqlite::ErrorCode;

use super::file;
use crate::error::Error;
use crate::escape::escape_path;

/// How long a write waits for another recorder's to finish.
pub const BUSY_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Whether `e` is another connection holding a lock (worth waiting for and trying again).
pub fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    )
}

/// The error for `e`, met at `path` while doing `what`. A file that is not a database (or is
/// damaged) is a configuration problem (exit 3); a lock held past [`BUSY_WAIT`] is a wait that
/// ran out (exit 7); a full disk and other failures exit 1. Nothing is overwritten either way.
pub fn failure(path: &Path, what: &str, e: &rusqlite::Error) -> Error {
    let file = escape_path(path);
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
