//! The inspector's filter and trace as a newcomer meets them on an 80x24 terminal: `-v` never
//! draws its trace over the screen, the first Esc clears a filter instead of quitting, a
//! filter that still matches the selected row keeps it, the bottom line keeps the keys of the
//! place, and `?` lists every word of the filter language.

use serde_json::json;

use crate::common::pty::{keys, Pty};
use crate::common::Env;

/// `tunnelctl [FLAGS] local inspect` on a 24x80 terminal.
fn inspect(env: &Env, flags: &[&str]) -> Pty {
    Pty::spawn(
        &env.inspector_cmd(&env.mock.agent_url(), flags, &[]),
        24,
        80,
    )
}

/// The bottom line of the screen.
fn bottom(screen: &str) -> String {
    screen
        .lines()
        .map(str::trim_end)
        .rfind(|l| !l.is_empty())
        .unwrap_or("")
        .to_string()
}

/// Three captures: two POSTs to /hooks and a GET, newest first in the list.
fn three(env: &Env) {
    env.mock.seed_captures(json!([
        {"method": "POST", "uri": "/hooks/one", "start": "2026-11-25T01:00:00Z"},
        {"method": "GET", "uri": "/status", "start": "2026-11-25T01:00:01Z"},
        {"method": "POST", "uri": "/hooks/two", "start": "2026-11-25T01:00:02Z"},
    ]));
}

#[test]
fn verbose_trace_goes_to_a_named_file_never_onto_the_inspector() {
    let env = Env::new();
    three(&env);
    let mut term = inspect(&env, &["-v"]);
    term.wait_for("3 captured");
    // Named on stderr before the inspector took the screen.
    let before = String::from_utf8_lossy(&term.output()).into_owned();
    let path = named_after(&before, "The --verbose trace goes to ")
        .and_then(|rest| {
            rest.strip_suffix(" while the inspector runs")
                .map(str::to_string)
        })
        .unwrap_or_else(|| panic!("the trace file is not named first:\n{before}"));
    crate::common::wait_until("the agent's requests traced to the file", || {
        std::fs::read_to_string(&path).is_ok_and(|t| t.contains("> GET ") && t.contains("< 200"))
    });
    let screen = term.wait_for("3 captured");
    for traced in ["> GET", "< 200", "user-agent"] {
        assert!(
            !screen.contains(traced),
            "the trace is drawn over the inspector:\n{screen}"
        );
    }
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    term.assert_restored();
    let screen = term.screen();
    let after = named_after(&screen, "The --verbose trace is in ");
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        after.as_deref(),
        Some(path.as_str()),
        "named again after:\n{screen}"
    );
}

/// The rest of the first line of `text` that starts with `prefix`, trimmed, with the lines a
/// note folded for the terminal's width goes on over (indented two columns) joined to it.
fn named_after(text: &str, prefix: &str) -> Option<String> {
    let mut lines = text.lines().skip_while(|l| !l.trim().starts_with(prefix));
    let mut note = lines
        .next()?
        .trim()
        .strip_prefix(prefix)?
        .trim()
        .to_string();
    for more in lines.take_while(|l| l.starts_with("  ") && !l.trim().is_empty()) {
        note.push(' ');
        note.push_str(more.trim());
    }
    Some(note)
}

/// The screen's row with the selection mark.
fn selected_row(screen: &str) -> String {
    screen
        .lines()
        .find(|l| l.contains('▶'))
        .unwrap_or_else(|| panic!("no row is selected:\n{screen}"))
        .to_string()
}

#[test]
fn the_first_esc_clears_the_filter_and_the_keys_stay_on_the_bottom_line() {
    let env = Env::new();
    three(&env);
    let mut term = inspect(&env, &[]);
    term.wait_for("3 captured");
    term.send("/").send("method:POST").send(keys::ENTER);
    let screen = term.wait_until("the filter applied, and the keys under it", |s| {
        s.contains("2 of 3") && !s.contains("/status") && s.contains("clear filter")
    });
    let last = bottom(&screen);
    assert!(
        last.contains("Esc") && last.contains("clear filter") && last.contains("quit"),
        "the bottom line shows the keys while a filter is set: {last:?}\n{screen}"
    );
    assert!(
        screen.contains("method:POST"),
        "the filter stays in sight:\n{screen}"
    );
    term.send(keys::ESC);
    let screen = term.wait_for("/status");
    assert!(
        !screen.contains("method:POST"),
        "the filter is cleared:\n{screen}"
    );
    // Still running: the next Esc quits.
    term.send(keys::ESC);
    assert_eq!(term.wait_exit(), 0);
    term.assert_restored();
}

#[test]
fn typing_a_filter_keeps_the_selection_while_it_still_matches() {
    let env = Env::new();
    three(&env);
    let mut term = inspect(&env, &[]);
    term.wait_for("3 captured");
    // The oldest, /hooks/one, selected; then a filter it passes, typed key by key (its
    // half-typed words hide it for a while).
    term.send("j");
    term.wait_until("the second row selected", |s| {
        s.lines().any(|l| l.contains('▶') && l.contains("/status"))
    });
    term.send("j");
    term.wait_until("the oldest selected", |s| {
        s.lines()
            .any(|l| l.contains('▶') && l.contains("/hooks/one"))
    });
    term.send("/");
    for c in "path:/hooks/*".chars() {
        term.send(&c.to_string());
    }
    term.send(keys::ENTER);
    let screen = term.wait_until("the filter applied", |s| {
        s.contains("2 of 3") && !s.contains("/status")
    });
    assert!(
        selected_row(&screen).contains("/hooks/one"),
        "the selection moved off the row the filter still shows:\n{screen}"
    );
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn the_help_lists_every_filter_word() {
    let env = Env::new();
    three(&env);
    let mut term = inspect(&env, &[]);
    term.wait_for("3 captured");
    term.send("?");
    let help = term.wait_for("Help");
    for word in [
        "method:",
        "status:5xx",
        "status:pending",
        "path:",
        "tunnel:",
        "since:",
        "replayed",
        "sig:",
        "invalid",
        "expired",
        "unsigned",
        "no-secret",
        "!",
    ] {
        assert!(help.contains(word), "{word} is not in the help:\n{help}");
    }
    // The help fits the screen: its title and its last line are on it.
    assert!(help.contains("Help · any key closes"), "{help}");
    assert!(help.contains("!WORD"), "{help}");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}
