//! Small reports through the printer: plain lines and bytes, notes, the JSON results of work
//! over many items (one object per item, with `--json` only), the tunnels a start made, and
//! `config show`. Commands compute the data; these decide, by the output format, what reaches
//! stdout.

use std::io::Write;

use serde_json::{json, Map, Value};

use super::Printer;
use crate::error::Result;
use crate::escape::escape;

/// Writes bytes to stdout exactly as they are, for what needs no options (help text,
/// completion scripts).
pub fn print_bytes(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

impl Printer {
    /// Writes a line of plain data (a path, a value) to stdout.
    pub fn line(&self, text: &str) -> Result<()> {
        let mut out = self.streams.out();
        writeln!(out, "{text}")?;
        out.flush()?;
        Ok(())
    }

    /// Writes bytes to stdout exactly as they are.
    pub fn bytes(&self, bytes: &[u8]) -> Result<()> {
        let mut out = self.streams.out();
        out.write_all(bytes)?;
        out.flush()?;
        Ok(())
    }

    /// A buffered stdout for a command that writes as it goes (`tail`).
    pub fn writer(&self) -> Box<dyn Write> {
        self.streams.out()
    }

    /// A note for people on stderr (a confirmation, a warning), unless `quiet`.
    pub fn note(&self, quiet: bool, msg: &str) {
        if !quiet {
            self.streams.err_line(msg);
        }
    }

    /// These options with JSON output, unless JSON of some kind was asked for already
    /// (`tunnelctl api` prints JSON whatever the terminal, as `gh api` does).
    pub fn json_always(&self) -> Printer {
        let mut out = self.clone();
        if !out.is_json() {
            out.format = super::Format::Json;
        }
        out
    }

    /// Is the output for a person (a table or TSV, no jq)?
    pub fn for_people(&self) -> bool {
        !self.is_json() && self.jq.is_none()
    }

    /// Does an empty list deserve a note on stderr (a table for a person, no jq)?
    pub fn notes_empty_lists(&self) -> bool {
        self.format == super::Format::Table && self.jq.is_none()
    }

    /// Tunnels the agent started for one `local tunnels start`: the first as the agent
    /// returned it; when it made more (an http tunnel's twin), a note on stderr lists each
    /// name and URL, so both are seen.
    pub fn tunnels_started(&self, quiet: bool, started: &[Value]) -> Result<()> {
        let Some(first) = started.first() else {
            return Ok(());
        };
        self.object(&super::columns::TUNNEL, first)?;
        if started.len() > 1 && !quiet {
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
            self.streams.err_line(&note);
        }
        Ok(())
    }

    /// The results of a bulk command, one object per item: printed with `--json` (or
    /// `-o ndjson`) only, since people read the per-item lines on stderr instead.
    pub fn results(&self, rows: Vec<Value>) -> Result<()> {
        if !self.is_json() {
            return Ok(());
        }
        let mut out = self.streams.out();
        super::write_json(&mut out, &Value::Array(rows), self.tty)?;
        out.flush()?;
        Ok(())
    }

    /// `config show`: the file, the profile, and each setting with its value (already made
    /// safe to show) and source.
    pub fn config_show(
        &self,
        file: &str,
        profile: &str,
        profiles: Vec<String>,
        rows: &[(&str, Option<String>, String)],
    ) -> Result<()> {
        let mut out = self.streams.out();
        if self.is_json() || self.jq.is_some() {
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
            if let Some(expr) = &self.jq {
                super::jq::Filter::compile(expr)?.run(&doc, self.tty, &mut out)?;
            } else {
                super::write_json(&mut out, &doc, self.tty)?;
            }
            out.flush()?;
            return Ok(());
        }
        let table = self.format == super::Format::Table;
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
        out.flush()?;
        Ok(())
    }
}
