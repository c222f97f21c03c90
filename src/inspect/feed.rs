//! What to ask the agent for on each poll. The first poll takes every capture; later ones only
//! the newest few: about twice as many as the last poll found new, more after a burst (a whole
//! answer of new ones may have missed some), never more than the memory budget could keep.
//! Captures still waiting for their response further back than that are asked for one by one,
//! a few a poll in turn, so one old pending capture does not widen every poll.

use std::collections::HashSet;

use super::model::State;
use crate::agent::RawList;
use crate::capture::Exchange;
use crate::error::Result;

/// The fewest captures an ordinary poll asks for.
pub const MIN_WINDOW: usize = 8;
/// What a poll asks for at most before the size of the captures is known.
pub const FIRST_WINDOW: usize = 50;
/// Pending captures beyond the window asked for by ID on one poll.
pub const PENDING_PER_POLL: usize = 4;

/// The polling plan.
#[derive(Debug)]
pub struct Feed {
    everything_next: bool,
    window: usize,
    /// Where the turn of pending captures beyond the window goes on from (a sequence number).
    next_pending: u64,
    /// Pending captures the agent no longer gives by ID (sequence numbers): not asked again.
    gone: HashSet<u64>,
}

impl Default for Feed {
    fn default() -> Self {
        Feed::new()
    }
}

impl Feed {
    /// A plan that starts with every capture.
    pub fn new() -> Feed {
        Feed {
            everything_next: true,
            window: MIN_WINDOW,
            next_pending: 0,
            gone: HashSet::new(),
        }
    }

    /// How many of the newest captures to ask for next (`None`: all).
    pub fn next_limit(&self, s: &State) -> Option<usize> {
        if self.everything_next {
            return None;
        }
        Some(self.window.min(most(s)))
    }

    /// The IDs of captures still pending beyond the next window, to ask for one by one this
    /// poll (a few, in turn).
    pub fn pending_to_check(&mut self, s: &State) -> Vec<(u64, String)> {
        let Some(window) = self.next_limit(s) else {
            return Vec::new();
        };
        let kept = s.kept();
        let below = kept.end().saturating_sub(window as u64);
        let candidates = |from: u64| {
            kept.pending()
                .filter(move |seq| *seq >= from && *seq < below)
                .filter(|seq| !self.gone.contains(seq))
        };
        let mut chosen: Vec<u64> = candidates(self.next_pending)
            .take(PENDING_PER_POLL)
            .collect();
        if chosen.len() < PENDING_PER_POLL {
            // Round again from the oldest.
            let more: Vec<u64> = candidates(0)
                .filter(|seq| !chosen.contains(seq))
                .take(PENDING_PER_POLL - chosen.len())
                .collect();
            chosen.extend(more);
        }
        if let Some(last) = chosen.last() {
            self.next_pending = last + 1;
        }
        chosen
            .into_iter()
            .filter_map(|seq| kept.at(seq).map(|e| (seq, e.id.clone())))
            .collect()
    }

    /// Learns that the agent no longer gives this pending capture.
    pub fn gone(&mut self, seq: u64) {
        self.gone.insert(seq);
    }

    /// Learns from an answer to `asked`, before it is merged into `s`.
    pub fn took(&mut self, s: &State, asked: Option<usize>, batch: &[Exchange]) {
        let new = s.new_in(batch);
        self.everything_next = false;
        let most = most(s);
        self.window =
            crate::agent::next_window(asked, batch.len(), new).clamp(MIN_WINDOW.min(most), most);
    }

    /// Asks for everything on the next poll (after the list was cleared or the agent came
    /// back).
    pub fn start_over(&mut self) {
        self.everything_next = true;
        self.gone.clear();
    }
}

/// The most captures worth asking for at once: what the memory budget can keep, at the size
/// the kept ones have on average.
fn most(s: &State) -> usize {
    let kept = s.kept();
    if kept.is_empty() {
        return FIRST_WINDOW;
    }
    let average = (kept.bytes() / kept.len()).max(1);
    (kept.budget() / average).clamp(1, super::kept::MAX_KEPT)
}

/// The captures of a list answer, their JSON text not kept; items that are not captures (no
/// ID) are skipped.
pub fn exchanges(list: &RawList) -> Result<Vec<Exchange>> {
    let mut all = Exchange::all_of(list, false)?;
    all.retain(|e| !e.id.is_empty());
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(id: &str, answered: bool) -> Exchange {
        Exchange::sample(id, "GET", "/", answered.then_some(200))
    }

    #[test]
    fn asks_for_about_what_is_new() {
        let mut s = State::new("u");
        let mut f = Feed::new();
        assert_eq!(f.next_limit(&s), None, "everything first");
        let first: Vec<Exchange> = (0..3).map(|i| ex(&format!("a{i}"), true)).collect();
        f.took(&s, None, &first);
        s.merge(first);
        assert_eq!(f.next_limit(&s), Some(MIN_WINDOW));
        // A whole window of new ones: some may be missing, so a wider one next time.
        let burst: Vec<Exchange> = (0..MIN_WINDOW)
            .map(|i| ex(&format!("b{i}"), true))
            .collect();
        f.took(&s, Some(MIN_WINDOW), &burst);
        s.merge(burst);
        assert_eq!(f.next_limit(&s), Some(4 * MIN_WINDOW));
        f.took(&s, Some(4 * MIN_WINDOW), &[]);
        assert_eq!(f.next_limit(&s), Some(MIN_WINDOW), "quiet again");
        f.start_over();
        assert_eq!(f.next_limit(&s), None);
    }

    #[test]
    fn never_asks_for_more_than_the_budget_keeps() {
        let one = crate::inspect::kept::cost(&ex("a0", true));
        let mut s = State::with_budget("u", (3 * one) as u64);
        let mut f = Feed::new();
        let first: Vec<Exchange> = (0..3).map(|i| ex(&format!("a{i}"), true)).collect();
        f.took(&s, None, &first);
        s.merge(first);
        let burst: Vec<Exchange> = (0..3).map(|i| ex(&format!("b{i}"), true)).collect();
        f.took(&s, Some(3), &burst);
        s.merge(burst);
        assert_eq!(f.next_limit(&s), Some(3));
    }

    #[test]
    fn old_pending_captures_are_asked_for_by_id_a_few_at_a_time() {
        let mut s = State::new("u");
        let mut f = Feed::new();
        let old: Vec<Exchange> = (0..6).rev().map(|i| ex(&format!("p{i}"), false)).collect();
        f.took(&s, None, &old);
        s.merge(old);
        let later: Vec<Exchange> = (0..40).rev().map(|i| ex(&format!("c{i}"), true)).collect();
        f.took(&s, Some(MIN_WINDOW), &later[..MIN_WINDOW]);
        s.merge(later);
        let window = f.next_limit(&s).unwrap();
        assert!(window < 40, "the window does not widen to reach them");
        let ids = |v: Vec<(u64, String)>| v.into_iter().map(|(_, id)| id).collect::<Vec<_>>();
        assert_eq!(ids(f.pending_to_check(&s)), ["p0", "p1", "p2", "p3"]);
        f.gone(1);
        assert_eq!(ids(f.pending_to_check(&s)), ["p4", "p5", "p0", "p2"]);
        s.merge(vec![ex("p4", true)]);
        assert_eq!(ids(f.pending_to_check(&s)), ["p3", "p5", "p0", "p2"]);
    }
}
