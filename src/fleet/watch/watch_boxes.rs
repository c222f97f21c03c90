//! The boxes `sessions watch` draws over its list: the help, the question an action key asks
//! (every session it goes to, those the filter hides said so, and those left out with why),
//! and a session's details (each value under its label's column, its history, scrolled).
//!
//! A box clears the rows it covers across the whole screen: a row's text cut at the box's edge
//! would read as part of it.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;
use unicode_width::UnicodeWidthStr;

use super::watch_fit::wrapped;
use super::watch_model::{ActionQuestion, RowCommand, SessionsVerb, WatchState};
use crate::escape::escape;
use crate::inspect::popup::centered;

/// Every key, as the help shows it.
pub const KEYS: &[(&str, &str)] = &[
    ("↑ ↓  j k", "move (PgUp PgDn g G: a page, the top, the end)"),
    (
        "/",
        "filter: text, or column=value (region=eu version=<3.20)",
    ),
    ("1 … 9", "sort by that column (again: the other way)"),
    (
        "space",
        "mark or unmark (a mark hidden by the filter still counts)",
    ),
    ("a", "mark every session shown (again: unmark)"),
    ("Enter", "every field of the session, and its history here"),
    (
        "r s u",
        "restart, stop, update the marked (or this) session",
    ),
    ("U", "rolling upgrade of those: update, wait, restart, wait"),
    ("Esc", "clear the filter; quit"),
    ("? ", "this help"),
    (
        "q Ctrl-C",
        "quit (a summary of what was done; Ctrl-C exits 130)",
    ),
];

/// The question's box: its width at most.
const ASK_WIDTH: u16 = 72;

fn capitalized(word: &str) -> String {
    let mut c = word.chars();
    c.next()
        .map(|first| first.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

pub fn draw_ask(f: &mut Frame<'_>, ask: &ActionQuestion) {
    let room = usize::from(ASK_WIDTH.min(f.area().width)).saturating_sub(3);
    let mut lines: Vec<Line<'_>> = Vec::new();
    let mut say = |text: &str, first: &str, more: &str| {
        lines.extend(wrapped(text, room, first, more).into_iter().map(Line::from));
    };
    let verb = ask.verb.as_str();
    say(
        &format!(
            "{} the agent of {} session(s)?",
            capitalized(verb),
            ask.ids.len()
        ),
        " ",
        "   ",
    );
    if ask.verb == SessionsVerb::Upgrade {
        say(
            "update, wait 10 s, restart, wait for each to be back; 5 at a time",
            " ",
            "   ",
        );
    }
    let shown = ask.ids.len().min(8);
    for id in &ask.ids[..shown] {
        let hidden = match ask.hidden.contains(id) {
            true => " (hidden by the filter)",
            false => "",
        };
        say(&format!("{}{hidden}", escape(id)), "   ", "     ");
    }
    if ask.ids.len() > shown {
        say(
            &format!("… and {} more", ask.ids.len() - shown),
            "   ",
            "     ",
        );
        if !ask.hidden.is_empty() {
            say(
                &format!("{} of them hidden by the filter.", ask.hidden.len()),
                " ",
                "   ",
            );
        }
    }
    let mut reasons: Vec<&str> = Vec::new();
    for (_, why) in &ask.skipped {
        if !reasons.contains(why) {
            reasons.push(why);
        }
    }
    for why in reasons {
        let n = ask.skipped.iter().filter(|(_, w)| *w == why).count();
        say(
            &format!("Skipped {n} session(s) chosen: {why}."),
            " ",
            "   ",
        );
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        " y: go on · any other key: cancel",
        Style::default().add_modifier(Modifier::BOLD),
    )));
    let area = centered(f.area(), ASK_WIDTH, lines.len() as u16 + 2);
    boxed(f, area, lines, " Confirm ".into(), None);
}

pub fn draw_help(f: &mut Frame<'_>) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let lines: Vec<Line<'_>> = KEYS
        .iter()
        .map(|(k, what)| {
            Line::from(vec![
                Span::styled(format!(" {k:<10}"), bold),
                Span::raw(*what),
            ])
        })
        .collect();
    let popup = centered(f.area(), 76, lines.len() as u16 + 2);
    boxed(f, popup, lines, " Help · any key closes ".into(), None);
}

/// `lines` in a framed box over `area`, titled (and with `below` on its bottom edge). The rows
/// it covers are cleared across the whole screen: a row's text cut at the box's edge would
/// read as part of it.
fn boxed(
    f: &mut Frame<'_>,
    area: Rect,
    lines: Vec<Line<'_>>,
    title: String,
    below: Option<String>,
) {
    let screen = f.area();
    f.render_widget(
        Clear,
        Rect::new(screen.x, area.y, screen.width, area.height),
    );
    let mut frame = Block::default().borders(Borders::ALL).title(title);
    if let Some(below) = below {
        frame = frame.title_bottom(below);
    }
    f.render_widget(Paragraph::new(lines).block(frame), area);
}

/// The longest a label of the details takes before its value; a longer one has a line of its
/// own.
const LABEL_MAX: usize = 20;

/// Where a value that goes under its label starts.
const UNDER_LABEL: &str = "   ";

/// Every field of the session of `key`, and what happened to it here, scrolled down `scroll`
/// lines: each value under its label's column, wrapped at spaces.
pub fn draw_detail(f: &mut Frame<'_>, state: &WatchState, key: &str, scroll: usize) {
    let Some(row) = state.rows.iter().find(|r| r.id() == key) else {
        return;
    };
    let area = f.area();
    let width = area.width.saturating_sub(4);
    let inner = usize::from(width.saturating_sub(2));
    let mut fields: Vec<(String, String)> = Vec::new();
    if let serde_json::Value::Object(all) = row.session.to_value() {
        for (k, v) in all {
            let text = match &v {
                serde_json::Value::String(s) => s.clone(),
                // A reference (the credential) by its ID.
                serde_json::Value::Object(o) if o.contains_key("id") => {
                    crate::fleet::field(&v, "id").to_string()
                }
                other => other.to_string(),
            };
            fields.push((escape(&k), escape(&text)));
        }
    }
    if let Some(old) = &row.replaced {
        fields.push(("replaced".into(), escape(old)));
    }
    if let Some(RowCommand::Failed(c, why)) = &row.sent {
        fields.push((format!("{} failed", c.as_str()), why.clone()));
    }
    let label_width = fields
        .iter()
        .map(|(k, _)| k.width())
        .filter(|&w| w <= LABEL_MAX)
        .max()
        .unwrap_or(0);
    let value_at = " ".repeat(label_width + 3);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (label, value) in &fields {
        let longest = value.split(' ').map(|w| w.width()).max().unwrap_or(0);
        let (first, more) = if label.width() > label_width {
            lines.push(Line::from(format!(" {label}")));
            (value_at.clone(), value_at.clone())
        } else if longest + value_at.len() > inner && longest + UNDER_LABEL.len() <= inner {
            // A word (a URL) wider than the value's column but not than the box goes under
            // its label, whole, rather than broken.
            lines.push(Line::from(format!(" {label}")));
            (UNDER_LABEL.to_string(), UNDER_LABEL.to_string())
        } else {
            let pad = " ".repeat(label_width - label.width());
            (format!(" {label}{pad}  "), value_at.clone())
        };
        lines.extend(
            wrapped(value, inner, &first, &more)
                .into_iter()
                .map(Line::from),
        );
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        " On this screen:",
        Style::default().add_modifier(Modifier::BOLD),
    )));
    if let Some(clock) = &row.seen_clock {
        lines.push(Line::from(format!("  {clock}: seen")));
    }
    for entry in &row.history {
        lines.extend(
            wrapped(entry, inner, "  ", "    ")
                .into_iter()
                .map(Line::from),
        );
    }
    let height = (lines.len() as u16 + 2).min(area.height.saturating_sub(2));
    let room = usize::from(height.saturating_sub(2));
    let bottom = lines.len().saturating_sub(room);
    state.detail_bottom.set(bottom);
    let scroll = scroll.min(bottom);
    let (title, below) = match bottom {
        0 => (format!(" {} · any key closes ", escape(key)), None),
        _ => (
            format!(" {} · ↑ ↓ scroll · any other key closes ", escape(key)),
            Some(format!(
                " lines {}–{} of {} ",
                scroll + 1,
                scroll + room,
                lines.len()
            )),
        ),
    };
    let shown: Vec<Line<'static>> = lines.into_iter().skip(scroll).take(room).collect();
    let popup = centered(area, width, height);
    boxed(f, popup, shown, title, below);
}
