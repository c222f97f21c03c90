//! Draws the state of `sessions watch`: a title (what is watched, how many, read-only, the
//! last refresh's error), the table of sessions (the columns that fit, the widest terminal
//! showing them all), a status line (the filter kept, the marks, the place in a long list, the
//! keys) and under it, when there is one, a message and the refresh's error in full; over it,
//! one of [`super::watch_boxes`] (the help, a session's details or a question).
//!
//! Nothing is cut inside a word without saying so ([`super::watch_fit`]): a title or a status
//! line that does not fit gives way at a space and ends in ` …`, a cell too narrow for its
//! text ends in `…`, a column whose header does not fit is left out, and a message or an error
//! is wrapped at spaces.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Row as TableRow, Table};
use ratatui::Frame;
use unicode_width::UnicodeWidthStr;

use super::session_columns::SessionColumn;
use super::watch_boxes::{draw_ask, draw_detail, draw_help};
use super::watch_fit::{cut_words, fit, fit_cell, LinePart};
use super::watch_model::{RowCommand, WatchMode, WatchState};
use crate::escape::escape;
use crate::output::wrap;

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
/// Lines under the status line a message and an error may take, at most.
const MAX_NOTES: usize = 4;
/// The keys, as the status line names them.
const KEYS_HINT: &str = "? help · / filter · space mark · r s u U act · q quit";
/// The keys, where the whole hint does not fit.
const KEYS_SHORT: &str = "? help · q quit";

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

    pub(super) fn error(self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }
}

/// Draws the whole screen.
pub fn draw(f: &mut Frame<'_>, state: &WatchState, look: Look, title: &str) {
    let shown = state.shown();
    let notes = notes(state, look, f.area().width);
    let [top, table, status, below] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(notes.len() as u16),
    ])
    .areas(f.area());
    draw_title(f, top, state, &shown, look, title);
    let place = draw_table(f, table, state, &shown, look);
    draw_status(f, status, state, &shown, place, look);
    f.render_widget(Paragraph::new(notes), below);
    match &state.mode {
        WatchMode::Help => draw_help(f),
        WatchMode::Detail(key, scroll) => draw_detail(f, state, key, *scroll),
        WatchMode::Confirm(ask) => draw_ask(f, ask),
        WatchMode::List | WatchMode::Filtering(_) => {}
    }
}

fn draw_title(
    f: &mut Frame<'_>,
    area: Rect,
    state: &WatchState,
    shown: &[usize],
    look: Look,
    title: &str,
) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let listed = state.rows.iter().filter(|r| r.gone_at.is_none()).count();
    let head = format!(" {title}");
    // What is watched gives way last, down to the screen's name.
    let keep = head.find(" · ").unwrap_or(head.len());
    let mut parts = vec![
        LinePart {
            text: head,
            keep,
            style: bold,
        },
        LinePart::whole(format!(" · {listed} online"), bold),
    ];
    if !state.filter.is_empty() {
        parts.push(LinePart::whole(
            format!(" · {} shown", shown.len()),
            Style::default(),
        ));
    }
    let warn = look.fg(Color::Yellow).add_modifier(Modifier::BOLD);
    if state.read_only {
        parts.push(LinePart::whole(" · READ-ONLY".into(), warn));
    } else if !state.read_only_profiles.is_empty() {
        parts.push(LinePart::whole(
            format!(" · READ-ONLY: {}", state.read_only_profiles.join(", ")),
            warn,
        ));
    }
    if state.refreshes == 0 && state.error.is_none() {
        parts.push(LinePart::whole(" · loading…".into(), Style::default()));
    }
    let mut order = Vec::new();
    if let Some(e) = &state.error {
        // The title says what failed (which profile, when several are watched), and why as
        // far as it fits; the lines under the status line say it all.
        let (text, keep) = match state.failing.as_slice() {
            [] => (
                format!(" · refresh failed: {e}"),
                " · refresh failed:".len(),
            ),
            [one] => {
                let named = format!(" · refresh failed: profile {one}");
                (format!(" · refresh failed: {e}"), named.len())
            }
            several => {
                let named = format!(" · refresh failed: profiles {}", several.join(", "));
                (named.clone(), named.len())
            }
        };
        order.push(parts.len());
        parts.push(LinePart {
            text,
            keep,
            style: look.error(),
        });
    }
    order.push(0);
    fit(&mut parts, usize::from(area.width), &order);
    let spans: Vec<Span<'_>> = parts
        .into_iter()
        .map(|p| Span::styled(p.text, p.style))
        .collect();
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The columns that fit `width`, with each one's width: each at the width of its widest cell
/// (within a cap), but the metadata, which takes what is left; a column whose header does not
/// fit is left out.
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
        // Metadata takes what is left, when its header and a few characters fit.
        let w = if c == SessionColumn::Metadata {
            left.saturating_sub(1)
        } else {
            w
        };
        // Room for the header and its sort arrow.
        if w + 1 > left || w < c.title().len() as u16 + 2 {
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

/// Where a long list is: its first and last rows on screen (counted from 1) and how many there
/// are; `None` when all of it is on screen.
type Place = Option<(usize, usize, usize)>;

fn draw_table(
    f: &mut Frame<'_>,
    area: Rect,
    state: &WatchState,
    shown: &[usize],
    look: Look,
) -> Place {
    let cols = fitted(state, shown, area.width);
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
                fit_cell(row.status(state.refreshes), STATUS_WIDTH),
            ];
            cells.extend(cols.iter().map(|(c, w)| fit_cell(row.session.cell(*c), *w)));
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
    (shown.len() > room && room > 0)
        .then(|| (skip + 1, (skip + room).min(shown.len()), shown.len()))
}

/// The status line: the filter being typed; or the filter kept, the marks (those the filter
/// hides said so: they count), where a long list is, and the keys.
fn draw_status(
    f: &mut Frame<'_>,
    area: Rect,
    state: &WatchState,
    shown: &[usize],
    place: Place,
    look: Look,
) {
    if let WatchMode::Filtering(text) = &state.mode {
        let line = Line::from(vec![
            Span::styled("/", Style::default().add_modifier(Modifier::BOLD)),
            Span::raw(escape(text)),
            Span::raw("▏"),
        ]);
        f.render_widget(Paragraph::new(line), area);
        return;
    }
    let plain = Style::default();
    let mut parts = Vec::new();
    let mut order = Vec::new();
    if !state.filter.is_empty() {
        order.push(parts.len());
        parts.push(LinePart {
            text: format!(" filter: {}", escape(&state.filter.text)),
            keep: " filter:".len(),
            style: Style::default().add_modifier(Modifier::BOLD),
        });
    }
    let (marked, hidden) = state.marks(shown);
    if marked > 0 {
        let mut text = format!(" {marked} marked");
        if hidden > 0 {
            text.push_str(&format!(" ({hidden} hidden by the filter)"));
        }
        parts.push(LinePart::whole(
            text,
            Style::default().add_modifier(Modifier::BOLD),
        ));
    }
    if let Some((first, last, of)) = place {
        parts.push(LinePart::whole(
            format!(" rows {first}–{last} of {of}"),
            plain,
        ));
    }
    let keys = look.fg(Color::DarkGray);
    parts.push(LinePart::whole(format!(" {KEYS_HINT}"), keys));
    // Parts after the first begin with a separator.
    for p in parts.iter_mut().skip(1) {
        p.text.insert_str(0, " ·");
        p.keep += " ·".len();
    }
    let width = usize::from(area.width);
    let total: usize = parts.iter().map(|p| p.text.width()).sum();
    if total > width {
        if let Some(last) = parts.last_mut() {
            let sep = if last.text.starts_with(" ·") {
                " ·"
            } else {
                ""
            };
            last.text = format!("{sep} {KEYS_SHORT}");
            last.keep = last.text.len();
        }
    }
    fit(&mut parts, width, &order);
    let spans: Vec<Span<'_>> = parts
        .into_iter()
        .map(|p| Span::styled(p.text, p.style))
        .collect();
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The lines under the status line: the last key's message, then the refresh's error, each
/// wrapped at spaces, [`MAX_NOTES`] at most (the last of them ending ` …` when more was cut).
fn notes(state: &WatchState, look: Look, width: u16) -> Vec<Line<'static>> {
    let room = usize::from(width).saturating_sub(2).max(1);
    let mut lines: Vec<(String, Style)> = Vec::new();
    if let Some(msg) = &state.message {
        let style = match state.mode {
            // A filter that does not read.
            WatchMode::Filtering(_) => look.fg(Color::Red),
            _ => Style::default(),
        };
        lines.extend(wrap(msg, room).into_iter().map(|l| (l, style)));
    }
    if let Some(e) = &state.error {
        lines.extend(wrap(e, room).into_iter().map(|l| (l, look.error())));
    }
    if lines.len() > MAX_NOTES {
        lines.truncate(MAX_NOTES);
        if let Some((last, _)) = lines.last_mut() {
            *last = cut_words(&format!("{last} …"), room, 0);
        }
    }
    lines
        .into_iter()
        .map(|(text, style)| Line::styled(format!(" {text}"), style))
        .collect()
}
