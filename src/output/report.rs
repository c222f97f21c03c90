//! Small reports through the printer: the tunnels a start made, and the JSON results of work
//! over many items (one object per item, with `--json` only).

use std::io::Write;

use serde_json::Value;

use super::Printer;
use crate::error::Result;
use crate::escape::escape;

impl Printer {
    /// Tunnels the agent started for one `local tunnels start`: the first as the agent
    /// returned it; when it made more (an http tunnel's twin), a note on stderr lists each
    /// name and URL, so both are seen.
    pub fn tunnels_started(&self, started: &[Value]) -> Result<()> {
        let quiet = self.quiet;
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
}
