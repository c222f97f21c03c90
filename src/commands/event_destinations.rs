//! `tunnelctl event-destinations …`: where events are delivered.
//!
//! The AWS secret access key never comes from the command line, where `ps` and shell history
//! would keep it: it is read from `TUNNELCTL_AWS_SECRET_ACCESS_KEY`, from stdin with
//! `--aws-secret-access-key-stdin`, or from a hidden prompt. A whole target given as JSON may
//! hold the secret only when it comes from a file (`--target-json @FILE`) or stdin
//! (`--target-json -`); on the command line it is refused before anything is sent.

use clap::{ArgGroup, Args, Subcommand};
use serde_json::Value;

use super::crud::Crud;
use super::resource_flags::{OwnFlags, ResourceFlags};
use super::{non_empty, value_or_file, LimitArg};
use crate::api::event_destinations::{aws_target, AwsAuth, AwsTarget, Delivery, RESOURCE};
use crate::api::Resource;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::prompt::Prompter;

/// Environment variable that holds the AWS secret access key.
pub const SECRET_ENV: &str = crate::registry::env::AWS_SECRET_ACCESS_KEY;

/// `event-destinations` and its verbs.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl event-destinations create \\
      --kinesis-stream-arn arn:aws:kinesis:…:stream/events \\
      --role-arn arn:aws:iam::…:role/deliver --description 'audit stream'
  TUNNELCTL_AWS_SECRET_ACCESS_KEY=… tunnelctl event-destinations create \\
      --cloudwatch-log-group-arn arn:aws:logs:… --aws-access-key-id AKIA…
  tunnelctl event-destinations create --target-json @target.json
  tunnelctl event-destinations create --target-json - < target.json")]
pub struct EventDestinationsArgs {
    #[command(subcommand)]
    command: DestinationsCommand,
}

#[derive(Debug, Subcommand)]
enum DestinationsCommand {
    /// List event destinations
    #[command(after_help = "Example:\n  tunnelctl event-destinations list")]
    List(LimitArg),
    /// Show one event destination
    #[command(after_help = "Example:\n  tunnelctl event-destinations get ed_2Qm…")]
    Get {
        /// Event destination ID (ed_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        id: String,
    },
    /// Create an event destination
    ///
    /// It takes exactly one target and exactly one way to authenticate.
    #[command(after_help = "Examples:
  tunnelctl event-destinations create \\
      --kinesis-stream-arn arn:aws:kinesis:…:stream/events \\
      --role-arn arn:aws:iam::…:role/deliver
  echo \"$SECRET\" | tunnelctl event-destinations create \\
      --firehose-delivery-stream-arn arn:aws:firehose:… \\
      --aws-access-key-id AKIA… --aws-secret-access-key-stdin")]
    Create(ResourceFlags<EventDestinationFlags>),
    /// Change an event destination
    ///
    /// Only the flags given are sent; a target replaces the target.
    #[command(
        after_help = "Example:\n  tunnelctl event-destinations update ed_2Qm… --description 'audit (eu)'"
    )]
    Update {
        /// Event destination ID (ed_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        id: String,
        #[command(flatten)]
        fields: ResourceFlags<EventDestinationFlags>,
    },
    /// Delete event destinations
    #[command(after_help = "Example:\n  tunnelctl event-destinations delete ed_2Qm… --yes")]
    Delete {
        /// Event destination IDs (ed_…)
        #[arg(required = true, add = clap_complete::ArgValueCandidates::new(crate::complete::Ids(&RESOURCE)))]
        ids: Vec<String>,
    },
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("target").args(["kinesis_stream_arn", "firehose_delivery_stream_arn", "cloudwatch_log_group_arn", "target_json"]).multiple(false)))]
#[command(group(ArgGroup::new("auth").args(["role_arn", "aws_access_key_id"]).multiple(false).conflicts_with("target_json")))]
struct EventDestinationFlags {
    /// Event format
    ///
    /// Serialization of the events; only json is accepted.
    #[arg(long, value_name = "FORMAT", value_parser = ["json"])]
    format: Option<String>,
    /// Target: the ARN of a Kinesis stream
    #[arg(long, value_name = "ARN", value_parser = non_empty)]
    kinesis_stream_arn: Option<String>,
    /// Target: Firehose delivery stream ARN
    #[arg(long, value_name = "ARN", value_parser = non_empty)]
    firehose_delivery_stream_arn: Option<String>,
    /// Target: CloudWatch log group ARN
    #[arg(long, value_name = "ARN", value_parser = non_empty)]
    cloudwatch_log_group_arn: Option<String>,
    /// Auth: ARN of a role to assume
    ///
    /// The service assumes it to deliver the events.
    #[arg(long, value_name = "ARN", value_parser = non_empty)]
    role_arn: Option<String>,
    /// Auth: the ID of an AWS access key; its secret comes from TUNNELCTL_AWS_SECRET_ACCESS_KEY,
    /// --aws-secret-access-key-stdin, or a hidden prompt
    #[arg(long, value_name = "ID", value_parser = non_empty)]
    aws_access_key_id: Option<String>,
    /// Read the AWS secret key from stdin
    ///
    /// Its first line is the secret access key.
    #[arg(long, requires = "aws_access_key_id")]
    aws_secret_access_key_stdin: bool,
    /// Whole target as JSON, @FILE or -
    ///
    /// An EventTarget object; @FILE reads it from a file, - from stdin. One holding an AWS
    /// secret access key must come from a file or stdin.
    #[arg(long, value_name = "JSON|@FILE|-")]
    target_json: Option<String>,
}

impl OwnFlags for EventDestinationFlags {
    const RESOURCE: &'static Resource = &RESOURCE;
    const DESCRIPTION_HELP: &'static str = "Human-readable description (at most 255 bytes)";
    const METADATA_HELP: &'static str = "Machine-readable data of your choice (at most 4096 bytes)";

    /// The rules name the API field `target`, which `--target-json` sets whole.
    fn flag_of(field: &'static str) -> &'static str {
        if field == "target" {
            "target_json"
        } else {
            field
        }
    }
}

impl EventDestinationFlags {
    fn aws_target(&self) -> Option<AwsTarget> {
        if let Some(a) = &self.kinesis_stream_arn {
            Some(AwsTarget::Kinesis(a.clone()))
        } else if let Some(a) = &self.firehose_delivery_stream_arn {
            Some(AwsTarget::Firehose(a.clone()))
        } else {
            self.cloudwatch_log_group_arn
                .clone()
                .map(AwsTarget::CloudwatchLogs)
        }
    }

    /// Builds the request; `create` demands a target.
    fn into_api(self, create: bool, prompter: &Prompter) -> Result<Delivery> {
        // clap drops `requires` when the required flag conflicts with one given, so check here.
        if self.aws_secret_access_key_stdin && self.aws_access_key_id.is_none() {
            return Err(Error::usage(
                "--aws-secret-access-key-stdin goes with --aws-access-key-id",
            ));
        }
        let target = if let Some(raw) = &self.target_json {
            Some(target_json(raw)?)
        } else if let Some(t) = self.aws_target() {
            let auth = if let Some(role) = &self.role_arn {
                AwsAuth::Role(role.clone())
            } else if let Some(id) = &self.aws_access_key_id {
                AwsAuth::Creds {
                    access_key_id: id.clone(),
                    secret_access_key: read_secret(self.aws_secret_access_key_stdin, prompter)?,
                }
            } else {
                return Err(Error::usage(
                    "the target needs exactly one way to authenticate: --role-arn ARN or --aws-access-key-id ID",
                ));
            };
            Some(aws_target(&t, &auth))
        } else if self.role_arn.is_some() || self.aws_access_key_id.is_some() {
            return Err(Error::usage(
                "--role-arn and --aws-access-key-id go with a target: --kinesis-stream-arn, --firehose-delivery-stream-arn or --cloudwatch-log-group-arn",
            ));
        } else if create {
            return Err(Error::usage(
                "exactly one target is required: --kinesis-stream-arn, --firehose-delivery-stream-arn, --cloudwatch-log-group-arn or --target-json",
            ));
        } else {
            None
        };
        Ok(Delivery {
            format: self.format,
            target,
        })
    }
}

/// The value of `--target-json`: inline JSON, `@FILE`, or `-` (stdin). Inline JSON holding an
/// AWS secret access key is refused: the command line is visible to every user in `ps` and
/// is kept in shell history, which is why the flags never take the secret either.
fn target_json(raw: &str) -> Result<Value> {
    let inline = !raw.starts_with('@') && raw != "-";
    let source = if raw == "-" { "@-" } else { raw };
    let text = value_or_file("--target-json", source)?;
    let refuse = || {
        Error::usage(
            "--target-json: an AWS secret access key on the command line is visible to other \
             users (ps) and stays in shell history; put the JSON in a file and pass \
             --target-json @FILE, or pipe it with --target-json -",
        )
    };
    // Checked on the text too, so that JSON too broken to parse is refused the same way.
    if inline && text.contains("aws_secret_access_key") {
        return Err(refuse());
    }
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| Error::usage(format!("--target-json: not valid JSON: {e}")))?;
    let mut secrets = Vec::new();
    collect_secrets(&v, &mut secrets);
    if inline && !secrets.is_empty() {
        return Err(refuse());
    }
    for s in secrets {
        crate::secrets::register_secret(s);
    }
    Ok(v)
}

/// The values of `aws_secret_access_key` fields, wherever they are (any case of the name).
fn collect_secrets<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::Object(map) => {
            for (k, val) in map {
                match val {
                    Value::String(s) if k.eq_ignore_ascii_case("aws_secret_access_key") => {
                        out.push(s)
                    }
                    other => collect_secrets(other, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_secrets(i, out)),
        _ => {}
    }
}

/// The AWS secret: the environment, stdin, or a hidden prompt; never a flag. It is
/// registered as a known secret, so no output shows it even if a server echoes it.
fn read_secret(from_stdin: bool, prompter: &Prompter) -> Result<String> {
    let secret = read_secret_text(from_stdin, prompter)?;
    crate::secrets::register_secret(&secret);
    Ok(secret)
}

fn read_secret_text(from_stdin: bool, prompter: &Prompter) -> Result<String> {
    if from_stdin {
        // Bounded like every other input read (1 MiB).
        let secret = super::stdin_line("--aws-secret-access-key-stdin")?;
        if secret.is_empty() {
            return Err(Error::usage(
                "--aws-secret-access-key-stdin: stdin held no secret",
            ));
        }
        return Ok(secret);
    }
    if let Ok(secret) = std::env::var(SECRET_ENV) {
        if !secret.is_empty() {
            return Ok(secret);
        }
    }
    if prompter.is_interactive() {
        return prompter.secret("AWS secret access key", false);
    }
    Err(Error::usage(format!(
        "--aws-access-key-id needs its secret: set {SECRET_ENV}, or pipe it with --aws-secret-access-key-stdin"
    )))
}

impl super::Group for EventDestinationsArgs {
    const REACHES: super::Reaches = super::Reaches::Management;
    const CONFIRMING: &'static [&'static str] = &["delete"];
    const ECHOES_SECRETS: bool = true;

    async fn run(self, ctx: &crate::context::Context) -> crate::error::CommandResult {
        run(self, ctx).await
    }
}

/// Runs an `event-destinations` command.
pub async fn run(args: EventDestinationsArgs, ctx: &Context) -> crate::error::CommandResult {
    Ok(match args.command {
        DestinationsCommand::List(l) => CRUD.list(ctx, l.limit).await,
        DestinationsCommand::Get { id } => CRUD.get(ctx, &id).await,
        DestinationsCommand::Create(fields) => {
            CRUD.create(
                ctx,
                &fields.into_fields(|f| f.into_api(true, &ctx.prompter))?,
            )
            .await
        }
        DestinationsCommand::Update { id, fields } => {
            let body = fields.into_fields(|f| f.into_api(false, &ctx.prompter))?;
            let flags = "--description, --metadata, --format, a target flag, --target-json";
            CRUD.update_and_show(ctx, &id, &body, flags).await
        }
        DestinationsCommand::Delete { ids } => CRUD.delete(ctx, &ids).await,
    }?)
}

const CRUD: Crud = Crud(&RESOURCE);
