//! `tunnelctl local …`: the agent running on this machine — its tunnels and the HTTP requests
//! it captured (list, read closely, replay, follow, export).

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Map, Value};

use super::{non_empty, parse_limit, value_or_file};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::output::capture::{exchange, har, View};
use crate::output::columns::{CAPTURED_REQUEST, TUNNEL};

/// `local` and its groups.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl local tunnels start --name web --proto http --addr 8080
  tunnelctl local requests tail                 # follow requests as they arrive
  tunnelctl local requests get airt_2Qm…        # the whole exchange, decoded
  tunnelctl local requests replay airt_2Qm…     # after fixing your handler
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
  tunnelctl local tunnels start --name web --proto http --addr 8080 --basic-auth user:secretpw
  tunnelctl local tunnels stop 'web (http)'")]
    Tunnels(TunnelsArgs),
    /// HTTP requests captured by the local agent
    #[command(after_help = "Examples:
  tunnelctl local requests list --tunnel 'web (http)' --limit 20
  tunnelctl local requests get airt_2Qm… --curl
  tunnelctl local requests clear --yes")]
    Requests(RequestsArgs),
    /// Full-screen inspector of captured traffic: a live list, decoded bodies, filters, replay
    #[command(after_help = "Examples:
  tunnelctl local inspect
  tunnelctl local inspect --filter 'method:POST status:5xx path:/hooks/*'

Keys: arrows or j/k, PgUp/PgDn, g/G, Enter (list/detail), Tab (request/response), / filter,
r replay, c copy as curl, s save the request, x clear all, p pause, ? help, q quit.
Needs a terminal; in scripts use `local requests tail` or `local requests list`.")]
    Inspect {
        /// Start with this filter in the / bar (e.g. 'method:POST status:5xx tunnel:hook*')
        #[arg(long, value_name = "QUERY")]
        filter: Option<String>,
    },
}

#[derive(Debug, Args)]
struct TunnelsArgs {
    #[command(subcommand)]
    command: TunnelsCommand,
}

/// Tunnel protocols the agent starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Proto {
    /// HTTP(S): starts an https tunnel NAME and an http tunnel 'NAME (http)'
    Http,
    /// Raw TCP
    Tcp,
    /// TLS passed through
    Tls,
}

/// URL schemes an http tunnel listens on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Scheme {
    Http,
    Https,
}

#[derive(Debug, Subcommand)]
enum TunnelsCommand {
    /// List running tunnels, sorted by name
    #[command(after_help = "Example:\n  tunnelctl local tunnels list --json")]
    List,
    /// Show one tunnel and its metrics
    #[command(after_help = "Example:\n  tunnelctl local tunnels get 'web (http)'")]
    Get {
        /// Tunnel name (quote names with spaces)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::tunnel_names))]
        name: String,
    },
    /// Start a tunnel (--proto http starts two: an https tunnel NAME and its twin 'NAME (http)')
    #[command(after_help = "Examples:
  tunnelctl local tunnels start --name web --proto http --addr 8080
  tunnelctl local tunnels start --name db --proto tcp --addr 5432 --remote-addr 1.tcp.example.com:20000
  tunnelctl local tunnels start --name web --proto http --addr 8080 --config-json '{\"bind_tls\": true}'

With --proto http (and no --schemes), the agent starts two tunnels: NAME on https and its
twin 'NAME (http)' on http; both URLs are listed on stderr. --json prints the tunnel NAME
as the agent returned it.")]
    Start(Box<StartArgs>),
    /// Stop a tunnel (and, when asked, the 'NAME (http)' twin of an http tunnel)
    #[command(after_help = "Examples:
  tunnelctl local tunnels stop web                # on a terminal, asks whether to stop 'web (http)' too
  tunnelctl local tunnels stop web --yes          # stops 'web' and 'web (http)'
  tunnelctl local tunnels stop 'web (http)'       # only the http twin

Stopping NAME leaves its twin 'NAME (http)' running unless you agree to stop it too (or pass
--yes); without a terminal and without --yes only NAME is stopped, and a note says the twin
is still running.")]
    Stop {
        /// Tunnel name (quote names with spaces)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::tunnel_names))]
        name: String,
    },
}

#[derive(Debug, Args)]
struct StartArgs {
    /// Tunnel name
    #[arg(long, value_parser = non_empty)]
    name: String,
    /// Protocol
    #[arg(long, value_enum)]
    proto: Proto,
    /// Local address to forward to: a port (8080), host:port, or a URL
    #[arg(long, value_parser = non_empty)]
    addr: String,
    /// Capture requests for inspection (the agent's default)
    #[arg(long, overrides_with = "no_inspect")]
    inspect: bool,
    /// Do not capture requests
    #[arg(long)]
    no_inspect: bool,
    /// Rewrite the Host header sent upstream (http only)
    #[arg(long, value_name = "HOST")]
    host_header: Option<String>,
    /// Require HTTP basic auth from visitors, USER:PASS (http only)
    #[arg(long, value_name = "USER:PASS", value_parser = parse_basic_auth)]
    basic_auth: Option<String>,
    /// Subdomain to ask for (http, tls)
    #[arg(long, value_name = "NAME")]
    subdomain: Option<String>,
    /// Full domain to ask for (http, tls)
    #[arg(long, value_name = "DOMAIN")]
    domain: Option<String>,
    /// Schemes to listen on (http only), e.g. https or http,https
    #[arg(long, value_enum, value_delimiter = ',', value_name = "SCHEMES")]
    schemes: Vec<Scheme>,
    /// Remote address to bind (tcp only)
    #[arg(long, value_name = "HOST:PORT")]
    remote_addr: Option<String>,
    /// Metadata of your choice, visible in the management API
    #[arg(long, value_name = "TEXT")]
    metadata: Option<String>,
    /// More configuration fields as a JSON object (or @FILE), as in the agent's config file
    #[arg(long, value_name = "JSON|@FILE")]
    config_json: Option<String>,
}

fn parse_basic_auth(s: &str) -> std::result::Result<String, String> {
    match s.split_once(':') {
        Some((u, p)) if !u.is_empty() && !p.is_empty() => Ok(s.to_string()),
        _ => Err("expected USER:PASS with both parts".into()),
    }
}

impl StartArgs {
    /// The tunnel definition sent to the agent, as in its configuration file.
    fn into_config(self) -> Result<Value> {
        let proto = self.proto;
        let only = |flag: &str, given: bool, allowed: &[Proto]| -> Result<()> {
            if given && !allowed.contains(&proto) {
                let names: Vec<&str> = allowed
                    .iter()
                    .map(|p| match p {
                        Proto::Http => "http",
                        Proto::Tcp => "tcp",
                        Proto::Tls => "tls",
                    })
                    .collect();
                return Err(Error::usage(format!(
                    "{flag} goes with --proto {}",
                    names.join(" or ")
                )));
            }
            Ok(())
        };
        only("--host-header", self.host_header.is_some(), &[Proto::Http])?;
        only("--basic-auth", self.basic_auth.is_some(), &[Proto::Http])?;
        only("--schemes", !self.schemes.is_empty(), &[Proto::Http])?;
        only("--inspect", self.inspect || self.no_inspect, &[Proto::Http])?;
        only(
            "--subdomain",
            self.subdomain.is_some(),
            &[Proto::Http, Proto::Tls],
        )?;
        only(
            "--domain",
            self.domain.is_some(),
            &[Proto::Http, Proto::Tls],
        )?;
        only("--remote-addr", self.remote_addr.is_some(), &[Proto::Tcp])?;
        if self.subdomain.is_some() && self.domain.is_some() {
            return Err(Error::usage(
                "--subdomain and --domain cannot both be given",
            ));
        }
        let mut config = match &self.config_json {
            Some(raw) => match serde_json::from_str::<Value>(&value_or_file("--config-json", raw)?)
            {
                Ok(Value::Object(m)) => m,
                Ok(_) => return Err(Error::usage("--config-json: must be a JSON object")),
                Err(e) => return Err(Error::usage(format!("--config-json: not valid JSON: {e}"))),
            },
            None => Map::new(),
        };
        let mut set = |k: &str, v: Value| {
            config.insert(k.to_string(), v);
        };
        set("name", Value::String(self.name));
        set(
            "proto",
            Value::String(
                match proto {
                    Proto::Http => "http",
                    Proto::Tcp => "tcp",
                    Proto::Tls => "tls",
                }
                .into(),
            ),
        );
        set("addr", Value::String(self.addr));
        if self.inspect || self.no_inspect {
            set("inspect", Value::Bool(self.inspect && !self.no_inspect));
        }
        // The field names of the agent's configuration file (auth, hostname, bind_tls).
        let strings = [
            ("host_header", self.host_header),
            ("auth", self.basic_auth),
            ("subdomain", self.subdomain),
            ("hostname", self.domain),
            ("remote_addr", self.remote_addr),
            ("metadata", self.metadata),
        ];
        for (k, v) in strings {
            if let Some(v) = v {
                set(k, Value::String(v));
            }
        }
        if !self.schemes.is_empty() {
            let http = self.schemes.contains(&Scheme::Http);
            let https = self.schemes.contains(&Scheme::Https);
            let bind_tls = match (http, https) {
                (true, true) => Value::String("both".into()),
                (false, true) => Value::Bool(true),
                _ => Value::Bool(false),
            };
            set("bind_tls", bind_tls);
        }
        Ok(Value::Object(config))
    }
}

#[derive(Debug, Args)]
struct RequestsArgs {
    #[command(subcommand)]
    command: RequestsCommand,
}

#[derive(Debug, Args)]
struct Filter {
    /// Only requests captured on this tunnel
    #[arg(long, value_name = "NAME", add = clap_complete::ArgValueCandidates::new(crate::complete::tunnel_names))]
    tunnel: Option<String>,
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

Every filter given must match. --limit counts the requests that match; with a filter every
captured request is read from the agent and filtered here.")]
    List {
        /// At most N requests (1 or more)
        #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
        limit: Option<usize>,
        #[command(flatten)]
        filter: Filter,
        #[command(flatten)]
        only: super::request_filters::RequestFilters,
    },
    /// Show one captured exchange, decoded: request line, headers, body, then the response
    #[command(after_help = "Examples:
  tunnelctl local requests get airt_2Qm…
  tunnelctl local requests get airt_2Qm… --raw > request.http
  tunnelctl local requests get airt_2Qm… --raw --response > response.http
  tunnelctl local requests get airt_2Qm… --curl")]
    Get {
        /// Captured request ID (airt_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::captured_ids))]
        id: String,
        /// Write the raw request bytes to stdout, unchanged
        #[arg(long, conflicts_with = "curl")]
        raw: bool,
        /// With --raw: the raw response bytes instead
        #[arg(long, requires = "raw")]
        response: bool,
        /// With --raw: write the bytes to a terminal even when they hold control characters or
        /// binary data (by default they are written only to a file or a pipe)
        #[arg(long, requires = "raw")]
        force: bool,
        /// Print the request as an equivalent curl command line (for bash or zsh: control
        /// characters are written as $'…' escapes)
        #[arg(long)]
        curl: bool,
    },
    /// Send a captured request to the local server again: as it was, through the agent
    /// (captured again as "replayed"); or changed, or to another server, sent by tunnelctl
    /// itself to the tunnel's upstream (not captured), showing the answer as 'get' does
    #[command(after_help = "Examples:
  tunnelctl local requests replay airt_2Qm…
  tunnelctl local requests replay airt_2Qm… --tunnel 'staging (http)'
  tunnelctl local requests replay airt_2Qm… --header 'X-Signature: test' --remove-header Cookie
  tunnelctl local requests replay airt_2Qm… --body @event.json
  tunnelctl local requests replay airt_2Qm… --set data.amount=2500 --set data.currency=eur
  tunnelctl local requests replay airt_2Qm… --edit
  tunnelctl local requests replay airt_2Qm… --to http://localhost:3000

Changes are made in this order: --body, --set, --remove-header, --header, then --edit.
Content-Length always follows the body.")]
    Replay {
        /// Captured request ID (airt_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::captured_ids))]
        id: String,
        /// Replay on this tunnel instead of the one it was captured on (with changes: send
        /// to this tunnel's upstream)
        #[arg(long, value_name = "NAME", conflicts_with = "to", add = clap_complete::ArgValueCandidates::new(crate::complete::tunnel_names))]
        tunnel: Option<String>,
        #[command(flatten)]
        changes: Box<super::resend::ChangeArgs>,
    },
    /// Write a captured request to a file as an HTTP message (what 'get --raw' shows, a
    /// chunked body written out whole), to send again later with 'send'
    #[command(after_help = "Examples:
  tunnelctl local requests save airt_2Qm… --out paid.http
  tunnelctl local requests save airt_2Qm… --out paid.http --force    # overwrite
  tunnelctl local requests save airt_2Qm… --out - | head -20")]
    Save(super::resend::SaveArgs),
    /// Send saved requests (or the entries of HAR logs) to a server, one after the other,
    /// printing each answer's status (one request: the whole answer, as 'get' shows it)
    #[command(after_help = "Examples:
  tunnelctl local requests send paid.http --to http://localhost:8080
  tunnelctl local requests send paid.http refund.http --tunnel 'web (http)'
  tunnelctl local requests send --har hooks.har --to http://localhost:8080/v2
  tunnelctl local requests send paid.http --to http://localhost:8080 --json | jq .response.status_code

Any answer, whatever its status, counts as sent. Exit 2: a file is not a request (nothing
is sent); 6: the server could not be reached; 1: its answer was not HTTP, or the connection
failed after sending; 5: several files, some sent and some not.")]
    Send(super::resend::SendArgs),
    /// Delete every captured request
    #[command(after_help = "Example:\n  tunnelctl local requests clear --yes")]
    Clear,
    /// Follow new captured requests as they arrive, until Ctrl-C
    #[command(after_help = "Examples:
  tunnelctl local requests tail
  tunnelctl local requests tail --tunnel 'web (http)' -o ndjson | jq .request.uri")]
    Tail {
        #[command(flatten)]
        filter: Filter,
    },
    /// Write captured exchanges to a HAR 1.2 file (opens in browsers' developer tools)
    #[command(after_help = "Examples:
  tunnelctl local requests export --har hooks.har
  tunnelctl local requests export --har - --tunnel 'web (http)' --limit 50 > hooks.har")]
    Export {
        /// The file to write ('-' for stdout)
        #[arg(long, value_name = "FILE")]
        har: std::path::PathBuf,
        /// At most N requests, the newest (1 or more)
        #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
        limit: Option<usize>,
        #[command(flatten)]
        filter: Filter,
    },
}

/// Runs a `local` command.
pub async fn run(args: LocalArgs, ctx: &Context) -> Result<()> {
    match args.command {
        LocalCommand::Tunnels(t) => tunnels(t, ctx).await,
        LocalCommand::Requests(r) => requests(r, ctx).await,
        LocalCommand::Inspect { filter } => crate::inspect::run::run(ctx, filter.as_deref()).await,
    }
}

async fn tunnels(args: TunnelsArgs, ctx: &Context) -> Result<()> {
    match args.command {
        TunnelsCommand::List => {
            let client = ctx.agent()?;
            let all = client.tunnels().await?;
            print_all(ctx, &TUNNEL, all)
        }
        TunnelsCommand::Get { name } => {
            let client = ctx.agent()?;
            ctx.printer.object(&TUNNEL, &client.tunnel(&name).await?)
        }
        TunnelsCommand::Start(start) => {
            let config = (*start).into_config()?;
            let client = ctx.agent()?;
            let tunnel = client.start(&config).await?;
            let mut started = vec![tunnel];
            if makes_twin(&config) {
                // The agent's answer names one tunnel; its twin is read to show its URL. A
                // twin that cannot be read leaves the report at the one tunnel.
                let twin = twin_of(config.get("name").and_then(Value::as_str).unwrap_or(""));
                if let Ok(t) = client.tunnel(&twin).await {
                    started.push(t);
                }
            }
            ctx.printer.tunnels_started(&started)
        }
        TunnelsCommand::Stop { name } => stop_tunnel(ctx, &name).await,
    }
}

/// Does this definition make the agent start an https tunnel and its http twin? `proto: http`
/// does, unless `bind_tls` picks one scheme (`true`, `false`).
fn makes_twin(config: &Value) -> bool {
    config.get("proto").and_then(Value::as_str) == Some("http")
        && match config.get("bind_tls") {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => s == "both",
            Some(_) => false,
        }
}

/// The name of the http twin of the https tunnel `name`.
fn twin_of(name: &str) -> String {
    format!("{name} (http)")
}

/// Stops `name`, and its http twin when the person agrees (or `--yes`); off a terminal
/// without `--yes`, the twin stays and a note says so.
async fn stop_tunnel(ctx: &Context, name: &str) -> Result<()> {
    let client = ctx.agent()?;
    let twin = twin_of(name);
    // A name that is itself a twin has none; any failure to read the twin means none is shown.
    let has_twin = !name.ends_with(" (http)") && client.tunnel(&twin).await.is_ok();
    let stop_twin = has_twin && {
        if ctx.settings.flags.yes {
            true
        } else if ctx.prompter.is_interactive() {
            match ctx.confirm(&format!(
                "Also stop '{}', the http twin the agent started with '{}'?",
                escape(&twin),
                escape(name)
            )) {
                Ok(()) => true,
                Err(Error::Usage(_)) => false,
                Err(e) => return Err(e),
            }
        } else {
            false
        }
    };
    client.stop(name).await?;
    ctx.note(&format!("Stopped tunnel {}", escape(name)));
    if stop_twin {
        client.stop(&twin).await?;
        ctx.note(&format!("Stopped tunnel {}", escape(&twin)));
    } else if has_twin {
        ctx.note(&format!(
            "Its http twin '{0}' is still running; stop it with: tunnelctl local tunnels stop '{0}'",
            escape(&twin)
        ));
    }
    Ok(())
}

/// Prints a list that arrived whole.
fn print_all(
    ctx: &Context,
    kind: &'static crate::output::columns::Kind,
    items: Vec<Value>,
) -> Result<()> {
    let mut sink = ctx.printer.list(kind)?;
    for item in items {
        sink.push(item)?;
    }
    super::note_if_empty(ctx, kind, sink.finish()?);
    Ok(())
}

async fn requests(args: RequestsArgs, ctx: &Context) -> Result<()> {
    match args.command {
        RequestsCommand::List {
            limit,
            filter,
            only,
        } => {
            let client = ctx.agent()?;
            let query = only.query();
            // The agent filters by tunnel only: with other filters, every capture is read and
            // --limit counts the matches.
            let asked = if query.is_empty() { limit } else { None };
            // Each captured request is handed on as the agent's JSON text: machine output
            // passes it through without building values, so a list of large captured bodies
            // costs little more memory than its text.
            let raw = client.requests_raw(asked, filter.tunnel.as_deref()).await?;
            let mut sink = ctx.printer.list(&CAPTURED_REQUEST)?;
            let mut shown = 0;
            for item in raw.items()? {
                if limit.is_some_and(|n| shown >= n) {
                    break;
                }
                if !query.is_empty() && !query.matches(&parse_capture(item)?) {
                    continue;
                }
                shown += 1;
                sink.push_raw(item)?;
            }
            super::note_if_empty(ctx, &CAPTURED_REQUEST, sink.finish()?);
            Ok(())
        }
        RequestsCommand::Get {
            id,
            raw,
            response,
            force,
            curl,
        } => {
            let client = ctx.agent()?;
            let captured = client.request(&id).await?;
            let view = if raw {
                View::Raw { response, force }
            } else if curl {
                View::Curl
            } else {
                View::Decoded
            };
            ctx.printer.capture(&id, &captured, view)
        }
        RequestsCommand::Replay {
            id,
            tunnel,
            changes,
        } if changes.any() => {
            super::resend::replay_changed(ctx, &id, tunnel.as_deref(), *changes).await
        }
        RequestsCommand::Replay { id, tunnel, .. } => {
            super::resend::replay_unchanged(ctx, &id, tunnel.as_deref()).await
        }
        RequestsCommand::Save(args) => super::resend::save(ctx, args).await,
        RequestsCommand::Send(args) => super::resend::send_files(ctx, args).await,
        RequestsCommand::Clear => {
            let client = ctx.agent()?;
            ctx.confirm("Delete every captured request?")?;
            client.clear().await?;
            ctx.note("Deleted every captured request");
            Ok(())
        }
        RequestsCommand::Tail { filter } => tail(ctx, filter.tunnel.as_deref()).await,
        RequestsCommand::Export { har, limit, filter } => {
            let client = ctx.agent()?;
            let all = client.requests(limit, filter.tunnel.as_deref()).await?;
            let doc = har::document(&all);
            let text = serde_json::to_string_pretty(&doc)
                .map_err(|e| Error::Io(format!("could not encode the HAR file: {e}")))?;
            if har.as_os_str() == "-" {
                ctx.printer.line(&text)?;
            } else {
                std::fs::write(&har, text + "\n")
                    .map_err(|e| Error::Io(format!("cannot write {}: {e}", har.display())))?;
            }
            ctx.note(&format!(
                "Wrote {} exchange(s) to {}",
                all.len(),
                har.display()
            ));
            Ok(())
        }
    }
}

/// One captured request of a list, as a value to filter.
fn parse_capture(text: &str) -> Result<Value> {
    serde_json::from_str(text)
        .map_err(|e| Error::BadResponse(format!("a captured request is not valid JSON ({e})")))
}

/// How often `tail` asks the agent for new requests.
const TAIL_EVERY: Duration = Duration::from_millis(200);
/// How long `tail` holds a request whose response is pending before printing it anyway.
const TAIL_HOLD: Duration = Duration::from_secs(10);

/// Follows captured requests: polls the newest ones and prints each new one once it has its
/// response (or has waited too long), oldest first.
async fn tail(ctx: &Context, tunnel: Option<&str>) -> Result<()> {
    let client = ctx.agent()?;
    let mut seen: HashSet<String> = client
        .requests(Some(100), tunnel)
        .await?
        .iter()
        .filter_map(|r| r.get("id").and_then(Value::as_str).map(str::to_string))
        .collect();
    let mut first_seen: HashMap<String, Instant> = HashMap::new();
    ctx.note("Following captured requests; Ctrl-C to stop.");
    let mut window = 50;
    loop {
        tokio::time::sleep(TAIL_EVERY).await;
        let batch = client.requests(Some(window), tunnel).await?;
        let unseen = batch
            .iter()
            .filter(|r| {
                r.get("id")
                    .and_then(Value::as_str)
                    .is_some_and(|id| !seen.contains(id))
            })
            .count();
        // Everything in the window is new: some may have been missed, look further next time.
        window = if unseen == batch.len() && batch.len() == window {
            (window * 4).min(2000)
        } else {
            50
        };
        let mut out = ctx.printer.writer();
        for item in batch.iter().rev() {
            let Some(id) = item.get("id").and_then(Value::as_str) else {
                continue;
            };
            if seen.contains(id) {
                continue;
            }
            let answered = exchange::is_answered(item);
            let held = first_seen
                .entry(id.to_string())
                .or_insert_with(Instant::now)
                .elapsed();
            if !answered && held < TAIL_HOLD {
                continue;
            }
            seen.insert(id.to_string());
            first_seen.remove(id);
            ctx.printer.tail_item(&mut out, item)?;
        }
        out.flush()?;
    }
}
