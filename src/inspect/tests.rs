//! Snapshots of every view at 80x24 and 160x48, on ratatui's test backend: the list, the
//! detail of each body kind (request and response), the filter, the help, the wait for the
//! agent, the empty list, and hostile captures.

use std::io::Write;

use base64::Engine;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use super::model::{handle, Agent, KeyPress, State};
use super::screen::Screen;
use crate::capture::Exchange;

const SIZES: [(u16, u16); 2] = [(80, 24), (160, 48)];

fn capture(
    id: &str,
    second: u32,
    tunnel: &str,
    request: &[u8],
    response: Option<&[u8]>,
    from: &str,
) -> Exchange {
    let raw = serde_json::json!({
        "id": id,
        "start": format!("2026-01-02T10:00:{second:02}Z"),
        "tunnel_name": tunnel,
        "remote_addr": from,
        "duration": 1_500_000 + i64::from(second) * 1_000_000,
        "request": {
            "method": String::from_utf8_lossy(request).split(' ').next().unwrap_or(""),
            "uri": String::from_utf8_lossy(request).split(' ').nth(1).unwrap_or(""),
            "raw": base64::engine::general_purpose::STANDARD.encode(request),
        },
        "response": response.map(|r| serde_json::json!({
            "status_code": String::from_utf8_lossy(r).split(' ').nth(1).and_then(|s| s.parse::<u16>().ok()).unwrap_or(0),
            "raw": base64::engine::general_purpose::STANDARD.encode(r),
        })),
    });
    Exchange::from_json(&raw.to_string()).expect("a capture")
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

const OK_JSON: &[u8] =
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 27\r\n\r\n{\"ok\":true,\"handled\":[1,2]}";

/// The captures every snapshot starts from, oldest first.
fn fixtures() -> Vec<Exchange> {
    let mut gz_response = b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
    gz_response.extend(gzip(
        b"{\"error\":\"upstream exploded\",\"retry\":false,\"after\":null}",
    ));
    let mut png =
        b"POST /upload/avatar HTTP/1.1\r\nHost: hook.test\r\nContent-Type: image/png\r\n\r\n"
            .to_vec();
    png.extend(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00\x1f\xf3\xffa");
    vec![
        capture(
            "airt_json",
            1,
            "hook (http)",
            b"POST /hooks/stripe?n=1 HTTP/1.1\r\nHost: hook.test\r\nContent-Type: application/json\r\nStripe-Signature: t=1,v1=abc\r\n\r\n{\"event\":\"invoice.paid\",\"amount\":4200,\"live\":false,\"customer\":{\"id\":\"cus_1\",\"tags\":[\"a\",\"b\"]}}",
            Some(OK_JSON),
            "10.0.0.1",
        ),
        capture(
            "airt_form",
            2,
            "hook (http)",
            b"POST /login HTTP/1.1\r\nHost: hook.test\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nuser=ann&password=hunter2&next=%2Fhome%3Fa%3D1",
            Some(b"HTTP/1.1 302 Found\r\nLocation: /home\r\n\r\n"),
            "10.0.0.2",
        ),
        capture(
            "airt_xml",
            3,
            "soap",
            b"POST /soap HTTP/1.1\r\nContent-Type: text/xml\r\n\r\n<?xml version=\"1.0\"?><env><body><order id=\"7\"><item>pen</item><item/></order></body></env>",
            Some(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<!DOCTYPE html><html><head><title>Done</title></head><body><p>Thanks<br>bye</p></body></html>"),
            "10.0.0.3",
        ),
        capture(
            "airt_multi",
            4,
            "hook (http)",
            b"POST /upload HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=B0\r\n\r\n--B0\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nholiday\r\n--B0\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01\x02\x03\r\n--B0--\r\n",
            Some(b"HTTP/1.1 201 Created\r\n\r\n"),
            "10.0.0.4",
        ),
        capture("airt_png", 5, "hook", &png, Some(b"HTTP/1.1 413 Payload Too Large\r\n\r\n"), "10.0.0.5"),
        capture(
            "airt_gzip",
            6,
            "hook (http)",
            b"GET /status HTTP/1.1\r\nHost: hook.test\r\nAccept-Encoding: gzip\r\n\r\n",
            Some(&gz_response),
            "replayed",
        ),
        pending(capture(
            "airt_pending",
            7,
            "hook (http)",
            b"DELETE /hooks/slow HTTP/1.1\r\nHost: hook.test\r\n\r\n",
            None,
            "10.0.0.7",
        )),
    ]
}

/// A capture as the agent sends it while it waits for the response: a duration of 0.
fn pending(mut e: Exchange) -> Exchange {
    e.duration = Some(0);
    e
}

fn state_with(captures: Vec<Exchange>) -> State {
    let mut s = State::new("http://127.0.0.1:4040/api");
    s.agent = Agent::Up;
    s.merge(captures.into_iter().rev().collect());
    s
}

fn keys(s: &mut State, keys: &[KeyPress]) {
    for k in keys {
        handle(s, *k);
    }
}

fn typed(s: &mut State, text: &str) {
    for c in text.chars() {
        handle(s, KeyPress::Char(c));
    }
}

/// Draws `s` twice (the first frame tells the state the pane sizes) and returns the screen.
fn screen(s: &mut State, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    let mut view = Screen::new(false);
    term.draw(|f| view.draw(f, s)).unwrap();
    term.draw(|f| view.draw(f, s)).unwrap();
    format!("{}", term.backend())
}

/// Snapshots the state made by `setup` at both sizes.
fn snap(name: &str, setup: impl Fn(&mut State)) {
    for (w, h) in SIZES {
        let mut s = state_with(fixtures());
        s.set_sizes(usize::from(h) / 3, usize::from(h) / 2);
        setup(&mut s);
        let shown = screen(&mut s, w, h);
        assert!(!shown.contains('\x1b'), "no escape reaches the screen");
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), shown);
    }
}

/// Selects the capture with this ID (moving down from the newest).
fn select(s: &mut State, id: &str) {
    keys(s, &[KeyPress::Home]);
    for _ in 0..s.total() {
        if s.selected().is_some_and(|e| e.id == id) {
            return;
        }
        handle(s, KeyPress::Down);
    }
    panic!("{id} not shown");
}

#[test]
fn list() {
    snap("list", |_| {});
}

#[test]
fn detail_request_and_response_of_each_body_kind() {
    for id in ["json", "form", "xml", "multi", "png", "gzip", "pending"] {
        let full = format!("airt_{id}");
        snap(&format!("detail_{id}_request"), |s| {
            select(s, &full);
            keys(s, &[KeyPress::Enter]);
        });
        snap(&format!("detail_{id}_response"), |s| {
            select(s, &full);
            keys(s, &[KeyPress::Enter, KeyPress::Tab]);
        });
    }
}

#[test]
fn a_long_body_scrolls() {
    let mut big = b"POST /bulk HTTP/1.1\r\nContent-Type: text/plain\r\n\r\n".to_vec();
    for i in 0..500 {
        big.extend(format!("line {i}\n").as_bytes());
    }
    for (w, h) in SIZES {
        let mut s = state_with(vec![capture("airt_big", 1, "t", &big, None, "a")]);
        keys(&mut s, &[KeyPress::Enter]);
        screen(&mut s, w, h);
        keys(
            &mut s,
            &[KeyPress::PageDown, KeyPress::PageDown, KeyPress::Down],
        );
        let shown = screen(&mut s, w, h);
        insta::assert_snapshot!(format!("scrolled_{w}x{h}"), shown);
        keys(&mut s, &[KeyPress::End]);
        let end = screen(&mut s, w, h);
        assert!(end.contains("line 499"), "{end}");
    }
}

#[test]
fn filter_active() {
    snap("filter_typing", |s| {
        keys(s, &[KeyPress::Char('/')]);
        typed(s, "method:POST hook");
    });
    snap("filter_kept", |s| {
        keys(s, &[KeyPress::Char('/')]);
        typed(s, "status:5xx");
        keys(s, &[KeyPress::Enter]);
    });
    snap("filter_error", |s| {
        keys(s, &[KeyPress::Char('/')]);
        typed(s, "status:9");
    });
    snap("filter_matches_nothing", |s| {
        keys(s, &[KeyPress::Char('/')]);
        typed(s, "nothing-has-this");
    });
}

#[test]
fn help_confirm_and_messages() {
    snap("help", |s| keys(s, &[KeyPress::Char('?')]));
    snap("confirm_clear", |s| keys(s, &[KeyPress::Char('x')]));
    snap("paused", |s| {
        keys(s, &[KeyPress::Char('p'), KeyPress::Char('j')])
    });
}

#[test]
fn agent_not_running_gone_and_empty() {
    for (w, h) in SIZES {
        let mut s = State::new("http://127.0.0.1:4040/api");
        s.agent = Agent::Waiting(Some(
            "could not connect to http://127.0.0.1:4040/api: connection refused".into(),
        ));
        insta::assert_snapshot!(format!("agent_not_running_{w}x{h}"), screen(&mut s, w, h));
        let mut empty = State::new("http://127.0.0.1:4040/api");
        empty.agent = Agent::Up;
        insta::assert_snapshot!(format!("empty_{w}x{h}"), screen(&mut empty, w, h));
        let mut gone = state_with(fixtures());
        gone.agent = Agent::Gone("connection refused".into());
        insta::assert_snapshot!(format!("agent_gone_{w}x{h}"), screen(&mut gone, w, h));
    }
}

#[test]
fn hostile_captures() {
    let mut req = b"POST /\x1b[2J\x1b]52;c;aGk=\x07/\xe2\x80\xaeevil HTTP/1.1\r\nX-\x1b[31mRed: \x1b]0;title\x07 \xe2\x80\x8bzero\r\nContent-Type: text/plain\r\n\r\n".to_vec();
    req.extend(b"body \x1b[?1049h \xc2\x9b31m \xe2\x81\xa6bidi\r\n");
    req.extend(std::iter::repeat_n(b'W', 5000));
    req.extend(b"\r\n\xe2\x80\xaeend");
    let hostile = vec![capture(
        "airt_\u{202e}x",
        1,
        "t\x1b[1m (http)",
        &req,
        Some(b"HTTP/1.1 200 \x1b[2JOK\r\nX-\xe2\x80\xae: v\r\n\r\n\x1b]52;c;Zm9v\x07"),
        "1.2.3.4",
    )];
    let mut s = state_with(hostile);
    for (w, h) in SIZES {
        let list = screen(&mut s, w, h);
        keys(&mut s, &[KeyPress::Enter]);
        let request = screen(&mut s, w, h);
        keys(&mut s, &[KeyPress::Tab]);
        let response = screen(&mut s, w, h);
        keys(&mut s, &[KeyPress::Tab, KeyPress::Enter]);
        for (name, shown) in [
            ("list", &list),
            ("request", &request),
            ("response", &response),
        ] {
            for bad in ['\x1b', '\x07', '\u{9b}', '\u{202e}', '\u{200b}', '\u{2066}'] {
                assert!(!shown.contains(bad), "{name} shows {bad:?} raw:\n{shown}");
            }
            insta::assert_snapshot!(format!("hostile_{name}_{w}x{h}"), shown);
        }
        assert!(request.contains("\\x1b[2J"), "{request}");
    }
}

#[test]
fn colour_only_when_allowed() {
    let fg_cells = |color: bool| {
        let mut s = state_with(fixtures());
        let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
        let mut view = Screen::new(color);
        term.draw(|f| view.draw(f, &mut s)).unwrap();
        term.draw(|f| view.draw(f, &mut s)).unwrap();
        term.backend()
            .buffer()
            .content()
            .iter()
            .filter(|c| c.fg != ratatui::style::Color::Reset)
            .count()
    };
    assert!(fg_cells(true) > 0, "statuses and bodies are coloured");
    assert_eq!(fg_cells(false), 0, "NO_COLOR: no colour at all");
}

#[test]
fn a_response_that_arrives_replaces_pending_in_the_open_detail() {
    let request = b"POST /hooks/late HTTP/1.1\r\nHost: hook.test\r\n\r\n";
    let mut s = State::new("http://127.0.0.1:4040/api");
    s.merge(vec![capture("airt_late", 1, "t", request, None, "1.2.3.4")]);
    handle(&mut s, KeyPress::Tab);
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let mut view = Screen::new(false);
    term.draw(|f| view.draw(f, &mut s)).unwrap();
    assert!(!format!("{}", term.backend()).contains("200 OK"));
    s.merge(vec![capture(
        "airt_late",
        1,
        "t",
        request,
        Some(OK_JSON),
        "1.2.3.4",
    )]);
    term.draw(|f| view.draw(f, &mut s)).unwrap();
    let shown = format!("{}", term.backend());
    assert!(shown.contains("HTTP/1.1 200 OK"), "{shown}");
}
