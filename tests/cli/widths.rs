//! Text laid out for where it goes: help off a terminal (`tunnelctl --help | less`, `help
//! output | head`) wraps at 80 columns, or `COLUMNS` when set; what goes to stderr is folded at
//! spaces for stderr's own terminal, whether stdout is that terminal or a file, and never cut
//! inside a word.

use crate::common::pty::Pty;
use crate::common::{run, strings, Env};
use serde_json::json;

/// The display width of the widest line of `text`.
fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// Every help a pipe shows fits 80 columns without `COLUMNS`, and `COLUMNS` columns with it
/// (they wrapped at 100), filling the width rather than wrapping short.
#[test]
fn help_in_a_pipe_wraps_at_80_columns_or_columns() {
    let env = Env::new();
    let helps: [&[&str]; 5] = [
        &["--help"],
        &["help", "output"],
        &["help", "exit-codes"],
        &["sessions", "restart", "--help"],
        &["help", "sessions", "restart"],
    ];
    for args in helps {
        let out = run(env.bare().env_remove("COLUMNS").args(args));
        out.ok();
        assert!(widest(&out.stdout) <= 80, "{args:?}:\n{}", out.stdout);
        assert!(
            widest(&out.stdout) > 70,
            "{args:?} fills its lines:\n{}",
            out.stdout
        );
        let out = run(env.bare().env("COLUMNS", "60").args(args));
        out.ok();
        assert!(widest(&out.stdout) <= 60, "{args:?}:\n{}", out.stdout);
    }
    // A group named without its command shows its help on stderr: 80 columns too.
    let out = run(env.bare().env_remove("COLUMNS").arg("sessions"));
    out.code(2);
    assert!(widest(&out.stderr) <= 80, "{}", out.stderr);
}

/// `tunnelctl --help | cat` on a terminal 120 columns wide: the pager gets 80 columns, not the
/// width of the terminal stderr is on (clap asked that one).
#[test]
fn help_piped_from_a_wide_terminal_wraps_at_80_columns() {
    let env = Env::new();
    let term = on_terminal(&env, "\"$0\" --help | cat", 120);
    let shown = String::from_utf8_lossy(&term.output()).replace("\r\n", "\n");
    assert!(shown.contains("Global options"), "{shown}");
    assert!(widest(&shown) <= 80, "{shown}");
}

/// A mixed fleet whose dry run notes a skipped Windows session on stderr in a line of about
/// a hundred columns.
fn a_fleet_with_windows(env: &Env) {
    strings(&env.seed(json!({"sessions": [{"os": "linux"}, {"os": "windows"}]}))["sessions"]);
}

/// `sh -c LINE` with the test's environment, on a terminal `cols` wide, to its end.
fn on_terminal(env: &Env, line: &str, cols: u16) -> Pty {
    let program = assert_cmd::cargo::cargo_bin("tunnelctl");
    let mut base = env.std_cmd();
    base.env_remove("COLUMNS");
    let mut sh = std::process::Command::new("sh");
    sh.args(["-c", line])
        .arg(&program)
        .current_dir(env.dir.path());
    for (k, v) in base.get_envs() {
        match v {
            Some(v) => sh.env(k, v),
            None => sh.env_remove(k),
        };
    }
    let mut term = Pty::spawn(&sh, 24, cols);
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    term
}

/// A note on stderr is folded at spaces for stderr's terminal, when stdout is a file (it was
/// folded for 120 columns, and the terminal cut it `(n` / `ot counted as failures)`) and when
/// stdout is the terminal too: no row runs over, no word is cut.
#[test]
fn stderr_notes_fold_for_stderrs_terminal_whether_or_not_stdout_is_redirected() {
    let env = Env::new();
    a_fleet_with_windows(&env);
    // (The dry run's own lines, on stdout, are JSON here when stdout is the terminal: what
    // is checked is stderr.)
    for line in [
        "\"$0\" sessions restart --all --dry-run > out.txt",
        "\"$0\" sessions restart --all --dry-run --json",
    ] {
        let term = on_terminal(&env, line, 80);
        let screen = term.screen();
        assert!(
            term.wrapped_rows().is_empty(),
            "{line}: {:?}\n{screen}",
            term.wrapped_rows()
        );
        let words: Vec<&str> = screen.split_whitespace().collect();
        assert!(
            words.join(" ").contains("(not counted as failures)."),
            "{line}:\n{screen}"
        );
    }
}

/// `--agent-version v3.19` says to drop the `v`, in a few words (it printed the whole grammar,
/// seven lines on a terminal, broken inside words); on an 80-column terminal no row runs over.
#[test]
fn a_version_with_a_v_is_told_to_drop_it_in_a_short_error() {
    let env = Env::new();
    for args in [
        &["sessions", "list", "--agent-version", "v3.19"][..],
        &["sessions", "update", "--all", "--agent-version", "v3.19"],
    ] {
        let out = env.run(args);
        out.code(2).says("drop the 'v'").says("3.19");
        let lines = out.stderr.lines().filter(|l| !l.trim().is_empty()).count();
        assert!(lines <= 2, "{}", out.stderr);
        assert!(widest(&out.stderr) <= 100, "{}", out.stderr);
    }
    // Any other version outside the grammar: short too, with where the grammar is.
    let out = env.run(&["sessions", "list", "--agent-version", "~3.19"]);
    out.code(2).says("--help");
    assert!(out.stderr.lines().count() <= 3, "{}", out.stderr);
    let mut cmd = env.std_cmd();
    cmd.env_remove("COLUMNS")
        .args(["sessions", "list", "--agent-version", "v3.19"]);
    let mut term = Pty::spawn(&cmd, 24, 80);
    assert_eq!(term.wait_exit(), 2, "{}", term.screen());
    assert!(term.wrapped_rows().is_empty(), "{}", term.screen());
    assert!(term.screen().contains("drop the 'v'"), "{}", term.screen());
}
