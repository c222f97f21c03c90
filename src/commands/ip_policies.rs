//! `tunnelctl ip-policies …`

use clap::{Args, Subcommand};

use super::crud::Crud;
use super::{check, LimitArg};
use crate::api::ip_policies::{IpPolicyFields, RESOURCE};
use crate::context::Context;
use crate::error::Result;
use crate::output::columns::IP_POLICY;

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
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::ip_policy_ids))]
        id: String,
    },
    /// Create an IP policy
    #[command(
        after_help = "Example:\n  tunnelctl ip-policies create --description 'office network'"
    )]
    Create(Fields),
    /// Change the description or metadata of an IP policy (only the flags given are sent)
    #[command(
        after_help = "Example:\n  tunnelctl ip-policies update ipp_2Qm… --metadata '{\"owner\":\"ops\"}'"
    )]
    Update {
        /// IP policy ID (ipp_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::ip_policy_ids))]
        id: String,
        #[command(flatten)]
        fields: Fields,
    },
    /// Delete IP policies
    #[command(after_help = "Example:\n  tunnelctl ip-policies delete ipp_2Qm… --yes")]
    Delete {
        /// IP policy IDs (ipp_…)
        #[arg(required = true, add = clap_complete::ArgValueCandidates::new(crate::complete::ip_policy_ids))]
        ids: Vec<String>,
    },
}

#[derive(Debug, Args)]
struct Fields {
    /// Human-readable description of the source IPs (at most 255 bytes)
    #[arg(long, value_name = "TEXT")]
    description: Option<String>,
    /// Machine-readable data of your choice (at most 4096 bytes)
    #[arg(long, value_name = "TEXT")]
    metadata: Option<String>,
}

impl Fields {
    fn into_api(self) -> Result<IpPolicyFields> {
        let f = IpPolicyFields {
            description: self.description,
            metadata: self.metadata,
        };
        check(f.validate())?;
        Ok(f)
    }
}

const CRUD: Crud = Crud {
    resource: &RESOURCE,
    kind: &IP_POLICY,
    list_command: "tunnelctl ip-policies list",
};

/// Runs an `ip-policies` command.
pub async fn run(args: IpPoliciesArgs, ctx: &Context) -> crate::error::CommandResult {
    Ok(match args.command {
        IpPoliciesCommand::List(l) => CRUD.list(ctx, l.limit).await,
        IpPoliciesCommand::Get { id } => CRUD.get(ctx, &id).await,
        IpPoliciesCommand::Create(fields) => CRUD.create(ctx, &fields.into_api()?).await,
        IpPoliciesCommand::Update { id, fields } => {
            let body = fields.into_api()?;
            CRUD.update_and_show(ctx, &id, &body, "--description, --metadata")
                .await
        }
        IpPoliciesCommand::Delete { ids } => CRUD.delete(ctx, &ids).await,
    }?)
}
