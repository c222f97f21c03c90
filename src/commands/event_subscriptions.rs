//! `tunnelctl event-subscriptions …` and `event-subscriptions sources …`.

use clap::{Args, Subcommand};

use super::crud::Crud;
use super::resource_flags::{OwnFlags, ResourceFlags};
use super::{non_empty, print_list, LimitArg};
use crate::api::event_sources;
use crate::api::event_subscriptions::{Routes, SourceType, RESOURCE};
use crate::api::Resource;
use crate::context::Context;
use crate::error::Result;
use crate::escape::escape;
use crate::output::columns::EVENT_SOURCE;

/// `event-subscriptions` and its verbs.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl event-subscriptions create --source ip_policy_created.v0 \\
      --source ip_policy_updated.v0 --destination-id ed_2Qm… \\
      --description 'policy changes'
  tunnelctl event-subscriptions list
  tunnelctl event-subscriptions sources create esb_2Qm… ip_policy_deleted.v0")]
pub struct EventSubscriptionsArgs {
    #[command(subcommand)]
    command: SubscriptionsCommand,
}

#[derive(Debug, Subcommand)]
enum SubscriptionsCommand {
    /// List event subscriptions
    #[command(after_help = "Example:\n  tunnelctl event-subscriptions list --json")]
    List(LimitArg),
    /// Show one event subscription
    #[command(after_help = "Example:\n  tunnelctl event-subscriptions get esb_2Qm…")]
    Get {
        /// Event subscription ID (esb_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        id: String,
    },
    /// Create an event subscription
    #[command(
        after_help = "Example:\n  tunnelctl event-subscriptions create --source ip_policy_created.v0 \\\n      --destination-id ed_2Qm…"
    )]
    Create(ResourceFlags<EventSubscriptionFlags>),
    /// Change an event subscription (only the flags given are sent; a list given replaces the list)
    #[command(
        after_help = "Example:\n  tunnelctl event-subscriptions update esb_2Qm… --destination-id ed_2Qm… \\\n      --destination-id ed_2Qn…"
    )]
    Update {
        /// Event subscription ID (esb_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        id: String,
        #[command(flatten)]
        fields: ResourceFlags<EventSubscriptionFlags>,
    },
    /// Delete event subscriptions
    #[command(after_help = "Example:\n  tunnelctl event-subscriptions delete esb_2Qm… --yes")]
    Delete {
        /// Event subscription IDs (esb_…)
        #[arg(required = true, add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        ids: Vec<String>,
    },
    /// The event types (sources) of a subscription
    #[command(after_help = "Examples:
  tunnelctl event-subscriptions sources list esb_2Qm…
  tunnelctl event-subscriptions sources create esb_2Qm… ip_policy_deleted.v0
  tunnelctl event-subscriptions sources delete esb_2Qm… ip_policy_updated.v0 \\
      --yes")]
    Sources(SourcesArgs),
}

/// The own flags of an event subscription.
#[derive(Debug, Args)]
struct EventSubscriptionFlags {
    /// An event type that triggers the subscription, e.g. ip_policy_created.v0 (repeatable)
    #[arg(long = "source", value_name = "TYPE", value_parser = non_empty)]
    sources: Vec<String>,
    /// An event destination that receives the events (repeatable)
    #[arg(long = "destination-id", value_name = "ID", value_parser = non_empty, add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&crate::api::event_destinations::RESOURCE)))]
    destination_ids: Vec<String>,
}

impl OwnFlags for EventSubscriptionFlags {
    const RESOURCE: &'static Resource = &RESOURCE;
    const DESCRIPTION_HELP: &'static str = "Human-readable description (at most 255 characters)";
    const METADATA_HELP: &'static str =
        "Machine-readable data of your choice (at most 4096 characters)";
}

impl EventSubscriptionFlags {
    fn into_api(self) -> Result<Routes> {
        Ok(Routes {
            sources: (!self.sources.is_empty()).then(|| {
                self.sources
                    .into_iter()
                    .map(|kind| SourceType { kind })
                    .collect()
            }),
            destination_ids: (!self.destination_ids.is_empty()).then_some(self.destination_ids),
        })
    }
}

#[derive(Debug, Args)]
struct SourcesArgs {
    #[command(subcommand)]
    command: SourcesCommand,
}

#[derive(Debug, Subcommand)]
enum SourcesCommand {
    /// List the event types of a subscription
    #[command(after_help = "Example:\n  tunnelctl event-subscriptions sources list esb_2Qm…")]
    List {
        /// Event subscription ID (esb_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        subscription_id: String,
        #[command(flatten)]
        limit: LimitArg,
    },
    /// Show one event type of a subscription
    #[command(
        after_help = "Example:\n  tunnelctl event-subscriptions sources get esb_2Qm… ip_policy_created.v0"
    )]
    Get {
        /// Event subscription ID (esb_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        subscription_id: String,
        /// Event type, e.g. ip_policy_created.v0
        #[arg(value_name = "TYPE", value_parser = non_empty)]
        kind: String,
    },
    /// Add an event type to a subscription
    #[command(
        after_help = "Example:\n  tunnelctl event-subscriptions sources create esb_2Qm… ip_policy_deleted.v0"
    )]
    Create {
        /// Event subscription ID (esb_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        subscription_id: String,
        /// Event type, e.g. ip_policy_created.v0
        #[arg(value_name = "TYPE", value_parser = non_empty)]
        kind: String,
    },
    /// Update an event type of a subscription (the API takes no fields yet)
    #[command(
        after_help = "Example:\n  tunnelctl event-subscriptions sources update esb_2Qm… ip_policy_updated.v0"
    )]
    Update {
        /// Event subscription ID (esb_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        subscription_id: String,
        /// Event type, e.g. ip_policy_created.v0
        #[arg(value_name = "TYPE", value_parser = non_empty)]
        kind: String,
    },
    /// Remove an event type from a subscription
    #[command(
        after_help = "Example:\n  tunnelctl event-subscriptions sources delete esb_2Qm… ip_policy_updated.v0 \\\n      --yes"
    )]
    Delete {
        /// Event subscription ID (esb_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        subscription_id: String,
        /// Event type, e.g. ip_policy_created.v0
        #[arg(value_name = "TYPE", value_parser = non_empty)]
        kind: String,
    },
}

impl super::Group for EventSubscriptionsArgs {
    const REACHES: super::Reaches = super::Reaches::Management;
    const CONFIRMING: &'static [&'static str] = &["delete", "sources delete"];

    async fn run(self, ctx: &crate::context::Context) -> crate::error::CommandResult {
        run(self, ctx).await
    }
}

/// Runs an `event-subscriptions` command.
pub async fn run(args: EventSubscriptionsArgs, ctx: &Context) -> crate::error::CommandResult {
    Ok(match args.command {
        SubscriptionsCommand::List(l) => CRUD.list(ctx, l.limit).await,
        SubscriptionsCommand::Get { id } => CRUD.get(ctx, &id).await,
        SubscriptionsCommand::Create(fields) => {
            CRUD.create(ctx, &fields.into_fields(EventSubscriptionFlags::into_api)?)
                .await
        }
        SubscriptionsCommand::Update { id, fields } => {
            let flags = "--description, --metadata, --source, --destination-id";
            CRUD.update_and_show(
                ctx,
                &id,
                &fields.into_fields(EventSubscriptionFlags::into_api)?,
                flags,
            )
            .await
        }
        SubscriptionsCommand::Delete { ids } => CRUD.delete(ctx, &ids).await,
        SubscriptionsCommand::Sources(s) => run_sources(s, ctx).await,
    }?)
}

const CRUD: Crud = Crud(&RESOURCE);

async fn run_sources(args: SourcesArgs, ctx: &Context) -> Result<()> {
    let client = ctx.management()?;
    let shown = match args.command {
        SourcesCommand::List {
            subscription_id,
            limit,
        } => {
            let pages = event_sources::list(&client, &subscription_id, limit.limit)?;
            return print_list(ctx, &EVENT_SOURCE, pages).await;
        }
        SourcesCommand::Get {
            subscription_id: id,
            kind,
        } => event_sources::get(&client, &id, &kind).await?,
        SourcesCommand::Create {
            subscription_id: id,
            kind,
        } => event_sources::create(&client, &id, &kind)
            .await
            .map_err(|e| {
                e.with_check(&format!("tunnelctl event-subscriptions sources list {id}"))
            })?,
        SourcesCommand::Update {
            subscription_id: id,
            kind,
        } => event_sources::update(&client, &id, &kind).await?,
        SourcesCommand::Delete {
            subscription_id: id,
            kind,
        } => {
            let (shown_kind, from) = (escape(&kind), escape(&id));
            ctx.confirm(&format!("Remove the event type {shown_kind} from {from}?"))?;
            event_sources::delete(&client, &id, &kind).await?;
            ctx.note(&format!("Removed {shown_kind} from {from}"));
            return Ok(());
        }
    };
    ctx.printer.object(&EVENT_SOURCE, &shown)
}
