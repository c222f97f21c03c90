//! `tunnelctl sessions watch --profiles a,b` and `--all-profiles` in a real pseudo-terminal:
//! two emulators, each its own account with its own key, in one list with a PROFILE column;
//! a restart of a row of each goes to each one's own API with its own key; a read-only
//! profile's rows refuse; a wrong profile or no config file exit before any request.

use serde_json::{json, Value};

use crate::common::pty::Pty;
use crate::common::{strings, wait_until, Env, API_KEY};
use tunnelctl::secrets::redact;
use tunnelctl_mock::{Mock, MockOptions, RecordedRequest};

/// The second account's key: another one than [`API_KEY`], which its emulator refuses.
const OTHER_KEY: &str = "tk_test_other_0a1b2c3d4e5f60718293a4b5c6d7e8f9";

/// Two accounts: `env`'s emulator (profile `a`) and another with its own key (profile `b`;
/// `ro` is the same account, read-only), each with two Linux sessions whose metadata names
/// them (`host-a0`, `host-b1`, ...).
pub(crate) struct Accounts {
    pub env: Env,
    pub other: Mock,
    pub a: Vec<String>,
    pub b: Vec<String>,
}

pub(crate) fn two_accounts() -> Accounts {
    let env = Env::new();
    let other = Mock::start(MockOptions {
        api_key: OTHER_KEY.to_string(),
        ..MockOptions::default()
    })
    .expect("the second emulator starts");
    let sessions = |name: &str| -> Value {
        let list: Vec<Value> = (0..2)
            .map(|i| {
                json!({"region": "eu", "os": "linux", "agent_version": "3.19.1",
                       "ip": format!("203.0.113.{}", i + 1), "metadata": format!("host-{name}{i}")})
            })
            .collect();
        json!({ "sessions": list })
    };
    let a = strings(&env.seed(sessions("a"))["sessions"]);
    let b = strings(&other.seed(sessions("b"))["sessions"]);
    env.write_config(&format!(
        "[a]\napi_url = \"{}\"\napi_key = \"{API_KEY}\"\n\n\
         [b]\napi_url = \"{}\"\napi_key = \"{OTHER_KEY}\"\n\n\
         [ro]\napi_url = \"{}\"\napi_key = \"{OTHER_KEY}\"\nread_only = \"true\"\n",
        env.mock.url(),
        other.url(),
        other.url()
    ));
    Accounts { env, other, a, b }
}

/// `tunnelctl sessions watch --every 1s [args]` with the config file alone (no URL or key in
/// the environment), on a 50 x 200 terminal.
fn watch(env: &Env, args: &[&str]) -> Pty {
    watch_at(env, args, 50, 200)
}

/// [`watch`] on a `rows` x `cols` terminal.
pub(crate) fn watch_at(env: &Env, args: &[&str], rows: u16, cols: u16) -> Pty {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("tunnelctl"));
    env.isolate(&mut cmd);
    cmd.args(["sessions", "watch", "--every", "1s"]).args(args);
    Pty::spawn(&cmd, rows, cols)
}

fn writes(requests: Vec<RecordedRequest>) -> Vec<RecordedRequest> {
    requests.into_iter().filter(|r| r.method != "GET").collect()
}

/// Marks the one row the filter `filter` shows.
fn mark(term: &mut Pty, filter: &str) {
    term.send(&format!("/\x15{filter}\r"));
    term.wait_for("1 shown");
    term.send(" ");
}

#[test]
fn two_profiles_in_one_view_send_each_restart_to_its_own_account_with_its_own_key() {
    let w = two_accounts();
    let mut term = watch(&w.env, &["--profiles", "a,b"]);
    let screen = term.wait_until("both accounts' sessions", |s| {
        s.contains("host-a1") && s.contains("host-b1")
    });
    assert!(screen.contains("PROFILE"), "{screen}");
    assert!(screen.contains("4 online"), "{screen}");
    assert!(!screen.contains("READ-ONLY"), "{screen}");
    for (host, profile, id) in [("host-a0", "a", &w.a[0]), ("host-b0", "b", &w.b[0])] {
        let line = screen
            .lines()
            .find(|l| l.contains(host))
            .unwrap_or_else(|| panic!("{host}:\n{screen}"));
        assert!(line.split_whitespace().any(|c| c == profile), "{line}");
        assert!(line.contains(id.as_str()), "{line}");
    }
    mark(&mut term, "host-a0");
    mark(&mut term, "profile=b host-b0");
    term.send("/\x15\r");
    term.wait_for("2 marked");
    term.send("r");
    term.wait_for("Restart the agent of 2 session(s)?");
    assert!(writes(w.env.requests()).is_empty(), "asked first");
    assert!(writes(w.other.requests()).is_empty(), "asked first");
    term.send("y");
    term.wait_until("both restarted", |s| s.matches("restarted").count() >= 2);
    wait_until("one restart on each emulator", || {
        writes(w.env.requests()).len() == 1 && writes(w.other.requests()).len() == 1
    });
    for (requests, id, key) in [
        (writes(w.env.requests()), &w.a[0], API_KEY),
        (writes(w.other.requests()), &w.b[0], OTHER_KEY),
    ] {
        assert_eq!(requests.len(), 1, "{requests:?}");
        assert_eq!(requests[0].path, format!("/tunnel_sessions/{id}/restart"));
        assert_eq!(
            requests[0].header("authorization"),
            Some(format!("Bearer {key}").as_str()),
            "each account's own key"
        );
    }
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    term.wait_for("restarted 2");
    assert!(!term.screen().contains(OTHER_KEY), "no key shown");
    term.assert_restored();
}

#[test]
fn the_profile_column_fits_80x24_and_sorts_with_9() {
    let w = two_accounts();
    let mut term = watch_at(&w.env, &["--profiles", "b", "--profiles", "a"], 24, 80);
    let screen = term.wait_until("both accounts' sessions", |s| {
        s.contains(w.a[1].as_str()) && s.contains(w.b[1].as_str())
    });
    for header in ["PROFILE", "ID", "VERSION"] {
        assert!(screen.contains(header), "{header} at 80 columns:\n{screen}");
    }
    assert!(
        screen.contains("profiles b, a"),
        "the title names them:\n{screen}"
    );
    term.send("9");
    let screen = term.wait_for("PROFILE▲");
    let rows: Vec<&str> = screen
        .lines()
        .filter(|l| l.contains("ts_"))
        .filter_map(|l| l.split_whitespace().find(|c| *c == "a" || *c == "b"))
        .collect();
    assert_eq!(rows, ["a", "a", "b", "b"], "sorted by profile:\n{screen}");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn all_profiles_shows_every_profile_and_a_read_only_profiles_row_refuses() {
    let w = two_accounts();
    let mut term = watch(&w.env, &["--all-profiles"]);
    let screen = term.wait_until("three profiles' sessions", |s| s.contains("6 online"));
    assert!(
        screen.contains("READ-ONLY: ro"),
        "the title says which:\n{screen}"
    );
    // One row of `ro` among the marked: nothing is sent, and the screen says why.
    mark(&mut term, "host-a0");
    mark(&mut term, "profile=ro host-b0");
    term.send("/\x15\r");
    term.wait_for("2 marked");
    for key in ["r", "s", "u", "U"] {
        term.send(key);
        term.wait_for("Read-only: profile ro has read_only on");
        term.send("y");
    }
    // Rows of the other profiles still act, once the marks are taken off (a mark hidden by the
    // filter still counts).
    mark(&mut term, "host-a0");
    mark(&mut term, "profile=ro host-b0");
    term.wait_until("no mark", |s| !s.contains("marked"));
    term.send("/\x15profile=b host-b1\r");
    term.wait_for("1 shown");
    term.send("u");
    term.wait_for("Update the agent of 1 session(s)?");
    term.send("y");
    term.wait_for("updated ✓");
    wait_until("the update is logged", || {
        writes(w.other.requests()).len() == 1
    });
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    assert!(writes(w.env.requests()).is_empty(), "nothing sent to a");
    let sent = writes(w.other.requests());
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].path, format!("/tunnel_sessions/{}/update", w.b[1]));
}

#[test]
fn an_unknown_profile_or_no_config_file_exits_3_before_any_request() {
    let w = two_accounts();
    for (args, says) in [
        (&["--profiles", "a,nosuch"][..], "no profile 'nosuch'"),
        (&["--profiles", ""][..], "empty"),
    ] {
        let mut term = watch(&w.env, args);
        let code = term.wait_exit();
        let screen = term.screen();
        assert!(screen.contains(says), "{args:?}:\n{screen}");
        assert_eq!(code, if says == "empty" { 2 } else { 3 }, "{screen}");
    }
    let mut term = watch(&w.env, &["--profiles", "a", "--all-profiles"]);
    assert_eq!(term.wait_exit(), 2);
    term.wait_for("cannot be used with");
    let mut term = watch(&w.env, &["--profile", "a", "--all-profiles"]);
    assert_eq!(term.wait_exit(), 2);
    term.wait_for("--profile chooses one profile");
    std::fs::remove_file(w.env.config_path()).expect("the config file is removed");
    let mut term = watch(&w.env, &["--all-profiles"]);
    assert_eq!(term.wait_exit(), 3);
    term.wait_for("has no profiles to watch");
    assert!(w.env.requests().is_empty(), "nothing sent to a");
    assert!(w.other.requests().is_empty(), "nothing sent to b");
}

/// The list requests an emulator received.
fn lists(requests: Vec<RecordedRequest>) -> usize {
    requests
        .iter()
        .filter(|r| r.method == "GET" && r.path == "/tunnel_sessions")
        .count()
}

/// Issue 36: one account's list failing does not fail the refresh. Its rows stay (none gone),
/// the title names its profile and the error, and it backs off alone: the other account goes
/// on being listed every second (a session that appears there is shown new), far more often
/// than the failing one.
#[test]
fn one_account_failing_keeps_its_rows_and_backs_off_alone_while_the_other_refreshes() {
    let w = two_accounts();
    let mut term = watch(&w.env, &["--profiles", "a,b"]);
    term.wait_until("both accounts' sessions", |s| {
        s.contains("host-a1") && s.contains("host-b1")
    });
    w.other
        .inject(json!({"method": "GET", "path": "/tunnel_sessions", "status": 500}));
    let screen = term.wait_until("b's error in the title", |s| {
        s.contains("refresh failed: profile b:")
    });
    let bottom = screen.lines().rfind(|l| !l.trim().is_empty()).unwrap();
    assert!(
        bottom.contains("500"),
        "the error on the bottom line:\n{screen}"
    );
    w.env.mock.clear_requests();
    w.other.clear_requests();
    let added = strings(
        &w.env.seed(json!({"sessions": [
            {"region": "eu", "os": "linux", "metadata": "host-a-new"}
        ]}))["sessions"],
    );
    let screen = term.wait_until("a's new session", |s| {
        s.lines()
            .any(|l| l.contains(added[0].as_str()) && l.contains("new"))
    });
    for id in w.b.iter().chain(&w.a) {
        let line = screen
            .lines()
            .find(|l| l.contains(id.as_str()))
            .unwrap_or_else(|| panic!("{id} is kept:\n{screen}"));
        assert!(!line.contains("gone"), "{line}");
    }
    assert!(screen.contains("profile b:"), "b still fails:\n{screen}");
    // b backs off (2 s, 4 s, ...) while a is listed every second.
    wait_until("six lists of a", || lists(w.env.requests()) >= 6);
    let (a, b) = (lists(w.env.requests()), lists(w.other.requests()));
    assert!(b * 2 <= a, "b listed {b} times, a {a} times");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    term.assert_restored();
}

/// Every watched profile's key is a secret of the run, not only the current profile's: a
/// failing account whose server quotes the key it was sent shows the error with the key
/// redacted, on the screen and in what is left on the terminal after quitting.
#[test]
fn a_second_profiles_key_echoed_by_its_server_is_redacted() {
    let w = two_accounts();
    w.other.inject(json!({
        "method": "GET", "path": "/tunnel_sessions", "status": 500,
        "body": json!({"error_code": "ERR_NGROK_999", "status_code": 500,
                       "msg": format!("no account for the key {OTHER_KEY}"), "details": {}})
            .to_string()
    }));
    let mut term = watch(&w.env, &["--profiles", "a,b"]);
    let screen = term.wait_until("b's error", |s| s.contains("no account for the key"));
    assert!(screen.contains(&redact(OTHER_KEY)), "{screen}");
    assert!(screen.contains("host-a1"), "a is listed:\n{screen}");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    let all = String::from_utf8_lossy(&term.output()).into_owned();
    for key in [OTHER_KEY, API_KEY] {
        assert!(!all.contains(key), "a key reached the terminal");
    }
}

/// `-v` over several accounts: the trace is never drawn over the screen; it goes to a file
/// named on stderr, where each account's requests show its own key redacted, never whole.
#[test]
fn verbose_traces_every_account_to_a_named_file_with_each_key_redacted() {
    let w = two_accounts();
    let mut term = watch(&w.env, &["--profiles", "a,b", "-v"]);
    let screen = term.wait_until("both accounts' sessions", |s| {
        s.contains("host-a1") && s.contains("host-b1")
    });
    for traced in ["> GET", "< 200", "authorization"] {
        assert!(
            !screen.contains(traced),
            "the trace is on the screen:\n{screen}"
        );
    }
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    let after = term.screen();
    let path = after
        .lines()
        .find_map(|l| l.trim().strip_prefix("The --verbose trace is in "))
        .unwrap_or_else(|| panic!("the trace file is not named:\n{after}"))
        .trim()
        .to_string();
    let trace = std::fs::read_to_string(&path).expect("the trace file");
    std::fs::remove_file(&path).ok();
    for (url, key) in [(w.env.mock.url(), API_KEY), (w.other.url(), OTHER_KEY)] {
        assert!(
            trace.contains(&format!("> GET {url}/tunnel_sessions")),
            "{trace}"
        );
        assert!(!trace.contains(key), "a key is in the trace");
    }
    for key in [API_KEY, OTHER_KEY] {
        let shown = format!("> authorization: Bearer {}", redact(key));
        assert!(trace.contains(&shown), "{shown} not in:\n{trace}");
    }
    let all = String::from_utf8_lossy(&term.output()).into_owned();
    assert!(!all.contains(API_KEY) && !all.contains(OTHER_KEY));
}
