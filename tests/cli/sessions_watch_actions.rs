//! `tunnelctl sessions watch`'s action keys meaning what the bulk commands mean, at 80x24 in a
//! real pseudo-terminal: an update of an agent already on the newest version is "already up to
//! date", as `sessions update` says, not a failure (issue 41, item 14); a restart or a rolling
//! upgrade leaves Windows agents out, as `sessions restart --all` does, and the confirmation
//! says so (item 15); a mark hidden by the filter still counts, and the footer and the
//! confirmation say exactly what is acted on (item 16).

use serde_json::{json, Value};

use crate::common::pty::Pty;
use crate::common::{strings, wait_until, Env};
use crate::sessions_watch::line_of;

/// `tunnelctl sessions watch --every 1s [args]` on an 80x24 terminal.
fn watch(env: &Env, args: &[&str]) -> Pty {
    let mut cmd = env.std_cmd();
    cmd.args(["sessions", "watch", "--every", "1s"]).args(args);
    Pty::spawn(&cmd, 24, 80)
}

/// The paths of the writes the emulator received.
fn sent(env: &Env) -> Vec<String> {
    env.writes().into_iter().map(|r| r.path).collect()
}

/// Waits until the question `question` is drawn whole (a frame is drawn row after row); returns
/// the screen.
fn asked(term: &mut Pty, question: &str) -> String {
    term.wait_until(question, |s| s.contains(question) && s.contains('┘'))
}

/// Seeds `sessions` and returns their IDs, in order.
fn seed(env: &Env, sessions: Value) -> Vec<String> {
    strings(&env.seed(json!({ "sessions": sessions }))["sessions"])
}

#[test]
fn an_update_of_an_agent_already_on_the_newest_version_is_up_to_date_not_a_failure() {
    let env = Env::new();
    let ids = seed(
        &env,
        json!([{"region": "eu", "update_available": null}, {"region": "eu"}]),
    );
    // What `sessions update` calls it: its own outcome, exit 0.
    env.run(&["sessions", "update", &ids[0]])
        .code(0)
        .says("already up to date");
    env.mock.clear_requests();
    let mut term = watch(&env, &[]);
    term.wait_for(&ids[1]);
    term.send(" ").send(" ");
    term.wait_for("2 marked");
    term.send("u");
    term.wait_for("Update the agent of 2 session(s)?");
    term.send("y");
    let screen = term.wait_until("both answers", |s| {
        s.lines()
            .any(|l| l.contains(ids[0].as_str()) && l.contains("up to date"))
            && s.lines()
                .any(|l| l.contains(ids[1].as_str()) && l.contains("updated"))
    });
    assert!(
        !line_of(&screen, &ids[0]).contains("failed"),
        "up to date is no failure:\n{screen}"
    );
    term.send("q");
    assert_eq!(term.wait_exit(), 0, "nothing failed:\n{}", term.screen());
    let after = term.screen();
    assert!(
        after.contains("updated 1, 1 already up to date") && after.contains("failed 0"),
        "{after}"
    );
    term.assert_restored();
}

#[test]
fn restart_and_upgrade_leave_windows_agents_out_and_the_confirmation_says_so() {
    let env = Env::new();
    let ids = seed(
        &env,
        json!([{"region": "eu", "os": "linux"}, {"region": "eu", "os": "windows"}]),
    );
    let mut term = watch(&env, &[]);
    term.wait_for(&ids[1]);
    // Both marked: the restart goes to the Linux agent alone, and the question says why the
    // other is left out.
    term.send(" ").send(" ");
    term.wait_for("2 marked");
    for (key, verb) in [("r", "Restart"), ("U", "Upgrade")] {
        term.send(key);
        let screen = asked(&mut term, &format!("{verb} the agent of 1 session(s)?"));
        assert!(
            screen.contains("restart is not supported on Windows"),
            "{key}: the confirmation says why:\n{screen}"
        );
        assert!(screen.contains(ids[0].as_str()), "{screen}");
        let asked: Vec<&str> = screen
            .lines()
            .filter(|l| l.contains('│') && l.contains(ids[1].as_str()))
            .collect();
        assert!(
            asked
                .iter()
                .all(|l| l.contains("skipped") || l.contains("Skipped")),
            "{key}: the Windows agent is not among those asked about:\n{screen}"
        );
        term.send("n");
        term.wait_until("the question gone", |s| !s.contains("the agent of"));
    }
    assert!(sent(&env).is_empty(), "asked first: nothing sent yet");
    term.send("r");
    term.wait_for("Restart the agent of 1 session(s)?");
    term.send("y");
    term.wait_until("the restart's answer", |s| {
        s.lines()
            .any(|l| l.contains(ids[0].as_str()) && l.contains("restarted"))
    });
    wait_until("the restart is logged", || !sent(&env).is_empty());
    // The Windows agent alone, current and unmarked: nothing to ask, nothing sent.
    term.send("/os=windows\r");
    term.wait_for("1 shown");
    term.send("r");
    term.wait_for("restart is not supported on Windows");
    assert!(
        !term.screen().contains("Restart the agent of"),
        "nothing to confirm:\n{}",
        term.screen()
    );
    term.send("q");
    assert_eq!(
        term.wait_exit(),
        0,
        "a skip is no failure:\n{}",
        term.screen()
    );
    assert_eq!(
        sent(&env),
        [format!("/tunnel_sessions/{}/restart", ids[0])],
        "one restart, to the Linux agent"
    );
}

#[test]
fn a_mark_hidden_by_the_filter_counts_and_the_footer_and_the_question_say_so() {
    let env = Env::new();
    let ids = seed(
        &env,
        json!([{"region": "eu", "metadata": "host-a"}, {"region": "us", "metadata": "host-b"}]),
    );
    let mut term = watch(&env, &[]);
    term.wait_for(&ids[1]);
    // Mark host-a, then filter it out of sight: the current row is host-b, unmarked.
    term.send("/host-a\r");
    term.wait_for("1 shown");
    term.send(" ");
    term.wait_for("1 marked");
    term.send("/\x15host-b\r");
    // The footer says where the mark is.
    term.wait_until("host-b alone, the mark hidden", |s| {
        s.contains(ids[1].as_str())
            && !s.contains(ids[0].as_str())
            && s.contains("1 marked (1 hidden by the filter)")
    });
    term.send("s");
    let screen = asked(&mut term, "Stop the agent of 1 session(s)?");
    let id_line = line_of(&screen, &ids[0]);
    assert!(
        id_line.contains("hidden by the filter"),
        "the marked session is named, hidden:\n{screen}"
    );
    assert!(
        !screen
            .lines()
            .any(|l| l.contains('│') && l.contains(ids[1].as_str())),
        "the current, unmarked row is not asked about:\n{screen}"
    );
    term.send("y");
    wait_until("the stop is logged", || !sent(&env).is_empty());
    term.wait_until("the footer's mark gone", |s| !s.contains("marked"));
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
    assert_eq!(
        sent(&env),
        [format!("/tunnel_sessions/{}/stop", ids[0])],
        "the marked session alone"
    );
}
