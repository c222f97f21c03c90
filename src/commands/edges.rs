//! `tunnelctl edges tls-termination …`: the TLS termination module of a TLS edge.

use clap::{Args, Subcommand, ValueEnum};

use super::check;
use crate::api::sets_nothing;
use crate::api::tls_termination::{self, TlsTermination};
use crate::context::Context;
use crate::error::Error;
use crate::escape::escape;
use crate::output::columns::TLS_TERMINATION;

/// `edges` and its modules.
#[derive(Debug, Args)]
pub struct EdgesArgs {
    #[command(subcommand)]
    command: EdgesCommand,
}

#[derive(Debug, Subcommand)]
enum EdgesCommand {
    /// The TLS termination module of a TLS edge (edgtls_…)
    #[command(
        name = "tls-termination",
        after_help = "Examples:
  tunnelctl edges tls-termination get edgtls_2Qm…
  tunnelctl edges tls-termination set edgtls_2Qm… --terminate-at edge \\
      --min-version 1.3
  tunnelctl edges tls-termination set edgtls_2Qm… --terminate-at upstream
  tunnelctl edges tls-termination delete edgtls_2Qm… --yes"
    )]
    TlsTermination(TlsArgs),
}

#[derive(Debug, Args)]
struct TlsArgs {
    #[command(subcommand)]
    command: TlsCommand,
}

/// Where TLS is terminated.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum TerminateAt {
    /// The service's edge terminates TLS
    Edge,
    /// TLS passes through to the upstream agent or application
    Upstream,
}

#[derive(Debug, Subcommand)]
enum TlsCommand {
    /// Show the module of an edge
    #[command(after_help = "Example:\n  tunnelctl edges tls-termination get edgtls_2Qm…")]
    Get {
        /// TLS edge ID (edgtls_…)
        edge_id: String,
    },
    /// Configure the module of an edge (replaces it)
    #[command(after_help = "Examples:
  tunnelctl edges tls-termination set edgtls_2Qm… --terminate-at edge \\
      --min-version 1.2
  tunnelctl edges tls-termination set edgtls_2Qm… --terminate-at upstream \\
      --enabled true")]
    Set {
        /// TLS edge ID (edgtls_…)
        edge_id: String,
        /// Where TLS is terminated; with 'upstream', --min-version must not be given
        #[arg(long, value_enum, value_name = "WHERE")]
        terminate_at: Option<TerminateAt>,
        /// Minimum TLS version: 1.0, 1.1, 1.2 or 1.3 (the service picks a safe default when unset)
        #[arg(long, value_name = "VERSION")]
        min_version: Option<String>,
        /// Apply the module to traffic (the service's default is true)
        #[arg(long, value_name = "true|false", value_parser = parse_bool)]
        enabled: Option<bool>,
    },
    /// Remove the module of an edge
    #[command(after_help = "Example:\n  tunnelctl edges tls-termination delete edgtls_2Qm… --yes")]
    Delete {
        /// TLS edge ID (edgtls_…)
        edge_id: String,
    },
}

fn parse_bool(s: &str) -> std::result::Result<bool, String> {
    match s {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("'{s}' is neither 'true' nor 'false'")),
    }
}

impl super::Group for EdgesArgs {
    const REACHES: super::Reaches = super::Reaches::Management;
    const CONFIRMING: &'static [&'static str] = &["tls-termination delete"];

    async fn run(self, ctx: &crate::context::Context) -> crate::error::CommandResult {
        run(self, ctx).await
    }
}

/// Runs an `edges` command.
pub async fn run(args: EdgesArgs, ctx: &Context) -> crate::error::CommandResult {
    let EdgesCommand::TlsTermination(tls) = args.command;
    Ok(match tls.command {
        TlsCommand::Get { edge_id } => {
            let client = ctx.management()?;
            ctx.printer.object(
                &TLS_TERMINATION,
                &tls_termination::get(&client, &edge_id).await?,
            )
        }
        TlsCommand::Set {
            edge_id,
            terminate_at,
            min_version,
            enabled,
        } => {
            let mut module = TlsTermination {
                enabled,
                terminate_at: terminate_at.map(|t| match t {
                    TerminateAt::Edge => "edge".to_string(),
                    TerminateAt::Upstream => "upstream".to_string(),
                }),
                min_version: min_version.map(Some),
            };
            if sets_nothing(&module) {
                return Err(Error::usage(
                    "nothing to set: give at least one of --terminate-at, --min-version, --enabled",
                )
                .into());
            }
            check(module.validate())?;
            let client = ctx.management()?;
            ctx.printer.object(
                &TLS_TERMINATION,
                &tls_termination::set(&client, &edge_id, &module).await?,
            )
        }
        TlsCommand::Delete { edge_id } => {
            let client = ctx.management()?;
            ctx.confirm(&format!(
                "Remove the TLS termination module of {}?",
                escape(&edge_id)
            ))?;
            tls_termination::delete(&client, &edge_id).await?;
            ctx.note(&format!(
                "Removed the TLS termination module of {}",
                escape(&edge_id)
            ));
            Ok(())
        }
    }?)
}
