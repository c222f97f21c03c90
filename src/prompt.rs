//! Every question asked of a person: confirmations, pickers, text and hidden input. One place
//! decides whether a person can answer (stdin and stderr both terminals) and how an answer
//! that cannot be had becomes an error, so handlers never touch the terminal themselves; a
//! scripted prompter stands in for the person in unit tests.

use std::io::IsTerminal;

use crate::error::{Error, Result};

/// One scripted answer (unit tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Yes or no to a confirmation.
    Confirm(bool),
    /// The chosen items of a picker, by index.
    Pick(Vec<usize>),
    /// Typed text (also hidden input).
    Text(String),
}

/// Asks the person at the terminal, or answers from a script.
pub struct Prompter {
    /// `--yes`: every confirmation is already given.
    yes: bool,
    /// Can a person answer (stdin and stderr are terminals)?
    interactive: bool,
    /// Answers given in order instead of a person's (unit tests).
    script: Option<std::cell::RefCell<std::collections::VecDeque<Answer>>>,
}

impl Prompter {
    /// A prompter for the terminal this process runs at.
    pub fn terminal(yes: bool) -> Self {
        Prompter {
            yes,
            interactive: std::io::stdin().is_terminal() && std::io::stderr().is_terminal(),
            script: None,
        }
    }

    /// A prompter that answers from `answers`, in order, as a person at a terminal would.
    pub fn scripted(yes: bool, answers: Vec<Answer>) -> Self {
        Prompter {
            yes,
            interactive: true,
            script: Some(std::cell::RefCell::new(answers.into())),
        }
    }

    /// Can a person answer questions?
    pub fn is_interactive(&self) -> bool {
        self.interactive
    }

    fn scripted_answer(&self) -> Option<Result<Answer>> {
        let script = self.script.as_ref()?;
        Some(
            script
                .borrow_mut()
                .pop_front()
                .ok_or_else(|| Error::usage("no scripted answer left")),
        )
    }

    /// Asks to confirm a destructive action; off a terminal, refuses unless `--yes`.
    pub fn confirm(&self, question: &str) -> Result<()> {
        if self.yes {
            return Ok(());
        }
        if !self.interactive {
            return Err(Error::usage(format!(
                "{question} Refusing without a terminal to confirm: pass --yes"
            )));
        }
        let ok = match self.scripted_answer() {
            Some(answer) => answer? == Answer::Confirm(true),
            None => dialoguer::Confirm::new()
                .with_prompt(question)
                .default(false)
                .interact()
                .map_err(|e| Error::usage(format!("confirmation failed: {e}")))?,
        };
        if ok {
            Ok(())
        } else {
            Err(Error::usage("cancelled"))
        }
    }

    /// Lets the person choose any of `items` (already safe to show); the chosen indexes.
    pub fn pick(&self, prompt: &str, items: &[String]) -> Result<Vec<usize>> {
        match self.scripted_answer() {
            Some(answer) => match answer? {
                Answer::Pick(chosen) => Ok(chosen),
                other => Err(Error::usage(format!("expected a pick, got {other:?}"))),
            },
            None => dialoguer::MultiSelect::new()
                .with_prompt(prompt)
                .items(items)
                .interact()
                .map_err(|e| Error::usage(format!("no choice made: {e}"))),
        }
    }

    /// Asks for a line of text, offering `default`, until `valid` accepts it.
    pub fn text(
        &self,
        prompt: &str,
        default: Option<String>,
        valid: impl Fn(&str) -> std::result::Result<(), String>,
    ) -> Result<String> {
        if let Some(answer) = self.scripted_answer() {
            let Answer::Text(text) = answer? else {
                return Err(Error::usage("expected text"));
            };
            valid(&text).map_err(Error::usage)?;
            return Ok(text);
        }
        let mut input = dialoguer::Input::<String>::new().with_prompt(prompt);
        if let Some(d) = default {
            input = input.default(d);
        }
        input
            .validate_with(|s: &String| valid(s))
            .interact_text()
            .map_err(|e| Error::usage(format!("could not read the answer: {e}")))
    }

    /// Asks for a secret without showing it; empty only when `allow_empty`.
    pub fn secret(&self, prompt: &str, allow_empty: bool) -> Result<String> {
        if let Some(answer) = self.scripted_answer() {
            let Answer::Text(text) = answer? else {
                return Err(Error::usage("expected a secret"));
            };
            return Ok(text);
        }
        dialoguer::Password::new()
            .with_prompt(prompt)
            .allow_empty_password(allow_empty)
            .interact()
            .map_err(|e| Error::usage(format!("could not read the secret: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confirmations_follow_yes_the_terminal_and_the_answer() {
        assert!(Prompter::scripted(true, vec![]).confirm("Delete?").is_ok());
        assert!(Prompter::scripted(false, vec![Answer::Confirm(true)])
            .confirm("Delete?")
            .is_ok());
        let no = Prompter::scripted(false, vec![Answer::Confirm(false)]).confirm("Delete?");
        assert_eq!(no.unwrap_err().to_string(), "cancelled");
        let off = Prompter {
            yes: false,
            interactive: false,
            script: None,
        };
        let e = off.confirm("Delete 2 IP policies?").unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("pass --yes"), "{e}");
    }

    #[test]
    fn text_answers_are_validated() {
        let p = Prompter::scripted(false, vec![Answer::Text("nope".into())]);
        let e = p
            .text("URL", None, |s| {
                if s.starts_with("https://") {
                    Ok(())
                } else {
                    Err(format!("'{s}' is not https"))
                }
            })
            .unwrap_err();
        assert!(e.to_string().contains("not https"), "{e}");
    }
}
