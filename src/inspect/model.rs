//! The inspector's state and what each key does to it, with no terminal and no network: the
//! event loop ([`super::run`]) feeds it keys and the agent's answers, and carries out the
//! [`Action`]s it returns; the screen ([`super::screen`]) draws it.

use std::collections::VecDeque;

use super::kept::{Kept, Put, DEFAULT_BUDGET};
use crate::capture::filter::Query;
use crate::capture::Exchange;
use crate::signature::Secrets;

/// A key press, as the model knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPress {
    /// A printable character.
    Char(char),
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Home.
    Home,
    /// End.
    End,
    /// Enter.
    Enter,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Ctrl-C.
    CtrlC,
    /// Ctrl-U (clear the filter being typed).
    CtrlU,
}

/// What the event loop must do after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Nothing beyond drawing again.
    None,
    /// Leave the inspector.
    Quit,
    /// Leave the inspector as a Ctrl-C does: exit 130, as any interrupted command (in raw
    /// mode Ctrl-C comes as a key, not as the signal).
    Interrupted,
    /// Replay this capture through the agent.
    Replay(String),
    /// Copy this capture as a curl command.
    Copy(String),
    /// Save this capture's request to a file.
    Save(String),
    /// Open this capture's request in the user's editor and send what is saved to the
    /// tunnel's upstream.
    Edit(String),
    /// Delete every capture in the agent (confirmed).
    Clear,
}

/// Which pane has the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The list of exchanges.
    List,
    /// The detail of the selected one.
    Detail,
}

/// Which half of the exchange the detail pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The request.
    Request,
    /// The response.
    Response,
}

/// What is on top of the panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The panes have the keys.
    Normal,
    /// The `/` bar has them.
    Filter,
    /// The help is shown.
    Help,
    /// "Delete every captured request? y/n".
    ConfirmClear,
}

/// How the agent is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Agent {
    /// Not reached yet; the error of the last try, if one failed.
    Waiting(Option<String>),
    /// Answering.
    Up,
    /// It answered before and no longer does: why.
    Gone(String),
}

/// Whose captures the inspector shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShownSource {
    /// The agent's, live.
    Agent,
    /// The agent's, live, each one also kept in the history (`--record`).
    Recording,
    /// The history's (`--history`): read once; `r` and `e` send a kept request through
    /// tunnelctl (the agent may no longer hold it), and `x` is not offered (the history is
    /// cleared with `local requests clear --history`).
    History,
}

/// Everything the inspector shows.
#[derive(Debug)]
pub struct State {
    /// Whose captures these are.
    pub source: ShownSource,
    /// Older kept captures not read in, beyond the memory budget (`--history`).
    pub left_out: u64,
    /// The agent API's URL, for messages.
    pub url: String,
    kept: Kept,
    /// Sequence numbers of the kept exchanges that pass the filter, ascending (oldest first).
    visible: VecDeque<u64>,
    selected: Option<u64>,
    /// The exchange the reader chose (moved to, or had selected when they opened the `/` bar):
    /// while a filter is typed, a word half-typed may hide it and move the selection, and it
    /// is selected again once the filter lets it through.
    chosen: Option<u64>,
    /// Rows that arrived above the list's first shown row since the reader moved away from
    /// the top (`↑ N new`; `g` goes up to them).
    pub new_above: usize,
    /// Which pane has the keys.
    pub pane: Pane,
    /// Request or response.
    pub side: Side,
    /// What is on top.
    pub mode: Mode,
    /// First line of the detail shown.
    pub detail_scroll: usize,
    /// Lines in the detail (told by the view when it lays it out).
    pub detail_len: usize,
    /// Rows the list has on screen (told by the view).
    pub list_rows: usize,
    /// Lines the detail has on screen (told by the view).
    pub detail_rows: usize,
    /// First list row shown.
    pub list_offset: usize,
    /// Live updates paused?
    pub paused: bool,
    /// Does the selection follow the newest capture? Until a key moves it off the top row,
    /// as `tail -f` does; once moved, it stays on its exchange as new ones arrive.
    pub following: bool,
    /// The filter as typed.
    pub filter_text: String,
    query: Query,
    /// Why the filter as typed is not in force (the last good one is).
    pub filter_error: Option<String>,
    /// How the agent is doing.
    pub agent: Agent,
    /// A one-line message (what an action did).
    pub message: Option<String>,
    /// The webhook secrets signatures are checked with (the detail pane, the list's marks,
    /// the `sig:` filter words).
    pub secrets: Secrets,
}

impl State {
    /// An empty inspector for the agent at `url`, with the default memory budget.
    pub fn new(url: &str) -> State {
        State::with_budget(url, DEFAULT_BUDGET)
    }

    /// An empty inspector for the agent at `url` that keeps captures within `budget` bytes.
    pub fn with_budget(url: &str, budget: u64) -> State {
        State {
            source: ShownSource::Agent,
            left_out: 0,
            url: url.to_string(),
            kept: Kept::new(budget),
            visible: VecDeque::new(),
            selected: None,
            chosen: None,
            new_above: 0,
            pane: Pane::List,
            side: Side::Request,
            mode: Mode::Normal,
            detail_scroll: 0,
            detail_len: 0,
            list_rows: 10,
            detail_rows: 10,
            list_offset: 0,
            paused: false,
            following: true,
            filter_text: String::new(),
            query: Query::default(),
            filter_error: None,
            agent: Agent::Waiting(None),
            message: None,
            secrets: Secrets::new(),
        }
    }

    /// Exchanges kept.
    pub fn total(&self) -> usize {
        self.kept.len()
    }

    /// Older exchanges dropped to stay within the memory budget.
    pub fn dropped(&self) -> usize {
        self.kept.dropped()
    }

    /// The captures kept (the feed reads which still wait for a response).
    pub fn kept(&self) -> &Kept {
        &self.kept
    }

    /// Exchanges that pass the filter.
    pub fn shown(&self) -> usize {
        self.visible.len()
    }

    /// The exchange on list row `row` (0 is the newest shown).
    pub fn row(&self, row: usize) -> Option<&Exchange> {
        let n = self.visible.len();
        let seq = *self.visible.get(n.checked_sub(row + 1)?)?;
        self.kept.at(seq)
    }

    /// The selected exchange.
    pub fn selected(&self) -> Option<&Exchange> {
        self.selected.and_then(|s| self.kept.at(s))
    }

    /// The list row of the selected exchange, if it passes the filter.
    pub fn selected_row(&self) -> Option<usize> {
        let seq = self.selected?;
        let pos = self.visible.binary_search(&seq).ok()?;
        Some(self.visible.len() - 1 - pos)
    }

    /// An exchange by ID.
    pub fn get(&self, id: &str) -> Option<&Exchange> {
        self.kept.seq_of(id).and_then(|s| self.kept.at(s))
    }

    /// Takes in what the agent listed (newest first): new exchanges are added on top, known
    /// ones updated (a response arrived); the selection stays on its exchange. Past the memory
    /// budget the oldest are dropped.
    pub fn merge(&mut self, mut batch: Vec<Exchange>) {
        let before = self.selected_row();
        let mut added = 0;
        batch.truncate(self.worth_keeping(&batch));
        for e in batch.into_iter().rev() {
            let passes = self.query.matches(&e);
            match self.kept.put(e) {
                Put::Added(seq) => {
                    if passes {
                        self.visible.push_back(seq);
                        added += 1;
                    }
                }
                Put::Changed(seq) => self.refresh_one(seq),
                Put::Same => {}
            }
        }
        let first = self.kept.trim();
        while self.visible.front().is_some_and(|s| *s < first) {
            self.visible.pop_front();
        }
        if self.selected.is_some_and(|s| s < first) {
            self.selected = None;
        }
        if added > 0 {
            self.after_rows_moved(before, added);
        } else {
            self.keep_selection_in_view();
        }
    }

    /// How many of `batch` (newest first) are worth merging: once older captures were
    /// dropped for the budget, those listed after the oldest kept one are the dropped ones
    /// again, and are not taken back.
    pub fn worth_keeping(&self, batch: &[Exchange]) -> usize {
        if self.kept.dropped() == 0 {
            return batch.len();
        }
        let oldest = self.kept.at(self.kept.first()).map(|e| e.id.as_str());
        batch
            .iter()
            .position(|e| Some(e.id.as_str()) == oldest)
            .map_or(batch.len(), |p| p + 1)
    }

    /// Captures of `batch` (newest first) that [`State::merge`] would add.
    pub fn new_in(&self, batch: &[Exchange]) -> usize {
        batch[..self.worth_keeping(batch)]
            .iter()
            .filter(|e| self.get(&e.id).is_none())
            .count()
    }

    /// Selects the newest when following (or when nothing was selected); else keeps the
    /// selected row where it was on screen when `added` rows arrived above it, and counts
    /// those that arrived out of view.
    fn after_rows_moved(&mut self, before: Option<usize>, added: usize) {
        if self.following || self.selected.is_none() || self.selected_row().is_none() {
            self.select_row(0);
            return;
        }
        if let (Some(b), Some(now)) = (before, self.selected_row()) {
            // The list stays still under the reader unless they were looking at the top.
            if self.list_offset > 0 || b > 0 {
                self.list_offset += now - b.min(now);
            }
        }
        self.new_above += added;
        self.keep_selection_in_view();
    }

    /// Forgets every exchange (after a clear).
    pub fn clear(&mut self) {
        self.kept.clear();
        self.visible.clear();
        self.selected = None;
        self.chosen = None;
        self.list_offset = 0;
        self.new_above = 0;
        self.detail_scroll = 0;
    }

    fn refresh_one(&mut self, seq: u64) {
        let passes = self.kept.at(seq).is_some_and(|e| self.query.matches(e));
        match (self.visible.binary_search(&seq), passes) {
            (Err(at), true) => self.visible.insert(at, seq),
            (Ok(at), false) => {
                self.visible.remove(at);
            }
            _ => {}
        }
    }

    fn refilter(&mut self) {
        let q = &self.query;
        self.visible = self
            .kept
            .iter()
            .filter(|(_, e)| q.matches(e))
            .map(|(seq, _)| seq)
            .collect();
    }

    /// Applies the filter as typed; when it does not parse, the last good one stays.
    fn set_filter_text(&mut self) {
        match Query::parse(&self.filter_text) {
            Ok(q) => {
                self.query = q.signing(self.secrets.clone(), crate::capture::signed::now());
                self.filter_error = None;
                self.refilter();
                // Following: the newest that passes. Else the exchange the reader chose when
                // it passes (a half-typed word may have moved the selection off it), else the
                // selection when it passes, else the newest that passes.
                let passes = |seq: &u64| self.visible.binary_search(seq).is_ok();
                let kept = self.chosen.filter(passes).or(self.selected.filter(passes));
                match kept.filter(|_| !self.following) {
                    Some(seq) => {
                        if self.selected != Some(seq) {
                            self.detail_scroll = 0;
                        }
                        self.selected = Some(seq);
                        self.keep_selection_in_view();
                    }
                    None => self.select_row(0),
                }
            }
            Err(e) => self.filter_error = Some(e.to_string()),
        }
    }

    /// Sets the filter from outside (`--filter`).
    pub fn set_filter(&mut self, text: &str) {
        self.filter_text = text.to_string();
        self.set_filter_text();
    }

    fn select_row(&mut self, row: usize) {
        let n = self.visible.len();
        if n == 0 {
            self.selected = None;
            return;
        }
        let row = row.min(n - 1);
        let new = self.visible[n - 1 - row];
        if self.selected != Some(new) {
            self.detail_scroll = 0;
        }
        self.selected = Some(new);
        self.keep_selection_in_view();
    }

    fn keep_selection_in_view(&mut self) {
        let Some(row) = self.selected_row() else {
            return;
        };
        let page = self.list_rows.max(1);
        if row < self.list_offset {
            self.list_offset = row;
        } else if row >= self.list_offset + page {
            self.list_offset = row + 1 - page;
        }
        let max_offset = self.visible.len().saturating_sub(page);
        self.list_offset = self.list_offset.min(max_offset);
        // What came in above is seen once the list shows its top rows.
        self.new_above = self.new_above.min(self.list_offset);
    }

    /// Tells the model how big the panes are (after a resize).
    pub fn set_sizes(&mut self, list_rows: usize, detail_rows: usize) {
        self.list_rows = list_rows.max(1);
        self.detail_rows = detail_rows.max(1);
        self.keep_selection_in_view();
    }

    fn move_rows(&mut self, delta: isize) {
        let current = self.selected_row().unwrap_or(0);
        let row = current.saturating_add_signed(delta);
        self.select_row(row);
    }

    fn scroll(&mut self, delta: isize) {
        let max = self.detail_len.saturating_sub(self.detail_rows);
        self.detail_scroll = self.detail_scroll.saturating_add_signed(delta).min(max);
    }

    fn move_by(&mut self, delta: isize) {
        match self.pane {
            Pane::List => {
                self.move_rows(delta);
                self.following = self.selected_row() == Some(0);
                self.chosen = self.selected;
            }
            Pane::Detail => self.scroll(delta),
        }
    }

    fn page(&self) -> isize {
        let rows = match self.pane {
            Pane::List => self.list_rows,
            Pane::Detail => self.detail_rows,
        };
        rows.max(1) as isize
    }

    fn on_selected(&mut self, act: impl FnOnce(String) -> Action) -> Action {
        match self.selected() {
            Some(e) => act(e.id.clone()),
            None => {
                self.message = Some("Nothing selected.".into());
                Action::None
            }
        }
    }
}

/// What a key does: changes the state and says what the event loop must do.
pub fn handle(s: &mut State, key: KeyPress) -> Action {
    if key == KeyPress::CtrlC {
        return Action::Interrupted;
    }
    match s.mode {
        Mode::Help => {
            s.mode = Mode::Normal;
            if key == KeyPress::Char('q') {
                return Action::Quit;
            }
            Action::None
        }
        Mode::ConfirmClear => {
            s.mode = Mode::Normal;
            if matches!(key, KeyPress::Char('y') | KeyPress::Char('Y')) {
                Action::Clear
            } else {
                s.message = Some("Nothing deleted.".into());
                Action::None
            }
        }
        Mode::Filter => {
            match key {
                KeyPress::Char(c) => s.filter_text.push(c),
                KeyPress::Backspace => {
                    s.filter_text.pop();
                }
                KeyPress::CtrlU => s.filter_text.clear(),
                KeyPress::Enter | KeyPress::Down | KeyPress::Tab => {
                    s.mode = Mode::Normal;
                    return Action::None;
                }
                KeyPress::Esc => {
                    s.mode = Mode::Normal;
                    s.filter_text.clear();
                }
                _ => return Action::None,
            }
            s.set_filter_text();
            Action::None
        }
        Mode::Normal => normal(s, key),
    }
}

fn normal(s: &mut State, key: KeyPress) -> Action {
    s.message = None;
    match key {
        KeyPress::Char('q') => return Action::Quit,
        KeyPress::Esc if s.pane == Pane::Detail => s.pane = Pane::List,
        // As in k9s: with a filter applied, the first Esc clears it; the next one quits.
        KeyPress::Esc if !s.filter_text.is_empty() => {
            s.filter_text.clear();
            s.set_filter_text();
        }
        KeyPress::Esc => return Action::Quit,
        KeyPress::Up | KeyPress::Char('k') => s.move_by(-1),
        KeyPress::Down | KeyPress::Char('j') => s.move_by(1),
        KeyPress::PageUp => s.move_by(-s.page()),
        KeyPress::PageDown | KeyPress::Char(' ') => s.move_by(s.page()),
        KeyPress::Home | KeyPress::Char('g') => s.move_by(isize::MIN / 2),
        KeyPress::End | KeyPress::Char('G') => s.move_by(isize::MAX / 2),
        KeyPress::Enter => {
            s.pane = match s.pane {
                Pane::List => Pane::Detail,
                Pane::Detail => Pane::List,
            }
        }
        KeyPress::Tab | KeyPress::BackTab | KeyPress::Char('t') => {
            s.side = match s.side {
                Side::Request => Side::Response,
                Side::Response => Side::Request,
            };
            s.detail_scroll = 0;
        }
        KeyPress::Char('/') => {
            s.mode = Mode::Filter;
            s.chosen = s.selected;
        }
        KeyPress::Char('?') => s.mode = Mode::Help,
        KeyPress::Char('p') if s.source == ShownSource::History => {
            s.message = Some("The history does not change: nothing to pause.".into());
        }
        KeyPress::Char('p') => {
            s.paused = !s.paused;
            s.message = Some(if s.paused {
                "Paused: new captures are not fetched (p to resume).".into()
            } else {
                "Live again.".into()
            });
        }
        KeyPress::Char('r') => return s.on_selected(Action::Replay),
        KeyPress::Char('c') => return s.on_selected(Action::Copy),
        KeyPress::Char('s') => return s.on_selected(Action::Save),
        KeyPress::Char('e') => return s.on_selected(Action::Edit),
        KeyPress::Char('x') if s.source == ShownSource::History => {
            s.message = Some(
                "x is not offered in the history: 'tunnelctl local requests clear --history' \
                 deletes kept captures."
                    .into(),
            );
        }
        KeyPress::Char('x') => s.mode = Mode::ConfirmClear,
        _ => {}
    }
    Action::None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(id: &str, method: &str, status: Option<u16>) -> Exchange {
        Exchange::sample(id, method, &format!("/{id}"), status)
    }

    /// A state with exchanges a (oldest) … e (newest).
    fn five() -> State {
        let mut s = State::new("http://127.0.0.1:4040/api");
        s.set_sizes(3, 5);
        s.merge(
            ["e", "d", "c", "b", "a"]
                .iter()
                .map(|id| ex(id, if *id == "c" { "POST" } else { "GET" }, Some(200)))
                .collect(),
        );
        s
    }

    fn sel(s: &State) -> &str {
        s.selected().map(|e| e.id.as_str()).unwrap_or("-")
    }

    #[test]
    fn newest_first_and_moving() {
        let mut s = five();
        assert_eq!(s.row(0).unwrap().id, "e");
        assert_eq!(sel(&s), "e");
        handle(&mut s, KeyPress::Char('j'));
        handle(&mut s, KeyPress::Down);
        assert_eq!(sel(&s), "c");
        handle(&mut s, KeyPress::Char('k'));
        assert_eq!(sel(&s), "d");
        handle(&mut s, KeyPress::Char('G'));
        assert_eq!(sel(&s), "a");
        assert_eq!(s.list_offset, 2, "the last row is in view");
        handle(&mut s, KeyPress::PageUp);
        assert_eq!(sel(&s), "d");
        handle(&mut s, KeyPress::Char('g'));
        assert_eq!(sel(&s), "e");
        handle(&mut s, KeyPress::Up);
        assert_eq!(sel(&s), "e", "stops at the top");
    }

    #[test]
    fn the_selection_follows_the_newest_until_moved() {
        let mut s = five();
        s.merge(vec![ex("f", "GET", Some(200))]);
        assert_eq!(sel(&s), "f");
        handle(&mut s, KeyPress::Down);
        s.merge(vec![ex("g", "GET", Some(200))]);
        assert_eq!(sel(&s), "e", "moved: it stays");
        handle(&mut s, KeyPress::Char('g'));
        assert_eq!(sel(&s), "g");
        s.merge(vec![ex("h", "GET", Some(200))]);
        assert_eq!(sel(&s), "h", "back on top: it follows again");
    }

    #[test]
    fn the_selection_stays_on_its_exchange_when_new_ones_arrive() {
        let mut s = five();
        handle(&mut s, KeyPress::Down);
        handle(&mut s, KeyPress::Down);
        assert_eq!(sel(&s), "c");
        s.merge(vec![ex("g", "GET", None), ex("f", "GET", Some(200))]);
        assert_eq!(sel(&s), "c");
        assert_eq!(s.selected_row(), Some(4));
        assert_eq!(s.row(0).unwrap().id, "g");
        // A response arrives for a known one: updated in place, nothing added.
        s.merge(vec![ex("g", "GET", Some(502))]);
        assert_eq!(s.total(), 7);
        assert_eq!(s.get("g").unwrap().status(), Some(502));
        assert_eq!(sel(&s), "c");
    }

    #[test]
    fn the_filter_narrows_as_typed_and_keeps_the_last_good_query() {
        let mut s = five();
        handle(&mut s, KeyPress::Char('/'));
        for c in "method:post".chars() {
            handle(&mut s, KeyPress::Char(c));
        }
        assert_eq!((s.shown(), s.total()), (1, 5));
        assert_eq!(sel(&s), "c");
        s.set_filter("method:post status:9");
        assert!(s.filter_error.as_deref().unwrap().contains("status '9'"));
        assert_eq!(s.shown(), 1, "the last good filter stays");
        handle(&mut s, KeyPress::CtrlU);
        assert_eq!(s.shown(), 5);
        assert_eq!(sel(&s), "e", "never moved: it follows the newest");
        for c in "!method:post".chars() {
            handle(&mut s, KeyPress::Char(c));
        }
        assert_eq!(s.shown(), 4);
        assert_eq!(
            sel(&s),
            "e",
            "the newest when the selection is filtered out"
        );
        handle(&mut s, KeyPress::Enter);
        assert_eq!(s.mode, Mode::Normal);
        handle(&mut s, KeyPress::Char('j'));
        assert_eq!(sel(&s), "d");
        // New arrivals go through the filter too.
        s.merge(vec![ex("z", "POST", Some(200))]);
        assert_eq!((s.shown(), s.total()), (4, 6));
        handle(&mut s, KeyPress::Char('/'));
        handle(&mut s, KeyPress::Esc);
        assert_eq!((s.shown(), s.filter_text.as_str()), (6, ""));
    }

    #[test]
    fn a_half_typed_word_does_not_lose_the_chosen_exchange() {
        let mut s = five();
        handle(&mut s, KeyPress::Char('G'));
        assert_eq!(sel(&s), "a");
        handle(&mut s, KeyPress::Char('/'));
        // "qq" hides everything; rubbed out, everything is back.
        handle(&mut s, KeyPress::Char('q'));
        handle(&mut s, KeyPress::Char('q'));
        assert_eq!((s.shown(), sel(&s)), (0, "-"));
        handle(&mut s, KeyPress::Backspace);
        handle(&mut s, KeyPress::Backspace);
        assert_eq!(s.shown(), 5);
        assert_eq!(sel(&s), "a", "back on the chosen exchange");
        // A filter that hides the chosen one selects the newest that passes.
        for c in "method:post".chars() {
            handle(&mut s, KeyPress::Char(c));
        }
        assert_eq!(sel(&s), "c");
    }

    #[test]
    fn the_first_esc_clears_the_filter_the_next_quits() {
        let mut s = five();
        handle(&mut s, KeyPress::Char('j'));
        s.set_filter("method:post");
        assert_eq!((s.shown(), sel(&s)), (1, "c"));
        assert_eq!(handle(&mut s, KeyPress::Esc), Action::None);
        assert_eq!((s.shown(), s.filter_text.as_str()), (5, ""));
        assert_eq!(sel(&s), "d", "back on the exchange the reader chose");
        assert_eq!(handle(&mut s, KeyPress::Esc), Action::Quit);
    }

    #[test]
    fn keys_that_act() {
        let mut s = five();
        assert_eq!(
            handle(&mut s, KeyPress::Char('r')),
            Action::Replay("e".into())
        );
        assert_eq!(
            handle(&mut s, KeyPress::Char('c')),
            Action::Copy("e".into())
        );
        assert_eq!(
            handle(&mut s, KeyPress::Char('s')),
            Action::Save("e".into())
        );
        assert_eq!(
            handle(&mut s, KeyPress::Char('e')),
            Action::Edit("e".into())
        );
        assert_eq!(handle(&mut s, KeyPress::Char('x')), Action::None);
        assert_eq!(s.mode, Mode::ConfirmClear);
        assert_eq!(handle(&mut s, KeyPress::Char('n')), Action::None);
        assert_eq!(s.message.as_deref(), Some("Nothing deleted."));
        handle(&mut s, KeyPress::Char('x'));
        assert_eq!(handle(&mut s, KeyPress::Char('y')), Action::Clear);
        handle(&mut s, KeyPress::Char('p'));
        assert!(s.paused);
        handle(&mut s, KeyPress::Char('?'));
        assert_eq!(s.mode, Mode::Help);
        assert_eq!(
            handle(&mut s, KeyPress::Esc),
            Action::None,
            "Esc closes the help"
        );
        assert_eq!(handle(&mut s, KeyPress::CtrlC), Action::Interrupted);
        assert_eq!(handle(&mut s, KeyPress::Char('q')), Action::Quit);
        let mut empty = State::new("u");
        assert_eq!(handle(&mut empty, KeyPress::Char('r')), Action::None);
        assert_eq!(empty.message.as_deref(), Some("Nothing selected."));
    }

    #[test]
    fn panes_sides_and_scrolling() {
        let mut s = five();
        handle(&mut s, KeyPress::Enter);
        assert_eq!(s.pane, Pane::Detail);
        s.detail_len = 12;
        handle(&mut s, KeyPress::PageDown);
        assert_eq!(s.detail_scroll, 5);
        handle(&mut s, KeyPress::PageDown);
        assert_eq!(s.detail_scroll, 7, "stops at the last page");
        handle(&mut s, KeyPress::Tab);
        assert_eq!((s.side, s.detail_scroll), (Side::Response, 0));
        assert_eq!(sel(&s), "e", "the list did not move");
        assert_eq!(handle(&mut s, KeyPress::Esc), Action::None);
        assert_eq!(s.pane, Pane::List);
        assert_eq!(handle(&mut s, KeyPress::Esc), Action::Quit);
    }

    #[test]
    fn memory_is_bounded() {
        use crate::inspect::kept::MAX_KEPT;
        let mut s = State::new("u");
        let many: Vec<Exchange> = (0..MAX_KEPT + 5)
            .rev()
            .map(|i| ex(&format!("x{i}"), "GET", Some(200)))
            .collect();
        s.merge(many);
        assert_eq!(s.total(), MAX_KEPT);
        assert!(s.get("x4").is_none(), "the oldest went");
        assert_eq!(s.get("x5").map(|e| e.id.as_str()), Some("x5"));
        assert_eq!(s.row(0).unwrap().id, format!("x{}", MAX_KEPT + 4));
        // The dropped ones listed again are not taken back.
        let again: Vec<Exchange> = (0..12)
            .rev()
            .map(|i| ex(&format!("x{i}"), "GET", Some(200)))
            .collect();
        assert_eq!(s.new_in(&again), 0);
        s.merge(again);
        assert_eq!((s.total(), s.dropped()), (MAX_KEPT, 5));
        s.clear();
        assert_eq!((s.total(), s.shown(), sel(&s)), (0, 0, "-"));
    }
}
