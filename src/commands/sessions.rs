//! `tunnelctl sessions …`: the clap definitions of online tunnel sessions, commands to their
//! agents and fleet operations, and thin handlers; choosing sessions, sending, waiting and
//! rolling upgrades are in [`crate::fleet`].

use std::time::Duration;

use clap::{Args, Subcommand};

mod select_args;
mod watch;

use select_args::SelectArgs;

use super::print_list;
use crate::api::sessions::{AgentCommand, RESOURCE};
use crate::context::Context;
use crate::error::Result;
use crate::fleet::upgrade::{self, Plan};
use crate::fleet::{command, targets, wait, Selection};

/// `sessions` and its verbs.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl sessions list --region eu --os linux
  tunnelctl sessions restart ts_2Qm… ts_2Qn… --wait
  tunnelctl sessions restart --agent-version '<3.20' --parallel 8 --dry-run
  tunnelctl sessions upgrade --all --batch 10
  tunnelctl sessions stop --metadata-contains staging --yes
  tunnelctl sessions watch --region eu")]
pub struct SessionsArgs {
    #[command(subcommand)]
    command: SessionsCommand,
}

/// Flags of the agent commands over several sessions.
#[derive(Debug, Args)]
struct FleetArgs {
    /// Session IDs (ts_…); or choose them with selectors, or --all
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
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

impl FleetArgs {
    fn selection(&self) -> Selection {
        Selection {
            ids: self.ids.clone(),
            selector: self.select.selector(),
        }
    }
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
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        id: String,
    },
    /// Restart agents (not on Windows)
    ///
    /// Each agent reconnects with a new session ID. Not on Windows.
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
        /// Wait for every agent to reconnect
        ///
        /// Waits until every agent is back under a new session ID (exit 7 when --timeout runs
        /// out).
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
    /// Update agents; restart them 10 seconds or more later
    ///
    /// Or use 'sessions upgrade', which does both.
    #[command(after_help = "Examples:
  tunnelctl sessions update ts_2Qm… && sleep 10 \\
      && tunnelctl sessions restart ts_2Qm… --wait
  tunnelctl sessions update --agent-version '<3.20' --dry-run")]
    Update {
        #[command(flatten)]
        fleet: FleetArgs,
    },
    /// Rolling upgrade of agents, in batches
    ///
    /// Update, wait, restart and wait for each agent to reconnect, in batches.
    // -h has room for one example only, beside the many options.
    #[command(
        after_help = "Example:
  tunnelctl sessions upgrade --region eu --batch 5 --settle 30s --keep-going",
        after_long_help = "Examples:
  tunnelctl sessions upgrade --all
  tunnelctl sessions upgrade --region eu --batch 5 --settle 30s --keep-going
  tunnelctl sessions upgrade ts_2Qm… --timeout 10m

Agents whose update is refused (no update available, update checks disabled, already
updating, updated but not restarted) are reported with the reason and not restarted. The
rollout stops after the first batch with a failure unless --keep-going. Selectors leave out
Windows sessions (restart is not supported on Windows), reported as skipped as by
'sessions restart'."
    )]
    Upgrade {
        #[command(flatten)]
        fleet: FleetArgs,
        /// Agents per batch
        #[arg(long, value_name = "N", default_value_t = 5, value_parser = parse_parallel)]
        batch: usize,
        /// Wait between update and restart (at least 10s, as the service requires)
        #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = parse_settle, allow_hyphen_values = true)]
        settle: Duration,
        /// Go on with the next batch after failures
        ///
        /// Without it, the rollout stops after the first batch with a failure.
        #[arg(long)]
        keep_going: bool,
    },
    /// A full-screen live view of the online sessions
    ///
    /// Mark some sessions, then restart, stop or update them.
    #[command(after_help = watch::AFTER_HELP)]
    Watch {
        #[command(flatten)]
        select: SelectArgs,
        /// Refresh at most this often: seconds, or with a unit (10s, 1m)
        #[arg(long, value_name = "DURATION", default_value = "3s", value_parser = watch::parse_every, allow_hyphen_values = true)]
        every: Duration,
        /// Watch these config profiles at once
        ///
        /// Comma-separated or repeated; one list with a PROFILE column, and actions go to each
        /// session's own account.
        #[arg(long, value_name = "NAME,...", value_delimiter = ',', value_parser = super::non_empty, conflicts_with = "all_profiles")]
        profiles: Vec<String>,
        /// Watch every config profile, as --profiles does
        #[arg(long)]
        all_profiles: bool,
    },
}

fn parse_settle(s: &str) -> std::result::Result<Duration, String> {
    let d = crate::parse::parse_seconds(s)?;
    if d < upgrade::MIN_SETTLE {
        return Err(format!("'{s}' is less than 10s: the service needs at least 10 seconds between update and restart"));
    }
    Ok(d)
}

impl super::Group for SessionsArgs {
    const REACHES: super::Reaches = super::Reaches::Management;
    const CONFIRMING: &'static [&'static str] = &["stop"];

    async fn run(self, ctx: &crate::context::Context) -> crate::error::CommandResult {
        run(self, ctx).await
    }
}

/// Runs a `sessions` command.
pub async fn run(args: SessionsArgs, ctx: &Context) -> crate::error::CommandResult {
    Ok(match args.command {
        SessionsCommand::List { select, limit } => {
            let client = ctx.management()?;
            let sel = select.selector();
            if !sel.is_given() || sel.all {
                return Ok(print_list(ctx, RESOURCE.kind, RESOURCE.list(&client, limit)?).await?);
            }
            // Filtered on the client: read every page, keep what matches, up to the limit.
            let mut pages = RESOURCE.list(&client, None)?;
            let mut sink = ctx.printer.list(RESOURCE.kind)?;
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
                .object(RESOURCE.kind, &RESOURCE.get(&client, &id).await?)
        }
        SessionsCommand::Watch {
            select,
            every,
            profiles,
            all_profiles,
        } => {
            let accounts = watch::Accounts::of(profiles, all_profiles);
            watch::watch(ctx, select.selector(), every, accounts).await
        }
        SessionsCommand::Restart { .. }
        | SessionsCommand::Stop { .. }
        | SessionsCommand::Update { .. }
        | SessionsCommand::Upgrade { .. }
            if ctx.settings.values()?.read_only.value =>
        {
            let verb = args.command.verb();
            ctx.refuse_if_read_only(&format!("'sessions {verb}' changes sessions"))
        }
        SessionsCommand::Restart { fleet, wait } => {
            agent_command(ctx, &fleet, AgentCommand::Restart, wait).await
        }
        SessionsCommand::Stop { fleet } => {
            agent_command(ctx, &fleet, AgentCommand::Stop, false).await
        }
        SessionsCommand::Update { fleet } => {
            agent_command(ctx, &fleet, AgentCommand::Update, false).await
        }
        SessionsCommand::Upgrade {
            fleet,
            batch,
            settle,
            keep_going,
        } => {
            let console = console(ctx);
            let client = ctx.management()?;
            let selection = fleet.selection();
            let prepared =
                command::prepare(&console, client, &selection, "upgrade", true, fleet.dry_run)
                    .await?;
            let Some((client, targets)) = prepared else {
                return Ok(());
            };
            let plan = Plan {
                batch,
                parallel: fleet.parallel,
                settle,
                keep_going,
                reconnect_timeout: wait::DEFAULT_WAIT,
            };
            command::upgrade(&console, &client, &targets, &plan).await
        }
    }?)
}

/// `restart`, `stop` or `update` of the sessions `fleet` chooses; a stop is confirmed first.
async fn agent_command(
    ctx: &Context,
    fleet: &FleetArgs,
    agent: AgentCommand,
    wait_back: bool,
) -> Result<()> {
    let verb = agent.as_str();
    let console = console(ctx);
    let client = ctx.management()?;
    let selection = fleet.selection();
    let prepared =
        command::prepare(&console, client, &selection, verb, wait_back, fleet.dry_run).await?;
    let Some((client, targets)) = prepared else {
        return Ok(());
    };
    if agent == AgentCommand::Stop {
        // The question lists the first few sessions (ID, region, OS, host) and counts the rest,
        // so it never scrolls away.
        let send = &targets.send;
        let shown = super::crud::shown_count(send.len());
        let lines = targets::session_lines(&send[..shown]);
        ctx.prompter.confirm_items(
            &format!(
                "Stop the agent of {} session(s)? They exit and do not come back by themselves.",
                send.len()
            ),
            &lines,
            send.len() - shown,
        )?;
    }
    command::send(
        &console,
        &client,
        &targets,
        agent,
        fleet.parallel,
        wait_back,
    )
    .await
}

impl SessionsCommand {
    /// Its name, as typed after `sessions`.
    fn verb(&self) -> &'static str {
        match self {
            SessionsCommand::List { .. } => "list",
            SessionsCommand::Get { .. } => "get",
            SessionsCommand::Restart { .. } => "restart",
            SessionsCommand::Stop { .. } => "stop",
            SessionsCommand::Update { .. } => "update",
            SessionsCommand::Upgrade { .. } => "upgrade",
            SessionsCommand::Watch { .. } => "watch",
        }
    }
}

/// What a fleet command prints with and asks with.
fn console(ctx: &Context) -> crate::fleet::Console<'_> {
    crate::fleet::Console {
        printer: &ctx.printer,
        prompter: &ctx.prompter,
    }
}
