//! The history file on disk: its default place, and what is at a path before SQLite opens it.
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

/// The default history file: `history.sqlite3` in the platform's data folder.
pub fn default_path() -> Option<PathBuf> {
    crate::config_file::project_dirs().map(|d| d.data_dir().join("history.sqlite3"))
}

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
