//! The event loop of `sessions watch`: takes the terminal through the inspector's layer
//! ([`crate::inspect::run::TerminalGuard`], its key model), refreshes the session list on a
//! pace the rate limit allows (backing off on errors, shown in the title), reads keys, and
//! sends the commands the model asks for through the bulk runner ([`crate::bulk::run`]), each
//! answer landing on its row as it comes.

use std::collections::HashSet;
use std::future::Future;
use std::io::{BufWriter, IsTerminal};
use std::pin::Pin;
use std::time::Duration;

use crossterm::event::{Event, EventStream};
use futures_util::stream::FuturesUnordered;
use futures_util::StreamExt;
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::refresh_pace::{self, Pace};
use super::session_columns::PROFILE_FIELD;
use super::watch_model::{
    handle, AgentAnswer, ListedSession, SessionsVerb, WatchAction, WatchState,
};
use super::watch_view::{self, Look};
use super::watched_session::{self, WatchedSession};
use crate::api::sessions::{self, AgentCommand};
use crate::api::{Client, RawPage};
use crate::bulk::{self, Outcome};
use crate::error::{Error, Result};
use crate::fleet::command::agent_outcome;
use crate::fleet::id_of;
use crate::fleet::select::Selector;
use crate::fleet::upgrade::{self, Plan, Progress, UpgradeStep};
use crate::fleet::wait;
use crate::inspect::run::{io_error, key_of, TerminalGuard, FRAME_BYTES};
use crate::output::progress::reason;

/// Requests of one action batch at once.
const PARALLEL: usize = 4;

/// How long the first frame waits for the first list. A list that comes sooner is on the first
/// frame, not drawn after an empty one no eye would catch (its drawing would delay the list);
/// a slower service shows the screen, loading, by then.
const FIRST_FRAME_WAIT: Duration = Duration::from_millis(50);

/// One account the screen watches: its sessions are listed, and their actions sent, with its
/// own client.
pub struct Account {
    /// Its profile's name when several are watched (each session is labelled with it); none
    /// when one account is.
    pub profile: Option<String>,
    /// Its management client (its URL, key and rate).
    pub client: Client,
    /// Read-only: no action is sent to its sessions.
    pub read_only: bool,
}

/// What the command gives the screen.
pub struct WatchLaunch {
    /// The accounts watched, at least one.
    pub accounts: Vec<Account>,
    /// The selectors of the command line.
    pub selector: Selector,
    /// The title's text (what is watched).
    pub title: String,
    /// Colours allowed.
    pub color: bool,
    /// How often to refresh (at least; a large fleet waits longer).
    pub every: Duration,
}

/// Refuses to start off a terminal (exit 2): a script reads `sessions list --json`.
pub fn check_terminal() -> Result<()> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(Error::usage(
            "sessions watch needs a terminal; in a script or a pipe, use \
             `tunnelctl sessions list --json` (or `sessions list` with selectors)",
        ));
    }
    Ok(())
}

/// Runs the screen until the user quits; returns what was done (the summary's source), and
/// the error to end on when Ctrl-C or a stop signal ended it (130, 143) rather than `q`.
pub async fn run(launch: WatchLaunch) -> Result<(WatchState, Option<Error>)> {
    check_terminal()?;
    crate::heap::hold_mmap_threshold();
    // A stop signal ends the screen as `q` does (the terminal given back, the summary
    // printed), with its exit code; nothing is said over the screen meanwhile.
    let _graceful = crate::interrupt::graceful_saying("");
    let read_only = launch.accounts.iter().all(|a| a.read_only);
    let mut state = WatchState::new(launch.selector.clone(), read_only);
    if !read_only {
        state.read_only_profiles = launch
            .accounts
            .iter()
            .filter(|a| a.read_only)
            .filter_map(|a| a.profile.clone())
            .collect();
    }
    let guard = TerminalGuard::enter()?;
    let backend = CrosstermBackend::new(BufWriter::with_capacity(FRAME_BYTES, std::io::stdout()));
    let mut term = Terminal::new(backend).map_err(io_error)?;
    let result = event_loop(&launch, &mut term, &mut state).await;
    drop(term);
    drop(guard);
    result.map(|stopped| (state, stopped))
}

/// The accounts listed in one refresh, each by its place, with its sessions or why not.
type Listed = Vec<(usize, std::result::Result<Vec<ListedSession>, String>)>;
type Refresh<'a> = Pin<Box<dyn Future<Output = Listed> + 'a>>;
type Batch<'a> = Pin<Box<dyn Future<Output = ()> + 'a>>;

/// One session's answer: the command, the session's key, and the answer.
type SendAnswer = (SessionsVerb, String, AgentAnswer);

/// Runs until `q` (`None`), or Ctrl-C or a stop signal (the error to end on).
async fn event_loop(
    launch: &WatchLaunch,
    term: &mut Terminal<CrosstermBackend<BufWriter<std::io::Stdout>>>,
    state: &mut WatchState,
) -> Result<Option<Error>> {
    let accounts = &launch.accounts;
    let look = Look {
        color: launch.color,
    };
    let mut events = EventStream::new();
    let mut refresh: Option<Refresh<'_>> = None;
    let mut paces: Vec<Pace> = accounts
        .iter()
        .map(|a| Pace::new(launch.every, a.client.rate()))
        .collect();
    let mut next_refresh = Instant::now();
    let mut batches: FuturesUnordered<Batch<'_>> = FuturesUnordered::new();
    let (tx, mut answers) = mpsc::unbounded_channel::<SendAnswer>();
    let first_frame_by = Instant::now() + FIRST_FRAME_WAIT;
    let mut drawn = false;
    loop {
        drawn = drawn
            || state.refreshes > 0
            || state.error.is_some()
            || Instant::now() >= first_frame_by;
        if drawn {
            term.draw(|f| watch_view::draw(f, state, look, &launch.title))
                .map_err(io_error)?;
        }
        if crate::interrupt::requested() {
            return Ok(Some(crate::interrupt::stop_error()));
        }
        if refresh.is_none() && Instant::now() >= next_refresh {
            let now = Instant::now();
            let due: Vec<usize> = (0..accounts.len()).filter(|&i| paces[i].due(now)).collect();
            refresh = Some(Box::pin(list_all(accounts, due)));
        }
        tokio::select! {
            ev = events.next() => match ev {
                Some(Ok(Event::Key(k))) => {
                    let Some(key) = key_of(k) else { continue };
                    match handle(state, key) {
                        WatchAction::None => {}
                        WatchAction::Quit => return Ok(None),
                        WatchAction::Interrupted => return Ok(Some(Error::Interrupted)),
                        WatchAction::Send(verb, ids) => {
                            let sessions = state.sessions(&ids);
                            for account in accounts {
                                let own = of_account(account, &sessions);
                                if own.is_empty() {
                                    continue;
                                }
                                batches.push(match verb {
                                    SessionsVerb::Agent(command) => {
                                        Box::pin(send(account, command, own, tx.clone()))
                                    }
                                    SessionsVerb::Upgrade => {
                                        Box::pin(upgrade(account, own, tx.clone()))
                                    }
                                });
                            }
                        }
                    }
                }
                Some(Ok(_)) => {} // a resize: drawn again at the top of the loop
                Some(Err(e)) => return Err(io_error(e)),
                None => return Ok(None),
            },
            listed = async {
                match refresh.as_mut() {
                    Some(r) => r.await,
                    None => std::future::pending().await,
                }
            }, if refresh.is_some() => {
                refresh = None;
                took(accounts, &mut paces, listed, state);
                next_refresh = refresh_pace::next_due(&paces);
            }
            Some(()) = batches.next(), if !batches.is_empty() => {}
            Some((command, id, answer)) = answers.recv() => {
                state.answered(command, &id, answer, &clock());
            }
            _ = tokio::time::sleep_until(next_refresh), if refresh.is_none() => {}
            _ = tokio::time::sleep_until(first_frame_by), if !drawn => {}
            // Checked at the top of the loop.
            () = crate::interrupt::stop_requested() => {}
        }
    }
}

/// The sessions of the accounts `due` (by their place in `accounts`), listed at once, each
/// labelled with its profile when several are watched; an account that failed says why, named.
async fn list_all(accounts: &[Account], due: Vec<usize>) -> Listed {
    let lists =
        futures_util::future::join_all(due.iter().map(|&i| list_account(&accounts[i]))).await;
    due.into_iter()
        .zip(lists)
        .map(|(i, listed)| {
            let account = &accounts[i];
            let listed = listed.map_err(|e| {
                let line = first_line(&e.to_string());
                match &account.profile {
                    Some(profile) => format!("profile {profile}: {line}"),
                    None => line,
                }
            });
            (i, listed)
        })
        .collect()
}

/// Takes in a refresh: the accounts that listed refresh their rows; one that failed backs
/// off alone, its rows kept as they were and its error in the title; those not due keep
/// theirs too. Only when none listed is the refresh not counted.
fn took(accounts: &[Account], paces: &mut [Pace], listed: Listed, state: &mut WatchState) {
    let now = Instant::now();
    let mut read = vec![false; accounts.len()];
    let mut sessions = Vec::new();
    for (i, result) in listed {
        match result {
            Ok(list) => {
                paces[i].listed(list.len(), now);
                read[i] = true;
                // One account's list is taken as it is, not copied into another.
                if sessions.is_empty() {
                    sessions = list;
                } else {
                    sessions.extend(list);
                }
            }
            Err(why) => paces[i].failed(why, now),
        }
    }
    if read.iter().any(|&r| r) {
        let kept: Vec<String> = accounts
            .iter()
            .zip(&read)
            .filter(|(_, &r)| !r)
            .filter_map(|(a, _)| a.profile.clone())
            .collect();
        state.refreshed_keeping(sessions, &kept, &clock());
    }
    let errors: Vec<&str> = paces.iter().filter_map(Pace::error).collect();
    if errors.is_empty() {
        state.error = None;
        state.failing.clear();
    } else {
        let failing = accounts
            .iter()
            .zip(paces.iter())
            .filter(|(_, pace)| pace.error().is_some())
            .filter_map(|(a, _)| a.profile.clone())
            .collect();
        state.refresh_failed(errors.join("; "), failing);
    }
}

/// One account's sessions, page after page. The next page is asked for before a page is read,
/// and the reading gives way to it now and then: the service answers while the sessions are
/// read, instead of after.
async fn list_account(account: &Account) -> Result<Vec<ListedSession>> {
    let profile = account.profile.as_deref();
    let mut pages = sessions::RESOURCE.list(&account.client, None)?;
    let mut listed = Vec::new();
    let mut page = pages.next_page().await?;
    while let Some(this) = page {
        let (next, read) =
            futures_util::future::join(pages.next_page(), read_page(&this, profile, &mut listed))
                .await;
        // A session that could not be read came before a page that could not be fetched.
        read?;
        page = next?;
    }
    Ok(listed)
}

/// Sessions read between two chances for the request in flight to go on.
const READ_BETWEEN_YIELDS: usize = 25;

/// The sessions of `page`, appended to `listed` in order, each labelled with `profile` when
/// several accounts are watched.
async fn read_page(
    page: &RawPage,
    profile: Option<&str>,
    listed: &mut Vec<ListedSession>,
) -> Result<()> {
    for (i, text) in page.items().enumerate() {
        if i > 0 && i % READ_BETWEEN_YIELDS == 0 {
            tokio::task::yield_now().await;
        }
        listed.push(ListedSession::new(WatchedSession::read(text, profile)?));
    }
    Ok(())
}

/// The sessions among `sessions` that `account` listed.
fn of_account(account: &Account, sessions: &[Value]) -> Vec<Value> {
    let profile = account.profile.as_deref().unwrap_or("");
    sessions
        .iter()
        .filter(|s| crate::fleet::field(s, PROFILE_FIELD) == profile)
        .cloned()
        .collect()
}

/// Sends `command` to `sessions` of `account` through the bulk runner; each answer goes to
/// `tx` as it lands, under the row's key.
async fn send(
    account: &Account,
    command: AgentCommand,
    sessions: Vec<Value>,
    tx: mpsc::UnboundedSender<SendAnswer>,
) {
    let client = &account.client;
    let ids: Vec<String> = sessions.iter().map(|s| id_of(s).to_string()).collect();
    bulk::run(
        &ids,
        PARALLEL,
        |id| async move { agent_outcome(command, sessions::send(client, &id, command).await) },
        |id, outcome| {
            let answer = match outcome {
                Outcome::Done => AgentAnswer::Done,
                Outcome::Unchanged(u) => AgentAnswer::Unchanged(*u),
                Outcome::Failed(e) => AgentAnswer::Failed {
                    why: first_line(&e.to_string()),
                    reason: reason(e, id),
                },
                Outcome::NotStarted => AgentAnswer::Failed {
                    why: "not started".into(),
                    reason: "not started".into(),
                },
            };
            // The screen may be gone (quit while sending): the answer has no one to tell.
            let _ = tx.send((
                SessionsVerb::Agent(command),
                row_key_of(account, id),
                answer,
            ));
        },
    )
    .await;
}

/// A rolling upgrade of `sessions` as `sessions upgrade` runs one ([`upgrade::run`], its
/// defaults), each session's end going to `tx` as it lands.
async fn upgrade(account: &Account, sessions: Vec<Value>, tx: mpsc::UnboundedSender<SendAnswer>) {
    let client = &account.client;
    let plan = Plan {
        batch: UPGRADE_BATCH,
        parallel: PARALLEL,
        settle: upgrade::MIN_SETTLE,
        keep_going: false,
        reconnect_timeout: wait::DEFAULT_WAIT,
    };
    let mut told = ToScreen {
        account,
        tx: tx.clone(),
        told: HashSet::new(),
    };
    let steps = upgrade::run(client, &sessions, &plan, &mut told).await;
    // Those not started (a batch before failed) end too.
    for (id, step) in &steps {
        if !told.told.contains(id) {
            let _ = tx.send((
                SessionsVerb::Upgrade,
                row_key_of(account, id),
                step_answer(id, step),
            ));
        }
    }
}

/// Sessions a batch of the screen's rolling upgrade holds (`sessions upgrade`'s default).
const UPGRADE_BATCH: usize = 5;

/// Tells the screen each session's end of a rolling upgrade.
struct ToScreen<'a> {
    account: &'a Account,
    tx: mpsc::UnboundedSender<SendAnswer>,
    told: HashSet<String>,
}

impl Progress for ToScreen<'_> {
    fn phase(&mut self, _batch: usize, _batches: usize, _what: &str) {}

    fn done(&mut self, old: &Value, step: &UpgradeStep) {
        let id = id_of(old).to_string();
        let key = row_key_of(self.account, &id);
        let answer = step_answer(&id, step);
        self.told.insert(id);
        // The screen may be gone (quit while upgrading): no one to tell.
        let _ = self.tx.send((SessionsVerb::Upgrade, key, answer));
    }
}

/// The screen's key of `account`'s session `id`.
fn row_key_of(account: &Account, id: &str) -> String {
    watched_session::row_key(account.profile.as_deref(), id)
}

/// Session `id`'s end of an upgrade as its row shows it, and the summary's reason.
fn step_answer(id: &str, step: &UpgradeStep) -> AgentAnswer {
    let why = match step {
        UpgradeStep::Upgraded { .. } => return AgentAnswer::Done,
        UpgradeStep::UpdateFailed(e) => format!("update: {}", first_line(&e.to_string())),
        UpgradeStep::RestartFailed(e) => format!("restart: {}", first_line(&e.to_string())),
        UpgradeStep::NotBack => "not back in time after the restart".into(),
        UpgradeStep::NotStarted => "not started: an earlier batch failed".into(),
    };
    AgentAnswer::Failed {
        why,
        reason: step.failure(|e| reason(e, id)).unwrap_or_default(),
    }
}

/// The time of day, as a row's history says it.
fn clock() -> String {
    let now = crate::output::time::now();
    format!("{:02}:{:02}:{:02}", now.hour(), now.minute(), now.second())
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: &str) -> String {
        format!(r#"{{"id":"{id}","agent_version":"3.19.1","region":"eu"}}"#)
    }

    /// Pages read one after the other, as a refresh reads them.
    fn read(pages: Vec<Vec<String>>, profile: Option<&str>) -> Result<Vec<ListedSession>> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut listed = Vec::new();
        for page in &pages {
            let items: Vec<&str> = page.iter().map(String::as_str).collect();
            rt.block_on(read_page(&RawPage::of_items(&items), profile, &mut listed))?;
        }
        Ok(listed)
    }

    #[test]
    fn pages_read_give_every_session_in_order() {
        let pages = vec![vec![item("ts_c"), item("ts_a")], vec![], vec![item("ts_b")]];
        let listed = read(pages.clone(), None).unwrap();
        let keys: Vec<&str> = listed.iter().map(|l| l.session().key()).collect();
        assert_eq!(
            keys,
            ["ts_c", "ts_a", "ts_b"],
            "the order of the pages, then of each page"
        );
        assert_eq!(listed[0].widths(), cell_widths_of(&item("ts_c")));
        assert_eq!(listed[0].session().text(), item("ts_c"));
        // Another account's session is labelled with its profile.
        let other = read(pages, Some("b")).unwrap();
        assert_eq!(other[0].session().key(), "b/ts_c");
        assert_eq!(other[0].session().to_value()[PROFILE_FIELD], "b");
    }

    #[test]
    fn a_session_that_is_not_json_fails_the_list() {
        let err = read(vec![vec![item("ts_a")], vec!["{nope".to_string()]], None)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("not a JSON object"), "{err}");
    }

    fn cell_widths_of(text: &str) -> [u16; 9] {
        WatchedSession::read(text, None).unwrap().cell_widths()
    }
}
