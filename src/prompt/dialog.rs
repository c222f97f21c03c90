//! The real terminal's questions, asked through dialoguer on stderr: typed lines (Input) and
//! choices among many (MultiSelect, with [`super::picker`]'s look); hidden answers are
//! [`super::hidden`]'s.
//!
//! dialoguer reads each key in raw mode, so Ctrl-C is a key that ends the question at once
//! (the terminal library then raises SIGINT, which our handler only counts). What it does not
//! do, by its maintainers' choice, is show the cursor again when Ctrl-C ends a question that
//! hid it: [`Asking`] does, however the question ends, as other tools built on it do. A stop
//! signal that arrives while a question waits ends the wait too; whatever was typed before
//! or after any stop signal is never taken as an answer.

use std::fmt;
use std::io::ErrorKind;

use dialoguer::console::Term;
use dialoguer::theme::Theme;
use dialoguer::{Input, MultiSelect};

use super::picker::{self, PickerLook};
use crate::error::{Error, Result};
use crate::interrupt;

/// Prompts shown as they are given: the question's wording (`[y/N] `, `: `) is decided by
/// [`super::Prompter`], the same for the terminal and for a script.
struct AsGiven;

impl Theme for AsGiven {
    fn format_input_prompt(
        &self,
        f: &mut dyn fmt::Write,
        prompt: &str,
        _default: Option<&str>,
    ) -> fmt::Result {
        write!(f, "{prompt}")
    }

    fn format_input_prompt_selection(
        &self,
        f: &mut dyn fmt::Write,
        prompt: &str,
        sel: &str,
    ) -> fmt::Result {
        write!(f, "{prompt}{sel}")
    }
}

/// One question being asked: notes the stop signals seen before it, and puts the cursor back
/// when it ends.
struct Asking {
    term: Term,
    before: interrupt::Seen,
}

impl Asking {
    fn start() -> Asking {
        // A handler must be in place before the terminal library raises SIGINT on Ctrl-C,
        // or the signal would end the process with the terminal as the question left it.
        interrupt::watch();
        Asking {
            term: Term::stderr(),
            before: interrupt::seen(),
        }
    }

    /// The question's answer, unless a stop signal came while it was asked or it was
    /// cancelled; says on the terminal that it was (`^C`).
    fn settle<T>(&self, answer: dialoguer::Result<T>) -> Result<T> {
        let stop = interrupt::error_since(self.before);
        let outcome = match (answer, stop) {
            (_, Some(Error::Terminated)) => Err(Error::Terminated),
            (_, Some(_)) => {
                let _ = self.term.write_str("^C");
                Err(Error::Interrupted)
            }
            (Ok(answer), None) => return Ok(answer),
            (Err(dialoguer::Error::IO(e)), None) => Err(match e.kind() {
                ErrorKind::Interrupted => Error::Interrupted,
                ErrorKind::UnexpectedEof => Error::usage("no answer: the input ended"),
                _ => Error::Io(format!("cannot ask at the terminal: {e}")),
            }),
        };
        let _ = self.term.write_line("");
        outcome
    }
}

impl Drop for Asking {
    fn drop(&mut self) {
        let _ = self.term.show_cursor();
    }
}

/// Writes text to the person.
pub fn say(text: &str) -> Result<()> {
    Term::stderr()
        .write_str(text)
        .map_err(|e| Error::Io(format!("cannot write to the terminal: {e}")))
}

/// The terminal's width in columns.
pub fn width() -> usize {
    usize::from(Term::stderr().size().1)
}

/// Shows `prompt` and reads a typed line.
pub fn line(prompt: &str) -> Result<String> {
    let asking = Asking::start();
    let answer = Input::<String>::with_theme(&AsGiven)
        .with_prompt(prompt)
        .allow_empty(true)
        .interact_text_on(&asking.term);
    asking.settle(answer)
}

/// Lets the person choose among `items`; `None` when they cancel with Esc or `q`. `nudge`
/// says how to choose (the last time, nothing was).
pub fn choose(prompt: &str, items: &[String], nudge: bool) -> Result<Option<Vec<usize>>> {
    let asking = Asking::start();
    let (rows, cols) = asking.term.size();
    let width = usize::from(cols);
    let cut: Vec<String> = items
        .iter()
        .map(|i| picker::fit(i, width.saturating_sub(picker::MARKS)))
        .collect();
    // The list, its prompt and the status line fit in all rows but one.
    let max_length = usize::from(rows).saturating_sub(1).max(3);
    let look = PickerLook::new(cut.clone(), max_length, width, nudge);
    let answer = MultiSelect::with_theme(&look)
        .with_prompt(prompt)
        .items(&cut)
        .max_length(max_length)
        .interact_on_opt(&asking.term);
    asking.settle(answer)
}
