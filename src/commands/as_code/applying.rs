//! `tunnelctl apply -f FILE... [--prune]` or `apply PLAN`: makes the changes, after a
//! confirmation on a terminal (`--yes` elsewhere). A saved plan is applied only if the
//! account still holds what it saw.

use std::path::PathBuf;

use clap::Args;

use super::{make_plan, print_plan, FilesArgs};
use crate::account::apply;
use crate::account::live;
use crate::account::plan::AccountPlan;
use crate::account::rendering;
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
        run(self, ctx).await
    }
}

/// The largest saved plan read.
const MAX_PLAN: usize = 64 * 1024 * 1024;

async fn run(args: ApplyArgs, ctx: &Context) -> crate::error::CommandResult {
    let (client, plan) = match &args.plan {
        Some(path) => {
            let shown = escape_path(path);
            if path.is_dir() {
                return Err(super::without_f("apply", std::slice::from_ref(path)).into());
            }
            let bytes = read_input("apply", &path.to_string_lossy(), MAX_PLAN)?;
            let text = String::from_utf8(bytes)
                .map_err(|_| Error::usage(format!("{shown} is not a saved plan (not UTF-8)")))?;
            let plan = AccountPlan::from_saved(&text, &shown)
                .map_err(|e| account_file_instead(path, &text).unwrap_or(e))?;
            let client = ctx.management()?;
            let here = super::api_origin(ctx)?;
            if plan.api != here {
                return Err(Error::usage(format!(
                    "{shown} was made against the API at {}, not {here}; nothing was sent",
                    crate::escape::escape(&plan.api)
                ))
                .into());
            }
            let now = live::read(&client, &plan.read, &plan.edges).await?;
            let changed = apply::stale(&plan, &now);
            if !changed.is_empty() {
                return Err(Error::CheckFailed(format!(
                    "the account changed since the plan was made; nothing was sent. Make the plan again.\n{}",
                    changed.join("\n")
                ))
                .into());
            }
            (client, plan)
        }
        None if args.files.files.is_empty() => {
            return Err(Error::usage(
                "name the account files (apply -f FILE, or -f DIR) or a saved plan (apply PLAN)",
            )
            .into())
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
    if ctx.prompter.will_ask() && !ctx.printer.tty {
        // The plan went elsewhere (a file): the person answering reads it here, whole.
        let mut err = ctx.printer.streams.err();
        let width = ctx.printer.streams.width();
        rendering::write_changes(&plan, Some(width), false, false, &mut err)?;
        err.flush()?;
    }
    confirm(ctx, plan.actions.len())?;
    let report = |line: &str| ctx.printer.streams.err_line(line);
    let progress = match apply::run(&client, &plan, &secrets, &report).await {
        Ok(progress) => progress,
        // Stopped, or stopped part-way: what was done is said already.
        Err(e @ (Error::Partial { .. } | Error::Interrupted | Error::Terminated)) => {
            return Err(e.into())
        }
        // The first change failed: the error names it.
        Err(e) => {
            let first = plan.actions.first().map(apply::change_line);
            return Err(anyhow::Error::new(e).context(first.unwrap_or_default()));
        }
    };
    ctx.note(&format!("Applied {} change(s).", progress.done.len()));
    Ok(())
}

/// Asks to make the `n` changes just shown (their counts end the plan above the question);
/// off a terminal, one refusal that says to pass `--yes` (unless it was).
fn confirm(ctx: &Context, n: usize) -> Result<()> {
    let question = if n == 1 {
        "Apply this change?".to_string()
    } else {
        format!("Apply these {n} changes?")
    };
    if ctx.prompter.is_interactive() {
        return ctx.confirm(&question);
    }
    ctx.confirm(&question).map_err(|_| {
        Error::usage(format!(
            "not applied: apply asks before it changes the account, and there is no terminal to ask on; pass --yes to make the {n} change(s) of the plan"
        ))
    })
}

/// The error for `apply FILE` where FILE is an account file rather than a saved plan (TOML,
/// not JSON): the command meant, `apply -f FILE`.
fn account_file_instead(path: &std::path::Path, text: &str) -> Option<Error> {
    let toml = path.extension().is_some_and(|x| x == "toml")
        || (!text.trim_start().starts_with('{')
            && crate::account::spanned::parse(text, |_| ()).is_ok());
    toml.then(|| {
        let shown = escape_path(path);
        Error::usage(format!(
            "{shown} is an account file, not a saved plan (what 'tunnelctl plan --out PLAN' writes): did you mean 'tunnelctl apply -f {shown}'?"
        ))
    })
}
