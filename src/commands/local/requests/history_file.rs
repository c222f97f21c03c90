//! The history file of this run, as the `local requests` verbs use it: where it is
//! (`history_path`), and opening it for reading (`open_for_reading`); the store itself is
//! [`crate::history`].

use crate::context::Context;
use crate::error::Result;
use crate::escape::escape_path;
use crate::history::Store;

/// The history file of this run. Its captures may hold the user's API key, redacted as in the
/// agent's.
pub(crate) fn history_path(ctx: &Context) -> Result<std::path::PathBuf> {
    ctx.know_api_key();
    Ok(ctx.settings.values()?.history_file.value.clone())
}

/// The history to read, if there is one (a note on a terminal when there is none yet).
pub(super) fn open_for_reading(ctx: &Context) -> Result<Option<Store>> {
    let path = &history_path(ctx)?;
    let store = Store::open_existing(path)?;
    if store.is_none() && ctx.printer.tty {
        ctx.note(&format!(
            "No history at {} yet: keep captures with 'tunnelctl local requests record'",
            escape_path(path)
        ));
    }
    Ok(store)
}
