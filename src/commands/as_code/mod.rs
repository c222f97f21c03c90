//! `tunnelctl export`, `plan` and `apply`: the account as code. Thin handlers over
//! [`crate::account`]: they read the flags, build the client, print, and ask.

pub mod applying;
pub mod exporting;
pub mod planning;

use std::path::PathBuf;

use clap::Args;

use crate::account::desired::{self, Desired};
use crate::account::live;
use crate::account::plan::{self, AccountPlan};
use crate::account::references;
use crate::account::rendering;
use crate::account::section::Section;
use crate::api::Client;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape_path;

/// `-f FILE...` and `--prune`, shared by `plan` and `apply`.
#[derive(Debug, Args)]
pub struct FilesArgs {
    /// An account file, or a folder whose *.toml files are read (repeatable: the files make
    /// one account)
    #[arg(short = 'f', long = "file", value_name = "FILE|DIR", value_parser = clap::value_parser!(PathBuf))]
    pub files: Vec<PathBuf>,
    /// Also delete the resources tunnelctl manages that the files no longer name (never one
    /// it does not manage)
    #[arg(long)]
    pub prune: bool,
}

/// The usage error of account files named without `-f` (`plan account.toml`): the command
/// meant, with `-f` before each.
pub fn without_f(command: &str, paths: &[PathBuf]) -> Error {
    let files: Vec<String> = paths
        .iter()
        .map(|p| format!("-f {}", escape_path(p)))
        .collect();
    let what = if paths.iter().all(|p| p.is_dir()) {
        "a folder of account files"
    } else {
        "an account file"
    };
    Error::usage(format!(
        "{command} takes account files after -f, and {} is {what}: did you mean 'tunnelctl {command} {}'?",
        escape_path(&paths[0]),
        files.join(" ")
    ))
}

/// Reads the files (exit 2 on any problem, before any request), then the live account,
/// and compares them.
pub async fn make_plan(
    ctx: &Context,
    files: &[PathBuf],
    prune: bool,
) -> Result<(Client, AccountPlan)> {
    let desired = desired::read(files)?;
    let client = ctx.management()?;
    let mut plan = plan_against(&client, &desired, prune).await?;
    // As the account's in `plan_against`: left to the exit.
    std::mem::forget(desired);
    plan.api = api_origin(ctx)?;
    Ok((client, plan))
}

/// The origin of the management API this run talks to (as a saved plan records it).
pub fn api_origin(ctx: &Context) -> Result<String> {
    match &ctx.settings.values()?.api_url.value {
        Some(url) => Ok(crate::http::origin(&crate::context::validate_api_url(url)?)),
        None => Ok(String::new()),
    }
}

/// Reads what `desired` needs of the account and compares.
async fn plan_against(client: &Client, desired: &Desired, prune: bool) -> Result<AccountPlan> {
    let sections = Section::ALL.to_vec();
    let edges: Vec<String> = desired
        .of(Section::TlsTermination)
        .map(|w| w.name.clone())
        .collect();
    let live = live::read(client, &sections, &edges).await?;
    references::check(desired, &live)?;
    let plan = plan::make(desired, &live, prune, &sections);
    // The account's thousands of small maps are left to the process's exit, which frees
    // them at once: freeing them one by one took a tenth of a plan's time (bench S14).
    std::mem::forget(live);
    plan
}

/// Prints a plan: a table or TSV for people, the plan itself as JSON for machines.
pub fn print_plan(ctx: &Context, plan: &AccountPlan) -> Result<()> {
    rendering::print(plan, &ctx.printer)
}
