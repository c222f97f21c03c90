//! The history file on disk: what is at a path before SQLite opens it (its default place is
//! the settings').
//!
//! SQLite opens any file it is given and may write to it. So a path is looked at first: a
//! folder, a device or a file that does not start with SQLite's header is refused with an
//! error naming it, and left as it is. A missing file is created here, 0600, in a folder
//! created 0700 (only the folders tunnelctl creates: an existing one is the user's).

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::escape::escape_path;

/// The first 16 bytes of every SQLite database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Below this many free bytes, the disk holding the history counts as full: an I/O error
/// there is taken for the disk being full (SQLite says "disk full" only when the write that
/// failed was to the database or its journal, not to its shared-memory file).
const NEARLY_FULL: u64 = 1 << 20;

/// The bytes left on the disk holding `path` when it is full or nearly (`None`: it has room,
/// or cannot be asked).
pub fn space_left_if_full(path: &Path) -> Option<u64> {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs4::available_space(folder)
        .ok()
        .filter(|left| *left < NEARLY_FULL)
}

/// What is at the history file's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// Nothing yet.
    Missing,
    /// An empty file (SQLite makes a database of it).
    Empty,
    /// A file that starts as a SQLite database does.
    Database,
}

/// Looks at `path`: anything but a missing file, an empty one or a SQLite database is an
/// error (exit 3) naming it; nothing is written.
pub fn look(path: &Path) -> Result<FileKind> {
    let unusable = |why: String| {
        Error::Config(format!(
            "the history file {} {why}; it was left as it is (give another with --history-file \
             or TUNNELCTL_HISTORY_FILE)",
            escape_path(path)
        ))
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(FileKind::Missing),
        Err(e) => return Err(unusable(format!("cannot be read ({e})"))),
    };
    if meta.is_dir() {
        return Err(unusable("is a folder, not a file".into()));
    }
    if !meta.is_file() {
        return Err(unusable("is not a regular file".into()));
    }
    if meta.len() == 0 {
        return Ok(FileKind::Empty);
    }
    let mut head = [0u8; 16];
    let read = std::fs::File::open(path).and_then(|mut f| {
        let mut n = 0;
        while n < head.len() {
            match f.read(&mut head[n..])? {
                0 => break,
                k => n += k,
            }
        }
        Ok(n)
    });
    match read {
        Ok(16) if &head == SQLITE_HEADER => Ok(FileKind::Database),
        Ok(_) => Err(unusable("is not a SQLite database".into())),
        Err(e) => Err(unusable(format!("cannot be read ({e})"))),
    }
}

/// What a database's header says of whose it is, read without SQLite (which creates the
/// `-wal` and `-shm` files beside a database in WAL mode that it opens, even read-only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// `PRAGMA application_id`.
    pub application_id: i64,
    /// `PRAGMA user_version`.
    pub user_version: i64,
    /// Does its schema (the table on page 1) name anything: a table, an index?
    pub has_tables: bool,
}

/// The header of the database at `path` (`None` when it cannot be read whole). What the
/// last writes left in a write-ahead log ([`has_log`]) is not in it yet.
pub fn header(path: &Path) -> Option<Header> {
    // The 100 bytes of the file header, then the header of page 1's b-tree (the schema): its
    // kind (13: a leaf) and how many cells (entries) it holds.
    let mut head = [0u8; 105];
    std::fs::File::open(path).ok()?.read_exact(&mut head).ok()?;
    let word = |at: usize| u32::from_be_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
    let cells = u16::from_be_bytes([head[103], head[104]]);
    Some(Header {
        application_id: i64::from(word(68) as i32),
        user_version: i64::from(word(60) as i32),
        has_tables: !(head[100] == 13 && cells == 0),
    })
}

/// Is there a write-ahead log with something in it beside the database at `path`?
pub fn has_log(path: &Path) -> bool {
    let mut log = path.as_os_str().to_owned();
    log.push("-wal");
    std::fs::metadata(PathBuf::from(log)).is_ok_and(|m| m.len() > 0)
}

/// Creates an empty history file at `path`, 0600, and the folders above it that are missing,
/// 0700. A file another recorder created meanwhile is left to it. A `path` that is a link
/// leading nowhere gets the file where it leads (the link stays, as for every file
/// tunnelctl writes: `crate::files`).
pub fn create(path: &Path) -> Result<()> {
    let failed = |what: &str, e: std::io::Error| {
        Error::Config(format!(
            "could not create the history {what} {}: {e}",
            escape_path(path)
        ))
    };
    let landing = crate::files::landing_file(path);
    let path = landing.as_deref().unwrap_or(path);
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        if !parent.exists() {
            let mut builder = std::fs::DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            builder
                .create(parent)
                .map_err(|e| failed("folder for", e))?;
        }
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(failed("file", e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_at_a_path() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("h.sqlite3");
        assert_eq!(look(&p).unwrap(), FileKind::Missing);
        std::fs::write(&p, "").unwrap();
        assert_eq!(look(&p).unwrap(), FileKind::Empty);
        std::fs::write(&p, "hello, this is a text file\n").unwrap();
        let e = look(&p).unwrap_err();
        assert_eq!(e.exit_code(), 3);
        assert!(e.to_string().contains("not a SQLite database"), "{e}");
        assert!(look(dir.path()).unwrap_err().to_string().contains("folder"));
    }

    #[test]
    fn a_header_says_whose_a_database_is_without_sqlite() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d.sqlite3");
        let c = rusqlite::Connection::open(&p).unwrap();
        c.execute_batch("PRAGMA user_version = 0; VACUUM;").unwrap();
        let blank = header(&p).unwrap();
        assert_eq!((blank.application_id, blank.has_tables), (0, false));
        c.execute_batch("CREATE TABLE t (x); PRAGMA user_version = 3; PRAGMA application_id = 7;")
            .unwrap();
        drop(c);
        let theirs = header(&p).unwrap();
        assert_eq!(
            (
                theirs.application_id,
                theirs.user_version,
                theirs.has_tables
            ),
            (7, 3, true)
        );
        assert!(!has_log(&p));
        std::fs::write(dir.path().join("short"), "SQLite").unwrap();
        assert!(header(&dir.path().join("short")).is_none());
    }

    #[cfg(unix)]
    #[test]
    fn created_for_the_user_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b/h.sqlite3");
        create(&p).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&p), 0o600);
        assert_eq!(mode(&dir.path().join("a/b")), 0o700);
        assert_eq!(mode(&dir.path().join("a")), 0o700);
    }
}
