//! `tunnelctl local tunnels …`: the tunnels running in the local agent — list, read, start
//! (an http tunnel and its http twin, the definition built from the flags) and stop.

use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Map, Value};

use crate::commands::{non_empty, value_or_file};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::output::columns::TUNNEL;

#[derive(Debug, Args)]
pub struct TunnelsArgs {
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

impl Proto {
    /// The name the agent's configuration uses.
    fn name(self) -> &'static str {
        match self {
            Proto::Http => "http",
            Proto::Tcp => "tcp",
            Proto::Tls => "tls",
        }
    }
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
    /// Start a tunnel (--proto http starts two: NAME and 'NAME (http)')
    ///
    /// --proto http starts two: an https tunnel NAME and its twin 'NAME (http)'.
    // -h has room for one example only, beside the many options.
    #[command(
        after_help = "Example:
  tunnelctl local tunnels start --name web --proto http --addr 8080",
        after_long_help = "Examples:
  tunnelctl local tunnels start --name web --proto http --addr 8080
  tunnelctl local tunnels start --name db --proto tcp --addr 5432 \\
      --remote-addr 1.tcp.example.com:20000
  tunnelctl local tunnels start --name web --proto http --addr 8080 \\
      --config-json '{\"bind_tls\": true}'

With --proto http (and no --schemes), the agent starts two tunnels: NAME on https and its
twin 'NAME (http)' on http; both URLs are listed on stderr. --json prints the tunnel NAME
as the agent returned it."
    )]
    Start(Box<StartArgs>),
    /// Stop a tunnel (and, when asked, the 'NAME (http)' twin of an http tunnel)
    #[command(after_help = "Examples:
  tunnelctl local tunnels stop web          # asks: stop 'web (http)' too?
  tunnelctl local tunnels stop web --yes    # stops 'web' and 'web (http)'
  tunnelctl local tunnels stop 'web (http)' # only the http twin

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
    /// Host header to send upstream (http only)
    #[arg(long, value_name = "HOST")]
    host_header: Option<String>,
    /// Require basic auth from visitors (http only)
    ///
    /// Visitors must send this USER:PASS.
    #[arg(long, value_name = "USER:PASS", value_parser = parse_basic_auth)]
    basic_auth: Option<String>,
    /// Subdomain to ask for (http, tls)
    #[arg(long, value_name = "NAME")]
    subdomain: Option<String>,
    /// Full domain to ask for (http, tls)
    #[arg(long, value_name = "DOMAIN")]
    domain: Option<String>,
    /// Schemes served
    ///
    /// http only: https, http, or both (http,https).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "SCHEMES")]
    schemes: Vec<Scheme>,
    /// Remote address to bind (tcp only)
    #[arg(long, value_name = "HOST:PORT")]
    remote_addr: Option<String>,
    /// Metadata of your choice
    ///
    /// Any text; the management API shows it.
    #[arg(long, value_name = "TEXT")]
    metadata: Option<String>,
    /// More config fields as JSON or @FILE
    ///
    /// A JSON object of fields named as in the agent's config file.
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
                let names: Vec<&str> = allowed.iter().map(|p| p.name()).collect();
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
        set("proto", Value::String(proto.name().into()));
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

/// Runs a `local tunnels` command.
pub async fn run(args: TunnelsArgs, ctx: &Context) -> crate::error::CommandResult {
    Ok(match args.command {
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
            tunnels_started(ctx, &started)
        }
        TunnelsCommand::Stop { name } => stop_tunnel(ctx, &name).await,
    }?)
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

/// Is `name` the name of an http twin (which has no twin of its own)?
fn is_twin(name: &str) -> bool {
    name.ends_with(" (http)")
}

/// Stops `name`, and its http twin when the person agrees (or `--yes`); off a terminal
/// without `--yes`, the twin stays and a note says so.
async fn stop_tunnel(ctx: &Context, name: &str) -> Result<()> {
    let client = ctx.agent()?;
    // A name that is itself a twin has none; any failure to read the twin means none is shown.
    let twin = twin_of(name);
    let has_twin = !is_twin(name) && client.tunnel(&twin).await.is_ok();
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
    crate::commands::note_if_empty(ctx, kind, sink.finish()?);
    Ok(())
}

/// Tunnels the agent started for one `local tunnels start`: the first as the agent returned
/// it; when it made more (an http tunnel's twin), a note on stderr lists each name and URL, so
/// both are seen.
fn tunnels_started(ctx: &Context, started: &[Value]) -> Result<()> {
    let Some(first) = started.first() else {
        return Ok(());
    };
    ctx.printer.object(&TUNNEL, first)?;
    if started.len() > 1 && !ctx.printer.quiet {
        let name = |t: &Value| escape(crate::agent::name_of(t));
        let width = started.iter().map(|t| name(t).chars().count()).max();
        let mut note = format!("Started {} tunnels:", started.len());
        for t in started {
            let url = t.get("public_url").and_then(Value::as_str).unwrap_or("");
            note.push_str(&format!(
                "\n  {:<w$}  {}",
                name(t),
                escape(url),
                w = width.unwrap_or(0)
            ));
        }
        ctx.printer.streams.err_line(&note);
    }
    Ok(())
}
