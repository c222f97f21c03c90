//! How the command line shows captured exchanges: `get` (decoded for a person, raw bytes, a
//! curl command line, or the agent's JSON), a `tail` line, the outcome of a replay, and the
//! requests `tunnelctl` sent itself (a replay with changes, `send`), shown as `get` shows a
//! capture. Everything a visitor chose is escaped; it prints through the printer's generic
//! calls (objects, lists, lines, bytes, notes).

use std::io::Write;

use serde_json::Value;

use super::body::decoded_body;
use super::body_room::{self, BodyRoom};
use super::curl;
use super::exchange::Exchange;
use super::message::{more_headers_note, Message};
use super::replay::Sent;
use super::streamed::Streamed;
use crate::error::{Error, Result};
use crate::escape::{self, escape, escape_multiline};
use crate::output::columns::{self, CAPTURED_REQUEST};
use crate::output::table;
use crate::output::time::{human_duration, human_time};
use crate::output::{json, Format, ListSink, Printer};
use crate::signature::Check;

/// Longest body shown in full in the human view.
pub const SHOWN_BODY: usize = 64 * 1024;

/// How `local requests get` shows a captured exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GetAs {
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
    /// The body of the request, or of the response, its `Content-Encoding` undone.
    Body {
        /// The response's body instead of the request's.
        response: bool,
        /// Write bytes that could act on a terminal to one anyway.
        force: bool,
    },
}

/// Shows one captured exchange as `how` asks and the printer decides; the decoded view for
/// people with the `signature` check it makes (asked only then: JSON stays the agent's).
pub fn get(
    p: &Printer,
    captured: &Exchange,
    how: GetAs,
    signature: impl FnOnce() -> Result<Option<Check>>,
) -> Result<()> {
    match how {
        GetAs::Raw { response, force } => {
            let part = if response { "response" } else { "request" };
            raw(p, part, captured.raw(response)?, force)
        }
        GetAs::Body { response, force } => body_only(p, captured, response, force),
        GetAs::Curl => p.line(&on_screen(p, &curl::command(captured)?)),
        GetAs::Decoded if p.jq.is_some() => p.object(&CAPTURED_REQUEST, &captured.to_value()),
        GetAs::Decoded if p.is_json() => {
            let mut out = p.writer();
            capture_json(p, &mut out, captured)?;
            out.flush()?;
            Ok(())
        }
        GetAs::Decoded => {
            // On a terminal each body gets about a screenful; a pipe gets the view whole.
            let screen = p
                .tty
                .then(|| BodyRoom::for_terminal(p.streams.width(), p.streams.height()));
            p.bytes(render_for(captured, signature()?.as_ref(), screen).as_bytes())
        }
    }
}

/// `get --body-only`: the body alone, decoded, as bytes (to a terminal only when they cannot
/// act on it, unless `force`, as [`raw`] writes); a body that could not be decoded is written
/// as sent, and said.
fn body_only(p: &Printer, captured: &Exchange, response: bool, force: bool) -> Result<()> {
    let msg = if response {
        captured.response_message().ok_or_else(|| {
            Error::BadResponse(format!(
                "the request {} has no response yet (pending)",
                escape(&captured.id)
            ))
        })?
    } else {
        captured.request_message()
    };
    let (body, said) = decoded_body(&msg);
    if let (std::borrow::Cow::Borrowed(_), Some(said)) = (&body, said) {
        p.note(&said);
    }
    let part = if response { "response" } else { "request" };
    guarded(
        p,
        &format!("the {part} body"),
        "redirect it to a file (--body-only > body.bin) or a pipe",
        &body,
        force,
    )
}

/// Text of captured traffic as it may be shown: on a terminal, with every secret of the
/// user's hidden (their API key in a request their own app sent through the tunnel); in a
/// pipe or a file, exact, as the machine output it is.
fn on_screen<'t>(p: &Printer, text: &'t str) -> std::borrow::Cow<'t, str> {
    if p.tty {
        crate::secrets::redact_known(text)
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Writes a capture's JSON (`--json`, `-o ndjson`) from the agent's text as it is read, never
/// as a value tree, masked as the printer masks any object; one line with `-o ndjson`.
fn capture_json(p: &Printer, out: &mut impl Write, captured: &Exchange) -> Result<()> {
    let masked = (!p.show_secrets).then_some(p.secret_fields);
    let value = Streamed::new(captured.json().unwrap_or("{}"), masked);
    match p.format {
        Format::Ndjson if p.tty => json::write_compact_safe(out, &value)?,
        Format::Ndjson => json::write(out, &value, false)?,
        _ => json::write(out, &value, p.tty)?,
    }
    out.write_all(b"\n")?;
    Ok(())
}

/// `Signature: Stripe, expired (signature matches, but …)`: a captured request's check for a
/// person, one line.
pub fn signature_line(check: &Check) -> String {
    let by = check.provider.map_or("none", |p| p.title());
    format!(
        "Signature: {by}, {} ({})\n",
        check.result,
        escape(&check.detail)
    )
}

/// Writes the raw bytes of an HTTP message (`part`: request or response) to stdout, through
/// [`guarded`].
pub fn raw(p: &Printer, part: &str, bytes: &[u8], force: bool) -> Result<()> {
    guarded(
        p,
        &format!("the raw {part}"),
        &format!("redirect it to a file (--raw > {part}.http) or a pipe"),
        bytes,
        force,
    )
}

/// Writes `bytes` (`what` they are, for the refusal) to stdout as they are. As curl does
/// with binary output: bytes a visitor chose could drive the terminal (escape sequences,
/// OSC 52 to the clipboard), so they go only to a file or a pipe unless `force` (the refusal
/// says what to do `instead`); plain text is shown as it is, the user's known secrets
/// hidden.
pub fn guarded(p: &Printer, what: &str, instead: &str, bytes: &[u8], force: bool) -> Result<()> {
    if p.tty && !force && !escape::is_terminal_safe(bytes) {
        return Err(Error::usage(format!(
            "{what} holds control characters or binary data that would act on your \
             terminal; {instead}, or add --force to write it here anyway"
        )));
    }
    if p.tty {
        return p.bytes(&crate::secrets::redact_known_bytes(bytes));
    }
    p.bytes(bytes)
}

/// One request `tail` follows: a line for a person, or its JSON on one line.
pub fn tail_item(p: &Printer, out: &mut impl Write, item: &Exchange) -> Result<()> {
    if p.is_json() {
        let mut one_line = p.clone();
        one_line.format = Format::Ndjson;
        return capture_json(&one_line, out, item);
    }
    let width = p.tty.then(|| usize::from(p.streams.width()));
    writeln!(out, "{}", tail_line(&item.summary(), width))?;
    Ok(())
}

/// The outcome of an unchanged replay: the new exchange the agent captured (its JSON for
/// machine output; for people a line on stderr with its ID, status and duration), or a note
/// that it has not been captured yet.
pub fn replayed(p: &Printer, original: &str, capture: Option<&Exchange>) -> Result<()> {
    let Some(capture) = capture else {
        p.note(&format!(
            "Replayed {}; the agent has not captured the new exchange yet (see 'tunnelctl local requests list')",
            escape(original)
        ));
        return Ok(());
    };
    if p.jq.is_some() {
        return p.object(&CAPTURED_REQUEST, &capture.to_value());
    }
    if p.is_json() {
        let mut out = p.writer();
        capture_json(p, &mut out, capture)?;
        out.flush()?;
        return Ok(());
    }
    let value = capture.summary();
    p.note(&format!(
        "Replayed {} as {}: {} in {}",
        escape(original),
        cell(&value, "ID"),
        cell(&value, "STATUS"),
        cell(&value, "DURATION")
    ));
    Ok(())
}

/// The text of a captured request's column `name`, as tables show it.
fn cell(item: &Value, name: &str) -> String {
    CAPTURED_REQUEST
        .columns
        .iter()
        .find(|c| c.header == name)
        .map(|c| columns::render(c, item, true))
        .unwrap_or_default()
}

/// time, method, path, status, duration, tunnel, and the request's ID (for `requests get`).
/// In a pipe, each whole, one after the other. On a terminal of `width` columns, in columns
/// of a width fixed by the terminal's, so that they stand one under the other from line to
/// line ([`tail_columns`]).
fn tail_line(item: &Value, width: Option<usize>) -> String {
    let cell = |name: &str| cell(item, name);
    let time = escape(
        item.get("start")
            .and_then(Value::as_str)
            .and_then(|s| s.get(11..19))
            .unwrap_or(""),
    );
    match width {
        Some(width) => tail_columns(&time, &cell, width),
        None => format!(
            "{time} {:<6} {} {} {} {} {}",
            cell("METHOD"),
            cell("PATH"),
            cell("STATUS"),
            cell("DURATION"),
            cell("TUNNEL"),
            cell("ID")
        ),
    }
}

/// Below this many columns a tail line leaves out the duration, and below
/// [`TAIL_WITH_TUNNEL`] the tunnel: the path, the most useful column, keeps the room.
const TAIL_WITH_DURATION: usize = 90;
/// See [`TAIL_WITH_DURATION`].
const TAIL_WITH_TUNNEL: usize = 120;

/// A tail line for a terminal `width` columns wide: time, method, status (and the duration
/// when there is room), the path cut with `…` and padded to the room the others leave, then
/// the ID, whole (it ends the line for copying; the tunnel follows it on a wide terminal).
fn tail_columns(time: &str, cell: &dyn Fn(&str) -> String, width: usize) -> String {
    let mut head = format!(
        "{time:<8} {:<7} {:<7}",
        // Whole, even an odd one (escaped): the room is taken from the path.
        cell("METHOD"),
        // As wide as "pending", an answer not come yet.
        fit(&cell("STATUS"), 7)
    );
    if width >= TAIL_WITH_DURATION {
        head.push_str(&format!(" {:>8}", cell("DURATION")));
    }
    let mut end = format!(" {}", cell("ID"));
    if width >= TAIL_WITH_TUNNEL {
        end.push_str(&format!(" {}", cell("TUNNEL")));
    }
    let room = width
        .saturating_sub(table::width(&head) + 1 + table::width(&end))
        .max(8);
    let path = fit(&cell("PATH"), room);
    let pad = " ".repeat(room.saturating_sub(table::width(&path)));
    format!("{head} {path}{pad}{end}")
}

/// `s` whole when it fits `w` columns, else cut with `…`.
fn fit(s: &str, w: usize) -> String {
    if table::width(s) <= w {
        s.to_string()
    } else {
        table::cut(s, w)
    }
}

/// Does this look like text a terminal can show?
fn is_text(body: &[u8]) -> bool {
    match std::str::from_utf8(body) {
        Ok(s) => !s.chars().any(|c| c == '\0'),
        Err(e) => {
            e.valid_up_to() > 0
                && body.len() - e.valid_up_to() < 4
                && !body[..e.valid_up_to()].contains(&0)
        }
    }
}

/// A body as a person reads it, its `Content-Encoding` (gzip, deflate) undone.
pub fn render_body(msg: &Message) -> String {
    shown_body(msg, None).text
}

/// A body as a person reads it: on a terminal (`screen`) cut to about a screenful (JSON
/// pretty-printed whatever its size), with the size of what was decoded.
fn shown_body(msg: &Message, screen: Option<BodyRoom>) -> ShownBody {
    if msg.body.is_empty() {
        return ShownBody::default();
    }
    let (body, said) = decoded_body(msg);
    let mut shown = match screen {
        Some(screen) if is_text(&body) => fit_body(msg, &body, screen),
        _ => ShownBody {
            text: render_plain_body(msg, &body),
            left_out: 0,
            bytes: 0,
        },
    };
    shown.bytes = body.len();
    if let Some(said) = said {
        shown.text = format!("{said}\n{}", shown.text);
    }
    shown
}

/// A body laid out for a person, and what was left out of it for the screen.
#[derive(Debug, Default)]
struct ShownBody {
    text: String,
    /// Lines not shown (0: all of it is shown).
    left_out: usize,
    /// The size of the body, decoded.
    bytes: usize,
}

/// A text body on a terminal: JSON pretty-printed, then cut to the screen.
fn fit_body(msg: &Message, body: &[u8], screen: BodyRoom) -> ShownBody {
    let text = String::from_utf8_lossy(body);
    let pretty = pretty_json(msg, &text, body, usize::MAX);
    let fitted = body_room::cut_to(pretty.as_deref().unwrap_or(&text), screen);
    ShownBody {
        text: fitted.text,
        left_out: fitted.left_out,
        bytes: 0,
    }
}

/// The body pretty-printed, when it is JSON and the result is no longer than `limit`.
fn pretty_json(msg: &Message, text: &str, body: &[u8], limit: usize) -> Option<String> {
    let ctype = msg.header("content-type").unwrap_or("");
    if !(ctype.contains("json") || text.trim_start().starts_with(['{', '['])) {
        return None;
    }
    let value = serde_json::from_slice::<Value>(body).ok()?;
    serde_json::to_string_pretty(&value)
        .ok()
        .filter(|pretty| pretty.len() <= limit)
}

/// What `get` says under a body cut for the screen: how much is left, how to see it all.
fn left_out_note(shown: &ShownBody, flag: &str) -> String {
    format!(
        "… {} more lines not shown ({} bytes in all); see all of it with\n  \
         --body-only{flag} (the body alone), --raw{flag} (the message)\n  \
         or 'tunnelctl local inspect'.\n",
        shown.left_out, shown.bytes
    )
}

fn render_plain_body(msg: &Message, body: &[u8]) -> String {
    let ctype = msg.header("content-type").unwrap_or("");
    if !is_text(body) {
        let what = if ctype.is_empty() {
            String::new()
        } else {
            format!(", {}", escape(ctype))
        };
        return format!(
            "(binary body: {} bytes{what}; use --raw to save it)",
            body.len()
        );
    }
    let text = String::from_utf8_lossy(body);
    if let Some(pretty) = pretty_json(msg, &text, body, SHOWN_BODY * 2) {
        return escape_multiline(&pretty);
    }
    if text.len() > SHOWN_BODY {
        let mut cut = SHOWN_BODY;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        return format!(
            "{}\n… ({} more bytes; {} in all; use --raw to see everything)",
            escape_multiline(&text[..cut]),
            text.len() - cut,
            text.len()
        );
    }
    escape_multiline(&text)
}

/// One message as `get` shows it: the start line and headers after `arrow` (`>` or `<`), then
/// the body as a person reads it; on a terminal cut to about a screenful, followed by the
/// note saying how to see the rest (`get`'s flags for this part end in `flag`).
fn render_message(out: &mut String, msg: &Message, arrow: &str, fit: Option<(BodyRoom, &str)>) {
    out.push_str(&format!("{arrow} {}\n", escape(&msg.start_line)));
    for (k, v) in &msg.headers {
        out.push_str(&format!("{arrow} {}: {}\n", escape(k), escape(v)));
    }
    if msg.more_headers > 0 {
        out.push_str(&format!(
            "{arrow} {}\n",
            more_headers_note(msg.more_headers)
        ));
    }
    let body = shown_body(msg, fit.map(|(screen, _)| screen));
    if !body.text.is_empty() {
        out.push('\n');
        out.push_str(&body.text);
        out.push('\n');
    }
    if let Some((_, flag)) = fit.filter(|_| body.left_out > 0) {
        out.push_str(&left_out_note(&body, flag));
    }
}

/// The whole exchange of a captured request, for `local requests get` in a pipe: every body
/// as [`render_body`] lays it out.
pub fn render(captured: &Exchange, signature: Option<&Check>) -> String {
    render_for(captured, signature, None)
}

/// The whole exchange of a captured request, for `local requests get`: each body cut to
/// `screen` when on a terminal.
pub fn render_for(
    captured: &Exchange,
    signature: Option<&Check>,
    screen: Option<BodyRoom>,
) -> String {
    let mut out = String::new();
    let when = captured.start.as_str();
    let ago = human_time(when)
        .map(|h| format!(" ({h})"))
        .unwrap_or_default();
    out.push_str(&format!(
        "request {}  tunnel {}  from {}\n",
        escape(&captured.id),
        escape(&captured.tunnel),
        escape(&captured.remote_addr)
    ));
    let took = captured
        .duration
        .map(|d| format!("  took {}", human_duration(d)))
        .unwrap_or_default();
    out.push_str(&format!("at {}{ago}{took}\n", escape(when)));
    // Under the "at" line: what the handler will think of the request, before it.
    if let Some(check) = signature {
        out.push_str(&signature_line(check));
    }
    out.push('\n');
    render_message(
        &mut out,
        &captured.request_message(),
        ">",
        screen.map(|s| (s, "")),
    );
    out.push('\n');
    match captured.response_message() {
        Some(msg) => render_message(&mut out, &msg, "<", screen.map(|s| (s, " --response"))),
        None => out.push_str("< (pending: the local server has not answered yet)\n"),
    }
    out
}

/// A sent request for a person: where it went, the request sent, the answer.
fn render_sent(sent: &Sent, source: &str) -> String {
    let took = i64::try_from(sent.took().as_nanos()).unwrap_or(i64::MAX);
    let mut out = format!(
        "sent {} to {}  took {}\n\n",
        escape(source),
        escape(sent.url.as_str()),
        human_duration(took)
    );
    render_message(&mut out, &sent.request, ">", None);
    out.push('\n');
    render_message(
        &mut out,
        &Message::lenient(&sent.response_bytes()),
        "<",
        None,
    );
    out
}

/// A sent request on one line: status, method and path, where the request came from.
fn sent_line(sent: &Sent, source: &str) -> String {
    format!(
        "{}  {} {}  {}",
        escape(&sent.status_text()),
        escape(sent.request.method()),
        escape(sent.request.target().unwrap_or("")),
        escape(source)
    )
}

/// Shows one sent request and its answer: as `get` shows an exchange, or its JSON.
pub fn sent(p: &Printer, sent: &Sent, source: &str) -> Result<()> {
    if p.is_json() || p.jq.is_some() {
        return p.object(&CAPTURED_REQUEST, &sent.to_json(source));
    }
    let text = render_sent(sent, source);
    // Its first line names a URL of any length: on a terminal too narrow for it, `took …`
    // goes on the next line (the terminal broke it inside the word).
    let text = match text.split_once('\n') {
        Some((first, rest)) if p.folded_for_stdout(first) != first => {
            format!("{}\n{rest}", first.replacen("  took ", "\n  took ", 1))
        }
        _ => text,
    };
    p.bytes(text.as_bytes())
}

/// Where several sent requests are written as they come: a line each, or a JSON list.
pub struct SentList {
    sink: Option<ListSink>,
    printer: Printer,
}

impl SentList {
    /// Starts the list.
    pub fn start(p: &Printer) -> Result<SentList> {
        let machine = p.is_json() || p.jq.is_some();
        Ok(SentList {
            sink: if machine {
                Some(p.list(&CAPTURED_REQUEST)?)
            } else {
                None
            },
            printer: p.clone(),
        })
    }

    /// Writes one sent request.
    pub fn push(&mut self, sent: &Sent, source: &str) -> Result<()> {
        match &mut self.sink {
            Some(sink) => sink.push(sent.to_json(source)),
            None => self
                .printer
                .line(&self.printer.folded_for_stdout(&sent_line(sent, source))),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::message::encode_base64 as b64;
    use serde_json::json;

    fn exchange(v: Value) -> Exchange {
        Exchange::from_json(&v.to_string()).unwrap()
    }

    #[test]
    fn renders_json_binary_and_pending() {
        let c = exchange(json!({
            "id": "airt_1", "tunnel_name": "t1 (http)", "remote_addr": "127.0.0.1", "start": "2026-01-01T00:00:00Z", "duration": 1_500_000,
            "request": {"raw": b64(b"POST /hook HTTP/1.1\r\nContent-Type: application/json\r\nX-Evil: \x1b[2J\r\n\r\n{\"a\":1}")},
            "response": null
        }));
        let text = render(&c, None);
        assert!(text.contains("> POST /hook HTTP/1.1"));
        assert!(text.contains("\"a\": 1"), "{text}");
        assert!(text.contains("\\x1b[2J"));
        assert!(!text.contains('\x1b'));
        assert!(text.contains("pending"));
        assert!(text.contains("1.5 ms"));
        let bin = Message::lenient(
            b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG\x00\x01\x02",
        );
        assert!(render_body(&bin).starts_with("(binary body: 7 bytes, image/png"));
    }

    #[test]
    fn a_header_bomb_shows_as_a_count() {
        let mut raw = b"GET / HTTP/1.1\r\nHost: h.test\r\n".to_vec();
        for i in 0..1000 {
            raw.extend_from_slice(format!("x{i}: v\r\n").as_bytes());
        }
        raw.extend_from_slice(b"\r\n");
        let c = exchange(json!({"id": "airt_1", "request": {"raw": b64(&raw)}}));
        let text = render(&c, None);
        let more = 1001 - super::super::message::MAX_HEADER_LINES;
        assert!(
            text.contains(&format!("> … {more} more header lines\n")),
            "{text}"
        );
        assert!(text.lines().count() < 300);
        let line = curl::command(&c).unwrap();
        assert!(
            line.starts_with(&format!("# … {more} more header lines left out")),
            "{line}"
        );
    }

    #[test]
    fn long_bodies_are_cut() {
        let mut raw = b"POST / HTTP/1.1\r\n\r\n".to_vec();
        raw.extend(std::iter::repeat_n(b'a', 5 * 1024 * 1024));
        let shown = render_body(&Message::lenient(&raw));
        assert!(shown.len() < SHOWN_BODY + 200);
        assert!(shown.contains("more bytes"));
    }

    #[test]
    fn sent_requests_are_shown_like_an_exchange_and_escaped() {
        let sent = Sent {
            url: url::Url::parse("http://localhost:8080/h").unwrap(),
            request: Message::parse_request(
                b"POST /h HTTP/1.1\r\nX-E: \x1b[2J\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
            )
            .unwrap(),
            answer: crate::http::raw::RawAnswer {
                status: 201,
                version: "HTTP/1.1".into(),
                headers: vec![("content-type".into(), "text/plain".into())],
                body: b"ok \x07".to_vec(),
                took: std::time::Duration::from_millis(2),
            },
        };
        let text = render_sent(&sent, "airt_1");
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
        assert_eq!(sent_line(&sent, "airt_1"), "201 Created  POST /h  airt_1");
    }
}

#[cfg(test)]
mod tail_tests {
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
        assert!(line.contains(" /hooks/stripe/"), "{line}");
        assert!(line.contains('…'), "{line}");
        // In a pipe, and when it fits, the path is whole.
        assert!(tail_line(&long, None).contains("source=dashboard"));
        let short = tail_line(&capture("/a"), Some(80));
        assert!(short.contains(" 200     /a "), "{short:?}");
    }

    /// At 80 columns the path keeps most of the line (issue 33: the path was cut to
    /// `/hooks/…`), and the columns stand one under the other whatever each line holds.
    #[test]
    fn tail_columns_stay_put_and_the_path_keeps_the_room() {
        let mut slow = capture("/hooks/stripe/events?attempt=1&source=dashboard");
        slow["duration"] = json!(12_345_678_901_i64);
        slow["request"]["method"] = json!("DELETE");
        let mut pending = capture("/x");
        pending["response"] = Value::Null;
        for width in [80, 100, 140] {
            let lines: Vec<String> = [capture("/a"), slow.clone(), pending.clone()]
                .iter()
                .map(|c| tail_line(c, Some(width)))
                .collect();
            let id_at: Vec<usize> = lines
                .iter()
                .map(|l| table::width(&l[..l.find("airt_").unwrap()]))
                .collect();
            assert!(id_at.iter().all(|&a| a == id_at[0]), "{lines:#?}");
            assert!(lines.iter().all(|l| table::width(l) <= width), "{lines:#?}");
            assert!(lines[1].contains("/hooks/stripe/events"), "{lines:#?}");
            assert_eq!(lines[0].contains("hook (http)"), width >= TAIL_WITH_TUNNEL);
        }
    }
}
