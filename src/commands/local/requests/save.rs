//! `local requests save`: captured requests written to files as HTTP messages, for `send`;
//! with `--into DIR`, as fixtures for `test`: per capture `NAME.http` (the request, exactly
//! what `--out` writes) and `NAME.expect.toml` (what its answer must be, made from the answer
//! the capture got; a binary body goes to `NAME.body` beside it). Every capture is read, and
//! every file name checked, before anything is written: a name already taken is refused
//! without `--force`, and nothing is written.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::capture::body::decoded_body;
use crate::capture::request_file;
use crate::capture::Exchange;
use crate::commands::local::{
    find_capture, find_capture_unsaid, note_read_from_history, user_file,
};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::{escape, escape_path};
use crate::fixture::case;
use crate::fixture::snapshot::{self, Answer};

/// `local requests save ID... (--out FILE | --into DIR)`.
#[derive(Debug, Args)]
pub struct SaveArgs {
    /// Captured request IDs (airt_…); one with --out
    #[arg(required = true, value_name = "ID", add = clap_complete::ArgValueCandidates::new(crate::complete::captured_ids))]
    ids: Vec<String>,
    /// The file to write ('-' for stdout); a device or FIFO is written into (with --force),
    /// never replaced
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "into",
        conflicts_with = "into"
    )]
    out: Option<PathBuf>,
    /// Write each capture as a fixture in DIR (made if missing): NAME.http and
    /// NAME.expect.toml, for 'local requests test' (--json prints the files written)
    #[arg(long, value_name = "DIR")]
    into: Option<PathBuf>,
    /// With --into: the fixture's name (default: from the method and path, such as
    /// post-hooks-stripe); several captures get NAME, NAME-2, …
    #[arg(long, value_name = "NAME", requires = "into", value_parser = parse_name)]
    name: Option<String>,
    /// Replace files that exist (through a symlink, the file it leads to: the link stays; a
    /// device or FIFO is written into); with '--out -', write to a terminal even bytes that
    /// could act on it
    #[arg(long)]
    force: bool,
}

fn parse_name(s: &str) -> std::result::Result<String, String> {
    if snapshot::valid_name(s) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "'{}' is not a fixture name: letters, digits, '-', '_' and '.', not starting with '.'",
            escape(s)
        ))
    }
}

/// Runs `save`.
pub async fn run(ctx: &Context, args: SaveArgs) -> Result<()> {
    match (&args.out, &args.into) {
        (Some(out), _) => match args.ids.as_slice() {
            [id] => save_out(ctx, id, out, args.force).await,
            _ => Err(Error::usage(
                "--out writes one capture: give one ID, or --into DIR for several",
            )),
        },
        (None, Some(dir)) => save_into(ctx, &args.ids, dir, args.name.as_deref(), args.force).await,
        (None, None) => Err(Error::usage("give --out FILE or --into DIR")),
    }
}

/// The request of a capture as the bytes of an HTTP message. A request that does not read
/// as one (a header no server would take) is saved as it was captured: the file is a record
/// of what came in.
fn request_bytes(captured: &Exchange) -> Result<Vec<u8>> {
    match captured.request_to_send() {
        Ok(msg) => Ok(msg.to_bytes()),
        Err(e) => captured.request.raw.clone().ok_or(e),
    }
}

/// Writes a captured request to a file as an HTTP message (`-`: stdout).
async fn save_out(ctx: &Context, id: &str, out: &Path, force: bool) -> Result<()> {
    user_file::check_free(out, force)?;
    let client = ctx.agent()?;
    let bytes = request_bytes(&find_capture(ctx, &client, id).await?.capture)?;
    user_file::write(ctx, out, &bytes, force)?;
    // What went to stdout speaks for itself.
    if !crate::files::is_stdout(out) {
        ctx.note(&format!(
            "Saved {} to {} ({} bytes)",
            escape(id),
            user_file::shown(out),
            bytes.len()
        ));
    }
    Ok(())
}

/// The folder `--into` names, made when missing; anything else standing there is refused.
fn folder(dir: &Path) -> Result<()> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Error::usage(format!(
            "--into {} is not a folder",
            escape_path(dir)
        ))),
        Err(_) => std::fs::create_dir_all(dir)
            .map_err(|e| Error::Io(format!("cannot make the folder {}: {e}", escape_path(dir)))),
    }
}

/// The first of `base`, `base-2`, … not in `taken`.
fn unique(base: &str, taken: &[String]) -> String {
    (1..)
        .map(|n| {
            if n == 1 {
                base.to_string()
            } else {
                format!("{base}-{n}")
            }
        })
        .find(|n| !taken.contains(n))
        .unwrap_or_else(|| base.to_string())
}

/// Writes each capture as a fixture in `dir`.
async fn save_into(
    ctx: &Context,
    ids: &[String],
    dir: &Path,
    name: Option<&str>,
    force: bool,
) -> Result<()> {
    folder(dir)?;
    let mut names: Vec<String> = Vec::new();
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut saved = Vec::new();
    let mut from_history: Vec<&str> = Vec::new();
    // One client for every ID: its connection is kept between them.
    let client = ctx.agent()?;
    for id in ids {
        let found = find_capture_unsaid(ctx, &client, id).await?;
        if found.origin == crate::history::lookup::Origin::History {
            from_history.push(id);
        }
        let captured = found.capture;
        let base = match name {
            Some(n) => n.to_string(),
            None => snapshot::name_for(captured.method(), captured.uri()),
        };
        let stem = unique(&base, &names);
        names.push(stem.clone());
        let response = captured.response_message();
        // The snapshot holds the body as the handler meant it, its Content-Encoding undone,
        // as `test` compares it.
        let body = response.as_ref().map(|r| decoded_body(r).0);
        let answer = match (captured.status(), &response, &body) {
            (Some(status), Some(r), Some(body)) => Some(Answer {
                status,
                headers: &r.headers,
                body,
            }),
            _ => None,
        };
        let written = snapshot::new_file(&stem, answer.as_ref());
        let request = request_bytes(&captured)?;
        // A fixture `test` would refuse is not written (nothing is, for any ID).
        let refused = match request_file::parse(&request) {
            Ok(m) => case::unsendable(&m),
            Err(why) => Some(why),
        };
        if let Some(why) = refused {
            return Err(Error::usage(format!(
                "{} cannot be a fixture, since 'test' could not send it ({why}); nothing was written",
                escape(id)
            )));
        }
        let first = files.len();
        files.push((dir.join(format!("{stem}.http")), request));
        files.push((
            dir.join(format!("{stem}.expect.toml")),
            written.text.into_bytes(),
        ));
        if let Some((side, bytes)) = written.sidecar {
            files.push((dir.join(side), bytes));
        }
        saved.push((id.clone(), stem, first..files.len()));
    }
    // Said once for all of them (it was a line per capture, two on a terminal).
    note_read_from_history(ctx, &from_history)?;
    for (path, _) in &files {
        user_file::check_free(path, force)?;
    }
    for (path, bytes) in &files {
        user_file::write(ctx, path, bytes, force)?;
    }
    for (id, stem, _) in &saved {
        ctx.note(&format!(
            "Saved {} as {}.http and {stem}.expect.toml",
            escape(id),
            escape_path(&dir.join(stem))
        ));
    }
    // `--json` and `--jq` get what was written, as the other commands' results are.
    if !ctx.printer.for_people() {
        let fixtures: Vec<serde_json::Value> = saved
            .iter()
            .map(|(id, stem, range)| {
                let written: Vec<String> = files[range.clone()]
                    .iter()
                    .map(|(p, _)| p.to_string_lossy().into_owned())
                    .collect();
                serde_json::json!({"id": id, "name": stem, "files": written})
            })
            .collect();
        ctx.printer.document(&serde_json::json!({
            "folder": dir.to_string_lossy(),
            "fixtures": fixtures,
            "from_history": from_history,
        }))?;
    }
    Ok(())
}
