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

use super::GlobalArgs;

/// The commands of the management API (everything under them uses the key and the URL).
const MANAGEMENT: &[&str] = &[
    "sessions",
    "ip-policies",
    "backends",
    "edges",
    "event-destinations",
    "event-subscriptions",
    "api",
];

/// Commands that print no data and make no request: only the colour of their own output and
/// of usage errors can change.
const NO_DATA: &[&str] = &["help", "completions"];

/// Commands that ask for confirmation (and so take `--yes`).
const CONFIRMING: &[&str] = &[
    "sessions stop",
    "ip-policies delete",
    "backends tunnel-group delete",
    "edges tls-termination delete",
    "event-destinations delete",
    "event-subscriptions delete",
    "event-subscriptions sources delete",
    "local requests clear",
    "local tunnels stop",
];

/// Where a global flag means something.
enum Shown {
    /// Every command.
    Everywhere,
    /// Every command except these (and everything under them).
    Except(&'static [&'static str]),
    /// These commands (and everything under them), in up to two lists.
    In(&'static [&'static str], &'static [&'static str]),
}

/// The settings `config show` reports and `config init` may store: flags that change them
/// mean something there.
const CONFIG_SHOW: &[&str] = &["config show"];
const CONFIG_SHOW_INIT: &[&str] = &["config show", "config init"];

/// Each global flag (by clap id) and where it shows. A flag missing here shows everywhere.
const TABLE: &[(&str, Shown)] = &[
    ("api_key", Shown::In(MANAGEMENT, CONFIG_SHOW_INIT)),
    ("api_url", Shown::In(MANAGEMENT, CONFIG_SHOW_INIT)),
    ("agent_url", Shown::In(&["local"], CONFIG_SHOW_INIT)),
    ("max_attempts", Shown::In(MANAGEMENT, CONFIG_SHOW)),
    ("history_file", Shown::In(&["local"], CONFIG_SHOW)),
    ("rate", Shown::In(MANAGEMENT, CONFIG_SHOW)),
    (
        "show_secrets",
        Shown::In(&["event-destinations", "api"], &[]),
    ),
    ("yes", Shown::In(CONFIRMING, &[])),
    ("config", Shown::Except(NO_DATA)),
    ("profile", Shown::Except(NO_DATA)),
    ("json", Shown::Except(NO_DATA)),
    ("output", Shown::Except(NO_DATA)),
    ("jq", Shown::Except(NO_DATA)),
    ("quiet", Shown::Except(NO_DATA)),
    ("verbose", Shown::Except(NO_DATA)),
    ("timeout", Shown::Except(NO_DATA)),
    ("no_color", Shown::Everywhere),
];

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
    cmd
}

/// Does the command at `path` ("ip-policies create") show the global flag `id`? A group
/// shows a flag that any command under it shows.
fn shows(id: &str, path: &str) -> bool {
    let Some((_, shown)) = TABLE.iter().find(|(i, _)| *i == id) else {
        return true;
    };
    match shown {
        Shown::Everywhere => true,
        Shown::Except(list) => !list.iter().any(|p| within(path, p)),
        Shown::In(a, b) => a
            .iter()
            .chain(b.iter())
            .any(|p| within(path, p) || within(p, path)),
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
        let named = TABLE.iter().flat_map(|(_, s)| match s {
            Shown::Everywhere => Vec::new(),
            Shown::Except(l) => l.to_vec(),
            Shown::In(a, b) => a.iter().chain(b.iter()).copied().collect(),
        });
        for p in named {
            assert!(all.iter().any(|c| c == p), "no command '{p}'");
        }
    }

    #[test]
    fn every_global_flag_is_in_the_table() {
        for arg in GlobalArgs::augment_args(Command::new("g")).get_arguments() {
            let id = arg.get_id().as_str();
            assert!(TABLE.iter().any(|(i, _)| *i == id), "{id} has no scope");
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
        assert!(!shows("json", "help"));
        assert!(shows("no_color", "completions"));
        assert!(!within("sessionsx", "sessions"));
    }
}
