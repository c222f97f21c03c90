//! The help overlay: every key and the filter language.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use super::popup::centered;
use super::theme::Theme;
use crate::capture::body::Tone;

/// The keys, live; in the history, [`HISTORY_KEYS`] stand for those of the same key.
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
    ("Esc", "back from the detail; clear the filter; quit"),
    ("q Ctrl-C", "quit (Ctrl-C exits 130, as interrupted)"),
];

/// What `r`, `e`, `x` and `p` do in the history (`--history`).
const HISTORY_KEYS: &[(&str, &str)] = &[
    ("r", "send the kept request again (by tunnelctl)"),
    ("e", "edit it and send it"),
    ("x", "not here: local requests clear --history"),
    ("p", "not here: the history does not change"),
];

/// Every word of the filter language (`crate::capture::filter`), a line each kind.
const FILTERS: &[(&str, &str)] = &[
    ("text", "method, path, status, headers, bodies"),
    ("method:POST", "status:5xx  status:404  status:pending"),
    ("path:/hooks/*", "tunnel:NAME  since:10m  replayed"),
    ("sig:RESULT", "valid invalid expired unsigned no-secret"),
    ("!WORD", "turns a word round: !method:GET"),
];

/// Draws the help over `area`; `history`: for the kept captures (`--history`).
pub fn draw(f: &mut Frame<'_>, area: Rect, theme: &Theme, history: bool) {
    let popup = centered(area, 64, (KEYS.len() + FILTERS.len() + 5) as u16);
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let pair = |(k, what): &(&str, &str)| {
        Line::from(vec![
            Span::styled(format!(" {k:<15}"), bold),
            Span::styled(what.to_string(), theme.tone(Tone::Plain)),
        ])
    };
    let key = |k: &(&str, &str)| {
        let instead = HISTORY_KEYS.iter().find(|h| history && h.0 == k.0);
        pair(instead.unwrap_or(k))
    };
    let mut lines: Vec<Line<'_>> = KEYS.iter().map(key).collect();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signature::Verdict;

    /// The help's filter lines as one text.
    fn filters() -> String {
        FILTERS
            .iter()
            .map(|(k, what)| format!("{k} {what}\n"))
            .collect()
    }

    #[test]
    fn every_word_of_the_filter_language_is_listed() {
        let text = filters();
        for key in crate::capture::filter::KEYS {
            assert!(text.contains(&format!("{key}:")), "{key}: missing\n{text}");
        }
        for verdict in Verdict::ALL {
            assert!(text.contains(verdict.as_str()), "{verdict:?} missing");
        }
        for word in ["status:pending", "replayed", "!"] {
            assert!(text.contains(word), "{word} missing");
        }
    }
}
