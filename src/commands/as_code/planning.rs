//! `tunnelctl plan -f FILE... [--prune] [--out PLAN] [--exit-code]`: what `apply` would do.

use std::path::PathBuf;

use clap::Args;

use super::{make_plan, print_plan, FilesArgs};
use crate::commands::local::user_file;
use crate::context::Context;
use crate::error::{Error, Result};

/// `plan`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl plan -f account.toml
  tunnelctl plan -f accounts/ --prune
  tunnelctl plan -f account.toml --out plan.json   # apply it: apply plan.json
  tunnelctl plan -f account.toml --exit-code       # 0 none, 8 pending
  tunnelctl plan -f account.toml --json")]
pub struct PlanArgs {
    #[command(flatten)]
    files: FilesArgs,
    /// Save the plan to apply it later with 'tunnelctl apply PLAN' (refused if PLAN exists,
    /// unless --force)
    #[arg(long, value_name = "PLAN", value_parser = clap::value_parser!(PathBuf))]
    out: Option<PathBuf>,
    /// Overwrite the file --out names
    #[arg(long)]
    force: bool,
    /// Exit 8 when there are changes to make (0 when none; errors keep their own codes)
    #[arg(long)]
    exit_code: bool,
    /// Account files named without -f: refused, with the command meant
    #[arg(hide = true, value_name = "FILE", value_parser = clap::value_parser!(PathBuf))]
    without_f: Vec<PathBuf>,
}

impl crate::commands::Group for PlanArgs {
    const REACHES: crate::commands::Reaches = crate::commands::Reaches::Management;

    async fn run(self, ctx: &Context) -> crate::error::CommandResult {
        Ok(run(self, ctx).await?)
    }
}

async fn run(args: PlanArgs, ctx: &Context) -> Result<()> {
    if !args.without_f.is_empty() {
        return Err(super::without_f("plan", &args.without_f));
    }
    if args.files.files.is_empty() {
        return Err(Error::usage(
            "name the account files: plan -f FILE (or -f DIR for every *.toml in it)",
        ));
    }
    if let Some(out) = &args.out {
        user_file::check_free(out, args.force)?;
    }
    let (_, plan) = make_plan(ctx, &args.files.files, args.files.prune).await?;
    if let Some(out) = &args.out {
        let text = serde_json::to_string_pretty(&plan)
            .map_err(|e| Error::Io(format!("could not encode the plan: {e}")))?;
        user_file::write(ctx, out, format!("{text}\n").as_bytes(), args.force)?;
        ctx.note(&format!(
            "Saved the plan to {}; apply it with: tunnelctl apply {}",
            user_file::shown(out),
            user_file::shown(out)
        ));
    }
    print_plan(ctx, &plan)?;
    if args.exit_code && plan.changes {
        return Err(Error::CheckFailed(format!(
            "{} change(s) pending",
            plan.actions.len()
        )));
    }
    Ok(())
}
