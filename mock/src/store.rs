//! The emulator's resources: every management API collection, each a `BTreeMap` keyed by id,
//! and the seeded things the API can only refer to (tunnels, TLS edges).
//!
//! Collections are `BTreeMap`s because ids sort by creation: a newest-first page after
//! `before_id` is one range query, which keeps 10,000-item lists fast. The store knows nothing
//! of HTTP or of the rest of the emulator; [`crate::shared::Shared`] holds it behind a mutex.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::ids::IdGen;

/// Where an agent stands in the update process of rule 3.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpdatePhase {
    /// No update in progress or pending.
    Idle,
    /// Updating until `until` (forever when `None`), then updated to `version`.
    Updating {
        /// When the update finishes.
        until: Option<Instant>,
        /// The version it updates to.
        version: String,
    },
    /// Updated to `version`, which takes effect at the next restart.
    Updated {
        /// The version the agent will run after a restart.
        version: String,
    },
}

/// An online tunnel session, with the agent facts that decide the outcome of its commands.
#[derive(Debug, Clone)]
pub struct Session {
    /// `ts_` id.
    pub id: String,
    /// `cr_` id of the credential the agent used.
    pub credential_id: String,
    /// Agent version.
    pub agent_version: String,
    /// Source IP.
    pub ip: String,
    /// Metadata; omitted from responses when empty.
    pub metadata: String,
    /// Operating system of the agent host.
    pub os: String,
    /// Region the session started in.
    pub region: String,
    /// RFC 3339 start time.
    pub started_at: String,
    /// The version an update would install, if any.
    pub update_available: Option<String>,
    /// Whether the agent configuration disabled update checks.
    pub update_checks_disabled: bool,
    /// How long a successful update command keeps the agent "updating".
    pub update_duration: Duration,
    /// Update progress.
    pub update: UpdatePhase,
}

impl Session {
    /// The update phase at `now`: an update whose time has run out counts as done.
    pub fn phase(&self, now: Instant) -> UpdatePhase {
        match &self.update {
            UpdatePhase::Updating {
                until: Some(until),
                version,
            } if *until <= now => UpdatePhase::Updated {
                version: version.clone(),
            },
            other => other.clone(),
        }
    }
}

/// A restarted session waiting to reconnect under a new id.
#[derive(Debug, Clone)]
pub struct PendingRestart {
    /// When the new session appears.
    pub at: Instant,
    /// The new session; its id is assigned when it appears, so it sorts as the newest.
    pub session: Session,
}

/// An IP policy.
#[derive(Debug, Clone)]
pub struct IpPolicy {
    /// `ipp_` id.
    pub id: String,
    /// RFC 3339 creation time.
    pub created_at: String,
    /// Description (at most 255 bytes).
    pub description: String,
    /// Metadata (at most 4096 bytes).
    pub metadata: String,
}

/// A tunnel group backend.
#[derive(Debug, Clone)]
pub struct Backend {
    /// `bkdtg_` id.
    pub id: String,
    /// RFC 3339 creation time.
    pub created_at: String,
    /// Description.
    pub description: String,
    /// Metadata.
    pub metadata: String,
    /// Labels a tunnel must all carry to match.
    pub labels: BTreeMap<String, String>,
}

/// A seeded tunnel, only there to be matched by backends' labels.
#[derive(Debug, Clone)]
pub struct Tunnel {
    /// `tn_` id.
    pub id: String,
    /// Its labels.
    pub labels: BTreeMap<String, String>,
}

/// The TLS termination module of a TLS edge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsModule {
    /// Whether the module applies to traffic.
    pub enabled: bool,
    /// `edge` or `upstream`.
    pub terminate_at: String,
    /// Minimum TLS version, `1.0` to `1.3`, or none.
    pub min_version: Option<String>,
}

/// A seeded TLS edge.
#[derive(Debug, Clone)]
pub struct TlsEdge {
    /// `edgtls_` id.
    pub id: String,
    /// Its TLS termination module, if configured.
    pub module: Option<TlsModule>,
}

/// An event destination.
#[derive(Debug, Clone)]
pub struct Destination {
    /// `ed_` id.
    pub id: String,
    /// RFC 3339 creation time.
    pub created_at: String,
    /// Description (at most 255 bytes).
    pub description: String,
    /// Metadata (at most 4096 bytes).
    pub metadata: String,
    /// Always `json`.
    pub format: String,
    /// The target as responses show it (secrets already removed).
    pub target: serde_json::Value,
}

/// An event subscription.
#[derive(Debug, Clone)]
pub struct Subscription {
    /// `esb_` id.
    pub id: String,
    /// RFC 3339 creation time.
    pub created_at: String,
    /// Description (at most 255 characters).
    pub description: String,
    /// Metadata (at most 4096 characters).
    pub metadata: String,
    /// Event source types, in the order added.
    pub sources: Vec<String>,
    /// Ids of the destinations that receive the events.
    pub destination_ids: Vec<String>,
}

/// All resources.
#[derive(Debug)]
pub struct Store {
    /// Id generator shared by every collection.
    pub ids: IdGen,
    /// Online sessions.
    pub sessions: BTreeMap<String, Session>,
    /// Restarted sessions that have not reconnected yet, in order of reappearance.
    pub pending_restarts: Vec<PendingRestart>,
    /// IP policies.
    pub ip_policies: BTreeMap<String, IpPolicy>,
    /// Tunnel group backends.
    pub backends: BTreeMap<String, Backend>,
    /// Seeded tunnels.
    pub tunnels: BTreeMap<String, Tunnel>,
    /// Seeded TLS edges.
    pub tls_edges: BTreeMap<String, TlsEdge>,
    /// Event destinations.
    pub destinations: BTreeMap<String, Destination>,
    /// Event subscriptions.
    pub subscriptions: BTreeMap<String, Subscription>,
}

impl Default for Store {
    fn default() -> Self {
        Store {
            ids: IdGen::new(),
            sessions: BTreeMap::new(),
            pending_restarts: Vec::new(),
            ip_policies: BTreeMap::new(),
            backends: BTreeMap::new(),
            tunnels: BTreeMap::new(),
            tls_edges: BTreeMap::new(),
            destinations: BTreeMap::new(),
            subscriptions: BTreeMap::new(),
        }
    }
}

impl Store {
    /// Brings restarted sessions whose delay has passed online. Done lazily on each access
    /// rather than by a timer task, so the result is the same and nothing runs in between.
    pub fn settle(&mut self, now: Instant) {
        if self.pending_restarts.is_empty() {
            return;
        }
        let (mut due, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending_restarts)
            .into_iter()
            .partition(|p| p.at <= now);
        self.pending_restarts = waiting;
        due.sort_by_key(|p| p.at);
        for p in due {
            let mut session = p.session;
            session.id = self.ids.next("ts_");
            self.sessions.insert(session.id.clone(), session);
        }
    }

    /// Empties every collection (ids keep increasing, so old ids are never reused).
    pub fn clear(&mut self) {
        self.sessions.clear();
        self.pending_restarts.clear();
        self.ip_policies.clear();
        self.backends.clear();
        self.tunnels.clear();
        self.tls_edges.clear();
        self.destinations.clear();
        self.subscriptions.clear();
    }
}

/// An item type the store keeps, and in which of its maps: code that works on any collection
/// (the CRUD engine) reaches the items through this, not through a list of fields of its own.
pub trait Stored: Sized {
    /// Every item of this type, by id.
    fn all(store: &Store) -> &BTreeMap<String, Self>;
    /// Every item of this type, by id, to change.
    fn all_mut(store: &mut Store) -> &mut BTreeMap<String, Self>;
}

/// Implements [`Stored`] from a table of item type and map.
macro_rules! stored {
    ($($item:ty => $field:ident),* $(,)?) => {$(
        impl Stored for $item {
            fn all(store: &Store) -> &BTreeMap<String, Self> {
                &store.$field
            }
            fn all_mut(store: &mut Store) -> &mut BTreeMap<String, Self> {
                &mut store.$field
            }
        }
    )*};
}

stored! {
    Session => sessions,
    IpPolicy => ip_policies,
    Backend => backends,
    Tunnel => tunnels,
    TlsEdge => tls_edges,
    Destination => destinations,
    Subscription => subscriptions,
}
