//! A fleet command from the sessions chosen to its exit: an agent command (restart, stop,
//! update) sent to many sessions, optionally waiting for restarted agents to come back, or a
//! rolling upgrade; each ends with one JSON result per session and the bulk exit rule
//! ([`bulk::conclude`]).

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};
use tokio::time::Instant;

use super::report::{self, came_back};
use super::targets::{Selection, Targets};
use super::upgrade::{self, Plan};
use super::upgrade_view::UpgradeProgress;
use super::Console;
use super::{id_of, wait};
use crate::api::sessions::{self, AgentCommand};
use crate::api::Client;
use crate::bulk::{self, Outcome, Unchanged};
use crate::error::Result;
use crate::interrupt;

/// An agent an update found already on the newest version: its own outcome, not a failure.
pub const UP_TO_DATE: Unchanged = Unchanged {
    word: "up-to-date",
    text: "already up to date",
};

/// What an agent's answer to `command` means, for every fleet command and the fleet screen
/// alike: done; already up to date (an update refused because none is available: its own
/// outcome, not a failure); or failed.
pub fn agent_outcome(command: AgentCommand, answer: Result<()>) -> Outcome {
    match answer {
        Ok(()) => Outcome::Done,
        Err(e) if command == AgentCommand::Update && sessions::no_update_available(&e) => {
            Outcome::Unchanged(UP_TO_DATE)
        }
        Err(e) => Outcome::Failed(e),
    }
}

/// The sessions `verb` is to be sent to, with the client to send with; `None` when the
/// command already ended: a dry run (its plan printed) or nothing to send (said so). The
/// sessions skipped are noted on stderr.
pub async fn prepare(
    ctx: &Console<'_>,
    client: Client,
    selection: &Selection,
    verb: &str,
    need_details: bool,
    dry_run: bool,
) -> Result<Option<(Client, Targets)>> {
    let targets = Targets::choose(ctx, &client, selection, verb, need_details).await?;
    if dry_run {
        report::dry_run(ctx, verb, &targets)?;
        return Ok(None);
    }
    if targets.send.is_empty() {
        report::nothing_to_do(ctx, &targets)?;
        return Ok(None);
    }
    targets.note_skipped(ctx);
    Ok(Some((client, targets)))
}

/// Sends `command` to the targets, `parallel` at once; with `wait_back` (restart), waits
/// until each restarted agent is back under a new session (until `--timeout`, or
/// [`wait::DEFAULT_WAIT`]).
pub async fn send(
    ctx: &Console<'_>,
    client: &Client,
    targets: &Targets,
    command: AgentCommand,
    parallel: usize,
    wait_back: bool,
) -> Result<()> {
    let known: HashSet<String> = if wait_back {
        let all = wait::all_sessions(client).await?;
        all.iter().map(|s| id_of(s).to_string()).collect()
    } else {
        HashSet::new()
    };
    let ids = targets.ids();
    let done = match command {
        AgentCommand::Restart => "Restart sent to",
        AgentCommand::Stop => "Stopped",
        AgentCommand::Update => "Update sent to",
    };
    let outcomes = bulk::run_reported(ctx.printer, &ids, parallel, done, |id| async move {
        match agent_outcome(command, sessions::send(client, &id, command).await) {
            Outcome::Failed(e) => Outcome::Failed(e.with_check("tunnelctl sessions list")),
            outcome => outcome,
        }
    })
    .await;
    let (back, not_back) = if wait_back && !interrupt::requested() {
        let restarted: Vec<Value> = targets
            .send
            .iter()
            .zip(&outcomes)
            .filter(|(_, o)| matches!(o, Outcome::Done))
            .map(|(s, _)| s.clone())
            .collect();
        wait_for(ctx, client, &restarted, &known).await?
    } else {
        (HashMap::new(), Vec::new())
    };
    let mut rows: Vec<Value> = ids
        .iter()
        .zip(&outcomes)
        .map(|(id, o)| match back.get(id) {
            Some(new) => {
                let mut r = bulk::result(id, o.word(), None);
                r["new_id"] = json!(new);
                r
            }
            None if not_back.contains(id) => bulk::result(id, "not-back", None),
            None => bulk::result(id, o.word(), o.error()),
        })
        .collect();
    rows.extend(targets.skipped_results());
    ctx.printer.results(rows)?;
    bulk::conclude(ctx.printer, &ids, &outcomes, &not_back)
}

/// Waits for the `restarted` agents to come back (the wait ends with the command's
/// `--timeout`, counted from the start), showing each as it does; returns the new session of
/// each old one back, and the IDs of those not back.
async fn wait_for(
    ctx: &Console<'_>,
    client: &Client,
    restarted: &[Value],
    known: &HashSet<String>,
) -> Result<(HashMap<String, String>, Vec<String>)> {
    let mut back = HashMap::new();
    if restarted.is_empty() {
        return Ok((back, Vec::new()));
    }
    let until = crate::deadline::get()
        .map(Instant::from)
        .unwrap_or_else(|| Instant::now() + wait::DEFAULT_WAIT);
    let limit = until.saturating_duration_since(Instant::now()).as_secs();
    let n = restarted.len();
    let waiting =
        |k: usize| format!("waiting up to {limit}s for {n} agent(s) to reconnect: {k} back");
    // A stop signal ends the wait, and the agents not back yet are named (it used to end
    // the run at once with only "interrupted").
    let _graceful = interrupt::graceful_saying(
        "the wait ends; the agents not back yet are listed. Ctrl-C or SIGTERM again to stop at once.",
    );
    let spinner = ctx.printer.spinner(&waiting(0));
    if !spinner.is_drawn() {
        ctx.note(&format!(
            "Waiting up to {limit}s for {n} agent(s) to reconnect…"
        ));
    }
    let not_back = wait::until_back(client, restarted, known, until, |old, new| {
        back.insert(id_of(old).to_string(), id_of(new).to_string());
        spinner.update(&waiting(back.len()));
        spinner.above(|| {
            // A closed stdout shows at the end; the wait goes on for the report.
            let _ = came_back(ctx.printer, id_of(old), id_of(new));
        });
    })
    .await?;
    spinner.finish();
    Ok((back, not_back))
}

/// Upgrades the targets as `plan` says, showing it as it goes ([`UpgradeProgress`]); one
/// result per session, then the bulk exit rule.
pub async fn upgrade(
    ctx: &Console<'_>,
    client: &Client,
    targets: &Targets,
    plan: &Plan,
) -> Result<()> {
    let mut progress = UpgradeProgress::new(ctx.printer, targets.send.len());
    let _graceful = interrupt::graceful();
    let steps = upgrade::run(client, &targets.send, plan, &mut progress).await;
    progress.finish();
    let mut rows: Vec<Value> = steps.iter().map(|(id, step)| step.result(id)).collect();
    rows.extend(targets.skipped_results());
    ctx.printer.results(rows)?;
    let not_back: Vec<String> = steps
        .iter()
        .filter(|(_, s)| matches!(s, upgrade::UpgradeStep::NotBack))
        .map(|(id, _)| id.clone())
        .collect();
    let (ids, outcomes): (Vec<String>, Vec<Outcome>) = steps
        .into_iter()
        .map(|(id, step)| (id, step.into_outcome()))
        .unzip();
    bulk::conclude(ctx.printer, &ids, &outcomes, &not_back)
}
