//! A file the user named for captured traffic (`requests save --out`, `requests export
//! --har`): written whole and private through [`crate::files`] (into it when it is a device
//! or FIFO), refused the same way by every command when something is already there and
//! `--force` was not given, and followed by a warning when it holds one of the user's own
//! secrets. `-` names stdout, where bytes that would act on a terminal go only with
//! `--force`, as with `get --raw`.
//!
//! The file keeps what was captured, secrets and all (it is a record of what came in, and
//! what `send` sends back), so a request that carried the user's API key or a webhook secret
//! (their own app calling the API through the tunnel, say) is written as it was; the warning
//! names the file, never the secret.

use std::path::Path;

use crate::capture::view;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape_path;
use crate::files::{self, Existing, WriteError};

/// The file's name as messages show it (`stdout` for `-`).
pub fn shown(path: &Path) -> String {
    if files::is_stdout(path) {
        return "stdout".into();
    }
    escape_path(path)
}

fn exists(path: &Path) -> Error {
    if files::written_into(path) {
        return Error::usage(format!(
            "{} exists and is not a regular file (a device, FIFO or socket); add --force to write into it",
            shown(path)
        ));
    }
    Error::usage(format!(
        "{} exists; add --force to overwrite it",
        shown(path)
    ))
}

/// Refuses at once a path where something stands (a file, a folder, a symlink even to
/// nowhere) unless `force`: so nothing is asked of the agent for a file that would be refused.
/// [`write()`] checks again when it writes.
pub fn check_free(path: &Path, force: bool) -> Result<()> {
    if files::is_stdout(path) {
        return Ok(());
    }
    // A folder is no file to write, --force or not (it was told to add --force, which then
    // failed on the folder).
    if path.is_dir() {
        return Err(a_folder(path));
    }
    if !force && files::occupied(path) {
        return Err(exists(path));
    }
    if let Some(folder) = missing_folder(path) {
        return Err(Error::usage(format!(
            "cannot write {}: the folder {} does not exist",
            shown(path),
            escape_path(&folder)
        )));
    }
    Ok(())
}

fn a_folder(path: &Path) -> Error {
    Error::usage(format!("{} is a folder; name a file", shown(path)))
}

/// The folder `path` would go in, when it does not exist (nor does a link lead there).
fn missing_folder(path: &Path) -> Option<std::path::PathBuf> {
    let at = files::landing_file(path)?;
    let folder = at.parent().filter(|f| !f.as_os_str().is_empty())?;
    (!folder.exists()).then(|| folder.to_path_buf())
}

/// Writes `bytes` to `path` whole and readable by the user alone, over what is there only
/// when `force` (into it when it is a device or FIFO); then warns on stderr when the bytes
/// hold one of the user's own secrets. `-` writes them to stdout.
pub fn write(ctx: &Context, path: &Path, bytes: &[u8], force: bool) -> Result<()> {
    if files::is_stdout(path) {
        return view::guarded(
            &ctx.printer,
            "the output",
            "name a file instead of '-', or pipe it",
            bytes,
            force,
        );
    }
    let existing = if force {
        Existing::Replace
    } else {
        Existing::Refuse
    };
    files::write_private(path, bytes, existing).map_err(|e| match e {
        WriteError::Exists if force => a_folder(path),
        WriteError::Exists => exists(path),
        WriteError::Io(e) => Error::Io(format!(
            "cannot write {}: {e}; nothing was written there",
            shown(path)
        )),
        WriteError::Into(e) => Error::Io(format!("cannot write into {}: {e}", shown(path))),
    })?;
    if holds_users_secret(ctx, bytes) {
        ctx.printer.streams.err_line(&format!(
            "warning: {} holds one of your own secrets (your API key or a webhook secret), as the captured traffic carried it; keep the file to yourself",
            shown(path)
        ));
    }
    Ok(())
}

/// Do `bytes` hold a secret of the user's? The API key is registered when the agent client
/// is made ([`Context::agent`], which `save` and `export` went through to fetch what they
/// write) and the environment's webhook secrets at start; reading the config file registers
/// the profile's secrets (a config file that cannot be read has none to find).
fn holds_users_secret(ctx: &Context, bytes: &[u8]) -> bool {
    let _ = ctx.settings.config();
    crate::secrets::holds_known(&String::from_utf8_lossy(bytes))
}
