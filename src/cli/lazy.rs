//! The tree clap parses with when no help is asked for: the same commands, flags and names as
//! the derived tree ([`super::Cli`]), but each top-level command's arguments are built only
//! when argv names that command (clap's `Command::defer`). clap's derive builds every
//! subcommand of the program before it looks at argv; start-up then pays for eleven command
//! groups (about a hundred commands) to run one. What is parsed is read back through the
//! derived `FromArgMatches`, which reads the matches by id whatever tree produced them.

use clap::{Args, Command};

use crate::commands;

/// A top-level command as the parser needs it: its name, its aliases, and how to add its
/// arguments and subcommands (run by clap only if argv names it).
struct Group {
    name: &'static str,
    aliases: &'static [&'static str],
    build: fn(Command) -> Command,
}

/// Every top-level command of [`super::Command`], in its order (a test checks they match).
const GROUPS: &[Group] = &[
    group("sessions", commands::sessions::SessionsArgs::augment_args),
    group(
        "ip-policies",
        commands::ip_policies::IpPoliciesArgs::augment_args,
    ),
    group("backends", commands::backends::BackendsArgs::augment_args),
    group("edges", commands::edges::EdgesArgs::augment_args),
    group(
        "event-destinations",
        commands::event_destinations::EventDestinationsArgs::augment_args,
    ),
    group(
        "event-subscriptions",
        commands::event_subscriptions::EventSubscriptionsArgs::augment_args,
    ),
    group("local", commands::local::LocalArgs::augment_args),
    group("api", commands::api::ApiArgs::augment_args),
    group("config", commands::config::ConfigArgs::augment_args),
    Group {
        name: "completions",
        aliases: &["completion"],
        build: commands::completions::CompletionsArgs::augment_args,
    },
    group("help", commands::help::HelpArgs::augment_args),
];

const fn group(name: &'static str, build: fn(Command) -> Command) -> Group {
    Group {
        name,
        aliases: &[],
        build,
    }
}

/// The root command with the global flags and every top-level command, each built on use.
/// Help is never rendered from it (`argv` builds the full tree for `-h`/`--help`), so it
/// carries only what parsing, `--version` and usage errors read.
pub fn command() -> Command {
    let root = Command::new("tunnelctl")
        .version(env!("CARGO_PKG_VERSION"))
        .disable_help_subcommand(true)
        .max_term_width(100);
    let root = super::GlobalArgs::augment_args(root);
    GROUPS.iter().fold(root, |root, g| {
        root.subcommand(
            Command::new(g.name)
                .aliases(g.aliases.iter().copied())
                .defer(g.build),
        )
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every command and argument of the derived tree, with the names and aliases that
    /// parsing reads, as lines to compare.
    fn shape(cmd: &mut clap::Command) -> Vec<String> {
        cmd.build();
        let mut lines = Vec::new();
        walk(cmd, "", &mut lines);
        // A deferred command gets the propagated global flags before its own: the order of
        // flags changes nothing in parsing (positionals carry their index).
        lines.sort();
        lines
    }

    fn walk(cmd: &clap::Command, path: &str, lines: &mut Vec<String>) {
        let path = format!("{path} {}", cmd.get_name());
        let aliases: Vec<&str> = cmd.get_all_aliases().collect();
        lines.push(format!(
            "{path} aliases={aliases:?} version={:?}",
            cmd.get_version()
        ));
        for a in cmd.get_arguments() {
            lines.push(format!(
                "{path} --{:?} -{:?} {} #{:?} global={} required={} env={:?}",
                a.get_long(),
                a.get_short(),
                a.get_id(),
                a.get_index(),
                a.is_global_set(),
                a.is_required_set(),
                a.get_env()
            ));
        }
        for sub in cmd.get_subcommands() {
            walk(sub, &path, lines);
        }
    }

    #[test]
    fn the_lazy_tree_parses_what_the_derived_tree_parses() {
        let derived = shape(&mut super::super::Cli::command());
        let lazy = shape(&mut super::command());
        assert_eq!(lazy, derived);
    }

    #[test]
    fn the_lazy_tree_is_consistent() {
        super::command().debug_assert();
    }
}
