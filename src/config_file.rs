//! The TOML config file: one table per profile (`[default]`, `[staging]`, …).
//!
//! Edits go through `toml_edit`, so a change to one key keeps every other key, profile and
//! comment as the user wrote them. Saving writes a temporary file beside the config with mode
//! 0600 and renames it over the old one, so a crash never leaves half a file and the API key
//! is never readable by others, not even for an instant. A config file that is a symbolic
//! link is saved where the link leads, and the link stays ([`crate::files`]).
//!
//! Writers take an advisory lock on a sibling lock file (`config.toml.lock`, mode 0600,
//! removed when the lock is let go) and re-read the file under it, so concurrent `config set`
//! runs on different profiles all land: without it each writer would rename its own copy
//! over the others' and keep only its change.
//! Readers need no lock: the rename makes every version they can see whole.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use toml_edit::{DocumentMut, Item, Table};

use crate::error::{Error, Result};
use crate::registry::TomlValue;

/// How long a writer waits for another one to finish before giving up. A write takes
/// milliseconds; only a stuck process holds the lock this long.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// Is `key` a provider's webhook secret? Those are set only from stdin: a value on the
/// command line would show in `ps` and the shell's history.
pub fn is_webhook_secret_key(key: &str) -> bool {
    crate::signature::Provider::from_config_key(key).is_some()
}

/// tunnelctl's folders on this platform: the config file's (`config_dir`) and the capture
/// history's (`data_dir`). `None` when the platform names no home folder.
pub fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "tunnelctl")
}

/// Where the config file lives when neither `--config` nor its variable says.
pub fn default_path() -> Option<PathBuf> {
    project_dirs().map(|d| d.config_dir().join("config.toml"))
}

/// A loaded config file.
pub struct ConfigFile {
    path: PathBuf,
    doc: DocumentMut,
}

impl ConfigFile {
    /// Reads the file at `path`; a missing file is an empty config.
    pub fn load(path: &Path) -> Result<Self> {
        let text = match fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => {
                return Err(Error::Config(format!(
                    "cannot read the config file {}: {e}",
                    path.display()
                )))
            }
        };
        let doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
            Error::Config(format!(
                "the config file {} is not valid TOML: {}",
                path.display(),
                e.to_string().trim_end()
            ))
        })?;
        let cfg = ConfigFile {
            path: path.to_path_buf(),
            doc,
        };
        cfg.warn_if_exposed();
        cfg.register_secrets();
        Ok(cfg)
    }

    /// The path of this file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The value of `key` in `profile`, if set to a string.
    pub fn get(&self, profile: &str, key: &str) -> Option<&str> {
        self.item(profile, key).and_then(Item::as_str)
    }

    /// The value of `key` in `profile` as people read it: a string's text, anything else as
    /// the file writes it (`true`, `5`, `[1, 2]`).
    pub fn written(&self, profile: &str, key: &str) -> Option<String> {
        let item = self.item(profile, key)?;
        Some(match item.as_str() {
            Some(text) => text.to_string(),
            None => match item {
                Item::Value(v) => v.clone().decorated("", "").to_string(),
                other => other.to_string().trim().to_string(),
            },
        })
    }

    /// The value of `key` in `profile`, with its TOML type; an error (exit 3, naming the
    /// file) when `profile` is in the file but is not a table, which no value could be read
    /// from.
    pub fn value(&self, profile: &str, key: &str) -> Result<Option<TomlValue>> {
        if self.doc.get(profile).is_some_and(|p| !p.is_table_like()) {
            let profile = crate::escape::escape(profile);
            return Err(Error::Config(format!(
                "the config file {}: profile '{profile}' is not a table of settings; write it as [{profile}] with its keys below",
                self.path.display(),
            )));
        }
        Ok(self.item(profile, key).map(|item| match item {
            Item::Value(toml_edit::Value::String(s)) => TomlValue::String(s.value().clone()),
            Item::Value(toml_edit::Value::Boolean(b)) => TomlValue::Boolean(*b.value()),
            Item::Value(toml_edit::Value::Integer(n)) => TomlValue::Integer(*n.value()),
            Item::Value(toml_edit::Value::Float(_)) => TomlValue::Other("a float"),
            Item::Value(toml_edit::Value::Datetime(_)) => TomlValue::Other("a date"),
            Item::Value(toml_edit::Value::Array(_)) | Item::ArrayOfTables(_) => {
                TomlValue::Other("an array")
            }
            Item::Value(toml_edit::Value::InlineTable(_)) | Item::Table(_) | Item::None => {
                TomlValue::Other("a table")
            }
        }))
    }

    /// The item `key` of `profile`, whatever its type.
    fn item(&self, profile: &str, key: &str) -> Option<&Item> {
        self.doc
            .get(profile)
            .and_then(Item::as_table_like)
            .and_then(|t| t.get(key))
    }

    /// Every key of `profile` that holds a string, in file order.
    pub fn entries(&self, profile: &str) -> Vec<(String, String)> {
        let Some(table) = self.doc.get(profile).and_then(Item::as_table_like) else {
            return Vec::new();
        };
        table
            .iter()
            .filter_map(|(k, v)| v.as_str().map(|s| (k.to_string(), s.to_string())))
            .collect()
    }

    /// The names of the profiles in the file.
    pub fn profiles(&self) -> Vec<String> {
        self.doc
            .iter()
            .filter(|(_, v)| v.is_table_like())
            .map(|(k, _)| k.to_string())
            .collect()
    }

    /// Sets `key` in `profile`, creating the profile if needed: in the type of its setting
    /// ([`crate::registry::ValueType::stored`]: `read_only = true`, `max_attempts = 5`), a string
    /// for a key no setting has.
    pub fn set(&mut self, profile: &str, key: &str, value: &str) -> Result<()> {
        let value = match crate::registry::profile_key(key).map(|s| s.kind.stored(value)) {
            Some(TomlValue::Boolean(b)) => toml_edit::value(b),
            Some(TomlValue::Integer(n)) => toml_edit::value(n),
            _ => toml_edit::value(value),
        };
        let entry = self.doc.entry(profile).or_insert(Item::Table(Table::new()));
        let Some(table) = entry.as_table_like_mut() else {
            return Err(Error::Config(format!(
                "'{profile}' in {} is not a table; fix the file by hand",
                self.path.display()
            )));
        };
        table.insert(key, value);
        Ok(())
    }

    /// Removes `key` from `profile`; says whether it was there.
    pub fn unset(&mut self, profile: &str, key: &str) -> bool {
        self.doc
            .get_mut(profile)
            .and_then(Item::as_table_like_mut)
            .and_then(|t| t.remove(key))
            .is_some()
    }

    /// Reads the file at `path` under the writers' lock, lets `edit` change it, and saves it
    /// (only if it changed) before the lock is released, so no concurrent writer's change is
    /// lost. Returns what `edit` returned.
    pub fn update<T>(path: &Path, edit: impl FnOnce(&mut ConfigFile) -> Result<T>) -> Result<T> {
        let _lock = WriteLock::acquire(path)?;
        let mut cfg = ConfigFile::load(path)?;
        let before = cfg.doc.to_string();
        let out = edit(&mut cfg)?;
        if cfg.doc.to_string() != before {
            cfg.save()?;
        }
        Ok(out)
    }

    /// Writes the file whole, with mode 0600, through [`crate::files`]. Use
    /// [`ConfigFile::update`] to change a file that others may be writing at the same time.
    pub fn save(&self) -> Result<()> {
        let fail = |what: &str, e: &dyn std::fmt::Display| {
            Error::Config(format!("cannot {what} {}: {e}", self.path.display()))
        };
        let dir = folder_of(&self.path);
        create_private_dir(&dir).map_err(|e| fail("create the folder of", &e))?;
        crate::files::write_private(
            &self.path,
            self.doc.to_string().as_bytes(),
            crate::files::Existing::Replace,
        )
        .map_err(|e| match e {
            crate::files::WriteError::Exists => fail("write", &"it is a folder"),
            crate::files::WriteError::Io(e) | crate::files::WriteError::Into(e) => {
                fail("write", &e)
            }
        })
    }

    /// Registers the secret values of every profile with [`crate::secrets`], so none of them
    /// is ever printed, whichever command runs and whatever text carries it.
    fn register_secrets(&self) {
        for profile in self.profiles() {
            for (key, value) in self.entries(&profile) {
                if crate::registry::is_secret_key(&key) {
                    crate::secrets::register_secret(&value);
                }
            }
        }
    }

    /// Warns (as ssh does) when a file that holds a key can be read by group or others; once
    /// a run, however many times the file is read (`config show` reads it as text and as
    /// settings; `sessions watch` once per profile).
    fn warn_if_exposed(&self) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            static WARNED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
            let holds_key = self.profiles().iter().any(|p| {
                self.entries(p)
                    .iter()
                    .any(|(k, _)| crate::registry::is_secret_key(k))
            });
            if !holds_key {
                return;
            }
            if let Ok(meta) = fs::metadata(&self.path) {
                let mode = meta.permissions().mode() & 0o777;
                let mut warned = WARNED
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if mode & 0o077 != 0 && !warned.contains(&self.path) {
                    warned.push(self.path.clone());
                    crate::output::Streams::system().err_line(&format!(
                        "warning: {} holds a secret (API key or webhook secret) and can be read by others (mode {:o}); run: chmod 600 {}",
                        self.path.display(),
                        mode,
                        self.path.display()
                    ));
                }
            }
        }
    }
}

/// The folder a config file lives in (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The lock file of a config file: `config.toml.lock` beside `config.toml`.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "config.toml".into());
    name.push(".lock");
    path.with_file_name(name)
}

/// An exclusive advisory lock (`flock` on Unix, `LockFileEx` on Windows, through `fs4`) on the
/// lock file of a config file, held until dropped. The lock file itself is never removed:
/// removing it would let two writers lock two different files.
struct WriteLock {
    file: fs::File,
    /// The lock file's name, removed when the lock is let go.
    path: PathBuf,
}

impl WriteLock {
    /// Takes the lock of the config file at `path`, kept beside the file a write to `path`
    /// replaces (where its links lead), so that writers through a link and through the file
    /// itself take the same lock.
    fn acquire(path: &Path) -> Result<WriteLock> {
        let lock = lock_path(&crate::files::landing_file(path).unwrap_or_else(|| path.into()));
        let fail = |what: &str, e: std::io::Error| {
            Error::Config(format!(
                "cannot {what} the lock file {}: {e}",
                lock.display()
            ))
        };
        create_private_dir(&folder_of(&lock)).map_err(|e| fail("create the folder of", e))?;
        let mut open = fs::OpenOptions::new();
        open.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            open.mode(0o600);
        }
        let start = Instant::now();
        let mut pause = Duration::from_millis(2);
        'open: loop {
            let file = open.open(&lock).map_err(|e| fail("open", e))?;
            loop {
                // Called through the trait: std's own `File::try_lock` is newer than our MSRV.
                match fs4::FileExt::try_lock(&file) {
                    Ok(()) if still_named(&file, &lock) => {
                        return Ok(WriteLock { file, path: lock })
                    }
                    // Its last holder removed it while we waited: the lock is now the file
                    // at that name, made anew.
                    Ok(()) => continue 'open,
                    Err(fs4::TryLockError::WouldBlock) if start.elapsed() < LOCK_WAIT => {
                        std::thread::sleep(pause);
                        pause = (pause * 2).min(Duration::from_millis(50));
                    }
                    Err(fs4::TryLockError::WouldBlock) => {
                        return Err(Error::Config(format!(
                            "the config file {} is being written by another process, which has held its lock ({}) for more than {} s; try again when it is done",
                            path.display(),
                            lock.display(),
                            LOCK_WAIT.as_secs()
                        )))
                    }
                    Err(fs4::TryLockError::Error(e)) => return Err(fail("lock", e)),
                }
            }
        }
    }
}

/// Is the open `file` still the one named `path` (not removed by the lock's last holder)?
fn still_named(file: &fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        // Removed while still held, so no empty lock file stays behind: a writer that waits
        // on it sees that it lost its name and takes the one made anew ([`still_named`]).
        // Elsewhere a file open in another process may not be removable: it stays.
        #[cfg(unix)]
        let _ = fs::remove_file(&self.path);
        // Closing the file releases the lock too; unlocking first says so explicitly.
        let _ = fs4::FileExt::unlock(&self.file);
    }
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.exists() {
        return Ok(());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
    }
    #[cfg(not(unix))]
    {
        fs::create_dir_all(dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_keeps_everything_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("config.toml");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(
            &path,
            "# mine\n[default]\napi_url = \"https://a\"\nother = 1\n\n[staging]\napi_key = \"k\"\n",
        )
        .unwrap();
        let mut cfg = ConfigFile::load(&path).unwrap();
        cfg.set("default", "api_key", "secret").unwrap();
        cfg.unset("staging", "api_key");
        cfg.save().unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# mine\n"));
        assert!(text.contains("other = 1"));
        assert!(text.contains("[staging]"));
        let again = ConfigFile::load(&path).unwrap();
        assert_eq!(again.get("default", "api_key"), Some("secret"));
        assert_eq!(again.get("default", "api_url"), Some("https://a"));
        assert_eq!(again.get("staging", "api_key"), None);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
    }

    #[test]
    fn concurrent_updates_all_land() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::thread::scope(|s| {
            for i in 0..8 {
                let path = &path;
                s.spawn(move || {
                    ConfigFile::update(path, |c| c.set(&format!("p{i}"), "rate", "1/1")).unwrap();
                });
            }
        });
        let cfg = ConfigFile::load(&path).unwrap();
        assert_eq!(cfg.profiles().len(), 8);
        assert!(lock_path(&path).ends_with("config.toml.lock"));
    }

    #[test]
    fn bad_toml_is_a_config_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        fs::write(&path, "[default\n").unwrap();
        let err = ConfigFile::load(&path).err().unwrap();
        assert_eq!(err.exit_code(), 3);
    }
}
