//! `tunnelctl apply -f FILE... [--prune]` or `apply PLAN`: makes the changes, after a
//! confirmation on a terminal (`--yes` elsewhere). A saved plan is applied only if the
//! account still holds what it saw.

use std::path::PathBuf;

use clap::Args;

use super::{make_plan, print_plan, FilesArgs};
use crate::account::apply;
use crate::account::live;
use crate::account::plan::AccountPlan;
use crate::account::rendering::summary_line;
use crate::commands::read_input;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape_path;

/// `apply`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl apply -f account.toml              # shows the plan, then asks
  tunnelctl apply -f accounts/ --prune --yes   # in CI: no terminal to ask on
  tunnelctl apply plan.json --yes              # a plan saved by plan --out
  tunnelctl apply -f account.toml --dry-run    # the same as plan")]
pub struct ApplyArgs {
    /// A plan saved by 'tunnelctl plan --out PLAN', applied only if the account still holds
    /// what it saw
    #[arg(value_name = "PLAN", conflicts_with_all = ["files", "prune"], value_parser = clap::value_parser!(PathBuf))]
    plan: Option<PathBuf>,
    #[command(flatten)]
    files: FilesArgs,
    /// Show the plan and change nothing (the same as 'tunnelctl plan')
    #[arg(long)]
    dry_run: bool,
}

impl crate::commands::Group for ApplyArgs {
    const REACHES: crate::commands::Reaches = crate::commands::Reaches::Management;
    const CONFIRMING: &'static [&'static str] = &[""];

    async fn run(self, ctx: &Context) -> crate::error::CommandResult {
        Ok(run(self, ctx).await?)
    }
}

/// The largest saved plan read.
const MAX_PLAN: usize = 64 * 1024 * 1024;

async fn run(args: ApplyArgs, ctx: &Context) -> Result<()> {
    let (client, plan) = match &args.plan {
        Some(path) => {
            let shown = escape_path(path);
            let bytes = read_input("apply", &path.to_string_lossy(), MAX_PLAN)?;
            let text = String::from_utf8(bytes)
                .map_err(|_| Error::usage(format!("{shown} is not a saved plan (not UTF-8)")))?;
            let plan = AccountPlan::from_saved(&text, &shown)?;
            let client = ctx.management()?;
            let here = super::api_origin(ctx)?;
            if plan.api != here {
                return Err(Error::usage(format!(
                    "{shown} was made against the API at {}, not {here}; nothing was sent",
                    crate::escape::escape(&plan.api)
                )));
            }
            let now = live::read(&client, &plan.read, &plan.edges).await?;
            let changed = apply::stale(&plan, &now);
            if !changed.is_empty() {
                return Err(Error::CheckFailed(format!(
                    "the account changed since the plan was made; nothing was sent. Make the plan again.\n{}",
                    changed.join("\n")
                )));
            }
            (client, plan)
        }
        None if args.files.files.is_empty() => {
            return Err(Error::usage(
                "name the account files (apply -f FILE, or -f DIR) or a saved plan (apply PLAN)",
            ))
        }
        None => make_plan(ctx, &args.files.files, args.files.prune).await?,
    };
    print_plan(ctx, &plan)?;
    if args.dry_run || !plan.changes {
        return Ok(());
    }
    // Refused before the question, not at the first write after it.
    ctx.refuse_if_read_only("apply would change the account")?;
    let secrets = apply::secrets(&plan)?;
    ctx.confirm(&format!("{} Apply these changes?", summary_line(&plan)))?;
    let report = |line: &str| ctx.printer.streams.err_line(line);
    let progress = apply::run(&client, &plan, &secrets, &report).await?;
    ctx.note(&format!("Applied {} change(s).", progress.done.len()));
    Ok(())
}
