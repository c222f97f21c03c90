//! `local requests export --har FILE`: captured exchanges, the agent's or the kept ones
//! (`--history`), with the filters of `list`, as a HAR 1.2 log.

use clap::Args;

use super::filter_flags::Chosen;
use super::history_file::open_for_reading;
use crate::capture::filter::Query;
use crate::capture::{self, Exchange};
use crate::commands::local::user_file;
use crate::context::Context;
use crate::error::{CommandResult, Error, Result};
use crate::history::store::StoredSelection;

/// `export --har FILE`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The file to write ('-' for stdout); a device or FIFO is written into (with
    /// --force), never replaced
    #[arg(long, value_name = "FILE")]
    har: std::path::PathBuf,
    #[command(flatten)]
    chosen: Chosen,
    /// Export the captures kept in the history
    ///
    /// Instead of the agent's.
    #[arg(long)]
    history: bool,
    /// Replace FILE if it exists (through a symlink, the file it leads to: the link
    /// stays; a device or FIFO is written into); with '--har -', write to a terminal even
    /// bytes that could act on it
    #[arg(long)]
    force: bool,
}

/// `export --har FILE`: the captures (the agent's, or the kept ones) as a HAR log, to a
/// file or stdout.
pub async fn export(ctx: &Context, args: ExportArgs) -> CommandResult {
    let har = args.har.as_path();
    user_file::check_free(har, args.force)?;
    let query = args.chosen.only.query_signing(ctx)?;
    let tunnel = args.chosen.filter.tunnel.as_deref();
    let all = if args.history {
        let source = args.chosen.from.source.clone();
        exported(ctx, args.chosen.limit, tunnel, source, query).await?
    } else {
        let client = ctx.agent()?;
        let asked = if query.is_empty() {
            args.chosen.limit
        } else {
            None
        };
        let mut all = Exchange::all_of(&client.requests_raw(asked, tunnel).await?, false)?;
        all.retain(|e| query.matches(e));
        all.truncate(args.chosen.limit.unwrap_or(usize::MAX));
        all
    };
    let doc = capture::har::document(&all);
    let text = serde_json::to_string_pretty(&doc)
        .map_err(|e| Error::Io(format!("could not encode the HAR file: {e}")))?;
    let shown = user_file::shown(har);
    // Its errors name the file and say why.
    user_file::write(ctx, har, (text + "\n").as_bytes(), args.force)?;
    ctx.note(&format!("Wrote {} exchange(s) to {shown}", all.len()));
    Ok(())
}

/// The kept captures `export --history` writes, newest first.
async fn exported(
    ctx: &Context,
    limit: Option<usize>,
    tunnel: Option<&str>,
    source: Option<String>,
    query: Query,
) -> Result<Vec<Exchange>> {
    let (texts, rest) = query.take_text();
    let mut all = Vec::new();
    if let Some(mut store) = open_for_reading(ctx).await? {
        let selection = StoredSelection {
            tunnel: tunnel.map(str::to_string),
            source,
            texts,
        };
        store
            .each(&selection, |json, _| {
                if let Ok(e) = Exchange::from_agent(json.to_string()) {
                    if rest.matches(&e) {
                        all.push(e);
                    }
                }
                Ok(limit.is_none_or(|n| all.len() < n))
            })
            .await?;
    }
    Ok(all)
}
