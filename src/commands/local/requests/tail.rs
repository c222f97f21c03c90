//! `tunnelctl local requests tail`: follows new captured requests as they arrive, until
//! Ctrl-C; with `--record`, keeps them in the history as `record` does.

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
pub async fn tail(ctx: &Context, tunnel: Option<&str>, record: bool) -> Result<()> {
    crate::heap::hold_mmap_threshold();
    let client = &ctx.agent()?;
    let mut recorder = match record {
        true => Some(super::record::recorder(ctx, None, None)?),
        false => None,
    };
    let _graceful = recorder
        .as_ref()
        .map(|_| crate::interrupt::graceful_saying(""));
    let mut follower = Follower::new(tunnel);
    let first = follower.poll(client, MAX_WINDOW, record).await?;
    if let Some(r) = recorder.as_mut() {
        r.keep(&first.newest)?;
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
            r.keep(&polled.newest)?;
            r.keep(&polled.answered_later)?;
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
    if let Some(r) = &recorder {
        super::record::say_recorded(ctx, r)?;
    }
    Ok(())
}
