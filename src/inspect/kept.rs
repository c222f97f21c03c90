//! The captures the inspector keeps: in arrival order, found by ID, within a byte budget (like
//! the agent's own `inspect_db_size`). What a visitor sends ends up in this memory, so what is
//! kept follows the bytes, not the count: past the budget the oldest are dropped, and how many
//! were is counted for the screen to say.
//!
//! Each capture has a sequence number that never changes while it is kept, so dropping the
//! oldest costs the same with ten captures or ten thousand (no index is rebuilt).

use std::collections::{BTreeSet, HashMap, VecDeque};

use crate::capture::exchange::Part;
use crate::capture::Exchange;

/// The budget when `--max-memory` is not given.
pub const DEFAULT_BUDGET: u64 = 64 * 1024 * 1024;

/// The most captures kept whatever their size (each costs some bookkeeping beyond its bytes).
pub const MAX_KEPT: usize = 10_000;

/// What a kept capture costs beyond its texts: the struct, its slots in the list, the index
/// and the filter's list, allocator rounding.
const OVERHEAD: usize = 512;

/// The bytes a capture holds in memory: its raw request and response, every text the model
/// keeps beside them, and the bookkeeping around it.
pub fn cost(e: &Exchange) -> usize {
    let part = |p: &Part| {
        p.raw.as_ref().map_or(0, Vec::len)
            + p.method.len()
            + p.uri.len()
            + p.proto.len()
            + p.status.len()
            + p.headers
                .iter()
                .map(|(k, v)| k.len() + v.len() + 48)
                .sum::<usize>()
    };
    OVERHEAD
        // The ID twice: in the capture and as the index's key.
        + 2 * e.id.len()
        + e.start.len()
        + e.tunnel.len()
        + e.remote_addr.len()
        + part(&e.request)
        + e.response.as_ref().map_or(0, part)
}

/// The kept captures.
#[derive(Debug)]
pub struct Kept {
    all: VecDeque<Exchange>,
    /// The sequence number of `all[0]`.
    first: u64,
    by_id: HashMap<String, u64>,
    /// Sequence numbers of the captures still waiting for their response.
    pending: BTreeSet<u64>,
    bytes: usize,
    budget: usize,
    dropped: usize,
}

/// What [`Kept::put`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Put {
    /// A new capture, with its sequence number.
    Added(u64),
    /// A known one changed (its response arrived).
    Changed(u64),
    /// A known one, unchanged.
    Same,
}

impl Kept {
    /// Nothing kept, within `budget` bytes.
    pub fn new(budget: u64) -> Kept {
        Kept {
            all: VecDeque::new(),
            first: 0,
            by_id: HashMap::new(),
            pending: BTreeSet::new(),
            bytes: 0,
            budget: usize::try_from(budget).unwrap_or(usize::MAX),
            dropped: 0,
        }
    }

    /// Captures kept.
    pub fn len(&self) -> usize {
        self.all.len()
    }

    /// Is nothing kept?
    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    /// The sequence number the next new capture gets.
    pub fn end(&self) -> u64 {
        self.first + self.all.len() as u64
    }

    /// The sequence number of the oldest kept.
    pub fn first(&self) -> u64 {
        self.first
    }

    /// How many older captures were dropped to stay within the budget.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// The bytes held, as [`cost`] counts them.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The budget, in bytes.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// The capture with this sequence number, while kept.
    pub fn at(&self, seq: u64) -> Option<&Exchange> {
        let i = seq.checked_sub(self.first)?;
        self.all.get(usize::try_from(i).ok()?)
    }

    /// The sequence number of the capture with this ID.
    pub fn seq_of(&self, id: &str) -> Option<u64> {
        self.by_id.get(id).copied()
    }

    /// Sequence numbers of the captures still waiting for their response, oldest first.
    pub fn pending(&self) -> impl Iterator<Item = u64> + '_ {
        self.pending.iter().copied()
    }

    /// Every kept capture, oldest first, with its sequence number.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &Exchange)> {
        (self.first..).zip(self.all.iter())
    }

    /// Adds a new capture on top, or updates a known one in place.
    pub fn put(&mut self, e: Exchange) -> Put {
        if let Some(seq) = self.seq_of(&e.id) {
            let Some(slot) = usize::try_from(seq - self.first)
                .ok()
                .and_then(|i| self.all.get_mut(i))
            else {
                return Put::Same;
            };
            if *slot == e {
                return Put::Same;
            }
            self.bytes = self.bytes - cost(slot) + cost(&e);
            if e.answered() {
                self.pending.remove(&seq);
            } else {
                self.pending.insert(seq);
            }
            *slot = e;
            return Put::Changed(seq);
        }
        let seq = self.end();
        self.bytes += cost(&e);
        self.by_id.insert(e.id.clone(), seq);
        if !e.answered() {
            self.pending.insert(seq);
        }
        self.all.push_back(e);
        Put::Added(seq)
    }

    /// Drops the oldest until what is kept fits the budget and the count; the newest is kept
    /// whatever its size (a screen with nothing on it would say nothing). Returns the
    /// sequence number below which nothing is kept.
    pub fn trim(&mut self) -> u64 {
        while self.all.len() > 1 && (self.bytes > self.budget || self.all.len() > MAX_KEPT) {
            let Some(old) = self.all.pop_front() else {
                break;
            };
            self.bytes -= cost(&old);
            self.by_id.remove(&old.id);
            self.pending.remove(&self.first);
            self.first += 1;
            self.dropped += 1;
        }
        self.first
    }

    /// Forgets every capture (after a clear); the next one starts a new count of drops.
    pub fn clear(&mut self) {
        self.first = self.end();
        self.all.clear();
        self.by_id.clear();
        self.pending.clear();
        self.bytes = 0;
        self.dropped = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(id: &str, status: Option<u16>) -> Exchange {
        Exchange::sample(id, "GET", &format!("/{id}"), status)
    }

    #[test]
    fn keeps_within_the_budget_dropping_the_oldest() {
        let one = cost(&ex("x00", Some(200)));
        let mut k = Kept::new((3 * one) as u64);
        for i in 0..5 {
            assert!(matches!(
                k.put(ex(&format!("x{i:02}"), Some(200))),
                Put::Added(_)
            ));
            k.trim();
        }
        assert_eq!((k.len(), k.dropped(), k.first()), (3, 2, 2));
        assert!(k.seq_of("x01").is_none());
        assert_eq!(k.at(4).map(|e| e.id.as_str()), Some("x04"));
        assert!(k.bytes() <= k.budget());
        // One capture larger than the budget is still kept, alone.
        let mut big = ex("big", Some(200));
        big.request.raw = Some(vec![b'x'; 10 * one]);
        k.put(big);
        k.trim();
        assert_eq!((k.len(), k.dropped()), (1, 5));
    }

    #[test]
    fn tracks_pending_and_updates_in_place() {
        let mut k = Kept::new(DEFAULT_BUDGET);
        k.put(ex("a", None));
        k.put(ex("b", Some(200)));
        assert_eq!(k.pending().collect::<Vec<_>>(), vec![0]);
        assert_eq!(k.put(ex("b", Some(200))), Put::Same);
        assert_eq!(k.put(ex("a", Some(502))), Put::Changed(0));
        assert_eq!(k.pending().count(), 0);
        k.clear();
        assert!(k.is_empty());
        assert_eq!(
            k.put(ex("c", None)),
            Put::Added(2),
            "numbers are never reused"
        );
    }
}
