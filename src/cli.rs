//! The top of the clap command tree: global flags and one variant per command group.
//!
//! The shape is ripgrep's: clap's [`GlobalArgs`] (low, as typed) are turned once, by
//! [`GlobalArgs::into_flags_and_printer`], into what the rest trusts: the settings' flags
//! ([`SettingFlags`], resolved with the config file by `settings.rs`) and a checked
//! [`Printer`]. The groups' own arguments live beside their handlers in `commands/`; argv is
//! parsed by [`parse`].

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub mod after_help;
mod argv;
mod elsewhere;
mod lazy;
mod scope;
mod short_help;
mod usage;
pub mod version;

pub use argv::{parse, print_error};

use crate::commands;
use crate::output::{Format, OutputFlags, Printer};
use crate::registry;
use crate::settings::{Given, SettingFlags};

/// What `-h` says after the command list: one line, so that it fits a 24-row screen.
const AFTER_SHORT_HELP: &str =
    "Start with 'tunnelctl config init'; --help shows global options, examples.";

const AFTER_HELP: &str = "\
Examples:
  tunnelctl config init                      # store the API URL and key
  tunnelctl sessions list                    # online agents, as a table
  tunnelctl ip-policies create --description office
  tunnelctl ip-policies list --json | jq -r '.[].id'
  tunnelctl local requests list              # what the local agent captured

Settings come from flags, then TUNNELCTL_* environment variables, then the profile in the
config file. 'tunnelctl help exit-codes', 'tunnelctl help output' and 'tunnelctl help
filters' explain the exit codes, the output formats and the filters of captured requests.";

/// The help heading of the global flags (gh calls them "inherited flags").
pub const GLOBAL_HEADING: &str = "Global options";

/// Manage tunnel sessions, IP policies, backends, TLS edges and event delivery, and inspect
/// the local agent.
#[derive(Debug, Parser)]
#[command(
    name = "tunnelctl",
    version,
    // Only --help says what the program is: -h starts with its usage, so that it and the
    // command list fit a 24-row screen.
    about = None::<&str>,
    long_about = "Manage tunnels: the hosted management API and the local agent API",
    after_help = AFTER_SHORT_HELP,
    after_long_help = AFTER_HELP,
    disable_help_subcommand = true,
    max_term_width = 100
)]
pub struct Cli {
    /// Flags every command takes.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The command tree as people see it (help, man pages, completions): each command shows only
/// the global flags that mean something to it (`cli/scope.rs`). Parsing needs none of that
/// (every command takes every global flag either way), so a run that asks for no help builds
/// the plain tree and start-up pays nothing for it.
pub fn command() -> clap::Command {
    let tree = <Cli as clap::CommandFactory>::command().mut_subcommands(scope::apply);
    let tree = version::flag(tree);
    after_help::reflow_all(usage::wrap_all(short_help::shorten_all(tree)))
}

/// Output format asked for with `-o`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// A table on a terminal, tab-separated values in a pipe.
    Table,
    /// A table with every column, none left out for width (kubectl's `-o wide`).
    Wide,
    /// The API's JSON, unchanged; a list is one array of every item.
    Json,
    /// One JSON object per line.
    Ndjson,
}

/// Flags that every command takes, before or after the subcommand. Help shows them under
/// their own heading, after the command's own, and only where they mean something
/// (`cli/scope.rs`); every command still accepts all of them.
///
/// No environment value is ever shown in help (the API key's would leak into a terminal's
/// scroll-back or a pasted bug report): each flag read from a variable says so itself (a
/// test checks that none is missed), rather than through `mut_args`, which rebuilds every
/// global flag on each start-up.
#[derive(Debug, Args)]
#[command(next_help_heading = GLOBAL_HEADING)]
pub struct GlobalArgs {
    /// API key of the management API. The TUNNELCTL_API_KEY environment variable or the
    /// config file are safer: a flag is visible to other users in `ps` and in shell history
    #[arg(
        long,
        global = true,
        hide_short_help = true,
        env = registry::env::API_KEY,
        hide_env_values = true,
        value_name = "KEY"
    )]
    pub api_key: Option<String>,

    /// Base URL of the management API (https://, or http:// to a loopback address)
    #[arg(
        long,
        global = true,
        hide_short_help = true,
        env = registry::env::API_URL,
        hide_env_values = true,
        value_name = "URL"
    )]
    pub api_url: Option<String>,

    /// URL of the local agent API [default: http://127.0.0.1:4040/api]
    #[arg(
        long,
        global = true,
        hide_short_help = true,
        env = registry::env::AGENT_URL,
        hide_env_values = true,
        value_name = "URL"
    )]
    pub agent_url: Option<String>,

    /// Config file [default: config.toml in the platform's config folder]
    #[arg(
        long,
        global = true,
        hide_short_help = true,
        env = registry::env::CONFIG,
        hide_env_values = true,
        value_name = "FILE"
    )]
    pub config: Option<PathBuf>,

    /// The capture history's SQLite file [default: history.sqlite3 in the platform's data
    /// folder]
    #[arg(
        long,
        global = true,
        hide_short_help = true,
        env = registry::env::HISTORY_FILE,
        hide_env_values = true,
        value_name = "FILE"
    )]
    pub history_file: Option<PathBuf>,

    /// The team's capture history: a PostgreSQL URL (postgres://USER@HOST/DB); set, it is
    /// used instead of the history file
    #[arg(
        long,
        global = true,
        hide_short_help = true,
        env = registry::env::HISTORY_URL,
        hide_env_values = true,
        value_name = "URL"
    )]
    pub history_url: Option<String>,

    /// Profile of the config file to use [default: default]
    #[arg(
        long,
        global = true,
        hide_short_help = true,
        env = registry::env::PROFILE,
        hide_env_values = true,
        value_name = "NAME"
    )]
    pub profile: Option<String>,

    /// Print JSON (same as -o json)
    #[arg(long, global = true, hide_short_help = true)]
    pub json: bool,

    /// Output format
    #[arg(
        short = 'o',
        long,
        global = true,
        hide_short_help = true,
        value_enum,
        value_name = "FORMAT"
    )]
    pub output: Option<OutputFormat>,

    /// Filter the JSON output with a jq expression (in-process; no jq needed)
    #[arg(long, global = true, hide_short_help = true, value_name = "EXPR")]
    pub jq: Option<String>,

    /// Do not ask for confirmation
    #[arg(short = 'y', long, global = true, hide_short_help = true)]
    pub yes: bool,

    /// Print no confirmations or progress, only data and errors
    #[arg(short = 'q', long, global = true, hide_short_help = true)]
    pub quiet: bool,

    /// Trace requests and responses on stderr (the API key is redacted)
    #[arg(short = 'v', long, global = true, hide_short_help = true)]
    pub verbose: bool,

    /// No colour (also when NO_COLOR is set)
    #[arg(long, global = true, hide_short_help = true)]
    pub no_color: bool,

    /// Time limit of the command (each request, its retries, and waits such as
    /// `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h
    #[arg(
        long,
        global = true, hide_short_help = true,
        value_name = "DURATION",
        value_parser = crate::parse::parse_seconds,
        // `-1s` is a wrong duration, not flags `-1` and `-s`: the parser says it is negative.
        allow_hyphen_values = true
    )]
    pub timeout: Option<Duration>,

    /// How many times a request may be tried in all (retries only what is safe to retry)
    #[arg(long, global = true, hide_short_help = true, value_name = "N", value_parser = crate::parse::parse_attempts)]
    pub max_attempts: Option<u32>,

    /// Show secrets the service echoes (AWS secret access keys) in --json and -o ndjson output
    /// instead of masking them
    #[arg(long, global = true, hide_short_help = true)]
    pub show_secrets: bool,

    /// Pace management requests to at most N per SECONDS (the service allows 120/60), or off
    // `-5/60` is a wrong rate, not flags: the parser says what is wrong with it.
    #[arg(
        long,
        global = true,
        hide_short_help = true,
        value_name = "N/SECONDS|off",
        allow_hyphen_values = true
    )]
    pub rate: Option<crate::ratelimit::RateSetting>,

    /// Change nothing: refuse every command that changes sessions (restart, stop, update,
    /// upgrade, the actions of `sessions watch`) or anything else of the account (create,
    /// update, delete, apply, `api` with any method but GET)
    #[arg(
        long,
        global = true,
        hide_short_help = true,
        env = registry::env::READ_ONLY,
        hide_env_values = true,
        value_parser = crate::parse::parse_switch
    )]
    pub read_only: bool,

    /// The settings' values as given, each with whether as its flag or its variable (set
    /// by [`parse`] from clap's matches, which alone know which).
    #[arg(skip)]
    pub given: Vec<Given>,
}

impl GlobalArgs {
    /// The flags turned once into what the rest of the program trusts: the settings' flags
    /// (resolved against the config file by [`crate::settings::Settings`]) and the printer
    /// (its output flags checked). The one place clap's types become the program's own, so
    /// nothing below the command handlers sees them.
    pub fn into_flags_and_printer(self) -> crate::error::Result<(SettingFlags, Printer)> {
        let format = self.output.map(|o| match o {
            OutputFormat::Table | OutputFormat::Wide => Format::Table,
            OutputFormat::Json => Format::Json,
            OutputFormat::Ndjson => Format::Ndjson,
        });
        let out = Printer::resolve(
            &OutputFlags {
                json: self.json,
                format,
                wide: self.output == Some(OutputFormat::Wide),
                jq: self.jq,
                no_color: self.no_color,
                show_secrets: self.show_secrets,
                quiet: self.quiet,
            },
            crate::output::Streams::system(),
        )?;
        let flags = SettingFlags {
            given: self.given,
            timeout: self.timeout,
            verbose: self.verbose,
            yes: self.yes,
        };
        Ok((flags, out))
    }
}

/// One command group as the lazy parser and the help scopes read it: its name, its aliases,
/// how to add its arguments (run by clap only when argv names it), and what it declares
/// beside its handler ([`commands::Group`]).
pub struct GroupEntry {
    /// The name typed on the command line.
    pub name: &'static str,
    /// Other names it answers to.
    pub aliases: &'static [&'static str],
    /// Adds its arguments and subcommands to a command of its name.
    pub build: fn(clap::Command) -> clap::Command,
    /// The API its commands call.
    pub reaches: commands::Reaches,
    /// Whether it prints data.
    pub prints_data: bool,
    /// Whether it prints in the output formats.
    pub output_formats: bool,
    /// Whether what it prints may hold a secret the service echoes.
    pub echoes_secrets: bool,
    /// Its commands that ask for confirmation, as paths under it.
    pub confirming: &'static [&'static str],
    /// Global flags naming settings, and the commands under it that report or store them.
    pub shows_settings: &'static [(&'static str, &'static [&'static str])],
    /// Its commands that call no API, as paths under it.
    pub calls_nothing: &'static [&'static str],
}

impl GroupEntry {
    const fn of<G: commands::Group>(name: &'static str, aliases: &'static [&'static str]) -> Self {
        GroupEntry {
            name,
            aliases,
            build: G::augment_args,
            reaches: G::REACHES,
            prints_data: G::PRINTS_DATA,
            output_formats: G::OUTPUT_FORMATS,
            echoes_secrets: G::ECHOES_SECRETS,
            confirming: G::CONFIRMING,
            shows_settings: G::SHOWS_SETTINGS,
            calls_nothing: G::CALLS_NOTHING,
        }
    }
}

/// The one list of command groups: each line is a group's place in the clap tree (its help
/// line, name, aliases and arguments). From it come the [`Command`] enum clap parses into,
/// [`GROUPS`] (read by the lazy parser and the help scopes) and the dispatch
/// ([`Command::run`]); everything else about a group is declared beside its handler, in its
/// module under `commands/` ([`commands::Group`]).
macro_rules! command_groups {
    ($($(#[doc = $doc:literal])* $variant:ident($name:literal $(, alias = $alias:literal)*) => $args:ty,)*) => {
        /// The command groups.
        #[derive(Debug, Subcommand)]
        pub enum Command {
            $($(#[doc = $doc])* #[command(name = $name $(, alias = $alias)*)] $variant($args),)*
        }

        /// Every command group, in the order of [`Command`].
        pub const GROUPS: &[GroupEntry] = &[$(GroupEntry::of::<$args>($name, &[$($alias),*]),)*];

        impl Command {
            /// Runs the command with its context, through the handler of its group.
            pub async fn run(self, ctx: &crate::context::Context) -> crate::error::CommandResult {
                match self {
                    $(Command::$variant(a) => <$args as commands::Group>::run(a, ctx).await,)*
                }
            }
        }
    };
}

// Each group's first line is its line in the command list, short enough for 80 columns
// (the list's names take 23); `tunnelctl GROUP --help` shows the whole text.
command_groups! {
    /// Online tunnel sessions and their agents
    ///
    /// Online tunnel sessions: list, inspect, restart, stop or update their agents
    Sessions("sessions") => commands::sessions::SessionsArgs,
    /// IP policies: named sets of IP restriction rules
    IpPolicies("ip-policies") => commands::ip_policies::IpPoliciesArgs,
    /// Tunnel-group backends: they match tunnels by labels
    Backends("backends") => commands::backends::BackendsArgs,
    /// Edge modules (TLS termination of TLS edges)
    Edges("edges") => commands::edges::EdgesArgs,
    /// Event destinations: Kinesis, Firehose, CloudWatch Logs
    ///
    /// Event destinations: where events are delivered (Kinesis, Firehose, CloudWatch Logs)
    EventDestinations("event-destinations") => commands::event_destinations::EventDestinationsArgs,
    /// Which event types go to which destinations
    EventSubscriptions("event-subscriptions") => commands::event_subscriptions::EventSubscriptionsArgs,
    /// The agent on this machine: tunnels, captured requests
    ///
    /// The agent on this machine: its tunnels and the HTTP requests it captured
    Local("local") => commands::local::LocalArgs,
    /// The live account as an account file
    ///
    /// Write the live account as an account file (TOML) that plan finds identical
    Export("export") => commands::as_code::exporting::ExportAccountArgs,
    /// What apply would change, from account files
    ///
    /// Show what apply would change to make the account what the account files say
    Plan("plan") => commands::as_code::planning::PlanArgs,
    /// Make the account what account files say
    ///
    /// Make the account what the account files (or a saved plan) say
    Apply("apply") => commands::as_code::applying::ApplyArgs,
    /// Send any request to the management API
    ///
    /// Send any request to the management API (auth and version headers added)
    Api("api") => commands::api::ApiArgs,
    /// Settings: the config file and its profiles
    Config("config") => commands::config::ConfigArgs,
    /// Print a shell completion script
    Completions("completions", alias = "completion") => commands::completions::CompletionsArgs,
    /// Help on a command or topic: exit-codes, filters, output
    Help("help") => commands::help::HelpArgs,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// A variable's value (the API key's above all) is never shown in help, whichever
    /// command's help it is.
    #[test]
    fn no_help_shows_an_environment_value() {
        fn check(cmd: &clap::Command) {
            for arg in cmd.get_arguments().filter(|a| a.get_env().is_some()) {
                assert!(
                    arg.is_hide_env_values_set(),
                    "{} --{:?} would show its variable's value",
                    cmd.get_name(),
                    arg.get_long()
                );
            }
            cmd.get_subcommands().for_each(check);
        }
        let mut cmd = Cli::command();
        cmd.build();
        check(&cmd);
    }

    #[test]
    fn the_tree_is_consistent() {
        Cli::command().debug_assert();
        command().debug_assert();
    }

    /// A global flag hidden from a command's help is still taken there, and its value is the
    /// top-level flag's.
    #[test]
    fn hidden_global_flags_are_still_taken() {
        let parsed = |line: &str| parse(line.split(' ').map(Into::into).collect()).unwrap();
        let cli = parsed("tunnelctl local --rate 5/1 tunnels list --api-key K");
        assert_eq!(cli.global.api_key.as_deref(), Some("K"));
        assert!(cli.global.rate.is_some());
        let cli = parsed("tunnelctl --agent-url http://a/api sessions list");
        assert_eq!(cli.global.agent_url.as_deref(), Some("http://a/api"));
    }
}
