//! The tree clap parses with when no help is asked for: the same commands, flags and names as
//! the derived tree ([`super::Cli`]), but each top-level command's arguments are built only
//! when argv names that command (clap's `Command::defer`). clap's derive builds every
//! subcommand of the program before it looks at argv; start-up then pays for eleven command
//! groups (about a hundred commands) to run one. What is parsed is read back through the
//! derived `FromArgMatches`, which reads the matches by id whatever tree produced them.

use std::ffi::OsString;

use clap::{Args, Command};

use super::{GroupEntry, GROUPS};

/// Is `word` the name or one of the aliases of `group`?
fn answers_to(group: &GroupEntry, word: &str) -> bool {
    group.name == word || group.aliases.contains(&word)
}

/// The root command with the global flags and the top-level commands that parsing `args`
/// (the program name first) can reach, each built on use. Help is never rendered from it
/// (`argv` builds the full tree for `-h`/`--help`), so it carries only what parsing,
/// `--version` and usage errors read.
///
/// clap copies every global flag into every top-level command before it looks at argv (about
/// 200 KB of heap, a third of what `tunnelctl --version` cost); a run names one command, so
/// the others are left out. When argv names none it knows (a typo, which clap answers with
/// the nearest names), all are kept; when it names none and asks for the version, none is.
pub fn command_for(args: &[OsString]) -> Command {
    let root = root();
    match named_command(&root, args) {
        Named::Group(name) => with_groups(root, GROUPS.iter().filter(|g| answers_to(g, &name))),
        Named::Nothing if has_flag(args, &["-V", "--version"]) => root,
        Named::Nothing | Named::Unknown => with_groups(root, GROUPS.iter()),
    }
}

/// Where in `args` the top-level command is named, and its name, if it is one (walked as
/// [`named_command`] walks it, so a flag's value is never taken for the command).
pub(super) fn group_at(args: &[OsString]) -> Option<(usize, String)> {
    let root = root();
    let mut i = 1;
    while let Some(word) = args.get(i).and_then(|w| w.to_str()) {
        if word == "--" {
            return None;
        }
        if word.starts_with('-') && word.len() > 1 {
            i += if takes_next_word(&root, word) { 2 } else { 1 };
            continue;
        }
        return GROUPS
            .iter()
            .find(|g| answers_to(g, word))
            .map(|g| (i, g.name.to_string()));
    }
    None
}

/// The root command with the global flags and no top-level command.
fn root() -> Command {
    let root = Command::new("tunnelctl")
        .version(env!("CARGO_PKG_VERSION"))
        .disable_help_subcommand(true)
        .max_term_width(100);
    super::GlobalArgs::augment_args(root)
}

fn with_groups<'a>(root: Command, groups: impl Iterator<Item = &'a GroupEntry>) -> Command {
    groups.fold(root, |root, g| {
        root.subcommand(
            Command::new(g.name)
                .aliases(g.aliases.iter().copied())
                .defer(g.build),
        )
    })
}

/// What the first word of argv that is not a global flag (nor a global flag's value) names.
#[derive(Debug, PartialEq, Eq)]
enum Named {
    /// A top-level command, by the name or alias typed.
    Group(String),
    /// A word that names no top-level command.
    Unknown,
    /// No such word (only flags, or nothing).
    Nothing,
}

/// Walks argv the way clap does before it meets the subcommand: a global flag that takes a
/// value (`--profile prod`, `-o json`) takes the next word too, unless the value is joined
/// (`--profile=prod`, `-ojson`).
fn named_command(root: &Command, args: &[OsString]) -> Named {
    let mut words = args.iter().skip(1);
    while let Some(word) = words.next() {
        let Some(word) = word.to_str() else {
            return Named::Unknown;
        };
        if word == "--" {
            return Named::Nothing;
        }
        if word.starts_with('-') && word.len() > 1 {
            if takes_next_word(root, word) {
                words.next();
            }
        } else {
            return if GROUPS.iter().any(|g| answers_to(g, word)) {
                Named::Group(word.to_string())
            } else {
                Named::Unknown
            };
        }
    }
    Named::Nothing
}

/// Is one of `flags` among the arguments (before a `--` that ends them)?
pub(super) fn has_flag(args: &[OsString], flags: &[&str]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| a.as_os_str() != "--")
        .any(|a| flags.iter().any(|f| a.as_os_str() == *f))
}

/// Does the flag `word` (`--profile`, `-o`) of `cmd` take the next word as its value? Not
/// when the value is joined (`--profile=prod`, `-ojson`), nor for a flag without one.
pub(super) fn takes_next_word(cmd: &Command, word: &str) -> bool {
    let takes_value = |arg: Option<&clap::Arg>| arg.is_some_and(|a| a.get_action().takes_values());
    if let Some(long) = word.strip_prefix("--") {
        let arg = cmd.get_arguments().find(|a| {
            a.get_long() == Some(long) || a.get_all_aliases().is_some_and(|al| al.contains(&long))
        });
        !long.contains('=') && takes_value(arg)
    } else if let Some(shorts) = word.strip_prefix('-').filter(|s| !s.is_empty()) {
        let mut chars = shorts.chars();
        let first = chars.next();
        let arg = cmd.get_arguments().find(|a| a.get_short() == first);
        chars.next().is_none() && takes_value(arg)
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// The tree with every top-level command.
    fn whole() -> clap::Command {
        super::with_groups(super::root(), super::GROUPS.iter())
    }

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
        let lazy = shape(&mut whole());
        assert_eq!(lazy, derived);
    }

    #[test]
    fn the_lazy_tree_is_consistent() {
        whole().debug_assert();
    }

    fn argv(line: &str) -> Vec<std::ffi::OsString> {
        std::iter::once("tunnelctl")
            .chain(line.split_whitespace())
            .map(Into::into)
            .collect()
    }

    #[test]
    fn the_command_named_is_found_past_global_flags_and_their_values() {
        use super::Named;
        let root = super::root();
        let named = |line: &str| super::named_command(&root, &argv(line));
        let group = |name: &str| Named::Group(name.to_string());
        assert_eq!(named("sessions list"), group("sessions"));
        assert_eq!(named("--profile local sessions list"), group("sessions"));
        assert_eq!(named("--profile=local local requests list"), group("local"));
        assert_eq!(named("-o json ip-policies list"), group("ip-policies"));
        assert_eq!(named("--json completion bash"), group("completion"));
        assert_eq!(named("sesions list"), Named::Unknown);
        assert_eq!(named("--version"), Named::Nothing);
        assert_eq!(named("-- sessions"), Named::Nothing);
        assert_eq!(named(""), Named::Nothing);
    }

    /// Whatever argv holds, the trimmed tree parses it as the whole one does: the same
    /// matches, or the same error, word for word.
    #[test]
    fn the_trimmed_tree_answers_as_the_whole_one() {
        let lines = [
            "--version",
            "-V",
            "",
            "--json",
            "sesions list",
            "sessions",
            "sessions list --bogus",
            "--profile local sessions list",
            "--profile prod sessions list -o wide",
            "-o json ip-policies list",
            "-o nonsense ip-policies list",
            "local requests list --limit 3",
            "local reqs",
            "completion bash",
            "help exit-codes",
            "--version sessions",
            "api GET /tunnel_sessions",
        ];
        for line in lines {
            let render = |cmd: clap::Command| match cmd.try_get_matches_from(argv(line)) {
                Ok(m) => format!("{:?}", m.subcommand_name()),
                Err(e) => format!("{:?}: {}", e.kind(), e.render()),
            };
            assert_eq!(
                render(super::command_for(&argv(line))),
                render(whole()),
                "{line}"
            );
        }
    }
}
