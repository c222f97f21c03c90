//! Rolling upgrade, as the API reference prescribes for updating an agent: send `update`, wait at least
//! 10 seconds, send `restart`, wait for the agent to reconnect; batch after batch, stopping at
//! the first batch with a failure unless told to keep going.

use std::collections::HashSet;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::time::Instant;

use super::{field, id_of, wait};
use crate::api::sessions::{self, AgentCommand};
use crate::api::Client;
use crate::bulk::{self, Outcome};
use crate::error::Error;
use crate::escape::escape;
use crate::interrupt;

/// The shortest wait between update and restart the API reference allows.
pub const MIN_SETTLE: Duration = Duration::from_secs(10);

/// How the rollout goes.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Sessions per batch.
    pub batch: usize,
    /// Requests at once within a batch.
    pub parallel: usize,
    /// Wait between update and restart (at least [`MIN_SETTLE`]).
    pub settle: Duration,
    /// Go on after a batch with failures.
    pub keep_going: bool,
    /// How long a batch waits for its agents to come back.
    pub reconnect_timeout: Duration,
}

/// What became of one session.
#[derive(Debug)]
pub enum Step {
    /// Updated, restarted and back under a new session (its id and agent version).
    Upgraded { new_id: String, version: String },
    /// The update was refused (one of the API reference's four reasons, or another error); not restarted.
    UpdateFailed(Error),
    /// Updated, but the restart failed.
    RestartFailed(Error),
    /// Restarted, but not back in time.
    NotBack,
    /// Not attempted (an earlier batch failed, or Ctrl-C).
    NotStarted,
}

impl Step {
    /// Did this session fail?
    pub fn failed(&self) -> bool {
        !matches!(self, Step::Upgraded { .. })
    }

    /// Its word in the JSON results.
    pub fn word(&self) -> &'static str {
        match self {
            Step::Upgraded { .. } => "upgraded",
            Step::UpdateFailed(_) => "update-failed",
            Step::RestartFailed(_) => "restart-failed",
            Step::NotBack => "not-back",
            Step::NotStarted => "not-started",
        }
    }

    /// What went wrong, in words, the error told by `error` (in full for a session's own
    /// line, or as the reason it shares with others for the summary); `None` when upgraded.
    pub fn failure(&self, error: impl Fn(&Error) -> String) -> Option<String> {
        match self {
            Step::Upgraded { .. } => None,
            Step::UpdateFailed(e) => Some(format!("update refused: {}", error(e))),
            Step::RestartFailed(e) => Some(format!("updated but the restart failed: {}", error(e))),
            Step::NotBack => Some("restarted but not back in time".to_string()),
            Step::NotStarted => Some("not started".to_string()),
        }
    }

    /// The line a person reads of the session `id` (escaped here).
    pub fn line(&self, id: &str) -> String {
        let id = escape(id);
        match self {
            Step::Upgraded { new_id, version } => {
                format!("{id} -> {} ({})", escape(new_id), escape(version))
            }
            // A refused update leaves the agent as it was: say it was not upgraded.
            Step::UpdateFailed(_) => format!("{id}: not upgraded: {}", self.text()),
            _ => format!("{id}: {}", self.text()),
        }
    }

    /// [`Step::failure`] with the error in full ("" when upgraded).
    fn text(&self) -> String {
        self.failure(|e| e.to_string()).unwrap_or_default()
    }

    /// The session `id`'s object in the JSON results.
    pub fn result(&self, id: &str) -> Value {
        let error = match self {
            Step::UpdateFailed(e) | Step::RestartFailed(e) => Some(e),
            _ => None,
        };
        let mut r = bulk::result(id, self.word(), error);
        if let Step::Upgraded { new_id, version } = self {
            r["new_id"] = json!(new_id);
            r["agent_version"] = json!(version);
        }
        r
    }

    /// What the bulk exit rule ([`bulk::conclude`]) makes of it: a session restarted but not
    /// back is done, and listed among those not back.
    pub fn into_outcome(self) -> Outcome {
        match self {
            Step::Upgraded { .. } | Step::NotBack => Outcome::Done,
            Step::UpdateFailed(e) | Step::RestartFailed(e) => Outcome::Failed(e),
            Step::NotStarted => Outcome::NotStarted,
        }
    }
}

/// Receives progress, for a bar on a terminal or lines in a log.
pub trait Progress {
    /// A phase of a batch begins.
    fn phase(&mut self, batch: usize, batches: usize, what: &str);
    /// One session reached its end.
    fn done(&mut self, old: &Value, step: &Step);
}

/// Upgrades `targets`; returns each one's step, in order.
pub async fn run(
    client: &Client,
    targets: &[Value],
    plan: &Plan,
    progress: &mut dyn Progress,
) -> Vec<(String, Step)> {
    let settle = plan.settle.max(MIN_SETTLE);
    let batches: Vec<&[Value]> = targets.chunks(plan.batch.max(1)).collect();
    let mut results: Vec<(String, Step)> = Vec::new();
    let mut stop = false;
    for (b, batch) in batches.iter().enumerate() {
        let n = b + 1;
        if stop || interrupt::requested() || crate::deadline::passed() {
            for s in *batch {
                progress.done(s, &Step::NotStarted);
                results.push((id_of(s).to_string(), Step::NotStarted));
            }
            continue;
        }
        let steps = one_batch(client, batch, plan, settle, n, batches.len(), progress).await;
        if steps.iter().any(Step::failed) && !plan.keep_going {
            stop = true;
        }
        for (s, step) in batch.iter().zip(steps) {
            results.push((id_of(s).to_string(), step));
        }
    }
    results
}

/// Sends a command to the agents at `indices` of `ids` (`parallel` at once) and returns the
/// indices it reached; the step of each other one says why (the command's failure step, or
/// not started).
async fn send(
    client: &Client,
    ids: &[String],
    indices: Vec<usize>,
    parallel: usize,
    (command, failed): (AgentCommand, fn(Error) -> Step),
    steps: &mut [Option<Step>],
) -> Vec<usize> {
    let targets: Vec<String> = indices.iter().map(|i| ids[*i].clone()).collect();
    let send_one = |id: String| async move { sessions::send(client, &id, command).await };
    let outcomes = bulk::run(&targets, parallel, send_one, |_, _| {}).await;
    let mut reached = Vec::new();
    for (i, outcome) in indices.into_iter().zip(outcomes) {
        match outcome {
            // `send_one` says done or failed; nothing here is found unchanged.
            Outcome::Done | Outcome::Unchanged(_) => reached.push(i),
            Outcome::Failed(e) => steps[i] = Some(failed(e)),
            Outcome::NotStarted => steps[i] = Some(Step::NotStarted),
        }
    }
    reached
}

async fn one_batch(
    client: &Client,
    batch: &[Value],
    plan: &Plan,
    settle: Duration,
    n: usize,
    of: usize,
    progress: &mut dyn Progress,
) -> Vec<Step> {
    let ids: Vec<String> = batch.iter().map(|s| id_of(s).to_string()).collect();
    let mut steps: Vec<Option<Step>> = batch.iter().map(|_| None).collect();
    let mut reported = vec![false; batch.len()];

    progress.phase(n, of, &format!("updating {} agent(s)", ids.len()));
    let all = (0..ids.len()).collect();
    let update = (
        AgentCommand::Update,
        Step::UpdateFailed as fn(Error) -> Step,
    );
    let to_restart = send(client, &ids, all, plan.parallel, update, &mut steps).await;
    // Counted from the last answer, so every agent has had the full wait since its own update.
    let updated_at = Instant::now();
    finish(batch, &steps, &mut reported, progress);
    if to_restart.is_empty() {
        return collect(steps);
    }

    // The API reference: wait at least 10 seconds after an update before the restart.
    progress.phase(
        n,
        of,
        &format!(
            "waiting {}s for the updates to take effect",
            settle.as_secs_f64().round()
        ),
    );
    let settled = updated_at + settle;
    match crate::deadline::get() {
        // The command's --timeout comes first: no restart is sent after it.
        Some(d) if Instant::from(d) < settled => {
            tokio::time::sleep_until(d.into()).await;
            for i in to_restart {
                steps[i] = Some(Step::RestartFailed(crate::deadline::ran_out(
                    "before the restart could be sent (the agent was updated)",
                )));
            }
            finish(batch, &steps, &mut reported, progress);
            return collect(steps);
        }
        _ => tokio::time::sleep_until(settled).await,
    }

    let known: HashSet<String> = match wait::all_sessions(client).await {
        Ok(all) => all.iter().map(|s| id_of(s).to_string()).collect(),
        Err(_) => batch.iter().map(|s| id_of(s).to_string()).collect(),
    };
    progress.phase(n, of, &format!("restarting {} agent(s)", to_restart.len()));
    let restart = (
        AgentCommand::Restart,
        Step::RestartFailed as fn(Error) -> Step,
    );
    let restarted = send(client, &ids, to_restart, plan.parallel, restart, &mut steps).await;
    finish(batch, &steps, &mut reported, progress);

    progress.phase(
        n,
        of,
        &format!("waiting for {} agent(s) to reconnect", restarted.len()),
    );
    let olds: Vec<Value> = restarted.iter().map(|i| batch[*i].clone()).collect();
    let mut back: Vec<(String, Value)> = Vec::new();
    // A batch waits its own time, and never past the command's --timeout.
    let deadline = Instant::now() + plan.reconnect_timeout;
    let deadline = crate::deadline::get().map_or(deadline, |d| deadline.min(d.into()));
    // A failure to read the list leaves the rest as not back.
    let _ = wait::until_back(client, &olds, &known, deadline, |old, new| {
        back.push((id_of(old).to_string(), new.clone()));
    })
    .await;
    for i in restarted {
        let old_id = id_of(&batch[i]);
        steps[i] = Some(match back.iter().find(|(o, _)| o == old_id) {
            Some((_, new)) => Step::Upgraded {
                new_id: id_of(new).to_string(),
                version: field(new, "agent_version").to_string(),
            },
            // Not back by the deadline (or the list could not be read).
            None => Step::NotBack,
        });
    }
    finish(batch, &steps, &mut reported, progress);
    collect(steps)
}

/// Reports the sessions whose step became known since the last call, once each.
fn finish(
    batch: &[Value],
    steps: &[Option<Step>],
    reported: &mut [bool],
    progress: &mut dyn Progress,
) {
    for ((s, step), done) in batch.iter().zip(steps).zip(reported.iter_mut()) {
        if let (Some(st), false) = (step, *done) {
            progress.done(s, st);
            *done = true;
        }
    }
}

fn collect(steps: Vec<Option<Step>>) -> Vec<Step> {
    steps
        .into_iter()
        .map(|s| s.unwrap_or(Step::NotStarted))
        .collect()
}
