//! Turning a seed spec into resources: explicit items, generated bulk (for benchmarks), and a
//! small realistic demo set (for the README's first command and for people trying the CLI).
//!
//! Sessions, tunnels and TLS edges can only come from here, since the API cannot create them.
//! Resources the API can create go through the same validation as the API.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{json, Map, Value};

use crate::api_error::ApiError;
use crate::input::Fields;
use crate::mgmt::backends::Backends;
use crate::mgmt::crud::{insert, Changes, Editable};
use crate::mgmt::event_destinations::Destinations;
use crate::mgmt::event_subscriptions::Subscriptions;
use crate::mgmt::ip_policies::IpPolicies;
use crate::mgmt::sessions::next_minor;
use crate::mgmt::tls_termination;
use crate::store::{Session, Store, TlsEdge, Tunnel, UpdatePhase};
use crate::timestamp;

const KEYS: &[&str] = &[
    "demo",
    "sessions",
    "session_count",
    "ip_policies",
    "ip_policy_count",
    "tls_edges",
    "tls_edge_count",
    "tunnels",
    "backends",
    "event_destinations",
    "event_subscriptions",
];

const SESSION_KEYS: &[&str] = &[
    "region",
    "os",
    "agent_version",
    "ip",
    "metadata",
    "credential_id",
    "update_available",
    "update_checks_disabled",
    "updating",
    "update_duration_ms",
    "started_at",
];

/// Ids created by one seed, by collection.
#[derive(Debug, Default)]
struct Created {
    sessions: Vec<String>,
    ip_policies: Vec<String>,
    tls_edges: Vec<String>,
    tunnels: Vec<String>,
    backends: Vec<String>,
    event_destinations: Vec<String>,
    event_subscriptions: Vec<String>,
}

impl Created {
    fn to_json(&self) -> Value {
        json!({
            "sessions": self.sessions,
            "ip_policies": self.ip_policies,
            "tls_edges": self.tls_edges,
            "tunnels": self.tunnels,
            "backends": self.backends,
            "event_destinations": self.event_destinations,
            "event_subscriptions": self.event_subscriptions,
        })
    }
}

/// Adds what `spec` describes to `store` and returns the new ids by collection. Items are
/// created in this order: demo, sessions, ip policies, TLS edges, tunnels, backends,
/// destinations, subscriptions (so subscriptions may name destinations of the same seed).
/// A failure stops at the faulty item; items before it stay.
pub fn apply(store: &mut Store, spec: &Value) -> Result<Value, ApiError> {
    let f = Fields::control(spec, "A seed", KEYS)?;
    let mut created = Created::default();
    if f.boolean("demo")?.unwrap_or(false) {
        demo(store, &mut created)?;
    }
    let explicit = objects(&f, "sessions")?;
    let n = explicit.len();
    for (i, item) in explicit.into_iter().enumerate() {
        let path = format!("sessions[{i}]");
        let id = session(store, &Fields::nested(item, &path), i, n - 1 - i)?;
        created.sessions.push(id);
    }
    let n = count(&f, "session_count")?;
    for i in 0..n {
        let id = generated_session(store, i, n - 1 - i);
        created.sessions.push(id);
    }
    for item in objects(&f, "ip_policies")? {
        created.ip_policies.push(insert::<IpPolicies>(store, item)?);
    }
    let now = timestamp::now();
    for n in 1..=count(&f, "ip_policy_count")? {
        let id = store.ids.next(IpPolicies::PREFIX);
        let changes = Changes {
            description: Some(format!("policy {n}")),
            metadata: None,
            own: (),
        };
        let policy = IpPolicies::build(id.clone(), now.clone(), changes);
        store.ip_policies.insert(id.clone(), policy);
        created.ip_policies.push(id);
    }
    for (i, item) in objects(&f, "tls_edges")?.into_iter().enumerate() {
        let path = format!("tls_edges[{i}]");
        let ef = Fields::nested(item, &path);
        ef.only(&["module"])?;
        let module = match ef.object("module")? {
            Some(m) => Some(tls_termination::parse_module(&Fields::nested(
                m,
                &format!("{path}.module"),
            ))?),
            None => None,
        };
        created.tls_edges.push(tls_edge(store, module));
    }
    for _ in 0..count(&f, "tls_edge_count")? {
        created.tls_edges.push(tls_edge(store, None));
    }
    for (i, item) in objects(&f, "tunnels")?.into_iter().enumerate() {
        let path = format!("tunnels[{i}]");
        let tf = Fields::nested(item, &path);
        tf.only(&["labels"])?;
        let labels = tf.labels("labels")?.unwrap_or_default();
        created.tunnels.push(tunnel(store, labels));
    }
    for item in objects(&f, "backends")? {
        created.backends.push(insert::<Backends>(store, item)?);
    }
    for item in objects(&f, "event_destinations")? {
        created
            .event_destinations
            .push(insert::<Destinations>(store, item)?);
    }
    for item in objects(&f, "event_subscriptions")? {
        created
            .event_subscriptions
            .push(insert::<Subscriptions>(store, item)?);
    }
    Ok(created.to_json())
}

fn objects<'a>(f: &Fields<'a>, key: &str) -> Result<Vec<&'a Map<String, Value>>, ApiError> {
    f.items(key)?
        .unwrap_or_default()
        .into_iter()
        .map(|(path, v)| match v {
            Value::Object(m) => Ok(m),
            _ => Err(ApiError::invalid(
                &path,
                format!("{path} must be an object."),
            )),
        })
        .collect()
}

fn count(f: &Fields<'_>, key: &str) -> Result<u64, ApiError> {
    Ok(f.uint(key)?.unwrap_or(0))
}

/// A session from its seed fields. `index` varies the default IP; `age_rank` orders the default
/// start times so that later-created (newer-id) sessions also started later, as in real life.
fn session(
    store: &mut Store,
    f: &Fields<'_>,
    index: usize,
    age_rank: usize,
) -> Result<String, ApiError> {
    f.only(SESSION_KEYS)?;
    let agent_version = f.string("agent_version")?.unwrap_or("3.19.1").to_string();
    // Absent means "the next minor version"; an explicit null means none is available.
    let update_available = if f.has("update_available") {
        f.string("update_available")?.map(str::to_string)
    } else {
        next_minor(&agent_version)
    };
    let updating = f.boolean("updating")?.unwrap_or(false);
    let update = match (&update_available, updating) {
        (_, false) => UpdatePhase::Idle,
        (Some(v), true) => UpdatePhase::Updating {
            until: None,
            version: v.clone(),
        },
        (None, true) => UpdatePhase::Updating {
            until: None,
            version: agent_version.clone(),
        },
    };
    let credential_id = match f.string("credential_id")? {
        Some(c) => c.to_string(),
        None => store.ids.next("cr_"),
    };
    let s = Session {
        id: store.ids.next("ts_"),
        credential_id,
        ip: f
            .string("ip")?
            .map_or_else(|| format!("203.0.113.{}", 10 + index % 240), str::to_string),
        metadata: f.string("metadata")?.unwrap_or_default().to_string(),
        os: f.string("os")?.unwrap_or("linux").to_string(),
        region: f.string("region")?.unwrap_or("us").to_string(),
        started_at: f.string("started_at")?.map_or_else(
            || timestamp::before_now(Duration::from_secs(60 * (5 + 17 * age_rank as u64))),
            str::to_string,
        ),
        agent_version,
        update_available,
        update_checks_disabled: f.boolean("update_checks_disabled")?.unwrap_or(false),
        update_duration: Duration::from_millis(f.uint("update_duration_ms")?.unwrap_or(0)),
        update,
    };
    let id = s.id.clone();
    store.sessions.insert(id.clone(), s);
    Ok(id)
}

fn generated_session(store: &mut Store, i: u64, age_rank: u64) -> String {
    const REGIONS: [&str; 3] = ["us", "eu", "ap"];
    const OSES: [&str; 5] = ["linux", "darwin", "linux", "windows", "linux"];
    const VERSIONS: [&str; 3] = ["3.18.4", "3.19.1", "3.20.0"];
    let idx = usize::try_from(i).unwrap_or(0);
    let agent_version = VERSIONS[(idx / 2) % VERSIONS.len()].to_string();
    let s = Session {
        id: store.ids.next("ts_"),
        credential_id: store.ids.next("cr_"),
        ip: format!("198.51.{}.{}", 100 + (idx / 250) % 100, 1 + idx % 250),
        metadata: String::new(),
        os: OSES[(idx / 3) % OSES.len()].to_string(),
        region: REGIONS[idx % REGIONS.len()].to_string(),
        started_at: timestamp::before_now(Duration::from_secs(60 * (1 + 7 * age_rank))),
        update_available: next_minor(&agent_version),
        agent_version,
        update_checks_disabled: false,
        update_duration: Duration::ZERO,
        update: UpdatePhase::Idle,
    };
    let id = s.id.clone();
    store.sessions.insert(id.clone(), s);
    id
}

fn tls_edge(store: &mut Store, module: Option<crate::store::TlsModule>) -> String {
    let id = store.ids.next("edgtls_");
    store.tls_edges.insert(
        id.clone(),
        TlsEdge {
            id: id.clone(),
            module,
        },
    );
    id
}

fn tunnel(store: &mut Store, labels: BTreeMap<String, String>) -> String {
    let id = store.ids.next("tn_");
    store.tunnels.insert(
        id.clone(),
        Tunnel {
            id: id.clone(),
            labels,
        },
    );
    id
}

fn as_map(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// The demo set: 6 sessions, 3 IP policies, 1 tunnel and 1 backend matching it, 1 TLS edge
/// with a module, 1 event destination and 1 subscription to it.
fn demo(store: &mut Store, created: &mut Created) -> Result<(), ApiError> {
    // Oldest first, so that the newest id is also the most recent start.
    let day = 86400;
    let sessions = [
        json!({"region": "us", "os": "linux", "agent_version": "3.18.4", "ip": "203.0.113.99",
               "update_checks_disabled": true, "started_at": timestamp::before_now(Duration::from_secs(7 * day))}),
        json!({"region": "us", "os": "windows", "agent_version": "3.19.1", "ip": "203.0.113.45",
               "started_at": timestamp::before_now(Duration::from_secs(2 * day))}),
        json!({"region": "eu", "os": "linux", "agent_version": "3.19.1", "ip": "198.51.100.22",
               "metadata": "{\"host\":\"web-2\"}", "started_at": timestamp::before_now(Duration::from_secs(26 * 3600))}),
        json!({"region": "us", "os": "linux", "agent_version": "3.19.1", "ip": "203.0.113.10",
               "metadata": "{\"host\":\"web-1\"}", "started_at": timestamp::before_now(Duration::from_secs(3 * 3600))}),
        json!({"region": "eu", "os": "linux", "agent_version": "3.20.0", "ip": "198.51.100.80",
               "update_available": null, "started_at": timestamp::before_now(Duration::from_secs(40 * 60))}),
        json!({"region": "ap", "os": "darwin", "agent_version": "3.18.4", "ip": "192.0.2.7",
               "started_at": timestamp::before_now(Duration::from_secs(5 * 60))}),
    ];
    for (i, s) in sessions.into_iter().enumerate() {
        let m = as_map(s);
        created
            .sessions
            .push(session(store, &Fields::root(&m), i, 0)?);
    }
    let policies = [
        json!({"description": "office network", "metadata": "{\"team\":\"it\"}"}),
        json!({"description": "ci runners", "metadata": ""}),
        json!({"description": "partner vpn", "metadata": "{\"partner\":\"acme\"}"}),
    ];
    for p in policies {
        created
            .ip_policies
            .push(insert::<IpPolicies>(store, &as_map(p))?);
    }
    let labels: BTreeMap<String, String> = [("app", "web"), ("env", "prod")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    created.tunnels.push(tunnel(store, labels));
    let backend = json!({"description": "web production", "metadata": "",
                         "labels": {"app": "web", "env": "prod"}});
    created
        .backends
        .push(insert::<Backends>(store, &as_map(backend))?);
    created.tls_edges.push(tls_edge(
        store,
        Some(crate::store::TlsModule {
            enabled: true,
            terminate_at: "edge".to_string(),
            min_version: Some("1.2".to_string()),
        }),
    ));
    let destination = json!({
        "description": "audit stream",
        "metadata": "",
        "format": "json",
        "target": {"kinesis": {
            "auth": {"role": {"role_arn": "arn:aws:iam::123456789012:role/tunnel-events"}},
            "stream_arn": "arn:aws:kinesis:us-east-1:123456789012:stream/tunnel-events",
        }},
    });
    let ed = insert::<Destinations>(store, &as_map(destination))?;
    created.event_destinations.push(ed.clone());
    let subscription = json!({
        "description": "policy changes",
        "metadata": "",
        "sources": [{"type": "ip_policy_created.v0"}, {"type": "ip_policy_updated.v0"}],
        "destination_ids": [ed],
    });
    created
        .event_subscriptions
        .push(insert::<Subscriptions>(store, &as_map(subscription))?);
    Ok(())
}
