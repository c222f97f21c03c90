//! Captured exchanges of the local agent as people and tools read them: decoded for a person
//! ([`exchange`]), as a curl command line ([`curl`]), as a HAR log ([`har`]). Renderers only:
//! the agent client (`crate::agent`) fetches, these turn what it fetched into text.

pub mod body;
pub mod curl;
pub mod exchange;
pub mod har;
pub mod sent;

use std::io::Write;

use serde_json::Value;

use super::columns::{render, CAPTURED_REQUEST};
use super::table;
use super::Printer;
use crate::error::{Error, Result};
use crate::escape::{self, escape};

/// How `local requests get` shows a captured exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Decoded for a person (or the JSON, with `--json`/`--jq`).
    Decoded,
    /// The raw bytes of the request, or of the response.
    Raw {
        /// The response instead of the request.
        response: bool,
        /// Write bytes that could act on a terminal to one anyway.
        force: bool,
    },
    /// An equivalent curl command line.
    Curl,
}

impl Printer {
    /// Shows one captured exchange (`id` names it in messages).
    pub fn capture(&self, id: &str, captured: &Value, view: View) -> Result<()> {
        match view {
            View::Raw { response, force } => {
                let part = if response { "response" } else { "request" };
                let bytes = captured
                    .get(part)
                    .and_then(exchange::raw_bytes)
                    .ok_or_else(|| {
                        Error::BadResponse(format!(
                            "the captured {part} of {} has no raw bytes (pending?)",
                            escape(id)
                        ))
                    })?;
                self.raw(part, &bytes, force)
            }
            View::Curl => self.line(&curl::command(captured)?),
            View::Decoded if self.is_json() || self.jq.is_some() => {
                self.object(&CAPTURED_REQUEST, captured)
            }
            View::Decoded => self.bytes(exchange::render(captured).as_bytes()),
        }
    }

    /// Writes the raw bytes of an HTTP message (`part`: request or response) to stdout. As
    /// curl does with binary output: bytes a visitor chose could drive the terminal (escape
    /// sequences, OSC 52 to the clipboard), so they go only to a file or a pipe unless
    /// `force`; plain text is shown as it is.
    pub fn raw(&self, part: &str, bytes: &[u8], force: bool) -> Result<()> {
        if self.tty && !force && !escape::is_terminal_safe(bytes) {
            return Err(Error::usage(format!(
                "the raw {part} holds control characters or binary data that would act on \
                 your terminal; redirect it to a file (--raw > {part}.http) or a pipe, \
                 or add --force to write it here anyway"
            )));
        }
        self.bytes(bytes)
    }

    /// One request `tail` follows: a line for a person, or its JSON on one line.
    pub fn tail_item(&self, out: &mut impl Write, item: &Value) -> Result<()> {
        if self.is_json() {
            return super::write_line(out, item, self.tty);
        }
        let width = self.tty.then(|| usize::from(self.streams.width()));
        writeln!(out, "{}", tail_line(item, width))?;
        Ok(())
    }
}

impl Printer {
    /// The outcome of an unchanged replay: the new exchange the agent captured (its JSON for
    /// machine output; for people a line on stderr with its ID, status and duration), or a
    /// note that it has not been captured yet.
    pub fn replayed(&self, original: &str, capture: Option<&Value>) -> Result<()> {
        let Some(capture) = capture else {
            self.note(
                &format!(
                    "Replayed {}; the agent has not captured the new exchange yet (see 'tunnelctl local requests list')",
                    escape(original)
                ),
            );
            return Ok(());
        };
        if self.is_json() || self.jq.is_some() {
            return self.object(&CAPTURED_REQUEST, capture);
        }
        self.note(&format!(
            "Replayed {} as {}: {} in {}",
            escape(original),
            cell(capture, "ID"),
            cell(capture, "STATUS"),
            cell(capture, "DURATION")
        ));
        Ok(())
    }
}

/// The text of a captured request's column `name`, as tables show it.
fn cell(item: &Value, name: &str) -> String {
    CAPTURED_REQUEST
        .columns
        .iter()
        .find(|c| c.header == name)
        .map(|c| render(c, item, true))
        .unwrap_or_default()
}

/// time, method, path, status, duration, tunnel, and the request's ID (for `requests get`).
/// On a terminal of `width` columns the path (free text) is cut with `…` so that the line
/// fits, as far as it can: the ID, which ends the line for copying, is never cut or wrapped.
fn tail_line(item: &Value, width: Option<usize>) -> String {
    let cell = |name: &str| cell(item, name);
    let time = escape(
        item.get("start")
            .and_then(Value::as_str)
            .and_then(|s| s.get(11..19))
            .unwrap_or(""),
    );
    let line = |path: &str| {
        format!(
            "{time} {:<6} {path} {} {} {} {}",
            cell("METHOD"),
            cell("STATUS"),
            cell("DURATION"),
            cell("TUNNEL"),
            cell("ID")
        )
    };
    let path = cell("PATH");
    let full = line(&path);
    let over = width.map_or(0, |w| table::width(&full).saturating_sub(w));
    if over == 0 {
        return full;
    }
    let room = table::width(&path).saturating_sub(over).max(2);
    line(&table::cut(&path, room))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn capture(path: &str) -> Value {
        json!({
            "id": "airt_3MZyHq177NngyQKLJzp36I0CpeR",
            "tunnel_name": "hook (http)",
            "start": "2026-11-25T02:04:59Z",
            "duration": 8_461_531,
            "request": {"method": "POST", "uri": path},
            "response": {"status_code": 200},
        })
    }

    #[test]
    fn a_tail_line_fits_80_columns_with_its_id_whole() {
        let long = capture("/hooks/stripe/events?attempt=1&source=dashboard");
        let line = tail_line(&long, Some(80));
        assert!(table::width(&line) <= 80, "{line}");
        assert!(
            line.ends_with(" airt_3MZyHq177NngyQKLJzp36I0CpeR"),
            "{line}"
        );
        assert!(line.contains(" /hooks/…"), "{line}");
        assert!(line.contains('…'), "{line}");
        // In a pipe, and when it fits, the path is whole.
        assert!(tail_line(&long, None).contains("source=dashboard"));
        assert!(tail_line(&capture("/a"), Some(80)).contains(" /a 200 "));
    }
}
