//! The one capture follower: how `tail`, `record`, `tail --record`, `inspect` and `inspect
//! --record` poll the agent for new captures. It owns the poll window (how many of the newest
//! to ask for), the cadence ([`EVERY`]), and the captures still waiting for their response,
//! rechecked by ID a few a poll ([`PENDING_PER_POLL`]) once they fall behind the window, so
//! that a capture answered late is brought up to date by every follower. Each caller keeps
//! only its own bounds: the largest window it wants ([`Follower::plan`]'s `most`: the
//! inspector's memory budget), what it keeps and what it prints.
//!
//! The agent's answer is not trusted to follow the tunnel filter: captures of other tunnels
//! are dropped here, and a capture asked for by ID counts only when it is the one asked for.
//!
//! A poll is made in three steps, so that a caller that polls while it does other things (the
//! inspector's event loop) holds no borrow of the follower while the agent answers:
//! [`Follower::plan`], then [`PollPlan::fetch`], then [`Follower::took`]. [`Follower::poll`] does
//! the three at once.

use std::collections::{HashSet, VecDeque};
use std::time::Duration;

use crate::agent::AgentClient;
use crate::capture::Exchange;
use crate::error::{Error, Result};

/// How often a follower asks the agent for new captures.
pub const EVERY: Duration = Duration::from_millis(250);
/// The fewest of the newest captures a poll asks for, after the first (unless the caller's
/// own bound is smaller).
pub const MIN_WINDOW: usize = 50;
/// The most a poll asks for, after the first.
pub const MAX_WINDOW: usize = 10_000;
/// Pending captures behind the window asked for by ID on one poll.
pub const PENDING_PER_POLL: usize = 4;
/// Pending captures followed at most (the oldest are let go past it).
const MAX_PENDING: usize = MAX_WINDOW;

/// The follower's state between polls.
#[derive(Debug)]
pub struct Follower {
    tunnel: Option<String>,
    /// The limit of the next poll (`None`: everything).
    window: Option<usize>,
    /// The IDs of the last answer (what the next one brings that is not here is new).
    last: HashSet<String>,
    /// Captures seen pending and not since answered, those asked for by ID least lately
    /// first.
    pending: VecDeque<String>,
    /// Pending captures behind the last answer, to ask for by ID on the next poll.
    due: Vec<String>,
}

/// What one poll asks the agent for; owned, so it can be sent while the follower is used.
#[derive(Debug, Clone)]
pub struct PollPlan {
    /// How many of the newest (`None`: all).
    pub limit: Option<usize>,
    tunnel: Option<String>,
    recheck: Vec<String>,
}

/// What the agent answered to a [`PollPlan`].
#[derive(Debug)]
pub struct Fetched {
    limit: Option<usize>,
    list: Result<Vec<Exchange>>,
    rechecked: Vec<(String, Recheck)>,
}

/// How a recheck of one pending capture went.
#[derive(Debug)]
enum Recheck {
    /// The agent gave it (maybe still pending).
    Got(Box<Exchange>),
    /// The agent no longer has it (or answered something else).
    Gone,
}

/// What one poll brought.
#[derive(Debug, Default)]
pub struct Polled {
    /// The newest captures, newest first (of the tunnel followed).
    pub newest: Vec<Exchange>,
    /// How many of them the last poll did not bring.
    pub new: usize,
    /// Captures seen pending, behind the window, that have been answered since.
    pub answered_later: Vec<Exchange>,
}

impl Follower {
    /// A follower of `tunnel`'s captures (all tunnels' when `None`), whose first poll asks
    /// for every capture.
    pub fn new(tunnel: Option<&str>) -> Follower {
        Follower {
            tunnel: tunnel.map(str::to_string),
            window: None,
            last: HashSet::new(),
            pending: VecDeque::new(),
            due: Vec::new(),
        }
    }

    /// What the next poll asks for; `most` is the caller's own bound on the window.
    pub fn plan(&self, most: usize) -> PollPlan {
        PollPlan {
            limit: self.window.map(|w| w.min(most.max(1))),
            tunnel: self.tunnel.clone(),
            recheck: self.due.clone(),
        }
    }

    /// Asks for everything on the next poll and forgets what is pending (after the captures
    /// were cleared, or the agent came back).
    pub fn start_over(&mut self) {
        self.window = None;
        self.last.clear();
        self.pending.clear();
        self.due.clear();
    }

    /// One whole poll: plan, fetch, take in. `keep_json`: keep each capture's JSON text
    /// (for a recorder).
    pub async fn poll(
        &mut self,
        client: &AgentClient,
        most: usize,
        keep_json: bool,
    ) -> Result<Polled> {
        let fetched = self.plan(most).fetch(client, keep_json).await;
        self.took(fetched, most)
    }

    /// Takes in what the agent answered: learns the next window and which captures are
    /// pending, and says what is new and what was answered late.
    pub fn took(&mut self, fetched: Fetched, most: usize) -> Result<Polled> {
        let Fetched {
            limit,
            list,
            rechecked,
        } = fetched;
        let newest = list?;
        let new = newest.iter().filter(|e| !self.last.contains(&e.id)).count();
        let floor = MIN_WINDOW.min(most.max(1));
        self.window = Some(
            next_window(limit, newest.len(), new)
                .clamp(floor, MAX_WINDOW.min(most.max(1)).max(floor)),
        );
        self.last = newest.iter().map(|e| e.id.clone()).collect();
        for e in newest.iter().rev() {
            self.saw(e);
        }
        let mut answered_later = Vec::new();
        for (id, how) in rechecked {
            match how {
                Recheck::Got(e) if e.answered() => {
                    self.pending.retain(|p| *p != id);
                    // Already in the newest: said there.
                    if !self.last.contains(&id) {
                        answered_later.push(*e);
                    }
                }
                Recheck::Got(_) => {}
                Recheck::Gone => self.pending.retain(|p| *p != id),
            }
        }
        self.due = self.behind(&newest);
        Ok(Polled {
            newest,
            new,
            answered_later,
        })
    }

    /// Notes whether a capture is pending.
    fn saw(&mut self, e: &Exchange) {
        let known = self.pending.iter().position(|p| *p == e.id);
        match (e.answered(), known) {
            (true, Some(i)) => {
                self.pending.remove(i);
            }
            (false, None) => {
                self.pending.push_back(e.id.clone());
                if self.pending.len() > MAX_PENDING {
                    self.pending.pop_front();
                }
            }
            _ => {}
        }
    }

    /// A few of the pending captures that `newest` did not bring back, in turn: those
    /// chosen go to the back of the queue, so that each is asked for now and then.
    fn behind(&mut self, newest: &[Exchange]) -> Vec<String> {
        let seen: HashSet<&str> = newest.iter().map(|e| e.id.as_str()).collect();
        let mut chosen = Vec::new();
        let mut rest = VecDeque::with_capacity(self.pending.len());
        for id in self.pending.drain(..) {
            if chosen.len() < PENDING_PER_POLL && !seen.contains(id.as_str()) {
                chosen.push(id);
            } else {
                rest.push_back(id);
            }
        }
        rest.extend(chosen.iter().cloned());
        self.pending = rest;
        chosen
    }
}

/// How many of the newest captures the next poll asks for, before the bounds: four times as
/// many after a poll that `asked` for a window and `got` it whole, every one `new` (some may
/// have been missed); otherwise twice what was new.
fn next_window(asked: Option<usize>, got: usize, new: usize) -> usize {
    match asked {
        Some(n) if got >= n && new >= got => n.saturating_mul(4),
        _ => new.saturating_mul(2),
    }
}

impl Fetched {
    /// Whether every capture was asked for (the first poll, or one after
    /// [`Follower::start_over`]).
    pub fn asked_everything(&self) -> bool {
        self.limit.is_none()
    }
}

impl PollPlan {
    /// Asks the agent: the newest captures, then the pending ones due for a recheck (only
    /// when the list was answered: an agent that is down is not asked more).
    pub async fn fetch(self, client: &AgentClient, keep_json: bool) -> Fetched {
        let list = async {
            let raw = client
                .requests_raw(self.limit, self.tunnel.as_deref())
                .await?;
            let mut all = Exchange::all_of(&raw, keep_json)?;
            all.retain(|e| !e.id.is_empty() && self.of_tunnel(e));
            Ok::<_, Error>(all)
        }
        .await;
        let mut rechecked = Vec::new();
        if list.is_ok() {
            for id in self.recheck {
                let how = match client.request(&id).await {
                    Ok(text) => match Exchange::from_agent(text) {
                        Ok(e)
                            if e.id == id
                                && self.tunnel.as_ref().is_none_or(|t| *t == e.tunnel) =>
                        {
                            let e = if keep_json { e } else { e.without_json() };
                            Recheck::Got(Box::new(e))
                        }
                        _ => Recheck::Gone,
                    },
                    Err(Error::Api(f)) if f.status == 404 => Recheck::Gone,
                    // Asked again on a later poll: the list decides whether the agent is up.
                    Err(_) => break,
                };
                rechecked.push((id, how));
            }
        }
        Fetched {
            limit: self.limit,
            list,
            rechecked,
        }
    }

    fn of_tunnel(&self, e: &Exchange) -> bool {
        self.tunnel.as_ref().is_none_or(|t| *t == e.tunnel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(id: &str, answered: bool) -> Exchange {
        Exchange::sample(id, "GET", "/", answered.then_some(200))
    }

    fn fetched(
        limit: Option<usize>,
        list: Vec<Exchange>,
        rechecked: Vec<(String, Recheck)>,
    ) -> Fetched {
        Fetched {
            limit,
            list: Ok(list),
            rechecked,
        }
    }

    #[test]
    fn the_window_follows_the_traffic_within_the_callers_bound() {
        let mut f = Follower::new(None);
        assert_eq!(f.plan(usize::MAX).limit, None, "everything first");
        let first: Vec<Exchange> = (0..3).map(|i| ex(&format!("a{i}"), true)).collect();
        f.took(fetched(None, first, vec![]), usize::MAX).unwrap();
        assert_eq!(f.plan(usize::MAX).limit, Some(MIN_WINDOW));
        // A whole window of new ones: some may be missing, so a wider one next time.
        let burst: Vec<Exchange> = (0..MIN_WINDOW)
            .map(|i| ex(&format!("b{i}"), true))
            .collect();
        let p = f
            .took(fetched(Some(MIN_WINDOW), burst.clone(), vec![]), usize::MAX)
            .unwrap();
        assert_eq!(p.new, MIN_WINDOW);
        assert_eq!(f.plan(usize::MAX).limit, Some(4 * MIN_WINDOW));
        let p = f
            .took(fetched(Some(4 * MIN_WINDOW), burst, vec![]), usize::MAX)
            .unwrap();
        assert_eq!(p.new, 0);
        assert_eq!(f.plan(usize::MAX).limit, Some(MIN_WINDOW), "quiet again");
        assert_eq!(f.plan(3).limit, Some(3), "never past the caller's bound");
        f.start_over();
        assert_eq!(f.plan(usize::MAX).limit, None);
    }

    #[test]
    fn pending_captures_behind_the_window_are_rechecked_in_turn_and_said_once_answered() {
        let mut f = Follower::new(None);
        let old: Vec<Exchange> = (0..6).rev().map(|i| ex(&format!("p{i}"), false)).collect();
        f.took(fetched(None, old, vec![]), usize::MAX).unwrap();
        // The pending ones are in that answer: nothing to ask for by ID.
        assert!(f.plan(usize::MAX).recheck.is_empty());
        let later: Vec<Exchange> = (0..4).rev().map(|i| ex(&format!("c{i}"), true)).collect();
        f.took(fetched(Some(MIN_WINDOW), later.clone(), vec![]), usize::MAX)
            .unwrap();
        assert_eq!(f.plan(usize::MAX).recheck, ["p0", "p1", "p2", "p3"]);
        let p = f
            .took(
                fetched(
                    Some(MIN_WINDOW),
                    later.clone(),
                    vec![
                        ("p0".into(), Recheck::Got(Box::new(ex("p0", true)))),
                        ("p1".into(), Recheck::Gone),
                        ("p2".into(), Recheck::Got(Box::new(ex("p2", false)))),
                    ],
                ),
                usize::MAX,
            )
            .unwrap();
        let ids: Vec<&str> = p.answered_later.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["p0"]);
        assert_eq!(
            f.plan(usize::MAX).recheck,
            ["p4", "p5", "p2", "p3"],
            "in turn"
        );
    }
}
