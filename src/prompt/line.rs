//! One line of typed text, key by key: what to echo and when the line is done. Hidden input
//! echoes nothing at all, so a secret never reaches the screen, not even its length.

use unicode_width::UnicodeWidthChar;

use super::keys::Key;

/// The longest answer taken; keys past it are ignored (an answer is a URL or a key).
pub const MAX_LINE: usize = 64 * 1024;

/// What a key did to the line.
#[derive(Debug, PartialEq, Eq)]
pub enum Edit {
    /// Keep reading; write this to the terminal (may be empty).
    Echo(String),
    /// Enter: the line is done.
    Submit(String),
    /// Ctrl-C: stop asking.
    Interrupt,
    /// Ctrl-D on an empty line, or the input ended.
    Eof,
}

/// A line being typed.
#[derive(Debug, Default)]
pub struct Line {
    text: String,
    hidden: bool,
}

impl Line {
    /// An empty line; `hidden` echoes nothing.
    pub fn new(hidden: bool) -> Self {
        Line {
            text: String::new(),
            hidden,
        }
    }

    /// Takes one key.
    pub fn key(&mut self, key: Key) -> Edit {
        match key {
            Key::Char(c) if self.text.len() + c.len_utf8() <= MAX_LINE => {
                self.text.push(c);
                self.echo(c.to_string())
            }
            Key::Backspace => match self.text.pop() {
                Some(c) => self.echo(erase(c.width().unwrap_or(0))),
                None => Edit::Echo(String::new()),
            },
            Key::KillLine => {
                let width: usize = self.text.chars().filter_map(|c| c.width()).sum();
                self.text.clear();
                self.echo(erase(width))
            }
            Key::Enter => Edit::Submit(std::mem::take(&mut self.text)),
            Key::Interrupt => Edit::Interrupt,
            Key::Eof if self.text.is_empty() => Edit::Eof,
            _ => Edit::Echo(String::new()),
        }
    }

    fn echo(&self, text: String) -> Edit {
        Edit::Echo(if self.hidden { String::new() } else { text })
    }
}

/// Moves back over `width` columns, blanking them.
fn erase(width: usize) -> String {
    "\x08 \x08".repeat(width)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(line: &mut Line, text: &str) -> String {
        text.chars()
            .map(|c| match line.key(Key::Char(c)) {
                Edit::Echo(e) => e,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn visible_lines_echo_and_edit() {
        let mut line = Line::new(false);
        assert_eq!(typed(&mut line, "héllo"), "héllo");
        assert_eq!(line.key(Key::Backspace), Edit::Echo("\x08 \x08".into()));
        assert_eq!(line.key(Key::Eof), Edit::Echo(String::new()));
        assert_eq!(line.key(Key::Enter), Edit::Submit("héll".into()));
        typed(&mut line, "ab");
        assert_eq!(line.key(Key::KillLine), Edit::Echo("\x08 \x08".repeat(2)));
        assert_eq!(line.key(Key::Enter), Edit::Submit(String::new()));
        assert_eq!(line.key(Key::Eof), Edit::Eof);
    }

    #[test]
    fn hidden_lines_echo_nothing() {
        let mut line = Line::new(true);
        assert_eq!(typed(&mut line, "secret"), "");
        assert_eq!(line.key(Key::Backspace), Edit::Echo(String::new()));
        assert_eq!(line.key(Key::Interrupt), Edit::Interrupt);
        assert_eq!(line.key(Key::Enter), Edit::Submit("secre".into()));
    }
}
