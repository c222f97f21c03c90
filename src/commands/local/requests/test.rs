//! `local requests test`: runs fixtures (what `save --into` writes) against a server and
//! checks each answer; see `crate::fixture`. It needs no agent and no API key: only the
//! files, the server at `--to`, and the webhook secrets to sign with.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use url::Url;

use crate::capture::replay::send::parse_upstream;
use crate::capture::wildcard::Glob;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::{escape, escape_path};
use crate::files::{self, Existing};
use crate::fixture::case;
use crate::fixture::expect::Failure;
use crate::fixture::folder;
use crate::fixture::jq_pool::JqPool;
use crate::fixture::results::{self, ShownOutcome};
use crate::fixture::runner::{stopped, FixtureOutcome, FixtureVerdict, Run, Stopped};

/// The most cases run at once.
const MAX_PARALLEL: usize = 256;

/// Run fixtures (what 'save --into' writes) against a server
///
/// Each request is signed again with a fresh timestamp, sent, and its answer checked against
/// NAME.expect.toml.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl local requests test hooks/ --to http://localhost:3000
  tunnelctl local requests test hooks/ --to http://localhost:3000 --update
  tunnelctl local requests test hooks/ --to http://localhost:3000 \\
      --junit report.xml --parallel 8 --filter 'post-*'
  tunnelctl local requests test hooks/ --to http://localhost:3000 \\
      --junit - > report.xml

Each line says PASS, FAIL or SKIP (not run), the fixture's name and the time taken;
under a failure, what differed (status, a header, a jq expression that was false, the
body: JSON by path). The webhook secrets are those replay uses
(TUNNELCTL_WEBHOOK_SECRET_GITHUB, _STRIPE, _SLACK, _SHOPIFY, _STANDARD). With --junit -,
stdout holds the report alone and the lines go to stderr. Needs no agent and no API key.
Exit 0: all passed; 8: one failed; 2: a fixture or expectation file is bad (nothing is
sent); 6: the server cannot be reached; 7: --timeout ran out; 130/143: Ctrl-C/SIGTERM
(the cases not run are SKIP; the report is written for what ran).")]
pub struct TestArgs {
    /// Fixture folders or request files [default: .]
    ///
    /// A folder runs every *.http in it, in name order. With none named, the fixtures of the
    /// current folder are run, and a note on stderr says so.
    #[arg(value_name = "DIR|FILE")]
    paths: Vec<PathBuf>,
    /// The server to send to (http:// or https://; a path given is put before each
    /// request's path)
    #[arg(long, value_name = "URL", value_parser = parse_upstream)]
    to: Url,
    /// Rewrite the expectations from the answers
    ///
    /// Each case's status, header values that no longer match and body snapshot are written
    /// from the answer it got; its jq, ignore and sign lines and its comments are kept.
    #[arg(long)]
    update: bool,
    /// Also write a JUnit XML report to FILE (replaced at each run); '-' writes it to
    /// stdout, and the lines per case go to stderr
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Run up to N cases at once (the report stays in name order)
    #[arg(long, value_name = "N", default_value = "1", value_parser = parse_parallel)]
    parallel: usize,
    /// Send the Host header each request file holds (by default, the host of --to)
    #[arg(long)]
    keep_host: bool,
    /// The most one case may take
    ///
    /// From sending its request to its last check; a case past it fails. --timeout bounds
    /// the whole run.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = crate::parse::parse_seconds)]
    case_timeout: std::time::Duration,
    /// Only the fixtures whose name matches GLOB (*, ?, [abc])
    #[arg(long, value_name = "GLOB", value_parser = parse_glob)]
    filter: Option<Glob>,
}

fn parse_parallel(s: &str) -> std::result::Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n @ 1..=MAX_PARALLEL) => Ok(n),
        _ => Err(format!(
            "'{}' is not a number from 1 to {MAX_PARALLEL}",
            escape(s)
        )),
    }
}

fn parse_glob(s: &str) -> std::result::Result<Glob, String> {
    Glob::parse(s).map_err(|e| e.to_string())
}

/// Runs `test`.
pub async fn run(ctx: &Context, args: TestArgs) -> Result<()> {
    let to = args.to;
    let paths = if args.paths.is_empty() {
        ctx.note("No fixture folder named: running the fixtures of the current folder (.)");
        vec![PathBuf::from(".")]
    } else {
        args.paths
    };
    let only = args.filter.as_ref();
    let cases = case::load(&paths, only, args.update)?;
    if cases.is_empty() {
        let where_ = paths
            .iter()
            .map(|p| escape_path(p))
            .collect::<Vec<_>>()
            .join(", ");
        return Err(Error::usage(format!(
            "no fixtures (*.http) in {where_}{}",
            if only.is_some() {
                " match --filter"
            } else {
                ""
            }
        )));
    }
    let secrets = ctx.settings.values()?.webhook_secrets.clone();
    let http = ctx.upstream(&to)?;
    let runner = Run {
        http: &http,
        to: &to,
        secrets: &secrets,
        update: args.update,
        keep_host: args.keep_host,
        case_timeout: args.case_timeout,
        jq: &JqPool::new(),
    };
    let started = Instant::now();
    let report_on_stdout = args.junit.as_deref().is_some_and(files::is_stdout);
    let mut view = ShownOutcome::new(&ctx.printer, report_on_stdout)?;
    let mut outcomes: Vec<FixtureOutcome> = Vec::new();
    let mut shown_error = None;
    // The first stop signal stops the run, which then reports and writes what ran.
    let _graceful = crate::interrupt::graceful_saying(
        "cases not yet run are skipped; Ctrl-C again stops at once.",
    );
    let progress = ctx.printer.progress_line(&running(&cases, 0));
    runner
        .all(&cases, args.parallel, |mut o| {
            write_update(&mut o);
            progress.above(|| {
                if let Err(e) = view.push(&o) {
                    shown_error.get_or_insert(e);
                }
            });
            outcomes.push(o);
            progress.update(&running(&cases, outcomes.len()));
        })
        .await;
    progress.finish();
    if let Some(e) = shown_error {
        return Err(e);
    }
    view.finish()?;
    let took = started.elapsed();
    if let Some(path) = &args.junit {
        let xml = results::junit(&outcomes, took)?;
        // Replaced whole at each run (or written into a device or FIFO); `-` is stdout.
        crate::commands::local::user_file::write(ctx, path, xml.as_bytes(), true)?;
    }
    conclude(ctx, &to, &outcomes)
}

/// What the progress line says once `done` cases have ended: the next one to end.
fn running(cases: &[case::Case], done: usize) -> String {
    match cases.get(done) {
        Some(c) => format!(
            "{done} of {} done; running {}",
            cases.len(),
            escape(&c.name)
        ),
        None => format!("{done} of {} done", cases.len()),
    }
}

/// Writes what `--update` made of a case (the expectation, a sidecar body) through the one
/// file-write path, replaced whole; a write that fails fails the case.
fn write_update(o: &mut FixtureOutcome) {
    let Some(w) = o.write.take() else {
        return;
    };
    let expect_file = o.expect_file.clone();
    let mut writes = vec![(expect_file.to_path_buf(), w.text.into_bytes())];
    if let Some((name, bytes)) = w.sidecar {
        writes.push((expect_file.with_file_name(name), bytes));
    }
    // Looked at again as they are written: a link that leads out of the folder is refused,
    // and then neither file is written.
    let refused: Vec<Failure> = writes
        .iter()
        .filter_map(|(path, _)| folder::stays_inside(path).err())
        .map(|e| Failure::new("update", e.to_string()))
        .collect();
    if !refused.is_empty() {
        o.verdict = FixtureVerdict::Fail;
        o.failures.extend(refused);
        return;
    }
    for (path, bytes) in writes {
        if let Err(e) = files::write_private(&path, &bytes, Existing::Replace) {
            o.verdict = FixtureVerdict::Fail;
            o.failures.push(Failure::new(
                "update",
                format!("cannot write {}: {e}", escape_path(&path)),
            ));
        }
    }
}

/// The summary on stderr and the exit code: 6 when the server could not be reached, 8 when
/// a case failed.
fn conclude(ctx: &Context, to: &Url, outcomes: &[FixtureOutcome]) -> Result<()> {
    let failed = outcomes
        .iter()
        .filter(|o| o.verdict == FixtureVerdict::Fail)
        .count();
    let updated = outcomes
        .iter()
        .filter(|o| o.verdict == FixtureVerdict::Updated)
        .count();
    let not_run = outcomes
        .iter()
        .filter(|o| o.verdict == FixtureVerdict::NotRun)
        .count();
    let passed = outcomes.len() - failed - updated - not_run;
    let mut summary = format!("{passed} passed, {failed} failed");
    if updated > 0 {
        summary.push_str(&format!(", {updated} updated"));
    }
    if not_run > 0 {
        summary.push_str(&format!(", {not_run} not run"));
    }
    ctx.note(&summary);
    match stopped() {
        Some(Stopped::Signal) => return Err(crate::interrupt::stop_error()),
        Some(Stopped::Timeout) => {
            return Err(crate::deadline::ran_out(format!(
                "after {} of {} fixture(s)",
                outcomes.len() - not_run,
                outcomes.len()
            )))
        }
        None => {}
    }
    if let Some((down, hint)) = outcomes
        .iter()
        .find_map(|o| o.unreachable.as_ref().map(|h| (o, h)))
    {
        let why = down.failures.first().map_or("", |f| f.message.as_str());
        let hint = match hint.as_str() {
            "" => String::new(),
            h => format!("\n{h}"),
        };
        return Err(Error::Unreachable(format!(
            "{} could not be reached: {why}{hint}",
            crate::http::origin(to)
        )));
    }
    match failed {
        0 => Ok(()),
        n => Err(Error::CheckFailed(format!(
            "{n} of {} fixture(s) failed",
            outcomes.len()
        ))),
    }
}
