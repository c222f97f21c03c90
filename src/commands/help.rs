//! `tunnelctl help [TOPIC | COMMAND…]`: help on a command, or on a topic (exit-codes).

use crate::output::print_bytes;

use clap::Args;

use crate::error::{Error, Result, EXIT_CODES_HELP};

/// Arguments of `help`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  tunnelctl help exit-codes\n  tunnelctl help sessions restart")]
pub struct HelpArgs {
    /// A topic (exit-codes) or a command path (e.g. sessions restart)
    #[arg(value_name = "TOPIC|COMMAND")]
    words: Vec<String>,
}

/// Prints the help asked for.
pub fn run(args: HelpArgs) -> Result<()> {
    if args.words.len() == 1 && args.words[0] == "exit-codes" {
        return print_bytes(EXIT_CODES_HELP.as_bytes());
    }
    let mut cmd = crate::cli::command();
    cmd.build();
    let mut current = &cmd;
    for word in &args.words {
        current = current.find_subcommand(word).ok_or_else(|| {
            Error::usage(format!(
                "no help topic or command '{word}'; try 'tunnelctl help exit-codes' or 'tunnelctl --help'"
            ))
        })?;
    }
    print_bytes(current.clone().render_long_help().to_string().as_bytes())
}
