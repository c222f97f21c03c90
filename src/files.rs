//! Every file `tunnelctl` writes for the user: written whole or not at all, readable by the
//! user alone, and never over something that is already there unless the user said so.
//!
//! What lands in these files (captured requests, HAR logs, the config file) often carries a
//! visitor's token, cookie or signature, or the user's own key. So a file is written to a
//! temporary file beside its target (same folder, so the rename cannot cross file systems),
//! synced, and only then renamed into place: a write that fails halfway (disk full, a file
//! size limit) leaves nothing at the target. The temporary file is created 0600 whatever the
//! umask, and the rename keeps that mode. An existing file, or a symlink (even a dangling
//! one), is refused unless the caller allows replacing it; replacing renames over the link
//! itself, never writing through it to wherever it points.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What to do when the target already exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Refuse, and leave it as it is (no `--force`).
    Refuse,
    /// Replace it (`--force`).
    Replace,
}

/// Why a file was not written.
#[derive(Debug)]
pub enum WriteError {
    /// The target exists (a file, a folder or a symlink) and may not be replaced.
    Exists,
    /// Writing failed; nothing was left at the target.
    Io(io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Exists => f.write_str("it exists"),
            WriteError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// Does anything stand at `path`: a file, a folder, or a symlink whether or not it leads
/// anywhere?
pub fn occupied(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// Writes `bytes` to `path` whole, readable by the user alone.
pub fn write_private(path: &Path, bytes: &[u8], existing: Existing) -> Result<(), WriteError> {
    if existing == Existing::Refuse && occupied(path) {
        return Err(WriteError::Exists);
    }
    let tmp = filled_temp(path, bytes).map_err(WriteError::Io)?;
    match existing {
        Existing::Replace => {
            if fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
                return Err(WriteError::Exists);
            }
            tmp.persist(path).map_err(|e| WriteError::Io(e.error))?;
        }
        // Not even a file made since the check above is replaced.
        Existing::Refuse => {
            tmp.persist_noclobber(path)
                .map_err(|e| match e.error.kind() {
                    io::ErrorKind::AlreadyExists => WriteError::Exists,
                    _ => WriteError::Io(e.error),
                })?;
        }
    }
    Ok(())
}

/// Writes `bytes` whole under the first free name of `stem.ext`, `stem-2.ext`, … in `dir`,
/// and returns the name it took.
pub fn write_private_new(dir: &Path, stem: &str, ext: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    for n in 1..1000 {
        let name = if n == 1 {
            format!("{stem}.{ext}")
        } else {
            format!("{stem}-{n}.{ext}")
        };
        let path = dir.join(name);
        match write_private(&path, bytes, Existing::Refuse) {
            Ok(()) => return Ok(path),
            Err(WriteError::Exists) => continue,
            Err(WriteError::Io(e)) => return Err(e),
        }
    }
    Err(io::Error::other("too many files of that name"))
}

/// A temporary file beside `path`, 0600, holding `bytes`, synced to disk.
fn filled_temp(path: &Path, bytes: &[u8]) -> io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".tunnelctl-").suffix(".part");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o600));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_there_and_replaces_only_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.http");
        write_private(&path, b"one", Existing::Refuse).unwrap();
        assert!(matches!(
            write_private(&path, b"two", Existing::Refuse),
            Err(WriteError::Exists)
        ));
        assert_eq!(fs::read(&path).unwrap(), b"one");
        write_private(&path, b"two", Existing::Replace).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        // Nothing but the target is left in the folder.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_refused_and_replaced_never_written_through() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "keep").unwrap();
        let link = dir.path().join("out.har");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        assert!(matches!(
            write_private(&link, b"x", Existing::Refuse),
            Err(WriteError::Exists)
        ));
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        assert!(matches!(
            write_private(&dangling, b"x", Existing::Refuse),
            Err(WriteError::Exists)
        ));
        write_private(&link, b"new", Existing::Replace).unwrap();
        assert_eq!(fs::read(&victim).unwrap(), b"keep");
        assert!(!fs::symlink_metadata(&link).unwrap().is_symlink());
        let mode = fs::metadata(&link).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    #[test]
    fn new_names_count_up() {
        let dir = tempfile::tempdir().unwrap();
        let a = write_private_new(dir.path(), "x", "http", b"1").unwrap();
        let b = write_private_new(dir.path(), "x", "http", b"2").unwrap();
        assert!(a.ends_with("x.http"));
        assert!(b.ends_with("x-2.http"));
    }
}
