//! The agent's state: its running tunnels, its captures, the log of its API requests and the
//! settings that change how it answers.
//!
//! Kept apart from the request pipeline in `agent/mod.rs` so that the endpoints and the
//! control surface can reach the state without depending on the pipeline that calls them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{json, Value};

use super::captures::Captures;
use super::tunnels::RunningTunnels;
use crate::clock::Clock;
use crate::recorder::Recorder;
use crate::sync::lock;
use crate::MockOptions;

/// The agent's state: running tunnels, captured requests, the log of API requests, and the
/// settings that change how it answers.
#[derive(Debug)]
pub struct Agent {
    /// Captured exchanges.
    pub captures: Arc<Captures>,
    tunnels: Mutex<RunningTunnels>,
    /// Every agent API request received, in order.
    pub recorder: Recorder,
    ready: AtomicBool,
    start_error: Mutex<Option<String>>,
}

impl Agent {
    /// An agent with no tunnels, configured from the options; its request log counts `at_ms`
    /// on the emulator's `clock`.
    pub fn new(opts: &MockOptions, clock: Arc<Clock>) -> Self {
        Agent {
            captures: Arc::new(Captures::new(opts.inspect_db_size)),
            tunnels: Mutex::new(RunningTunnels::default()),
            recorder: Recorder::new(clock),
            ready: AtomicBool::new(opts.agent_ready),
            start_error: Mutex::new(None),
        }
    }

    /// The running tunnels (hold the guard briefly, never across an `.await`).
    pub fn tunnels(&self) -> MutexGuard<'_, RunningTunnels> {
        lock(&self.tunnels)
    }

    /// Whether tunnels can be started (else 104).
    pub fn ready(&self) -> bool {
        self.ready.load(Ordering::Relaxed)
    }

    /// See [`Agent::ready`].
    pub fn set_ready(&self, ready: bool) {
        self.ready.store(ready, Ordering::Relaxed);
    }

    /// When set, starting a tunnel fails with 103 and this `details.err`.
    pub fn start_error(&self) -> Option<String> {
        lock(&self.start_error).clone()
    }

    /// See [`Agent::start_error`].
    pub fn set_start_error(&self, err: Option<String>) {
        *lock(&self.start_error) = err;
    }

    /// Stops every tunnel.
    pub fn stop_all(&self) {
        self.tunnels().clear();
    }

    /// Stops every tunnel and forgets the captures and the request log (settings stay).
    pub fn reset(&self) {
        self.stop_all();
        self.captures.clear();
        self.recorder.clear();
    }

    /// The agent's settings as `/_mock/config` shows them.
    pub fn settings_json(&self) -> Value {
        json!({
            "agent_ready": self.ready(),
            "inspect_db_size": self.captures.limit(),
            "pending_response": if self.captures.pending_null() { "null" } else { "object" },
            "tunnel_start_error": self.start_error(),
        })
    }
}
