//! The library's control handle: what a test or the binary holds to observe and arrange a
//! running emulator — its addresses, its request logs and stats, seeding, settings, faults.
//!
//! [`crate::Mock`] (its own thread) and [`crate::MockHandle`] (a task of the caller's
//! runtime) differ only in how the server runs and stops; both hand out this one handle, so
//! the operations are written once and mean exactly what the `/_mock/` control surface does.

use std::net::SocketAddr;
use std::sync::Arc;

use serde_json::Value;

use crate::recorder::RecordedRequest;
use crate::shared::Shared;
use crate::{agent, control};

/// The addresses an emulator instance listens on.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MockAddrs {
    /// The management API listener (always on 127.0.0.1).
    pub management: SocketAddr,
    /// The local agent API listener (always on 127.0.0.1).
    pub agent: SocketAddr,
}

impl MockAddrs {
    /// Base URL of the management API, without a trailing slash.
    pub fn management_url(&self) -> String {
        format!("http://{}", self.management)
    }

    /// URL of the agent API, `http://127.0.0.1:PORT/api` (no trailing slash).
    pub fn agent_url(&self) -> String {
        format!("http://{}/api", self.agent)
    }
}

/// A handle on a running emulator. [`crate::Mock`] and [`crate::MockHandle`] dereference to
/// it; it is cheap to clone and can be sent to other threads. It does not keep the emulator
/// running: once its owner is dropped, the operations act on state nobody serves any more.
///
/// Operations whose argument can be invalid return the emulator's message as the error.
#[derive(Debug, Clone)]
pub struct MockControl {
    addrs: MockAddrs,
    shared: Arc<Shared>,
}

impl MockControl {
    /// The handle on `shared`, served at `addrs`.
    pub(crate) fn new(addrs: MockAddrs, shared: Arc<Shared>) -> Self {
        MockControl { addrs, shared }
    }

    /// The state the servers share, for the owner to stop the agent's tunnels with.
    pub(crate) fn shared(&self) -> &Shared {
        &self.shared
    }

    /// Base URL of the management API (`http://127.0.0.1:PORT`, no trailing slash).
    pub fn url(&self) -> String {
        self.addrs.management_url()
    }

    /// URL of the agent API (`http://127.0.0.1:PORT/api`, no trailing slash).
    pub fn agent_url(&self) -> String {
        self.addrs.agent_url()
    }

    /// Every address this instance listens on.
    pub fn addrs(&self) -> &MockAddrs {
        &self.addrs
    }

    /// The API key clients must present.
    pub fn api_key(&self) -> &str {
        &self.shared.api_key
    }

    /// Every API request received so far, in order (control requests are not recorded).
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.recorder.snapshot()
    }

    /// Forgets the recorded requests.
    pub fn clear_requests(&self) {
        self.shared.recorder.clear();
    }

    /// Counters of the management API traffic, as `GET /_mock/stats` shows them:
    /// `{"requests": n, "rate_limited": n, "by_status": {"200": n, ...}}`.
    pub fn stats(&self) -> Value {
        self.shared.stats.to_json()
    }

    /// Zeroes the counters of [`Self::stats`] (`DELETE /_mock/stats`).
    pub fn clear_stats(&self) {
        self.shared.stats.clear();
    }

    /// Adds resources, exactly as `POST /_mock/seed`, and returns the created ids; an invalid
    /// spec is an error whose text says what is wrong.
    pub fn seed(&self, spec: Value) -> Result<Value, String> {
        control::seed(&self.shared, &spec).map_err(|e| e.msg)
    }

    /// Changes settings at run time, exactly as `POST /_mock/config`.
    pub fn configure(&self, cfg: Value) -> Result<(), String> {
        control::configure(&self.shared, &cfg).map_err(|e| e.msg)
    }

    /// Adds a fault, exactly as `POST /_mock/faults`.
    pub fn inject(&self, fault: Value) -> Result<(), String> {
        control::inject(&self.shared, &fault)
            .map(|_| ())
            .map_err(|e| e.msg)
    }

    /// Every resource, by collection, as the API would render it (`GET /_mock/state`).
    pub fn state(&self) -> Value {
        control::state(&self.shared)
    }

    /// Empties all state, the request logs, the stats and the faults (`POST /_mock/reset`).
    pub fn reset(&self) {
        control::reset(&self.shared);
    }

    /// Stops the emulator's clock where it stands (`true`) or lets it run again from there
    /// (`POST /_mock/clock {"frozen": …}`): delays, the rate limit's window and `at_ms` then
    /// move only with [`Self::advance_clock`].
    pub fn freeze_clock(&self, frozen: bool) {
        self.shared.clock.freeze(frozen);
    }

    /// The emulator's clock as `GET /_mock/clock` shows it: `{"now_ms", "frozen", "waiting"}`
    /// (`waiting`: requests held in a latency or a fault's delay right now).
    pub fn clock(&self) -> Value {
        self.shared.clock.to_json()
    }

    /// Moves the emulator's clock forward (`POST /_mock/clock {"advance_ms": …}`): restarted
    /// sessions due by then come back, updates finish, the rate limit's window rolls, and
    /// latency and fault delays that end by then answer.
    pub fn advance_clock(&self, by: std::time::Duration) {
        self.shared.clock.advance(by);
    }

    /// Every agent API request received so far, in order (`GET /_mock/agent/requests-log`).
    pub fn agent_requests(&self) -> Vec<RecordedRequest> {
        self.shared.agent.recorder.snapshot()
    }

    /// Forgets the recorded agent API requests.
    pub fn clear_agent_requests(&self) {
        self.shared.agent.recorder.clear();
    }

    /// Where to connect to visit each running tunnel leg (`GET /_mock/agent/edges`):
    /// `[{name, proto, public_url, edge_port}]`.
    pub fn agent_edges(&self) -> Value {
        agent::agent_control::edges(&self.shared.agent)
    }

    /// Adds captured requests directly, exactly as `POST /_mock/agent/captures`; returns their
    /// ids, oldest first.
    pub fn seed_captures(&self, spec: Value) -> Result<Value, String> {
        agent::agent_control::seed_captures(&self.shared.agent, &spec).map_err(|e| e.msg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handle_can_go_to_other_threads() {
        fn send_sync<T: Send + Sync + Clone>() {}
        send_sync::<MockControl>();
    }
}
