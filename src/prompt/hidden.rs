//! Hidden answers (the API key, an AWS secret) typed at the terminal, read key by key through
//! crossterm with nothing echoed. dialoguer's own hidden prompt reads a whole line in the
//! terminal's line mode, where Ctrl-C is a signal the blocked read never sees: the question
//! would only end on the next Enter, and typed-ahead text would become the answer. In raw
//! mode Ctrl-C is a key, so it ends the question at once; a stop signal from elsewhere (`kill`,
//! a supervisor's SIGTERM) is noticed between keys. The terminal is put back however the
//! question ends (crossterm's raw mode is undone on drop).

use std::io::Write;
use std::time::Duration;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::line::{Edit, Line, Stroke};
use crate::error::{Error, Result};
use crate::interrupt;

/// How often a wait for a key looks for a stop signal.
const SIGNAL_CHECK: Duration = Duration::from_millis(100);

/// Raw mode until dropped.
struct Raw;

impl Raw {
    fn on() -> Result<Raw> {
        crossterm::terminal::enable_raw_mode()
            .map_err(|e| Error::Io(format!("cannot ask: the terminal cannot be set up ({e})")))?;
        Ok(Raw)
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = crossterm::terminal::disable_raw_mode();
    }
}

/// Writes to the person (stderr, where every question is asked).
fn say(text: &str) -> Result<()> {
    let mut err = std::io::stderr().lock();
    err.write_all(text.as_bytes())
        .and_then(|()| err.flush())
        .map_err(|e| Error::Io(format!("cannot write to the terminal: {e}")))
}

/// A key as a line takes it.
fn stroke(key: KeyEvent) -> Stroke {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('c') if ctrl => Stroke::Interrupt,
        KeyCode::Char('d') if ctrl => Stroke::Eof,
        KeyCode::Char('u') if ctrl => Stroke::KillLine,
        KeyCode::Char(_) if ctrl => Stroke::Other,
        KeyCode::Char(c) => Stroke::Char(c),
        KeyCode::Backspace => Stroke::Backspace,
        KeyCode::Enter => Stroke::Enter,
        KeyCode::Esc => Stroke::Cancel,
        _ => Stroke::Other,
    }
}

/// Drops the keys typed but not read yet, so none reaches the shell after a cancel.
fn discard_typed_ahead() {
    while matches!(event::poll(Duration::ZERO), Ok(true)) {
        if event::read().is_err() {
            return;
        }
    }
}

/// Shows `prompt` and reads a line without echoing it.
pub fn read(prompt: &str) -> Result<String> {
    interrupt::watch();
    let before = interrupt::seen();
    say(prompt)?;
    let raw = Raw::on()?;
    let mut line = Line::default();
    let fail = |e: std::io::Error| Error::Io(format!("cannot read from the terminal: {e}"));
    let (edit, ending) = loop {
        if let Some(stop) = interrupt::error_since(before) {
            break (Err(stop), "\r\n");
        }
        if !event::poll(SIGNAL_CHECK).map_err(fail)? {
            continue;
        }
        let Event::Key(key) = event::read().map_err(fail)? else {
            continue;
        };
        if key.kind == KeyEventKind::Release {
            continue;
        }
        match line.key(stroke(key)) {
            Edit::Typing => {}
            Edit::Submit(text) => break (Ok(text), "\r\n"),
            Edit::Interrupt => {
                discard_typed_ahead();
                break (Err(Error::Interrupted), "^C\r\n");
            }
            Edit::Cancel => {
                discard_typed_ahead();
                break (Err(Error::Interrupted), "\r\n");
            }
            Edit::Eof => break (Err(Error::usage("no answer: the input ended")), "\r\n"),
        }
    };
    say(ending)?;
    drop(raw);
    edit
}
