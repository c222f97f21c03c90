//! What to ask the agent for on each poll. The first poll takes every capture; later ones only
//! the newest few (cheap, whatever the agent holds), looking further back when a whole window
//! was new (some may have been missed) or when an older capture still waits for its response.

use super::model::State;
use crate::agent::RawList;
use crate::capture::Exchange;
use crate::error::Result;

/// Captures asked for on an ordinary poll.
pub const WINDOW: usize = 50;
/// The furthest back an ordinary poll looks for a pending response.
pub const DEEPEST: usize = 1000;

/// The polling plan.
#[derive(Debug)]
pub struct Feed {
    everything_next: bool,
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
        }
    }

    /// How many of the newest captures to ask for next (`None`: all).
    pub fn next_limit(&self, s: &State) -> Option<usize> {
        if self.everything_next {
            return None;
        }
        let pending = s.oldest_pending_depth().unwrap_or(0);
        Some(pending.clamp(WINDOW, DEEPEST))
    }

    /// Learns from an answer to `asked`, before it is merged into `s`.
    pub fn took(&mut self, s: &State, asked: Option<usize>, batch: &[Exchange]) {
        self.everything_next = match asked {
            Some(n) => batch.len() >= n && batch.iter().all(|e| s.get(&e.id).is_none()),
            None => false,
        };
    }

    /// Asks for everything on the next poll (after the list was cleared or the agent came
    /// back).
    pub fn start_over(&mut self) {
        self.everything_next = true;
    }
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
    fn looks_back_as_far_as_needed() {
        let mut s = State::new("u");
        let mut f = Feed::new();
        assert_eq!(f.next_limit(&s), None, "everything first");
        let first: Vec<Exchange> = (0..3).map(|i| ex(&format!("a{i}"), true)).collect();
        f.took(&s, None, &first);
        s.merge(first);
        assert_eq!(f.next_limit(&s), Some(WINDOW));
        // A whole window of new ones: some may be missing, so everything next time.
        let burst: Vec<Exchange> = (0..WINDOW).map(|i| ex(&format!("b{i}"), true)).collect();
        f.took(&s, Some(WINDOW), &burst);
        s.merge(burst);
        assert_eq!(f.next_limit(&s), None);
        f.took(&s, None, &[]);
        // An old capture still pending: the window reaches it.
        s.merge(vec![ex("p", false)]);
        let later: Vec<Exchange> = (0..80).rev().map(|i| ex(&format!("c{i}"), true)).collect();
        s.merge(later);
        assert_eq!(f.next_limit(&s), Some(81));
        f.start_over();
        assert_eq!(f.next_limit(&s), None);
    }
}
