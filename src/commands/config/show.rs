//! `config show`: each setting in effect with its value (made safe to show) and where it came
//! from, as a short text for people, tab-separated values in a pipe, or one JSON document.

use serde_json::{json, Map, Value};

use crate::context::Context;
use crate::error::{CommandResult, Result};
use crate::escape::escape;
use crate::output::Printer;
use crate::registry::is_secret_key;
use crate::secrets::redact;

/// One setting as shown: its key, its value (redacted or escaped; none when unset) and source.
type Row<'a> = (&'a str, Option<String>, String);

/// Shows the settings of `profile`.
pub(super) fn run(ctx: &Context, profile: &str) -> CommandResult {
    let cfg = super::load(&ctx.settings.config_path()?)?;
    let rows: Vec<Row> = ctx
        .settings
        .shown()?
        .into_iter()
        .map(|(key, r)| {
            let value = r.value.map(|v| {
                if is_secret_key(key) {
                    redact(&v)
                } else {
                    escape(&v)
                }
            });
            (key, value, r.source.to_string())
        })
        .collect();
    Ok(print(
        &ctx.printer,
        &cfg.path().display().to_string(),
        profile,
        cfg.profiles(),
        &rows,
    )?)
}

/// Prints the file, the profile, and each setting: the printer writes one JSON document for
/// machine output (or what `--jq` makes of it), else a line a setting, with a header on a
/// terminal.
fn print(
    printer: &Printer,
    file: &str,
    profile: &str,
    profiles: Vec<String>,
    rows: &[Row],
) -> Result<()> {
    let mut settings = Map::new();
    for (key, value, source) in rows {
        settings.insert(
            (*key).to_string(),
            json!({"value": value, "source": source}),
        );
    }
    let doc = json!({
        "config_file": file,
        "profile": profile,
        "profiles": profiles,
        "settings": Value::Object(settings),
    });
    printer.document_or_text(&doc, |out, table| {
        if table {
            writeln!(out, "config file: {}", escape(file))?;
            writeln!(out, "profile:     {}", escape(profile))?;
        }
        for (key, value, source) in rows {
            let value = value.clone().unwrap_or_default();
            if table {
                let value = if value.is_empty() {
                    "(not set)".to_string()
                } else {
                    value
                };
                writeln!(out, "{key:<12}  {value}  ({source})")?;
            } else {
                writeln!(out, "{key}\t{value}\t{source}")?;
            }
        }
        Ok(())
    })
}
