//! A line being typed, key by key, for the scripted prompter ([`super::script`]): pure, and
//! edited as the terminal's line mode edits what dialoguer reads (Backspace, Ctrl-U, Ctrl-D).
//! Nothing is echoed here; the script shows a visible line once it is done, a hidden one never.

/// The longest answer taken; keys past it are ignored (an answer is a URL or a key).
pub const MAX_LINE: usize = 64 * 1024;

/// One key, as far as a line cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stroke {
    /// A printable character.
    Char(char),
    /// Backspace: erase the last character.
    Backspace,
    /// Ctrl-U: erase the whole line.
    KillLine,
    /// Enter.
    Enter,
    /// Ctrl-C.
    Interrupt,
    /// Esc.
    Cancel,
    /// Ctrl-D, or the input ended.
    Eof,
    /// Any other key (ignored).
    Other,
}

/// What a key did to the line.
#[derive(Debug, PartialEq, Eq)]
pub enum Edit {
    /// Keep reading.
    Typing,
    /// Enter: the line is done.
    Submit(String),
    /// Ctrl-C: stop asking.
    Interrupt,
    /// Esc: the caller decides (a hidden line holding one is cancelled when it ends).
    Cancel,
    /// Ctrl-D on an empty line, or the input ended.
    Eof,
}

/// A line being typed.
#[derive(Debug, Default)]
pub struct TypedLine {
    text: String,
}

impl TypedLine {
    /// Takes one key.
    pub fn key(&mut self, key: Stroke) -> Edit {
        match key {
            Stroke::Char(c) if !c.is_control() && self.text.len() + c.len_utf8() <= MAX_LINE => {
                self.text.push(c);
            }
            Stroke::Backspace => {
                self.text.pop();
            }
            Stroke::KillLine => self.text.clear(),
            Stroke::Enter => return Edit::Submit(std::mem::take(&mut self.text)),
            Stroke::Interrupt => return Edit::Interrupt,
            Stroke::Cancel => return Edit::Cancel,
            Stroke::Eof if self.text.is_empty() => return Edit::Eof,
            _ => {}
        }
        Edit::Typing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(line: &mut TypedLine, text: &str) {
        for c in text.chars() {
            assert_eq!(line.key(Stroke::Char(c)), Edit::Typing);
        }
    }

    #[test]
    fn lines_edit_and_end() {
        let mut line = TypedLine::default();
        typed(&mut line, "héllo");
        assert_eq!(line.key(Stroke::Backspace), Edit::Typing);
        assert_eq!(line.key(Stroke::Eof), Edit::Typing, "not empty: ignored");
        assert_eq!(line.key(Stroke::Enter), Edit::Submit("héll".into()));
        typed(&mut line, "ab");
        assert_eq!(line.key(Stroke::KillLine), Edit::Typing);
        assert_eq!(line.key(Stroke::Enter), Edit::Submit(String::new()));
        assert_eq!(line.key(Stroke::Eof), Edit::Eof);
        assert_eq!(line.key(Stroke::Interrupt), Edit::Interrupt);
        assert_eq!(line.key(Stroke::Cancel), Edit::Cancel);
    }

    #[test]
    fn control_characters_and_overlong_lines_are_not_taken() {
        let mut line = TypedLine::default();
        line.key(Stroke::Char('\x1b'));
        typed(&mut line, &"x".repeat(MAX_LINE));
        line.key(Stroke::Char('y'));
        assert_eq!(line.key(Stroke::Enter), Edit::Submit("x".repeat(MAX_LINE)));
    }
}
