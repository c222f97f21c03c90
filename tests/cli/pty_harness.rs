//! The pseudo-terminal harness itself (`tests/common/pty.rs`): it sees what a terminal shows,
//! types through the line discipline, and tells a terminal left broken from one restored.

use std::process::Command;

use crate::common::pty::{keys, Pty};

fn sh(script: &str) -> Command {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", script]);
    cmd
}

#[test]
fn typed_lines_reach_the_program_and_the_screen_shows_its_answer() {
    let mut term = Pty::spawn(
        &sh("printf 'name? '; read n; echo \"hello $n\"; exit 3"),
        10,
        40,
    );
    term.wait_for("name?");
    term.send("ada").send(keys::ENTER);
    assert!(term.wait_for("hello ada").contains("name? ada"));
    assert_eq!(term.wait_exit(), 3);
    term.assert_restored();
}

#[test]
fn ctrl_c_is_a_signal_in_cooked_mode() {
    let mut term = Pty::spawn(
        &sh("trap 'exit 130' INT; echo ready; while :; do sleep 0.05; done"),
        10,
        40,
    );
    term.wait_for("ready");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 130);
}

#[test]
#[should_panic(expected = "cursor was left hidden")]
fn a_hidden_cursor_is_caught() {
    let mut term = Pty::spawn(&sh("printf '\\033[?25lbye'"), 10, 40);
    term.wait_exit();
    term.assert_restored();
}

#[test]
#[should_panic(expected = "raw mode not undone")]
fn a_terminal_left_raw_is_caught() {
    let mut term = Pty::spawn(&sh("stty raw -echo; echo bye"), 10, 40);
    term.wait_exit();
    term.assert_restored();
}
