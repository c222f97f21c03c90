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
    if let Some((at, name)) = super::lazy::group_at(&args) {
        if name == "export" {
            args = crate::commands::as_code::exporting::out_flag(args, at);
        }
    }
    let tree = if asks_help(&args) {
        super::command()
    } else {
        super::lazy::command_for(&args)
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
    let given = given(&matches);
    let mut cli = Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut cmd))?;
    cli.global.given = given;
    Ok(cli)
}

/// The value of each setting that has a flag, as given (its text, not yet read: the
/// settings read it, with the parser its flag checked it with), and whether it was typed as
/// the flag or read from its variable: clap fills a field alike from either, and only the
/// matches know which. A flag's clap id is its setting's key.
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
