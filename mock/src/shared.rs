//! The handle every request handler shares: the resources, the run-time settings, the request
//! log, the stats, the rate limit's window, the faults and the agent half.
//!
//! All state sits behind plain `std::sync::Mutex`es (or is internally synchronised) and is
//! only ever held for synchronous work, never across an `.await`.

use std::sync::{Arc, Mutex};

use crate::agent::state::Agent;
use crate::clock::Clock;
use crate::faults::Faults;
use crate::ratelimit::{RateLimit, Window};
use crate::recorder::Recorder;
use crate::stats::Stats;
use crate::store::Store;
use crate::sync::lock;
use crate::MockOptions;

/// Settings that `POST /_mock/config` can change while the emulator runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Items per page when a list request gives no `limit`.
    pub page_size: usize,
    /// Delay before a restarted session's successor appears.
    pub restart_delay_ms: u64,
    /// Delay added before answering each API request.
    pub latency_ms: u64,
    /// Whether resources carry the unknown `x_future_field`.
    pub extra_fields: bool,
    /// Base of `next_page_uri` links instead of the emulator's own URL.
    pub next_page_base: Option<String>,
    /// The account's rate limit on management API requests (`None`: unlimited).
    pub rate_limit: Option<RateLimit>,
}

/// Everything the request handlers share.
#[derive(Debug)]
pub struct Shared {
    /// The management API base URL, used to build absolute `uri` fields.
    pub base_url: String,
    /// The key clients must send.
    pub api_key: String,
    /// Run-time settings.
    pub config: Mutex<Config>,
    /// Resources.
    pub store: Mutex<Store>,
    /// The request log.
    pub recorder: Recorder,
    /// Counters of the management API traffic.
    pub stats: Stats,
    /// Management API requests counted against the rate limit.
    pub rate_window: Mutex<Window>,
    /// Injected faults (they apply to agent API paths under `/api/` too).
    pub faults: Mutex<Faults>,
    /// The local agent API's state: tunnels, captures, its own request log.
    pub agent: Agent,
    /// The clock of every wait and of both request logs, which tests may freeze and move.
    pub clock: Arc<Clock>,
}

impl Shared {
    /// Empty state with the given options; `base_url` is the bound management URL.
    pub fn new(opts: &MockOptions, base_url: String) -> Self {
        // The origin of every `at_ms`, in both request logs.
        let clock = Arc::new(Clock::new());
        Shared {
            base_url,
            api_key: opts.api_key.clone(),
            config: Mutex::new(Config {
                page_size: opts.page_size.max(1),
                restart_delay_ms: opts.restart_delay_ms,
                latency_ms: opts.latency_ms,
                extra_fields: opts.extra_fields,
                next_page_base: opts.next_page_base.clone(),
                rate_limit: opts.rate_limit.map(RateLimit::from_pair),
            }),
            store: Mutex::new(Store::default()),
            recorder: Recorder::new(clock.clone()),
            stats: Stats::default(),
            rate_window: Mutex::new(Window::default()),
            faults: Mutex::new(Faults::default()),
            agent: Agent::new(opts, clock.clone()),
            clock,
        }
    }

    /// A copy of the current settings, so no lock is held while they are used.
    pub fn config(&self) -> Config {
        lock(&self.config).clone()
    }
}
