//! `tunnelctl backends tunnel-group …`

use std::collections::BTreeMap;

use clap::{Args, Subcommand};

use super::crud::Crud;
use super::LimitArg;
use crate::api::backends::{TunnelGroupFields, RESOURCE};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::output::columns::BACKEND;

/// `backends` and its kinds.
#[derive(Debug, Args)]
pub struct BackendsArgs {
    #[command(subcommand)]
    command: BackendsCommand,
}

#[derive(Debug, Subcommand)]
enum BackendsCommand {
    /// Tunnel-group backends: route to the online tunnels whose labels match
    #[command(
        name = "tunnel-group",
        after_help = "Examples:
  tunnelctl backends tunnel-group create --label env=prod --label app=web \\
      --description 'prod web'
  tunnelctl backends tunnel-group list
  tunnelctl backends tunnel-group update bkdtg_2Qm… --label env=staging"
    )]
    TunnelGroup(TunnelGroupArgs),
}

#[derive(Debug, Args)]
struct TunnelGroupArgs {
    #[command(subcommand)]
    command: TunnelGroupCommand,
}

#[derive(Debug, Subcommand)]
enum TunnelGroupCommand {
    /// List tunnel-group backends
    #[command(after_help = "Example:\n  tunnelctl backends tunnel-group list --json")]
    List(LimitArg),
    /// Show one tunnel-group backend and the tunnels it matches
    #[command(after_help = "Example:\n  tunnelctl backends tunnel-group get bkdtg_2Qm…")]
    Get {
        /// Backend ID (bkdtg_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::backend_ids))]
        id: String,
    },
    /// Create a tunnel-group backend
    #[command(
        after_help = "Example:\n  tunnelctl backends tunnel-group create --label env=prod \\\n      --description 'prod web'"
    )]
    Create(Fields),
    /// Change a tunnel-group backend (only the flags given are sent; --label replaces all labels)
    #[command(
        after_help = "Example:\n  tunnelctl backends tunnel-group update bkdtg_2Qm… --label env=prod \\\n      --label tier=2"
    )]
    Update {
        /// Backend ID (bkdtg_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::backend_ids))]
        id: String,
        #[command(flatten)]
        fields: Fields,
    },
    /// Delete tunnel-group backends
    #[command(after_help = "Example:\n  tunnelctl backends tunnel-group delete bkdtg_2Qm… --yes")]
    Delete {
        /// Backend IDs (bkdtg_…)
        #[arg(required = true, add = clap_complete::ArgValueCandidates::new(crate::complete::backend_ids))]
        ids: Vec<String>,
    },
}

#[derive(Debug, Args)]
struct Fields {
    /// Human-readable description
    #[arg(long, value_name = "TEXT")]
    description: Option<String>,
    /// Machine-readable data of your choice
    #[arg(long, value_name = "TEXT")]
    metadata: Option<String>,
    /// Label a tunnel must carry, KEY=VALUE (repeatable; on update the given set replaces the map)
    #[arg(long = "label", value_name = "KEY=VALUE", value_parser = parse_label)]
    labels: Vec<(String, String)>,
}

/// `KEY=VALUE` with a non-empty key.
fn parse_label(s: &str) -> std::result::Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.to_string(), v.to_string())),
        Some(_) => Err(format!("'{s}' has an empty key; expected KEY=VALUE")),
        None => Err(format!("'{s}' is not KEY=VALUE")),
    }
}

impl Fields {
    fn into_api(self) -> Result<TunnelGroupFields> {
        let labels = if self.labels.is_empty() {
            None
        } else {
            let mut map = BTreeMap::new();
            for (k, v) in self.labels {
                if map.insert(k.clone(), v).is_some() {
                    return Err(Error::usage(format!(
                        "--label: the key '{}' is given twice",
                        escape(&k)
                    )));
                }
            }
            Some(map)
        };
        Ok(TunnelGroupFields {
            description: self.description,
            metadata: self.metadata,
            labels,
        })
    }
}

/// Runs a `backends` command.
pub async fn run(args: BackendsArgs, ctx: &Context) -> crate::error::CommandResult {
    let BackendsCommand::TunnelGroup(tg) = args.command;
    Ok(match tg.command {
        TunnelGroupCommand::List(l) => CRUD.list(ctx, l.limit).await,
        TunnelGroupCommand::Get { id } => CRUD.get(ctx, &id).await,
        TunnelGroupCommand::Create(fields) => CRUD.create(ctx, &fields.into_api()?).await,
        TunnelGroupCommand::Update { id, fields } => {
            let flags = "--description, --metadata, --label";
            let mut updated = CRUD.update(ctx, &id, &fields.into_api()?, flags).await?;
            // The API answers `labels: null` to a PATCH that did not set labels, although it
            // kept them. JSON shows the answer as it is; people are shown the stored labels.
            let labels_unknown = updated
                .get("labels")
                .is_some_and(serde_json::Value::is_null);
            if labels_unknown && ctx.printer.for_people() {
                if let Ok(fresh) = RESOURCE.get(&ctx.management()?, &id).await {
                    updated = fresh;
                }
            }
            ctx.printer.object(&BACKEND, &updated)
        }
        TunnelGroupCommand::Delete { ids } => CRUD.delete(ctx, &ids).await,
    }?)
}

const CRUD: Crud = Crud {
    resource: &RESOURCE,
    kind: &BACKEND,
    list_command: "tunnelctl backends tunnel-group list",
};

#[cfg(test)]
mod tests {
    use super::parse_label;

    #[test]
    fn labels() {
        assert_eq!(parse_label("a=b=c"), Ok(("a".into(), "b=c".into())));
        assert_eq!(parse_label("a="), Ok(("a".into(), "".into())));
        assert!(parse_label("=b").is_err());
        assert!(parse_label("ab").is_err());
    }
}
