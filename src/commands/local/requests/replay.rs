//! `local requests replay`: captured requests sent again by `tunnelctl` itself, changed; and
//! the signing again and the file bound that `send` ([`super::send`]) shares, for requests read
//! back from files (`save` writes them: [`super::save`]).
//!
//! The agent's API replays a capture only as it was, so a replay with changes (or to another
//! upstream) is sent straight to the tunnel's upstream (its `config.addr`) or to `--to`,
//! through a client that carries no credentials ([`Context::upstream`]); an unchanged replay
//! still goes through the agent. Every flag is checked, and every file read, before anything
//! is sent.
//!
//! A changed replay and every `send` sign a webhook again with the secret set for its
//! provider ([`resign`]), so the handler's verification accepts it; `--keep-signature` sends
//! the signature headers as they were.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use clap::Args;
use url::Url;

use crate::capture::replay::edit::{chosen_editor, edit_to_send};
use crate::capture::replay::modify::{parse_header, parse_header_name, parse_set, SetField};
use crate::capture::replay::resign::{no_secret, resign, Resigned};
use crate::capture::replay::send::{parse_upstream, upstream_for};
use crate::capture::replay::{apply, send, Mods};
use crate::capture::view;
use crate::capture::{signed, Exchange, Message};
use crate::commands::local::find_capture;
use crate::commands::{read_input, shown_input};
use crate::context::Context;
use crate::error::{CommandResult, Error, Result};
use crate::escape::escape;
use crate::history::lookup::Origin;
use crate::signature::{Provider, Secrets, Verdict};

/// The largest request file, HAR log or `--body` read: a captured request's body can be an
/// upload, far larger than a flag's value.
pub(super) const MAX_FILE: usize = crate::http::DEFAULT_MAX_BODY;

/// The changes `replay` can make before sending.
#[derive(Debug, Args, Default)]
pub struct ChangeArgs {
    /// Set a header (repeatable): the values given for a name replace all of its values
    #[arg(long = "header", short = 'H', value_name = "'NAME: VALUE'", value_parser = parse_header)]
    headers: Vec<(String, String)>,
    /// Remove a header, every value of it (repeatable)
    #[arg(long = "remove-header", value_name = "NAME", value_parser = parse_header_name)]
    remove: Vec<String>,
    /// Replace the body with @FILE or stdin (-)
    #[arg(long, value_name = "@FILE|-", value_parser = parse_body_source)]
    body: Option<String>,
    /// Set a field of the JSON body (repeatable; a gzip or deflate body is decoded and
    /// encoded again): PATH as diff shows it (.data.items[0].id=7); VALUE is JSON when it
    /// reads as JSON (100, true, null, "007"), else a string
    #[arg(long = "set", value_name = "PATH=VALUE", value_parser = parse_set)]
    set: Vec<SetField>,
    /// Add a field the JSON body does not have (repeatable; the objects on its path are made
    /// when missing): PATH and VALUE as for --set, which changes only fields that are there
    #[arg(long = "add", value_name = "PATH=VALUE", value_parser = parse_set)]
    add: Vec<SetField>,
    /// Edit the request in $EDITOR, then send it
    ///
    /// $VISUAL or $EDITOR opens it after the other changes; what is saved is sent, and an
    /// unchanged or emptied file sends nothing.
    #[arg(long)]
    edit: bool,
    /// Send to this server instead of the upstream
    ///
    /// http:// or https://; a path given is put before the request's path.
    #[arg(long, value_name = "URL", value_parser = parse_upstream)]
    to: Option<Url>,
    /// Sign again with a fresh timestamp
    ///
    /// For a capture whose signature expired: it is sent through tunnelctl to the tunnel's
    /// upstream, as a changed replay is.
    #[arg(long)]
    resign: bool,
    /// Send the webhook signature headers as they were (by default a changed request is
    /// signed again, with a fresh timestamp, when a secret is set for its provider)
    #[arg(long, conflicts_with = "resign")]
    keep_signature: bool,
}

/// The secrets to sign with; none with `--keep-signature` (`kept`), which signs nothing.
pub(super) fn signing_secrets(ctx: &Context, kept: bool) -> Result<Option<Secrets>> {
    match kept {
        true => Ok(None),
        false => ctx
            .settings
            .values()
            .map(|v| Some(v.webhook_secrets.clone())),
    }
}

/// Signs `msg` again (see [`resign`]) unless `secrets` is `None` (`--keep-signature`), and
/// says once on stderr, per provider, when a signature could not be made for want of a secret.
pub(super) fn sign_again(
    ctx: &Context,
    msg: &mut Message,
    secrets: Option<&Secrets>,
    sign_as: Option<Provider>,
    warned: &mut Vec<Provider>,
) -> Result<Resigned> {
    let Some(secrets) = secrets else {
        return Ok(Resigned::Unsigned);
    };
    let done = resign(msg, secrets, signed::now(), sign_as)?;
    if let (Resigned::NoSecret(p), Some(line)) = (&done, done.warning()) {
        if !warned.contains(p) {
            warned.push(*p);
            ctx.printer.streams.err_line(&line);
        }
    }
    Ok(done)
}

impl ChangeArgs {
    /// Is the replay sent by `tunnelctl` (something to change, or another upstream)?
    pub fn any(&self) -> bool {
        !self.headers.is_empty()
            || !self.remove.is_empty()
            || self.body.is_some()
            || !self.set.is_empty()
            || !self.add.is_empty()
            || self.edit
            || self.to.is_some()
            || self.resign
    }
}

/// `--body @FILE`, `--body @-` or `--body -`: the path to read (`-` for stdin).
fn parse_body_source(s: &str) -> std::result::Result<String, String> {
    match s {
        "-" | "@-" => Ok("-".into()),
        _ => match s.strip_prefix('@') {
            Some(path) if !path.is_empty() => Ok(path.to_string()),
            _ => Err(format!(
                "'{}' must be @FILE (the body is read from FILE) or - (from stdin)",
                escape(s)
            )),
        },
    }
}

/// How long an unchanged replay waits for the agent to capture the new exchange: the agent
/// answers at once and captures the replayed exchange when the upstream has answered.
const REPLAY_CAPTURE_WAIT: Duration = Duration::from_secs(5);
/// How many of the newest captures are read to tell the new one from those already there.
const RECENT: usize = 50;

/// Replays `id` unchanged through the agent, then shows the new exchange the agent captured
/// (marked `remote_addr: "replayed"`), once it has its answer, or says it has not come yet.
/// A capture only the history still has is sent by `tunnelctl` itself, as a changed replay
/// is (the agent cannot replay what it no longer holds).
pub async fn replay_unchanged(ctx: &Context, id: &str, tunnel: Option<&str>) -> CommandResult {
    let client = ctx.agent()?;
    // The agent says best whether it can replay `id`: a capture neither it nor the history
    // can show is its to refuse.
    let found = find_capture(ctx, &client, id).await.ok();
    let expired = match found {
        Some(f) if f.origin == Origin::History => {
            return replay_changed(ctx, id, tunnel, ChangeArgs::default(), Some(f.capture)).await;
        }
        Some(f) => expired_signature(ctx, &f.capture),
        None => None,
    };
    let recent = || async {
        let list = client.requests_raw(Some(RECENT), None).await?;
        Exchange::all_of(&list, true)
    };
    let known: HashSet<String> = recent().await?.into_iter().map(|c| c.id).collect();
    client.replay(id, tunnel).await?;
    if let Some(why) = expired {
        ctx.printer.streams.err_line(&format!(
            "warning: {why}: the handler will refuse the replay as expired; \
             'tunnelctl local requests replay {} --resign' sends it signed again",
            escape(id)
        ));
    }
    let until = Instant::now() + REPLAY_CAPTURE_WAIT;
    let until = crate::deadline::get().map_or(until, |d| d.min(until));
    let mut found = None;
    while Instant::now() < until {
        let new = recent()
            .await?
            .into_iter()
            .find(|c| c.remote_addr == "replayed" && !c.id.is_empty() && !known.contains(&c.id));
        if let Some(capture) = new {
            if capture.answered() {
                found = Some(capture);
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(view::replayed(&ctx.printer, id, found.as_ref())?)
}

/// Why the signature of `captured` will be refused as expired, if it will. A secret that
/// cannot be read leaves the replay as it was asked (it needs none).
fn expired_signature(ctx: &Context, captured: &Exchange) -> Option<String> {
    let secrets = ctx.settings.values().ok()?.webhook_secrets.clone();
    let check = signed::check(captured, &secrets, signed::now());
    let provider = check.provider?;
    (check.result == Verdict::Expired).then(|| {
        format!(
            "the {} signature has expired ({})",
            provider.title(),
            escape(&check.detail)
        )
    })
}

/// Replays `id` with `changes`, sent by `tunnelctl` to the upstream of `tunnel` (the tunnel
/// it was captured on when `None`) or to `--to`; `found`: the capture when already read.
pub async fn replay_changed(
    ctx: &Context,
    id: &str,
    tunnel: Option<&str>,
    changes: ChangeArgs,
    found: Option<Exchange>,
) -> CommandResult {
    // Everything local is checked before the agent is asked anything.
    let editor = if changes.edit {
        Some(editor(ctx)?)
    } else {
        None
    };
    let mods = Mods {
        headers: changes.headers,
        remove: changes.remove,
        body: match &changes.body {
            Some(path) => Some(
                read_input("--body", path, MAX_FILE)
                    .with_context(|| format!("reading the body file {}", shown_input(path)))?,
            ),
            None => None,
        },
        set: changes.set,
        add: changes.add,
    };
    let secrets = signing_secrets(ctx, changes.keep_signature)?;
    let client = ctx.agent()?;
    let captured = match found {
        Some(c) => c,
        None => find_capture(ctx, &client, id).await?.capture,
    };
    let mut msg = captured.request_to_send()?;
    apply(&mut msg, &mods)?;
    let upstream = match changes.to {
        Some(url) => url,
        None => upstream_for(&client, &captured, tunnel).await?,
    };
    if let Some(editor) = editor {
        msg = edit_to_send(&editor, &msg)
            .with_context(|| format!("editing the request with {}", escape(&editor)))?;
    } else if let Some(why) = msg.unsendable() {
        return Err(Error::usage(format!("{why}; nothing was sent")).into());
    }
    let done = sign_again(ctx, &mut msg, secrets.as_ref(), None, &mut Vec::new())?;
    if let (true, Resigned::NoSecret(p)) = (changes.resign, done) {
        return Err(no_secret(p).into());
    }
    let http = ctx.upstream(&upstream)?;
    let sent = send(&http, &msg, &upstream).await?;
    Ok(view::sent(&ctx.printer, &sent, id)?)
}

/// The editor to open: `$VISUAL`, `$EDITOR`, else `vi` when a person is at the terminal.
fn editor(ctx: &Context) -> Result<String> {
    match chosen_editor() {
        Some(e) => Ok(e),
        None if ctx.prompter.is_interactive() => Ok("vi".into()),
        None => Err(Error::usage(
            "--edit needs an editor: set VISUAL or EDITOR (e.g. EDITOR=nano)",
        )),
    }
}
