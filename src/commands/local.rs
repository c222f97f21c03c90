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
    /// Start a tunnel
    #[command(after_help = "Examples:
  tunnelctl local tunnels start --name web --proto http --addr 8080
  tunnelctl local tunnels start --name db --proto tcp --addr 5432 --remote-addr 1.tcp.example.com:20000
  tunnelctl local tunnels start --name web --proto http --addr 8080 --config-json '{\"bind_tls\": true}'")]
    Start(Box<StartArgs>),
    /// Stop a tunnel (an http tunnel's two halves are stopped one by one)
    #[command(
        after_help = "Example:\n  tunnelctl local tunnels stop web && tunnelctl local tunnels stop 'web (http)'"
    )]
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
  tunnelctl local requests list --tunnel 'web (http)' --limit 10 --json")]
    List {
        /// At most N requests (1 or more)
        #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
        limit: Option<usize>,
        #[command(flatten)]
        filter: Filter,
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
    /// Send a captured request to the local server again (captured again as "replayed")
    #[command(after_help = "Examples:
  tunnelctl local requests replay airt_2Qm…
  tunnelctl local requests replay airt_2Qm… --tunnel 'staging (http)'")]
    Replay {
        /// Captured request ID (airt_…)
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::complete::captured_ids))]
        id: String,
        /// Replay on this tunnel instead of the one it was captured on
        #[arg(long, value_name = "NAME", add = clap_complete::ArgValueCandidates::new(crate::complete::tunnel_names))]
        tunnel: Option<String>,
    },
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
            ctx.out.object(&TUNNEL, &client.tunnel(&name).await?)
        }
        TunnelsCommand::Start(start) => {
            let config = (*start).into_config()?;
            let client = ctx.agent()?;
            let tunnel = client.start(&config).await?;
            ctx.out.object(&TUNNEL, &tunnel)
        }
        TunnelsCommand::Stop { name } => {
            let client = ctx.agent()?;
            client.stop(&name).await?;
            ctx.note(&format!("Stopped tunnel {}", escape(&name)));
            Ok(())
        }
    }
}

/// Prints a list that arrived whole.
fn print_all(
    ctx: &Context,
    kind: &'static crate::output::columns::Kind,
    items: Vec<Value>,
) -> Result<()> {
    let mut sink = ctx.out.list(kind)?;
    for item in items {
        sink.push(item)?;
    }
    if sink.finish()? == 0 && ctx.out.notes_empty_lists() {
        ctx.note(&format!("No {} found.", kind.plural));
    }
    Ok(())
}

async fn requests(args: RequestsArgs, ctx: &Context) -> Result<()> {
    match args.command {
        RequestsCommand::List { limit, filter } => {
            let client = ctx.agent()?;
            // Each captured request is handed on as the agent's JSON text: machine output
            // passes it through without building values, so a list of large captured bodies
            // costs little more memory than its text.
            let raw = client.requests_raw(limit, filter.tunnel.as_deref()).await?;
            let mut sink = ctx.out.list(&CAPTURED_REQUEST)?;
            for item in raw.items()? {
                sink.push_raw(item)?;
            }
            if sink.finish()? == 0 && ctx.out.notes_empty_lists() {
                ctx.note(&format!("No {} found.", CAPTURED_REQUEST.plural));
            }
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
            ctx.out.capture(&id, &captured, view)
        }
        RequestsCommand::Replay { id, tunnel } => {
            let client = ctx.agent()?;
            client.replay(&id, tunnel.as_deref()).await?;
            ctx.note(&format!("Replayed {}", escape(&id)));
            Ok(())
        }
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
                ctx.out.line(&text)?;
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
        let mut out = ctx.out.writer();
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
            ctx.out.tail_item(&mut out, item)?;
        }
        out.flush()?;
    }
}
