//! The inspector's colours: a tone of a body's pieces or a status as a style, or only bold and
//! reverse video when colour is off (`NO_COLOR`, `--no-color`).

use ratatui::style::{Color, Modifier, Style};

use crate::capture::body::Tone;

/// Colours, or none (`NO_COLOR`, `--no-color`): then only bold and reverse video mark things.
#[derive(Debug, Clone, Copy)]
pub struct Theme {
    color: bool,
}

impl Theme {
    /// A theme with or without colour.
    pub fn new(color: bool) -> Theme {
        Theme { color }
    }

    pub(super) fn fg(&self, c: Color) -> Style {
        if self.color {
            Style::default().fg(c)
        } else {
            Style::default()
        }
    }

    pub(super) fn tone(&self, t: Tone) -> Style {
        match t {
            Tone::Plain => Style::default(),
            Tone::Key => self.fg(Color::Cyan),
            Tone::Str => self.fg(Color::Green),
            Tone::Number => self.fg(Color::Magenta),
            Tone::Literal => self.fg(Color::Yellow),
            Tone::Punct => self.fg(Color::DarkGray),
            Tone::Tag => self.fg(Color::Blue).add_modifier(Modifier::BOLD),
            Tone::Note => self.fg(Color::DarkGray).add_modifier(Modifier::ITALIC),
        }
    }

    pub(super) fn status(&self, status: Option<u16>) -> Style {
        match status.map(|s| s / 100) {
            Some(2) => self.fg(Color::Green),
            Some(3) => self.fg(Color::Cyan),
            Some(4) => self.fg(Color::Yellow),
            Some(5) => self.fg(Color::Red),
            _ => self.fg(Color::DarkGray),
        }
    }

    pub(super) fn selected(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED)
    }

    pub(super) fn warn(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }
}
