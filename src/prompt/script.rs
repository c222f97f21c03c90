//! A pretend terminal where keys are typed from a string, and what the questions wrote is
//! kept: unit and in-process tests ask every question through it. Lines are edited as at the
//! terminal (Backspace, Ctrl-U, Ctrl-C, Ctrl-D; Esc then Enter cancels a hidden line), a
//! choice takes the keys dialoguer's multi-select takes (arrows or `j`/`k`, space, `a`, Enter,
//! Esc or `q`), and the find step those of its fuzzy select (typed text, Backspace, arrows,
//! Enter, Esc).

use super::line::{Edit, Stroke, TypedLine};
use super::Ask;
use crate::error::{Error, Result};

/// Keys still to type, and what was written.
#[derive(Debug, Default)]
pub struct Script {
    keys: Vec<u8>,
    written: String,
}

/// One scripted key.
enum Key {
    Stroke(Stroke),
    Up,
    Down,
    /// No keys are left: the input ended, whatever was being typed.
    End,
}

impl Script {
    /// A script that types `keys`.
    pub fn new(keys: &str) -> Self {
        Script {
            keys: keys.as_bytes().to_vec(),
            written: String::new(),
        }
    }

    /// What the questions wrote so far.
    pub fn written(&self) -> &str {
        &self.written
    }

    fn next_key(&mut self) -> Key {
        let rest = std::str::from_utf8(&self.keys).unwrap_or("");
        let Some(first) = rest.chars().next() else {
            return Key::End;
        };
        let (key, len) = match (first, rest.as_bytes().get(1..3)) {
            ('\x1b', Some(b"[A")) => (Key::Up, 3),
            ('\x1b', Some(b"[B")) => (Key::Down, 3),
            ('\x1b', _) => (Key::Stroke(Stroke::Cancel), 1),
            ('\r' | '\n', _) => (Key::Stroke(Stroke::Enter), 1),
            ('\x7f' | '\x08', _) => (Key::Stroke(Stroke::Backspace), 1),
            ('\x15', _) => (Key::Stroke(Stroke::KillLine), 1),
            ('\x03', _) => (Key::Stroke(Stroke::Interrupt), 1),
            ('\x04', _) => (Key::Stroke(Stroke::Eof), 1),
            (c, _) => (Key::Stroke(Stroke::Char(c)), c.len_utf8()),
        };
        self.keys.drain(..len.min(self.keys.len()));
        key
    }

    /// Ctrl-C: what was typed after it is dropped, never an answer.
    fn interrupted(&mut self) -> Error {
        self.keys.clear();
        self.written.push_str("^C\n");
        Error::Interrupted
    }

    fn read_line(&mut self, prompt: &str, hidden: bool) -> Result<String> {
        self.written.push_str(prompt);
        let mut line = TypedLine::default();
        // Esc ends no line at once (as at the terminal); a hidden line that holds one is a
        // cancel when Enter ends it.
        let mut escaped = false;
        loop {
            let stroke = match self.next_key() {
                Key::Stroke(s) => s,
                Key::Up | Key::Down => Stroke::Other,
                Key::End => {
                    self.written.push('\n');
                    return Err(ended());
                }
            };
            match line.key(stroke) {
                Edit::Typing => {}
                Edit::Cancel => escaped |= hidden,
                Edit::Submit(_) if escaped => {
                    self.keys.clear();
                    self.written.push('\n');
                    return Err(Error::Interrupted);
                }
                Edit::Submit(text) => {
                    if !hidden {
                        self.written.push_str(&text);
                    }
                    self.written.push('\n');
                    return Ok(text);
                }
                Edit::Interrupt => return Err(self.interrupted()),
                Edit::Eof => {
                    self.written.push('\n');
                    return Err(ended());
                }
            }
        }
    }
}

/// The error of a question whose input ended before it was answered.
fn ended() -> Error {
    Error::usage("no answer: the input ended")
}

impl Ask for Script {
    fn say(&mut self, text: &str) -> Result<()> {
        self.written.push_str(text);
        Ok(())
    }

    fn width(&self) -> usize {
        60
    }

    fn line(&mut self, prompt: &str) -> Result<String> {
        self.read_line(prompt, false)
    }

    fn hidden(&mut self, prompt: &str) -> Result<String> {
        self.read_line(prompt, true)
    }

    fn choose(
        &mut self,
        prompt: &str,
        items: &[String],
        before: &[usize],
    ) -> Result<Option<Vec<usize>>> {
        self.written.push_str(prompt);
        self.written.push('\n');
        let len = items.len().max(1);
        let mut cursor = 0;
        let mut chosen: Vec<bool> = (0..items.len()).map(|i| before.contains(&i)).collect();
        loop {
            match self.next_key() {
                Key::Down | Key::Stroke(Stroke::Char('j')) => cursor = (cursor + 1) % len,
                Key::Up | Key::Stroke(Stroke::Char('k')) => cursor = (cursor + len - 1) % len,
                Key::Stroke(Stroke::Char(' ')) => {
                    if let Some(c) = chosen.get_mut(cursor) {
                        *c = !*c;
                    }
                }
                Key::Stroke(Stroke::Char('a')) => {
                    let all = chosen.iter().all(|c| *c);
                    chosen.iter_mut().for_each(|c| *c = !all);
                }
                Key::Stroke(Stroke::Enter) => {
                    let picked: Vec<usize> = (0..chosen.len()).filter(|i| chosen[*i]).collect();
                    // As at the terminal: nothing chosen goes on to the find step, unsaid.
                    if !picked.is_empty() {
                        self.written
                            .push_str(&format!("{prompt}: {} chosen\n", picked.len()));
                    }
                    return Ok(Some(picked));
                }
                Key::Stroke(Stroke::Cancel | Stroke::Char('q')) => return Ok(None),
                Key::Stroke(Stroke::Interrupt) => return Err(self.interrupted()),
                Key::Stroke(Stroke::Eof) | Key::End => return Err(ended()),
                Key::Stroke(_) => {}
            }
        }
    }
    fn find(&mut self, prompt: &str, items: &[String]) -> Result<Option<usize>> {
        self.written.push_str(prompt);
        self.written.push(' ');
        let mut typed = String::new();
        let mut cursor = 0;
        loop {
            // The rows in their order (dialoguer puts the best match first; a script's
            // filter is typed to leave the row it wants first or reached with the arrows).
            let shown: Vec<usize> = (0..items.len())
                .filter(|i| items.get(*i).is_some_and(|item| matches(item, &typed)))
                .collect();
            let len = shown.len().max(1);
            match self.next_key() {
                Key::Down => cursor = (cursor + 1) % len,
                Key::Up => cursor = (cursor + len - 1) % len,
                Key::Stroke(Stroke::Char(c)) if !c.is_control() => {
                    typed.push(c);
                    cursor = 0;
                }
                Key::Stroke(Stroke::Backspace) => {
                    typed.pop();
                }
                Key::Stroke(Stroke::Enter) => {
                    if let Some(found) = shown.get(cursor) {
                        self.written.push_str(&typed);
                        self.written.push('\n');
                        return Ok(Some(*found));
                    }
                }
                Key::Stroke(Stroke::Cancel) => {
                    self.written.push('\n');
                    return Ok(None);
                }
                Key::Stroke(Stroke::Interrupt) => return Err(self.interrupted()),
                Key::Stroke(Stroke::Eof) | Key::End => return Err(ended()),
                Key::Stroke(_) => {}
            }
        }
    }
}

/// Does `item` hold the characters of `typed` in order (a fuzzy match, as dialoguer's find
/// step makes it)? Case is ignored unless `typed` has a capital letter.
fn matches(item: &str, typed: &str) -> bool {
    let exact = typed.chars().any(char::is_uppercase);
    let fold = |c: char| if exact { c } else { c.to_ascii_lowercase() };
    let mut wanted = typed.chars().map(fold).peekable();
    for c in item.chars().map(fold) {
        if wanted.peek() == Some(&c) {
            wanted.next();
        }
    }
    wanted.peek().is_none()
}
