//! One file per command group: its clap arguments and its handlers. What the groups share
//! (listing, running over several IDs, turning rule breaks into usage errors) is here.

pub mod api;
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
pub mod sessions;

use std::future::Future;

use clap::Args;

use crate::api::validate::Invalid;
use crate::api::Pages;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::columns::Kind;
use crate::output::escape::escape;
use crate::output::{Format, OutputOptions};

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
    let n = stream_list(&ctx.out, kind, pages).await?;
    if n == 0 && ctx.out.format == Format::Table && ctx.out.jq.is_none() {
        ctx.note(&format!("No {} found.", kind.plural));
    }
    Ok(())
}

/// [`print_list`] with these output options; returns how many items there were.
pub async fn stream_list(
    out: &OutputOptions,
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

/// Runs `op` on each ID in turn, reporting each outcome on stderr. One ID: its own error.
/// Several: exit 5 when some fail (the failure's own code when all fail alike).
pub async fn for_each_id<F, Fut>(ctx: &Context, ids: &[String], done: &str, mut op: F) -> Result<()>
where
    F: FnMut(String) -> Fut,
    Fut: Future<Output = Result<()>>,
{
    if let [only] = ids {
        op(only.clone()).await?;
        ctx.note(&format!("{done} {}", escape(only)));
        return Ok(());
    }
    let mut codes = Vec::new();
    for (done_count, id) in ids.iter().enumerate() {
        if crate::deadline::passed() {
            return Err(crate::deadline::ran_out(format!(
                "with {} of {} done; not started: {}",
                done_count - codes.len(),
                ids.len(),
                escape(&ids[done_count..].join(" "))
            )));
        }
        match op(id.clone()).await {
            Ok(()) => ctx.note(&format!("{done} {}", escape(id))),
            Err(e) => {
                eprintln!("error: {}: {e:#}", escape(id));
                codes.push(e.exit_code());
            }
        }
    }
    if crate::deadline::passed() && codes.contains(&crate::error::exit::WAIT_TIMEOUT) {
        return Err(crate::deadline::ran_out(format!(
            "with {} of {} done",
            ids.len() - codes.len(),
            ids.len()
        )));
    }
    crate::error::several(&codes, 0, ids.len())
}

/// Reads `VALUE`, or the contents of `FILE` for `@FILE` (`@-` is stdin).
pub fn value_or_file(flag: &str, raw: &str) -> Result<String> {
    let Some(path) = raw.strip_prefix('@') else {
        return Ok(raw.to_string());
    };
    if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| Error::usage(format!("{flag}: cannot read stdin: {e}")))?;
        return Ok(s);
    }
    std::fs::read_to_string(path)
        .map_err(|e| Error::usage(format!("{flag}: cannot read {path}: {e}")))
}

/// Makes a usage error for an update given nothing to change.
pub fn nothing_to_update(flags: &str) -> Error {
    Error::usage(format!("nothing to update: give at least one of {flags}"))
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
