//! tunnelctl: one command-line tool for the hosted management API of a tunnel service and the
//! local API of its agent.
//!
//! argv → clap tree ([`cli`]) → a thin handler in [`commands`], given a [`context`] (the
//! [`settings`], resolved once from the [`registry`] of settings, the printer, the prompter,
//! the clients) → a feature ([`capture`], [`history`], [`fixture`], [`inspect`], [`fleet`],
//! [`bulk`], [`signature`], [`account`]) → a client ([`api`], [`agent`]) → the
//! one HTTP layer ([`http`]) → the server; what comes back is printed through [`output`], the
//! floor every feature stands on and which knows none of them. A feature is handed what it
//! needs (a client, the printer, settled values), never the context, and imports no command:
//! `tests/architecture.rs` checks these layers, and CONTRIBUTING ("The floor plan") states
//! them. Handlers return `anyhow::Result` with what they were doing; [`run`] prints the error
//! and takes the exit code from the typed [`error::Error`] in its chain.

pub mod account;
pub mod agent;
pub mod api;
pub mod bulk;
pub mod capture;
pub mod cli;
pub mod commands;
pub mod complete;
pub mod config_file;
pub mod context;
pub mod deadline;
pub mod encoding;
pub mod error;
pub mod escape;
pub mod files;
pub mod fixture;
pub mod fleet;
pub mod harden;
pub mod heap;
pub mod history;
pub mod http;
pub mod inspect;
pub mod interrupt;
pub mod json_path;
pub mod math;
pub mod output;
pub mod parse;
pub mod prompt;
pub mod ratelimit;
pub mod registry;
pub mod secrets;
pub mod settings;
pub mod signature;

use std::ffi::OsString;

use cli::{Cli, Command};
use context::Context;
use error::{exit, CommandResult, Error};

/// Runs the program on these arguments and returns the exit code.
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    harden::disable_core_dumps();
    harden::survive_file_size_limit();
    match parse(args.into_iter().collect()) {
        Ok(cli) => execute(cli),
        Err(code) => code,
    }
}

/// The command line, or the exit code when there is nothing more to do (completions, help,
/// version, a usage error).
///
/// Never inlined, like [`execute`]: each keeps its large locals (clap's builders here, the
/// command's future there) in a frame of its own, so a start touches the stack pages of one,
/// not of both at once.
#[inline(never)]
fn parse(args: Vec<OsString>) -> Result<Cli, i32> {
    // A shell asking for completions (COMPLETE=<shell>) is answered here, before anything else.
    if commands::completions::asked() {
        match commands::completions::env()
            .try_complete(args.clone(), std::env::current_dir().ok().as_deref())
        {
            Ok(true) => return Err(exit::OK),
            Ok(false) => {}
            Err(e) => {
                let _ = e.print();
                return Err(exit::USAGE);
            }
        }
    }
    let version_as_json = cli::version::asks_json(&args);
    cli::parse(args.clone()).map_err(|e| {
        if version_as_json && e.kind() == clap::error::ErrorKind::DisplayVersion {
            // As clap's own version: a stdout that cannot be written to changes nothing.
            let _ = cli::version::print_json();
            return exit::OK;
        }
        // Help and version go to stdout with exit 0; usage errors to stderr with exit 2.
        cli::print_error(&e, &args);
        if e.use_stderr() {
            exit::USAGE
        } else {
            exit::OK
        }
    })
}

/// Runs the parsed command to its end and returns the exit code.
#[inline(never)]
fn execute(cli: Cli) -> i32 {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return report(&anyhow::Error::new(e).context("starting the async runtime")),
    };
    deadline::start(cli.global.timeout);
    // On the heap: the future of every command at once is many kilobytes.
    let command = Box::pin(dispatch(cli));
    let outcome = runtime.block_on(async {
        tokio::select! {
            r = command => r,
            e = interrupt::hard_stop(|line| output::Streams::system().err_line(line)) => Err(e.into()),
            e = deadline::backstop() => Err(e.into()),
        }
    });
    match outcome {
        Ok(()) => exit::OK,
        Err(e) => report(&e),
    }
}

/// Prints an error (if it has anything to say) with the context it gathered on the way up
/// (`error: reading request file x.http: …`) and returns the exit code of the typed error in
/// its chain.
fn report(e: &anyhow::Error) -> i32 {
    match error::typed(e) {
        // Already reported line by line; one failure needs no summary, nor failures a
        // summary on the terminal already counted.
        Some(
            Error::BrokenPipe
            | Error::AllFailed { count: 1, .. }
            | Error::AllFailed {
                summarized: true, ..
            }
            | Error::Partial {
                summarized: true, ..
            },
        ) => {}
        Some(stop) if stop.is_stop_signal() => eprintln!("{stop}"),
        // Whatever path an error's text took, a secret this run knows never reaches stderr;
        // folded at spaces for stderr's terminal, each line on its own (a terminal broke a
        // long error inside a word).
        _ => output::Streams::system().err_line(&format!(
            "error: {}",
            secrets::redact_known(&format!("{e:#}"))
        )),
    }
    error::exit_code_of(e)
}

async fn dispatch(cli: Cli) -> CommandResult {
    let Cli { global, command } = cli;
    if let Command::Help(h) = command {
        return Ok(commands::help::run(h)?);
    }
    if let Command::Completions(c) = command {
        return Ok(commands::completions::run(c)?);
    }
    let (flags, printer) = global.into_flags_and_printer()?;
    commands::execute(command, &Context::new(flags, printer)).await
}
