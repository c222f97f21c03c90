//! The state of `sessions watch` and what each key does: pure (no terminal, no network), so
//! every rule is tested without either.
//!
//! Rows are kept across refreshes: a session seen for the first time after the first refresh
//! is new (it stands out for [`NEW_KEPT`] refreshes), one whose agent version changed shows
//! the old one, and one no longer listed stays, dimmed and labelled gone, for [`GONE_KEPT`]
//! refreshes before it is dropped. Ages are counted in refreshes, not seconds, so what the
//! screen shows depends only on what the service answered.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use serde_json::Value;

use super::session_columns::SessionColumn;
use super::watch_filter::RowFilter;
use super::watched_session::WatchedSession;
use crate::api::sessions::AgentCommand;
use crate::bulk::Unchanged;
use crate::fleet::command::UP_TO_DATE;
use crate::fleet::select::Selector;
use crate::fleet::{capable, same_agent};
use crate::inspect::model::KeyPress;

/// Refreshes a new session stands out for.
pub const NEW_KEPT: u64 = 3;
/// Refreshes a gone session stays on screen.
pub const GONE_KEPT: u64 = 3;

/// What the screen may do to sessions: an agent command, or a rolling upgrade (update, wait,
/// restart, wait, in batches, as `sessions upgrade` does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionsVerb {
    /// Restart, stop or update.
    Agent(AgentCommand),
    /// A rolling upgrade.
    Upgrade,
}

impl SessionsVerb {
    /// Its name.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionsVerb::Agent(c) => c.as_str(),
            SessionsVerb::Upgrade => "upgrade",
        }
    }
}

/// What was last done to a row's agent from this screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowCommand {
    /// Sent, no answer yet.
    Sending(SessionsVerb),
    /// The service took it.
    Done(SessionsVerb),
    /// Nothing needed doing (an update of an agent already on the newest version).
    Unchanged(SessionsVerb, Unchanged),
    /// It failed: why, on one line.
    Failed(SessionsVerb, String),
}

/// A session's answer to a command sent from this screen, as the bulk commands read it
/// ([`crate::fleet::command::agent_outcome`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentAnswer {
    /// The service took it.
    Done,
    /// Nothing needed doing: not a failure (`sessions update` says the same).
    Unchanged(Unchanged),
    /// It failed.
    Failed {
        /// Why, on one line (its row and its details show it).
        why: String,
        /// Why in the words failures alike share (the summary groups by it).
        reason: String,
    },
}

/// A session as a refresh lists it: already the row it will be when it is new, with what the
/// row needs worked out as it is read (while the next page is fetched) rather than when the
/// whole list is taken in. The first list becomes the rows where it lies, in place: 5,000 rows
/// copied into new memory cost the first screen about a millisecond of page faults.
#[derive(Debug)]
pub struct ListedSession(SessionRow);

impl ListedSession {
    /// `session`, with its cells' widths, as a row not yet taken in.
    pub fn new(session: WatchedSession) -> ListedSession {
        ListedSession(SessionRow {
            widths: session.cell_widths(),
            session,
            seen_at: 0,
            seen_clock: None,
            new: false,
            changed_from: None,
            gone_at: None,
            marked: false,
            sent: None,
            replaced: None,
            replaced_by: None,
            history: Vec::new(),
        })
    }

    /// The session.
    pub fn session(&self) -> &WatchedSession {
        &self.0.session
    }

    /// Its text's width in each column ([`WatchedSession::cell_widths`]).
    pub fn widths(&self) -> [u16; 9] {
        self.0.widths
    }

    /// The row it makes, first seen in refresh `now` (at `clock`).
    fn into_row(self, now: u64, clock: &Rc<str>) -> SessionRow {
        let mut row = self.0;
        row.seen_at = now;
        row.seen_clock = Some(Rc::clone(clock));
        row.new = now > 1;
        row
    }
}

/// One session on screen.
#[derive(Debug, Clone)]
pub struct SessionRow {
    /// The session as last listed.
    pub session: WatchedSession,
    /// The refresh it first appeared in.
    pub seen_at: u64,
    /// The time of day of that refresh (one text for all the rows it brought); none before
    /// the row is taken in.
    pub seen_clock: Option<Rc<str>>,
    /// New (seen after the first refresh).
    pub new: bool,
    /// The version it had before, when a refresh saw it change, and when.
    pub changed_from: Option<(String, u64)>,
    /// The refresh it was first missing from.
    pub gone_at: Option<u64>,
    /// Marked with space.
    pub marked: bool,
    /// The last command sent to it from here.
    pub sent: Option<RowCommand>,
    /// The session of the same agent it replaced (a restart's old one).
    pub replaced: Option<String>,
    /// The session of the same agent that replaced it (a restart's new one).
    pub replaced_by: Option<String>,
    /// What happened to it on this screen since it was seen, oldest first.
    pub history: Vec<String>,
    /// Its text's width in each column ([`WatchedSession::cell_widths`]), as of the last
    /// change of its session: a frame sizes its columns from these instead of drawing every
    /// cell of the list.
    pub widths: [u16; 9],
}

impl SessionRow {
    /// Its key on this screen: the session's ID, after its profile's name when several
    /// accounts are watched.
    pub fn id(&self) -> &str {
        self.session.key()
    }

    /// The word of the status column: what last happened to it.
    pub fn status(&self, refresh: u64) -> String {
        if self.gone_at.is_some() {
            // What was done to it stays said; then gone, or back under a new session.
            let done = match &self.sent {
                Some(RowCommand::Done(c)) => format!("{}, ", past(*c)),
                _ => String::new(),
            };
            let end = match self.replaced_by {
                Some(_) => "back",
                None => "gone",
            };
            return format!("{done}{end}");
        }
        match &self.sent {
            Some(RowCommand::Sending(c)) => return format!("{}…", c.as_str()),
            Some(RowCommand::Done(c)) => return format!("{} ✓", past(*c)),
            // The outcome's word (`up-to-date`) as words: the column has no room for its text.
            Some(RowCommand::Unchanged(_, u)) => return u.word.replace('-', " "),
            Some(RowCommand::Failed(..)) => return "failed".into(),
            None => {}
        }
        if let Some((from, at)) = &self.changed_from {
            if refresh < at + NEW_KEPT {
                return format!("was {from}");
            }
        }
        if self.new && refresh < self.seen_at + NEW_KEPT {
            return match self.replaced {
                Some(_) => "new, back".into(),
                None => "new".into(),
            };
        }
        String::new()
    }

    /// Does it stand out (new, or its version just changed)?
    pub fn fresh(&self, refresh: u64) -> bool {
        self.gone_at.is_none()
            && ((self.new && refresh < self.seen_at + NEW_KEPT)
                || self
                    .changed_from
                    .as_ref()
                    .is_some_and(|(_, at)| refresh < at + NEW_KEPT))
    }
}

/// A command's past tense, as a row and the summary say it.
pub fn past(v: SessionsVerb) -> &'static str {
    match v {
        SessionsVerb::Agent(AgentCommand::Restart) => "restarted",
        SessionsVerb::Agent(AgentCommand::Stop) => "stopped",
        SessionsVerb::Agent(AgentCommand::Update) => "updated",
        SessionsVerb::Upgrade => "upgraded",
    }
}

/// What the screen shows on top of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchMode {
    /// The list.
    List,
    /// Typing a filter (the text so far).
    Filtering(String),
    /// Asking whether to send a command to these sessions.
    Confirm(ActionQuestion),
    /// The help overlay.
    Help,
    /// Every field of one session (by its key), and its history here, scrolled down this many
    /// lines.
    Detail(String, usize),
}

/// What an action key would do, as the screen asks it: the command, every session it goes to,
/// and the sessions chosen that it leaves out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionQuestion {
    /// The command.
    pub verb: SessionsVerb,
    /// The sessions (their keys) it is sent to: the marked ones, or else the current one.
    pub ids: Vec<String>,
    /// Those of `ids` the filter hides (marked, then filtered out of sight).
    pub hidden: Vec<String>,
    /// The sessions chosen that are left out, and why (a Windows agent is not restarted, as
    /// `sessions restart --all` leaves it out; a session with a command under way is never
    /// sent another).
    pub skipped: Vec<(String, &'static str)>,
}

/// What a key asks of the event loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchAction {
    /// Nothing beyond the state's change.
    None,
    /// Quit.
    Quit,
    /// Quit as a Ctrl-C does: the same summary, exit 130 (the terminal is in raw mode, so
    /// Ctrl-C comes as a key, not as the signal).
    Interrupted,
    /// Send this command to these sessions.
    Send(SessionsVerb, Vec<String>),
}

/// What was done from this screen, for the summary on quit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WatchTally {
    /// Restarted.
    pub restarted: usize,
    /// Stopped.
    pub stopped: usize,
    /// Updated.
    pub updated: usize,
    /// Upgraded (updated, restarted and back).
    pub upgraded: usize,
    /// Updates that found the agent already on the newest version.
    pub up_to_date: usize,
    /// The sessions whose command failed, each with why (in the words failures alike share).
    pub failed: Vec<(String, String)>,
}

impl WatchTally {
    /// One line of what was done (the failures are counted; [`WatchTally::failed`] says which
    /// and why); `None` when nothing was.
    pub fn summary(&self) -> Option<String> {
        if *self == WatchTally::default() {
            return None;
        }
        let up_to_date = match self.up_to_date {
            0 => String::new(),
            n => format!(", {n} {}", UP_TO_DATE.text),
        };
        Some(format!(
            "sessions watch: restarted {}, stopped {}, updated {}{up_to_date}, upgraded {}, \
             failed {}.",
            self.restarted,
            self.stopped,
            self.updated,
            self.upgraded,
            self.failed.len()
        ))
    }

    /// How many answers came, failed or not.
    pub fn answered(&self) -> usize {
        self.restarted
            + self.stopped
            + self.updated
            + self.upgraded
            + self.up_to_date
            + self.failed.len()
    }
}

/// The whole state of the screen.
#[derive(Debug)]
pub struct WatchState {
    /// Every row, listed or gone, in the order first seen.
    pub rows: Vec<SessionRow>,
    /// The place of the current row among those shown.
    pub cursor: usize,
    /// The filter in force, and its text.
    pub filter: RowFilter,
    /// The column sorted by, and whether descending.
    pub sort: (SessionColumn, bool),
    /// What is shown over the list.
    pub mode: WatchMode,
    /// Refreshes taken in so far.
    pub refreshes: u64,
    /// The last refresh's error (the rows stay as they were).
    pub error: Option<String>,
    /// The profiles whose list failed, when several accounts are watched (the title names
    /// them).
    pub failing: Vec<String>,
    /// The bottom line's message.
    pub message: Option<String>,
    /// Read-only: every action key refuses.
    pub read_only: bool,
    /// The read-only profiles among those watched: an action on one of their rows refuses.
    pub read_only_profiles: Vec<String>,
    /// The selectors of the command line: sessions they leave out are not shown.
    pub selector: Selector,
    /// What was done.
    pub tally: WatchTally,
    /// How far the details may scroll, as last drawn (the view knows the box's size).
    pub detail_bottom: Cell<usize>,
    /// The rows shown, worked out again only when the rows, the filter or the sort change.
    shown_cache: RefCell<ShownCache>,
}

/// [`WatchState::shown`], kept between frames: filtering and sorting 5,000 rows for each frame
/// (each key) would take longer than a frame may.
#[derive(Debug, Default)]
struct ShownCache {
    /// What it was worked out for: the refresh (the rows change only with one), the filter's
    /// text and the sort.
    made_for: Option<(u64, String, (SessionColumn, bool))>,
    /// The places of the rows shown, in order.
    shown: Vec<usize>,
}

impl WatchState {
    /// A state before the first refresh.
    pub fn new(selector: Selector, read_only: bool) -> WatchState {
        WatchState {
            rows: Vec::new(),
            cursor: 0,
            filter: RowFilter::default(),
            sort: (SessionColumn::Id, false),
            mode: WatchMode::List,
            refreshes: 0,
            error: None,
            failing: Vec::new(),
            message: None,
            read_only,
            read_only_profiles: Vec::new(),
            selector,
            tally: WatchTally::default(),
            detail_bottom: Cell::new(0),
            shown_cache: RefCell::default(),
        }
    }

    /// Takes in a refresh: every session listed now.
    pub fn refreshed(&mut self, list: Vec<ListedSession>, at: &str) {
        self.refreshed_keeping(list, &[], at);
    }

    /// Takes in a refresh of some accounts: every session they listed now; the rows of the
    /// profiles in `kept` (an account whose list failed, or waits for its back-off) stay as
    /// they were, none of them gone.
    pub fn refreshed_keeping(&mut self, mut list: Vec<ListedSession>, kept: &[String], at: &str) {
        self.refreshes += 1;
        let now = self.refreshes;
        let clock: Rc<str> = Rc::from(at);
        let selector = &self.selector;
        list.retain(|l| selector.matches(l.session()));
        // Each listed session's row, looked up by its key (not searched for: a refresh of N
        // sessions costs N, not N x N); `None` for a key listed twice, the first counting.
        let places: Vec<Option<Option<usize>>> = {
            let place: HashMap<&str, usize> = self
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| (r.id(), i))
                .collect();
            let mut seen = HashSet::with_capacity(list.len());
            list.iter()
                .map(|l| {
                    let key = l.session().key();
                    if !seen.insert(key) {
                        return None;
                    }
                    Some(place.get(key).copied())
                })
                .collect()
        };
        if self.rows.is_empty() {
            // Every session is a new row: the list becomes the rows where it lies.
            let mut taken = places.iter().map(Option::is_some);
            list.retain(|_| taken.next().unwrap_or(false));
            self.rows = list.into_iter().map(|l| l.into_row(now, &clock)).collect();
        } else {
            self.merge(list, places, kept, &clock, at);
        }
        self.rows
            .retain(|r| r.gone_at.is_none_or(|at| now < at + GONE_KEPT));
        self.error = None;
        self.failing.clear();
        self.clamp();
    }

    /// Takes a refresh into rows there already are: those not listed are gone (unless their
    /// profile is `kept`), those listed are updated, and new ones are added, linked to the gone
    /// row of the same agent. `places` are [`Self::refreshed_keeping`]'s: each listed
    /// session's row, if it has one, and `None` for one listed twice.
    fn merge(
        &mut self,
        list: Vec<ListedSession>,
        places: Vec<Option<Option<usize>>>,
        kept: &[String],
        clock: &Rc<str>,
        at: &str,
    ) {
        let now = self.refreshes;
        let mut listed_rows = vec![false; self.rows.len()];
        for &i in places.iter().flatten().flatten() {
            listed_rows[i] = true;
        }
        // Gone first, so that a new session can be linked to the one it replaced.
        for (row, listed) in self.rows.iter_mut().zip(&listed_rows) {
            let unread = || kept.iter().any(|p| p == row.session.profile());
            if !listed && row.gone_at.is_none() && !unread() {
                row.gone_at = Some(now);
                row.marked = false;
                row.history.push(format!("{at}: gone"));
            }
        }
        let gone: Vec<usize> = (0..self.rows.len())
            .filter(|&i| self.rows[i].gone_at.is_some() && self.rows[i].replaced_by.is_none())
            .collect();
        for (l, place) in list.into_iter().zip(places) {
            match place {
                // Listed twice: taken once.
                None => {}
                Some(Some(i)) => {
                    let row = &mut self.rows[i];
                    let s = l.session();
                    let old = row.session.value(SessionColumn::Version);
                    let new = s.value(SessionColumn::Version);
                    if old != new {
                        row.history.push(format!("{at}: version {old} → {new}"));
                        row.changed_from = Some((old.to_string(), now));
                    }
                    if row.gone_at.take().is_some() {
                        row.history.push(format!("{at}: listed again"));
                    }
                    if row.session != *s {
                        row.widths = l.widths();
                        row.session = l.0.session;
                    }
                }
                Some(None) => {
                    let mut new = l.into_row(now, clock);
                    let key = new.id().to_string();
                    let replaced = gone.iter().copied().find(|&i| {
                        let r = &self.rows[i];
                        r.gone_at.is_some()
                            && r.replaced_by.is_none()
                            && same_agent(&r.session, &new.session)
                            && r.session.profile() == new.session.profile()
                    });
                    if let Some(i) = replaced {
                        let r = &mut self.rows[i];
                        r.replaced_by = Some(key.clone());
                        r.history.push(format!("{at}: back as {key}"));
                        let old = r.id().to_string();
                        new.history.push(format!(
                            "{at}: the same agent as {old}, back under a new session"
                        ));
                        new.replaced = Some(old);
                    }
                    self.rows.push(new);
                }
            }
        }
    }

    /// A refresh failed: said on screen, with the profiles that failed when several accounts
    /// are watched; the rows stay.
    pub fn refresh_failed(&mut self, why: String, profiles: Vec<String>) {
        self.error = Some(why);
        self.failing = profiles;
    }

    /// The rows shown, filtered and sorted: their places in [`WatchState::rows`]. Worked out
    /// again only after a refresh or a change of the filter or the sort (the rows change only
    /// with a refresh).
    pub fn shown(&self) -> Vec<usize> {
        let made_for = (self.refreshes, self.filter.text.clone(), self.sort);
        let mut cache = self.shown_cache.borrow_mut();
        if cache.made_for.as_ref() != Some(&made_for) {
            cache.shown = self.filtered_and_sorted();
            cache.made_for = Some(made_for);
        }
        cache.shown.clone()
    }

    fn filtered_and_sorted(&self) -> Vec<usize> {
        let (col, desc) = self.sort;
        // Each row's sort key read once, not at each of the sort's comparisons.
        let mut keyed: Vec<(&str, &str, usize)> = (0..self.rows.len())
            .filter(|&i| self.filter.matches(&self.rows[i].session))
            .map(|i| {
                let s = &self.rows[i].session;
                (s.value(col), s.id(), i)
            })
            .collect();
        keyed.sort_by(|a, b| {
            let o = (a.0, a.1).cmp(&(b.0, b.1));
            if desc {
                o.reverse()
            } else {
                o
            }
        });
        keyed.into_iter().map(|(_, _, i)| i).collect()
    }

    /// The current row.
    pub fn current(&self) -> Option<&SessionRow> {
        self.shown().get(self.cursor).map(|&i| &self.rows[i])
    }

    fn clamp(&mut self) {
        let n = self.shown().len();
        self.cursor = self.cursor.min(n.saturating_sub(1));
    }

    fn row_mut(&mut self, id: &str) -> Option<&mut SessionRow> {
        self.rows.iter_mut().find(|r| r.id() == id)
    }

    /// The sessions an action key chooses: every marked one, those the filter hides too (a mark
    /// is a choice, and stays one out of sight), the shown first in their order; with none
    /// marked, the current one. Never a gone one.
    fn chosen(&self) -> (Vec<&SessionRow>, Vec<String>) {
        let shown = self.shown();
        let mut on_screen = vec![false; self.rows.len()];
        for &i in &shown {
            on_screen[i] = true;
        }
        let marked = |r: &&SessionRow| r.marked && r.gone_at.is_none();
        let mut chosen: Vec<&SessionRow> = shown
            .iter()
            .map(|&i| &self.rows[i])
            .filter(marked)
            .collect();
        let hidden: Vec<&SessionRow> = self
            .rows
            .iter()
            .zip(&on_screen)
            .filter(|(_, &seen)| !seen)
            .map(|(r, _)| r)
            .filter(marked)
            .collect();
        let hidden_keys = hidden.iter().map(|r| r.id().to_string()).collect();
        chosen.extend(hidden);
        if chosen.is_empty() {
            chosen.extend(self.current().filter(|r| r.gone_at.is_none()));
        }
        (chosen, hidden_keys)
    }

    /// What `verb` would be sent to, and what it leaves out ([`ActionQuestion`]).
    fn ask(&self, verb: SessionsVerb) -> ActionQuestion {
        let (chosen, hidden) = self.chosen();
        let mut ask = ActionQuestion {
            verb,
            ids: Vec::new(),
            hidden: Vec::new(),
            skipped: Vec::new(),
        };
        for row in chosen {
            let key = row.id().to_string();
            let refusal = match row.sent {
                Some(RowCommand::Sending(_)) => Some("a command is under way"),
                _ => capable::refusal(verb.as_str(), &row.session),
            };
            match refusal {
                Some(why) => ask.skipped.push((key, why)),
                None if hidden.contains(&key) => {
                    ask.hidden.push(key.clone());
                    ask.ids.push(key);
                }
                None => ask.ids.push(key),
            }
        }
        ask
    }

    /// The marks: how many rows are marked, and how many of them the filter hides.
    pub fn marks(&self, shown: &[usize]) -> (usize, usize) {
        let marked = self.rows.iter().filter(|r| r.marked).count();
        if marked == 0 || self.filter.is_empty() {
            return (marked, 0);
        }
        let in_sight = shown.iter().filter(|&&i| self.rows[i].marked).count();
        (marked, marked - in_sight)
    }

    /// The read-only profiles these rows belong to.
    fn read_only_among(&self, ids: &[String]) -> Vec<String> {
        let mut refusing: Vec<String> = self
            .rows_of(ids)
            .map(|r| r.session.profile().to_string())
            .filter(|p| self.read_only_profiles.contains(p))
            .collect();
        refusing.sort();
        refusing.dedup();
        refusing
    }

    /// The sessions of these IDs, as last listed.
    pub fn sessions(&self, ids: &[String]) -> Vec<Value> {
        self.rows_of(ids).map(|r| r.session.to_value()).collect()
    }

    fn rows_of<'a>(&'a self, ids: &'a [String]) -> impl Iterator<Item = &'a SessionRow> {
        ids.iter()
            .filter_map(|id| self.rows.iter().find(|r| r.id() == id))
    }

    /// The command is under way for these sessions.
    pub fn sending(&mut self, command: SessionsVerb, ids: &[String]) {
        for id in ids {
            if let Some(row) = self.row_mut(id) {
                row.sent = Some(RowCommand::Sending(command));
                row.marked = false;
            }
        }
    }

    /// One session's answer landed: on its row, and in the tally.
    pub fn answered(&mut self, command: SessionsVerb, id: &str, answer: AgentAnswer, at: &str) {
        match &answer {
            AgentAnswer::Done => match command {
                SessionsVerb::Agent(AgentCommand::Restart) => self.tally.restarted += 1,
                SessionsVerb::Agent(AgentCommand::Stop) => self.tally.stopped += 1,
                SessionsVerb::Agent(AgentCommand::Update) => self.tally.updated += 1,
                SessionsVerb::Upgrade => self.tally.upgraded += 1,
            },
            AgentAnswer::Unchanged(_) => self.tally.up_to_date += 1,
            AgentAnswer::Failed { reason, .. } => {
                self.tally.failed.push((id.to_string(), reason.clone()))
            }
        }
        if let Some(row) = self.row_mut(id) {
            row.history.push(match &answer {
                AgentAnswer::Done => format!("{at}: {}", past(command)),
                AgentAnswer::Unchanged(u) => format!("{at}: {}: {}", command.as_str(), u.text),
                AgentAnswer::Failed { why, .. } => {
                    format!("{at}: {} failed: {why}", command.as_str())
                }
            });
            row.sent = Some(match answer {
                AgentAnswer::Done => RowCommand::Done(command),
                AgentAnswer::Unchanged(u) => RowCommand::Unchanged(command, u),
                AgentAnswer::Failed { why, .. } => RowCommand::Failed(command, why),
            });
        }
    }
}

/// What `key` does to `state`, and what it asks of the event loop.
pub fn handle(state: &mut WatchState, key: KeyPress) -> WatchAction {
    if key == KeyPress::CtrlC {
        return WatchAction::Interrupted;
    }
    // A message answers the key before: the next one takes it away.
    state.message = None;
    match std::mem::replace(&mut state.mode, WatchMode::List) {
        WatchMode::Help => WatchAction::None,
        WatchMode::Detail(key_of_row, scroll) => {
            let bottom = state.detail_bottom.get();
            let scroll = match key {
                KeyPress::Up | KeyPress::Char('k') => scroll.saturating_sub(1),
                KeyPress::Down | KeyPress::Char('j') => scroll + 1,
                KeyPress::PageUp => scroll.saturating_sub(10),
                KeyPress::PageDown => scroll + 10,
                KeyPress::Home | KeyPress::Char('g') => 0,
                KeyPress::End | KeyPress::Char('G') => bottom,
                // Any other key closes the details.
                _ => return WatchAction::None,
            };
            state.mode = WatchMode::Detail(key_of_row, scroll.min(bottom));
            WatchAction::None
        }
        WatchMode::Confirm(ask) => match key {
            KeyPress::Char('y') | KeyPress::Char('Y') => {
                let command = ask.verb;
                state.sending(command, &ask.ids);
                state.message = Some(format!(
                    "{} sent to {} session(s){}…",
                    command.as_str(),
                    ask.ids.len(),
                    skipped_note(&ask.skipped)
                ));
                WatchAction::Send(command, ask.ids)
            }
            _ => {
                state.message = Some(format!("Cancelled: no {} sent.", ask.verb.as_str()));
                WatchAction::None
            }
        },
        WatchMode::Filtering(mut text) => {
            match key {
                KeyPress::Enter => match RowFilter::parse(&text) {
                    Ok(f) => {
                        state.filter = f;
                        state.cursor = 0;
                        state.message = None;
                    }
                    Err(e) => {
                        state.message = Some(format!("RowFilter not applied: {e}"));
                        state.mode = WatchMode::Filtering(text);
                    }
                },
                KeyPress::Esc => {}
                KeyPress::Backspace => {
                    text.pop();
                    state.mode = WatchMode::Filtering(text);
                }
                KeyPress::CtrlU => state.mode = WatchMode::Filtering(String::new()),
                KeyPress::Char(c) => {
                    text.push(c);
                    state.mode = WatchMode::Filtering(text);
                }
                _ => state.mode = WatchMode::Filtering(text),
            }
            WatchAction::None
        }
        WatchMode::List => list_key(state, key),
    }
}

/// Each reason once, in the order first given, joined.
fn reasons(why: &[&str]) -> String {
    let mut once: Vec<&str> = Vec::new();
    for w in why {
        if !once.contains(w) {
            once.push(w);
        }
    }
    once.join("; ")
}

/// `; 1 skipped (why)` after what was sent, when some chosen sessions were left out.
fn skipped_note(skipped: &[(String, &'static str)]) -> String {
    if skipped.is_empty() {
        return String::new();
    }
    let why: Vec<&str> = skipped.iter().map(|(_, why)| *why).collect();
    format!("; {} skipped ({})", skipped.len(), reasons(&why))
}

fn list_key(state: &mut WatchState, key: KeyPress) -> WatchAction {
    let n = state.shown().len();
    match key {
        KeyPress::Char('q') => return WatchAction::Quit,
        KeyPress::Esc if !state.filter.is_empty() => {
            state.filter = RowFilter::default();
        }
        KeyPress::Esc => return WatchAction::Quit,
        KeyPress::Up | KeyPress::Char('k') => state.cursor = state.cursor.saturating_sub(1),
        KeyPress::Down | KeyPress::Char('j') => {
            state.cursor = (state.cursor + 1).min(n.saturating_sub(1))
        }
        KeyPress::PageUp => state.cursor = state.cursor.saturating_sub(10),
        KeyPress::PageDown => state.cursor = (state.cursor + 10).min(n.saturating_sub(1)),
        KeyPress::Home | KeyPress::Char('g') => state.cursor = 0,
        KeyPress::End | KeyPress::Char('G') => state.cursor = n.saturating_sub(1),
        KeyPress::Char('/') => state.mode = WatchMode::Filtering(state.filter.text.clone()),
        KeyPress::Char('?') => state.mode = WatchMode::Help,
        KeyPress::Enter => {
            if let Some(row) = state.current() {
                state.mode = WatchMode::Detail(row.id().to_string(), 0);
            }
        }
        KeyPress::Char(' ') => {
            let shown = state.shown();
            if let Some(&i) = shown.get(state.cursor) {
                let row = &mut state.rows[i];
                row.marked = !row.marked && row.gone_at.is_none();
                state.cursor = (state.cursor + 1).min(n.saturating_sub(1));
            }
        }
        KeyPress::Char('a') => {
            let shown = state.shown();
            let all = shown
                .iter()
                .filter(|&&i| state.rows[i].gone_at.is_none())
                .all(|&i| state.rows[i].marked);
            for i in shown {
                let row = &mut state.rows[i];
                row.marked = !all && row.gone_at.is_none();
            }
        }
        KeyPress::Char(d @ '1'..='9') => {
            let col = SessionColumn::ALL[(d as usize) - ('1' as usize)];
            state.sort = match state.sort {
                (c, desc) if c == col => (c, !desc),
                _ => (col, false),
            };
        }
        KeyPress::Char(c @ ('r' | 's' | 'u' | 'U')) => {
            let command = match c {
                'r' => SessionsVerb::Agent(AgentCommand::Restart),
                's' => SessionsVerb::Agent(AgentCommand::Stop),
                'u' => SessionsVerb::Agent(AgentCommand::Update),
                _ => SessionsVerb::Upgrade,
            };
            if state.read_only {
                state.message = Some(format!(
                    "Read-only: no {} sent (read_only is on).",
                    command.as_str()
                ));
                return WatchAction::None;
            }
            let ask = state.ask(command);
            let chosen: Vec<String> = ask
                .ids
                .iter()
                .cloned()
                .chain(ask.skipped.iter().map(|(key, _)| key.clone()))
                .collect();
            let refusing = state.read_only_among(&chosen);
            if !refusing.is_empty() {
                state.message = Some(format!(
                    "Read-only: profile {} has read_only on; no {} sent (unmark its rows).",
                    refusing.join(", "),
                    command.as_str()
                ));
                return WatchAction::None;
            }
            if ask.ids.is_empty() {
                let why: Vec<&str> = ask.skipped.iter().map(|(_, why)| *why).collect();
                state.message = Some(match why.first() {
                    None => "No session to send it to.".into(),
                    Some(_) => format!("No {} sent: {}.", command.as_str(), reasons(&why)),
                });
                return WatchAction::None;
            }
            state.mode = WatchMode::Confirm(ask);
        }
        _ => {}
    }
    WatchAction::None
}

#[cfg(test)]
mod tests {
    use super::super::session_columns::PROFILE_FIELD;
    use super::*;
    use serde_json::json;

    fn s(id: &str, version: &str, region: &str) -> Value {
        json!({"id": id, "agent_version": version, "region": region, "os": "linux",
               "ip": "203.0.113.1", "credential": {"id": "cr_1"}, "metadata": id})
    }

    /// Sessions as a refresh lists them, each read; one with a `profile` field as its
    /// profile's account lists it.
    fn read(sessions: Vec<Value>) -> Vec<ListedSession> {
        sessions
            .into_iter()
            .map(|mut s| {
                let profile = s
                    .as_object_mut()
                    .and_then(|o| o.remove(PROFILE_FIELD))
                    .and_then(|p| p.as_str().map(str::to_string));
                let session = WatchedSession::read(&s.to_string(), profile.as_deref()).unwrap();
                ListedSession::new(session)
            })
            .collect()
    }

    fn ids(state: &WatchState) -> Vec<String> {
        state
            .shown()
            .iter()
            .map(|&i| state.rows[i].id().to_string())
            .collect()
    }

    #[test]
    fn new_gone_and_changed_rows_stand_out_then_settle() {
        let mut st = WatchState::new(Selector::default(), false);
        st.refreshed(
            read(vec![s("ts_a", "3.19.1", "eu"), s("ts_b", "3.18.4", "us")]),
            "t1",
        );
        assert_eq!(
            st.rows[0].status(st.refreshes),
            "",
            "the first refresh marks nothing new"
        );
        st.refreshed(
            read(vec![s("ts_a", "3.19.1", "eu"), s("ts_c", "3.19.1", "ap")]),
            "t2",
        );
        let row = |st: &WatchState, id: &str| st.rows.iter().find(|r| r.id() == id).cloned();
        assert_eq!(row(&st, "ts_b").unwrap().status(st.refreshes), "gone");
        assert_eq!(row(&st, "ts_c").unwrap().status(st.refreshes), "new");
        st.refreshed(
            read(vec![s("ts_a", "3.20.0", "eu"), s("ts_c", "3.19.1", "ap")]),
            "t3",
        );
        assert_eq!(row(&st, "ts_a").unwrap().status(st.refreshes), "was 3.19.1");
        for _ in 0..GONE_KEPT {
            st.refreshed(
                read(vec![s("ts_a", "3.20.0", "eu"), s("ts_c", "3.19.1", "ap")]),
                "t",
            );
        }
        assert!(
            row(&st, "ts_b").is_none(),
            "a gone row is dropped in the end"
        );
        assert_eq!(row(&st, "ts_c").unwrap().status(st.refreshes), "");
    }

    #[test]
    fn filter_sort_and_marks() {
        let mut st = WatchState::new(Selector::default(), false);
        st.refreshed(
            read(vec![
                s("ts_b", "3.18.4", "us"),
                s("ts_a", "3.19.1", "eu"),
                s("ts_c", "3.19.1", "eu"),
            ]),
            "t",
        );
        assert_eq!(ids(&st), ["ts_a", "ts_b", "ts_c"]);
        handle(&mut st, KeyPress::Char('2'));
        handle(&mut st, KeyPress::Char('2'));
        assert_eq!(ids(&st)[2], "ts_b", "version, descending");
        handle(&mut st, KeyPress::Char('/'));
        for c in "region=eu".chars() {
            handle(&mut st, KeyPress::Char(c));
        }
        handle(&mut st, KeyPress::Enter);
        assert_eq!(ids(&st).len(), 2);
        handle(&mut st, KeyPress::Char('a'));
        assert_eq!(handle(&mut st, KeyPress::Char('r')), WatchAction::None);
        assert_eq!(
            st.mode,
            WatchMode::Confirm(ActionQuestion {
                verb: SessionsVerb::Agent(AgentCommand::Restart),
                ids: vec!["ts_c".into(), "ts_a".into()],
                hidden: vec![],
                skipped: vec![],
            })
        );
        let sent = handle(&mut st, KeyPress::Char('y'));
        assert!(
            matches!(sent, WatchAction::Send(SessionsVerb::Agent(AgentCommand::Restart), ref v) if v.len() == 2)
        );
        // Under way: not sent twice.
        handle(&mut st, KeyPress::Char('a'));
        handle(&mut st, KeyPress::Char('r'));
        assert_eq!(st.mode, WatchMode::List);
        st.answered(
            SessionsVerb::Agent(AgentCommand::Restart),
            "ts_a",
            AgentAnswer::Done,
            "t",
        );
        st.answered(
            SessionsVerb::Agent(AgentCommand::Restart),
            "ts_c",
            AgentAnswer::Failed {
                why: "POST …: boom".into(),
                reason: "boom".into(),
            },
            "t",
        );
        assert_eq!(
            st.tally.summary().unwrap(),
            "sessions watch: restarted 1, stopped 0, updated 0, upgraded 0, failed 1."
        );
        assert_eq!(st.tally.failed, [("ts_c".to_string(), "boom".to_string())]);
    }

    #[test]
    fn anything_but_y_cancels_and_read_only_refuses() {
        let mut st = WatchState::new(Selector::default(), false);
        st.refreshed(read(vec![s("ts_a", "3.19.1", "eu")]), "t");
        handle(&mut st, KeyPress::Char('s'));
        assert_eq!(handle(&mut st, KeyPress::Char('n')), WatchAction::None);
        assert_eq!(st.mode, WatchMode::List);
        let mut st = WatchState::new(Selector::default(), true);
        st.refreshed(read(vec![s("ts_a", "3.19.1", "eu")]), "t");
        for k in ['r', 's', 'u', 'U'] {
            assert_eq!(handle(&mut st, KeyPress::Char(k)), WatchAction::None);
            assert_eq!(st.mode, WatchMode::List);
            assert!(st.message.as_deref().unwrap_or("").contains("Read-only"));
        }
    }

    #[test]
    fn the_rows_of_an_account_not_read_stay_as_they_were() {
        let of = |id: &str, profile: &str| {
            let mut v = s(id, "3.19.1", "eu");
            v[PROFILE_FIELD] = json!(profile);
            v
        };
        let mut st = WatchState::new(Selector::default(), false);
        st.refreshed(read(vec![of("ts_a", "a"), of("ts_b", "b")]), "t1");
        st.refreshed_keeping(read(vec![of("ts_c", "a")]), &["b".to_string()], "t2");
        let status = |st: &WatchState, key: &str| {
            let row = st.rows.iter().find(|r| r.id() == key).unwrap();
            row.status(st.refreshes)
        };
        assert_eq!(status(&st, "a/ts_a"), "gone", "a was read");
        assert_eq!(status(&st, "a/ts_c"), "new");
        assert_eq!(status(&st, "b/ts_b"), "", "b was not read: its row stays");
    }

    #[test]
    fn the_rows_shown_and_their_widths_follow_each_refresh() {
        let mut st = WatchState::new(Selector::default(), false);
        st.refreshed(read(vec![s("ts_b", "3.19.1", "eu")]), "t");
        assert_eq!(ids(&st), ["ts_b"]);
        let version = SessionColumn::Version.index();
        assert_eq!(st.rows[0].widths[version], 6, "3.19.1");
        // Kept between frames, worked out again after a refresh: the new row is shown, in
        // its place, and a changed session's width is its new text's.
        st.refreshed(
            read(vec![
                s("ts_b", "3.20.0-beta.1", "eu"),
                s("ts_a", "3.19.1", "eu"),
            ]),
            "t",
        );
        assert_eq!(ids(&st), ["ts_a", "ts_b"]);
        let b = st.rows.iter().find(|r| r.id() == "ts_b").unwrap();
        assert_eq!(b.widths[version], 13, "3.20.0-beta.1");
        for (i, c) in SessionColumn::ALL.iter().enumerate() {
            assert_eq!(c.index(), i, "{c:?}");
        }
    }

    #[test]
    fn a_session_listed_again_keeps_its_row_and_one_listed_twice_is_one_row() {
        let mut st = WatchState::new(Selector::default(), false);
        let (a, b) = (s("ts_a", "3.19.1", "eu"), s("ts_b", "3.19.1", "us"));
        st.refreshed(read(vec![a.clone(), b.clone(), a.clone()]), "t1");
        assert_eq!(st.rows.len(), 2, "the first list too takes a session once");
        handle(&mut st, KeyPress::Char(' '));
        let row = |st: &WatchState, id: &str| st.rows.iter().find(|r| r.id() == id).cloned();
        st.refreshed(read(vec![a.clone(), a.clone()]), "t2");
        assert_eq!(st.rows.len(), 2, "a session listed twice is one row");
        let kept = row(&st, "ts_a").unwrap();
        assert!(kept.marked, "its mark is kept");
        assert_eq!(kept.session.to_value(), a);
        assert_eq!(kept.status(st.refreshes), "");
        assert_eq!(row(&st, "ts_b").unwrap().status(st.refreshes), "gone");
        // Back with the text it had: listed again.
        st.refreshed(read(vec![a.clone(), b.clone()]), "t3");
        let back = row(&st, "ts_b").unwrap();
        assert_eq!(back.gone_at, None);
        assert_eq!(back.history, ["t2: gone", "t3: listed again"]);
        assert_eq!(back.seen_clock.as_deref(), Some("t1"));
    }

    #[test]
    fn a_restarted_agents_new_session_names_its_old_one() {
        let mut st = WatchState::new(Selector::default(), false);
        st.refreshed(read(vec![s("ts_a", "3.19.1", "eu")]), "t");
        let mut new = s("ts_n", "3.19.1", "eu");
        new["metadata"] = json!("ts_a");
        st.refreshed(read(vec![new]), "t");
        let row = st.rows.iter().find(|r| r.id() == "ts_n").unwrap();
        assert_eq!(row.replaced.as_deref(), Some("ts_a"));
        let old = st.rows.iter().find(|r| r.id() == "ts_a").unwrap();
        assert_eq!(old.replaced_by.as_deref(), Some("ts_n"));
        assert_eq!(old.status(st.refreshes), "back");
    }

    #[test]
    fn an_agent_already_up_to_date_is_no_failure() {
        let mut st = WatchState::new(Selector::default(), false);
        st.refreshed(read(vec![s("ts_a", "3.19.1", "eu")]), "t");
        let update = SessionsVerb::Agent(AgentCommand::Update);
        st.answered(update, "ts_a", AgentAnswer::Unchanged(UP_TO_DATE), "t1");
        assert_eq!(st.rows[0].status(st.refreshes), "up to date");
        assert_eq!(st.rows[0].history, ["t1: update: already up to date"]);
        assert!(st.tally.failed.is_empty());
        assert_eq!(
            st.tally.summary().unwrap(),
            "sessions watch: restarted 0, stopped 0, updated 0, 1 already up to date, \
             upgraded 0, failed 0."
        );
    }

    #[test]
    fn marks_hidden_by_the_filter_count_and_windows_agents_are_not_restarted() {
        let mut st = WatchState::new(Selector::default(), false);
        let mut win = s("ts_w", "3.19.1", "us");
        win["os"] = json!("windows");
        st.refreshed(
            read(vec![
                s("ts_a", "3.19.1", "eu"),
                s("ts_b", "3.19.1", "us"),
                win,
            ]),
            "t",
        );
        handle(&mut st, KeyPress::Char(' '));
        handle(&mut st, KeyPress::Char('/'));
        for c in "region=us".chars() {
            handle(&mut st, KeyPress::Char(c));
        }
        handle(&mut st, KeyPress::Enter);
        // ts_a is marked and hidden; ts_b is current, unmarked.
        assert_eq!(st.marks(&st.shown()), (1, 1));
        handle(&mut st, KeyPress::Char('s'));
        let WatchMode::Confirm(ask) = st.mode.clone() else {
            panic!("{:?}", st.mode);
        };
        assert_eq!(
            (ask.ids, ask.hidden),
            (vec!["ts_a".into()], vec!["ts_a".into()])
        );
        handle(&mut st, KeyPress::Char('n'));
        // The Windows agent marked too: a restart leaves it out and says why.
        handle(&mut st, KeyPress::Char('j'));
        handle(&mut st, KeyPress::Char(' '));
        handle(&mut st, KeyPress::Char('r'));
        let WatchMode::Confirm(ask) = st.mode.clone() else {
            panic!("{:?}", st.mode);
        };
        assert_eq!(ask.ids, ["ts_a"]);
        assert_eq!(
            ask.skipped,
            [("ts_w".to_string(), "restart is not supported on Windows")]
        );
        // A stop goes to both.
        handle(&mut st, KeyPress::Char('n'));
        handle(&mut st, KeyPress::Char('s'));
        assert!(matches!(&st.mode, WatchMode::Confirm(a) if a.ids == ["ts_w", "ts_a"]));
    }

    #[test]
    fn a_message_goes_with_the_next_key_and_the_details_scroll_within_their_length() {
        let mut st = WatchState::new(Selector::default(), false);
        st.refreshed(read(vec![s("ts_a", "3.19.1", "eu")]), "t");
        handle(&mut st, KeyPress::Char('r'));
        handle(&mut st, KeyPress::Char('n'));
        assert!(st.message.is_some());
        handle(&mut st, KeyPress::Char('j'));
        assert_eq!(st.message, None);
        handle(&mut st, KeyPress::Enter);
        st.detail_bottom.set(2);
        for _ in 0..5 {
            handle(&mut st, KeyPress::Down);
        }
        assert_eq!(st.mode, WatchMode::Detail("ts_a".into(), 2));
        handle(&mut st, KeyPress::Char('g'));
        assert_eq!(st.mode, WatchMode::Detail("ts_a".into(), 0));
        handle(&mut st, KeyPress::Char('G'));
        assert_eq!(st.mode, WatchMode::Detail("ts_a".into(), 2));
        handle(&mut st, KeyPress::Char('x'));
        assert_eq!(st.mode, WatchMode::List, "any other key closes");
    }
}
