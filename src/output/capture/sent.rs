//! Requests `tunnelctl` sent itself (a replay with changes, `local requests send`) and what
//! came back, shown as `get` shows a captured exchange: the same JSON shape (`request`,
//! `response`, each with `raw` bytes), and for a person the same `>`/`<` lines, decoded and
//! escaped. Several sent requests are one line each.

use serde_json::Value;

use super::exchange::{human_duration, message_of, render_message};
use crate::error::Result;
use crate::escape::escape;
use crate::output::columns::CAPTURED_REQUEST;
use crate::output::{ListSink, Printer};

/// The exchange for a person: where it went, the request sent, the answer.
pub fn render(sent: &Value) -> String {
    let s = |k: &str| sent.get(k).and_then(Value::as_str).unwrap_or("");
    let took = sent
        .get("duration")
        .and_then(Value::as_i64)
        .map(|d| format!("  took {}", human_duration(d)))
        .unwrap_or_default();
    let mut out = format!(
        "sent {} to {}{took}\n\n",
        escape(s("source")),
        escape(s("url"))
    );
    let req = message_of(sent.get("request").unwrap_or(&Value::Null), true);
    render_message(&mut out, &req, ">");
    out.push('\n');
    let resp = message_of(sent.get("response").unwrap_or(&Value::Null), false);
    render_message(&mut out, &resp, "<");
    out
}

/// One line: status, method and path, where the request came from.
pub fn line(sent: &Value) -> String {
    let at = |p: &str| sent.pointer(p).and_then(Value::as_str).unwrap_or("");
    format!(
        "{}  {} {}  {}",
        escape(at("/response/status")),
        escape(at("/request/method")),
        escape(at("/request/uri")),
        escape(at("/source"))
    )
}

/// Where several sent requests are written as they come.
pub struct SentList {
    sink: Option<ListSink>,
    opts: Printer,
}

impl SentList {
    /// Writes one sent request.
    pub fn push(&mut self, sent: Value) -> Result<()> {
        match &mut self.sink {
            Some(sink) => sink.push(sent),
            None => self.opts.line(&line(&sent)),
        }
    }

    /// Ends the list.
    pub fn finish(self) -> Result<()> {
        if let Some(sink) = self.sink {
            sink.finish()?;
        }
        Ok(())
    }
}

impl Printer {
    /// Shows one sent request and its answer: as `get` shows an exchange, or its JSON.
    pub fn sent(&self, sent: &Value) -> Result<()> {
        if self.is_json() || self.jq.is_some() {
            return self.object(&CAPTURED_REQUEST, sent);
        }
        self.bytes(render(sent).as_bytes())
    }

    /// Starts writing several sent requests: a line each, or a JSON list.
    pub fn sent_list(&self) -> Result<SentList> {
        let machine = self.is_json() || self.jq.is_some();
        Ok(SentList {
            sink: if machine {
                Some(self.list(&CAPTURED_REQUEST)?)
            } else {
                None
            },
            opts: self.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use serde_json::json;

    fn b64(b: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(b)
    }

    #[test]
    fn shown_like_an_exchange_and_escaped() {
        let sent = json!({
            "source": "airt_1", "url": "http://localhost:8080/h", "duration": 2_000_000,
            "request": {"method": "POST", "uri": "/h", "raw": b64(b"POST /h HTTP/1.1\r\nX-E: \x1b[2J\r\nContent-Length: 7\r\n\r\n{\"a\":1}")},
            "response": {"status": "201 Created", "status_code": 201, "raw": b64(b"HTTP/1.1 201 Created\r\ncontent-type: text/plain\r\n\r\nok \x07")}
        });
        let text = render(&sent);
        assert!(
            text.starts_with("sent airt_1 to http://localhost:8080/h  took 2.0 ms"),
            "{text}"
        );
        assert!(
            text.contains("> POST /h HTTP/1.1") && text.contains("\"a\": 1"),
            "{text}"
        );
        assert!(
            text.contains("< HTTP/1.1 201 Created") && text.contains("ok \\x07"),
            "{text}"
        );
        assert!(!text.contains('\x1b') && !text.contains('\x07'));
        assert_eq!(line(&sent), "201 Created  POST /h  airt_1");
    }
}
