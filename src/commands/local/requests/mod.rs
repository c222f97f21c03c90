//! `tunnelctl local requests …`: the HTTP requests the local agent captured. This file holds
//! the clap tree of the group and its dispatch; each verb is in the file named for it:
//! [`list`], [`get`], [`verify`], [`replay`], [`save`], [`test`](mod@test), [`diff`], [`send`],
//! [`clear`], [`tail`], [`record`], [`export`], [`copy`]. What several verbs share: [`filter_flags`]
//! (the flags that select captures), [`listing`] (how a list prints, the agent's or the
//! history's) and [`history_file`] (the history file of this run). Each capture is read once
//! into [`crate::capture::Exchange`] and shown by [`crate::capture::view`].

pub mod clear;
pub mod copy;
pub mod diff;
pub mod export;
pub mod filter_flags;
pub mod get;
pub mod history_file;
pub mod list;
pub mod listing;
pub mod record;
pub mod replay;
pub mod save;
pub mod send;
pub mod tail;
pub mod test;
pub mod verify;

use std::time::Duration;

use clap::{Args, Subcommand};

use crate::context::Context;
use filter_flags::{Chosen, TunnelFlag};
use history_file::SourceFlag;

#[derive(Debug, Args)]
pub struct RequestsArgs {
    #[command(subcommand)]
    command: RequestsCommand,
}

#[derive(Debug, Subcommand)]
enum RequestsCommand {
    /// List captured requests, newest first
    #[command(after_help = "Examples:
  tunnelctl local requests list
  tunnelctl local requests list --tunnel 'web (http)' --limit 10 --json
  tunnelctl local requests list --method POST --status 5xx --since 10m
  tunnelctl local requests list --path '/hooks/*' --grep invoice.paid
  tunnelctl local requests list --status 4xx,5xx --jq '.[].id'
  tunnelctl local requests list --signature invalid
  tunnelctl local requests list --history --grep invoice.paid
  tunnelctl local requests list --history --source checkout-service

Every filter given must match. --limit counts the requests that match; with a filter every
captured request is read from the agent and filtered here. --history lists the captures kept
by 'record' instead (its --grep finds text that starts a word; --source picks one agent's,
and a SOURCE column shows when several are kept).")]
    List {
        /// List the captures kept in the history
        ///
        /// The ones 'record' kept, instead of the agent's.
        #[arg(long)]
        history: bool,
        #[command(flatten)]
        chosen: Chosen,
    },
    /// Show one captured exchange, decoded
    ///
    /// The request line, headers, body, then the response.
    #[command(after_help = "Examples:
  tunnelctl local requests get airt_2Qm…
  tunnelctl local requests get airt_2Qm… --raw > request.http
  tunnelctl local requests get airt_2Qm… --raw --response > response.http
  tunnelctl local requests get airt_2Qm… --body-only | jq .
  tunnelctl local requests get airt_2Qm… --body-only --response | less
  tunnelctl local requests get airt_2Qm… --curl

On a terminal each body is cut after about a screenful (JSON pretty-printed); --body-only
and --raw show all of it, and so does a pipe.")]
    #[command(group = clap::ArgGroup::new("bytes").args(["raw", "body_only"]))]
    Get {
        /// Captured request ID (airt_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::captured_ids))]
        id: String,
        /// Write the raw request bytes to stdout, unchanged
        #[arg(long, conflicts_with = "curl")]
        raw: bool,
        /// Write only the request's body to stdout, whole, its Content-Encoding (gzip,
        /// deflate) undone
        #[arg(long, conflicts_with = "curl")]
        body_only: bool,
        /// With --raw or --body-only: the response instead of the request
        #[arg(long, requires = "bytes")]
        response: bool,
        /// With --raw or --body-only: write the bytes to a terminal even when they hold
        /// control characters or binary data (by default they go only to a file or a pipe)
        #[arg(long, requires = "bytes")]
        force: bool,
        /// Print the request as an equivalent curl command line (for bash or zsh: control
        /// characters are written as $'…' escapes)
        #[arg(long)]
        curl: bool,
    },
    /// Check the webhook signatures of captured requests
    ///
    /// They are checked against the secrets set (TUNNELCTL_WEBHOOK_SECRET_GITHUB, _STRIPE,
    /// _SLACK, _SHOPIFY, _STANDARD).
    #[command(after_help = "Examples:
  tunnelctl local requests verify
  tunnelctl local requests verify airt_2Qm…
  tunnelctl local requests verify --jq '.[] | select(.result != \"valid\")'

Results: valid; invalid (does not match the secret); expired (matches, but older than the
provider accepts: the handler would refuse it now); no-secret (signed, no secret set: the
detail names the variable); unsigned (no signature header of a provider tunnelctl knows:
GitHub, Stripe, Slack, Shopify, Standard Webhooks/Svix). Exit 8 when a request is invalid or
expired.")]
    Verify {
        /// Captured request IDs (airt_…); none: every captured request
        #[arg(value_name = "ID", add = clap_complete::ArgValueCandidates::new(crate::complete::captured_ids))]
        ids: Vec<String>,
    },
    /// Send a captured request to the local server again
    ///
    /// As it was, through the agent (captured again as "replayed"); or changed, or to another
    /// server, sent by tunnelctl itself to the tunnel's upstream (not captured), showing the
    /// answer as 'get' does.
    #[command(after_help = "Examples:
  tunnelctl local requests replay airt_2Qm…
  tunnelctl local requests replay airt_2Qm… --tunnel 'staging (http)'
  tunnelctl local requests replay airt_2Qm… --header 'X-Signature: test' \\
      --remove-header Cookie
  tunnelctl local requests replay airt_2Qm… --body @event.json
  tunnelctl local requests replay airt_2Qm… --set data.amount=2500 \\
      --set data.currency=eur
  tunnelctl local requests replay airt_2Qm… --add data.note=late
  tunnelctl local requests replay airt_2Qm… --edit
  tunnelctl local requests replay airt_2Qm… --to http://localhost:3000
  tunnelctl local requests replay airt_2Qm… --resign
  tunnelctl local requests replay airt_2Qm… --set data.amount=1 \\
      --keep-signature

Changes are made in this order: --body, --set and --add, --remove-header, --header, then
--edit. --set changes a field the JSON body has: a path it does not have (a typo) is
refused, naming the fields there, and nothing is sent; --add adds one on purpose.
Content-Length always follows the body. A changed webhook is signed again, with a fresh
timestamp, when a secret is set for its provider (TUNNELCTL_WEBHOOK_SECRET_GITHUB, _STRIPE,
_SLACK, _SHOPIFY, _STANDARD), under the header names it came with; without one it goes as
changed, with a warning. An unchanged replay whose signature expired still goes through the
agent; --resign sends it signed again, as a changed replay is sent.")]
    Replay {
        /// Captured request ID (airt_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::captured_ids))]
        id: String,
        /// Replay on another tunnel
        ///
        /// Instead of the one it was captured on; with changes, the request is sent to this
        /// tunnel's upstream.
        #[arg(long, value_name = "NAME", conflicts_with = "to", add = clap_complete::ArgValueCandidates::new(crate::complete::tunnel_names))]
        tunnel: Option<String>,
        #[command(flatten)]
        changes: Box<replay::ChangeArgs>,
    },
    /// Write a captured request to a file as an HTTP message
    ///
    /// What 'get --raw' shows, a chunked body written out whole, to send again later with
    /// 'send'; with --into, as fixtures for 'test'.
    #[command(after_help = "Examples:
  tunnelctl local requests save airt_2Qm… --out paid.http
  tunnelctl local requests save airt_2Qm… --out paid.http --force  # overwrite
  tunnelctl local requests save airt_2Qm… --out - | head -20
  tunnelctl local requests save airt_2Qm… --into hooks/")]
    Save(save::SaveArgs),
    Test(test::TestArgs),
    Diff(diff::DiffArgs),
    /// Send saved requests (or the entries of HAR logs) to a server
    ///
    /// One after the other, printing each answer's status (one request: the whole answer, as
    /// 'get' shows it).
    #[command(after_help = "Examples:
  tunnelctl local requests send paid.http --to http://localhost:8080
  tunnelctl local requests send paid.http refund.http --tunnel 'web (http)'
  tunnelctl local requests send --har hooks.har --to http://localhost:8080/v2
  tunnelctl local requests send paid.http --to http://localhost:8080 --json \\
      | jq .response.status_code
  tunnelctl local requests send paid.http --to http://localhost:8080 \\
      --sign github

A signed webhook is signed again, with a fresh timestamp, when a secret is set for its
provider (--keep-signature sends it as it was); --sign PROVIDER signs a request that carries
no signature, such as a fixture written by hand.

Any answer, whatever its status, counts as sent. Exit 2: a file is not a request (nothing
is sent); 3: --sign with no secret set for the provider (nothing is sent); 6: the server could not be reached; 1: its answer was not HTTP, or the connection
failed after sending; 5: several files, some sent and some not.")]
    Send(send::SendArgs),
    /// Delete every captured request (or, with --history, the kept ones)
    #[command(after_help = "Examples:
  tunnelctl local requests clear --yes
  tunnelctl local requests clear --history --before 7d --yes
  tunnelctl local requests clear --history --source old-laptop --yes")]
    Clear {
        /// Delete captures kept in the history instead of the agent's
        #[arg(long)]
        history: bool,
        /// With --history: only those captured longer ago than DURATION (90m, 7d)
        #[arg(long, value_name = "DURATION", requires = "history", value_parser = crate::parse::parse_lookback, allow_hyphen_values = true)]
        before: Option<Duration>,
        #[command(flatten)]
        source: SourceFlag,
    },
    /// Follow new captured requests as they arrive, until Ctrl-C
    #[command(after_help = "Examples:
  tunnelctl local requests tail
  tunnelctl local requests tail --tunnel 'web (http)' -o ndjson \\
      | jq .request.uri
  tunnelctl local requests tail --record
  tunnelctl local requests tail --history          # what any recorder keeps
  tunnelctl local requests tail --history --source ci-runner-7

--history follows the history instead of the agent: with history_url set, the team store,
where every recorder of the team keeps what its agent captured.")]
    Tail {
        #[command(flatten)]
        filter: TunnelFlag,
        /// Also keep what it sees in the history (see 'record')
        #[arg(long, conflicts_with = "history")]
        record: bool,
        /// Follow what is kept in the history (by any recorder) instead of the agent
        #[arg(long)]
        history: bool,
        /// With --history: only this source's captures; with --record: the source to keep
        /// them as [default: history_source, else host name and agent URL]
        #[arg(long, value_name = "NAME", value_parser = crate::parse::parse_source_name)]
        source: Option<String>,
    },
    /// Keep every capture the agent shows in the history, until Ctrl-C
    ///
    /// The history is a SQLite file, or the team's PostgreSQL store (history_url).
    #[command(after_help = "Examples:
  tunnelctl local requests record                  # until Ctrl-C
  tunnelctl local requests record --once --tunnel 'web (http)' --max-age 7d
  tunnelctl local requests record --once --source checkout-service
  tunnelctl local requests list --history --grep invoice.paid

The history outlives the agent's restarts: get, replay, save and verify read a capture
from it when the agent no longer has it. The file is history_file (--history-file,
TUNNELCTL_HISTORY_FILE), created 0600; see docs/history.md. With history_url
(--history-url, TUNNELCTL_HISTORY_URL) set, captures go to the team's PostgreSQL store,
each with its source, and a restart of its server loses nothing; see
docs/team-history.md.")]
    Record(record::RecordArgs),
    /// Write captured exchanges to a HAR 1.2 file
    ///
    /// It opens in browsers' developer tools.
    #[command(after_help = "Examples:
  tunnelctl local requests export --har hooks.har
  tunnelctl local requests export --har - --tunnel 'web (http)' \\
      --limit 50 > hooks.har
  tunnelctl local requests export --har kept.har --history --since 2h")]
    Export(Box<export::ExportArgs>),
    /// Copy kept captures from one history to another
    ///
    /// A store is a SQLite file or a postgres:// URL: a laptop's file into the team store, or
    /// the team store's last day into a file. Copied twice, kept once.
    #[command(after_help = "Examples:
  tunnelctl local requests copy --from history.sqlite3 \\
      --to postgres://recorder@db.example.com/captures
  tunnelctl local requests copy --from postgres://reader@db.example.com/caps \\
      --to flight.sqlite3 --since 1d --source ci-runner-7
  tunnelctl local requests copy --from old.sqlite3 --to new.sqlite3 --json

Every capture keeps its source (one kept by an older tunnelctl, with none, goes as this
host's). The filters are those of 'list'. A capture the destination holds already is left,
or updated when it was pending there and is answered here; it says how many were new.")]
    Copy(Box<copy::CopyArgs>),
}

/// Runs a `local requests` command.
pub async fn run(args: RequestsArgs, ctx: &Context) -> crate::error::CommandResult {
    Ok(match args.command {
        RequestsCommand::List { history, chosen } => list::run(ctx, history, chosen).await,
        RequestsCommand::Verify { ids } => verify::verify(ctx, &ids).await,
        RequestsCommand::Get {
            id,
            raw,
            body_only,
            response,
            force,
            curl,
        } => get::run(ctx, &id, raw, body_only, response, force, curl).await,
        RequestsCommand::Replay {
            id,
            tunnel,
            changes,
        } if changes.any() => {
            return replay::replay_changed(ctx, &id, tunnel.as_deref(), *changes, None).await;
        }
        RequestsCommand::Replay { id, tunnel, .. } => {
            return replay::replay_unchanged(ctx, &id, tunnel.as_deref()).await;
        }
        RequestsCommand::Save(args) => save::run(ctx, args).await,
        RequestsCommand::Test(args) => test::run(ctx, args).await,
        RequestsCommand::Diff(args) => diff::run(ctx, args).await,
        RequestsCommand::Send(args) => return send::send_files(ctx, args).await,
        RequestsCommand::Clear {
            history,
            before,
            source,
        } => clear::run(ctx, history, before, source.source.as_deref()).await,
        RequestsCommand::Tail {
            filter,
            history: true,
            source,
            ..
        } => tail::tail_history(ctx, filter.tunnel.as_deref(), source.as_deref()).await,
        RequestsCommand::Tail {
            filter,
            record,
            source,
            ..
        } => tail::tail(ctx, filter.tunnel.as_deref(), record, source.as_deref()).await,
        RequestsCommand::Export(args) => return export::export(ctx, *args).await,
        RequestsCommand::Record(args) => record::record(ctx, args).await,
        RequestsCommand::Copy(args) => copy::run(ctx, *args).await,
    }?)
}
