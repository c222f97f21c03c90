//! Snapshot tests of what a person sees: every list table and every detail view, at 80 and
//! 160 columns, with realistic and with hostile data (`tests/common/fixtures.rs`), written
//! through the library's [`Printer`] on memory streams that play a terminal (the path a real
//! terminal takes). "Now" is pinned, so relative times do not move.

use serde_json::Value;
use tunnelctl::output::columns::{self, Kind};
use tunnelctl::output::table::{self, width};
use tunnelctl::output::{Captured, Format, OutputFlags, Printer, Streams};

use crate::common::fixtures::{self, ECHOED_SECRET, NOW};

/// A printer on a terminal of `columns`, colour off, and what it wrote.
fn terminal(columns: u16) -> (Printer, Captured) {
    let (streams, captured) = Streams::memory(true, columns);
    let asked = OutputFlags {
        no_color: true,
        ..OutputFlags::default()
    };
    (
        Printer::resolve(&asked, streams).expect("a printer"),
        captured,
    )
}

/// The list of `items` as a table, with what went to stderr.
fn list_screen(kind: &'static Kind, items: &[Value], columns: u16) -> String {
    let (printer, captured) = terminal(columns);
    let mut sink = printer.list(kind).expect("a list");
    for item in items {
        sink.push_raw(&item.to_string()).expect("an item");
    }
    sink.finish().expect("the end");
    screen(&format!("list at {columns} columns"), &captured)
}

/// The detail view of each of `items`.
fn detail_screens(kind: &'static Kind, items: &[Value], columns: u16) -> String {
    items
        .iter()
        .map(|item| {
            let (printer, captured) = terminal(columns);
            printer.object(kind, item).expect("a detail view");
            screen(&format!("get at {columns} columns"), &captured)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn screen(title: &str, captured: &Captured) -> String {
    let (out, err) = (captured.stdout(), captured.stderr());
    let mut text = format!("--- {title} ---\n{out}");
    if !err.is_empty() {
        text.push_str(&format!("--- stderr ---\n{err}"));
    }
    text
}

/// What a person sees must be safe and fitted, whatever the data: no character a terminal
/// acts on, no secret, and (the essential columns of the hostile sets aside) no line wider
/// than the terminal.
fn check(text: &str, columns: u16, fitted: bool) {
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "a control character reached the terminal:\n{text}"
    );
    assert!(
        !text
            .chars()
            .any(|c| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}')),
        "a bidi or invisible character reached the terminal:\n{text}"
    );
    assert!(!text.contains(ECHOED_SECRET), "a secret was shown:\n{text}");
    if fitted {
        for line in text.lines() {
            assert!(width(line) <= usize::from(columns), "{columns}: {line}");
        }
    }
}

/// Every kind that has a list command, with its fixtures.
fn listed() -> Vec<Case> {
    vec![
        (
            "sessions",
            tunnelctl::api::sessions::RESOURCE.kind,
            fixtures::sessions,
        ),
        (
            "ip_policies",
            tunnelctl::api::ip_policies::RESOURCE.kind,
            fixtures::ip_policies,
        ),
        (
            "backends",
            tunnelctl::api::backends::RESOURCE.kind,
            fixtures::backends,
        ),
        (
            "event_destinations",
            tunnelctl::api::event_destinations::RESOURCE.kind,
            fixtures::event_destinations,
        ),
        (
            "event_subscriptions",
            tunnelctl::api::event_subscriptions::RESOURCE.kind,
            fixtures::event_subscriptions,
        ),
        (
            "event_sources",
            &columns::EVENT_SOURCE,
            fixtures::event_sources,
        ),
        ("tunnels", &columns::TUNNEL, fixtures::tunnels),
        (
            "captured_requests",
            &columns::CAPTURED_REQUEST,
            fixtures::captured_requests,
        ),
    ]
}

/// Every kind a `get` (or `create`, `update`, `set`) shows as a detail view. Captured
/// requests have a view of their own (`output/capture`).
fn detailed() -> Vec<Case> {
    let mut kinds: Vec<_> = listed()
        .into_iter()
        .filter(|(name, _, _)| *name != "captured_requests")
        .collect();
    kinds.push((
        "tls_termination",
        &columns::TLS_TERMINATION,
        fixtures::tls_termination,
    ));
    kinds
}

/// A kind, its name in snapshot names, and its fixtures.
type Case = (&'static str, &'static Kind, fn(bool) -> Vec<Value>);

/// Snapshots `show` of every case, realistic and hostile, at 80 and 160 columns, at [`NOW`];
/// `fitted` says whether realistic data must fit the width.
fn snapshot_all(what: &str, cases: Vec<Case>, show: ScreenFn, fitted: bool) {
    tunnelctl::output::time::with_now(NOW, || {
        for (name, kind, items) in cases {
            for hostile in [false, true] {
                for columns in [80, 160] {
                    let text = show(kind, &items(hostile), columns);
                    check(&text, columns, fitted && !hostile);
                    let data = if hostile { "hostile" } else { "realistic" };
                    insta::assert_snapshot!(format!("{what}_{name}_{data}_{columns}"), text);
                }
            }
        }
    });
}

/// How one screen is produced from a kind, its items and a width.
type ScreenFn = fn(&'static Kind, &[Value], u16) -> String;

#[test]
fn tables() {
    snapshot_all("table", listed(), list_screen, true);
}

#[test]
fn detail_views() {
    snapshot_all("detail", detailed(), detail_screens, false);
}

#[test]
fn a_streamed_table_follows_the_same_rules() {
    let rows = table::STREAM_AFTER + 500;
    let sessions = fixtures::sessions(false);
    let (printer, captured) = terminal(80);
    let mut sink = printer
        .list(tunnelctl::api::sessions::RESOURCE.kind)
        .expect("a list");
    for i in 0..rows {
        sink.push(sessions[i % sessions.len()].clone())
            .expect("an item");
    }
    sink.finish().expect("the end");
    let out = captured.stdout();
    assert_eq!(
        out.lines().count(),
        rows + 1,
        "a header and one line per row"
    );
    let header = out.lines().next().unwrap_or_default();
    assert!(header.starts_with("ID  "), "{header}");
    let started = header.find("STARTED").expect("STARTED shown");
    for line in out.lines() {
        assert!(width(line) <= 80, "{line}");
        assert!(line.starts_with("ID") || line.starts_with("ts_"), "{line}");
        assert_ne!(line.as_bytes().get(started), Some(&b' '), "{line}");
    }
    assert_eq!(
        captured.stderr(),
        "IP, METADATA not shown at 80 columns; --json shows every field\n",
        "named once"
    );
}

#[test]
fn a_table_in_a_pipe_says_nothing_on_stderr() {
    let (streams, captured) = Streams::memory(false, 80);
    let asked = OutputFlags {
        format: Some(Format::Table),
        no_color: true,
        ..OutputFlags::default()
    };
    let printer = Printer::resolve(&asked, streams).expect("a printer");
    let mut sink = printer
        .list(tunnelctl::api::sessions::RESOURCE.kind)
        .expect("a list");
    for s in fixtures::sessions(false) {
        sink.push(s).expect("an item");
    }
    sink.finish().expect("the end");
    assert!(captured.stdout().starts_with("ID"));
    assert_eq!(captured.stderr(), "");
}
