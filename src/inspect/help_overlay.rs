//! The help overlay: every key and the filter language.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use super::popup::centered;
use super::theme::Theme;
use crate::capture::body::Tone;

const KEYS: &[(&str, &str)] = &[
    ("↑ ↓  j k", "move in the list, or scroll the detail"),
    (
        "PgUp PgDn g G",
        "a page; the newest (g, up to ↑ new) or oldest",
    ),
    ("Enter", "between the list and the detail"),
    ("Tab", "request or response"),
    ("/", "filter (Enter keeps it, Esc clears it)"),
    ("r", "replay the request through the agent"),
    ("e", "edit and replay"),
    ("c", "copy as a curl command"),
    ("s", "save the request to a file"),
    ("x", "delete every capture (asks first)"),
    ("p", "pause or resume live updates"),
    ("Esc", "back from the detail; quit from the list"),
    ("q Ctrl-C", "quit"),
];

const FILTERS: &[(&str, &str)] = &[
    ("text", "method, path, status, headers, bodies"),
    ("method:POST", "status:5xx  status:404"),
    ("path:/hooks/*", "tunnel:NAME  since:10m"),
    ("replayed", "! before a word turns it round"),
];

/// Draws the help over `area`.
pub fn draw(f: &mut Frame<'_>, area: Rect, theme: &Theme) {
    let popup = centered(area, 64, (KEYS.len() + FILTERS.len() + 5) as u16);
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let pair = |(k, what): &(&str, &str)| {
        Line::from(vec![
            Span::styled(format!(" {k:<15}"), bold),
            Span::styled(what.to_string(), theme.tone(Tone::Plain)),
        ])
    };
    let mut lines: Vec<Line<'_>> = KEYS.iter().map(pair).collect();
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        " Filter words (all must match):",
        bold,
    )));
    lines.extend(FILTERS.iter().map(pair));
    f.render_widget(Clear, popup);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" Help · any key closes "),
        ),
        popup,
    );
}
