//! `tunnelctl sessions …`: online tunnel sessions, commands to their agents, and fleet
//! operations over many of them (selectors, bounded concurrency, waits, rolling upgrades).

use std::collections::HashSet;
use std::time::Duration;

use clap::{Args, Subcommand};
use serde_json::{json, Value};
use tokio::time::Instant;

use super::print_list;
use crate::api::sessions::{self, AgentCommand, RESOURCE};
use crate::api::Client;
use crate::bulk::{self, Outcome};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::fleet::select::{IpMatch, Selector, VersionMatch};
use crate::fleet::upgrade::{self, Plan, Step};
use crate::fleet::{capable, field, id_of, wait};
use crate::interrupt;
use crate::output::columns::SESSION;
use crate::prompt::Prompter;

/// How long `--wait` and `upgrade` wait for agents when `--timeout` does not say.
const DEFAULT_WAIT: Duration = Duration::from_secs(300);

/// `sessions` and its verbs.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl sessions list --region eu --os linux
  tunnelctl sessions restart ts_2Qm… ts_2Qn… --wait
  tunnelctl sessions restart --agent-version '<3.20' --parallel 8 --dry-run
  tunnelctl sessions upgrade --all --batch 10
  tunnelctl sessions stop --metadata-contains staging --yes")]
pub struct SessionsArgs {
    #[command(subcommand)]
    command: SessionsCommand,
}

/// Which sessions: filters applied on the client, all of them must hold.
#[derive(Debug, Args, Clone)]
struct SelectArgs {
    /// Only sessions in this region (e.g. us, eu, ap)
    #[arg(long, value_name = "REGION", value_parser = super::non_empty)]
    region: Option<String>,
    /// Only sessions whose agent runs on this OS (e.g. linux, darwin, windows)
    #[arg(long, value_name = "OS", value_parser = super::non_empty)]
    os: Option<String>,
    /// Only agents of this version: 3.19 (3.19 and 3.19.x), 3.19.2, =3.19.2 (exactly), <3.20,
    /// <=3.20, >3.19, >=3.19.1; conditions joined by commas must all hold (>=3.19,<3.20).
    /// Anything else (abc, v3.19, =>3.19, ~3.19) is refused
    #[arg(long, value_name = "VERSION")]
    agent_version: Option<VersionMatch>,
    /// Only sessions started with this credential (cr_…)
    #[arg(long, value_name = "ID", value_parser = super::non_empty)]
    credential_id: Option<String>,
    /// Only sessions from this IP address or CIDR block (203.0.113.0/24)
    #[arg(long, value_name = "IP|CIDR")]
    ip: Option<IpMatch>,
    /// Only sessions whose metadata contains this text
    #[arg(long, value_name = "TEXT", value_parser = super::non_empty)]
    metadata_contains: Option<String>,
    /// Every online session
    #[arg(long)]
    all: bool,
}

impl SelectArgs {
    fn selector(&self) -> Selector {
        Selector {
            region: self.region.clone(),
            os: self.os.clone(),
            agent_version: self.agent_version.clone(),
            credential_id: self.credential_id.clone(),
            ip: self.ip.clone(),
            metadata_contains: self.metadata_contains.clone(),
            all: self.all,
        }
    }
}

/// Flags of the agent commands over several sessions.
#[derive(Debug, Args)]
struct FleetArgs {
    /// Session IDs (ts_…); or choose them with selectors, or --all
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::session_ids))]
    ids: Vec<String>,
    #[command(flatten)]
    select: SelectArgs,
    /// Requests at once
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = parse_parallel)]
    parallel: usize,
    /// Print what would be done and send nothing
    #[arg(long)]
    dry_run: bool,
}

fn parse_parallel(s: &str) -> std::result::Result<usize, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if (1..=64).contains(&n) => Ok(n as usize),
        Ok(_) => Err(format!("'{s}' must be from 1 to 64")),
        Err(_) => Err(format!("'{s}' is not a whole number")),
    }
}

#[derive(Debug, Subcommand)]
enum SessionsCommand {
    /// List online tunnel sessions (selectors filter them)
    #[command(after_help = "Examples:
  tunnelctl sessions list
  tunnelctl sessions list --os windows --json
  tunnelctl sessions list --jq '.[] | select(.region == \"eu\") | .id'")]
    List {
        #[command(flatten)]
        select: SelectArgs,
        /// Stop after N sessions (fetches no more pages than needed)
        #[arg(long, value_name = "N", value_parser = super::parse_limit, allow_negative_numbers = true)]
        limit: Option<usize>,
    },
    /// Show one tunnel session
    #[command(after_help = "Example:\n  tunnelctl sessions get ts_2Qm…")]
    Get {
        /// Session ID (ts_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::session_ids))]
        id: String,
    },
    /// Restart agents (each reconnects with a new session ID; not on Windows)
    #[command(after_help = "Examples:
  tunnelctl sessions restart ts_2Qm… ts_2Qn…
  tunnelctl sessions restart --region eu --wait --timeout 2m
  tunnelctl sessions restart --all --parallel 8 --dry-run

Restart is not supported on Windows: selectors (--all, --os, …) leave Windows sessions out,
say how many were skipped, and do not count them as failures; with --json each appears as
{\"id\": …, \"outcome\": \"skipped\", \"reason\": …} after the others. Session IDs given by
name are always sent. On a terminal, one progress line shows what is done, failed and
remaining, then failures are grouped by reason; elsewhere each session gets a line.")]
    Restart {
        #[command(flatten)]
        fleet: FleetArgs,
        /// Wait until every agent is back under a new session ID (exit 7 when --timeout runs out)
        #[arg(long)]
        wait: bool,
    },
    /// Stop agents (they exit and do not come back by themselves)
    #[command(after_help = "Examples:
  tunnelctl sessions stop ts_2Qm… --yes
  tunnelctl sessions stop --metadata-contains staging --dry-run")]
    Stop {
        #[command(flatten)]
        fleet: FleetArgs,
    },
    /// Update agents; restart them 10 seconds or more later (or use 'sessions upgrade')
    #[command(after_help = "Examples:
  tunnelctl sessions update ts_2Qm… && sleep 10 && tunnelctl sessions restart ts_2Qm… --wait
  tunnelctl sessions update --agent-version '<3.20' --dry-run")]
    Update {
        #[command(flatten)]
        fleet: FleetArgs,
    },
    /// Rolling upgrade: update, wait, restart and wait for each agent to reconnect, in batches
    #[command(after_help = "Examples:
  tunnelctl sessions upgrade --all
  tunnelctl sessions upgrade --region eu --batch 5 --settle 30s --keep-going
  tunnelctl sessions upgrade ts_2Qm… --timeout 10m

Agents whose update is refused (no update available, update checks disabled, already
updating, updated but not restarted) are reported with the reason and not restarted. The
rollout stops after the first batch with a failure unless --keep-going. Selectors leave out
Windows sessions (restart is not supported on Windows), reported as skipped as by
'sessions restart'.")]
    Upgrade {
        #[command(flatten)]
        fleet: FleetArgs,
        /// Agents per batch
        #[arg(long, value_name = "N", default_value_t = 5, value_parser = parse_parallel)]
        batch: usize,
        /// Wait between update and restart (at least 10s, as the service requires)
        #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = parse_settle)]
        settle: Duration,
        /// Go on with the next batches after a batch with failures
        #[arg(long)]
        keep_going: bool,
    },
}

fn parse_settle(s: &str) -> std::result::Result<Duration, String> {
    let d = crate::parse::parse_seconds(s)?;
    if d < upgrade::MIN_SETTLE {
        return Err(format!("'{s}' is less than 10s: the service needs at least 10 seconds between update and restart"));
    }
    Ok(d)
}

/// Runs a `sessions` command.
pub async fn run(args: SessionsArgs, ctx: &Context) -> Result<()> {
    match args.command {
        SessionsCommand::List { select, limit } => {
            let client = ctx.management()?;
            let sel = select.selector();
            if !sel.is_given() || sel.all {
                return print_list(ctx, &SESSION, RESOURCE.list(&client, limit)?).await;
            }
            // Filtered on the client: read every page, keep what matches, up to the limit.
            let mut pages = RESOURCE.list(&client, None)?;
            let mut sink = ctx.printer.list(&SESSION)?;
            let mut n = 0;
            while let Some(s) = pages.next_item().await? {
                if sel.matches(&s) {
                    sink.push(s)?;
                    n += 1;
                    if limit.is_some_and(|l| n >= l) {
                        break;
                    }
                }
            }
            if sink.finish()? == 0 && ctx.printer.tty && ctx.printer.notes_empty_lists() {
                ctx.note("No tunnel sessions match.");
            }
            Ok(())
        }
        SessionsCommand::Get { id } => {
            let client = ctx.management()?;
            ctx.printer
                .object(&SESSION, &RESOURCE.get(&client, &id).await?)
        }
        SessionsCommand::Restart { fleet, wait } => {
            agent_command(ctx, fleet, AgentCommand::Restart, wait).await
        }
        SessionsCommand::Stop { fleet } => {
            agent_command(ctx, fleet, AgentCommand::Stop, false).await
        }
        SessionsCommand::Update { fleet } => {
            agent_command(ctx, fleet, AgentCommand::Update, false).await
        }
        SessionsCommand::Upgrade {
            fleet,
            batch,
            settle,
            keep_going,
        } => run_upgrade(ctx, fleet, batch, settle, keep_going).await,
    }
}

/// The sessions to act on, and those left out: the IDs given (read from the list when their
/// details are needed), the sessions the selectors match, or, on a terminal with neither, the
/// user's choice. Only sessions chosen by selectors are left out, when the seeds say they
/// cannot take `verb` ([`capable::refusal`]): a session named or picked is always sent.
async fn targets(
    client: &Client,
    prompter: &Prompter,
    fleet: &FleetArgs,
    verb: &str,
    need_details: bool,
) -> Result<Targets> {
    let sel = fleet.select.selector();
    let chosen = chosen(client, prompter, fleet, verb, need_details).await?;
    if !sel.is_given() {
        return Ok(Targets {
            send: chosen,
            skipped: Vec::new(),
        });
    }
    let (mut send, mut skipped) = (Vec::new(), Vec::new());
    for s in chosen {
        match capable::refusal(verb, &s) {
            Some(why) => skipped.push((s, why)),
            None => send.push(s),
        }
    }
    Ok(Targets { send, skipped })
}

/// The sessions a fleet command sends to, and those selectors left out (with why).
struct Targets {
    send: Vec<Value>,
    skipped: Vec<(Value, &'static str)>,
}

impl Targets {
    /// Says on stderr how many were skipped and why, one line per reason.
    fn note_skipped(&self, ctx: &Context) {
        let mut reasons: Vec<&str> = self.skipped.iter().map(|(_, why)| *why).collect();
        reasons.dedup();
        for why in reasons {
            let n = self.skipped.iter().filter(|(_, w)| *w == why).count();
            ctx.note(&format!(
                "Skipped {n} session(s) the selectors chose: {why} (not counted as failures)."
            ));
        }
    }

    /// The JSON results of the skipped sessions.
    fn skipped_results(&self) -> impl Iterator<Item = Value> + '_ {
        self.skipped
            .iter()
            .map(|(s, why)| json!({"id": id_of(s), "outcome": "skipped", "reason": why}))
    }
}

/// The sessions named, selected or picked, before any is left out.
async fn chosen(
    client: &Client,
    prompter: &Prompter,
    fleet: &FleetArgs,
    verb: &str,
    need_details: bool,
) -> Result<Vec<Value>> {
    let sel = fleet.select.selector();
    if !fleet.ids.is_empty() && sel.is_given() {
        return Err(Error::usage(
            "give session IDs or selectors (--region, --os, …, --all), not both",
        ));
    }
    if !fleet.ids.is_empty() {
        let mut seen = HashSet::new();
        for id in &fleet.ids {
            crate::http::encode_segment("session ID", id)?;
            if !seen.insert(id) {
                return Err(Error::usage(format!(
                    "the session ID {} is given twice",
                    escape(id)
                )));
            }
        }
        if !need_details {
            return Ok(fleet.ids.iter().map(|id| json!({ "id": id })).collect());
        }
        let all = wait::all_sessions(client).await?;
        return Ok(fleet
            .ids
            .iter()
            .map(|id| {
                all.iter()
                    .find(|s| id_of(s) == id)
                    .cloned()
                    .unwrap_or_else(|| json!({ "id": id }))
            })
            .collect());
    }
    if sel.is_given() {
        let all = wait::all_sessions(client).await?;
        return Ok(all.into_iter().filter(|s| sel.matches(s)).collect());
    }
    if !prompter.is_interactive() {
        return Err(Error::usage(format!(
            "which sessions? Give session IDs, a selector (--region, --os, --agent-version, --credential-id, --ip, --metadata-contains) or --all to {verb}"
        )));
    }
    choose(client, prompter, verb).await
}

/// A session as questions show it (the picker, the stop confirmation), a cell each: ID,
/// region, OS, agent version, IP and metadata, escaped; [`crate::prompt::columns`] lines them up.
fn session_cells(s: &Value) -> Vec<String> {
    [
        id_of(s),
        field(s, "region"),
        field(s, "os"),
        field(s, "agent_version"),
        field(s, "ip"),
        field(s, "metadata"),
    ]
    .iter()
    .map(|cell| escape(cell))
    .collect()
}

/// The sessions as questions show them, a line each, in columns.
fn session_lines(sessions: &[Value]) -> Vec<String> {
    let cells: Vec<Vec<String>> = sessions.iter().map(session_cells).collect();
    crate::prompt::columns(&cells)
}

/// Lets the user pick sessions from the live list.
async fn choose(client: &Client, prompter: &Prompter, verb: &str) -> Result<Vec<Value>> {
    let all = wait::all_sessions(client).await?;
    if all.is_empty() {
        return Err(Error::usage("there are no online sessions to choose from"));
    }
    let labels = session_lines(&all);
    let picked = prompter.pick(&format!("Sessions to {verb}"), &labels)?;
    if picked.is_empty() {
        return Err(Error::usage("no session chosen"));
    }
    Ok(picked
        .into_iter()
        .filter_map(|i| all.get(i).cloned())
        .collect())
}

fn describe(s: &Value) -> String {
    let parts: Vec<&str> = ["region", "os", "agent_version", "ip"]
        .iter()
        .map(|k| field(s, k))
        .filter(|v| !v.is_empty())
        .collect();
    parts.join(" ")
}

/// Prints what a dry run would do, the skipped sessions included.
fn dry_run(ctx: &Context, verb: &str, targets: &Targets) -> Result<()> {
    let plan: Vec<(&str, String)> = targets
        .send
        .iter()
        .map(|s| (id_of(s), describe(s)))
        .collect();
    let skipped: Vec<(&str, String)> = targets
        .skipped
        .iter()
        .map(|(s, why)| (id_of(s), (*why).to_string()))
        .collect();
    ctx.printer.dry_run(verb, &plan, &skipped)?;
    targets.note_skipped(ctx);
    ctx.note(&format!(
        "Dry run: nothing was sent ({} session(s)).",
        targets.send.len()
    ));
    Ok(())
}

/// Nothing to send: says so (and what was skipped, with `--json` as results); success.
fn nothing_to_do(ctx: &Context, targets: &Targets) -> Result<()> {
    if targets.skipped.is_empty() {
        ctx.note("No sessions match; nothing to do.");
        return Ok(());
    }
    targets.note_skipped(ctx);
    ctx.printer.results(targets.skipped_results().collect())
}

async fn agent_command(
    ctx: &Context,
    fleet: FleetArgs,
    command: AgentCommand,
    wait_back: bool,
) -> Result<()> {
    let verb = command.as_str();
    let client = ctx.management()?;
    let chosen = targets(&client, &ctx.prompter, &fleet, verb, wait_back).await?;
    if fleet.dry_run {
        return dry_run(ctx, verb, &chosen);
    }
    if chosen.send.is_empty() {
        return nothing_to_do(ctx, &chosen);
    }
    chosen.note_skipped(ctx);
    let targets = &chosen.send;
    if command == AgentCommand::Stop {
        // The question lists the first few sessions (ID, region, OS, host) and counts the rest,
        // so it never scrolls away.
        let shown = super::crud::shown_count(targets.len());
        let lines = session_lines(&targets[..shown]);
        ctx.prompter.confirm_items(
            &format!(
                "Stop the agent of {} session(s)? They exit and do not come back by themselves.",
                targets.len()
            ),
            &lines,
            targets.len() - shown,
        )?;
    }
    let known: HashSet<String> = if wait_back {
        wait::all_sessions(&client)
            .await?
            .iter()
            .map(|s| id_of(s).to_string())
            .collect()
    } else {
        HashSet::new()
    };
    let ids: Vec<String> = targets.iter().map(|s| id_of(s).to_string()).collect();
    let done = match command {
        AgentCommand::Restart => "Restart sent to",
        AgentCommand::Stop => "Stopped",
        AgentCommand::Update => "Update sent to",
    };
    let client_ref = &client;
    let outcomes = super::run_reported(ctx, &ids, fleet.parallel, done, |id| async move {
        sessions::send(client_ref, &id, command)
            .await
            .map_err(|e| e.with_check("tunnelctl sessions list"))
    })
    .await;
    let mut back: Vec<(String, String)> = Vec::new();
    let mut not_back: Vec<String> = Vec::new();
    if wait_back && !interrupt::requested() {
        let restarted: Vec<Value> = targets
            .iter()
            .zip(&outcomes)
            .filter(|(_, o)| matches!(o, Outcome::Done))
            .map(|(s, _)| s.clone())
            .collect();
        if !restarted.is_empty() {
            // The wait ends with the command's --timeout, counted from the start.
            let until = crate::deadline::get()
                .map(Instant::from)
                .unwrap_or_else(|| Instant::now() + DEFAULT_WAIT);
            let limit = until.saturating_duration_since(Instant::now()).as_secs();
            let waiting = |k: usize| {
                format!(
                    "waiting up to {limit}s for {} agent(s) to reconnect: {k} back",
                    restarted.len()
                )
            };
            let spinner = ctx.printer.spinner(ctx.settings.given.quiet, &waiting(0));
            if !spinner.is_drawn() {
                ctx.note(&format!(
                    "Waiting up to {limit}s for {} agent(s) to reconnect…",
                    restarted.len()
                ));
            }
            not_back = wait::until_back(&client, &restarted, &known, until, |old, new| {
                back.push((id_of(old).to_string(), id_of(new).to_string()));
                spinner.update(&waiting(back.len()));
                spinner.above(|| {
                    // A closed stdout shows at the end; the wait goes on for the report.
                    let _ = ctx.printer.came_back(id_of(old), id_of(new));
                });
            })
            .await?;
            spinner.finish();
        }
    }
    let mut results = super::results(&ids, &outcomes);
    for (r, id) in results.iter_mut().zip(&ids) {
        if let Some((_, new)) = back.iter().find(|(old, _)| old == id) {
            r["new_id"] = json!(new);
        }
        if not_back.contains(id) {
            r["outcome"] = json!("not-back");
        }
    }
    results.extend(chosen.skipped_results());
    ctx.printer.results(results)?;
    bulk::conclude(&ctx.printer, &ids, &outcomes, &not_back)
}

async fn run_upgrade(
    ctx: &Context,
    fleet: FleetArgs,
    batch: usize,
    settle: Duration,
    keep_going: bool,
) -> Result<()> {
    let client = ctx.management()?;
    let chosen = targets(&client, &ctx.prompter, &fleet, "upgrade", true).await?;
    if fleet.dry_run {
        return dry_run(ctx, "upgrade", &chosen);
    }
    if chosen.send.is_empty() {
        return nothing_to_do(ctx, &chosen);
    }
    chosen.note_skipped(ctx);
    let targets = &chosen.send;
    let plan = Plan {
        batch,
        parallel: fleet.parallel,
        settle,
        keep_going,
        reconnect_timeout: DEFAULT_WAIT,
    };
    let mut progress = ctx
        .printer
        .upgrade_progress(ctx.settings.given.quiet, targets.len());
    let _graceful = interrupt::graceful();
    let results = upgrade::run(&client, targets, &plan, &mut progress).await;
    progress.finish();
    {
        let mut rows: Vec<Value> = results
            .iter()
            .map(|(id, step)| match step {
                Step::Upgraded { new_id, version } => json!({"id": id, "outcome": "upgraded", "new_id": new_id, "agent_version": version}),
                Step::UpdateFailed(e) => json!({"id": id, "outcome": "update-failed", "error": e.to_string()}),
                Step::RestartFailed(e) => json!({"id": id, "outcome": "restart-failed", "error": e.to_string()}),
                Step::NotBack => json!({"id": id, "outcome": "not-back"}),
                Step::NotStarted => json!({"id": id, "outcome": "not-started"}),
            })
            .collect();
        rows.extend(chosen.skipped_results());
        ctx.printer.results(rows)?;
    }
    if interrupt::requested() {
        return Err(interrupt::stop_error());
    }
    let failed = results.iter().filter(|(_, s)| s.failed()).count();
    if failed == 0 {
        return Ok(());
    }
    if crate::deadline::passed() {
        let upgraded = results.len() - failed;
        let not_started = results
            .iter()
            .filter(|(_, s)| matches!(s, Step::NotStarted))
            .count();
        return Err(crate::deadline::ran_out(format!(
            "with {upgraded} of {} upgraded, {not_started} not started",
            results.len()
        )));
    }
    if results
        .iter()
        .all(|(_, s)| matches!(s, Step::Upgraded { .. } | Step::NotBack))
    {
        return Err(Error::WaitTimeout(format!(
            "{failed} agent(s) did not reconnect in time"
        )));
    }
    Err(Error::Partial {
        failed,
        total: results.len(),
    })
}
