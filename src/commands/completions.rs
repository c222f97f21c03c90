//! `tunnelctl completions SHELL`: a completion script for the shell.

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use crate::cli::Cli;
use crate::error::Result;

/// Arguments of `completions`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl completions bash > ~/.local/share/bash-completion/completions/tunnelctl
  tunnelctl completions zsh > \"${fpath[1]}/_tunnelctl\"
  tunnelctl completions fish > ~/.config/fish/completions/tunnelctl.fish")]
pub struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    shell: Shell,
}

/// Writes the script of `shell` to `out`.
pub fn write(shell: Shell, out: &mut dyn std::io::Write) {
    clap_complete::generate(shell, &mut Cli::command(), "tunnelctl", out);
}

/// Prints the script.
pub fn run(args: CompletionsArgs) -> Result<()> {
    let mut buf = Vec::new();
    write(args.shell, &mut buf);
    std::io::Write::write_all(&mut std::io::stdout().lock(), &buf)?;
    Ok(())
}
