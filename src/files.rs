//! Every file `tunnelctl` writes for the user: written whole or not at all, readable by the
//! user alone, and never over something that is already there unless the user said so.
//!
//! What lands in these files (captured requests, HAR logs, the config file) often carries a
//! visitor's token, cookie or signature, or the user's own key. So a file is written to a
//! temporary file beside its target (same folder, so the rename cannot cross file systems),
//! synced, and only then renamed into place: a write that fails halfway (disk full, a file
//! size limit) leaves nothing at the target. The temporary file is created 0600 whatever the
//! umask, and the rename keeps that mode. An existing file, or a symlink (even a dangling
//! one), is refused unless the caller allows replacing it.
//!
//! **A symbolic link is never replaced.** A write through a link goes where the link leads
//! (its chain followed, a relative link read from the link's own folder), as a shell's `>`
//! would: a regular file there is replaced atomically *there* (the temporary file made in the
//! target's folder), and the link stays. `/dev/stdout` is a link to `/proc/self/fd/1`, which
//! leads to a regular file when stdout is redirected to one: renaming over the link would
//! replace the machine's `/dev/stdout`, and renaming over the file it leads to would cut the
//! shell's redirect from it. So a link in `/proc` (a descriptor, not a name) ends the chain
//! and is written *into*, never renamed over.
//!
//! The rename is right for regular files only. What stands at the end of the chain and is
//! not one (a character or block device, a FIFO, a socket) is refused the same way, and when
//! replacing is allowed it is opened and written *into*: renaming over `/dev/null` would
//! replace the machine's `/dev/null` with a file. The node stays the node it was.
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
    /// Replace a file whole (where a link leads, never the link), or write into a device,
    /// FIFO or descriptor (`--force`, or a file a command keeps up to date by design).
    Replace,
}

/// Why a file was not written.
#[derive(Debug)]
pub enum WriteError {
    /// The target exists (a file, a folder, a device, a FIFO or a symlink) and may not be
    /// replaced; or, when replacing was allowed, it is a folder or a link leads to one.
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

/// Is what a write to `path` reaches (its links followed) a device, FIFO, socket or
/// descriptor, which a write allowed to replace goes into rather than replacing?
pub fn written_into(path: &Path) -> bool {
    matches!(landing(path), Ok(Landing::Into { .. }))
}

/// The regular file (or the new one) that a write to `path` replaces: where its chain of
/// links ends, or `path` itself. `None` when the write goes into a node instead, or lands on
/// a folder.
pub fn landing_file(path: &Path) -> Option<PathBuf> {
    match landing(path) {
        Ok(Landing::New(at) | Landing::File(at)) => Some(at),
        _ => None,
    }
}

/// Where a write to a path lands, its links followed.
#[derive(Debug, PartialEq, Eq)]
enum Landing {
    /// Nothing at the end of the chain: a new file, made there.
    New(PathBuf),
    /// A folder.
    Folder,
    /// A regular file: replaced there, whole.
    File(PathBuf),
    /// A device, FIFO or socket, or a descriptor's link in `/proc` (`descriptor`): written
    /// into.
    Into { at: PathBuf, descriptor: bool },
}

/// How many links a chain may hold (Linux's own limit).
const MAX_LINKS: usize = 40;

/// Follows the chain of links from `path` to what stands at its end, a relative link read
/// from the folder holding it; a link in `/proc` ends the chain where it stands.
fn landing(path: &Path) -> io::Result<Landing> {
    let mut at = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        let meta = match fs::symlink_metadata(&at) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Landing::New(at)),
            Err(e) => return Err(e),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            if descriptor::is_descriptor_link(&at) {
                return Ok(Landing::Into {
                    at,
                    descriptor: true,
                });
            }
            at = followed(&at)?;
            continue;
        }
        return Ok(if kind.is_dir() {
            Landing::Folder
        } else if kind.is_file() {
            Landing::File(at)
        } else {
            Landing::Into {
                at,
                descriptor: false,
            }
        });
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Where the link at `at` leads: a relative link is read from the folder holding it.
fn followed(at: &Path) -> io::Result<PathBuf> {
    let to = fs::read_link(at)?;
    Ok(match at.parent() {
        Some(folder) if to.is_relative() => folder.join(to),
        _ => to,
    })
}

/// Where the chain of links from `path` ends, each followed as a write follows it (a
/// relative link read from its own folder): `path` itself when it is no link. What is at the
/// end need not exist.
pub fn chain_end(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => at = followed(&at)?,
            Ok(_) => return Ok(at),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(at),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Writes `bytes` to `path` whole, readable by the user alone; through its links to where
/// they lead, and into it when that is a device, FIFO or descriptor and `existing` allows it.
pub fn write_private(path: &Path, bytes: &[u8], existing: Existing) -> Result<(), WriteError> {
    if existing == Existing::Refuse && occupied(path) {
        return Err(WriteError::Exists);
    }
    match (landing(path).map_err(WriteError::Io)?, existing) {
        (Landing::New(at), _) => {
            let tmp = filled_temp(&at, bytes).map_err(WriteError::Io)?;
            match existing {
                // Where a dangling link leads, or made since the look above: a regular file
                // there is replaced all the same.
                Existing::Replace => tmp.persist(&at).map_err(|e| WriteError::Io(e.error))?,
                // Not even a file made since the check above is replaced.
                Existing::Refuse => {
                    tmp.persist_noclobber(&at)
                        .map_err(|e| match e.error.kind() {
                            io::ErrorKind::AlreadyExists => WriteError::Exists,
                            _ => WriteError::Io(e.error),
                        })?
                }
            };
            Ok(())
        }
        (Landing::Folder, _) | (_, Existing::Refuse) => Err(WriteError::Exists),
        (Landing::File(at), Existing::Replace) => {
            let tmp = filled_temp(&at, bytes).map_err(WriteError::Io)?;
            tmp.persist(&at).map_err(|e| WriteError::Io(e.error))?;
            Ok(())
        }
        (Landing::Into { at, descriptor }, Existing::Replace) => {
            write_into(&at, descriptor, bytes).map_err(WriteError::Into)
        }
    }
}

/// Opens the device, FIFO or descriptor at `at` and writes `bytes` into it, as a shell's `>`
/// would, but never truncating and never creating: a FIFO blocks until a reader opens it.
fn write_into(at: &Path, descriptor: bool, bytes: &[u8]) -> io::Result<()> {
    let mut node = if descriptor {
        // What the descriptor is (a redirect's regular file, a pipe, a socket) is written
        // into as it stands.
        descriptor::open(at)?
    } else {
        let node = OpenOptions::new().write(true).open(at)?;
        // Swapped for a regular file since it was looked at: it is not written through the
        // open handle (nothing has been yet), since a file is only ever replaced whole.
        if node.metadata()?.is_file() {
            return Err(io::Error::other(
                "it became a regular file while being opened; nothing was written, run again",
            ));
        }
        node
    };
    node.write_all(bytes)?;
    node.flush()
}

/// The links in `/proc` that stand for a process's open descriptors (`/proc/self/fd/1`, which
/// `/dev/stdout` leads to): not names of files, so never followed nor renamed over.
#[cfg(target_os = "linux")]
mod descriptor {
    use std::fs::{self, File, OpenOptions};
    use std::io;
    use std::os::fd::FromRawFd;
    use std::path::Path;

    /// Is the link at `path` in a `/proc` file system?
    pub fn is_descriptor_link(path: &Path) -> bool {
        use std::os::unix::ffi::OsStrExt;
        let folder = match path.parent() {
            Some(f) if !f.as_os_str().is_empty() => f,
            _ => Path::new("."),
        };
        let Ok(c) = std::ffi::CString::new(folder.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY: a valid C string and a zeroed statfs for the call to fill.
        unsafe {
            let mut fs: libc::statfs = std::mem::zeroed();
            libc::statfs(c.as_ptr(), &mut fs) == 0 && fs.f_type == libc::PROC_SUPER_MAGIC
        }
    }

    /// The descriptor behind the link at `path`: one of this process's own is duplicated, so
    /// the write goes on where the descriptor stands (after what was written to it, appended
    /// when it was opened to append, and into a socket, which cannot be opened by name);
    /// another is opened by its link, to append.
    pub fn open(path: &Path) -> io::Result<File> {
        if let Some(fd) = own_descriptor(path) {
            // SAFETY: fcntl on any number is safe; it fails with EBADF for a closed one.
            let copy = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
            if copy < 0 {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: `copy` is a descriptor just made, owned by nothing else.
            return Ok(unsafe { File::from_raw_fd(copy) });
        }
        OpenOptions::new().append(true).open(path)
    }

    /// The number of the descriptor at `path` when it is one of this process's own
    /// (`/proc/self/fd/N`, `/proc/PID/fd/N` with our PID, `/proc/thread-self/fd/N`).
    fn own_descriptor(path: &Path) -> Option<i32> {
        let fd: i32 = path.file_name()?.to_str()?.parse().ok()?;
        let folder = fs::canonicalize(path.parent()?).ok()?;
        ["/proc/self/fd", "/proc/thread-self/fd"]
            .iter()
            .any(|ours| fs::canonicalize(ours).is_ok_and(|o| o == folder))
            .then_some(fd)
    }
}

/// Elsewhere no link stands for a descriptor (`/dev/fd/N` is a device, written into).
#[cfg(not(target_os = "linux"))]
mod descriptor {
    use std::fs::File;
    use std::io;
    use std::path::Path;

    pub fn is_descriptor_link(_path: &Path) -> bool {
        false
    }

    pub fn open(path: &Path) -> io::Result<File> {
        std::fs::OpenOptions::new().append(true).open(path)
    }
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
    fn is_link(path: &Path) -> bool {
        fs::symlink_metadata(path).unwrap().is_symlink()
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_refused_or_written_through_never_replaced() {
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
        assert_eq!(fs::read(&victim).unwrap(), b"keep");
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        assert!(matches!(
            write_private(&dangling, b"x", Existing::Refuse),
            Err(WriteError::Exists)
        ));
        write_private(&link, b"new", Existing::Replace).unwrap();
        assert!(is_link(&link), "the link stays");
        assert_eq!(fs::read(&victim).unwrap(), b"new");
        let mode = fs::metadata(&victim).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        // A dangling link is written through too: the file is made where it leads.
        write_private(&dangling, b"made", Existing::Replace).unwrap();
        assert!(is_link(&dangling));
        assert_eq!(fs::read(dir.path().join("nowhere")).unwrap(), b"made");
        // Nothing but the files and links is left in the folder.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 4);
    }

    #[cfg(unix)]
    #[test]
    fn a_chain_of_relative_links_is_followed_from_each_links_folder() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        fs::create_dir_all(a.join("deep")).unwrap();
        fs::create_dir(&b).unwrap();
        let target = a.join("deep/real.toml");
        fs::write(&target, "old").unwrap();
        // b/first -> ../a/hop, a/hop -> deep/real.toml (relative to a, not to b).
        std::os::unix::fs::symlink("../a/hop", b.join("first")).unwrap();
        std::os::unix::fs::symlink("deep/real.toml", a.join("hop")).unwrap();
        write_private(&b.join("first"), b"new", Existing::Replace).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert!(is_link(&b.join("first")) && is_link(&a.join("hop")));
        assert_eq!(
            landing_file(&b.join("first")),
            Some(b.join("../a/deep/real.toml"))
        );
        // The temporary file was made (and renamed) in the target's folder: nothing else
        // stands beside either link.
        assert_eq!(fs::read_dir(&b).unwrap().count(), 1);
        assert_eq!(fs::read_dir(&a).unwrap().count(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_folder_or_a_loop_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let to_folder = dir.path().join("folder");
        std::os::unix::fs::symlink(dir.path(), &to_folder).unwrap();
        assert!(matches!(
            write_private(&to_folder, b"x", Existing::Replace),
            Err(WriteError::Exists)
        ));
        assert!(is_link(&to_folder));
        let looped = dir.path().join("loop");
        std::os::unix::fs::symlink("loop", &looped).unwrap();
        assert!(matches!(
            write_private(&looped, b"x", Existing::Replace),
            Err(WriteError::Io(_))
        ));
        assert!(is_link(&looped));
    }

    /// `/dev/stdout`'s shape, made in a temporary folder: a link to `/proc/self/fd/N`, N a
    /// file this test opened. The bytes go into that file through the descriptor, after what
    /// was written to it already; the link and the file stay what they were.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_link_to_a_descriptor_is_written_into() {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let redirect = dir.path().join("redirect.txt");
        let mut file = fs::File::create(&redirect).unwrap();
        file.write_all(b"before ").unwrap();
        let inode = fs::metadata(&redirect).unwrap().ino();
        let link = dir.path().join("mystdout");
        std::os::unix::fs::symlink(format!("/proc/self/fd/{}", file.as_raw_fd()), &link).unwrap();
        assert!(written_into(&link));
        assert_eq!(landing_file(&link), None);
        write_private(&link, b"through", Existing::Replace).unwrap();
        assert_eq!(fs::read(&redirect).unwrap(), b"before through");
        assert_eq!(
            fs::metadata(&redirect).unwrap().ino(),
            inode,
            "not replaced"
        );
        assert!(is_link(&link), "the link stays");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
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

    /// The inspector's `s` and `c` take a free name: a link standing at one is passed over,
    /// never written through nor replaced.
    #[cfg(unix)]
    #[test]
    fn a_new_name_passes_over_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "keep").unwrap();
        std::os::unix::fs::symlink(&victim, dir.path().join("x.http")).unwrap();
        let made = write_private_new(dir.path(), "x", "http", b"new").unwrap();
        assert!(made.ends_with("x-2.http"));
        assert_eq!(fs::read(&victim).unwrap(), b"keep");
        assert!(is_link(&dir.path().join("x.http")));
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
