//! `tunnelctl local requests copy --from STORE --to STORE [filters]`: kept captures copied
//! from one history to another (a laptop's SQLite file into the team store, or the team
//! store's last day into a file for a flight). Read in the order they were kept and written a
//! batch at a time (memory stays flat however many), each with its source; a capture the
//! destination already holds is left (answered since: updated), so copying twice keeps it
//! once. It says what it copied.

use std::path::PathBuf;

use clap::Args;

use super::filter_flags::{RequestFilters, TunnelFlag};
use super::history_file::recording_source;
use crate::capture::Exchange;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::history::store::KeptCount;
use crate::history::Location;

/// `copy --from STORE --to STORE`.
#[derive(Debug, Args)]
pub struct CopyArgs {
    /// The history to copy from: a SQLite file, or a postgres:// URL
    #[arg(long, value_name = "STORE")]
    from: String,
    /// The history to copy into (made when missing): a SQLite file, or a postgres:// URL
    #[arg(long, value_name = "STORE")]
    to: String,
    #[command(flatten)]
    filter: TunnelFlag,
    #[command(flatten)]
    only: RequestFilters,
    /// Only the captures kept from this source
    #[arg(long, value_name = "NAME", value_parser = crate::parse::parse_source_name)]
    source: Option<String>,
}

/// A STORE as given: a PostgreSQL URL, else a file's path. A URL that does not read is
/// refused without repeating it (it may hold a password).
fn store_of(flag: &str, text: &str) -> Result<Location> {
    if text.starts_with("postgres://") || text.starts_with("postgresql://") {
        let url = crate::parse::parse_history_url(text)
            .map_err(|e| Error::usage(format!("{flag}: {e}")))?;
        if let Some(p) = &url.password {
            crate::secrets::register_secret(p);
        }
        return Ok(Location::Team(url));
    }
    if text.contains("://") {
        return Err(Error::usage(format!(
            "{flag}: a store is a SQLite file or a postgres:// URL"
        )));
    }
    if text.is_empty() {
        return Err(Error::usage(format!("{flag}: give a file or a URL")));
    }
    Ok(Location::File(PathBuf::from(text)))
}

/// Captures written to the destination at once.
const BATCH: usize = 500;

/// `copy`: reads every kept capture of `--from` that the filters pick, oldest first, and
/// keeps each in `--to` as its source's; says how many were new there, answered since, and
/// already there (a result object with `--json`).
pub async fn run(ctx: &Context, args: CopyArgs) -> Result<()> {
    let from = store_of("--from", &args.from)?;
    let to = store_of("--to", &args.to)?;
    let query = args.only.query_signing(ctx)?;
    let tunnel = args.filter.tunnel.as_deref();
    // A capture kept before sources were (an older file) goes as this machine's.
    let here = recording_source(ctx, None)?;
    let Some(source_store) = from.open_existing().await? else {
        return Err(Error::Config(format!(
            "--from: there is no history at {} (nothing kept there yet)",
            from.shown()
        )));
    };
    let mut dest = to.open().await?;
    let (mut read, mut total) = (0usize, KeptCount::default());
    let mut after = 0;
    loop {
        let rows = source_store
            .kept_after(after, args.source.as_deref())
            .await?;
        let Some(last) = rows.last() else { break };
        after = last.row;
        let mut picked: Vec<(String, Exchange)> = Vec::new();
        for row in rows {
            let Ok(e) = Exchange::from_agent(row.json) else {
                continue;
            };
            if tunnel.is_some_and(|t| t != e.tunnel) || !query.matches(&e) {
                continue;
            }
            let source = match row.source.is_empty() {
                true => here.clone(),
                false => row.source,
            };
            picked.push((source, e));
        }
        read += picked.len();
        for part in picked.chunks(BATCH) {
            // One source at a time (a write keeps captures as one source's), newest first.
            let mut sources: Vec<&str> = part.iter().map(|(s, _)| s.as_str()).collect();
            sources.sort_unstable();
            sources.dedup();
            for source in sources {
                let of: Vec<&Exchange> = part
                    .iter()
                    .rev()
                    .filter(|(s, _)| s == source)
                    .map(|(_, e)| e)
                    .collect();
                let kept = dest.keep(&of, source).await?;
                total.new += kept.new;
                total.updated += kept.updated;
            }
        }
    }
    let already = read.saturating_sub(total.new + total.updated);
    let line = format!(
        "Copied {} new capture(s), {} answered since, from {} to {} ({already} already there)",
        total.new,
        total.updated,
        from.shown(),
        to.shown()
    );
    if ctx.printer.for_people() {
        ctx.note(&line);
        return Ok(());
    }
    ctx.printer.document(&serde_json::json!({
        "from": from.field().1,
        "to": to.field().1,
        "read": read,
        "new": total.new,
        "answered_since": total.updated,
        "already": already,
        "source": args.source.as_deref().map(escape),
    }))
}
