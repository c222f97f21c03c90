//! Draws the state of `sessions watch`: a title (what is watched, how many, read-only, the
//! last refresh's error), the table of sessions (the columns that fit, the widest terminal
//! showing them all), and a bottom line (a filter being typed, a message, the keys); over it,
//! the help, a session's detail or a question.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Row as TableRow, Table, Wrap};
use ratatui::Frame;

use super::session_columns::SessionColumn;
use super::watch_model::{RowCommand, SessionsVerb, WatchMode, WatchState};
use crate::inspect::popup::centered;

/// Columns, in the order they give way when the terminal is narrow (the last first).
const BY_PRIORITY: [SessionColumn; 9] = [
    SessionColumn::Id,
    SessionColumn::Profile,
    SessionColumn::Version,
    SessionColumn::Region,
    SessionColumn::Os,
    SessionColumn::Started,
    SessionColumn::Ip,
    SessionColumn::Credential,
    SessionColumn::Metadata,
];
/// The mark and the status, before the columns.
const STATUS_WIDTH: u16 = 16;

/// Every key, as the help shows it.
pub const KEYS: &[(&str, &str)] = &[
    ("↑ ↓  j k", "move (PgUp PgDn g G: a page, the top, the end)"),
    (
        "/",
        "filter: text, or column=value (region=eu version=<3.20)",
    ),
    ("1 … 9", "sort by that column (again: the other way)"),
    ("space", "mark or unmark the session"),
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

/// How the screen is coloured: colour, or bold, dim and reverse video alone.
#[derive(Debug, Clone, Copy)]
pub struct Look {
    /// Colours allowed.
    pub color: bool,
}

impl Look {
    fn fg(self, c: Color) -> Style {
        match self.color {
            true => Style::default().fg(c),
            false => Style::default(),
        }
    }
}

/// Draws the whole screen.
pub fn draw(f: &mut Frame<'_>, state: &WatchState, look: Look, title: &str) {
    let [top, table, bottom] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(f.area());
    draw_title(f, top, state, look, title);
    draw_table(f, table, state, look);
    draw_bottom(f, bottom, state, look);
    match &state.mode {
        WatchMode::Help => draw_help(f, f.area()),
        WatchMode::Detail(id) => draw_detail(f, f.area(), state, id),
        WatchMode::Confirm(command, ids) => {
            let mut lines = vec![Line::from(format!(
                " {} the agent of {} session(s)?",
                capitalized(command.as_str()),
                ids.len()
            ))];
            if *command == SessionsVerb::Upgrade {
                lines.push(Line::from(
                    " update, wait 10 s, restart, wait for each to be back; 5 at a time",
                ));
            }
            let shown = ids.len().min(8);
            lines.extend(ids[..shown].iter().map(|id| Line::from(format!("   {id}"))));
            if ids.len() > shown {
                lines.push(Line::from(format!("   … and {} more", ids.len() - shown)));
            }
            lines.push(Line::from(""));
            lines.push(Line::from(Span::styled(
                " y: go on · any other key: cancel",
                Style::default().add_modifier(Modifier::BOLD),
            )));
            let area = centered(f.area(), 72, lines.len() as u16 + 2);
            boxed(f, area, Paragraph::new(lines), " Confirm ".into());
        }
        WatchMode::List | WatchMode::Filtering(_) => {}
    }
}

fn capitalized(word: &str) -> String {
    let mut c = word.chars();
    c.next()
        .map(|first| first.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn draw_title(f: &mut Frame<'_>, area: Rect, state: &WatchState, look: Look, title: &str) {
    let listed = state.rows.iter().filter(|r| r.gone_at.is_none()).count();
    let mut spans = vec![Span::styled(
        format!(" {title} · {listed} online"),
        Style::default().add_modifier(Modifier::BOLD),
    )];
    if !state.filter.is_empty() {
        spans.push(Span::raw(format!(" · {} shown", state.shown().len())));
    }
    if state.read_only {
        spans.push(Span::styled(
            " · READ-ONLY",
            look.fg(Color::Yellow).add_modifier(Modifier::BOLD),
        ));
    } else if !state.read_only_profiles.is_empty() {
        spans.push(Span::styled(
            format!(" · READ-ONLY: {}", state.read_only_profiles.join(", ")),
            look.fg(Color::Yellow).add_modifier(Modifier::BOLD),
        ));
    }
    if state.refreshes == 0 && state.error.is_none() {
        spans.push(Span::raw(" · loading…"));
    }
    if let Some(e) = &state.error {
        // The whole error is on the bottom line; the title keeps its start.
        spans.push(Span::styled(
            format!(" · refresh failed: {e}"),
            look.fg(Color::Red).add_modifier(Modifier::BOLD),
        ));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The columns that fit `width`, with each one's width.
fn fitted(state: &WatchState, shown: &[usize], width: u16) -> Vec<(SessionColumn, u16)> {
    let widest = |c: SessionColumn| -> u16 {
        let cells = shown.iter().map(|&i| state.rows[i].widths[c.index()]);
        let w = cells.max().unwrap_or(0).max(c.title().len() as u16 + 2);
        let cap = match c {
            SessionColumn::Id | SessionColumn::Credential => 30,
            SessionColumn::Metadata => 60,
            _ => 16,
        };
        w.min(cap)
    };
    let mut left = width.saturating_sub(STATUS_WIDTH + 2);
    let mut cols = Vec::new();
    for c in BY_PRIORITY {
        // One account watched: its sessions have no profile, and the column is left out.
        if c == SessionColumn::Profile
            && shown.iter().all(|&i| state.rows[i].widths[c.index()] == 0)
        {
            continue;
        }
        let w = widest(c);
        // Metadata takes what is left, when some is.
        let w = if c == SessionColumn::Metadata {
            left.saturating_sub(1).min(w.max(left.saturating_sub(1)))
        } else {
            w
        };
        if w + 1 > left || w < 3 {
            continue;
        }
        left -= w + 1;
        cols.push((c, w));
    }
    // The profile comes first, though its digit (9) is the last.
    cols.sort_by_key(|(c, _)| match c {
        SessionColumn::Profile => None,
        c => SessionColumn::ALL.iter().position(|x| x == c),
    });
    cols
}

fn draw_table(f: &mut Frame<'_>, area: Rect, state: &WatchState, look: Look) {
    let shown = state.shown();
    let cols = fitted(state, &shown, area.width);
    let (sort, desc) = state.sort;
    let mut header = vec![String::new(), "STATUS".to_string()];
    header.extend(cols.iter().map(|(c, _)| {
        let arrow = match (*c == sort, desc) {
            (true, false) => "▲",
            (true, true) => "▼",
            _ => "",
        };
        format!("{}{arrow}", c.title())
    }));
    let mut widths = vec![Constraint::Length(1), Constraint::Length(STATUS_WIDTH)];
    widths.extend(cols.iter().map(|(_, w)| Constraint::Length(*w)));
    // The current row stays on screen: the list scrolls under it.
    let room = area.height.saturating_sub(1) as usize;
    let skip = state.cursor.saturating_sub(room.saturating_sub(1));
    let rows = shown
        .iter()
        .enumerate()
        .skip(skip)
        .take(room)
        .map(|(place, &i)| {
            let row = &state.rows[i];
            let mut cells = vec![
                if row.marked {
                    "*".to_string()
                } else {
                    " ".to_string()
                },
                row.status(state.refreshes),
            ];
            cells.extend(cols.iter().map(|(c, _)| row.session.cell(*c)));
            let mut style = Style::default();
            if row.gone_at.is_some() {
                style = style.add_modifier(Modifier::DIM);
            } else if matches!(row.sent, Some(RowCommand::Failed(..))) {
                style = style.patch(look.fg(Color::Red));
            } else if row.fresh(state.refreshes) {
                style = style
                    .patch(look.fg(Color::Green))
                    .add_modifier(Modifier::BOLD);
            }
            if row.marked {
                style = style.add_modifier(Modifier::BOLD);
            }
            if place == state.cursor {
                style = style.add_modifier(Modifier::REVERSED);
            }
            TableRow::new(cells).style(style)
        });
    let table = Table::new(rows, widths)
        .header(TableRow::new(header).style(Style::default().add_modifier(Modifier::BOLD)))
        .column_spacing(1);
    f.render_widget(table, area);
    if shown.is_empty() && state.refreshes > 0 {
        let text = if state.rows.is_empty() {
            " No online sessions."
        } else {
            " No session matches the filter (Esc clears it)."
        };
        let below = Rect::new(
            area.x,
            area.y + 1,
            area.width,
            1.min(area.height.saturating_sub(1)),
        );
        f.render_widget(Paragraph::new(text), below);
    }
}

fn draw_bottom(f: &mut Frame<'_>, area: Rect, state: &WatchState, look: Look) {
    let line = match (&state.mode, &state.message) {
        (WatchMode::Filtering(text), msg) => Line::from(vec![
            Span::styled("/", Style::default().add_modifier(Modifier::BOLD)),
            Span::raw(text.clone()),
            Span::styled("▏", Style::default()),
            Span::styled(
                msg.as_deref().map(|m| format!("  {m}")).unwrap_or_default(),
                look.fg(Color::Red),
            ),
        ]),
        (_, Some(msg)) => Line::from(Span::raw(format!(" {msg}"))),
        (_, None) if state.error.is_some() => Line::from(Span::styled(
            format!(" {}", state.error.as_deref().unwrap_or_default()),
            look.fg(Color::Red).add_modifier(Modifier::BOLD),
        )),
        _ => {
            let marked = state.rows.iter().filter(|r| r.marked).count();
            let mut hint = String::from(" ? help · / filter · space mark · r s u U act · q quit");
            if marked > 0 {
                hint = format!(" {marked} marked ·{hint}");
            }
            Line::from(Span::styled(hint, look.fg(Color::DarkGray)))
        }
    };
    f.render_widget(Paragraph::new(line), area);
}

fn draw_help(f: &mut Frame<'_>, area: Rect) {
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
    let popup = centered(area, 76, lines.len() as u16 + 2);
    boxed(
        f,
        popup,
        Paragraph::new(lines),
        " Help · any key closes ".into(),
    );
}

/// `text` in a framed box over `area`, what was under it cleared.
fn boxed(f: &mut Frame<'_>, area: Rect, text: Paragraph<'_>, title: String) {
    f.render_widget(Clear, area);
    let frame = Block::default().borders(Borders::ALL).title(title);
    f.render_widget(text.block(frame), area);
}

fn draw_detail(f: &mut Frame<'_>, area: Rect, state: &WatchState, id: &str) {
    let Some(row) = state.rows.iter().find(|r| r.id() == id) else {
        return;
    };
    let mut lines = Vec::new();
    if let serde_json::Value::Object(fields) = row.session.to_value() {
        for (k, v) in fields {
            let text = match &v {
                serde_json::Value::String(s) => s.clone(),
                // A reference (the credential) by its ID.
                serde_json::Value::Object(o) if o.contains_key("id") => {
                    crate::fleet::field(&v, "id").to_string()
                }
                other => other.to_string(),
            };
            lines.push(Line::from(format!(
                " {k:<14}{}",
                crate::escape::escape(&text)
            )));
        }
    }
    if let Some(old) = &row.replaced {
        lines.push(Line::from(format!(" {:<14}{old}", "replaced")));
    }
    if let Some(RowCommand::Failed(c, why)) = &row.sent {
        lines.push(Line::from(format!(
            " {:<14}{why}",
            format!("{} failed", c.as_str())
        )));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        " On this screen:",
        Style::default().add_modifier(Modifier::BOLD),
    )));
    if let Some(clock) = &row.seen_clock {
        lines.push(Line::from(format!("  {clock}: seen")));
    }
    lines.extend(row.history.iter().map(|h| Line::from(format!("  {h}"))));
    // Long values wrap: the popup takes the height they may need.
    let popup = centered(
        area,
        area.width.saturating_sub(4),
        area.height.saturating_sub(2),
    );
    let text = Paragraph::new(lines).wrap(Wrap { trim: false });
    boxed(f, popup, text, format!(" {id} · any key closes "));
}
