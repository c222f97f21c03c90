//! `tunnelctl backends tunnel-group …`

use std::collections::BTreeMap;

use clap::{Args, Subcommand};

use super::crud::Crud;
use super::resource_flags::{OwnFlags, ResourceFlags};
use super::LimitArg;
use crate::api::backends::{Labels, RESOURCE};
use crate::api::Resource;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape;

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
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        id: String,
    },
    /// Create a tunnel-group backend
    #[command(
        after_help = "Example:\n  tunnelctl backends tunnel-group create --label env=prod \\\n      --description 'prod web'"
    )]
    Create(ResourceFlags<BackendFlags>),
    /// Change a tunnel-group backend (only the flags given are sent; --label replaces all labels)
    #[command(
        after_help = "Example:\n  tunnelctl backends tunnel-group update bkdtg_2Qm… --label env=prod \\\n      --label tier=2"
    )]
    Update {
        /// Backend ID (bkdtg_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        id: String,
        #[command(flatten)]
        fields: ResourceFlags<BackendFlags>,
    },
    /// Delete tunnel-group backends
    #[command(after_help = "Example:\n  tunnelctl backends tunnel-group delete bkdtg_2Qm… --yes")]
    Delete {
        /// Backend IDs (bkdtg_…)
        #[arg(required = true, add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        ids: Vec<String>,
    },
}

/// The own flags of a tunnel-group backend.
#[derive(Debug, Args)]
struct BackendFlags {
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

impl OwnFlags for BackendFlags {
    const RESOURCE: &'static Resource = &RESOURCE;
    const DESCRIPTION_HELP: &'static str = "Human-readable description";
    const METADATA_HELP: &'static str = "Machine-readable data of your choice";
}

impl BackendFlags {
    fn into_api(self) -> Result<Labels> {
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
        Ok(Labels { labels })
    }
}

impl super::Group for BackendsArgs {
    const REACHES: super::Reaches = super::Reaches::Management;
    const CONFIRMING: &'static [&'static str] = &["tunnel-group delete"];

    async fn run(self, ctx: &crate::context::Context) -> crate::error::CommandResult {
        run(self, ctx).await
    }
}

/// Runs a `backends` command.
pub async fn run(args: BackendsArgs, ctx: &Context) -> crate::error::CommandResult {
    let BackendsCommand::TunnelGroup(tg) = args.command;
    Ok(match tg.command {
        TunnelGroupCommand::List(l) => CRUD.list(ctx, l.limit).await,
        TunnelGroupCommand::Get { id } => CRUD.get(ctx, &id).await,
        TunnelGroupCommand::Create(fields) => {
            CRUD.create(ctx, &fields.into_fields(BackendFlags::into_api)?)
                .await
        }
        TunnelGroupCommand::Update { id, fields } => {
            let flags = "--description, --metadata, --label";
            let mut updated = CRUD
                .update(
                    ctx,
                    &id,
                    &fields.into_fields(BackendFlags::into_api)?,
                    flags,
                )
                .await?;
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
            ctx.printer.object(RESOURCE.kind, &updated)
        }
        TunnelGroupCommand::Delete { ids } => CRUD.delete(ctx, &ids).await,
    }?)
}

const CRUD: Crud = Crud(&RESOURCE);

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
