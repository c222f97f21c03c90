//! Every question asked of a person: confirmations, pickers, text and hidden input. One place
//! decides whether a person can answer (stdin and stderr both terminals), what each question
//! says and how its answer is read, and how an answer that cannot be had becomes an error, so
//! handlers never touch the terminal themselves.
//!
//! At the terminal, dialoguer asks every question (`dialog`; hidden answers through its
//! `Password`, `hidden`). Ctrl-C ends any question at once with exit 130 (SIGTERM with 143),
//! and nothing typed before or after it is taken as an answer; Esc and `q` cancel a picker, and
//! Esc then Enter a hidden answer. A picker left with Enter and nothing chosen opens its find
//! step, where typing filters the rows and Enter chooses one (Esc goes back to the picker).
//! The terminal is put back (cursor shown, line mode) however a question ends.
//!
//! A scripted prompter (`script`) types keys from a string instead of a person and keeps
//! what was written: unit and in-process tests drive every question with it.

mod dialog;
mod find;
mod hidden;
mod line;
mod picker;
mod script;

use std::cell::RefCell;
use std::io::IsTerminal;

use crate::error::{Error, Result};
pub use picker::columns;
use script::Script;

/// Where questions go and answers come from: the terminal or a script.
trait Ask {
    /// Writes text to the person.
    fn say(&mut self, text: &str) -> Result<()>;
    /// Columns.
    fn width(&self) -> usize;
    /// Shows `prompt` as given and reads a typed line.
    fn line(&mut self, prompt: &str) -> Result<String>;
    /// Shows `prompt` as given and reads a line, showing nothing of it.
    fn hidden(&mut self, prompt: &str) -> Result<String>;
    /// Lets the person choose among `items`, those at `chosen` already chosen; `None` when
    /// cancelled (Esc, `q`).
    fn choose(
        &mut self,
        prompt: &str,
        items: &[String],
        chosen: &[usize],
    ) -> Result<Option<Vec<usize>>>;
    /// Lets the person find one of `items` by typing part of it; `None` when they go back
    /// (Esc).
    fn find(&mut self, prompt: &str, items: &[String]) -> Result<Option<usize>>;
}

/// The terminal this process runs at.
struct Terminal;

impl Ask for Terminal {
    fn say(&mut self, text: &str) -> Result<()> {
        dialog::say(text)
    }

    fn width(&self) -> usize {
        dialog::width()
    }

    fn line(&mut self, prompt: &str) -> Result<String> {
        dialog::line(prompt)
    }

    fn hidden(&mut self, prompt: &str) -> Result<String> {
        hidden::read(prompt)
    }

    fn choose(
        &mut self,
        prompt: &str,
        items: &[String],
        chosen: &[usize],
    ) -> Result<Option<Vec<usize>>> {
        dialog::choose(prompt, items, chosen)
    }

    fn find(&mut self, prompt: &str, items: &[String]) -> Result<Option<usize>> {
        dialog::find(prompt, items)
    }
}

enum Io {
    Terminal,
    Script(RefCell<Script>),
}

/// Asks the person at the terminal, or answers from a script.
pub struct Prompter {
    /// `--yes`: every confirmation is already given.
    yes: bool,
    /// Can a person answer (stdin and stderr are terminals)?
    interactive: bool,
    io: Io,
}

/// What a confirmation's answer is.
const YES_NO: &str = "[y/N] ";
/// What the find step's prompt says after the picker's.
const FIND_KEYS: &str = "type to filter (enter: choose, esc: back)";
/// Columns kept free after a confirmation's `[y/N] ` for the answer being typed.
const ANSWER_ROOM: usize = 4;

impl Prompter {
    /// A prompter for the terminal this process runs at (any platform's).
    pub fn terminal(yes: bool) -> Self {
        Prompter {
            yes,
            interactive: std::io::stdin().is_terminal() && std::io::stderr().is_terminal(),
            io: Io::Terminal,
        }
    }

    /// A prompter at a pretend terminal where `keys` are typed, in order (unit tests).
    pub fn scripted(yes: bool, keys: &str) -> Self {
        Prompter {
            yes,
            interactive: true,
            io: Io::Script(RefCell::new(Script::new(keys))),
        }
    }

    /// What the questions wrote so far (scripted prompters; empty for the terminal).
    pub fn transcript(&self) -> String {
        match &self.io {
            Io::Script(s) => s.borrow().written().to_string(),
            Io::Terminal => String::new(),
        }
    }

    /// Can a person answer questions?
    pub fn is_interactive(&self) -> bool {
        self.interactive
    }

    /// Will [`Prompter::confirm`] ask (a terminal, and no `--yes`)? Only then is it worth
    /// fetching details to show with the question.
    pub fn will_ask(&self) -> bool {
        self.interactive && !self.yes
    }

    /// Runs one question where it is asked.
    fn ask<T>(&self, question: impl FnOnce(&mut dyn Ask) -> Result<T>) -> Result<T> {
        match &self.io {
            Io::Script(script) => question(&mut *script.borrow_mut()),
            Io::Terminal => question(&mut Terminal),
        }
    }

    /// Asks to confirm a destructive action; off a terminal, refuses unless `--yes`.
    pub fn confirm(&self, question: &str) -> Result<()> {
        self.confirm_items(question, &[], 0)
    }

    /// Asks to confirm an action on the items shown (a line each, already safe to show), and
    /// `more` not shown; the question comes last, so it never scrolls away, broken between
    /// words so that its `[y/N]` is never wrapped. A typed line is the answer: `yes` or `y`;
    /// `no`, `n` or nothing at all is no (exit 2, nothing done); Ctrl-C is exit 130. Off a
    /// terminal, refuses unless `--yes`.
    pub fn confirm_items(&self, question: &str, items: &[String], more: usize) -> Result<()> {
        if self.yes {
            return Ok(());
        }
        if !self.interactive {
            return Err(Error::usage(format!(
                "{question} Refusing without a terminal to confirm: pass --yes"
            )));
        }
        let yes = self.ask(|c| {
            let cols = c.width();
            for item in items {
                c.say(&format!(
                    "  {}\n",
                    picker::fit(item, cols.saturating_sub(2))
                ))?;
            }
            if more > 0 {
                c.say(&format!("  … and {more} more\n"))?;
            }
            let (lead, last) = with_answer_room(question, cols);
            loop {
                if !lead.is_empty() {
                    c.say(&lead)?;
                }
                let answer = c.line(&format!("{last} {YES_NO}"))?;
                match answer.trim().to_ascii_lowercase().as_str() {
                    "y" | "yes" => return Ok(true),
                    "" | "n" | "no" => return Ok(false),
                    _ => c.say("Please type yes or no.\n")?,
                }
            }
        })?;
        if yes {
            Ok(())
        } else {
            Err(Error::usage("cancelled: nothing was done"))
        }
    }

    /// Lets the person choose any of `items` (already safe to show); the chosen indexes, at
    /// least one. Esc, `q` and Ctrl-C cancel (exit 130). Enter with nothing chosen opens the
    /// find step: typing filters the rows, Enter chooses the one under the cursor and goes
    /// back to the picker with it chosen, Esc goes back with nothing changed.
    pub fn pick(&self, prompt: &str, items: &[String]) -> Result<Vec<usize>> {
        if items.is_empty() {
            return Ok(Vec::new());
        }
        // Enter is the only key that leaves dialoguer's multi-select without cancelling it,
        // so an Enter that would choose nothing is the way into the find step.
        let find = format!("{prompt}: {FIND_KEYS}");
        self.ask(|c| {
            let mut chosen = Vec::new();
            loop {
                match c.choose(prompt, items, &chosen)? {
                    None => return Err(Error::Interrupted),
                    Some(picked) if !picked.is_empty() => return Ok(picked),
                    Some(picked) => {
                        chosen = picked;
                        if let Some(found) = c.find(&find, items)? {
                            if !chosen.contains(&found) {
                                chosen.push(found);
                            }
                        }
                    }
                }
            }
        })
    }

    /// Asks for a line of text, offering `default` (Enter takes it), until `valid` accepts it.
    pub fn text(
        &self,
        prompt: &str,
        default: Option<String>,
        valid: impl Fn(&str) -> std::result::Result<(), String>,
    ) -> Result<String> {
        self.ask(|c| loop {
            let shown = match &default {
                Some(d) => format!("{prompt} [{d}]: "),
                None => format!("{prompt}: "),
            };
            let typed = c.line(&shown)?;
            let answer = match (typed.trim(), &default) {
                ("", Some(d)) => d.clone(),
                (t, _) => t.to_string(),
            };
            match valid(&answer) {
                Ok(()) => return Ok(answer),
                Err(why) => c.say(&format!("  {}\n", crate::escape::escape(&why)))?,
            }
        })
    }

    /// Asks for a secret without showing it (not even its length); empty only when
    /// `allow_empty`.
    pub fn secret(&self, prompt: &str, allow_empty: bool) -> Result<String> {
        self.ask(|c| loop {
            let typed = c.hidden(&format!("{prompt}: "))?;
            if !typed.trim().is_empty() || allow_empty {
                return Ok(typed.trim().to_string());
            }
            c.say("  It must not be empty.\n")?;
        })
    }
}

/// `question` broken between words for a terminal of `cols` columns: the lines before the
/// last (each ending in a newline), and the last, short enough to keep `[y/N] ` and the answer
/// on its row.
fn with_answer_room(question: &str, cols: usize) -> (String, String) {
    let room = YES_NO.len() + 1 + ANSWER_ROOM;
    let mut lines = picker::wrap(question, cols);
    let last = lines.pop().unwrap_or_default();
    if unicode_width::UnicodeWidthStr::width(last.as_str()) + room < cols {
        lines.push(last);
    } else {
        lines.extend(picker::wrap(&last, cols.saturating_sub(room)));
    }
    let last = lines.pop().unwrap_or_default();
    let lead: String = lines.iter().map(|l| format!("{l}\n")).collect();
    (lead, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn https(s: &str) -> std::result::Result<(), String> {
        if s.starts_with("https://") {
            Ok(())
        } else {
            Err(format!("'{s}' is not https"))
        }
    }

    #[test]
    fn confirmations_read_a_line() {
        for yes in ["yes\r", "y\r", "YES\r", "maybe\ryes\r"] {
            let p = Prompter::scripted(false, yes);
            assert!(p.confirm("Delete 1 IP policy?").is_ok(), "{yes:?}");
        }
        for no in ["\r", "no\r", "n\r", "nope\rno\r"] {
            let e = Prompter::scripted(false, no)
                .confirm("Delete?")
                .unwrap_err();
            assert_eq!(e.exit_code(), 2, "{no:?}");
        }
        let p = Prompter::scripted(false, "maybe\ry\r");
        p.confirm("Delete?").unwrap();
        assert_eq!(
            p.transcript(),
            "Delete? [y/N] maybe\nPlease type yes or no.\nDelete? [y/N] y\n"
        );
    }

    #[test]
    fn ctrl_c_ends_any_question_at_once_and_what_follows_is_never_an_answer() {
        let p = Prompter::scripted(false, "ye\x03s\r");
        assert_eq!(p.confirm("Delete?").unwrap_err().exit_code(), 130);
        let p = Prompter::scripted(false, "tk_sec\x03tk_next\r");
        assert_eq!(p.secret("API key", false).unwrap_err().exit_code(), 130);
        assert!(!p.transcript().contains("tk_"), "{}", p.transcript());
        let p = Prompter::scripted(false, "https://x\x03\r");
        assert_eq!(p.text("URL", None, https).unwrap_err().exit_code(), 130);
        // The keys typed after Ctrl-C were dropped: another question gets none of them.
        assert_eq!(p.text("URL", None, https).unwrap_err().exit_code(), 2);
    }

    #[test]
    fn esc_then_enter_cancels_a_secret() {
        let p = Prompter::scripted(false, "tk_a\x1bbc\r");
        assert_eq!(p.secret("API key", false).unwrap_err().exit_code(), 130);
        assert!(!p.transcript().contains("tk_"), "{}", p.transcript());
        // Esc alone ends nothing: the answer is still being typed when the input ends.
        let p = Prompter::scripted(false, "tk_a\x1b");
        assert_eq!(p.secret("API key", false).unwrap_err().exit_code(), 2);
        // A visible line ignores it.
        let p = Prompter::scripted(false, "https://\x1bx\r");
        assert_eq!(p.text("URL", None, https).unwrap(), "https://x");
    }

    #[test]
    fn off_a_terminal_confirmations_need_yes() {
        assert!(Prompter::scripted(true, "").confirm("Delete?").is_ok());
        let off = Prompter {
            yes: false,
            interactive: false,
            io: Io::Terminal,
        };
        let e = off.confirm("Delete 2 IP policies?").unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("pass --yes"), "{e}");
        assert!(!off.will_ask());
    }

    #[test]
    fn the_items_come_before_the_question() {
        let p = Prompter::scripted(false, "y\r");
        p.confirm_items(
            "Delete 7 IP policies?",
            &["ipp_1  office".into(), "ipp_2  vpn".into()],
            5,
        )
        .unwrap();
        assert!(p.transcript().starts_with(
            "  ipp_1  office\n  ipp_2  vpn\n  … and 5 more\nDelete 7 IP policies? [y/N] "
        ));
    }

    #[test]
    fn text_is_validated_and_asked_again() {
        let p = Prompter::scripted(false, "http://x\rhttps://x\r");
        assert_eq!(p.text("URL", None, https).unwrap(), "https://x");
        assert!(p.transcript().contains("'http://x' is not https"));
        let p = Prompter::scripted(false, "\r");
        let d = Some("https://d".to_string());
        assert_eq!(p.text("URL", d, https).unwrap(), "https://d");
    }

    #[test]
    fn secrets_are_never_echoed() {
        let p = Prompter::scripted(false, "\rtk_abc\x7fd\r");
        assert_eq!(p.secret("API key", false).unwrap(), "tk_abd");
        assert!(!p.transcript().contains("tk_"), "{}", p.transcript());
        let p = Prompter::scripted(false, "\r");
        assert_eq!(p.secret("API key", true).unwrap(), "");
    }

    #[test]
    fn pickers_choose_and_cancel() {
        let items: Vec<String> = (1..=4).map(|i| format!("ts_{i}")).collect();
        let p = Prompter::scripted(false, " \x1b[B\x1b[B \r");
        assert_eq!(p.pick("Sessions", &items).unwrap(), vec![0, 2]);
        assert!(p.transcript().starts_with("Sessions\n"));
        assert!(p.transcript().ends_with("Sessions: 2 chosen\n"));
        for cancel in ["\x1b", "q", " \x03", "\x1bq"] {
            let e = Prompter::scripted(false, cancel)
                .pick("Sessions", &items)
                .unwrap_err();
            assert_eq!(e.exit_code(), 130, "{cancel:?}");
        }
    }

    fn sessions() -> Vec<String> {
        ["ts_1  us  linux", "ts_2  eu  darwin", "ts_3  ap  windows"]
            .map(String::from)
            .to_vec()
    }

    #[test]
    fn enter_with_nothing_chosen_opens_the_find_step() {
        let items = sessions();
        // Enter, `eu` typed, Enter: back in the picker with ts_2 chosen; Enter.
        let p = Prompter::scripted(false, "\reu\r\r");
        assert_eq!(p.pick("Sessions", &items).unwrap(), vec![1]);
        assert_eq!(
            p.transcript(),
            "Sessions\nSessions: type to filter (enter: choose, esc: back) eu\n\
             Sessions\nSessions: 1 chosen\n"
        );
        // What was found stays chosen beside what is chosen in the picker after.
        let p = Prompter::scripted(false, "\rap\r \r");
        assert_eq!(p.pick("Sessions", &items).unwrap(), vec![0, 2]);
        // Arrows move among the rows shown; a filter matching nothing chooses nothing.
        let p = Prompter::scripted(false, "\rzz\r\x7f\x7f\x1b[B\r\r");
        assert_eq!(p.pick("Sessions", &items).unwrap(), vec![1]);
        assert!(Prompter::scripted(false, "")
            .pick("S", &[])
            .unwrap()
            .is_empty());
    }

    #[test]
    fn esc_in_the_find_step_goes_back_and_ctrl_c_ends_it() {
        let items = sessions();
        // Esc: back in the picker with nothing chosen; there, `j` and space choose ts_2.
        let p = Prompter::scripted(false, "\reu\x1bj \r");
        assert_eq!(p.pick("Sessions", &items).unwrap(), vec![1]);
        // Esc in the picker after it still cancels.
        let e = Prompter::scripted(false, "\reu\x1b\x1b")
            .pick("Sessions", &items)
            .unwrap_err();
        assert_eq!(e.exit_code(), 130);
        let p = Prompter::scripted(false, "\reu\x03\r\r");
        assert_eq!(p.pick("Sessions", &items).unwrap_err().exit_code(), 130);
        assert!(p.transcript().ends_with("^C\n"), "{}", p.transcript());
    }

    #[test]
    fn a_long_question_keeps_its_answer_on_its_last_row() {
        let q = "Stop the agent of 1 session(s)? They exit and do not come back by themselves.";
        let (lead, last) = with_answer_room(q, 80);
        assert_eq!(
            lead,
            "Stop the agent of 1 session(s)? They exit and do not come back by\n"
        );
        assert_eq!(last, "themselves.");
        assert_eq!(
            with_answer_room("Delete?", 80),
            (String::new(), "Delete?".into())
        );
        let p = Prompter::scripted(false, "n\r");
        assert_eq!(p.confirm(q).unwrap_err().exit_code(), 2);
        assert!(
            p.transcript().ends_with("\nback by themselves. [y/N] n\n"),
            "{}",
            p.transcript()
        );
    }
}
