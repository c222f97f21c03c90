//! `tunnelctl sessions watch`: hands the live screen ([`crate::fleet::watch`]) its client and
//! settled choices, then prints what was done on stderr and exits 5 when an action failed.

use std::time::Duration;

use crate::context::Context;
use crate::error::{Error, Result};
use crate::fleet::select::Selector;
use crate::fleet::watch::watch_loop::{self, Account, WatchLaunch};
use crate::inspect::trace_aside::TraceAside;
use crate::registry;

/// The text after `sessions watch --help`'s options: examples and keys.
pub const AFTER_HELP: &str = "Examples:
  tunnelctl sessions watch --region eu --every 10s
  tunnelctl sessions watch --profiles staging,prod

Keys: ↑ ↓ j k move · / filter (text, or column=value: region=eu version=<3.20
ip=203.0.113.0/24 os=linux credential=cr_… metadata=web) · 1…9 sort by a column (again:
the other way) · space mark · a mark all shown · Enter details (↑ ↓ scroll) · r restart,
s stop, u update the marked (or the current) sessions, U rolling upgrade of them (update,
wait 10 s, restart, wait, 5 at a time), asked first (y goes on) · ? help · q quit.

A mark the filter hides still counts: the status line and the question say so. As
'sessions restart --all' does, r and U leave Windows agents out (restart is not
supported there), and the question says so; an agent already on the newest version
is 'up to date', not a failure.

New sessions and changed versions stand out; a session gone from the list
stays, dimmed and labelled gone, for three refreshes. The list is refreshed
every few seconds (less often for a large fleet, to stay under the rate
limit), and after an error less and less often, the error in the title. With
--read-only (or read_only in the profile) every action key refuses. With
--profiles or --all-profiles, each profile is read with its own settings (URL,
key, rate, read_only) and a session's action goes to its own account; a
read-only profile's rows refuse, and a profile whose list fails keeps its rows
and backs off alone, named in the title. On quit, what was done is printed on
stderr, each failure with its reason; the exit code is 5 when an action failed. Ctrl-C and SIGTERM print the
same, then exit 130 and 143 (interrupted). With -v the trace goes to a file,
named on stderr. It needs a terminal: scripts use 'sessions list --json'.";

/// The shortest refresh interval `--every` takes.
pub const MIN_EVERY: Duration = Duration::from_secs(1);

/// `--every`: a duration of at least a second.
pub fn parse_every(s: &str) -> std::result::Result<Duration, String> {
    let d = crate::parse::parse_seconds(s)?;
    if d < MIN_EVERY {
        return Err(format!(
            "'{s}' is less than 1s: refresh at most once a second"
        ));
    }
    Ok(d)
}

/// Which accounts the screen watches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accounts {
    /// The profile in use (`--profile`, its variable, or `default`).
    Current,
    /// These profiles of the config file (`--profiles`).
    Named(Vec<String>),
    /// Every profile of the config file (`--all-profiles`).
    All,
}

impl Accounts {
    /// From `--profiles` and `--all-profiles` (which clap keeps apart).
    pub fn of(profiles: Vec<String>, all_profiles: bool) -> Accounts {
        match (profiles.is_empty(), all_profiles) {
            (_, true) => Accounts::All,
            (true, false) => Accounts::Current,
            (false, false) => Accounts::Named(profiles),
        }
    }
}

/// The accounts to watch, each with the settings of its own profile (URL, key, rate,
/// read-only), checked before anything is sent.
fn accounts(ctx: &Context, which: Accounts) -> Result<(Vec<Account>, String)> {
    let names = match which {
        Accounts::Current => {
            let read_only = ctx.settings.values()?.read_only.value;
            let client = ctx.management()?;
            let api = ctx
                .settings
                .values()?
                .api_url
                .value
                .clone()
                .unwrap_or_default();
            let host = api.split_once("://").map_or(api.as_str(), |(_, host)| host);
            let account = Account {
                profile: None,
                client,
                read_only,
            };
            return Ok((vec![account], crate::escape::escape(host)));
        }
        Accounts::Named(names) => names,
        Accounts::All => ctx.settings.config()?.profiles(),
    };
    if ctx.settings.given_as_flag(&registry::PROFILE).is_some() {
        return Err(Error::usage(
            "--profile chooses one profile; with --profiles or --all-profiles, leave it out",
        ));
    }
    let config = ctx.settings.config()?;
    let known = config.profiles();
    let path = config.path().display().to_string();
    if known.is_empty() {
        return Err(Error::Config(format!(
            "the config file {} has no profiles to watch; add them with 'tunnelctl config init --profile NAME'",
            crate::escape::escape(&path)
        )));
    }
    let mut accounts = Vec::new();
    let mut seen = Vec::new();
    for name in names {
        if !known.contains(&name) {
            return Err(Error::Config(format!(
                "no profile '{}' in the config file {}; its profiles: {}",
                crate::escape::escape(&name),
                crate::escape::escape(&path),
                crate::escape::escape(&known.join(", "))
            )));
        }
        if seen.contains(&name) {
            continue;
        }
        let settings = ctx.settings.for_profile(&name);
        let client = ctx.management_of(&settings)?;
        let read_only = settings.values()?.read_only.value;
        seen.push(name.clone());
        accounts.push(Account {
            profile: Some(name),
            client,
            read_only,
        });
    }
    let title = format!("profiles {}", crate::escape::escape(&seen.join(", ")));
    Ok((accounts, title))
}

/// Runs the screen; on quit, the summary of what it did.
pub async fn watch(
    ctx: &Context,
    selector: Selector,
    every: Duration,
    which: Accounts,
) -> Result<()> {
    // Off a terminal nothing is read or sent, whatever else is wrong.
    watch_loop::check_terminal()?;
    let (accounts, watched) = accounts(ctx, which)?;
    // The trace would be drawn over the screen: it goes to a file, named before and after.
    let trace = match ctx.settings.flags.verbose {
        true => Some(TraceAside::start(&ctx.printer, "sessions watch")?),
        false => None,
    };
    let ran = watch_loop::run(WatchLaunch {
        accounts,
        selector,
        title: format!("sessions watch · {watched}"),
        color: ctx.printer.color,
        every,
    })
    .await;
    if let Some(trace) = trace {
        trace.end(&ctx.printer);
    }
    let (state, stopped) = ran?;
    let tally = &state.tally;
    if let Some(line) = tally.summary() {
        // err_line folds it at spaces; then each failure's reason and the IDs that failed so.
        ctx.printer.streams.err_line(&line);
        ctx.printer.failure_summary(&tally.failed);
    }
    // Ctrl-C (130) or SIGTERM (143) says how it ended, whatever was done.
    if let Some(stop) = stopped {
        return Err(stop);
    }
    if !tally.failed.is_empty() {
        return Err(Error::Partial {
            failed: tally.failed.len(),
            total: tally.answered(),
            summarized: true,
        });
    }
    Ok(())
}
