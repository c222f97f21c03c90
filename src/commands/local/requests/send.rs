//! `local requests send FILE...`: saved requests (or the entries of HAR logs) sent to a
//! server, one after the other, each signed again as a changed replay is.

use anyhow::Context as _;
use clap::Args;
use serde_json::Value;
use url::Url;

use super::replay::{sign_again, signing_secrets, MAX_FILE};
use crate::capture::replay::send;
use crate::capture::replay::send::{aim, parse_upstream, upstream_of};
use crate::capture::request_file;
use crate::capture::view::{self, SentList};
use crate::capture::{har, Message};
use crate::commands::{read_input, shown_input};
use crate::context::Context;
use crate::error::{CommandResult, Error, Result};
use crate::escape::escape;
use crate::signature::Provider;

/// `local requests send FILE...` (to one of `--to` and `--tunnel`, which an error names).
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("target").args(["to", "tunnel"]).required(true)))]
pub struct SendArgs {
    /// Request files (as 'save' and 'get --raw' write them; '-' for stdin), or HAR logs
    /// with --har
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// The server to send to (http:// or https://; a path given is put before each
    /// request's path)
    #[arg(long, value_name = "URL", value_parser = parse_upstream)]
    to: Option<Url>,
    /// Send to this running tunnel's upstream
    ///
    /// Its config.addr, instead of --to.
    #[arg(long, value_name = "NAME", conflicts_with = "to", add = clap_complete::ArgValueCandidates::new(crate::complete::tunnel_names))]
    tunnel: Option<String>,
    /// The files are HAR logs: send the request of every entry, in order
    #[arg(long)]
    har: bool,
    /// Sign each request for PROVIDER
    ///
    /// PROVIDER: github, stripe, slack, shopify or standard, with the secret set for it; for
    /// requests written by hand, with no signature in them.
    #[arg(long, value_name = "PROVIDER", value_parser = parse_provider)]
    sign: Option<Provider>,
    /// Send the webhook signature headers as they were (by default each request is signed
    /// again, with a fresh timestamp, when a secret is set for its provider)
    #[arg(long, conflicts_with = "sign")]
    keep_signature: bool,
    /// Send the Host header each request holds (by default, the host of --to or of the
    /// tunnel's upstream)
    #[arg(long)]
    keep_host: bool,
}

fn parse_provider(s: &str) -> std::result::Result<Provider, String> {
    s.parse()
        .map_err(|e: crate::signature::UnknownProvider| e.to_string())
}

/// Sends saved requests, one after the other.
pub async fn send_files(ctx: &Context, args: SendArgs) -> CommandResult {
    let mut requests: Vec<(String, Message)> = Vec::new();
    for file in &args.files {
        requests.extend(read_requests(file, args.har)?);
    }
    let secrets = signing_secrets(ctx, args.keep_signature)?;
    let mut warned = Vec::new();
    for (_, msg) in &mut requests {
        sign_again(ctx, msg, secrets.as_ref(), args.sign, &mut warned)?;
        aim(msg, args.keep_host);
    }
    for (source, msg) in &requests {
        if let Some(why) = msg.unsendable() {
            return Err(
                Error::usage(format!("{}: {why}; nothing was sent", escape(source))).into(),
            );
        }
    }
    let upstream = match (args.to, args.tunnel) {
        (Some(url), _) => url,
        (None, Some(name)) => upstream_of(&ctx.agent()?.tunnel(&name).await?)?,
        (None, None) => return Err(Error::usage("give --to URL or --tunnel NAME").into()),
    };
    let http = ctx.upstream(&upstream)?;
    if let [(source, msg)] = requests.as_slice() {
        let sent = send(&http, msg, &upstream).await?;
        return Ok(view::sent(&ctx.printer, &sent, source)?);
    }
    let sources: Vec<String> = requests.iter().map(|(s, _)| s.clone()).collect();
    let list = std::cell::RefCell::new(SentList::start(&ctx.printer)?);
    let by_source = |source: String| {
        let found = requests.iter().find(|(s, _)| *s == source);
        let (http, upstream, list) = (&http, &upstream, &list);
        async move {
            let (_, msg) = found.ok_or_else(|| Error::Io("lost a request".into()))?;
            let sent = send(http, msg, upstream).await?;
            list.borrow_mut().push(&sent, &source)
        }
    };
    let outcomes = crate::bulk::run(&sources, 1, by_source, |source, outcome| {
        if let crate::bulk::Outcome::Failed(e) = outcome {
            ctx.printer
                .streams
                .err_line(&format!("error: {}: {e:#}", escape(source)));
        }
    })
    .await;
    list.into_inner().finish()?;
    Ok(crate::bulk::conclude(
        &ctx.printer,
        &sources,
        &outcomes,
        &[],
    )?)
}

/// The requests of one file, each named for messages (`FILE`, or `FILE#N` for the Nth entry
/// of a HAR log), read by [`request_file`]. A file that does not read as requests, a request
/// that would go elsewhere than asked or a body shorter than its `Content-Length` is a usage
/// error naming the file or the entry: nothing of the batch is sent.
fn read_requests(file: &str, har: bool) -> CommandResult<Vec<(String, Message)>> {
    let shown = if file == "-" { "stdin" } else { file };
    let what = if har { "HAR log" } else { "request file" };
    // Stdin is read as every command reads it; a file through the one request-file reader.
    let bytes = if file == "-" {
        read_input("send", file, MAX_FILE)
            .with_context(|| format!("reading the {what} {}", shown_input(file)))?
    } else {
        request_file::read_bytes(std::path::Path::new(file), what)?
    };
    let refused = |name: &str, why: String| {
        Error::usage(format!("{}: {why}; nothing was sent", escape(name)))
    };
    if !har {
        let msg = request_file::parse(&bytes)
            .map_err(|why| refused(shown, format!("{why}{}", har::hint(file, &bytes))))?;
        return Ok(vec![(shown.to_string(), msg)]);
    }
    let doc: Value =
        serde_json::from_slice(&bytes).map_err(|e| refused(shown, format!("not JSON ({e})")))?;
    let entries = har::entries(&doc).map_err(|why| refused(shown, why))?;
    if entries.is_empty() {
        return Err(refused(shown, "the HAR log has no entries".into()).into());
    }
    entries
        .into_iter()
        .enumerate()
        .map(|(i, entry)| {
            let name = format!("{shown}#{}", i + 1);
            match entry {
                Ok(msg) => Ok((name, msg)),
                Err(why) => Err(refused(&name, why)),
            }
        })
        .collect::<Result<_>>()
        .map_err(Into::into)
}
