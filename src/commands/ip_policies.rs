//! `tunnelctl ip-policies …`

use clap::{Args, Subcommand};

use super::crud::Crud;
use super::resource_flags::{OwnFlags, ResourceFlags};
use super::LimitArg;
use crate::api::ip_policies::RESOURCE;
use crate::api::Resource;
use crate::context::Context;

/// `ip-policies` and its verbs.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl ip-policies list
  tunnelctl ip-policies create --description 'office network' \\
      --metadata '{\"team\":\"ops\"}'
  tunnelctl ip-policies update ipp_2Qm… --description 'office and VPN'
  tunnelctl ip-policies delete ipp_2Qm… ipp_2Qn… --yes")]
pub struct IpPoliciesArgs {
    #[command(subcommand)]
    command: IpPoliciesCommand,
}

#[derive(Debug, Subcommand)]
enum IpPoliciesCommand {
    /// List IP policies
    #[command(
        after_help = "Examples:\n  tunnelctl ip-policies list\n  tunnelctl ip-policies list --limit 5 --json"
    )]
    List(LimitArg),
    /// Show one IP policy
    #[command(after_help = "Example:\n  tunnelctl ip-policies get ipp_2Qm…")]
    Get {
        /// IP policy ID (ipp_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        id: String,
    },
    /// Create an IP policy
    #[command(
        after_help = "Example:\n  tunnelctl ip-policies create --description 'office network'"
    )]
    Create(ResourceFlags<IpPolicyFlags>),
    /// Change the description or metadata of an IP policy (only the flags given are sent)
    #[command(
        after_help = "Example:\n  tunnelctl ip-policies update ipp_2Qm… --metadata '{\"owner\":\"ops\"}'"
    )]
    Update {
        /// IP policy ID (ipp_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        id: String,
        #[command(flatten)]
        fields: ResourceFlags<IpPolicyFlags>,
    },
    /// Delete IP policies
    #[command(after_help = "Example:\n  tunnelctl ip-policies delete ipp_2Qm… --yes")]
    Delete {
        /// IP policy IDs (ipp_…)
        #[arg(required = true, add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        ids: Vec<String>,
    },
}

/// An IP policy has no flags beyond the shared two.
#[derive(Debug, Args)]
struct IpPolicyFlags {}

impl OwnFlags for IpPolicyFlags {
    const RESOURCE: &'static Resource = &RESOURCE;
    const DESCRIPTION_HELP: &'static str =
        "Human-readable description of the source IPs (at most 255 bytes)";
    const METADATA_HELP: &'static str = "Machine-readable data of your choice (at most 4096 bytes)";
}

const CRUD: Crud = Crud(&RESOURCE);

impl super::Group for IpPoliciesArgs {
    const REACHES: super::Reaches = super::Reaches::Management;
    const CONFIRMING: &'static [&'static str] = &["delete"];

    async fn run(self, ctx: &crate::context::Context) -> crate::error::CommandResult {
        run(self, ctx).await
    }
}

/// Runs an `ip-policies` command.
pub async fn run(args: IpPoliciesArgs, ctx: &Context) -> crate::error::CommandResult {
    Ok(match args.command {
        IpPoliciesCommand::List(l) => CRUD.list(ctx, l.limit).await,
        IpPoliciesCommand::Get { id } => CRUD.get(ctx, &id).await,
        IpPoliciesCommand::Create(fields) => {
            CRUD.create(ctx, &fields.into_fields(|_| Ok(()))?).await
        }
        IpPoliciesCommand::Update { id, fields } => {
            let body = fields.into_fields(|_| Ok(()))?;
            CRUD.update_and_show(ctx, &id, &body, "--description, --metadata")
                .await
        }
        IpPoliciesCommand::Delete { ids } => CRUD.delete(ctx, &ids).await,
    }?)
}
