//! The capture history's commands: `local requests record`, and the `--history` of `list`,
//! `export` and `clear` ([`crate::history`] holds the store and the recorder).

use std::time::Duration;

use clap::Args;
use time::OffsetDateTime;

use super::listing::CaptureRows;
use crate::agent;
use crate::capture::filter::Query;
use crate::capture::Exchange;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::escape::escape_path;
use crate::history::recorder::{Limits, PollWindow, Recorder};
use crate::history::store::StoredSelection;
use crate::history::Store;

/// How often `record` asks the agent for new captures.
const EVERY: Duration = Duration::from_millis(250);

/// `local requests record`.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// Keep what the agent holds now, then exit
    #[arg(long)]
    once: bool,
    /// Only requests captured on this tunnel
    #[arg(long, value_name = "NAME", add = clap_complete::ArgValueCandidates::new(crate::complete::tunnel_names))]
    tunnel: Option<String>,
    /// Drop the oldest kept captures beyond this size of the history (e.g. 500MiB, 2GB)
    /// [default: history_max_size, else 1GiB]
    #[arg(long, value_name = "SIZE", value_parser = crate::parse::parse_size, allow_hyphen_values = true)]
    max_size: Option<u64>,
    /// Drop kept captures older than this (e.g. 7d, 12h) [default: history_max_age, else 30d]
    #[arg(long, value_name = "DURATION", value_parser = crate::parse::parse_lookback, allow_hyphen_values = true)]
    max_age: Option<Duration>,
}

/// Opens the history for writing, bounded by `max_size`/`max_age` when given, else by the
/// settings (`history_max_size`, `history_max_age`).
pub fn recorder(
    ctx: &Context,
    max_size: Option<u64>,
    max_age: Option<Duration>,
) -> Result<Recorder> {
    let values = ctx.settings.values()?;
    let limits = Limits {
        max_size: max_size.unwrap_or(values.history_max_size.value),
        max_age: max_age.unwrap_or(values.history_max_age.value),
    };
    Recorder::new(Store::open(&values.history_file.value)?, limits)
}

/// `record`: keeps every capture the agent shows until Ctrl-C or SIGTERM (or once, with
/// `--once`), then says what it kept. A stop signal ends it with exit 0: every poll's
/// captures are written in one transaction as they come, so nothing is left to write.
pub async fn record(ctx: &Context, args: RecordArgs) -> Result<()> {
    crate::heap::hold_mmap_threshold();
    let client = ctx.agent()?;
    let mut rec = recorder(ctx, args.max_size, args.max_age)?;
    let file = escape_path(rec.store().path());
    let _graceful = crate::interrupt::graceful_saying(
        "what was kept is already written; Ctrl-C or SIGTERM again to stop at once.",
    );
    let spinner = ctx.printer.spinner(&format!("Recording into {file}"));
    let mut plan = PollWindow::default();
    let mut unreachable_said = false;
    loop {
        match poll(&client, &mut rec, &mut plan, args.tunnel.as_deref()).await {
            Ok(()) => unreachable_said = false,
            // A recorder outlives an agent's restart: it waits for it to come back.
            Err(e @ Error::Unreachable(_)) if !args.once => {
                if !unreachable_said {
                    spinner.above(|| ctx.note(&format!("{}; trying again", first_line(&e))));
                    unreachable_said = true;
                }
            }
            Err(e) => return Err(e),
        }
        spinner.update(&format!(
            "Recording into {file}: {} kept, {} answered later; Ctrl-C to stop",
            rec.total.new, rec.total.updated
        ));
        if args.once || stopping(EVERY).await {
            break;
        }
    }
    drop(spinner);
    let all = rec.store().count()?;
    let dropped = match rec.dropped {
        0 => String::new(),
        n => format!("; {n} older dropped by the bounds"),
    };
    ctx.note(&format!(
        "Kept {} new capture(s), {} answered since, in {file} ({all} in all{dropped})",
        rec.total.new, rec.total.updated
    ));
    Ok(())
}

/// Waits `d`, or less when a stop was asked for; says whether it was.
async fn stopping(d: Duration) -> bool {
    let step = Duration::from_millis(25);
    let mut waited = Duration::ZERO;
    while waited < d {
        if crate::interrupt::requested() {
            return true;
        }
        tokio::time::sleep(step).await;
        waited += step;
    }
    crate::interrupt::requested()
}

fn first_line(e: &Error) -> String {
    e.to_string().lines().next().unwrap_or("").to_string()
}

/// One poll: the newest captures kept, then a few pending ones beyond them ([`recheck_pending`]).
async fn poll(
    client: &agent::AgentClient,
    rec: &mut Recorder,
    plan: &mut PollWindow,
    tunnel: Option<&str>,
) -> Result<()> {
    let asked = plan.next_limit();
    let batch = Exchange::all_of(&client.requests_raw(asked, tunnel).await?, true)?;
    let kept = rec.keep(&batch)?;
    plan.took(asked, batch.len(), kept.new + kept.updated);
    recheck_pending(client, rec, &batch).await
}

/// Asks the agent by ID for a few captures kept while pending that `batch` (the newest) did
/// not bring back, and keeps those answered since; one the agent no longer has is let go (it
/// stays kept as it was). An agent that fails to answer is asked again on a later poll: the
/// list it answers is what decides whether it is up. For every follower that records:
/// `record`, `tail --record`.
pub async fn recheck_pending(
    client: &agent::AgentClient,
    rec: &mut Recorder,
    batch: &[Exchange],
) -> Result<()> {
    for id in rec.pending_beyond(batch) {
        match client.request(&id).await {
            Ok(text) => match Exchange::from_agent(text) {
                Ok(e) if e.id == id => {
                    rec.keep(&[e])?;
                }
                _ => rec.forget(&id),
            },
            Err(Error::Api(f)) if f.status == 404 => rec.forget(&id),
            Err(_) => break,
        }
    }
    Ok(())
}

/// `list --history`: the kept captures, newest first, through the same rows as the agent's.
pub fn list(ctx: &Context, limit: Option<usize>, tunnel: Option<&str>, query: Query) -> Result<()> {
    let (texts, rest) = query.take_text();
    let mut rows = CaptureRows::start(ctx, &rest, limit)?;
    if let Some(store) = open_for_reading(ctx)? {
        let selection = StoredSelection {
            tunnel: tunnel.map(str::to_string),
            texts,
        };
        store.each(&selection, |json| rows.push(json))?;
    }
    rows.finish(ctx)
}

/// The history to read, if there is one (a note on a terminal when there is none yet).
fn open_for_reading(ctx: &Context) -> Result<Option<Store>> {
    let path = &ctx.settings.values()?.history_file.value;
    let store = Store::open_existing(path)?;
    if store.is_none() && ctx.printer.tty {
        ctx.note(&format!(
            "No history at {} yet: keep captures with 'tunnelctl local requests record'",
            escape_path(path)
        ));
    }
    Ok(store)
}

/// The kept captures `export --history` writes, newest first.
pub fn exported(
    ctx: &Context,
    limit: Option<usize>,
    tunnel: Option<&str>,
    query: Query,
) -> Result<Vec<Exchange>> {
    let (texts, rest) = query.take_text();
    let mut all = Vec::new();
    if let Some(store) = open_for_reading(ctx)? {
        let selection = StoredSelection {
            tunnel: tunnel.map(str::to_string),
            texts,
        };
        store.each(&selection, |json| {
            if let Ok(e) = Exchange::from_agent(json.to_string()) {
                if rest.matches(&e) {
                    all.push(e);
                }
            }
            Ok(limit.is_none_or(|n| all.len() < n))
        })?;
    }
    Ok(all)
}

/// `clear --history [--before DURATION]`: removes kept captures, all of them or those
/// captured longer ago than DURATION.
pub fn clear(ctx: &Context, before: Option<Duration>) -> Result<()> {
    let path = &ctx.settings.values()?.history_file.value;
    let question = match before {
        Some(d) => format!(
            "Delete the captures kept in {} that are older than {}?",
            escape_path(path),
            humantime::format_duration(d)
        ),
        None => format!("Delete every capture kept in {}?", escape_path(path)),
    };
    ctx.confirm(&question)?;
    let Some(mut store) = Store::open_existing(path)? else {
        ctx.note(&format!(
            "No history at {}: nothing to delete",
            escape_path(path)
        ));
        return Ok(());
    };
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
    let n = store.clear(cut)?;
    ctx.note(&format!(
        "Deleted {n} kept capture(s) from {}",
        escape_path(path)
    ));
    Ok(())
}
