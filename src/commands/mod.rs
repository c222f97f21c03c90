//! One file per command group: its clap arguments and its handlers. What the groups share
//! (listing, running over several IDs, turning rule breaks into usage errors) is here.

pub mod api;
pub mod as_code;
pub mod backends;
pub mod completions;
pub mod config;
pub mod crud;
pub mod edges;
pub mod event_destinations;
pub mod event_subscriptions;
pub mod help;
pub mod ip_policies;
pub mod local;
pub mod resource_flags;
pub mod sessions;

use std::future::Future;
use std::io::{BufRead, Read};
use std::path::PathBuf;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use clap::Args;

use crate::api::validate::Invalid;
use crate::api::Pages;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::output::columns::Kind;
use crate::output::Printer;

/// Which API a command group's commands call, which decides the global flags its help shows
/// (`--api-key` under the management API, `--agent-url` under the agent's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reaches {
    /// The hosted management API.
    Management,
    /// The local agent API.
    Agent,
    /// No API (settings, help, completions).
    Neither,
}

/// What a command group declares beside its clap arguments and its handler, so that nothing
/// else keeps a list of commands: the lazy parser, the help scopes and the dispatch read the
/// groups from the one list in `cli.rs` and these facts from each group.
pub trait Group: Args {
    /// The API its commands call.
    const REACHES: Reaches;
    /// Does it print data (so the output flags mean something)? Help and completions do not.
    const PRINTS_DATA: bool = true;
    /// Does it print in the output formats (so `-o`, `--json` and `--jq` mean something)?
    /// `export` writes TOML, and only TOML.
    const OUTPUT_FORMATS: bool = true;
    /// May what it prints hold a secret the service echoes (so `--show-secrets` shows)?
    const ECHOES_SECRETS: bool = false;
    /// Its commands that ask for confirmation (and so take `--yes`), as paths under the group
    /// (`"tunnel-group delete"`).
    const CONFIRMING: &'static [&'static str] = &[];
    /// Global flags (by clap id) that name settings some of its commands report or store, and
    /// those commands (`config show`).
    const SHOWS_SETTINGS: &'static [(&'static str, &'static [&'static str])] = &[];
    /// Its commands that call no API (`local requests test` needs no agent), as paths under
    /// the group: the API's flags mean nothing to them.
    const CALLS_NOTHING: &'static [&'static str] = &[];

    /// Runs the command parsed into these arguments.
    fn run(self, ctx: &Context) -> impl Future<Output = crate::error::CommandResult>;
}

/// `--limit N` of every list.
#[derive(Debug, Args)]
pub struct LimitArg {
    /// Stop after N items (fetches no more pages than needed)
    #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
    pub limit: Option<usize>,
}

/// A whole number of at least 1.
pub fn parse_limit(s: &str) -> std::result::Result<usize, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if n >= 1 => usize::try_from(n).map_err(|_| format!("'{s}' is too large")),
        Ok(_) => Err(format!("'{s}' must be 1 or more")),
        Err(_) => Err(format!("'{s}' is not a whole number")),
    }
}

/// A value that is not empty or blank.
pub fn non_empty(s: &str) -> std::result::Result<String, String> {
    if s.trim().is_empty() {
        Err("must not be empty".into())
    } else {
        Ok(s.to_string())
    }
}

/// Turns a broken rule into a usage error that names the flag (`--description`).
pub fn check(result: std::result::Result<(), Invalid>) -> Result<()> {
    result.map_err(|inv| Error::usage(format!("--{}: {}", inv.field.replace('_', "-"), inv.reason)))
}

/// Streams a list to stdout in the chosen format. Cut short (the `--timeout` ran out, a page
/// failed), what was printed stays and the error says how far the listing got.
pub async fn print_list(ctx: &Context, kind: &'static Kind, pages: Pages<'_>) -> Result<()> {
    let n = stream_list(&ctx.printer, kind, pages).await?;
    note_if_empty(ctx, kind, n);
    Ok(())
}

/// Says so on stderr when a list shown as a table had no items ("No IP policies."); a pipe
/// and machine output get nothing.
pub fn note_if_empty(ctx: &Context, kind: &Kind, n: usize) {
    if n == 0 && ctx.printer.tty && ctx.printer.notes_empty_lists() {
        ctx.note(&kind.empty_note());
    }
}

/// [`print_list`] with these output options; returns how many items there were.
pub async fn stream_list(
    out: &Printer,
    kind: &'static Kind,
    mut pages: Pages<'_>,
) -> Result<usize> {
    let mut sink = out.list(kind)?;
    match pages.for_each_raw(|item| sink.push_raw(item)).await {
        Ok(_) => sink.finish(),
        Err(Error::BrokenPipe) => Err(Error::BrokenPipe),
        Err(e) => {
            sink.abandon()?;
            let (pages_read, items) = pages.progress();
            Err(match e {
                Error::WaitTimeout(m) => Error::WaitTimeout(format!(
                    "{m}; {items} item(s) from {pages_read} page(s) were printed before it"
                )),
                other => other,
            })
        }
    }
}

/// Runs `op` on each ID in turn (one bulk engine: [`crate::bulk`]), reporting each outcome on
/// stderr. One ID: its own error. Several: exit 5 when some fail (the failure's own code when
/// all fail alike); Ctrl-C, SIGTERM and `--timeout` stop it between IDs, with what was done.
/// With `--json`, the results are printed as an array, as `sessions restart --json` does.
pub async fn for_each_id<F, Fut>(ctx: &Context, ids: &[String], done: &str, op: F) -> Result<()>
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = Result<()>>,
{
    use crate::bulk::{self, Outcome};
    if let [only] = ids {
        let outcome = match op(only.clone()).await {
            Ok(()) => Outcome::Done,
            Err(e) => Outcome::Failed(e),
        };
        ctx.printer
            .results(bulk::results(ids, std::slice::from_ref(&outcome)))?;
        if let Outcome::Failed(e) = outcome {
            return Err(e);
        }
        ctx.note(&format!("{done} {}", escape(only)));
        return Ok(());
    }
    let outcomes = bulk::run_reported(&ctx.printer, ids, 1, done, op).await;
    ctx.printer.results(bulk::results(ids, &outcomes))?;
    bulk::conclude(&ctx.printer, ids, &outcomes, &[])
}

/// The most a `@FILE` value, `--input` body or stdin value may hold. Targets, configs and
/// bodies are a few kilobytes; a larger input is a mistake (`@/dev/zero`), refused after
/// reading this much + 1 byte, never read whole.
pub const MAX_INPUT: usize = 1024 * 1024;

/// How long a `@FILE` may take to yield its contents when `--timeout` is not given: a regular
/// file takes microseconds; a FIFO with no writer or a silent device would block forever.
pub const INPUT_WAIT: Duration = Duration::from_secs(10);

/// Reads `VALUE`, or the contents of `FILE` for `@FILE` (`@-` is stdin), at most
/// [`MAX_INPUT`] bytes. A file must yield its contents within `--timeout` (default
/// [`INPUT_WAIT`]); stdin, which may be a person typing, is bounded only by `--timeout`.
pub fn value_or_file(flag: &str, raw: &str) -> Result<String> {
    let Some(path) = raw.strip_prefix('@') else {
        return Ok(raw.to_string());
    };
    let bytes = read_input(flag, path, MAX_INPUT)?;
    String::from_utf8(bytes)
        .map_err(|_| Error::usage(format!("{flag}: {} is not UTF-8 text", shown_input(path))))
}

/// How an input path is named in messages: `stdin` for `-`, else the path, escaped.
pub fn shown_input(path: &str) -> String {
    if path == "-" {
        "stdin".to_string()
    } else {
        escape(path)
    }
}

/// Reads the bytes of `path` (`-` is stdin), at most `max`, with the same bounds in time as
/// [`value_or_file`]: for bodies and saved requests, which need not be text.
pub fn read_input(flag: &str, path: &str, max: usize) -> Result<Vec<u8>> {
    if path == "-" {
        return read_bounded(flag, "stdin", None, crate::deadline::get(), max);
    }
    // Reading input counts against the command's --timeout.
    let deadline = crate::deadline::get().unwrap_or_else(|| Instant::now() + INPUT_WAIT);
    read_bounded(flag, path, Some(PathBuf::from(path)), Some(deadline), max)
}

/// Reads `path` (stdin when `None`) on a thread of its own, so that a reader that blocks (a
/// FIFO with no writer blocks even in `open`) is abandoned at `deadline` instead of holding
/// the command forever; the abandoned thread ends with the process.
fn read_bounded(
    flag: &str,
    shown: &str,
    path: Option<PathBuf>,
    deadline: Option<Instant>,
    max: usize,
) -> Result<Vec<u8>> {
    let shown = escape(shown);
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = move || {
        let read = |source: &mut dyn Read| -> std::io::Result<Vec<u8>> {
            let mut buf = Vec::new();
            source.take(max as u64 + 1).read_to_end(&mut buf)?;
            Ok(buf)
        };
        let result = match path {
            Some(p) => std::fs::File::open(p).and_then(|mut f| read(&mut f)),
            None => read(&mut std::io::stdin().lock()),
        };
        let _ = tx.send(result);
    };
    std::thread::Builder::new()
        .name("input".into())
        .spawn(reader)
        .map_err(|e| Error::Io(format!("{flag}: cannot start reading {shown}: {e}")))?;
    let received = match deadline {
        Some(at) => rx
            .recv_timeout(at.saturating_duration_since(Instant::now()))
            .map_err(|e| matches!(e, RecvTimeoutError::Timeout)),
        None => rx.recv().map_err(|_| false),
    };
    let bytes = match received {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) => return Err(Error::usage(format!("{flag}: cannot read {shown}: {e}"))),
        Err(true) => {
            let limit = match crate::deadline::get() {
                Some(_) => "the time limit (--timeout)".to_string(),
                None => format!(
                    "{} (a FIFO with no writer, or a device?)",
                    crate::deadline::human(INPUT_WAIT)
                ),
            };
            return Err(Error::usage(format!(
                "{flag}: gave up reading {shown}: it did not yield its contents within {limit}"
            )));
        }
        Err(false) => return Err(Error::Io(format!("{flag}: reading {shown} failed"))),
    };
    if bytes.len() > max {
        return Err(Error::usage(format!(
            "{flag}: {shown} holds more than {} MiB; refusing it",
            max / (1024 * 1024)
        )));
    }
    Ok(bytes)
}

/// Reads one line from stdin (a key or secret piped in, or typed), without its line ending,
/// refusing a line longer than [`MAX_INPUT`] bytes instead of growing without end.
pub fn stdin_line(what: &str) -> Result<String> {
    let mut line = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_INPUT as u64 + 1)
        .read_until(b'\n', &mut line)
        .map_err(|e| Error::usage(format!("cannot read {what} from stdin: {e}")))?;
    if line.len() > MAX_INPUT {
        return Err(Error::usage(format!(
            "{what}: the line on stdin is longer than {} MiB; refusing it",
            MAX_INPUT / (1024 * 1024)
        )));
    }
    let line = String::from_utf8(line)
        .map_err(|_| Error::usage(format!("{what}: stdin is not UTF-8 text")))?;
    Ok(line.trim_end_matches(['\r', '\n']).to_string())
}

/// Makes a usage error for an update given nothing to change.
pub fn nothing_to_update(flags: &str) -> Error {
    Error::usage(format!("nothing to update: give at least one of {flags}"))
}

/// Runs one command with its context: what `tunnelctl` does once the command line is parsed
/// (and what in-process tests call with memory streams and a scripted prompter).
pub async fn execute(command: crate::cli::Command, ctx: &Context) -> crate::error::CommandResult {
    command.run(ctx).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits() {
        assert_eq!(parse_limit("5"), Ok(5));
        assert!(parse_limit("0").is_err());
        assert!(parse_limit("-1").is_err());
        assert!(parse_limit("x").is_err());
    }
}
