//! `tunnelctl local …`: the agent running on this machine and the full-screen inspector
//! (`crate::inspect`). Clap definitions and thin handlers: the captured exchange and what is
//! done with it live in `crate::capture`, the kept captures in `crate::history`, fixtures in
//! `crate::fixture`.
//!
//! - [`tunnels`]: `local tunnels` (list, get, start, stop).
//! - [`requests`]: `local requests`, a folder with one file per verb (`requests/list.rs`,
//!   `get.rs`, `replay.rs`, …) and the helpers they share.
//! - [`user_file`]: a file the user named (`requests save --out`, `requests export --har`;
//!   also the `--out` of `export` and `plan`, in `commands::as_code`).
//! - Here: `local inspect`'s clap definition and dispatch (the inspector is `crate::inspect`),
//!   and `find_capture`, a capture by ID from the agent else from the history.

pub mod requests;
pub mod tunnels;
pub mod user_file;

use clap::{Args, Subcommand};

use crate::context::Context;
use requests::RequestsArgs;
use tunnels::TunnelsArgs;

/// `local` and its groups.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl local tunnels start --name web --proto http --addr 8080
  tunnelctl local requests tail             # follow requests as they arrive
  tunnelctl local requests get airt_2Qm…    # the whole exchange, decoded
  tunnelctl local requests replay airt_2Qm… # after fixing your handler
  tunnelctl local requests export --har hooks.har

The agent's API is looked for at http://127.0.0.1:4040/api; point elsewhere with --agent-url
or TUNNELCTL_AGENT_URL.")]
pub struct LocalArgs {
    #[command(subcommand)]
    command: LocalCommand,
}

#[derive(Debug, Subcommand)]
enum LocalCommand {
    /// Tunnels running in the local agent
    #[command(after_help = "Examples:
  tunnelctl local tunnels list
  tunnelctl local tunnels start --name web --proto http --addr 8080 \\
      --basic-auth user:secretpw
  tunnelctl local tunnels stop 'web (http)'")]
    Tunnels(TunnelsArgs),
    /// HTTP requests captured by the local agent
    #[command(after_help = "Examples:
  tunnelctl local requests list --tunnel 'web (http)' --limit 20")]
    Requests(RequestsArgs),
    /// Full-screen inspector of captured traffic: a live list, decoded bodies, filters, replay
    #[command(after_help = "Examples:
  tunnelctl local inspect
  tunnelctl local inspect --filter 'method:POST status:5xx path:/hooks/*'
  tunnelctl local inspect --record      # and keep what comes in the history
  tunnelctl local inspect --history     # browse the kept captures
  tunnelctl local inspect --history --source ci-runner-7

Keys: arrows or j/k, PgUp/PgDn, g/G (g: up to ↑ new), Enter (list/detail), Tab
(request/response), / filter, r replay, c copy as curl, s save the request, x clear all,
p pause, ? help; Esc goes back from the detail, then clears a filter, then quits; q quits
(Ctrl-C too, with exit 130).
A row marked ! has a webhook signature the handler will refuse (invalid or expired; the
detail says which); the filter word sig:invalid (valid, expired, unsigned, no-secret) finds
them.
With -v the trace goes to a file, named on stderr, while the inspector has the screen.
Needs a terminal; in scripts use `local requests tail` or `local requests list`.")]
    Inspect {
        /// Start with this filter in the / bar (e.g. 'method:POST status:5xx tunnel:hook*')
        #[arg(long, value_name = "QUERY")]
        filter: Option<String>,
        /// Keep captures within this much memory (e.g. 64MiB, 512KB, bytes); older ones are
        /// dropped beyond it
        #[arg(
            long,
            value_name = "SIZE",
            default_value = "64MiB",
            value_parser = crate::parse::parse_size,
            allow_hyphen_values = true
        )]
        max_memory: u64,
        /// Browse the captures kept in the history (see 'local requests record') instead
        /// of the agent's, and those kept while it runs
        #[arg(long, conflicts_with = "record")]
        history: bool,
        /// Also keep every capture it shows in the history
        #[arg(long)]
        record: bool,
        /// With --history: only this source's captures; with --record: the source to keep
        /// them as [default: history_source, else host name and agent URL]
        #[arg(long, value_name = "NAME", value_parser = crate::parse::parse_source_name)]
        source: Option<String>,
    },
}

impl crate::commands::Group for LocalArgs {
    const REACHES: crate::commands::Reaches = crate::commands::Reaches::Agent;
    const CONFIRMING: &'static [&'static str] =
        &["requests clear", "requests record", "tunnels stop"];
    const CALLS_NOTHING: &'static [&'static str] = &["requests test"];

    async fn run(self, ctx: &crate::context::Context) -> crate::error::CommandResult {
        run(self, ctx).await
    }
}

/// Runs a `local` command.
pub async fn run(args: LocalArgs, ctx: &Context) -> crate::error::CommandResult {
    match args.command {
        LocalCommand::Tunnels(t) => tunnels::run(t, ctx).await,
        LocalCommand::Requests(r) => requests::run(r, ctx).await,
        LocalCommand::Inspect {
            filter,
            max_memory,
            history,
            record,
            source,
        } => {
            use crate::inspect::run::CaptureSource;
            if source.is_some() && !history && !record {
                return Err(crate::error::Error::usage(
                    "--source picks the kept captures of one source (with --history) or names \
                     what --record keeps: give one of them",
                )
                .into());
            }
            let kept = if history {
                let location = requests::history_file::history_location(ctx)?;
                let store = location.open_existing().await?.ok_or_else(|| {
                    crate::error::Error::Config(format!(
                        "no history at {} yet: keep captures with 'tunnelctl local requests record'",
                        location.shown()
                    ))
                })?;
                CaptureSource::History(store, source)
            } else if record {
                let recorder = requests::record::recorder(ctx, None, None, source.as_deref());
                CaptureSource::Recording(Box::new(recorder.await?))
            } else {
                CaptureSource::Agent
            };
            let values = ctx.settings.values()?;
            let upstream = |url: &url::Url| ctx.upstream(url);
            let setup = crate::inspect::run::Launch {
                client: ctx.agent()?,
                agent_url: values.agent_url.value.clone(),
                secrets: values.webhook_secrets.clone(),
                printer: &ctx.printer,
                verbose: ctx.settings.flags.verbose,
                upstream: &upstream,
            };
            let filter = filter.as_deref();
            Ok(crate::inspect::run::run(setup, filter, max_memory, kept).await?)
        }
    }
}

/// The capture `id`, from the agent, else from the history file of this run's settings
/// ([`crate::history::lookup`]).
pub(crate) async fn find_capture(
    ctx: &Context,
    client: &crate::agent::AgentClient,
    id: &str,
) -> crate::error::Result<crate::history::lookup::FoundCapture> {
    let history = &requests::history_file::history_location(ctx)?;
    crate::history::lookup::capture(client, history, &ctx.printer, id).await
}

/// [`find_capture`] without its note, for a command that reads many and says once which came
/// from the history ([`note_read_from_history`]).
pub(crate) async fn find_capture_unsaid(
    ctx: &Context,
    client: &crate::agent::AgentClient,
    id: &str,
) -> crate::error::Result<crate::history::lookup::FoundCapture> {
    let history = &requests::history_file::history_location(ctx)?;
    crate::history::lookup::capture_unsaid(client, history, id).await
}

/// Says once which of the captures read by [`find_capture_unsaid`] came from the history.
pub(crate) fn note_read_from_history(ctx: &Context, ids: &[&str]) -> crate::error::Result<()> {
    let history = &requests::history_file::history_location(ctx)?;
    crate::history::lookup::note_read_from_history(&ctx.printer, history, ids);
    Ok(())
}
