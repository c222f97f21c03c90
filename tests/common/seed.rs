//! Seeding helpers: the emulator's state built through its control surface. Seeding is not an
//! API request, so the request log stays empty and no test needs to clear it after seeding.

use serde_json::{json, Value};

use super::Env;

/// A Kinesis stream every seeded destination delivers to.
pub const KINESIS: &str = "arn:aws:kinesis:us-east-1:123456789012:stream/events";
/// The role every seeded destination is reached through.
pub const ROLE: &str = "arn:aws:iam::123456789012:role/deliver";

/// The strings of a JSON array (the ids a seed returns, for instance).
#[track_caller]
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| {
            s.as_str()
                .unwrap_or_else(|| panic!("not a string: {s}"))
                .to_string()
        })
        .collect()
}

/// The `id` of each object in a JSON array (the items of a list, Refs, ...).
#[track_caller]
pub fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|i| {
            i["id"]
                .as_str()
                .unwrap_or_else(|| panic!("no id: {i}"))
                .to_string()
        })
        .collect()
}

/// Sorted, to compare sets of ids whatever their order.
pub fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// A create body for the seed: a Kinesis target reached through a role.
pub fn kinesis_body(description: &str) -> Value {
    json!({
        "description": description,
        "target": {"kinesis": {"auth": {"role": {"role_arn": ROLE}}, "stream_arn": KINESIS}},
    })
}

impl Env {
    /// An emulator with 50 Linux sessions whose every answer takes `latency_ms` and whose
    /// restarts take a minute (a fleet operation that is still running when a test acts).
    pub fn slow_fleet(latency_ms: u64) -> Env {
        let env = Env::with(tunnelctl_mock::MockOptions {
            latency_ms,
            restart_delay_ms: 60_000,
            ..Default::default()
        });
        let list: Vec<Value> = (0..50)
            .map(|i| json!({"os": "linux", "ip": format!("198.51.100.{i}")}))
            .collect();
        env.seed_sessions(list);
        env
    }

    /// Seeds `spec` and returns the ids created under `key`, in creation order.
    pub fn seed_ids(&self, key: &str, spec: Value) -> Vec<String> {
        strings(&self.seed(spec)[key])
    }

    /// Seeds sessions from these seed items; their ids in order.
    pub fn seed_sessions(&self, sessions: impl Into<Value>) -> Vec<String> {
        self.seed_ids("sessions", json!({ "sessions": sessions.into() }))
    }

    /// Seeds `n` generated sessions (varied regions, systems and versions).
    pub fn seed_session_count(&self, n: usize) -> Vec<String> {
        self.seed_ids("sessions", json!({ "session_count": n }))
    }

    /// Seeds `n` IP policies, described "policy 1" to "policy N".
    pub fn seed_ip_policies(&self, n: usize) -> Vec<String> {
        self.seed_ids("ip_policies", json!({ "ip_policy_count": n }))
    }

    /// Seeds tunnel-group backends from create bodies.
    pub fn seed_backends(&self, bodies: impl Into<Value>) -> Vec<String> {
        self.seed_ids("backends", json!({ "backends": bodies.into() }))
    }

    /// Three tunnels: prod web (zone a), prod api, staging web.
    pub fn seed_tunnels(&self) -> Vec<String> {
        self.seed_ids(
            "tunnels",
            json!({"tunnels": [
                {"labels": {"env": "prod", "app": "web", "zone": "a"}},
                {"labels": {"env": "prod", "app": "api"}},
                {"labels": {"env": "staging", "app": "web"}}
            ]}),
        )
    }

    /// Seeds `n` destinations ([`kinesis_body`], described "dest 1" to "dest N").
    pub fn seed_destinations(&self, n: usize) -> Vec<String> {
        let bodies: Vec<Value> = (1..=n)
            .map(|i| kinesis_body(&format!("dest {i}")))
            .collect();
        self.seed_ids(
            "event_destinations",
            json!({ "event_destinations": bodies }),
        )
    }

    /// Seeds event subscriptions from create bodies.
    pub fn seed_subscriptions(&self, bodies: impl Into<Value>) -> Vec<String> {
        self.seed_ids(
            "event_subscriptions",
            json!({ "event_subscriptions": bodies.into() }),
        )
    }

    /// Seeds one event subscription from its create body; its id.
    pub fn seed_subscription(&self, body: Value) -> String {
        self.seed_subscriptions(vec![body]).remove(0)
    }

    /// Seeds one TLS edge with this module (`null`: none); its id.
    pub fn seed_tls_edge(&self, module: Value) -> String {
        self.seed_ids("tls_edges", json!({"tls_edges": [{ "module": module }]}))
            .remove(0)
    }

    /// The items the emulator holds under this state key, newest first.
    pub fn stored_all(&self, key: &str) -> Vec<Value> {
        let state = self.mock.state();
        state[key]
            .as_array()
            .unwrap_or_else(|| panic!("no {key} in the state: {state}"))
            .clone()
    }

    /// The item the emulator holds under this state key and id (None when it is gone).
    pub fn stored(&self, key: &str, id: &str) -> Option<Value> {
        self.stored_all(key).into_iter().find(|i| i["id"] == id)
    }
}

/// Five captures of every kind the `local requests list` filters tell apart (two tunnels,
/// methods, 2xx/4xx/5xx and pending, a Stripe signature, JSON and text bodies), oldest first,
/// the oldest captured at `oldest_start`; their IDs in that order.
pub fn capture_kinds(env: &Env, oldest_start: &str) -> Vec<String> {
    strings(&env.mock.seed_captures(json!([
        {"tunnel_name": "a (http)", "method": "POST", "uri": "/hooks/stripe?x=1", "status_code": 200,
         "headers": {"Content-Type": ["application/json"], "Stripe-Signature": ["t=1"]},
         "body": "{\"type\":\"invoice.paid\"}", "start": oldest_start},
        {"tunnel_name": "a (http)", "method": "POST", "uri": "/hooks/github", "status_code": 500,
         "headers": {"X-GitHub-Event": ["push"]}, "body": "{}"},
        {"tunnel_name": "b (http)", "method": "GET", "uri": "/status", "status_code": 404},
        {"tunnel_name": "a (http)", "method": "PUT", "uri": "/items/7", "status_code": 201,
         "response_body": "created invoice.paid"},
        {"tunnel_name": "a (http)", "method": "POST", "uri": "/hooks/slow", "pending": true}
    ])))
}
