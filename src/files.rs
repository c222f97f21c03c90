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
//!
//! The rename is right for regular files only. What stands at the path and is not one (a
//! character or block device, a FIFO, a socket, or a symlink leading to one, such as
//! `/dev/stdout`) is refused the same way, and when replacing is allowed it is opened and
//! written *into*, as a shell's `>` would: renaming over `/dev/null` would replace the
//! machine's `/dev/null` with a file. The node stays the node it was.
//!
//! Errors name no temporary file: the caller names the path the user gave.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What to do when the target already exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Refuse, and leave it as it is (a file named for a new one, without `--force`).
    Refuse,
    /// Replace a file whole, or write into a device or FIFO (`--force`, or a file a command
    /// keeps up to date by design).
    Replace,
}

/// Why a file was not written.
#[derive(Debug)]
pub enum WriteError {
    /// The target exists (a file, a folder, a device, a FIFO or a symlink) and may not be
    /// replaced; or, when replacing was allowed, it is a folder.
    Exists,
    /// Writing failed; nothing was left at the target.
    Io(io::Error),
    /// Writing into a device or FIFO failed; what went in before the failure stays there.
    Into(io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Exists => f.write_str("it exists"),
            WriteError::Io(e) | WriteError::Into(e) => write!(f, "{e}"),
        }
    }
}

/// The path the user names for stdout instead of a file.
pub const STDOUT: &str = "-";

/// Does `path` name stdout (`-`) rather than a file?
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == STDOUT
}

/// Does anything stand at `path`: a file, a folder, or a symlink whether or not it leads
/// anywhere?
pub fn occupied(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// Is what stands at `path` a device, FIFO or socket (or a symlink to one), which a write
/// allowed to replace goes into rather than replacing?
pub fn written_into(path: &Path) -> bool {
    standing(path) == Standing::Node
}

/// What stands at a path, as far as writing to it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Standing {
    /// Nothing: the file is new.
    Nothing,
    /// A folder (not a symlink to one).
    Folder,
    /// A regular file, or a symlink that leads to one, to a folder or nowhere: renamed over.
    File,
    /// A device, FIFO or socket, or a symlink that leads to one: written into.
    Node,
}

fn standing(path: &Path) -> Standing {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return Standing::Nothing;
    };
    let kind = meta.file_type();
    if kind.is_dir() {
        return Standing::Folder;
    }
    if kind.is_symlink() {
        // Where the link leads decides: only a node behind it is written through.
        return match fs::metadata(path) {
            Ok(to) if !to.is_file() && !to.is_dir() => Standing::Node,
            _ => Standing::File,
        };
    }
    if kind.is_file() {
        Standing::File
    } else {
        Standing::Node
    }
}

/// Writes `bytes` to `path` whole, readable by the user alone; into it when it is a device
/// or FIFO and `existing` allows it.
pub fn write_private(path: &Path, bytes: &[u8], existing: Existing) -> Result<(), WriteError> {
    match (standing(path), existing) {
        (Standing::Nothing, _) => {}
        (Standing::Folder, _) | (_, Existing::Refuse) => return Err(WriteError::Exists),
        (Standing::Node, Existing::Replace) => {
            return write_into(path, bytes).map_err(WriteError::Into)
        }
        (Standing::File, Existing::Replace) => {}
    }
    let tmp = filled_temp(path, bytes).map_err(WriteError::Io)?;
    match existing {
        Existing::Replace => {
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

/// Opens the device or FIFO at `path` (through a symlink) and writes `bytes` into it, as a
/// shell's `>` would, but never truncating and never creating: a FIFO blocks until a reader
/// opens it.
fn write_into(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut node = OpenOptions::new().write(true).open(path)?;
    // Swapped for a regular file since it was looked at: it is not written through the
    // open handle (nothing has been yet), since a file is only ever replaced whole.
    if node.metadata()?.is_file() {
        return Err(io::Error::other(
            "it became a regular file while being opened; nothing was written, run again",
        ));
    }
    node.write_all(bytes)?;
    node.flush()
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
            Err(WriteError::Io(e) | WriteError::Into(e)) => return Err(e),
        }
    }
    Err(io::Error::other("too many files of that name"))
}

/// A temporary file beside `path`, 0600, holding `bytes`, synced to disk. Its errors carry
/// no path (tempfile's own would name the temporary file, which the user never named).
fn filled_temp(path: &Path, bytes: &[u8]) -> io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".tunnelctl-")
        .suffix(".part")
        .make_in(dir, |name| {
            let mut open = OpenOptions::new();
            open.read(true).write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                open.mode(0o600);
            }
            open.open(name)
        })?;
    // Through the file itself: the temporary file's own writer names it in its errors.
    let file = tmp.as_file_mut();
    file.write_all(bytes)?;
    file.sync_all()?;
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

    /// A FIFO made in `dir` (no root needed).
    #[cfg(unix)]
    fn fifo_in(dir: &Path) -> PathBuf {
        use std::os::unix::ffi::OsStrExt;
        let path = dir.join("pipe");
        let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid C string; mkfifo touches nothing else.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
        path
    }

    #[cfg(unix)]
    fn is_fifo(path: &Path) -> bool {
        use std::os::unix::fs::FileTypeExt;
        fs::symlink_metadata(path).unwrap().file_type().is_fifo()
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_or_written_into_never_replaced() {
        use std::io::Read;
        let dir = tempfile::tempdir().unwrap();
        let fifo = fifo_in(dir.path());
        assert!(matches!(
            write_private(&fifo, b"x", Existing::Refuse),
            Err(WriteError::Exists)
        ));
        // The reading end opened first, without waiting for a writer: the write then finds
        // a reader, and what it wrote (less than a pipe holds) waits here to be read.
        let mut reader = {
            use std::os::unix::fs::OpenOptionsExt;
            fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&fifo)
                .unwrap()
        };
        write_private(&fifo, b"through the pipe", Existing::Replace).unwrap();
        let mut got = Vec::new();
        reader.read_to_end(&mut got).unwrap();
        assert_eq!(got, b"through the pipe");
        assert!(is_fifo(&fifo), "still a FIFO");
        // Nothing else was made beside it.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_to_a_device_is_written_through_and_its_failure_reported() {
        let dir = tempfile::tempdir().unwrap();
        let null = dir.path().join("null");
        std::os::unix::fs::symlink("/dev/null", &null).unwrap();
        write_private(&null, b"gone", Existing::Replace).unwrap();
        assert!(
            fs::symlink_metadata(&null).unwrap().is_symlink(),
            "the link stays"
        );
        if !Path::new("/dev/full").exists() {
            assert!(
                std::env::var_os("CI").is_none(),
                "no /dev/full to write into"
            );
            eprintln!("SKIPPED: no /dev/full");
            return;
        }
        let full = dir.path().join("full");
        std::os::unix::fs::symlink("/dev/full", &full).unwrap();
        match write_private(&full, b"more", Existing::Replace) {
            Err(WriteError::Into(e)) => assert_eq!(e.raw_os_error(), Some(libc::ENOSPC)),
            other => panic!("a full device is a failure: {other:?}"),
        }
        assert!(fs::symlink_metadata(&full).unwrap().is_symlink());
    }

    #[test]
    fn a_missing_folder_is_reported_without_the_temporary_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no-such-dir").join("x.har");
        let Err(WriteError::Io(e)) = write_private(&path, b"x", Existing::Refuse) else {
            panic!("a missing folder is an error");
        };
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(!e.to_string().contains(".part"), "{e}");
    }

    #[test]
    fn a_dash_is_stdout() {
        assert!(is_stdout(Path::new("-")));
        assert!(!is_stdout(Path::new("./-")));
        assert!(!is_stdout(Path::new("-.har")));
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
