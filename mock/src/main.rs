//! `tunnelctl-mock`: the emulator as a program, for people trying the CLI and for benchmarks.
//!
//! Two modes: serve until Ctrl-C (printing the URL and key to use), or `exec -- CMD ...` to
//! run one command against a fresh emulator and exit with its code, which makes a benchmark
//! or a demo a single self-cleaning command line.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde_json::json;
use tunnelctl_mock::{spawn_on, MockHandle, MockOptions};

/// Stateful emulator of the tunnel management API and the local agent API, on 127.0.0.1 only.
#[derive(Debug, Parser)]
#[command(name = "tunnelctl-mock", version)]
struct Args {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Port of the local agent API (0 picks a free one).
    #[arg(long, default_value_t = 0)]
    agent_port: u16,
    /// Bytes of captured requests the agent keeps before evicting the oldest.
    #[arg(long, default_value_t = tunnelctl_mock::MockOptions::default().inspect_db_size)]
    inspect_db_size: u64,
    /// The API key clients must send.
    #[arg(long, default_value = "mock-api-key")]
    api_key: String,
    /// Items per list page when a request gives no limit.
    #[arg(long, default_value_t = 100)]
    page_size: usize,
    /// Delay added before answering every API request, in milliseconds.
    #[arg(long, default_value_t = 0)]
    latency_ms: u64,
    /// How long a restarted session stays away, in milliseconds.
    #[arg(long, default_value_t = 200)]
    restart_delay_ms: u64,
    /// Start with a small realistic data set.
    #[arg(long)]
    demo: bool,
    /// Add a field clients do not know to every resource.
    #[arg(long)]
    extra_fields: bool,
    /// Limit management API requests to MAX per rolling PER_MS milliseconds (429 beyond);
    /// the hosted service's limit is 120/60000.
    #[arg(long, value_name = "MAX/PER_MS", value_parser = parse_rate_limit)]
    rate_limit: Option<(u32, u64)>,
    /// Once listening, write the base URL (one line) to this file, atomically.
    #[arg(long, value_name = "FILE")]
    ready_file: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run CMD with TUNNELCTL_API_URL, TUNNELCTL_API_KEY and TUNNELCTL_AGENT_URL pointing at
    /// the emulator (and, with --demo, TUNNELCTL_DEMO_TLS_EDGE naming the demo's TLS edge
    /// and TUNNELCTL_DEMO_UPSTREAM the URL of its web app), then exit with its exit code.
    Exec {
        /// The command and its arguments (put `--` before them).
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        cmd: Vec<OsString>,
    },
}

/// Reads `MAX/PER_MS` (both at least 1).
fn parse_rate_limit(text: &str) -> Result<(u32, u64), String> {
    let (max, per) = text
        .split_once('/')
        .ok_or_else(|| format!("expected MAX/PER_MS (e.g. 120/60000), got '{text}'"))?;
    let max: u32 = max
        .trim()
        .parse()
        .map_err(|e| format!("MAX '{max}': {e}"))?;
    let per: u64 = per
        .trim()
        .parse()
        .map_err(|e| format!("PER_MS '{per}': {e}"))?;
    if max == 0 || per == 0 {
        return Err("MAX and PER_MS must be at least 1".to_string());
    }
    Ok((max, per))
}

fn main() -> ExitCode {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("tunnelctl-mock: cannot start the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    runtime.block_on(run(args))
}

async fn run(args: Args) -> ExitCode {
    let opts = MockOptions {
        api_key: args.api_key.clone(),
        page_size: args.page_size.max(1),
        restart_delay_ms: args.restart_delay_ms,
        latency_ms: args.latency_ms,
        extra_fields: args.extra_fields,
        agent_port: args.agent_port,
        inspect_db_size: args.inspect_db_size,
        rate_limit: args.rate_limit,
        ..MockOptions::default()
    };
    let mock = match spawn_on(opts, args.port).await {
        Ok(m) => m,
        Err(e) => {
            eprintln!(
                "tunnelctl-mock: cannot listen on 127.0.0.1 (ports {} and {}): {e}",
                args.port, args.agent_port
            );
            return ExitCode::from(1);
        }
    };
    let mut demo = Demo::default();
    if args.demo {
        match tunnelctl_mock::echo::spawn_echo().await {
            Ok(addr) => demo.upstream = Some(addr),
            Err(e) => {
                eprintln!("tunnelctl-mock: cannot start the demo's web app: {e}");
                return ExitCode::from(1);
            }
        }
        match mock.seed(json!({"demo": true})) {
            Ok(created) => demo.tls_edges = Demo::tls_edges_of(&created),
            Err(e) => {
                eprintln!("tunnelctl-mock: cannot seed the demo data: {e}");
                return ExitCode::from(1);
            }
        }
    }
    match args.command {
        Some(Command::Exec { cmd }) => {
            if let Err(code) = write_ready(&args.ready_file, &mock) {
                return code;
            }
            exec(&mock, &demo, &cmd).await
        }
        None => serve(&mock, &demo, &args.ready_file).await,
    }
}

/// What a person trying the demo account cannot find through the API, named for them.
#[derive(Debug, Default)]
struct Demo {
    /// The demo's TLS edges: the API has no call that lists edges, so nothing else shows
    /// their IDs.
    tls_edges: Vec<String>,
    /// Where the demo's web app (an echo) that tunnels can forward to listens.
    upstream: Option<std::net::SocketAddr>,
}

impl Demo {
    /// The TLS edges of what the demo seed created (`{"tls_edges": [...], ...}`).
    fn tls_edges_of(created: &serde_json::Value) -> Vec<String> {
        created["tls_edges"]
            .as_array()
            .map(|ids| {
                ids.iter()
                    .filter_map(|id| id.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The lines the served banner adds for the demo account (none without `--demo`).
    fn banner(&self, out: &mut impl Write) -> std::io::Result<()> {
        for id in &self.tls_edges {
            writeln!(
                out,
                "\nDemo TLS edge: {id} (no API call lists edges)\n  tunnelctl edges tls-termination get {id}"
            )?;
        }
        if let Some(addr) = &self.upstream {
            writeln!(
                out,
                "\nDemo web app (answers every request with an echo of it): http://{addr}\n  tunnelctl local tunnels start --name hook --proto http --addr {addr}"
            )?;
        }
        Ok(())
    }

    /// Variables `exec` adds for the command: the first TLS edge and the web app's URL,
    /// when there are.
    fn env_vars(&self) -> Vec<(&'static str, String)> {
        let edge = self.tls_edges.first().map(|id| (DEMO_TLS_EDGE, id.clone()));
        let upstream = self
            .upstream
            .map(|addr| (DEMO_UPSTREAM, format!("http://{addr}")));
        edge.into_iter().chain(upstream).collect()
    }
}

/// The variable that names the demo's web app to an `exec` command.
const DEMO_UPSTREAM: &str = "TUNNELCTL_DEMO_UPSTREAM";

/// The variable that names the demo's TLS edge to an `exec` command.
const DEMO_TLS_EDGE: &str = "TUNNELCTL_DEMO_TLS_EDGE";

/// The note on tunnels a person starts on the emulator's agent: which address answers.
const TUNNEL_NOTE: &str = "\
Tunnels you start on its agent answer at the URL of their `NAME (http)` twin
(http://127.0.0.1:PORT, shown by `tunnelctl local tunnels list`); the
https://….tunnel.test address of `NAME` is only a name: nothing answers it.";

async fn serve(mock: &MockHandle, demo: &Demo, ready_file: &Option<PathBuf>) -> ExitCode {
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "management API: {}", mock.url());
        let _ = writeln!(out, "api key: {}", mock.api_key());
        let _ = writeln!(out, "agent API: {}", mock.agent_url());
        let _ = writeln!(out, "\nTo point tunnelctl at it, run in another shell:");
        for (name, value) in env_vars(mock) {
            let _ = writeln!(out, "  export {name}={value}");
        }
        let _ = demo.banner(&mut out);
        let _ = writeln!(out, "\n{TUNNEL_NOTE}");
        let _ = out.flush();
    }
    if let Err(code) = write_ready(ready_file, mock) {
        return code;
    }
    match tokio::signal::ctrl_c().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tunnelctl-mock: cannot wait for Ctrl-C: {e}");
            ExitCode::from(1)
        }
    }
}

fn write_ready(ready_file: &Option<PathBuf>, mock: &MockHandle) -> Result<(), ExitCode> {
    let Some(path) = ready_file else {
        return Ok(());
    };
    write_atomically(path, format!("{}\n", mock.url()).as_bytes()).map_err(|e| {
        eprintln!(
            "tunnelctl-mock: cannot write the ready file {}: {e}",
            path.display()
        );
        ExitCode::from(1)
    })
}

/// Writes a temporary file and renames it, so a script polling for the file never reads it
/// half written.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

async fn exec(mock: &MockHandle, demo: &Demo, cmd: &[OsString]) -> ExitCode {
    let Some((program, rest)) = cmd.split_first() else {
        eprintln!("tunnelctl-mock: exec needs a command");
        return ExitCode::from(2);
    };
    let mut command = tokio::process::Command::new(program);
    command
        .args(rest)
        .envs(env_vars(mock))
        .envs(demo.env_vars());
    if let Some(path) = path_with_own_folder() {
        command.env("PATH", path);
    }
    let status = command.status().await;
    match status {
        Ok(s) => ExitCode::from(exit_code(&s)),
        Err(e) => {
            eprintln!(
                "tunnelctl-mock: cannot run {}: {e}",
                Path::new(program).display()
            );
            ExitCode::from(if e.kind() == std::io::ErrorKind::NotFound {
                127
            } else {
                126
            })
        }
    }
}

/// The variables that point `tunnelctl` at the emulator.
fn env_vars(mock: &MockHandle) -> [(&'static str, String); 3] {
    [
        ("TUNNELCTL_API_URL", mock.url()),
        ("TUNNELCTL_API_KEY", mock.api_key().to_string()),
        ("TUNNELCTL_AGENT_URL", mock.agent_url()),
    ]
}

/// `PATH` with this program's own folder added at the end, so that `exec -- tunnelctl ...`
/// finds the `tunnelctl` built beside it (`target/debug/`) when none is installed, and an
/// installed one still wins. (A changed `PATH` is also where the program itself is looked up.)
fn path_with_own_folder() -> Option<OsString> {
    let own = std::env::current_exe().ok()?.parent()?.to_path_buf();
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    if !dirs.contains(&own) {
        dirs.push(own);
    }
    std::env::join_paths(dirs).ok()
}

/// The child's exit code; a child killed by a signal gives 128 + the signal, as shells do.
fn exit_code(status: &std::process::ExitStatus) -> u8 {
    if let Some(code) = status.code() {
        return u8::try_from(code & 0xff).unwrap_or(1);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return u8::try_from(128 + (sig & 0x7f)).unwrap_or(1);
        }
    }
    1
}
