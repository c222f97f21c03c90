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
                } else if key == crate::registry::HISTORY_URL.key {
                    // The URL without its password; text that does not read is shown only when
                    // it cannot hold one.
                    match crate::parse::parse_history_url(&v) {
                        Ok(u) => u.shown(),
                        Err(_) if v.contains('@') || v.contains("password") => redact(&v),
                        Err(_) => escape(&v),
                    }
                } else {
                    escape(&v)
                }
            });
            (key, value, r.source.to_string())
        })
        .collect();
    // Which history is in effect: the team store when history_url is set, else the file.
    let store = rows
        .iter()
        .find(|(key, value, _)| *key == crate::registry::HISTORY_URL.key && value.is_some())
        .map_or("file (history_file)", |_| "team store (history_url)");
    Ok(print(
        &ctx.printer,
        &cfg.path().display().to_string(),
        store,
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
    store: &str,
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
        "history": store,
        "settings": Value::Object(settings),
    });
    let columns = usize::from(printer.streams.width());
    printer.document_or_text(&doc, |out, table| {
        if !table {
            for (key, value, source) in rows {
                let value = value.clone().unwrap_or_default();
                writeln!(out, "{key}\t{value}\t{source}")?;
            }
            return Ok(());
        }
        writeln!(out, "config file: {}", escape(file))?;
        writeln!(out, "profile:     {}", escape(profile))?;
        writeln!(out, "history:     {store}")?;
        for line in aligned(rows, columns) {
            writeln!(out, "{line}")?;
        }
        Ok(())
    })
}

/// The settings for people, in columns: the keys padded to the longest (the values then
/// start in one column, whatever key is longest), and the values too when every line then
/// fits `columns`, so that the sources line up as well.
fn aligned(rows: &[Row], columns: usize) -> Vec<String> {
    use crate::output::table::width;
    let shown: Vec<(&str, String, &str)> = rows
        .iter()
        .map(|(key, value, source)| {
            let value = match value.as_deref() {
                None | Some("") => "(not set)".to_string(),
                Some(v) => v.to_string(),
            };
            (*key, value, source.as_str())
        })
        .collect();
    let key_w = shown.iter().map(|r| width(r.0)).max().unwrap_or(0);
    let value_w = shown.iter().map(|r| width(&r.1)).max().unwrap_or(0);
    let source_w = shown.iter().map(|r| width(r.2) + 2).max().unwrap_or(0);
    let pad_values = key_w + 2 + value_w + 2 + source_w <= columns;
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(width(s))));
    shown
        .iter()
        .map(|(key, value, source)| {
            let value = if pad_values {
                pad(value, value_w)
            } else {
                value.clone()
            };
            format!("{}  {value}  ({source})", pad(key, key_w))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values start in one column after the longest key (they stopped lining up after
    /// `history_file`), and the sources too when the lines fit.
    #[test]
    fn settings_stand_in_columns() {
        let rows: Vec<Row> = vec![
            ("api_url", None, "default".into()),
            ("history_max_size", Some("1GiB".into()), "default".into()),
            (
                "webhook_secret_standard",
                Some("whsec_…".into()),
                "config file".into(),
            ),
        ];
        let lines = aligned(&rows, 80);
        let at = |l: &str, what: &str| l.find(what).unwrap();
        assert_eq!(at(&lines[0], "(not set)"), at(&lines[1], "1GiB"));
        assert_eq!(at(&lines[0], "(default)"), at(&lines[1], "(default)"));
        // Too wide to pad the values: the keys still line up.
        let wide = aligned(&rows, 40);
        assert_eq!(at(&wide[0], "(not set)"), at(&wide[2], "whsec_"));
    }
}
