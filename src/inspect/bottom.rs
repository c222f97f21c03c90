//! The inspector's bottom line: the keys that matter where the reader is (the list, the
//! detail or the help, with what Esc does there), the `/` bar, the agent gone, or a message.
//! A filter in force keeps its bar above the keys, so the keys are always there.
//! A message is never cut: it wraps at spaces onto a second (or third) line, and the screen
//! gives the bottom as many lines as it needs.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use super::model::{Agent, Mode, Pane, State};
use super::theme::Theme;
use crate::capture::body::Tone;
use crate::escape::escape;

/// The most lines a message takes (beyond them it is cut, which no message of ours needs).
const MOST_LINES: usize = 3;

/// The bottom lines for a screen `width` columns wide (one, or more for a long message).
pub fn lines(s: &State, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    if s.mode == Mode::Filter {
        return vec![filter_bar(s, theme)];
    }
    let bar = (!s.filter_text.is_empty() && s.message.is_none()).then(|| filter_bar(s, theme));
    if let Agent::Gone(why) = &s.agent {
        let text = format!(
            "The agent at {} stopped answering ({}); what was captured stays; retrying.",
            escape(&s.url),
            escape(why)
        );
        return wrapped(&text, width)
            .into_iter()
            .map(|l| Line::from(Span::styled(l, theme.warn())))
            .collect();
    }
    if let Some(m) = &s.message {
        return wrapped(&escape(m), width)
            .into_iter()
            .map(Line::from)
            .collect();
    }
    bar.into_iter().chain([keys(s, theme)]).collect()
}

fn filter_bar(s: &State, theme: &Theme) -> Line<'static> {
    let mut spans = vec![
        Span::styled(" / ", Style::default().add_modifier(Modifier::BOLD)),
        Span::raw(escape(&s.filter_text)),
    ];
    if s.mode == Mode::Filter {
        spans.push(Span::styled(" ", theme.selected()));
    }
    match &s.filter_error {
        Some(e) => spans.push(Span::styled(format!("  {}", escape(e)), theme.warn())),
        None => spans.push(Span::styled(
            format!("  {} of {}", s.shown(), s.total()),
            theme.tone(Tone::Note),
        )),
    }
    Line::from(spans)
}

/// The keys for where the reader is; each set fits 80 columns (the rest are in the help).
fn keys(s: &State, theme: &Theme) -> Line<'static> {
    let new = format!("↑ {} new", s.new_above);
    let keys: Vec<(&str, &str)> = match s.pane {
        _ if s.mode == Mode::Help => vec![("Esc", "back"), ("any key", "closes the help")],
        Pane::Detail => vec![
            ("Esc", "back"),
            ("↑↓", "scroll"),
            ("Tab", "req/resp"),
            ("r", "replay"),
            ("c", "curl"),
            ("s", "save"),
            ("?", "help"),
            ("q", "quit"),
        ],
        Pane::List if !s.filter_text.is_empty() => vec![
            ("Esc", "clear filter"),
            ("/", "edit"),
            ("⏎", "detail"),
            ("r", "replay"),
            ("c", "curl"),
            ("s", "save"),
            ("?", "help"),
            ("q", "quit"),
        ],
        Pane::List if s.new_above > 0 => vec![
            ("g", new.as_str()),
            ("/", "filter"),
            ("⏎", "detail"),
            ("r", "replay"),
            ("c", "curl"),
            ("?", "help"),
            ("q", "quit"),
        ],
        Pane::List => vec![
            ("/", "filter"),
            ("⏎", "detail"),
            ("Tab", "req/resp"),
            ("r", "replay"),
            ("c", "curl"),
            ("s", "save"),
            ("?", "help"),
            ("q", "quit"),
        ],
    };
    let mut spans = Vec::new();
    for (k, what) in keys {
        spans.push(Span::styled(
            format!(" {k}"),
            Style::default().add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::styled(format!(" {what} "), theme.tone(Tone::Note)));
    }
    Line::from(spans)
}

/// `text` in lines of at most `width` columns (each led by a space), broken at spaces; a word
/// longer than a line is broken inside. At most [`MOST_LINES`] lines.
fn wrapped(text: &str, width: usize) -> Vec<String> {
    let room = width.saturating_sub(1).max(10);
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let w = word.width();
        let used = line.width();
        if used > 0 && used + 1 + w > room {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        if w > room {
            for c in word.chars() {
                if line.width() + c.to_string().width() > room {
                    out.push(std::mem::take(&mut line));
                }
                line.push(c);
            }
        } else {
            line.push_str(word);
        }
    }
    out.push(line);
    out.truncate(MOST_LINES);
    out.into_iter().map(|l| format!(" {l}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_wraps_at_spaces_and_is_never_cut() {
        let m = "Curl command written to ./airt_2QmYxYzAbCdEfGhIjKlMnOpQrSt.curl.sh (no clipboard here).";
        let lines = wrapped(m, 80);
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l.width() <= 80), "{lines:?}");
        let joined: Vec<&str> = lines.iter().map(|l| l.trim()).collect();
        assert_eq!(joined.join(" "), m);
        assert_eq!(wrapped("short", 80), vec![" short"]);
        let long = wrapped(&"x".repeat(30), 15);
        assert!(long.iter().all(|l| l.width() <= 15), "{long:?}");
    }
}
