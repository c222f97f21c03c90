//! Which global flags each command shows in its help, man page and completions.
//!
//! Every command accepts every global flag (scripts put `--api-key` or `--profile` anywhere,
//! and the `TUNNELCTL_*` variables apply everywhere), but a command lists only the ones that
//! change what it does: `local …` never shows `--api-key`, management commands never show
//! `--agent-url`. clap's `hide` is per argument, not per command, so each command gets its own
//! copy of every global flag, hidden where it means nothing; clap then skips the copy it would
//! have propagated, and a value given to a hidden copy still reaches the top-level flag
//! (the copies stay `global`).

use std::sync::OnceLock;

use clap::{Arg, Args, Command};

use super::{GlobalArgs, GroupEntry, GROUPS};
use crate::commands::Reaches;

/// Where a global flag means something.
enum Scope {
    /// Every command.
    Everywhere,
    /// Every command except these (and everything under them).
    Except(Vec<String>),
    /// These commands (and everything under them), but not the second list's (nor what is
    /// under them).
    In(Vec<String>, Vec<String>),
}

/// Each global flag (by clap id) and where it shows, read from what each command group
/// declares ([`crate::commands::Group`]). A flag missing here shows everywhere.
fn table() -> &'static [(&'static str, Scope)] {
    static TABLE: OnceLock<Vec<(&'static str, Scope)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        fn groups(pick: impl Fn(&GroupEntry) -> bool) -> Vec<String> {
            GROUPS
                .iter()
                .filter(|g| pick(g))
                .map(|g| g.name.to_string())
                .collect()
        }
        let under = |g: &GroupEntry, verbs: &[&str]| -> Vec<String> {
            // An empty path is the group itself, a command of its own (`apply`).
            verbs
                .iter()
                .map(|v| match v {
                    &"" => g.name.to_string(),
                    v => format!("{} {v}", g.name),
                })
                .collect()
        };
        // The commands that report or store the setting a flag names (`config show`).
        let settings = |id: &str| -> Vec<String> {
            GROUPS
                .iter()
                .flat_map(|g| {
                    g.shows_settings
                        .iter()
                        .filter(move |(i, _)| *i == id)
                        .flat_map(move |(_, verbs)| under(g, verbs))
                })
                .collect()
        };
        // A flag of one API shows under the groups that call it (but not their commands that
        // call nothing) and where its setting shows.
        let of = |reaches: Reaches, id: &str| {
            let mut paths = groups(|g| g.reaches == reaches);
            paths.extend(settings(id));
            let offline = GROUPS
                .iter()
                .filter(|g| g.reaches == reaches)
                .flat_map(|g| under(g, g.calls_nothing))
                .collect();
            Scope::In(paths, offline)
        };
        let confirming = GROUPS.iter().flat_map(|g| under(g, g.confirming)).collect();
        let no_data = groups(|g| !g.prints_data);
        let no_formats = groups(|g| !g.prints_data || !g.output_formats);
        vec![
            ("api_key", of(Reaches::Management, "api_key")),
            ("api_url", of(Reaches::Management, "api_url")),
            ("agent_url", of(Reaches::Agent, "agent_url")),
            ("max_attempts", of(Reaches::Management, "max_attempts")),
            ("history_file", of(Reaches::Agent, "history_file")),
            ("history_url", of(Reaches::Agent, "history_url")),
            ("rate", of(Reaches::Management, "rate")),
            ("read_only", {
                let mut paths = vec!["sessions".to_string(), "api".to_string()];
                paths.extend(settings("read_only"));
                Scope::In(paths, Vec::new())
            }),
            (
                "show_secrets",
                Scope::In(groups(|g| g.echoes_secrets), Vec::new()),
            ),
            ("yes", Scope::In(confirming, Vec::new())),
            ("config", Scope::Except(no_data.clone())),
            ("profile", Scope::Except(no_data.clone())),
            ("json", Scope::Except(no_formats.clone())),
            ("output", Scope::Except(no_formats.clone())),
            ("jq", Scope::Except(no_formats)),
            ("quiet", Scope::Except(no_data.clone())),
            ("verbose", Scope::Except(no_data.clone())),
            ("timeout", Scope::Except(no_data)),
            ("no_color", Scope::Everywhere),
        ]
    })
}

/// Gives a top-level command (and, recursively, everything under it) a hidden copy of each
/// global flag that means nothing to it. Used as `mut_subcommands` of the root.
///
/// A copy goes only where a flag stops meaning something (a group hides a flag only when
/// every command under it does), and clap propagates it from there: the tree is built at
/// every start, so it gets as few extra arguments as possible.
pub(super) fn apply(cmd: Command) -> Command {
    static GLOBALS: OnceLock<Vec<Arg>> = OnceLock::new();
    let globals = GLOBALS.get_or_init(|| {
        GlobalArgs::augment_args(Command::new("globals"))
            .get_arguments()
            .map(|a| a.clone().hide(true))
            .collect()
    });
    let shown: Vec<&Arg> = globals.iter().collect();
    place(cmd, "", &shown)
}

/// `shown`: the global flags the parent shows (for a top-level command, all of them).
fn place(cmd: Command, parent: &str, shown: &[&Arg]) -> Command {
    let path = if parent.is_empty() {
        cmd.get_name().to_string()
    } else {
        format!("{parent} {}", cmd.get_name())
    };
    let (still, hidden): (Vec<&Arg>, Vec<&Arg>) = shown
        .iter()
        .partition(|a| shows(a.get_id().as_str(), &path));
    let mut cmd = cmd.mut_subcommands(|sub| place(sub, &path, &still));
    for arg in hidden {
        cmd = cmd.arg(arg.clone());
    }
    if asks(&path) {
        cmd = cmd.arg(yes_in_short_help().clone());
    }
    cmd
}

/// Does the command at `path` ask for confirmation (a command of a group's `CONFIRMING`)?
fn asks(path: &str) -> bool {
    GROUPS.iter().any(|g| {
        g.confirming.iter().any(|verb| match *verb {
            "" => path == g.name,
            verb => path.strip_prefix(g.name).and_then(|p| p.strip_prefix(' ')) == Some(verb),
        })
    })
}

/// `--yes` as a command that asks shows it: among its own options, in its `-h` too, where the
/// global flags are left for `--help` (without it, `-h` of `apply` never says how to answer
/// in CI).
fn yes_in_short_help() -> &'static Arg {
    static YES: OnceLock<Arg> = OnceLock::new();
    YES.get_or_init(|| {
        GlobalArgs::augment_args(Command::new("globals"))
            .get_arguments()
            .find(|a| a.get_id() == "yes")
            .map(|a| a.clone().hide_short_help(false).help_heading(None::<&str>))
            .unwrap_or_else(|| Arg::new("yes"))
    })
}

/// Does the command at `path` ("ip-policies create") show the global flag `id`? A group
/// shows a flag that any command under it shows.
fn shows(id: &str, path: &str) -> bool {
    let Some((_, shown)) = table().iter().find(|(i, _)| *i == id) else {
        return true;
    };
    match shown {
        Scope::Everywhere => true,
        Scope::Except(list) => !list.iter().any(|p| within(path, p)),
        Scope::In(list, not) => {
            list.iter().any(|p| within(path, p) || within(p, path))
                && !not.iter().any(|p| within(path, p))
        }
    }
}

/// Is `path` the command `scope` or under it?
fn within(path: &str, scope: &str) -> bool {
    path == scope
        || path
            .strip_prefix(scope)
            .is_some_and(|rest| rest.starts_with(' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(cmd: &Command, parent: &str, out: &mut Vec<String>) {
        for sub in cmd.get_subcommands() {
            let path = if parent.is_empty() {
                sub.get_name().to_string()
            } else {
                format!("{parent} {}", sub.get_name())
            };
            paths(sub, &path, out);
            out.push(path);
        }
    }

    #[test]
    fn every_command_named_in_the_table_exists() {
        let mut all = Vec::new();
        paths(&super::super::command(), "", &mut all);
        let named = table().iter().flat_map(|(_, s)| match s {
            Scope::Everywhere => Vec::new(),
            Scope::Except(l) => l.clone(),
            Scope::In(l, not) => l.iter().chain(not).cloned().collect(),
        });
        for p in named {
            assert!(all.contains(&p), "no command '{p}'");
        }
    }

    #[test]
    fn every_global_flag_is_in_the_table() {
        for arg in GlobalArgs::augment_args(Command::new("g")).get_arguments() {
            let id = arg.get_id().as_str();
            assert!(table().iter().any(|(i, _)| *i == id), "{id} has no scope");
        }
    }

    #[test]
    fn scopes() {
        assert!(shows("api_key", "ip-policies create"));
        assert!(!shows("api_key", "local tunnels list"));
        assert!(shows("agent_url", "local"));
        assert!(!shows("agent_url", "sessions list"));
        assert!(
            shows("yes", "ip-policies"),
            "a group shows its commands' flags"
        );
        assert!(!shows("yes", "ip-policies list"));
        assert!(!shows("yes", "local requests list"));
        assert!(shows("yes", "local requests clear"));
        assert!(asks("apply") && asks("ip-policies delete") && asks("local requests clear"));
        assert!(!asks("plan") && !asks("ip-policies") && !asks("ip-policies list"));
        assert!(!shows("json", "help"));
        assert!(!shows("output", "export"), "export writes TOML only");
        assert!(shows("output", "plan"));
        assert!(shows("no_color", "completions"));
        assert!(!within("sessionsx", "sessions"));
        // `test` needs no agent (issue 33): neither its URL nor the history.
        assert!(!shows("agent_url", "local requests test"));
        assert!(!shows("history_file", "local requests test"));
        assert!(shows("agent_url", "local requests"));
    }
}
