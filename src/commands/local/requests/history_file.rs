//! The history of this run, as the `local requests` verbs use it: where it is
//! (`history_location`: the file, or the team store when `history_url` is set), opening it for
//! reading (`open_for_reading`), and the source recorders keep captures as (`recording_source`);
//! the stores themselves are [`crate::history`].

use crate::context::Context;
use crate::error::Result;
use crate::history::{Location, Store};

/// Where this run's history is: the team store when `history_url` is set, else the file. Its
/// captures may hold the user's API key, redacted as in the agent's.
pub(crate) fn history_location(ctx: &Context) -> Result<Location> {
    ctx.know_api_key();
    let values = ctx.settings.values()?;
    Ok(match &values.history_url.value {
        Some(url) => Location::Team(url.clone()),
        None => Location::File(values.history_file.value.clone()),
    })
}

/// The source a recorder of this run keeps captures as: `--source`, else `history_source`,
/// else this host's name and the agent's URL.
pub(crate) fn recording_source(ctx: &Context, given: Option<&str>) -> Result<String> {
    let values = ctx.settings.values()?;
    Ok(match (given, &values.history_source.value) {
        (Some(s), _) => s.to_string(),
        (None, Some(s)) => s.clone(),
        (None, None) => crate::history::source::default_source(&values.agent_url.value),
    })
}

/// The history to read, if there is one (a note on a terminal when there is none yet).
pub(crate) async fn open_for_reading(ctx: &Context) -> Result<Option<Store>> {
    let location = history_location(ctx)?;
    let store = location.open_existing().await?;
    if store.is_none() && ctx.printer.tty {
        ctx.note(&format!(
            "No history at {} yet: keep captures with 'tunnelctl local requests record'",
            location.shown()
        ));
    }
    Ok(store)
}

/// `--source NAME` of the commands that read the history.
#[derive(Debug, clap::Args)]
pub struct SourceFlag {
    /// With --history: only captures kept from this source
    ///
    /// A source is the agent a capture came from: by default its recorder's host name and
    /// agent URL ('list --history' shows a SOURCE column when there are several).
    #[arg(long, value_name = "NAME", requires = "history", value_parser = crate::parse::parse_source_name)]
    pub source: Option<String>,
}
