//! `tunnelctl sessions …`: online tunnel sessions and commands to their agents.

use clap::{Args, Subcommand};

use super::{for_each_id, print_list, LimitArg};
use crate::api::sessions::{self, AgentCommand, RESOURCE};
use crate::context::Context;
use crate::error::Result;
use crate::output::columns::SESSION;
use crate::output::escape::escape;

/// `sessions` and its verbs.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl sessions list
  tunnelctl sessions get ts_2Qm…
  tunnelctl sessions restart ts_2Qm… ts_2Qn…
  tunnelctl sessions update ts_2Qm…     # then wait 10 s or more and restart it
  tunnelctl sessions stop ts_2Qm… --yes")]
pub struct SessionsArgs {
    #[command(subcommand)]
    command: SessionsCommand,
}

#[derive(Debug, Subcommand)]
enum SessionsCommand {
    /// List online tunnel sessions
    #[command(
        after_help = "Examples:\n  tunnelctl sessions list\n  tunnelctl sessions list --jq '.[] | select(.region == \"eu\") | .id'"
    )]
    List(LimitArg),
    /// Show one tunnel session
    #[command(after_help = "Example:\n  tunnelctl sessions get ts_2Qm…")]
    Get {
        /// Session ID (ts_…)
        id: String,
    },
    /// Restart the agents of sessions (each reconnects with a new session ID; not on Windows)
    #[command(after_help = "Example:\n  tunnelctl sessions restart ts_2Qm… ts_2Qn…")]
    Restart {
        /// Session IDs (ts_…)
        #[arg(required = true)]
        ids: Vec<String>,
    },
    /// Stop the agents of sessions (they exit)
    #[command(after_help = "Example:\n  tunnelctl sessions stop ts_2Qm… --yes")]
    Stop {
        /// Session IDs (ts_…)
        #[arg(required = true)]
        ids: Vec<String>,
    },
    /// Update the agents of sessions; restart them 10 seconds or more later to run the new version
    #[command(
        after_help = "Example:\n  tunnelctl sessions update ts_2Qm… && sleep 10 && tunnelctl sessions restart ts_2Qm…"
    )]
    Update {
        /// Session IDs (ts_…)
        #[arg(required = true)]
        ids: Vec<String>,
    },
}

/// Runs a `sessions` command.
pub async fn run(args: SessionsArgs, ctx: &Context) -> Result<()> {
    let (ids, command, done) = match args.command {
        SessionsCommand::List(l) => {
            let client = ctx.management()?;
            return print_list(ctx, &SESSION, RESOURCE.list(&client, l.limit)?).await;
        }
        SessionsCommand::Get { id } => {
            let client = ctx.management()?;
            return ctx.out.object(&SESSION, &RESOURCE.get(&client, &id).await?);
        }
        SessionsCommand::Restart { ids } => (ids, AgentCommand::Restart, "Restart sent to"),
        SessionsCommand::Stop { ids } => (ids, AgentCommand::Stop, "Stopped"),
        SessionsCommand::Update { ids } => (ids, AgentCommand::Update, "Update sent to"),
    };
    let client = ctx.management()?;
    if command == AgentCommand::Stop {
        ctx.confirm(&format!(
            "Stop the agent of {} session(s): {}? They exit and do not come back by themselves.",
            ids.len(),
            escape(&ids.join(", "))
        ))?;
    }
    for_each_id(ctx, &ids, done, |id| {
        let client = &client;
        async move { sessions::send(client, &id, command).await }
    })
    .await
}
