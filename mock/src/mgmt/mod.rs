//! The management API: the route table that maps a method and decoded path segments to a
//! handler — the CRUD engine (`crud`) for the collections' usual verbs, a resource module for
//! the rest — and the emulator's view of every collection (`/_mock/state`).
//!
//! Routing is done here by hand on the segments of the raw path rather than by a router, so
//! that a percent-encoded `/` inside an id stays inside its segment (`..%2Ftunnel_sessions` is
//! an unknown IP policy id, never a path to another endpoint), exactly as the real service
//! must treat it.

pub mod backends;
pub mod crud;
pub mod event_destinations;
pub mod event_subscriptions;
pub mod ip_policies;
pub mod request;
pub mod sessions;
pub mod tls_termination;

use serde_json::{json, Value};

use crate::api_error::ApiError;
use crate::shared::Shared;
use crate::store::Store;
use crate::sync::lock;

use backends::{Backends, Tunnels};
use crud::{route, state};
use event_destinations::Destinations;
use event_subscriptions::Subscriptions;
use ip_policies::IpPolicies;
use request::{ApiRequest, Ctx, Reply};
use sessions::Sessions;
use tls_termination::TlsEdges;

/// Handles one authenticated API request.
pub fn dispatch(shared: &Shared, req: &ApiRequest<'_>, raw_path: &str) -> Result<Reply, ApiError> {
    let cfg = shared.config();
    let ctx = Ctx::new(&shared.base_url, &cfg);
    let segs: Vec<&str> = req.segments.iter().map(String::as_str).collect();
    let mut store = lock(&shared.store);
    let now = shared.clock.now();
    store.settle(now);
    let s: &mut Store = &mut store;
    let m = req.method;
    let not_allowed = |allowed: &[&str]| -> Result<Reply, ApiError> {
        Err(ApiError::method_not_allowed(m, allowed))
    };
    let routed = match segs.as_slice() {
        ["tunnel_sessions"] => Some(match m {
            "GET" => crud::list::<Sessions>(s, req, &ctx),
            _ => not_allowed(&["GET"]),
        }),
        ["tunnel_sessions", id] => Some(match m {
            "GET" => crud::get::<Sessions>(s, id, &ctx),
            _ => not_allowed(&["GET"]),
        }),
        ["tunnel_sessions", id, command @ ("restart" | "stop" | "update")] => Some(match m {
            "POST" => sessions::command(s, req, id, command, &cfg, now),
            _ => not_allowed(&["POST"]),
        }),
        ["edges", "tls", id, "tls_termination"] => Some(match m {
            "GET" => tls_termination::get(s, id, &ctx),
            "PUT" => tls_termination::put(s, req, id, &ctx),
            "DELETE" => tls_termination::delete(s, id),
            _ => not_allowed(&["GET", "PUT", "DELETE"]),
        }),
        ["event_subscriptions", id, "sources"] => Some(match m {
            "GET" => event_subscriptions::list_sources(s, id, &ctx),
            "POST" => event_subscriptions::add_source(s, req, id, &ctx),
            _ => not_allowed(&["GET", "POST"]),
        }),
        ["event_subscriptions", id, "sources", kind] => Some(match m {
            "GET" => event_subscriptions::get_source(s, id, kind, &ctx),
            "PATCH" => event_subscriptions::update_source(s, req, id, kind, &ctx),
            "DELETE" => event_subscriptions::delete_source(s, id, kind),
            _ => not_allowed(&["GET", "PATCH", "DELETE"]),
        }),
        ["ip_policies", rest @ ..] => route::<IpPolicies>(s, req, rest, &ctx),
        ["backends", "tunnel_group", rest @ ..] => route::<Backends>(s, req, rest, &ctx),
        ["event_destinations", rest @ ..] => route::<Destinations>(s, req, rest, &ctx),
        ["event_subscriptions", rest @ ..] => route::<Subscriptions>(s, req, rest, &ctx),
        _ => None,
    };
    routed.unwrap_or_else(|| Err(ApiError::no_route(raw_path)))
}

/// Every resource as the API renders it, newest first, by collection (for `/_mock/state`).
pub fn render_state(store: &Store, ctx: &Ctx<'_>) -> Value {
    json!({
        "tunnel_sessions": state::<Sessions>(store, ctx),
        "pending_restarts": store.pending_restarts.len(),
        "ip_policies": state::<IpPolicies>(store, ctx),
        "backends": state::<Backends>(store, ctx),
        "tunnels": state::<Tunnels>(store, ctx),
        "tls_edges": state::<TlsEdges>(store, ctx),
        "event_destinations": state::<Destinations>(store, ctx),
        "event_subscriptions": state::<Subscriptions>(store, ctx),
    })
}
