//! `tunnelctl completions SHELL`: the script that hooks `tunnelctl` into the shell's
//! completion. The script calls `tunnelctl` back (with `COMPLETE=<shell>`) for each
//! completion, so subcommands, flags and live resource IDs and tunnel names all complete.

use clap::{Args, ValueEnum};
use clap_complete::env::{CompleteEnv, Shells};

use crate::error::{Error, Result};

/// Shells with completion support.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    /// Bash
    Bash,
    /// Zsh
    Zsh,
    /// Fish
    Fish,
    /// PowerShell
    Powershell,
    /// Elvish
    Elvish,
}

impl Shell {
    fn name(self) -> &'static str {
        match self {
            Shell::Bash => "bash",
            Shell::Zsh => "zsh",
            Shell::Fish => "fish",
            Shell::Powershell => "powershell",
            Shell::Elvish => "elvish",
        }
    }
}

/// Arguments of `completions`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  echo 'source <(tunnelctl completions bash)' >> ~/.bashrc
  echo 'source <(tunnelctl completions zsh)' >> ~/.zshrc
  tunnelctl completions fish > ~/.config/fish/completions/tunnelctl.fish

Resource IDs and tunnel names complete from the live APIs (settings from the environment and
the config file); when they cannot be reached within a moment, nothing is offered.")]
pub struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    shell: Shell,
}

/// The variable a shell sets (`COMPLETE=<shell>`) to ask `tunnelctl` for completions.
pub const VAR: &str = "COMPLETE";

/// Did a shell ask for completions? Checked before [`env()`] is consulted, so that an ordinary
/// run pays for neither the arguments' copy nor the working directory completion wants.
pub fn asked() -> bool {
    std::env::var_os(VAR).is_some()
}

/// The completion environment: `COMPLETE=<shell>` makes `tunnelctl` answer completions.
pub fn env() -> CompleteEnv<'static, fn() -> clap::Command> {
    CompleteEnv::with_factory(crate::cli::command as fn() -> clap::Command)
        .var(VAR)
        .bin("tunnelctl")
        .completer("tunnelctl")
}

/// Writes the registration script of `shell` to `out`.
pub fn write(shell: Shell, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    match Shells::builtins().completer(shell.name()) {
        Some(c) => c.write_registration(VAR, "tunnelctl", "tunnelctl", "tunnelctl", out),
        None => Err(std::io::Error::other(format!(
            "no completion support for {}",
            shell.name()
        ))),
    }
}

impl super::Group for CompletionsArgs {
    const REACHES: super::Reaches = super::Reaches::Neither;
    const PRINTS_DATA: bool = false;

    async fn run(self, _ctx: &crate::context::Context) -> crate::error::CommandResult {
        Ok(run(self)?)
    }
}

/// Prints the script.
pub fn run(args: CompletionsArgs) -> Result<()> {
    let mut buf = Vec::new();
    write(args.shell, &mut buf).map_err(|e| Error::Io(e.to_string()))?;
    crate::output::print_bytes(&buf)
}
