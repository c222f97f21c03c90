//! `tunnelctl local requests record`: every capture the agent shows kept in the history; and
//! the recorder that `tail --record` and the inspector's `--record` keep with too
//! ([`crate::history`] holds the store and the recorder).

use std::time::Duration;

use clap::Args;

use super::history_file::{history_location, recording_source};
use crate::agent;
use crate::capture::follow::{Follower, EVERY, MAX_WINDOW};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::history::recorder::{Limits, Recorder};

/// `local requests record`.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// Keep what the agent holds now, then exit
    #[arg(long)]
    once: bool,
    /// Only requests captured on this tunnel
    #[arg(long, value_name = "NAME", add = clap_complete::ArgValueCandidates::new(crate::complete::tunnel_names))]
    tunnel: Option<String>,
    /// Drop the oldest kept captures beyond this size of the history (e.g. 500MiB, 2GB; at
    /// least 64KiB); bounds that would drop most of it ask first
    /// [default: history_max_size, else 1GiB]
    #[arg(long, value_name = "SIZE", value_parser = crate::parse::parse_history_size, allow_hyphen_values = true)]
    max_size: Option<u64>,
    /// Drop kept captures older than this (e.g. 7d, 12h) [default: history_max_age, else 30d]
    #[arg(long, value_name = "DURATION", value_parser = crate::parse::parse_lookback, allow_hyphen_values = true)]
    max_age: Option<Duration>,
    /// Keep the captures as this source's (which agent they came from)
    /// [default: history_source, else this host's name and the agent URL]
    #[arg(long, value_name = "NAME", value_parser = crate::parse::parse_source_name)]
    source: Option<String>,
}

/// Opens the history for writing, bounded by `max_size`/`max_age` when given, else by the
/// settings (`history_max_size`, `history_max_age`). Bounds that would drop most of what is
/// kept ask first (`--yes` in a script). Its captures are kept as `source`'s (else as
/// `recording_source` says).
pub async fn recorder(
    ctx: &Context,
    max_size: Option<u64>,
    max_age: Option<Duration>,
    source: Option<&str>,
) -> Result<Recorder> {
    let values = ctx.settings.values()?;
    let limits = Limits {
        max_size: max_size.unwrap_or(values.history_max_size.value),
        max_age: max_age.unwrap_or(values.history_max_age.value),
    };
    let location = history_location(ctx)?;
    let file = location.shown();
    let source = recording_source(ctx, source)?;
    Recorder::new(location, source, limits, |doomed, all| {
        ctx.confirm(&format!(
            "The bounds (at most {} and {}) drop {doomed} of the {all} captures kept in {file}, \
             the oldest. Drop them?",
            bytesize::ByteSize::b(limits.max_size).display().iec(),
            humantime::format_duration(limits.max_age),
        ))
    })
    .await
}

/// Says what a recorder that follows something else (`tail`, the inspector) kept, on stderr.
pub async fn say_recorded(ctx: &Context, rec: &mut Recorder) -> Result<()> {
    let line = rec.summary().await?.1;
    // On a terminal, written over the `^C` it echoed for a Ctrl-C.
    let over = if ctx.printer.streams.err_is_terminal() {
        "\r"
    } else {
        ""
    };
    ctx.note(&format!("{over}{line}"));
    Ok(())
}

/// `record`: keeps every capture the agent shows until Ctrl-C or SIGTERM (or once, with
/// `--once`), then says what it kept (a result object with `--json`). A stop signal ends it
/// with exit 0: every poll's captures are written in one transaction as they come, so
/// nothing is left to write; unless the agent could not be reached at all, which exits 6.
pub async fn record(ctx: &Context, args: RecordArgs) -> Result<()> {
    crate::heap::hold_mmap_threshold();
    let client = ctx.agent()?;
    let tunnel = args.tunnel.as_deref();
    let mut follower = Follower::new(tunnel);
    // `--once` asks before it opens the file: an agent that cannot be reached, or a tunnel
    // that does not exist, leaves no file behind.
    let first = match args.once {
        true => Some(follower.poll(&client, MAX_WINDOW, true).await?),
        false => None,
    };
    if let (Some(name), Some(first)) = (tunnel, &first) {
        if first.newest.is_empty() {
            no_such_tunnel(&client, name).await?;
        }
    }
    let mut rec = recorder(ctx, args.max_size, args.max_age, args.source.as_deref()).await?;
    if let Some(first) = first {
        rec.keep(&first.newest).await?;
        return finish(ctx, &mut rec).await;
    }
    // The first signal is said here, below the spinner's line rather than through it.
    let _graceful = crate::interrupt::graceful_saying("");
    // The file on a line of its own: the spinner's line stays short enough for any
    // terminal (a wrapped one is not cleared whole).
    ctx.note(&format!("{}; Ctrl-C to stop.", rec.recording_into()));
    let spinner = ctx.printer.spinner("Recording");
    let mut unreachable: Option<Error> = None;
    let mut store_gone = false;
    let mut reached = false;
    let mut tunnel_checked = tunnel.is_none();
    loop {
        match follower.poll(&client, MAX_WINDOW, true).await {
            Ok(polled) => {
                unreachable = None;
                reached = true;
                let kept = match rec.keep(&polled.newest).await {
                    Ok(_) => rec.keep(&polled.answered_later).await,
                    Err(e) => Err(e),
                };
                // A team store that went away (its server restarted): said once; what comes
                // meanwhile is held and kept once it is back.
                match kept {
                    Err(e) if crate::history::team::pg_error::is_gone(&e) => {
                        if !store_gone {
                            spinner.above(|| {
                                ctx.note(&format!(
                                    "{e}\nHolding what the agent shows, and trying again every \
                                     {} ms until the store is back; Ctrl-C to stop.",
                                    EVERY.as_millis()
                                ))
                            });
                        }
                        store_gone = true;
                    }
                    Err(e) => return Err(e),
                    Ok(_) if store_gone && rec.waiting() == 0 => {
                        store_gone = false;
                        spinner.above(|| ctx.note("The history store is back; recording goes on."));
                    }
                    Ok(_) => {}
                }
                if let (false, Some(name)) = (tunnel_checked, tunnel) {
                    tunnel_checked = true;
                    if polled.newest.is_empty() {
                        if let Err(e) = no_such_tunnel(&client, name).await {
                            spinner.above(|| {
                                ctx.note(&format!("warning: {e}; recording what comes on it"))
                            });
                        }
                    }
                }
            }
            // A recorder outlives an agent's restart: it waits for it to come back.
            Err(e @ Error::Unreachable(_)) => {
                if unreachable.is_none() {
                    spinner.above(|| {
                        ctx.note(&format!(
                            "{e}\nTrying again every {} ms until it answers; Ctrl-C to stop.",
                            EVERY.as_millis()
                        ))
                    });
                }
                unreachable = Some(e);
            }
            Err(e) => return Err(e),
        }
        spinner.update(&format!(
            "Recording: {} kept, {} answered later",
            rec.total.new, rec.total.updated
        ));
        if stopping(EVERY).await {
            break;
        }
    }
    drop(spinner);
    finish(ctx, &mut rec).await?;
    match unreachable {
        // Stopped while the agent never answered: nothing was recorded, and that is no success.
        Some(e) if !reached => Err(e),
        _ => Ok(()),
    }
}

/// Says what `record` kept: a result object for `--json`/`--jq`, else a line on stderr.
async fn finish(ctx: &Context, rec: &mut Recorder) -> Result<()> {
    let (doc, line) = rec.summary().await?;
    if ctx.printer.for_people() {
        ctx.note(&line);
        Ok(())
    } else {
        ctx.printer.document(&doc)
    }
}

/// The error for `--tunnel name` when the agent has no capture on it: says whether a tunnel
/// of that name runs, and where the captures are. `Ok` when it runs (nothing captured yet).
async fn no_such_tunnel(client: &agent::AgentClient, name: &str) -> Result<()> {
    let tunnels = client.tunnels().await?;
    if tunnels.iter().any(|t| agent::name_of(t) == name) {
        return Ok(());
    }
    let why = super::list::why_none_on(client, name).await?;
    Err(Error::usage(format!("--tunnel: {}", why.join(" "))))
}

/// Waits `d`, or less when a stop was asked for (in graceful mode); says whether it was.
pub(super) async fn stopping(d: Duration) -> bool {
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
