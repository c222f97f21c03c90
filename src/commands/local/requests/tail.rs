//! `tunnelctl local requests tail`: follows new captured requests as they arrive, until
//! Ctrl-C; with `--record`, keeps them in the history as `record` does; with `--history`,
//! follows what any recorder keeps in the history instead (the team store: every agent's).

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::time::{Duration, Instant};

use crate::capture::follow::{Follower, EVERY, MAX_WINDOW};
use crate::capture::view;
use crate::context::Context;
use crate::error::Result;

/// How long `tail` holds a request whose response is pending before printing it anyway.
const TAIL_HOLD: Duration = Duration::from_secs(10);

/// Follows captured requests ([`Follower`]) and prints each new one once it has its response
/// (or has waited too long), oldest first; a held one answered once it has fallen behind the
/// window is printed when its answer comes. With `record`, keeps what it follows, says so
/// at the start, and on Ctrl-C or SIGTERM stops, says what it kept, and exits 0 (as `record`
/// does).
pub async fn tail(
    ctx: &Context,
    tunnel: Option<&str>,
    record: bool,
    source: Option<&str>,
) -> Result<()> {
    if source.is_some() && !record {
        return Err(crate::error::Error::usage(
            "--source picks the kept captures of one source (with --history) or names what \
             --record keeps: give one of them",
        ));
    }
    crate::heap::hold_mmap_threshold();
    let client = &ctx.agent()?;
    let mut recorder = match record {
        true => Some(super::record::recorder(ctx, None, None, source).await?),
        false => None,
    };
    let _graceful = recorder
        .as_ref()
        .map(|_| crate::interrupt::graceful_saying(""));
    let mut follower = Follower::new(tunnel);
    let first = follower.poll(client, MAX_WINDOW, record).await?;
    if let Some(r) = recorder.as_mut() {
        r.keep(&first.newest).await?;
    }
    let mut seen: HashSet<String> = first.newest.into_iter().map(|e| e.id).collect();
    let mut first_seen: HashMap<String, Instant> = HashMap::new();
    ctx.note("Following captured requests; Ctrl-C to stop.");
    if let Some(r) = &recorder {
        ctx.note(&format!("{}.", r.recording_into()));
    }
    loop {
        if recorder.is_some() && super::record::stopping(EVERY).await {
            break;
        } else if recorder.is_none() {
            tokio::time::sleep(EVERY).await;
        }
        let polled = follower.poll(client, MAX_WINDOW, record).await?;
        if let Some(r) = recorder.as_mut() {
            r.keep(&polled.newest).await?;
            r.keep(&polled.answered_later).await?;
        }
        let mut out = ctx.printer.writer();
        let late = polled.answered_later.iter();
        for item in polled.newest.iter().rev().chain(late) {
            if seen.contains(&item.id) {
                continue;
            }
            let held = first_seen
                .entry(item.id.clone())
                .or_insert_with(Instant::now)
                .elapsed();
            if !item.answered() && held < TAIL_HOLD {
                continue;
            }
            seen.insert(item.id.clone());
            first_seen.remove(&item.id);
            view::tail_item(&ctx.printer, &mut out, item)?;
        }
        out.flush()?;
    }
    if let Some(r) = recorder.as_mut() {
        super::record::say_recorded(ctx, r).await?;
    }
    Ok(())
}

/// How often `tail --history` asks the history for what was kept since: a cheap indexed
/// query, at the pace recorders poll their agents.
const HISTORY_EVERY: Duration = Duration::from_millis(500);

/// `tail --history`: prints each capture kept in the history from now on, by any recorder,
/// oldest first (and again when a recorder keeps its answer), until Ctrl-C.
pub async fn tail_history(ctx: &Context, tunnel: Option<&str>, source: Option<&str>) -> Result<()> {
    let location = super::history_file::history_location(ctx)?;
    // Followed from now on; a history made meanwhile, from its first capture.
    let mut store = location.open_existing().await?;
    let mut after = match &store {
        Some(s) => s.last_row().await?,
        None => 0,
    };
    // Said once it follows: what is kept from here on is shown.
    ctx.note(&format!(
        "Following what is kept in {}; Ctrl-C to stop.",
        location.shown()
    ));
    loop {
        if store.is_none() {
            store = location.open_existing().await?;
        }
        if let Some(s) = &store {
            let kept = s.kept_after(after, source).await?;
            let mut out = ctx.printer.writer();
            for kept in kept {
                after = after.max(kept.row);
                let Ok(item) = crate::capture::Exchange::from_agent(kept.json) else {
                    continue;
                };
                if tunnel.is_some_and(|t| t != item.tunnel) {
                    continue;
                }
                view::tail_item(&ctx.printer, &mut out, &item)?;
            }
            out.flush()?;
        }
        tokio::time::sleep(HISTORY_EVERY).await;
    }
}
