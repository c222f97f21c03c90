//! Parsing argv into the command line ([`Cli`]): the one call into clap's parser. It builds
//! the tree people see only when help is asked for, records which settings were typed as flags
//! (clap fills a field alike from its flag and its variable), and gives clap's own output
//! (help, usage errors) the colour the printer would use ([`TerminalEnv::color`]).
//!
//! clap prints usage errors before any flag is parsed, so `--no-color` is looked for in the
//! raw arguments first.

use std::ffi::OsString;

use clap::parser::ValueSource;
use clap::{ColorChoice, FromArgMatches};

use crate::output::streams::{ColorMode, TerminalEnv};

use crate::settings::OnCommandLine;

use super::Cli;

/// Parses `args` (the program name first) into the command line.
pub fn parse(args: Vec<OsString>) -> Result<Cli, clap::Error> {
    let tree = if asks_help(&args) {
        super::command()
    } else {
        super::lazy::command_for(&args)
    };
    let mut cmd = tree.color(choice(&args));
    let mut matches = cmd.try_get_matches_from_mut(args)?;
    // clap fills a field alike from its flag and its variable; only the matches know which.
    let typed = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
    let on_command_line = OnCommandLine {
        api_key: typed("api_key"),
        api_url: typed("api_url"),
        agent_url: typed("agent_url"),
        history_file: typed("history_file"),
    };
    let mut cli = Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut cmd))?;
    cli.global.on_command_line = on_command_line;
    Ok(cli)
}

/// The colour of clap's own output for these arguments and this environment.
fn choice(args: &[OsString]) -> ColorChoice {
    match TerminalEnv::read().color(asks_no_color(args)) {
        ColorMode::Never => ColorChoice::Never,
        ColorMode::Always => ColorChoice::Always,
        ColorMode::Auto => ColorChoice::Auto,
    }
}

/// Is one of `flags` among the arguments (before a `--` that ends them)?
pub(super) fn has_flag(args: &[OsString], flags: &[&str]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| a.as_os_str() != "--")
        .any(|a| flags.iter().any(|f| a.as_os_str() == *f))
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
