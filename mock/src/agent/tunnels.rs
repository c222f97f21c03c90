//! The running tunnels: starting a definition's legs (one loopback listener each),
//! replacing a leg of the same name, stopping legs, and rendering a leg as the API shows it.
//!
//! A leg owns its listener task; dropping the leg (stop, replace, reset, or the emulator
//! going away) aborts the task, which closes the listener and every connection on it.

use std::collections::BTreeMap;
use std::sync::Arc;

use rand::Rng;
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio::task::AbortHandle;

use super::agent_error::AgentError;
use super::captures::Captures;
use super::config::{LegKind, TunnelSpec, Upstream};
use super::encode::xml_elem;
use super::metrics::Metrics;
use super::proxy::{self, LegCtx};

/// One started leg of a tunnel.
#[derive(Debug)]
pub struct Leg {
    /// Creation order, for listings that should be stable.
    seq: u64,
    /// The port visitors connect to (127.0.0.1).
    pub edge_port: u16,
    /// What connections need (name, upstream, metrics, ...).
    pub ctx: Arc<LegCtx>,
    task: AbortHandle,
}

impl Drop for Leg {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Go's `url.PathEscape`, as the agent uses for a tunnel's `uri`.
pub fn path_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'_' | b'.' | b'~' | b'$' | b'&' | b'+' | b':' | b'=' | b'@'
            );
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl Leg {
    /// The tunnel resource.
    pub fn to_json(&self) -> Value {
        json!({
            "name": self.ctx.name,
            "uri": format!("/api/tunnels/{}", path_escape(&self.ctx.name)),
            "public_url": self.ctx.public_url,
            "proto": self.ctx.kind.proto(),
            "config": {"addr": self.ctx.addr, "inspect": self.ctx.inspect},
            "metrics": self.ctx.metrics.snapshot().to_json(),
        })
    }

    /// The tunnel resource as XML, inside `<element>`.
    pub fn push_xml(&self, out: &mut String, element: &str) {
        out.push('<');
        out.push_str(element);
        out.push('>');
        xml_elem(out, "Name", &self.ctx.name);
        xml_elem(
            out,
            "URI",
            &format!("/api/tunnels/{}", path_escape(&self.ctx.name)),
        );
        xml_elem(out, "PublicURL", &self.ctx.public_url);
        xml_elem(out, "Proto", self.ctx.kind.proto());
        out.push_str("<Config>");
        xml_elem(out, "Addr", &self.ctx.addr);
        xml_elem(
            out,
            "Inspect",
            if self.ctx.inspect { "true" } else { "false" },
        );
        out.push_str("</Config>");
        self.ctx.metrics.snapshot().push_xml(out);
        out.push_str("</");
        out.push_str(element);
        out.push('>');
    }

    /// The control surface's view: where to connect to visit this leg.
    pub fn edge_json(&self) -> Value {
        json!({
            "name": self.ctx.name,
            "proto": self.ctx.kind.proto(),
            "public_url": self.ctx.public_url,
            "edge_port": self.edge_port,
        })
    }
}

/// Every running leg, by name.
#[derive(Debug, Default)]
pub struct RunningTunnels {
    legs: BTreeMap<String, Leg>,
    next_seq: u64,
}

/// Where a leg forwards to, for replays.
#[derive(Debug, Clone)]
pub struct Target {
    /// The leg's context (upstream, inspect, name).
    pub ctx: Arc<LegCtx>,
}

impl RunningTunnels {
    /// The leg with this name.
    pub fn get(&self, name: &str) -> Option<&Leg> {
        self.legs.get(name)
    }

    /// Removes (and so stops) a leg; false when there is none by that name.
    pub fn remove(&mut self, name: &str) -> bool {
        self.legs.remove(name).is_some()
    }

    /// Stops every leg.
    pub fn clear(&mut self) {
        self.legs.clear();
    }

    /// Every leg, in creation order.
    pub fn in_order(&self) -> Vec<&Leg> {
        let mut legs: Vec<&Leg> = self.legs.values().collect();
        legs.sort_by_key(|l| l.seq);
        legs
    }

    /// Every leg in random order, as `GET /api/tunnels` lists them.
    pub fn shuffled(&self) -> Vec<&Leg> {
        use rand::seq::SliceRandom;
        let mut legs: Vec<&Leg> = self.legs.values().collect();
        legs.shuffle(&mut rand::rng());
        legs
    }

    fn insert(&mut self, mut leg: Leg) {
        leg.seq = self.next_seq;
        self.next_seq += 1;
        // Replacing drops the old leg, which stops it.
        self.legs.insert(leg.ctx.name.clone(), leg);
    }
}

fn random_host() -> String {
    format!("{:08x}.tunnel.test", rand::rng().random::<u32>())
}

/// A started but not yet registered leg.
pub struct Started {
    leg: Leg,
}

/// Binds and starts the listeners of every leg of `spec` (nothing is registered until all
/// are bound, so a failure leaves the running tunnels as they were).
pub async fn start(
    spec: &TunnelSpec,
    captures: &Arc<Captures>,
) -> Result<Vec<Started>, AgentError> {
    let mut started = Vec::new();
    for (name, kind) in &spec.legs {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| AgentError::start_failed(format!("cannot listen on 127.0.0.1: {e}")))?;
        let port = listener
            .local_addr()
            .map_err(|e| AgentError::start_failed(e.to_string()))?
            .port();
        let host = spec.host.clone().unwrap_or_else(random_host);
        let public_url = match kind {
            LegKind::Https => format!("https://{host}"),
            LegKind::Http => format!("http://127.0.0.1:{port}"),
            LegKind::Tcp => format!("tcp://127.0.0.1:{port}"),
            LegKind::Tls => format!("tls://{host}"),
        };
        let ctx = Arc::new(LegCtx {
            name: name.clone(),
            kind: *kind,
            upstream: Upstream::clone(&spec.upstream),
            addr: spec.addr.clone(),
            public_url,
            inspect: spec.inspect,
            metrics: Arc::new(Metrics::default()),
            captures: Arc::clone(captures),
        });
        let task = tokio::spawn(proxy::run(listener, Arc::clone(&ctx))).abort_handle();
        started.push(Started {
            leg: Leg {
                seq: 0,
                edge_port: port,
                ctx,
                task,
            },
        });
    }
    Ok(started)
}

/// Registers started legs (replacing legs of the same names); returns the first leg's JSON,
/// which is what `POST /api/tunnels` answers.
pub fn register(tunnels: &mut RunningTunnels, started: Vec<Started>) -> Value {
    let mut first = None;
    for s in started {
        if first.is_none() {
            first = Some(s.leg.to_json());
        }
        tunnels.insert(s.leg);
    }
    first.unwrap_or(Value::Null)
}

impl Target {
    /// The replay target named `name`.
    pub fn of(tunnels: &RunningTunnels, name: &str) -> Option<Target> {
        tunnels.get(name).map(|l| Target {
            ctx: Arc::clone(&l.ctx),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_escaped_like_go() {
        assert_eq!(path_escape("t1 (http)"), "t1%20%28http%29");
        assert_eq!(path_escape("a/b"), "a%2Fb");
        assert_eq!(
            path_escape("s$&+,:;=@!*'()[]~_.-"),
            "s$&+%2C:%3B=@%21%2A%27%28%29%5B%5D~_.-"
        );
        assert_eq!(path_escape("é x"), "%C3%A9%20x");
    }
}
