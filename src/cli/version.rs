//! What `tunnelctl --version` says: which build this is, for bug reports and for scripts.
//!
//! From a git checkout: `tunnelctl 0.1.0 (16e2bd7 2026-11-27)`, the short commit and its date
//! (UTC), with `-dirty` after the commit when tracked files had changes; from a packaged crate
//! (`cargo install tunnelctl`) or any source without git: `tunnelctl 0.1.0`. `build.rs` reads
//! the checkout. `--version --json` gives the same as fields (docs/install.md), a contract:
//! fields may be added, none renamed or removed.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};

use clap::{Arg, ArgAction, Command};
use serde::Serialize;

use crate::output::json;
use crate::output::streams::TerminalEnv;

use super::lazy::has_flag;

/// What `--version` prints after the program's name.
pub const TEXT: &str = env!("BUILD_VERSION_TEXT");

/// `cmd` with the `-V/--version` flag described as people read it in `--help` and the man
/// page, in place of clap's own ("Print version"), which says nothing of the commit or of
/// `--json`. The tree that only parses (`lazy.rs`) keeps clap's: it is never shown.
pub fn flag(cmd: Command) -> Command {
    cmd.disable_version_flag(true).arg(
        Arg::new("version")
            .short('V')
            .long("version")
            .action(ArgAction::Version)
            .help_heading(None)
            .help("Print the version, commit and commit date (--json: as JSON)")
            .long_help(
                "Print the version, and the commit and its date (UTC) when built from a git \
                 checkout: 'tunnelctl 0.1.0 (16e2bd7 2026-11-27)', '-dirty' after the commit \
                 for a tree with changes; the version alone when built from a packaged crate. \
                 With --json, one object: name, version, commit, commit_date, dirty (null \
                 when unknown) and target",
            ),
    )
}

/// The build as `--version --json` gives it.
#[derive(Debug, Serialize)]
struct Build {
    name: &'static str,
    version: &'static str,
    commit: Option<&'static str>,
    commit_date: Option<&'static str>,
    dirty: Option<bool>,
    target: &'static str,
}

/// This build, each part `None` that the build did not know.
fn build() -> Build {
    let known = |s: &'static str| (!s.is_empty()).then_some(s);
    Build {
        name: env!("CARGO_PKG_NAME"),
        version: env!("CARGO_PKG_VERSION"),
        commit: known(env!("BUILD_GIT_COMMIT")),
        commit_date: known(env!("BUILD_GIT_DATE")),
        dirty: match env!("BUILD_GIT_DIRTY") {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        target: env!("BUILD_TARGET"),
    }
}

/// Is the version asked for as JSON? Read from argv before clap parses it, since clap
/// answers `--version` as soon as it meets it, whatever follows.
pub fn asks_json(args: &[OsString]) -> bool {
    has_flag(args, &["--json"])
}

/// Prints the build as JSON on stdout: indented on a terminal, one line in a pipe.
pub fn print_json() -> io::Result<()> {
    let tty = io::stdout().is_terminal() || TerminalEnv::read().forced_tty;
    let mut out = io::stdout().lock();
    json::write(&mut out, &build(), tty)?;
    writeln!(out)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_begins_with_the_version() {
        assert!(TEXT.starts_with(env!("CARGO_PKG_VERSION")), "{TEXT}");
        let b = build();
        assert_eq!(b.commit.is_some(), TEXT.contains(" ("), "{TEXT}");
        assert_eq!(b.dirty == Some(true), TEXT.contains("-dirty "), "{TEXT}");
    }
}
