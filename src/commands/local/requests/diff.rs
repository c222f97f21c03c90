//! `local requests diff A B`: how two requests (and, for two captures, their answers)
//! differ, through the diff engine the test runner uses (`crate::fixture::diff`). A and B
//! are each a capture ID or a request file.

use std::path::Path;

use clap::Args;

use crate::capture::message::Message;
use crate::capture::request_file;
use crate::commands::local::find_capture;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::fixture::diff::{is_volatile, message_lines};
use crate::fixture::results::{show_diff, Compared};

/// Show how two requests differ, and their answers
///
/// The request line, headers and body (JSON by path), and their answers when both are
/// captures.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl local requests diff airt_2Qm… airt_2Qn…
  tunnelctl local requests diff paid.http airt_2Qm…
  tunnelctl local requests diff airt_2Qm… airt_2Qn… --json

A and B are each a capture ID or a request file (what 'save' writes). Answer headers that
change every time (Date and the like) are not compared. Exit 0, or with --exit-code 8
when they differ.")]
pub struct DiffArgs {
    /// A capture ID (airt_…) or a request file
    #[arg(value_name = "A", add = clap_complete::ArgValueCandidates::new(crate::complete::captured_ids))]
    a: String,
    /// Another capture ID or request file
    #[arg(value_name = "B", add = clap_complete::ArgValueCandidates::new(crate::complete::captured_ids))]
    b: String,
    /// Exit 8 when they differ (as 'diff' and 'git diff --exit-code' do)
    #[arg(long)]
    exit_code: bool,
}

/// One side: a request, and its answer when it is a capture that has one.
struct DiffSide {
    request: Message,
    answer: Option<Message>,
}

/// Reads `what`: a request file when one is there (or the name looks like a path), else
/// a capture ID.
async fn side(ctx: &Context, what: &str) -> Result<DiffSide> {
    let path = Path::new(what);
    if path.is_dir() {
        return Err(Error::usage(format!(
            "{} is a folder: give a request file or a capture ID (airt_…)",
            escape(what)
        )));
    }
    let looks_like_file = what.contains(['/', '\\']) || what.ends_with(".http");
    if path.is_file() || looks_like_file {
        if !crate::files::occupied(path) {
            return Err(Error::usage(format!(
                "cannot read the request file {}: there is no such file",
                escape(what)
            )));
        }
        let request = request_file::read(path)?;
        return Ok(DiffSide {
            request,
            answer: None,
        });
    }
    let client = ctx.agent()?;
    let captured = find_capture(ctx, &client, what).await?.capture;
    Ok(DiffSide {
        request: captured.request_message(),
        answer: captured.response_message(),
    })
}

/// Runs `diff`.
pub async fn run(ctx: &Context, args: DiffArgs) -> Result<()> {
    let a = side(ctx, &args.a).await?;
    let b = side(ctx, &args.b).await?;
    let request = message_lines(&a.request, &b.request, |_| false);
    let answer = match (&a.answer, &b.answer) {
        (Some(x), Some(y)) => Some(message_lines(x, y, is_volatile)),
        _ => None,
    };
    let same = request.is_empty() && answer.as_ref().is_none_or(Vec::is_empty);
    show_diff(
        &ctx.printer,
        &Compared {
            a: &args.a,
            b: &args.b,
            request: &request,
            answer: answer.as_deref(),
        },
    )?;
    if same {
        // What was left out is said only where it was: two requests have no answers.
        ctx.note(match answer {
            Some(_) => "No differences (answer headers such as Date are not compared)",
            None => "No differences",
        });
    } else if args.exit_code {
        return Err(Error::CheckFailed(format!(
            "{} and {} differ",
            escape(&args.a),
            escape(&args.b)
        )));
    }
    Ok(())
}
