//! Where a popup goes on the inspector's screen (help, a confirmation): the middle of the
//! area it covers, shrunk to fit a small terminal.

use ratatui::layout::{Constraint, Direction, Layout, Rect};

/// A rectangle of at most `w` x `h` in the middle of `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let rows = middle(area, Direction::Vertical, area.height, h);
    middle(rows, Direction::Horizontal, area.width, w)
}

/// The middle `len` (at most `total`, the length of `area` along `direction`) of `area`.
fn middle(area: Rect, direction: Direction, total: u16, len: u16) -> Rect {
    let len = len.min(total);
    let [_, mid, _] = Layout::default()
        .direction(direction)
        .constraints([
            Constraint::Length((total - len) / 2),
            Constraint::Length(len),
            Constraint::Min(0),
        ])
        .areas(area);
    mid
}
