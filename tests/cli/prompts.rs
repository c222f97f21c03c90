//! Questions asked on a real terminal (a pseudo-terminal, `tests/common/pty.rs`), as a person
//! meets them: `config init` typed through with the key hidden, Ctrl-C at any question (exit
//! 130, nothing saved or sent, the terminal restored), typed answers to a delete's
//! confirmation, and the session picker's keys.

use std::process::Command;

use crate::common::pty::{keys, Pty};
use crate::common::seed::KINESIS;
use crate::common::{Env, API_KEY, AWS_SECRET};
use tunnelctl::registry::env as var;

/// Rows and columns of the terminal most tests run on.
const ROWS: u16 = 24;
const COLS: u16 = 100;

/// The binary pointed at the emulator's URL but given no key nor URL by the environment.
fn without_settings(env: &Env) -> Command {
    let mut cmd = env.std_cmd();
    cmd.env_remove(var::API_URL).env_remove(var::API_KEY);
    cmd
}

/// `script` run by bash with the environment changes of `cmd`.
fn in_bash(cmd: &Command, script: &str) -> Command {
    let mut bash = Command::new("bash");
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => bash.env(k, v),
            None => bash.env_remove(k),
        };
    }
    bash.args(["-c", script]);
    bash
}

fn config_init(env: &Env) -> Pty {
    Pty::spawn(without_settings(env).args(["config", "init"]), ROWS, COLS)
}

/// The key must never be drawn, nor written to the terminal at all.
#[track_caller]
fn assert_key_never_shown(term: &Pty, key: &str) {
    assert!(!term.screen().contains(key), "{}", term.screen());
    let written = String::from_utf8_lossy(&term.output()).into_owned();
    assert!(
        !written.contains(key),
        "the key was written to the terminal"
    );
}

#[test]
fn config_init_is_typed_through_with_the_key_hidden() {
    let env = Env::new();
    let mut term = config_init(&env);
    term.wait_for("Management API URL:");
    term.send(&env.mock.url()).send(keys::ENTER);
    term.wait_for_hidden("API key (hidden):");
    term.send(API_KEY).send(keys::ENTER);
    let screen = term.wait_for("Saved profile 'default'");
    assert!(screen.contains("accepted the key"), "{screen}");
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    term.assert_restored();
    assert_key_never_shown(&term, API_KEY);
    let saved = std::fs::read_to_string(env.config_path()).unwrap();
    assert!(
        saved.contains(&format!("api_key = \"{API_KEY}\"")),
        "{saved}"
    );
    assert!(saved.contains(&env.mock.url()), "{saved}");
    let checks = env.requests();
    assert_eq!(checks.len(), 1, "one GET checks the key: {checks:?}");
    assert_eq!(checks[0].method, "GET");
}

#[test]
fn ctrl_c_at_the_hidden_key_prompt_saves_nothing_and_takes_no_later_line() {
    let env = Env::new();
    let before = "# mine\n[default]\napi_url = \"https://old.example.com\"\n";
    std::fs::write(env.config_path(), before).unwrap();
    let mut term = config_init(&env);
    term.wait_for("Management API URL [https://old.example.com]:");
    term.send(&env.mock.url()).send(keys::ENTER);
    term.wait_for_hidden("API key (hidden):");
    // A key half typed, Ctrl-C, and a line typed right after it: none of it is an answer.
    term.send("tk_half")
        .send(keys::CTRL_C)
        .send("tk_typed_after\r");
    assert_eq!(term.wait_exit(), 130, "{}", term.screen());
    term.assert_restored();
    assert!(term.screen().contains("^C"), "{}", term.screen());
    assert_key_never_shown(&term, "tk_half");
    assert_eq!(std::fs::read_to_string(env.config_path()).unwrap(), before);
    assert!(env.requests().is_empty(), "nothing was sent");
}

#[test]
fn ctrl_c_at_the_url_prompt_leaves_no_config_file() {
    let env = Env::new();
    let mut term = config_init(&env);
    term.wait_for("Management API URL:");
    term.send("https://typed").send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 130);
    term.assert_restored();
    assert!(!env.config_path().exists());
}

#[test]
fn sigterm_while_a_question_waits_ends_it_and_restores_the_terminal() {
    let env = Env::new();
    let mut term = config_init(&env);
    term.wait_for("Management API URL:");
    terminate(&term);
    assert_eq!(term.wait_exit(), 143, "{}", term.screen());
    term.assert_restored();
    assert!(!env.config_path().exists());
}

/// `config init` with the URL given, so that the first question is the hidden key.
fn key_prompt(env: &Env) -> Pty {
    let mut term = Pty::spawn(
        without_settings(env).args(["config", "init", "--api-url", &env.mock.url()]),
        ROWS,
        COLS,
    );
    term.wait_for_hidden("API key (hidden):");
    term
}

/// Sends SIGTERM to the program on `term`, as a supervisor would.
fn terminate(term: &Pty) {
    // SAFETY: a plain kill(2) of the child this test started.
    let sent = unsafe { libc::kill(term.pid() as libc::pid_t, libc::SIGTERM) };
    assert_eq!(sent, 0);
}

#[test]
fn sigterm_at_the_hidden_key_prompt_ends_it_and_restores_the_terminal() {
    // At once, while the question may still be setting up its read, and with a key half typed.
    for half in ["", "tk_half"] {
        let env = Env::new();
        let mut term = key_prompt(&env);
        term.send(half);
        terminate(&term);
        assert_eq!(term.wait_exit(), 143, "{half:?}: {}", term.screen());
        term.assert_restored();
        assert_key_never_shown(&term, "tk_half");
        assert!(!env.config_path().exists(), "{half:?}");
        assert!(env.requests().is_empty(), "{half:?}: nothing was sent");
    }
}

#[test]
fn esc_then_enter_at_the_hidden_key_prompt_cancels_and_saves_nothing() {
    let env = Env::new();
    let mut term = key_prompt(&env);
    term.send("tk_half").send(keys::ESC).send(keys::ENTER);
    assert_eq!(term.wait_exit(), 130, "{}", term.screen());
    term.assert_restored();
    assert_key_never_shown(&term, "tk_half");
    assert!(!env.config_path().exists());
    assert!(env.requests().is_empty(), "nothing was sent");
}

#[test]
fn after_ctrl_c_at_the_hidden_key_prompt_the_shell_reads_its_next_line() {
    let env = Env::new();
    // A shell after the command waits for a line on the same terminal (stdin blocks again).
    let tunnelctl = without_settings(&env);
    let script = r#""$0" "$@"; echo "exit=$?"; line=$(head -n 1); echo "read=$? [$line]""#;
    let mut cmd = in_bash(&tunnelctl, script);
    cmd.arg(tunnelctl.get_program())
        .args(["config", "init", "--api-url", &env.mock.url()]);
    let mut term = Pty::spawn(&cmd, ROWS, COLS);
    term.wait_for_hidden("API key (hidden):");
    term.send("tk_half").send(keys::CTRL_C);
    term.wait_for("exit=130");
    term.send("next").send(keys::ENTER);
    let screen = term.wait_for("read=");
    assert!(screen.contains("read=0 [next]"), "{screen}");
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    term.assert_restored();
    assert_key_never_shown(&term, "tk_half");
    assert!(!env.config_path().exists());
}

#[test]
fn ctrl_c_at_the_hidden_aws_secret_prompt_sends_nothing() {
    let env = Env::new();
    let mut term = env.pty(
        &[
            "event-destinations",
            "create",
            "--kinesis-stream-arn",
            KINESIS,
            "--aws-access-key-id",
            "AKIAIOSFODNN7EXAMPLE",
        ],
        ROWS,
        COLS,
    );
    term.wait_for("AWS secret access key:");
    // Half the secret, Ctrl-C, then the rest of it: none of it is an answer.
    let (half, rest) = AWS_SECRET.split_at(8);
    term.send(half)
        .send(keys::CTRL_C)
        .send(rest)
        .send(keys::ENTER);
    assert_eq!(term.wait_exit(), 130, "{}", term.screen());
    term.assert_restored();
    assert!(term.screen().contains("^C"), "{}", term.screen());
    assert_key_never_shown(&term, half);
    assert!(env.writes().is_empty(), "{:?}", env.writes());
}

/// The confirmation lists this policy with its description ("policy N").
#[track_caller]
fn assert_listed(screen: &str, id: &str, n: usize) {
    assert!(screen.contains(&format!("{id}  policy {n}")), "{screen}");
}

/// `ip-policies delete IDS` on a terminal, after seeding `n` policies ("policy 1", …).
fn delete_policies(env: &Env, n: usize, rows: u16) -> (Vec<String>, Pty) {
    let ids = env.seed_ip_policies(n);
    let mut args = vec!["ip-policies", "delete"];
    args.extend(ids.iter().map(String::as_str));
    let term = env.pty(&args, rows, COLS);
    (ids, term)
}

#[test]
fn typed_yes_deletes_and_leaves_nothing_for_the_shell() {
    let env = Env::new();
    let ids = env.seed_ip_policies(2);
    // A shell after the command reads whatever input the command left unread.
    let tunnelctl = env.std_cmd();
    let script = r#""$0" "$@"; code=$?; rest=; read -t 2 rest; echo "exit=$code left=[$rest]""#;
    let mut cmd = in_bash(&tunnelctl, script);
    cmd.arg(tunnelctl.get_program())
        .args(["ip-policies", "delete", &ids[0], &ids[1]]);
    let mut term = Pty::spawn(&cmd, ROWS, COLS);
    let screen = term.wait_for("Delete 2 IP policies? [y/N]");
    assert_listed(&screen, &ids[0], 1);
    assert_listed(&screen, &ids[1], 2);
    term.send("yes").send(keys::ENTER);
    let screen = term.wait_for("left=[");
    assert!(screen.contains("exit=0 left=[]"), "{screen}");
    let deletes: Vec<_> = env
        .writes()
        .into_iter()
        .filter(|r| r.method == "DELETE")
        .collect();
    assert_eq!(deletes.len(), 2, "{deletes:?}");
    assert!(env.stored_all("ip_policies").is_empty());
}

#[test]
fn no_or_nothing_at_a_confirmation_sends_nothing() {
    for answer in ["no\r", "\r", "n\r"] {
        let env = Env::new();
        let (ids, mut term) = delete_policies(&env, 1, ROWS);
        term.wait_for("Delete 1 IP policy? [y/N]");
        term.send(answer);
        assert_eq!(term.wait_exit(), 2, "{answer:?}: {}", term.screen());
        term.assert_restored();
        assert!(env.writes().is_empty(), "{answer:?}: {:?}", env.writes());
        assert!(env.stored("ip_policies", &ids[0]).is_some());
    }
}

#[test]
fn ctrl_c_at_a_confirmation_is_exit_130_and_sends_nothing() {
    let env = Env::new();
    let (_, mut term) = delete_policies(&env, 1, ROWS);
    term.wait_for("Delete 1 IP policy? [y/N]");
    term.send("ye").send(keys::CTRL_C).send("s\r");
    assert_eq!(term.wait_exit(), 130);
    term.assert_restored();
    assert!(env.writes().is_empty());
}

#[test]
fn a_delete_of_many_shows_the_count_and_the_first_few() {
    let env = Env::new();
    let (ids, mut term) = delete_policies(&env, 40, 24);
    let screen = term.wait_for("Delete 40 IP policies? [y/N]");
    assert_listed(&screen, &ids[0], 1);
    assert_listed(&screen, &ids[4], 5);
    assert!(!screen.contains(&ids[5]), "{screen}");
    assert!(screen.contains("… and 35 more"), "{screen}");
    assert!(
        screen.lines().count() < 24,
        "the question never scrolls away"
    );
    term.send("n").send(keys::ENTER);
    assert_eq!(term.wait_exit(), 2);
    assert!(env.writes().is_empty());
}

/// Seeds `n` sessions that can all take a restart (Linux and macOS agents in turn; the
/// picker leaves Windows agents out of a restart).
fn seed_restartable(env: &Env, n: usize) -> Vec<String> {
    let list: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let (os, region) = (["linux", "darwin"][i % 2], ["us", "eu", "ap"][i % 3]);
            let version = ["3.18.4", "3.19.1", "3.20.0"][i % 3];
            serde_json::json!({
                "os": os,
                "region": region,
                "agent_version": version,
                "ip": format!("198.51.100.{}", i + 1),
            })
        })
        .collect();
    env.seed_sessions(serde_json::Value::Array(list))
}

fn restart_picker(env: &Env) -> Pty {
    seed_restartable(env, 30);
    let mut term = env.pty(&["sessions", "restart"], 12, COLS);
    term.wait_for("Sessions to restart");
    term
}

#[test]
fn esc_q_and_ctrl_c_cancel_the_picker_and_bring_the_cursor_back() {
    for key in [keys::ESC, "q", keys::CTRL_C] {
        let env = Env::new();
        let mut term = restart_picker(&env);
        term.send(keys::DOWN).send(keys::SPACE).send(key);
        assert_eq!(term.wait_exit(), 130, "{key:?}: {}", term.screen());
        term.assert_restored();
        assert!(env.writes().is_empty(), "{key:?}: {:?}", env.writes());
    }
}

#[test]
fn the_picker_restarts_what_was_chosen() {
    let env = Env::new();
    let mut term = restart_picker(&env);
    let screen = term.wait_for("0 chosen; 1-9 of 30");
    assert!(screen.contains("> [ ] ts_"), "{screen}");
    term.send(keys::DOWN).send(keys::SPACE);
    term.wait_for("1 chosen");
    term.send(keys::ENTER);
    term.wait_for("Sessions to restart");
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    term.assert_restored();
    let writes = env.writes();
    assert_eq!(writes.len(), 1, "{writes:?}");
    assert!(writes[0].path.ends_with("/restart"), "{writes:?}");
}

/// Ctrl-C at `term`'s question: exit 130, nothing sent, the cursor visible again (and the
/// terminal restored).
#[track_caller]
fn ctrl_c_shows_the_cursor(env: &Env, mut term: Pty, question: &str) {
    term.wait_for(question);
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 130, "{question}: {}", term.screen());
    assert!(
        !term.cursor_hidden(),
        "{question}: the cursor was left hidden"
    );
    term.assert_restored();
    assert!(env.writes().is_empty(), "{question}: {:?}", env.writes());
}

#[test]
fn ctrl_c_at_every_kind_of_question_leaves_the_cursor_visible() {
    // A confirmation (a typed line).
    let env = Env::new();
    let (_, term) = delete_policies(&env, 1, ROWS);
    ctrl_c_shows_the_cursor(&env, term, "Delete 1 IP policy? [y/N]");
    // Text.
    let env = Env::new();
    ctrl_c_shows_the_cursor(&env, config_init(&env), "Management API URL:");
    // A hidden answer.
    let env = Env::new();
    let term = Pty::spawn(
        without_settings(&env).args(["config", "init", "--api-url", &env.mock.url()]),
        ROWS,
        COLS,
    );
    ctrl_c_shows_the_cursor(&env, term, "API key (hidden):");
    // The picker hides the cursor while it is shown.
    let env = Env::new();
    let mut term = restart_picker(&env);
    term.wait_for("0 chosen");
    assert!(term.cursor_hidden(), "the picker hides the cursor");
    ctrl_c_shows_the_cursor(&env, term, "Sessions to restart");
}

#[test]
fn at_80_columns_the_picker_shows_sessions_in_columns() {
    let env = Env::new();
    seed_restartable(&env, 12);
    let mut term = env.pty(&["sessions", "restart"], 24, 80);
    let screen = term.wait_for("0 chosen; 1-12 of 12");
    assert!(term.wrapped_rows().is_empty(), "{:?}", term.wrapped_rows());
    let rows: Vec<&str> = screen
        .lines()
        .filter(|l| l.starts_with("> [ ] ts_") || l.starts_with("  [ ] ts_"))
        .collect();
    assert_eq!(rows.len(), 12, "{screen}");
    // Where each cell after the ID starts: the same column in every row.
    let starts = |row: &str| -> Vec<usize> {
        let cells = &row[6..];
        let mut at = Vec::new();
        let mut gap = 0;
        for (i, c) in cells.char_indices() {
            if c == ' ' {
                gap += 1;
            } else {
                if gap >= 2 {
                    at.push(i);
                }
                gap = 0;
            }
        }
        at.truncate(3);
        at
    };
    let first = starts(rows[0]);
    assert_eq!(first.len(), 3, "region, OS and version: {}", rows[0]);
    for row in &rows {
        assert_eq!(starts(row), first, "{screen}");
    }
    term.send(keys::ESC);
    assert_eq!(term.wait_exit(), 130);
}

#[test]
fn at_80_columns_the_stop_question_keeps_its_answer_on_one_row() {
    let env = Env::new();
    let ids = env.seed_session_count(2);
    let mut term = env.pty(&["sessions", "stop", &ids[0]], 24, 80);
    let screen = term.wait_for("[y/N]");
    assert!(
        term.wrapped_rows().is_empty(),
        "{:?}\n{screen}",
        term.wrapped_rows()
    );
    let question = screen
        .lines()
        .find(|l| l.contains("[y/N]"))
        .expect("the question's last row");
    assert!(!question.starts_with("[y/N]"), "{screen}");
    assert!(
        screen.contains("Stop the agent of 1 session(s)?"),
        "{screen}"
    );
    term.send("no").send(keys::ENTER);
    assert_eq!(term.wait_exit(), 2, "{}", term.screen());
    assert!(env.writes().is_empty(), "{:?}", env.writes());
}

/// What the find step's prompt says (after the picker's prompt).
const FIND: &str = "type to filter (enter: choose, esc: back)";

/// The metadata host of the one session the find-step tests look for.
const NEEDLE: &str = "quartz-vault";

/// `sessions restart` on a 12-row terminal `cols` wide, over 30 sessions in three regions
/// with a host each in their metadata, one of them `NEEDLE` (its ID is returned); the
/// picker is shown.
fn restart_picker_with_one_to_find(env: &Env, cols: u16) -> (String, Pty) {
    let list: Vec<serde_json::Value> = (0..30)
        .map(|i| {
            let host = if i == 17 {
                NEEDLE.to_string()
            } else {
                format!("web-{i}")
            };
            let region = ["us", "eu", "ap"][i % 3];
            serde_json::json!({
                "region": region,
                "metadata": format!("{{\"host\":\"{host}\"}}"),
            })
        })
        .collect();
    let ids = env.seed_sessions(list);
    let mut term = env.pty(&["sessions", "restart"], 12, cols);
    term.wait_for("0 chosen; 1-9 of 30");
    (ids[17].clone(), term)
}

/// The find step's rows on `screen` (a pointer, then a session).
fn find_rows(screen: &str) -> Vec<&str> {
    screen
        .lines()
        .filter(|l| l.starts_with("> ts_") || l.starts_with("  ts_"))
        .collect()
}

/// What `term` wrote after the last `from` that came before the first `to` written after
/// it: the rows of one whole redraw, between two prompt lines.
fn written_between(term: &Pty, from: &str, to: &str) -> String {
    let out = String::from_utf8_lossy(&term.output()).into_owned();
    let start = out.find(from).map(|i| i + from.len());
    let end = start.and_then(|s| out[s..].find(to).map(|e| s + e));
    let (Some(start), Some(end)) = (start, end) else {
        panic!("{from:?} then {to:?} not written:\n{out}");
    };
    let start = out[..end].rfind(from).map_or(start, |i| i + from.len());
    out[start..end].to_string()
}

#[test]
fn typing_in_the_find_step_filters_and_enter_chooses_that_session() {
    let env = Env::new();
    let (needle, mut term) = restart_picker_with_one_to_find(&env, COLS);
    // Enter with nothing chosen: the find step, every row listed as the picker lists it.
    term.send(keys::ENTER);
    let screen = term.wait_until("the find step's rows", |s| {
        s.contains(FIND) && find_rows(s).len() == 10
    });
    assert!(!screen.contains("[ ]"), "the picker is gone: {screen}");
    assert!(term.cursor_hidden(), "the find step hides the cursor");
    term.send(NEEDLE);
    term.wait_for(&format!("{NEEDLE}|"));
    // A key that changes only the prompt line: once it is drawn, the rows drawn for the
    // whole filter are complete.
    term.send("\x1b[D");
    let screen = term.wait_until("the one matching row", |s| {
        s.contains("quartz-vaul|t") && s.contains(&needle)
    });
    let rows = find_rows(&screen);
    assert_eq!(rows.len(), 1, "{screen}");
    assert!(rows[0].starts_with(&format!("> {needle}  ap")), "{screen}");
    let drawn = written_between(&term, &format!("{NEEDLE}|"), "quartz-vaul|t");
    assert_eq!(drawn.matches("ts_").count(), 1, "{drawn:?}");
    // Enter: back in the picker with that session chosen.
    term.send(keys::ENTER);
    let screen = term.wait_for("1 chosen; 1-9 of 30");
    assert!(!screen.contains(FIND), "{screen}");
    assert!(screen.contains("> [ ] ts_"), "{screen}");
    assert!(screen.contains("enter: done"), "{screen}");
    term.send(keys::ENTER);
    term.wait_for("Sessions to restart: 1 chosen");
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    term.assert_restored();
    let writes = env.writes();
    assert_eq!(writes.len(), 1, "{writes:?}");
    assert!(
        writes[0].path.ends_with(&format!("/{needle}/restart")),
        "{writes:?}"
    );
}

#[test]
fn esc_in_the_find_step_goes_back_to_the_picker_with_nothing_chosen() {
    let env = Env::new();
    let (_, mut term) = restart_picker_with_one_to_find(&env, COLS);
    let screen = term.wait_for("0 chosen; 1-9 of 30");
    assert!(screen.contains("enter: type to find"), "{screen}");
    term.send(keys::ENTER);
    term.wait_for(FIND);
    term.send("quartz");
    term.wait_for("quartz|");
    term.send(keys::ESC);
    let screen = term.wait_until("the picker again", |s| {
        !s.contains(FIND) && s.contains("0 chosen; 1-9 of 30")
    });
    assert!(screen.contains("> [ ] ts_"), "{screen}");
    assert!(!screen.contains("[x]"), "{screen}");
    // The picker's keys work as before: Esc cancels.
    term.send(keys::ESC);
    assert_eq!(term.wait_exit(), 130, "{}", term.screen());
    term.assert_restored();
    assert!(env.writes().is_empty(), "{:?}", env.writes());
}

#[test]
fn ctrl_c_in_the_find_step_ends_with_130_and_sends_nothing() {
    let env = Env::new();
    let (_, mut term) = restart_picker_with_one_to_find(&env, COLS);
    term.send(keys::ENTER);
    term.wait_for(FIND);
    term.send("quar");
    ctrl_c_shows_the_cursor(&env, term, "quar|");
}

#[test]
fn at_80_columns_the_find_step_wraps_no_row() {
    let env = Env::new();
    // Metadata long enough that every row is cut.
    let list: Vec<serde_json::Value> = (0..12)
        .map(|i| {
            let team = "payments-and-billing-platform";
            let metadata = format!(r#"{{"host":"web-{i}","team":"{team}"}}"#);
            serde_json::json!({ "os": "linux", "metadata": metadata })
        })
        .collect();
    env.seed_sessions(list);
    let mut term = env.pty(&["sessions", "restart"], 24, 80);
    term.wait_for("0 chosen; 1-12 of 12");
    term.send(keys::ENTER);
    let screen = term.wait_until("12 rows found", |s| {
        s.contains(FIND) && find_rows(s).len() == 12
    });
    assert!(term.wrapped_rows().is_empty(), "{:?}", term.wrapped_rows());
    assert!(
        find_rows(&screen).iter().all(|r| r.ends_with('…')),
        "{screen}"
    );
    // A filter typed past the prompt's room: the prompt gives way, nothing wraps.
    term.send(&"w".repeat(30));
    let screen = term.wait_for(&format!("{}|", "w".repeat(30)));
    assert!(
        term.wrapped_rows().is_empty(),
        "{:?}\n{screen}",
        term.wrapped_rows()
    );
    term.send(keys::ESC);
    term.wait_for("0 chosen; 1-12 of 12");
    term.send(keys::ESC);
    assert_eq!(term.wait_exit(), 130);
}

/// The picker offers a restart only to agents that can take one (rule 1: not on Windows),
/// says how many it left out and why, and still offers every session a stop.
#[test]
fn at_80x24_the_restart_picker_leaves_out_windows_agents_and_says_so() {
    let env = Env::new();
    let ids = env.seed_sessions(serde_json::json!([
        {"os": "linux", "region": "eu"},
        {"os": "windows", "region": "eu"},
        {"os": "darwin", "region": "us"},
        {"os": "Windows", "region": "us"},
    ]));
    // A stop can be sent to any of them.
    let mut term = env.pty(&["sessions", "stop"], 24, 80);
    let screen = term.wait_for("0 chosen; 1-4 of 4");
    assert!(!screen.contains("not offered"), "{screen}");
    term.send(keys::ESC);
    assert_eq!(term.wait_exit(), 130);
    let mut term = env.pty(&["sessions", "restart"], 24, 80);
    let screen = term.wait_for("0 chosen; 1-2 of 2");
    assert!(
        screen.contains("2 session(s) not offered: restart is not supported on Windows."),
        "{screen}"
    );
    assert!(
        !screen.contains(&ids[1]) && !screen.contains(&ids[3]),
        "{screen}"
    );
    assert!(
        screen.contains(&ids[0]) && screen.contains(&ids[2]),
        "{screen}"
    );
    term.send(keys::DOWN).send(keys::SPACE).send(keys::ENTER);
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    term.assert_restored();
    let writes = env.writes();
    assert_eq!(writes.len(), 1, "{writes:?}");
    let offered = [&ids[0], &ids[2]].map(|id| format!("/tunnel_sessions/{id}/restart"));
    assert!(offered.contains(&writes[0].path), "{writes:?}");
}

/// With only Windows agents online, a restart has nothing to offer: said before any picker.
#[test]
fn a_restart_picker_with_only_windows_agents_says_none_can_restart() {
    let env = Env::new();
    env.seed_sessions(serde_json::json!([{"os": "windows"}]));
    let mut term = env.pty(&["sessions", "restart"], 24, 80);
    assert_eq!(term.wait_exit(), 2, "{}", term.screen());
    let screen = term.screen();
    assert!(
        screen.contains("none of the 1 online session(s) can take restart"),
        "{screen}"
    );
    assert!(env.writes().is_empty(), "{:?}", env.writes());
}
