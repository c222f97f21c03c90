//! `tunnelctl sessions watch` as a newcomer meets it on an 80x24 terminal (issue 41, item 17):
//! no column, title, error or pop-up shows a word cut short or text left from what is under
//! it; a kept filter, the marks and the place in a long list are shown; a message goes with
//! the next key; the details wrap under their labels and scroll; the summary on quit folds at
//! spaces and says why each failure failed.

use serde_json::{json, Value};

use crate::common::pty::Pty;
use crate::common::{strings, Env};
use crate::sessions_watch_profiles::{two_accounts, watch_at};

/// `tunnelctl [flags] sessions watch --every 1s` on an 80x24 terminal.
fn watch(env: &Env, flags: &[&str]) -> Pty {
    let mut cmd = env.std_cmd();
    cmd.args(flags).args(["sessions", "watch", "--every", "1s"]);
    Pty::spawn(&cmd, 24, 80)
}

/// The screen's lines as columns of characters (every character here is one column wide).
fn grid(screen: &str) -> Vec<Vec<char>> {
    screen.lines().map(|l| l.chars().collect()).collect()
}

/// The line of the keys' hint, and the lines under it (a message, an error).
fn below_the_keys(screen: &str) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines
        .iter()
        .rposition(|l| l.contains("? help"))
        .unwrap_or_else(|| panic!("no keys' hint:\n{screen}"));
    lines[at + 1..]
        .iter()
        .map(|l| l.trim().to_string())
        .collect()
}

/// The box drawn on `screen` (from its `┌` to its `┘`)'s inner lines (between its `│`s);
/// an error when there is none, or when any of its rows holds text outside its frame.
fn box_of(screen: &str) -> Result<Vec<String>, String> {
    let g = grid(screen);
    let top = g.iter().position(|l| l.contains(&'┌')).ok_or("no box")?;
    let bottom = top
        + g[top..]
            .iter()
            .position(|l| l.contains(&'┘'))
            .ok_or("no bottom to the box")?;
    let left = g[top].iter().position(|&c| c == '┌').unwrap_or(0);
    let right = g[top].iter().rposition(|&c| c == '┐').ok_or("no corner")?;
    let mut inner = Vec::new();
    for (n, line) in g[top..=bottom].iter().enumerate() {
        let outside: String = line
            .iter()
            .enumerate()
            .filter(|(i, _)| *i < left || *i > right)
            .map(|(_, c)| *c)
            .collect();
        if !outside.trim().is_empty() {
            return Err(format!("text beside the box on its row {n}: {outside:?}"));
        }
        if n > 0 && n < bottom - top {
            let end = right.min(line.len());
            inner.push(line.get(left + 1..end).unwrap_or(&[]).iter().collect());
        }
    }
    Ok(inner)
}

/// Waits for a whole box holding `text`, with nothing beside it (a frame is drawn a row after
/// the other: a box half drawn is waited out, one that keeps text beside it fails); returns
/// the screen and the box's inner lines.
#[track_caller]
fn wait_box(term: &mut Pty, text: &str) -> (String, Vec<String>) {
    let screen = term.wait_until(&format!("a whole box holding {text:?}"), |s| {
        s.contains(text) && box_of(s).is_ok()
    });
    let inner = box_of(&screen).unwrap_or_else(|e| panic!("{e}:\n{screen}"));
    (screen, inner)
}

/// Waits for a failed refresh said whole: in the title and in full under the keys (the
/// error's last words say when it is tried again).
fn failed(term: &mut Pty) -> String {
    term.wait_until("the refresh's error", |s| {
        s.contains("refresh failed") && s.contains("again in")
    })
}

/// Asserts that the title's error is made of whole words of the error said in full under the
/// keys, cut (if it is) between two words.
#[track_caller]
fn title_says_whole_words(screen: &str) {
    let title = screen.lines().next().unwrap().trim_end();
    assert!(title.chars().count() <= 80, "{title}");
    let said = below_the_keys(screen).join(" ");
    let words: Vec<&str> = said.split_whitespace().collect();
    let (_, failed) = title.split_once("refresh failed").unwrap();
    for word in failed.split_whitespace().filter(|w| *w != "…") {
        let word = word.trim_start_matches(':');
        assert!(
            word.is_empty() || words.contains(&word),
            "the title cut a word: {word:?}\n{screen}"
        );
    }
    assert!(!title.ends_with('…') || title.ends_with(" …"), "{title}");
}

#[test]
fn the_table_title_and_bottom_lines_show_whole_words_at_80_columns() {
    let env = Env::new();
    let sessions: Vec<Value> = (0..30)
        .map(|i| {
            json!({"region": if i < 20 { "eu" } else { "us" },
                   "metadata": format!("{{\"host\":\"web-{i}\",\"team\":\"payments\"}}")})
        })
        .collect();
    let ids = strings(&env.seed(json!({ "sessions": sessions }))["sessions"]);
    let mut term = watch(&env, &["--max-attempts", "1"]);
    let screen = term.wait_until("the whole screen", |s| {
        s.contains("30 online") && s.contains("? help")
    });
    let header = screen.lines().nth(1).unwrap();
    for word in header.split_whitespace() {
        let title = word.trim_end_matches(['▲', '▼']);
        assert!(
            [
                "STATUS",
                "ID",
                "VERSION",
                "REGION",
                "OS",
                "IP",
                "STARTED",
                "CREDENTIAL",
                "METADATA"
            ]
            .contains(&title),
            "a header cut short: {word:?}\n{screen}"
        );
    }
    let listed: Vec<Value> =
        serde_json::from_str(&env.run(&["sessions", "list", "--json"]).stdout).unwrap();
    for line in screen.lines().filter(|l| l.contains("ts_")) {
        let last = line.split_whitespace().last().unwrap();
        let whole = last == "ago"
            || listed.iter().any(|s| {
                s.as_object()
                    .unwrap()
                    .values()
                    .any(|v| v.as_str() == Some(last))
            });
        assert!(
            whole || last.ends_with('…'),
            "the last column cut without a mark: {last:?}\n{screen}"
        );
    }
    // A long list says where in it the screen is.
    assert!(screen.contains("rows 1–"), "{screen}");
    assert!(screen.contains(" of 30"), "{screen}");
    term.send("G");
    term.wait_for("–30 of 30");
    // A kept filter is shown.
    term.send("/region=eu\r");
    let screen = term.wait_for("filter: region=eu");
    let keys = screen.lines().rfind(|l| l.contains("? help")).unwrap();
    assert!(keys.contains("filter: region=eu"), "{screen}");
    assert!(screen.contains("20 shown"), "{screen}");
    // A message goes with the next key.
    term.send("r");
    term.wait_for("Restart the agent of 1 session(s)?");
    term.send("n");
    term.wait_for("Cancelled: no restart sent.");
    term.send("j");
    term.wait_until("the message gone", |s| !s.contains("Cancelled"));
    // An error: the title says what failed, cut only between words; the lines under the
    // keys say it all.
    let msg = "the service is having a bad day and could not list the tunnel sessions of \
               this account right now, try again in a minute or two";
    env.mock.inject(json!({
        "method": "GET", "path": "/tunnel_sessions", "status": 500, "count": 1,
        "body": json!({"error_code": "ERR_NGROK_500", "status_code": 500, "msg": msg,
                       "details": {}}).to_string()
    }));
    let screen = failed(&mut term);
    let said = below_the_keys(&screen).join(" ");
    assert!(said.contains(msg), "the error in full:\n{screen}");
    assert!(said.contains("GET /tunnel_sessions"), "{screen}");
    title_says_whole_words(&screen);
    term.wait_until("recovered", |s| !s.contains("refresh failed"));
    assert!(screen.contains(ids[0].as_str()) || screen.contains("ts_"));
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn a_failing_profile_is_named_in_the_title_at_80_columns() {
    let w = two_accounts();
    let mut term = watch_at(
        &w.env,
        &["--profiles", "a,b", "--max-attempts", "1"],
        24,
        80,
    );
    term.wait_until("both accounts' sessions", |s| s.contains("4 online"));
    w.other
        .inject(json!({"method": "GET", "path": "/tunnel_sessions", "status": 500}));
    let screen = failed(&mut term);
    let title = screen.lines().next().unwrap();
    assert!(
        title.contains("refresh failed: profile b"),
        "the title names the profile:\n{screen}"
    );
    assert!(title.chars().count() <= 80, "{title}");
    let said = below_the_keys(&screen).join(" ");
    assert!(
        said.contains("profile b:") && said.contains("500"),
        "{screen}"
    );
    title_says_whole_words(&screen);
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

/// The row of `id` says `status`, nothing under way.
fn wait_status(term: &mut Pty, id: &str, status: &str) {
    term.wait_until(&format!("{id} {status}"), |s| {
        s.lines()
            .any(|l| l.contains(id) && l.contains(status) && !l.contains('…'))
    });
}

#[test]
fn pop_ups_details_and_the_summary_show_no_cut_word_or_stray_text_at_80x24() {
    let env = Env::new();
    let ids = strings(&env.seed(json!({"sessions": [
        {"region": "eu", "update_checks_disabled": true,
         "metadata": "{\"host\":\"web-1\",\"team\":\"payments\",\"note\":\"a long metadata value\"}"},
        {"region": "eu", "update_available": null, "metadata": "{\"host\":\"web-2\"}"},
    ]}))["sessions"]);
    let mut term = watch(&env, &[]);
    term.wait_for(&ids[1]);
    // The help and a question: nothing of the rows beside them.
    term.send("?");
    wait_box(&mut term, "Help");
    term.send("x");
    term.wait_until("the help closed", |s| !s.contains("Help"));
    // Three failed updates of the first (update checks disabled), one failed upgrade of the
    // second (no update available).
    for n in 1..=3 {
        term.send("u");
        wait_box(&mut term, "Update the agent of 1 session(s)?");
        term.send("y");
        term.wait_until("the update sent", |_| env.writes().len() == n);
        wait_status(&mut term, &ids[0], "failed");
    }
    term.send("j").send("U");
    let (ask, inner) = wait_box(&mut term, "Upgrade the agent of 1 session(s)?");
    for line in inner {
        assert!(line.is_empty() || line.starts_with(' '), "{line:?}\n{ask}");
    }
    term.send("y");
    term.wait_until("the update sent", |_| env.writes().len() == 4);
    wait_status(&mut term, &ids[1], "failed");
    // The details: every line inside the box, a label never run into its value, a URL
    // whole on a line.
    term.send("\r");
    let (detail, inner) = wait_box(&mut term, "upgrade failed");
    let session: Value =
        serde_json::from_str(&env.run(&["sessions", "get", &ids[1], "--json"]).stdout).unwrap();
    let uri = session["uri"].as_str().unwrap();
    assert!(
        inner.iter().any(|l| l.contains(uri)),
        "the URL whole on a line:\n{detail}"
    );
    for line in inner.iter().filter(|l| !l.trim().is_empty()) {
        assert!(
            line.starts_with(' '),
            "at the box's edge: {line:?}\n{detail}"
        );
    }
    let failed = inner.iter().find(|l| l.contains("upgrade failed")).unwrap();
    assert!(
        failed.contains("upgrade failed  update"),
        "the label runs into its value: {failed:?}\n{detail}"
    );
    term.send("x");
    term.wait_until("the details closed", |s| !s.contains("On this screen"));
    // The first's history is longer than the box: it scrolls to its end.
    term.send("k").send("\r");
    let (detail, inner) = wait_box(&mut term, "On this screen");
    for line in inner.iter().filter(|l| !l.trim().is_empty()) {
        assert!(
            line.starts_with(' '),
            "at the box's edge: {line:?}\n{detail}"
        );
    }
    let failures = |s: &str| s.matches("update failed").count();
    let shown_first = failures(&detail);
    assert!(
        shown_first < 3,
        "the history is meant to be longer than the box:\n{detail}"
    );
    term.send("G");
    let scrolled = term.wait_until("the history's end", |s| failures(s) == 3);
    assert!(
        scrolled.contains(" of "),
        "the box says where it is:\n{scrolled}"
    );
    term.send("x");
    term.wait_until("the details closed", |s| !s.contains("On this screen"));
    term.send("q");
    assert_eq!(term.wait_exit(), 5, "two sessions failed");
    let after = term.screen();
    assert!(
        term.wrapped_rows().is_empty(),
        "the summary folded by the terminal: {:?}\n{after}",
        term.wrapped_rows()
    );
    for id in &ids {
        assert!(
            after.lines().any(|l| l.contains(id.as_str())),
            "{id} whole on a line:\n{after}"
        );
    }
    for reason in ["update checks are disabled", "no update is available"] {
        assert!(after.contains(reason), "{reason:?} said:\n{after}");
    }
    term.assert_restored();
}
