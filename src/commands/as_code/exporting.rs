//! `tunnelctl export [KIND...] [--out FILE|-] [--edge EDGE_ID...]`: the live account as an
//! account file. It writes TOML and nothing else, so `-o`, `--json` and `--jq` (the output
//! format, as everywhere) are refused rather than taken for a file name or ignored.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::account::edges;
use crate::account::exported;
use crate::account::live;
use crate::account::section::Section;
use crate::commands::local::user_file;
use crate::context::Context;
use crate::error::{Error, Result};

/// `export`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl export                            # the whole account, on stdout
  tunnelctl export --out account.toml         # into a new file
  tunnelctl export ip-policies backends --out network.toml
  tunnelctl export tls-termination --edge edgtls_2Qm…   # repeatable

export writes TOML only (-o, --json and --jq are refused). TLS termination is exported for
the edges named with --edge: the API lists no edges.")]
pub struct ExportAccountArgs {
    /// The kinds to export (all when none is named); the file's table names work too
    #[arg(value_enum, value_name = "KIND")]
    kinds: Vec<KindArg>,
    /// Write the file here; - is stdout, the default
    #[arg(long, value_name = "FILE|-", value_parser = clap::value_parser!(PathBuf))]
    out: Option<PathBuf>,
    /// Overwrite the file --out names
    #[arg(long)]
    force: bool,
    /// A TLS edge whose TLS termination to export (repeatable; the API lists no edges)
    #[arg(long = "edge", value_name = "EDGE_ID", value_parser = edge_id)]
    edges: Vec<String>,
}

/// A TLS edge ID, as `--edge` takes it.
fn edge_id(s: &str) -> std::result::Result<String, String> {
    if edges::is_edge_id(s) {
        Ok(s.to_string())
    } else {
        Err(format!("'{s}' is not a TLS edge ID ({}…)", edges::PREFIX))
    }
}

/// A kind of resource, as typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum KindArg {
    /// IP policies
    #[value(alias = "ip_policies")]
    IpPolicies,
    /// Tunnel-group backends
    Backends,
    /// Event destinations
    #[value(alias = "event_destinations")]
    EventDestinations,
    /// Event subscriptions
    #[value(alias = "event_subscriptions")]
    EventSubscriptions,
    /// The TLS termination of the edges --edge names
    #[value(alias = "tls_termination")]
    TlsTermination,
}

impl KindArg {
    fn section(self) -> Section {
        match self {
            KindArg::IpPolicies => Section::IpPolicies,
            KindArg::Backends => Section::Backends,
            KindArg::EventDestinations => Section::EventDestinations,
            KindArg::EventSubscriptions => Section::EventSubscriptions,
            KindArg::TlsTermination => Section::TlsTermination,
        }
    }
}

impl crate::commands::Group for ExportAccountArgs {
    const REACHES: crate::commands::Reaches = crate::commands::Reaches::Management;
    const OUTPUT_FORMATS: bool = false;

    async fn run(self, ctx: &Context) -> crate::error::CommandResult {
        Ok(run(self, ctx).await?)
    }
}

/// The kinds to read: those named, else every one.
fn sections(args: &ExportAccountArgs) -> Result<Vec<Section>> {
    let named: Vec<Section> = args.kinds.iter().map(|k| k.section()).collect();
    let tls = named.contains(&Section::TlsTermination);
    if tls && args.edges.is_empty() {
        return Err(Error::usage(
            "tls-termination needs --edge EDGE_ID (repeatable): the API lists no edges, so name those to export",
        ));
    }
    if !named.is_empty() && !tls && !args.edges.is_empty() {
        return Err(Error::usage(
            "--edge names the TLS edges whose TLS termination to export: add tls-termination to the kinds (or name no kind)",
        ));
    }
    Ok(if named.is_empty() {
        Section::ALL.to_vec()
    } else {
        named
    })
}

async fn run(args: ExportAccountArgs, ctx: &Context) -> Result<()> {
    if ctx.printer.format_asked {
        return Err(Error::usage(
            "export writes an account file, in TOML and no other format: leave out -o, --json and --jq (-o is the output format; export writes a file with --out FILE)",
        ));
    }
    let sections = sections(&args)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(crate::files::STDOUT));
    user_file::check_free(&out, args.force)?;
    let client = ctx.management()?;
    let mut live = live::read(&client, &sections, &args.edges).await?;
    if let Some((edge, e)) = std::mem::take(&mut live.missing_edges).into_iter().next() {
        return Err(edges::missing(&edge, e));
    }
    let file = exported::to_toml(&live, &sections, &args.edges);
    user_file::write(ctx, &out, file.text.as_bytes(), args.force)?;
    if !crate::files::is_stdout(&out) {
        let count: usize = sections.iter().map(|s| live.of(*s).len()).sum();
        ctx.note(&format!(
            "Exported {count} resource(s) to {}",
            user_file::shown(&out)
        ));
    }
    if !file.secret_vars.is_empty() {
        ctx.note(&format!(
            "The API never returns AWS secrets: set {} where apply runs (each destination's comment in the file says which).",
            file.secret_vars.join(", ")
        ));
    }
    Ok(())
}
