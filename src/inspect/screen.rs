//! The inspector's screen (`tunnelctl local inspect`): the title line, the list of captured
//! exchanges, the detail pane, the bottom line (`bottom`: keys, the `/` bar or a message),
//! and what may cover them (help, a confirmation, the wait for the agent).
//!
//! It only draws [`crate::inspect::model::State`]; it tells the state how many rows fit so
//! that paging moves by a screen. Every text a visitor chose is escaped before it is drawn.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::model::{Agent, Mode, Pane, ShownSource, Side, State};
use super::popup::centered;
use super::theme::Theme;
use super::{bottom, detail_pane, exchange_list, help_overlay};
use crate::capture::body::Tone;
use crate::escape::escape;

/// What the drawn detail pane shows: the exchange, its side, the width, and whether its
/// response had arrived.
type DetailKey = (String, Side, usize, bool);

/// Draws the inspector. Keeps the laid-out detail between frames: a key that only moves in
/// the list does not decode the selected body again.
pub struct Screen {
    theme: Theme,
    cache: Option<(DetailKey, Vec<Line<'static>>)>,
}

impl Screen {
    /// A screen with or without colour.
    pub fn new(color: bool) -> Screen {
        Screen {
            theme: Theme::new(color),
            cache: None,
        }
    }

    /// Draws one frame of `s`.
    pub fn draw(&mut self, f: &mut Frame<'_>, s: &mut State) {
        let area = f.area();
        let bottom_lines = bottom::lines(s, &self.theme, usize::from(area.width));
        let bottom_height = u16::try_from(bottom_lines.len()).unwrap_or(1);
        let [top, middle, bottom] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(1),
            Constraint::Length(bottom_height),
        ])
        .areas(area);
        f.render_widget(Paragraph::new(self.title(s)), top);
        f.render_widget(Paragraph::new(bottom_lines), bottom);
        if let Agent::Waiting(err) = &s.agent {
            if s.total() == 0 {
                self.waiting(f, middle, &s.url, err.as_deref());
                return;
            }
        }
        let wide = middle.width >= 140;
        let (list_area, detail_area) = if wide {
            let [l, d] =
                Layout::horizontal([Constraint::Percentage(45), Constraint::Min(20)]).areas(middle);
            (l, d)
        } else {
            // A short list takes only the rows it has, leaving the rest to the detail.
            let share = if s.pane == Pane::Detail { 30 } else { 45 };
            let most = u32::from(middle.height) * share / 100;
            let rows = u32::try_from(s.shown().max(1) + 3).unwrap_or(u32::MAX);
            let list_height = u16::try_from(rows.min(most).max(4)).unwrap_or(4);
            let [l, d] = Layout::vertical([Constraint::Length(list_height), Constraint::Min(3)])
                .areas(middle);
            (l, d)
        };
        // Borders (2) and, for the list, its header row.
        s.set_sizes(
            usize::from(list_area.height.saturating_sub(3)),
            usize::from(detail_area.height.saturating_sub(2)),
        );
        exchange_list::draw(f, list_area, s, &self.theme);
        self.detail(f, detail_area, s);
        match s.mode {
            Mode::Help => {
                help_overlay::draw(f, area, &self.theme, s.source == ShownSource::History)
            }
            Mode::ConfirmClear => self.confirm(f, area),
            _ => {}
        }
    }

    fn title(&self, s: &State) -> Line<'static> {
        let count = if s.filter_text.is_empty() {
            format!("{} captured", s.total())
        } else {
            format!("{} of {}", s.shown(), s.total())
        };
        let (state, style) = match (&s.agent, s.paused) {
            (Agent::Gone(_), _) => ("agent gone".to_string(), self.theme.warn()),
            (Agent::Waiting(_), _) => ("waiting for the agent".to_string(), self.theme.warn()),
            (Agent::Up, _) if s.source == ShownSource::History => {
                ("kept".to_string(), self.theme.fg(Color::Yellow))
            }
            (Agent::Up, true) => ("paused".to_string(), self.theme.fg(Color::Yellow)),
            (Agent::Up, false) if s.source == ShownSource::Recording => {
                ("live, recording".to_string(), self.theme.fg(Color::Green))
            }
            (Agent::Up, false) => ("live".to_string(), self.theme.fg(Color::Green)),
        };
        Line::from(vec![
            Span::styled(
                " tunnelctl inspect",
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!(" · {} · {count} · ", escape(&s.url))),
            Span::styled(state, style),
        ])
    }

    fn waiting(&self, f: &mut Frame<'_>, area: Rect, url: &str, err: Option<&str>) {
        let mut lines = vec![
            Line::from(""),
            Line::from(Span::styled(
                "No agent is answering yet.",
                Style::default().add_modifier(Modifier::BOLD),
            )),
            Line::from(""),
            Line::from(format!("Tried: {}", escape(url))),
        ];
        if let Some(e) = err {
            lines.push(Line::from(Span::styled(escape(e), self.theme.warn())));
        }
        lines.extend([
            Line::from(""),
            Line::from("Retrying every second: start the agent and its captures appear here."),
            Line::from("Another address? Quit (q) and use --agent-url or TUNNELCTL_AGENT_URL."),
        ]);
        f.render_widget(
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .block(Block::default().borders(Borders::ALL).title(" Agent ")),
            area,
        );
    }

    fn detail(&mut self, f: &mut Frame<'_>, area: Rect, s: &mut State) {
        let focused = s.pane == Pane::Detail;
        let tab = |name: &str, on: bool| {
            if on {
                Span::styled(
                    format!(" {name} "),
                    Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED),
                )
            } else {
                Span::raw(format!(" {name} "))
            }
        };
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(if focused {
                Style::default().add_modifier(Modifier::BOLD)
            } else {
                self.theme.tone(Tone::Punct)
            })
            .title(Line::from(vec![
                tab("Request", s.side == Side::Request),
                Span::raw("│"),
                tab("Response", s.side == Side::Response),
            ]));
        let inner = block.inner(area);
        f.render_widget(block, area);
        let Some(e) = s.selected() else {
            s.detail_len = 0;
            return;
        };
        let width = usize::from(inner.width);
        // The same exchange changes once, when its response arrives: that is part of the key.
        let key = (e.id.clone(), s.side, width, e.answered());
        let stale = !matches!(&self.cache, Some((k, _)) if *k == key);
        if stale {
            let theme = self.theme;
            let lines = detail_pane::wrap(detail_pane::lines(e, s.side, &s.secrets), width)
                .into_iter()
                .map(|l| {
                    Line::from(
                        l.into_iter()
                            .map(|(t, text)| Span::styled(text, theme.tone(t)))
                            .collect::<Vec<_>>(),
                    )
                })
                .collect();
            self.cache = Some((key, lines));
        }
        let Some((_, lines)) = &self.cache else {
            return;
        };
        s.detail_len = lines.len();
        let max = lines.len().saturating_sub(usize::from(inner.height));
        s.detail_scroll = s.detail_scroll.min(max);
        let shown: Vec<Line<'static>> = lines
            .iter()
            .skip(s.detail_scroll)
            .take(usize::from(inner.height))
            .cloned()
            .collect();
        f.render_widget(Paragraph::new(shown), inner);
    }

    fn confirm(&self, f: &mut Frame<'_>, area: Rect) {
        let popup = centered(area, 46, 5);
        f.render_widget(Clear, popup);
        f.render_widget(
            Paragraph::new(vec![
                Line::from("Delete every captured request in the agent?"),
                Line::from(""),
                Line::from(Span::styled(
                    "y: delete   any other key: keep",
                    Style::default().add_modifier(Modifier::BOLD),
                )),
            ])
            .block(Block::default().borders(Borders::ALL).title(" Clear ")),
            popup,
        );
    }
}
