//! Parsing argv into the command line ([`Cli`]): the one call into clap's parser. It builds
//! the tree people see only when help is asked for, records which settings were typed as flags
//! (clap fills a field alike from its flag and its variable), and gives clap's own output
//! (help, usage errors) the colour the printer would use ([`TerminalEnv::color`]).
//!
//! clap prints usage errors before any flag is parsed, so `--no-color` is looked for in the
//! raw arguments first.

use std::ffi::OsString;
use std::io::IsTerminal;

use clap::parser::ValueSource;
use clap::{ColorChoice, FromArgMatches};

use crate::output::streams::{ColorMode, TerminalEnv};

use crate::registry::SETTINGS;
use crate::settings::{Given, Source};

use super::lazy::has_flag;
use super::Cli;

/// The width help is laid out for, as clap takes it.
fn help_width() -> usize {
    usize::from(crate::output::streams::help_width())
}

/// Parses `args` (the program name first) into the command line.
///
/// `tunnelctl` alone shows the short help, the list of commands (as `gh` and `kubectl` do):
/// on a terminal as `-h` shows it (stdout, exit 0); in a script, where a command is missing,
/// on stderr as a usage error (exit 2).
pub fn parse(mut args: Vec<OsString>) -> Result<Cli, clap::Error> {
    if args.len() <= 1 {
        if !stdout_is_terminal() {
            return Err(missing_command(&args));
        }
        args = vec![program(&args), "-h".into()];
    }
    let (tree, from_env) = if asks_help(&args) {
        (super::command().term_width(help_width()), Vec::new())
    } else {
        let tree = super::lazy::command_for(&args);
        // Off a terminal clap would ask stderr's terminal for its width (or take 100): a
        // group named alone shows its help at the width a pipe is given.
        let tree = match std::io::stdout().is_terminal() {
            true => tree,
            false => tree.term_width(help_width()),
        };
        variables_read_here(tree)
    };
    // The commit in the version is for people and scripts, not for the man pages, which
    // are generated from the same tree and committed: it is given only here.
    let mut cmd = tree.color(choice(&args)).version(super::version::TEXT);
    let mut matches = match cmd.try_get_matches_from_mut(args.clone()) {
        Ok(matches) => matches,
        Err(e) => {
            let e = super::elsewhere::tip(e, &args);
            return Err(usage_without_settings(e, args));
        }
    };
    let mut given = given(&matches);
    for g in from_env {
        if !given.iter().any(|typed| typed.setting.key == g.setting.key) {
            given.push(g);
        }
    }
    let mut cli = Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut cmd))?;
    cli.global.given = given;
    Ok(cli)
}

/// `cmd` with the settings' variables taken from clap, and what they hold: the settings read
/// them, as they read the profile, rather than clap. So a variable set but empty is unset (clap
/// would take `TUNNELCTL_READ_ONLY=` for a value and refuse it, and `TUNNELCTL_CONFIG=` for a
/// missing one), and a wrong value is named as the variable it came from, when the settings
/// read it (exit 3), not as a flag that was never typed. Only the variables that are set are
/// looked at: nothing is rebuilt on a start where none is.
fn variables_read_here(mut cmd: clap::Command) -> (clap::Command, Vec<Given>) {
    let mut from_env = Vec::new();
    for setting in SETTINGS.iter().filter(|s| s.flag.is_some()) {
        let Some(var) = setting.env else { continue };
        let Some(text) = std::env::var_os(var) else {
            continue;
        };
        cmd = cmd.mut_arg(setting.key, |a| a.env(None));
        if !text.is_empty() {
            from_env.push(Given {
                setting,
                text,
                source: Source::Env(var),
            });
        }
    }
    (cmd, from_env)
}

/// Prints what [`parse`] ended with: help and the version on stdout, as clap lays them out;
/// a usage error on stderr, folded at spaces for stderr's terminal as every error is (a long
/// one broke inside words), in the colour clap would give it.
pub fn print_error(e: &clap::Error, args: &[OsString]) {
    use clap::error::ErrorKind;
    let folded = e.use_stderr()
        && std::io::stderr().is_terminal()
        // The short help shown for a missing command is laid out by clap already.
        && e.kind() != ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand;
    if !folded {
        let _ = e.print();
        return;
    }
    let rendered = e.render();
    let text = match choice(args) {
        ColorChoice::Never => rendered.to_string(),
        ColorChoice::Always | ColorChoice::Auto => rendered.ansi().to_string(),
    };
    crate::output::Streams::system().err_line(text.trim_end());
}

/// The value of each setting that has a flag, as given (its text, not yet read: the
/// settings read it, with the parser its flag checked it with), and whether it was typed as
/// the flag or read from its variable (in the tree people see, which keeps the variables for
/// its help: clap fills a field alike from either, and only the matches know which). A flag's
/// clap id is its setting's key.
fn given(matches: &clap::ArgMatches) -> Vec<Given> {
    SETTINGS
        .iter()
        .filter(|s| s.flag.is_some())
        .filter_map(|setting| {
            // A switch's `false` when neither its flag nor its variable is given is clap's
            // default, not a value given: the profile may still set it.
            if matches.value_source(setting.key) == Some(ValueSource::DefaultValue) {
                return None;
            }
            let text = matches
                .try_get_raw(setting.key)
                .ok()
                .flatten()?
                .next()?
                .to_os_string();
            let source = match (matches.value_source(setting.key), setting.env) {
                (Some(ValueSource::EnvVariable), Some(var)) => Source::Env(var),
                _ => Source::Flag,
            };
            Some(Given {
                setting,
                text,
                source,
            })
        })
        .collect()
}

/// `e` with a usage line that shows what the command needs, whatever the environment holds.
///
/// clap writes the usage line of a missing or conflicting argument with every argument that
/// has a value, those read from a variable too: with `TUNNELCTL_API_KEY` set, `local requests
/// export` would read `Usage: … export --har <FILE> --api-key <KEY> …`, as if a local command
/// needed a key. Such an error is made again by a tree whose settings (the flags read from a
/// variable) are hidden, which clap leaves out of usage lines; they parse the same.
fn usage_without_settings(e: clap::Error, args: Vec<OsString>) -> clap::Error {
    use clap::error::ErrorKind;
    let kind = e.kind();
    if !matches!(
        kind,
        ErrorKind::MissingRequiredArgument | ErrorKind::ArgumentConflict
    ) {
        return e;
    }
    let hidden = super::lazy::command_for(&args)
        .color(choice(&args))
        .mut_args(|a| match a.get_env() {
            Some(_) => a.hide(true),
            None => a,
        });
    match hidden.try_get_matches_from(args) {
        Err(again) if again.kind() == kind => again,
        _ => e,
    }
}

/// `tunnelctl` alone, off a terminal: a usage error (exit 2) that lists the commands, the
/// short help on stderr. (clap's `arg_required_else_help` would not do: it counts a setting
/// read from a variable as an argument given.)
fn missing_command(args: &[OsString]) -> clap::Error {
    // The error line stands where the program's description would: the whole fits 24 rows.
    // Without the options (-h and -V), which the last line points to: the whole fits 24 rows.
    let mut cmd = super::command()
        .term_width(help_width())
        .about(None)
        .help_template("{usage-heading} {usage}\n\nCommands:\n{subcommands}{after-help}")
        .color(choice(args));
    let help = cmd.render_help();
    clap::Error::raw(
        clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand,
        format!("a command is required\n\n{help}"),
    )
    .with_cmd(&cmd)
}

/// The program name of argv (`tunnelctl` if there is none).
fn program(args: &[OsString]) -> OsString {
    args.first().cloned().unwrap_or_else(|| "tunnelctl".into())
}

/// Is stdout a terminal (or taken for one, `TUNNELCTL_FORCE_TTY=1`)?
fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal() || TerminalEnv::read().forced_tty
}

/// The colour of clap's own output for these arguments and this environment.
fn choice(args: &[OsString]) -> ColorChoice {
    match TerminalEnv::read().color(asks_no_color(args)) {
        ColorMode::Never => ColorChoice::Never,
        ColorMode::Always => ColorChoice::Always,
        ColorMode::Auto => ColorChoice::Auto,
    }
}

/// Is `--no-color` among the flags?
fn asks_no_color(args: &[OsString]) -> bool {
    has_flag(args, &["--no-color"])
}

/// Is help asked for (`-h`, `--help`), so the tree people see must be built?
fn asks_help(args: &[OsString]) -> bool {
    has_flag(args, &["-h", "--help"])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn no_color_is_found_before_a_double_dash_only() {
        assert!(asks_no_color(&os(&["t", "sessions", "--no-color"])));
        assert!(!asks_no_color(&os(&[
            "t",
            "api",
            "GET",
            "/x",
            "--",
            "--no-color"
        ])));
        assert!(
            !asks_no_color(&os(&["--no-color"])),
            "the program name is no flag"
        );
    }
}
