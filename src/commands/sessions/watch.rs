//! `tunnelctl sessions watch`: hands the live screen ([`crate::fleet::watch`]) its client and
//! settled choices, then prints what was done on stderr and exits 5 when an action failed.

use std::time::Duration;

use crate::context::Context;
use crate::error::{Error, Result};
use crate::fleet::select::Selector;
use crate::fleet::watch::watch_loop::{self, WatchLaunch};

/// The shortest refresh interval `--every` takes.
pub const MIN_EVERY: Duration = Duration::from_secs(1);

/// `--every`: a duration of at least a second.
pub fn parse_every(s: &str) -> std::result::Result<Duration, String> {
    let d = crate::parse::parse_seconds(s)?;
    if d < MIN_EVERY {
        return Err(format!(
            "'{s}' is less than 1s: refresh at most once a second"
        ));
    }
    Ok(d)
}

/// Runs the screen; on quit, the summary of what it did.
pub async fn watch(ctx: &Context, selector: Selector, every: Duration) -> Result<()> {
    // Off a terminal nothing is read or sent, whatever else is wrong.
    watch_loop::check_terminal()?;
    let read_only = super::read_only(ctx)?.is_some();
    let client = ctx.management()?;
    let api = ctx
        .settings
        .values()?
        .api_url
        .value
        .clone()
        .unwrap_or_default();
    let state = watch_loop::run(WatchLaunch {
        client,
        selector,
        read_only,
        title: format!(
            "sessions watch · {}",
            crate::escape::escape(api.split_once("://").map_or(api.as_str(), |(_, host)| host))
        ),
        color: ctx.printer.color,
        every,
    })
    .await?;
    let tally = &state.tally;
    if let Some(line) = tally.summary() {
        ctx.printer.streams.err_line(&line);
    }
    if !tally.failed.is_empty() {
        return Err(Error::Partial {
            failed: tally.failed.len(),
            total: tally.restarted + tally.stopped + tally.updated + tally.failed.len(),
            summarized: true,
        });
    }
    Ok(())
}
