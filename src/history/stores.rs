//! The one store interface: where this run's history is ([`Location`], chosen once from the
//! settings: the SQLite file, or the team store when `history_url` is set), and the history
//! open ([`Store`]), whichever it is. Every reader and recorder speaks only this.

use std::path::PathBuf;
use std::time::Duration;

use time::OffsetDateTime;

use super::store::{Doomed, FileStore, Footprint, KeptCount, KeptRow, StoredSelection};
use super::team::TeamStore;
use crate::capture::Exchange;
use crate::error::Result;
use crate::escape::escape_path;
use crate::parse::HistoryUrl;

/// Where the history is.
#[derive(Debug, Clone)]
pub enum Location {
    /// The SQLite file.
    File(PathBuf),
    /// The team store.
    Team(HistoryUrl),
}

impl Location {
    /// As a message names it: the file's path, or the URL without its password.
    pub fn shown(&self) -> String {
        match self {
            Location::File(p) => escape_path(p),
            Location::Team(u) => u.shown(),
        }
    }

    /// As a result object names it: `{"file": …}` or `{"store": …}`.
    pub fn field(&self) -> (&'static str, String) {
        match self {
            Location::File(p) => ("file", p.to_string_lossy().into_owned()),
            Location::Team(u) => ("store", u.shown()),
        }
    }

    /// The history, opened for writing (made when there is none).
    pub async fn open(&self) -> Result<Store> {
        Ok(match self {
            Location::File(p) => Store::File(FileStore::open(p)?),
            Location::Team(u) => Store::Team(Box::new(TeamStore::open(u).await?)),
        })
    }

    /// The history, opened for reading (`None`: nothing kept yet).
    pub async fn open_existing(&self) -> Result<Option<Store>> {
        Ok(match self {
            Location::File(p) => FileStore::open_existing(p)?.map(Store::File),
            Location::Team(u) => TeamStore::open_existing(u)
                .await?
                .map(|t| Store::Team(Box::new(t))),
        })
    }
}

/// The history, open: the file or the team store.
pub enum Store {
    /// The SQLite file.
    File(FileStore),
    /// The team store.
    Team(Box<TeamStore>),
}

impl Store {
    /// Where it is, as a message names it.
    pub fn shown(&self) -> String {
        match self {
            Store::File(s) => escape_path(s.path()),
            Store::Team(s) => s.shown(),
        }
    }

    /// Keeps these captures (newest first, as the agent lists them) as `source`'s, in one
    /// transaction: new ones added, pending ones now answered updated.
    pub async fn keep(&mut self, captures: &[&Exchange], source: &str) -> Result<KeptCount> {
        match self {
            Store::File(s) => s.keep(captures.iter().copied(), source),
            Store::Team(s) => s.keep(captures, source).await,
        }
    }

    /// The agent's JSON of the kept capture `id` (`source`'s alone when given).
    pub async fn get(&self, id: &str, source: Option<&str>) -> Result<Option<String>> {
        match self {
            Store::File(s) => s.get(id, source),
            Store::Team(s) => s.get(id, source).await,
        }
    }

    /// Calls `each` with the JSON and source of every kept capture `selection` picks, newest
    /// first, until it returns `false`.
    pub async fn each(
        &mut self,
        selection: &StoredSelection,
        each: impl FnMut(&str, &str) -> Result<bool>,
    ) -> Result<()> {
        match self {
            Store::File(s) => s.each(selection, each),
            Store::Team(s) => s.each(selection, each).await,
        }
    }

    /// How many captures are kept.
    pub async fn count(&self) -> Result<u64> {
        match self {
            Store::File(s) => s.count(),
            Store::Team(s) => s.count().await,
        }
    }

    /// Does it hold the captures of more than one source?
    pub async fn many_sources(&self) -> Result<bool> {
        match self {
            Store::File(s) => s.many_sources(),
            Store::Team(s) => s.many_sources().await,
        }
    }

    /// Where following what is kept next starts.
    pub async fn last_row(&self) -> Result<i64> {
        match self {
            Store::File(s) => s.last_row(),
            Store::Team(s) => s.last_row().await,
        }
    }

    /// What was kept after `after` ([`Store::last_row`]), in the order it was, each with
    /// where to follow on from.
    pub async fn kept_after(&self, after: i64, source: Option<&str>) -> Result<Vec<KeptRow>> {
        match self {
            Store::File(s) => s.kept_after(after, source),
            Store::Team(s) => s.kept_after(after, source).await,
        }
    }

    /// How many captures (of `source`) were captured before `before` (all when `None`).
    pub async fn count_before(
        &self,
        before: Option<OffsetDateTime>,
        source: Option<&str>,
    ) -> Result<u64> {
        match self {
            Store::File(s) => s.count_before(before, source),
            Store::Team(s) => s.count_before(before, source).await,
        }
    }

    /// Removes the captures (of `source`) captured before `before` (all when `None`).
    pub async fn clear(
        &mut self,
        before: Option<OffsetDateTime>,
        source: Option<&str>,
    ) -> Result<usize> {
        match self {
            Store::File(s) => s.clear(before, source),
            Store::Team(s) => s.clear(before, source).await,
        }
    }

    /// What the bounds drop now.
    pub async fn doomed(&mut self, max_size: u64, max_age: Duration) -> Result<Doomed> {
        match self {
            Store::File(s) => s.doomed(max_size, max_age),
            Store::Team(s) => s.doomed(max_size, max_age).await,
        }
    }

    /// Drops what [`Store::doomed`] found.
    pub async fn drop_doomed(&mut self, doomed: Doomed) -> Result<(Vec<String>, Footprint)> {
        match self {
            Store::File(s) => s.drop_doomed(doomed),
            Store::Team(s) => s.drop_doomed(doomed).await,
        }
    }

    /// [`Store::doomed`], then [`Store::drop_doomed`].
    pub async fn trim(
        &mut self,
        max_size: u64,
        max_age: Duration,
    ) -> Result<(Vec<String>, Footprint)> {
        let doomed = self.doomed(max_size, max_age).await?;
        self.drop_doomed(doomed).await
    }

    /// Connects again when the connection to a team store was lost; says whether it had been.
    pub async fn reconnect_if_lost(&mut self) -> Result<bool> {
        match self {
            Store::Team(s) if s.is_closed() => s.reconnect().await.map(|()| true),
            _ => Ok(false),
        }
    }
}
