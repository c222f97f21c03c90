//! Every question asked of a person: confirmations, pickers, text and hidden input. One place
//! decides whether a person can answer (stdin and stderr both terminals) and how an answer
//! that cannot be had becomes an error, so handlers never touch the terminal themselves.
//!
//! A question owns the terminal while it is asked: raw mode ([`terminal`]), keys read one by
//! one ([`keys`]) into a line ([`line`]) or a choice ([`picker`]). So Ctrl-C is a key the
//! question sees at once, not a signal the (blocked) runtime would hear only later: it ends
//! the question with exit 130, drops whatever was typed ahead, and nothing typed after it is
//! ever taken as an answer. Esc and `q` cancel a picker too. The terminal is put back (cooked
//! mode, cursor shown) however the question ends.
//!
//! A scripted prompter types keys from a string instead of a person, through the same code,
//! and keeps what was written: unit tests drive every question with it.

mod keys;
mod line;
mod picker;
#[cfg(unix)]
mod terminal;

use std::cell::RefCell;
use std::io::IsTerminal;

use crate::error::{Error, Result};
pub use keys::Key;
use line::{Edit, Line};
use picker::{Pick, Picker};

/// Where questions go and keys come from.
trait Console {
    /// The next key (blocks until one is typed).
    fn read_key(&mut self) -> Result<Key>;
    /// Writes text to the person.
    fn write(&mut self, text: &str) -> Result<()>;
    /// Rows and columns.
    fn size(&self) -> (usize, usize);
    /// Hides the cursor until the console is closed.
    fn hide_cursor(&mut self) -> Result<()>;
    /// Drops what was typed but not read yet (after a cancel, so it never reaches the shell).
    fn discard_input(&mut self);
}

/// Keys typed from a string, output kept (unit tests).
struct Script {
    keys: Vec<u8>,
    written: String,
}

impl Console for Script {
    fn read_key(&mut self) -> Result<Key> {
        let Some(&first) = self.keys.first() else {
            return Ok(Key::Eof);
        };
        let (key, n) = keys::parse(&self.keys).unwrap_or((keys::lone(first), 1));
        self.keys.drain(..n);
        Ok(key)
    }

    fn write(&mut self, text: &str) -> Result<()> {
        self.written.push_str(text);
        Ok(())
    }

    fn size(&self) -> (usize, usize) {
        (12, 60)
    }

    fn hide_cursor(&mut self) -> Result<()> {
        self.write("\x1b[?25l")
    }

    fn discard_input(&mut self) {
        self.keys.clear();
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

/// How a text question ends when the person stops it.
fn stopped(console: &mut dyn Console, key_was_ctrl_c: bool) -> Error {
    console.discard_input();
    let _ = console.write(if key_was_ctrl_c { "^C\n" } else { "\n" });
    Error::Interrupted
}

impl Prompter {
    /// A prompter for the terminal this process runs at. Only Unix terminals are asked
    /// (raw mode is how a question owns Ctrl-C); elsewhere, commands need their flags.
    pub fn terminal(yes: bool) -> Self {
        Prompter {
            yes,
            interactive: cfg!(unix)
                && std::io::stdin().is_terminal()
                && std::io::stderr().is_terminal(),
            io: Io::Terminal,
        }
    }

    /// A prompter at a pretend terminal where `keys` are typed, in order (unit tests).
    pub fn scripted(yes: bool, keys: &str) -> Self {
        Prompter {
            yes,
            interactive: true,
            io: Io::Script(RefCell::new(Script {
                keys: keys.as_bytes().to_vec(),
                written: String::new(),
            })),
        }
    }

    /// What the questions wrote so far (scripted prompters; empty for the terminal).
    pub fn transcript(&self) -> String {
        match &self.io {
            Io::Script(s) => s.borrow().written.clone(),
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

    /// Runs one question on the console, which is held (the terminal in raw mode) until it
    /// ends, however it ends.
    fn ask<T>(&self, question: impl FnOnce(&mut dyn Console) -> Result<T>) -> Result<T> {
        match &self.io {
            Io::Script(script) => question(&mut *script.borrow_mut()),
            #[cfg(unix)]
            Io::Terminal => question(&mut terminal::Terminal::open()?),
            #[cfg(not(unix))]
            Io::Terminal => Err(Error::usage("questions need a Unix terminal")),
        }
    }

    /// Asks to confirm a destructive action; off a terminal, refuses unless `--yes`.
    pub fn confirm(&self, question: &str) -> Result<()> {
        self.confirm_items(question, &[], 0)
    }

    /// Asks to confirm an action on the items shown (a line each, already safe to show), and
    /// `more` not shown; the question comes last, so it never scrolls away. A typed line is
    /// the answer: `yes` or `y`; `no`, `n` or nothing at all is no (exit 2, nothing done);
    /// Ctrl-C is exit 130. Off a terminal, refuses unless `--yes`.
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
            let (_, cols) = c.size();
            for item in items {
                c.write(&format!(
                    "  {}\n",
                    picker::fit(item, cols.saturating_sub(2))
                ))?;
            }
            if more > 0 {
                c.write(&format!("  … and {more} more\n"))?;
            }
            loop {
                c.write(&format!("{question} [y/N] "))?;
                let answer = read_line(c, false)?;
                match answer.trim().to_ascii_lowercase().as_str() {
                    "y" | "yes" => return Ok(true),
                    "" | "n" | "no" => return Ok(false),
                    _ => c.write("Please type yes or no.\n")?,
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
    /// least one. Esc, `q` and Ctrl-C cancel (exit 130).
    pub fn pick(&self, prompt: &str, items: &[String]) -> Result<Vec<usize>> {
        self.ask(|c| {
            c.hide_cursor()?;
            let mut choice = Picker::new(items.len());
            let mut drawn = 0;
            loop {
                let (rows, cols) = c.size();
                let lines = choice.view(prompt, items, rows.saturating_sub(1).max(3), cols);
                redraw(c, drawn, &lines)?;
                drawn = lines.len();
                let key = c.read_key()?;
                match choice.key(key) {
                    Pick::Continue => {}
                    Pick::Done(chosen) => {
                        redraw(c, drawn, &[])?;
                        c.write(&format!("{prompt}: {} chosen\n", chosen.len()))?;
                        return Ok(chosen);
                    }
                    Pick::Cancel => {
                        redraw(c, drawn, &[])?;
                        c.discard_input();
                        if key == Key::Interrupt {
                            c.write("^C\n")?;
                        }
                        return Err(Error::Interrupted);
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
            match &default {
                Some(d) => c.write(&format!("{prompt} [{d}]: "))?,
                None => c.write(&format!("{prompt}: "))?,
            }
            let typed = read_line(c, false)?;
            let answer = match (typed.trim(), &default) {
                ("", Some(d)) => d.clone(),
                (t, _) => t.to_string(),
            };
            match valid(&answer) {
                Ok(()) => return Ok(answer),
                Err(why) => c.write(&format!("  {}\n", crate::escape::escape(&why)))?,
            }
        })
    }

    /// Asks for a secret without showing it (not even its length); empty only when
    /// `allow_empty`.
    pub fn secret(&self, prompt: &str, allow_empty: bool) -> Result<String> {
        self.ask(|c| loop {
            c.write(&format!("{prompt}: "))?;
            let typed = read_line(c, true)?;
            if !typed.trim().is_empty() || allow_empty {
                return Ok(typed.trim().to_string());
            }
            c.write("  It must not be empty.\n")?;
        })
    }
}

/// Reads one line from the console, echoed unless `hidden`; the line ends on Enter.
fn read_line(c: &mut dyn Console, hidden: bool) -> Result<String> {
    let mut line = Line::new(hidden);
    loop {
        match line.key(c.read_key()?) {
            Edit::Echo(text) => c.write(&text)?,
            Edit::Submit(text) => {
                c.write("\n")?;
                return Ok(text);
            }
            Edit::Interrupt => return Err(stopped(c, true)),
            Edit::Eof => {
                c.write("\n")?;
                return Err(Error::usage("no answer: the input ended"));
            }
        }
    }
}

/// Replaces the `drawn` lines last written (the cursor at the end of the last) with `lines`.
fn redraw(c: &mut dyn Console, drawn: usize, lines: &[String]) -> Result<()> {
    let mut out = String::new();
    if drawn > 1 {
        out.push_str(&format!("\x1b[{}A", drawn - 1));
    }
    if drawn > 0 {
        out.push_str("\r\x1b[J");
    }
    out.push_str(&lines.join("\n"));
    c.write(&out)
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
        assert!(p.transcript().starts_with("\x1b[?25l"));
        assert!(p.transcript().ends_with("Sessions: 2 chosen\n"));
        for cancel in ["\x1b", "q", " \x03", "\x1bq"] {
            let e = Prompter::scripted(false, cancel)
                .pick("Sessions", &items)
                .unwrap_err();
            assert_eq!(e.exit_code(), 130, "{cancel:?}");
        }
    }
}
