//! `tunnelctl export [KIND...] [-o FILE|-]`: the live account as an account file.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::account::exported;
use crate::account::live;
use crate::account::section::Section;
use crate::commands::local::user_file;
use crate::context::Context;
use crate::error::Result;

/// `export`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl export                            # the whole account, on stdout
  tunnelctl export -o account.toml            # into a new file
  tunnelctl export ip-policies backends -o network.toml

-o FILE is the same as --out FILE here: export writes TOML only. TLS termination is not
exported: the API lists no edges; add [tls_termination.EDGE_ID] tables by hand.")]
pub struct ExportAccountArgs {
    /// The kinds to export (all when none is named); the file's table names work too
    #[arg(value_enum, value_name = "KIND")]
    kinds: Vec<KindArg>,
    /// Write the file here (also -o FILE); - is stdout, the default
    #[arg(long, value_name = "FILE|-", value_parser = clap::value_parser!(PathBuf))]
    out: Option<PathBuf>,
    /// Overwrite the file --out names
    #[arg(long)]
    force: bool,
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
}

impl KindArg {
    fn section(self) -> Section {
        match self {
            KindArg::IpPolicies => Section::IpPolicies,
            KindArg::Backends => Section::Backends,
            KindArg::EventDestinations => Section::EventDestinations,
            KindArg::EventSubscriptions => Section::EventSubscriptions,
        }
    }
}

/// `export -o FILE` means `--out FILE`: the global `-o` picks an output format, which an
/// account file (TOML) has no choice of. Rewrites the words after the `export` command.
pub fn out_flag(args: Vec<OsString>, command_at: usize) -> Vec<OsString> {
    let mut out = Vec::with_capacity(args.len());
    let mut rest = false;
    for (i, a) in args.into_iter().enumerate() {
        if i <= command_at || rest {
            out.push(a);
            continue;
        }
        match a.to_str() {
            Some("--") => {
                rest = true;
                out.push(a);
            }
            Some("-o") => out.push("--out".into()),
            Some(s) if s.starts_with("-o") => {
                let value = s.trim_start_matches("-o").trim_start_matches('=');
                out.push(format!("--out={value}").into());
            }
            _ => out.push(a),
        }
    }
    out
}

impl crate::commands::Group for ExportAccountArgs {
    const REACHES: crate::commands::Reaches = crate::commands::Reaches::Management;

    async fn run(self, ctx: &Context) -> crate::error::CommandResult {
        Ok(run(self, ctx).await?)
    }
}

async fn run(args: ExportAccountArgs, ctx: &Context) -> Result<()> {
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from(crate::files::STDOUT));
    user_file::check_free(&out, args.force)?;
    let sections: Vec<Section> = if args.kinds.is_empty() {
        Section::ALL.to_vec()
    } else {
        args.kinds.iter().map(|k| k.section()).collect()
    };
    let client = ctx.management()?;
    let live = live::read(&client, &sections, &[]).await?;
    let text = exported::to_toml(&live, &sections);
    user_file::write(ctx, &out, text.as_bytes(), args.force)?;
    if !crate::files::is_stdout(&out) {
        let count: usize = sections.iter().map(|s| live.of(*s).len()).sum();
        ctx.note(&format!(
            "Exported {count} resource(s) to {}",
            user_file::shown(&out)
        ));
    }
    Ok(())
}
