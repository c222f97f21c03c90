//! The list of captured exchanges, newest first: only the rows on screen are built, so a key
//! press costs the same with ten captures or ten thousand.

use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, TableState};
use ratatui::Frame;

use super::model::{Pane, State};
use super::theme::Theme;
use crate::capture::body::Tone;
use crate::capture::{signed, Exchange};
use crate::escape::escape;
use crate::output::time::human_duration;
use crate::signature::Secrets;

/// How long an exchange took, or `pending` while its response has not come (the agent sends a
/// duration of 0 then).
pub(super) fn took(e: &Exchange) -> String {
    if !e.answered() {
        return "pending".into();
    }
    e.duration.map(human_duration).unwrap_or_default()
}

/// Draws the list in `area`.
pub fn draw(f: &mut Frame<'_>, area: Rect, s: &State, theme: &Theme) {
    let focused = s.pane == Pane::List;
    let mut title = if s.filter_text.is_empty() {
        format!(" Requests ({})", s.total())
    } else {
        format!(" Requests ({} of {})", s.shown(), s.total())
    };
    if s.new_above > 0 {
        // Rows that arrived above the first shown one; `g` goes up to them.
        title.push_str(&format!(" · ↑ {} new (g)", s.new_above));
    }
    if s.dropped() > 0 {
        title.push_str(&format!(" · {} older dropped (memory limit)", s.dropped()));
    }
    if s.left_out > 0 {
        title.push_str(&format!(
            " · {} older not read (memory limit; list --history has them)",
            s.left_out
        ));
    }
    title.push(' ');
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(if focused {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            theme.tone(Tone::Punct)
        })
        .title(title);
    if s.shown() == 0 {
        let text = if s.total() == 0 {
            vec![
                Line::from("No captured requests yet."),
                Line::from("Send a request through a tunnel: it shows up here as it arrives."),
                Line::from("(tunnelctl local tunnels list shows their public URLs)"),
            ]
        } else {
            vec![Line::from(format!(
                "No captured request matches the filter ({} captured). Esc in the / bar clears it.",
                s.total()
            ))]
        };
        f.render_widget(Paragraph::new(text).block(block), area);
        return;
    }
    let wide = area.width >= 110;
    let tunnel_w = if wide { 20 } else { 12 };
    let widths = [
        Constraint::Length(1),
        Constraint::Length(8),
        Constraint::Length(tunnel_w),
        Constraint::Length(7),
        Constraint::Min(8),
        Constraint::Length(3),
        Constraint::Length(9),
    ];
    let rows: Vec<Row<'_>> = (s.list_offset..s.list_offset + s.list_rows)
        .filter_map(|r| s.row(r))
        .map(|e| row(e, theme, &s.secrets))
        .collect();
    let header = Row::new(["", "TIME", "TUNNEL", "METHOD", "PATH", "ST", "DURATION"])
        .style(Style::default().add_modifier(Modifier::BOLD));
    let table = Table::new(rows, widths)
        .header(header)
        .block(block)
        .row_highlight_style(theme.selected())
        // Seen without colour or reverse video too (and by a screen reader or a test).
        .highlight_symbol("▶")
        .highlight_spacing(ratatui::widgets::HighlightSpacing::Always);
    let mut state = TableState::default();
    state.select(s.selected_row().and_then(|r| r.checked_sub(s.list_offset)));
    f.render_stateful_widget(table, area, &mut state);
}

fn row<'a>(e: &Exchange, theme: &Theme, secrets: &Secrets) -> Row<'a> {
    let time = e.start.get(11..19).unwrap_or("");
    // A signature the handler will refuse (invalid, expired) is the first thing to see.
    let mark = if signed::check(e, secrets, signed::now()).result.fails() {
        "!"
    } else if e.remote_addr == "replayed" {
        "↻"
    } else {
        " "
    };
    let status = e
        .status()
        .map(|s| s.to_string())
        .unwrap_or_else(|| "…".into());
    let took = took(e);
    Row::new(vec![
        Cell::from(Span::styled(mark, theme.tone(Tone::Key))),
        Cell::from(escape(time)),
        Cell::from(escape(&e.tunnel)),
        Cell::from(escape(e.method())),
        Cell::from(escape(e.uri())),
        Cell::from(Span::styled(status, theme.status(e.status()))),
        Cell::from(Line::from(took).right_aligned()),
    ])
}
