//! `tunnelctl-mock`: a stateful, in-memory emulator of the tunnel management API and of the
//! local agent API.
//!
//! The real service cannot be reached from the machines that build and test `tunnelctl`, so
//! tests and benchmarks run against this emulator instead. It serves every management endpoint
//! with the API reference's status codes, envelopes, limits and behavioural rules, records every request
//! it receives so tests can assert exactly what the client sent, and can be told to misbehave
//! (faults, latency) through a control surface under `/_mock/`.
//!
//! On a second port it answers like the local tunnel agent (`/api`): tunnels it starts really
//! listen on loopback and forward to an upstream, and the exchanges are captured, listed and
//! replayed as the real agent does (see `agent/`).
//!
//! Two entry points start it:
//! - [`Mock::start`] for synchronous tests: it runs the server on its own thread and stops it
//!   when dropped;
//! - [`spawn`] for async callers (the `tunnelctl-mock` binary): the server runs as a task on
//!   the caller's runtime.
//!
//! Both dereference to one [`MockControl`], the handle that observes and arranges the running
//! emulator exactly as the `/_mock/` control surface does.
//!
//! Inside, a request flows `server` (or `agent` for the agent half) -> `faults` -> `mgmt`
//! (the route table) -> `mgmt::crud` (the usual verbs, over each resource module's
//! `Collection`) -> `store` (the resources), with `shared` tying the state together; leaves
//! such as `sync`, `errors`, `input` and `incoming` are what every part shares, so that no
//! two modules import each other.
//!
//! The contract both follow is `mock/SPEC.md`.

mod agent;
mod api_error;
mod clock;
mod control;
pub mod echo;
mod faults;
mod handle;
mod ids;
mod incoming;
mod input;
mod mgmt;
mod paging;
mod ratelimit;
mod recorder;
mod seed;
mod server;
mod shared;
mod stats;
mod store;
mod sync;
mod timestamp;

use std::io;
use std::ops::Deref;
use std::sync::Arc;
use std::thread::JoinHandle;

use serde_json::Value;
use tokio::sync::oneshot;

pub use handle::{MockAddrs, MockControl};
pub use recorder::RecordedRequest;

use shared::Shared;

/// Settings of an emulator instance; every field has a default (see [`MockOptions::default`]).
/// Build it as `MockOptions { page_size: 5, ..MockOptions::default() }`: fields will be added
/// (for the local agent API).
#[derive(Debug, Clone)]
pub struct MockOptions {
    /// The key clients must send as `Authorization: Bearer <api_key>`.
    pub api_key: String,
    /// Items per list page when the request gives no `limit`.
    pub page_size: usize,
    /// How long a restarted session stays away before its new session appears.
    pub restart_delay_ms: u64,
    /// Delay added before answering every API request (not the control surface).
    pub latency_ms: u64,
    /// Add a field the client does not know to every resource object, to test forward
    /// compatibility.
    pub extra_fields: bool,
    /// Base used in `next_page_uri` instead of the emulator's own URL, to test that clients
    /// refuse to follow a link to another host.
    pub next_page_base: Option<String>,
    /// Port of the agent API on 127.0.0.1 (0 picks a free one).
    pub agent_port: u16,
    /// Bytes of captured requests and responses (raw) the agent keeps before evicting the
    /// oldest captures.
    pub inspect_db_size: u64,
    /// Whether the agent can start tunnels (false: `POST /api/tunnels` answers 104, as an
    /// agent without a session to the tunnel service does).
    pub agent_ready: bool,
    /// The account's rate limit on management API requests: at most `max` requests in any
    /// rolling `per_ms` milliseconds, as `(max, per_ms)`; beyond it the API answers 429 with
    /// `Retry-After`. `None` (the default) is unlimited. The hosted service's limit is
    /// `(120, 60_000)`.
    pub rate_limit: Option<(u32, u64)>,
}

impl Default for MockOptions {
    fn default() -> Self {
        MockOptions {
            api_key: "mock-api-key".to_string(),
            page_size: 100,
            restart_delay_ms: 200,
            latency_ms: 0,
            extra_fields: false,
            next_page_base: None,
            agent_port: 0,
            inspect_db_size: agent::captures::DEFAULT_DB_SIZE,
            agent_ready: true,
            rate_limit: None,
        }
    }
}

/// An emulator running on its own thread, for synchronous callers such as integration tests.
/// Dropping it stops both servers and every tunnel, and closes their connections.
///
/// Everything a test does with it goes through its [`MockControl`] (it dereferences to it),
/// except that [`Mock::seed`], [`Mock::configure`], [`Mock::inject`] and
/// [`Mock::seed_captures`] panic on an invalid argument instead of returning an error: in a
/// test that is a mistake of the test.
pub struct Mock {
    control: MockControl,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Mock {
    /// Starts an emulator on a free port of 127.0.0.1. The port is bound before this
    /// returns, so the URL is usable at once.
    pub fn start(opts: MockOptions) -> io::Result<Mock> {
        let std_listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
        std_listener.set_nonblocking(true)?;
        let std_agent_listener = std::net::TcpListener::bind(("127.0.0.1", opts.agent_port))?;
        std_agent_listener.set_nonblocking(true)?;
        let addrs = MockAddrs {
            management: std_listener.local_addr()?,
            agent: std_agent_listener.local_addr()?,
        };
        let shared = Arc::new(Shared::new(&opts, addrs.management_url()));
        // A current-thread runtime starts fastest, and every handler is async and short.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (listener, agent_listener) = {
            let _guard = runtime.enter();
            (
                tokio::net::TcpListener::from_std(std_listener)?,
                tokio::net::TcpListener::from_std(std_agent_listener)?,
            )
        };
        let (tx, rx) = oneshot::channel();
        let server_shared = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("tunnelctl-mock".to_string())
            .spawn(move || {
                runtime.block_on(async move {
                    // Tunnels and the agent API are tasks of this runtime: they end with it.
                    tokio::spawn(agent::serve(agent_listener, Arc::clone(&server_shared)));
                    server::run(listener, server_shared, rx).await;
                });
            })?;
        Ok(Mock {
            control: MockControl::new(addrs, shared),
            shutdown: Some(tx),
            thread: Some(thread),
        })
    }

    /// Adds resources, exactly as `POST /_mock/seed`, and returns the created ids.
    ///
    /// # Panics
    /// When the seed spec is invalid: that is a mistake in the calling test.
    pub fn seed(&self, spec: Value) -> Value {
        self.control
            .seed(spec)
            .unwrap_or_else(|e| panic!("invalid seed: {e}"))
    }

    /// Changes settings at run time, exactly as `POST /_mock/config`.
    ///
    /// # Panics
    /// When the config is invalid: that is a mistake in the calling test.
    pub fn configure(&self, cfg: Value) {
        if let Err(e) = self.control.configure(cfg) {
            panic!("invalid config: {e}");
        }
    }

    /// Adds a fault, exactly as `POST /_mock/faults`.
    ///
    /// # Panics
    /// When the fault is invalid: that is a mistake in the calling test.
    pub fn inject(&self, fault: Value) {
        if let Err(e) = self.control.inject(fault) {
            panic!("invalid fault: {e}");
        }
    }

    /// Adds captured requests directly, exactly as `POST /_mock/agent/captures`; returns their
    /// ids, oldest first.
    ///
    /// # Panics
    /// When the spec is invalid: that is a mistake in the calling test.
    pub fn seed_captures(&self, spec: Value) -> Value {
        self.control
            .seed_captures(spec)
            .unwrap_or_else(|e| panic!("invalid captures: {e}"))
    }
}

impl Deref for Mock {
    type Target = MockControl;

    fn deref(&self) -> &MockControl {
        &self.control
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        // Dropping the sender wakes the server loop; the runtime, and with it every open
        // connection, goes away when the thread returns.
        self.shutdown.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        self.control.shared().agent.stop_all();
    }
}

/// An emulator running as a task on the caller's tokio runtime. Dropping it stops accepting
/// connections and stops every tunnel. Everything else it does is its [`MockControl`]'s (it
/// dereferences to it).
pub struct MockHandle {
    control: MockControl,
    shutdown: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
    agent_task: tokio::task::JoinHandle<()>,
}

/// Starts an emulator on the current tokio runtime, on a free port of 127.0.0.1.
pub async fn spawn(opts: MockOptions) -> io::Result<MockHandle> {
    spawn_on(opts, 0).await
}

/// Like [`spawn`], on the given port of 127.0.0.1 (0 picks a free one), for the binary's
/// `--port`. The agent API listens on `opts.agent_port`.
pub async fn spawn_on(opts: MockOptions, port: u16) -> io::Result<MockHandle> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let agent_listener = tokio::net::TcpListener::bind(("127.0.0.1", opts.agent_port)).await?;
    let addrs = MockAddrs {
        management: listener.local_addr()?,
        agent: agent_listener.local_addr()?,
    };
    let shared = Arc::new(Shared::new(&opts, addrs.management_url()));
    let (tx, rx) = oneshot::channel();
    let task = tokio::spawn(server::run(listener, Arc::clone(&shared), rx));
    let agent_task = tokio::spawn(agent::serve(agent_listener, Arc::clone(&shared)));
    Ok(MockHandle {
        control: MockControl::new(addrs, shared),
        shutdown: Some(tx),
        task,
        agent_task,
    })
}

impl MockHandle {
    /// Stops accepting connections, stops every tunnel and waits for the server loop to end.
    pub async fn shutdown(mut self) {
        self.shutdown.take();
        self.agent_task.abort();
        self.control.shared().agent.stop_all();
        let _ = (&mut self.task).await;
    }
}

impl Deref for MockHandle {
    type Target = MockControl;

    fn deref(&self) -> &MockControl {
        &self.control
    }
}

impl Drop for MockHandle {
    fn drop(&mut self) {
        self.shutdown.take();
        self.agent_task.abort();
        self.control.shared().agent.stop_all();
    }
}
