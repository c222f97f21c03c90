//! `tunnelctl local requests clear`: deletes every captured request, the agent's or (with
//! `--history`) the kept ones, all of them or those older than `--before`.

use std::time::Duration;

use time::OffsetDateTime;

use super::history_file::history_location;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::history::Location;

/// `clear [--history [--before DURATION] [--source NAME]]`: asks first (`--yes` in a script).
pub async fn run(
    ctx: &Context,
    history: bool,
    before: Option<Duration>,
    source: Option<&str>,
) -> Result<()> {
    if history {
        return clear_history(ctx, before, source).await;
    }
    let client = ctx.agent()?;
    ctx.confirm("Delete every captured request?")?;
    client.clear().await?;
    ctx.note("Deleted every captured request");
    Ok(())
}

/// `clear --history [--before DURATION]`: removes kept captures, all of them or those
/// captured longer ago than DURATION; the question says how many. Says how many went (a
/// result object with `--json`).
async fn clear_history(
    ctx: &Context,
    before: Option<Duration>,
    source: Option<&str>,
) -> Result<()> {
    let location = history_location(ctx)?;
    let cut = match before {
        Some(d) => Some(
            OffsetDateTime::now_utc()
                - time::Duration::try_from(d).map_err(|_| {
                    Error::usage(format!(
                        "--before {} is too far back",
                        escape(&humantime::format_duration(d).to_string())
                    ))
                })?,
        ),
        None => None,
    };
    let shown = location.shown();
    let Some(mut store) = location.open_existing().await? else {
        ctx.note(&format!("No history at {shown}: nothing to delete"));
        return finish_clear(ctx, &location, 0);
    };
    let doomed = store.count_before(cut, source).await?;
    if doomed == 0 {
        ctx.note(&format!(
            "Deleted 0 kept capture(s) from {shown}: none to delete"
        ));
        return finish_clear(ctx, &location, 0);
    }
    let shown = match source {
        Some(s) => format!("{shown} from source '{}'", escape(s)),
        None => shown,
    };
    let question = match before {
        Some(d) => format!(
            "Delete the {doomed} capture(s) kept in {shown} that are older than {}?",
            humantime::format_duration(d)
        ),
        None => format!("Delete the {doomed} capture(s) kept in {shown}, all of them?"),
    };
    ctx.confirm(&question)?;
    let n = store.clear(cut, source).await?;
    ctx.note(&format!("Deleted {n} kept capture(s) from {shown}"));
    finish_clear(ctx, &location, n)
}

/// The result object of `clear --history`, for `--json`/`--jq`.
fn finish_clear(ctx: &Context, location: &Location, deleted: usize) -> Result<()> {
    if ctx.printer.for_people() {
        return Ok(());
    }
    let (key, place) = location.field();
    ctx.printer.document(&serde_json::json!({
        key: place,
        "deleted": deleted,
    }))
}
