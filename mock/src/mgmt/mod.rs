//! The management API: the route table that maps a method and decoded path segments to one
//! resource module's handler, and what those handlers share (request, reply, render context).
//!
//! Routing is done here by hand on the segments of the raw path rather than by a router, so
//! that a percent-encoded `/` inside an id stays inside its segment (`..%2Ftunnel_sessions` is
//! an unknown IP policy id, never a path to another endpoint), exactly as the real service
//! must treat it.

pub mod backends;
pub mod destinations;
pub mod ip_policies;
pub mod sessions;
pub mod subscriptions;
pub mod tls;

use std::time::Instant;

use serde_json::{json, Map, Value};

use crate::errors::ApiError;
use crate::input::parse_object;
use crate::shared::{Config, Shared};
use crate::store::Store;
use crate::sync::lock;

/// What rendering needs to know: where the API lives and which quirks are switched on.
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    /// Base URL for `uri` fields.
    pub base: &'a str,
    /// Whether to add `x_future_field` to resources.
    pub extra_fields: bool,
    /// Default page size.
    pub page_size: usize,
    /// Base for `next_page_uri`, when not `base`.
    pub next_page_base: Option<&'a str>,
}

impl<'a> Ctx<'a> {
    /// The context for the current settings.
    pub fn new(base: &'a str, cfg: &'a Config) -> Self {
        Ctx {
            base,
            extra_fields: cfg.extra_fields,
            page_size: cfg.page_size,
            next_page_base: cfg.next_page_base.as_deref(),
        }
    }

    /// Absolute URL of a path.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// A `{id, uri}` reference to `{collection_path}/{id}`.
    pub fn reference(&self, collection_path: &str, id: &str) -> Value {
        json!({"id": id, "uri": self.url(&format!("{collection_path}/{id}"))})
    }

    /// Adds the unknown field to a rendered resource when `extra_fields` is on.
    pub fn finish(&self, mut resource: Map<String, Value>) -> Value {
        if self.extra_fields {
            resource.insert(
                "x_future_field".to_string(),
                json!({"added": "later", "n": [1, 2]}),
            );
        }
        Value::Object(resource)
    }
}

/// An authenticated API request, ready for a handler.
#[derive(Debug)]
pub struct ApiRequest<'a> {
    /// HTTP method, upper case.
    pub method: &'a str,
    /// Percent-decoded path segments.
    pub segments: &'a [String],
    /// Raw query string.
    pub query: Option<&'a str>,
    /// `Content-Type` header.
    pub content_type: Option<&'a str>,
    /// Body bytes.
    pub body: &'a [u8],
}

impl ApiRequest<'_> {
    /// The body as a JSON object (see [`parse_object`]).
    pub fn json(&self) -> Result<Map<String, Value>, ApiError> {
        parse_object(self.content_type, self.body)
    }
}

/// A successful answer.
#[derive(Debug)]
pub enum Reply {
    /// A JSON body with this status.
    Json(u16, Value),
    /// 204, no body.
    NoContent,
}

/// Handles one authenticated API request.
pub fn dispatch(shared: &Shared, req: &ApiRequest<'_>, raw_path: &str) -> Result<Reply, ApiError> {
    let cfg = shared.config();
    let ctx = Ctx::new(&shared.base_url, &cfg);
    let segs: Vec<&str> = req.segments.iter().map(String::as_str).collect();
    let mut store = lock(&shared.store);
    let now = Instant::now();
    store.settle(now);
    let s: &mut Store = &mut store;
    let m = req.method;
    let not_allowed = |allowed: &[&str]| -> Result<Reply, ApiError> {
        Err(ApiError::method_not_allowed(m, allowed))
    };
    match segs.as_slice() {
        ["tunnel_sessions"] => match m {
            "GET" => sessions::list(s, req, &ctx),
            _ => not_allowed(&["GET"]),
        },
        ["tunnel_sessions", id] => match m {
            "GET" => sessions::get(s, id, &ctx),
            _ => not_allowed(&["GET"]),
        },
        ["tunnel_sessions", id, command @ ("restart" | "stop" | "update")] => match m {
            "POST" => sessions::command(s, req, id, command, &cfg, now),
            _ => not_allowed(&["POST"]),
        },
        ["ip_policies"] => match m {
            "GET" => ip_policies::list(s, req, &ctx),
            "POST" => ip_policies::create(s, req, &ctx),
            _ => not_allowed(&["GET", "POST"]),
        },
        ["ip_policies", id] => match m {
            "GET" => ip_policies::get(s, id, &ctx),
            "PATCH" => ip_policies::update(s, req, id, &ctx),
            "DELETE" => ip_policies::delete(s, id),
            _ => not_allowed(&["GET", "PATCH", "DELETE"]),
        },
        ["backends", "tunnel_group"] => match m {
            "GET" => backends::list(s, req, &ctx),
            "POST" => backends::create(s, req, &ctx),
            _ => not_allowed(&["GET", "POST"]),
        },
        ["backends", "tunnel_group", id] => match m {
            "GET" => backends::get(s, id, &ctx),
            "PATCH" => backends::update(s, req, id, &ctx),
            "DELETE" => backends::delete(s, id),
            _ => not_allowed(&["GET", "PATCH", "DELETE"]),
        },
        ["edges", "tls", id, "tls_termination"] => match m {
            "GET" => tls::get(s, id, &ctx),
            "PUT" => tls::put(s, req, id, &ctx),
            "DELETE" => tls::delete(s, id),
            _ => not_allowed(&["GET", "PUT", "DELETE"]),
        },
        ["event_destinations"] => match m {
            "GET" => destinations::list(s, req, &ctx),
            "POST" => destinations::create(s, req, &ctx),
            _ => not_allowed(&["GET", "POST"]),
        },
        ["event_destinations", id] => match m {
            "GET" => destinations::get(s, id, &ctx),
            "PATCH" => destinations::update(s, req, id, &ctx),
            "DELETE" => destinations::delete(s, id),
            _ => not_allowed(&["GET", "PATCH", "DELETE"]),
        },
        ["event_subscriptions"] => match m {
            "GET" => subscriptions::list(s, req, &ctx),
            "POST" => subscriptions::create(s, req, &ctx),
            _ => not_allowed(&["GET", "POST"]),
        },
        ["event_subscriptions", id] => match m {
            "GET" => subscriptions::get(s, id, &ctx),
            "PATCH" => subscriptions::update(s, req, id, &ctx),
            "DELETE" => subscriptions::delete(s, id),
            _ => not_allowed(&["GET", "PATCH", "DELETE"]),
        },
        ["event_subscriptions", id, "sources"] => match m {
            "GET" => subscriptions::list_sources(s, id, &ctx),
            "POST" => subscriptions::add_source(s, req, id, &ctx),
            _ => not_allowed(&["GET", "POST"]),
        },
        ["event_subscriptions", id, "sources", kind] => match m {
            "GET" => subscriptions::get_source(s, id, kind, &ctx),
            "PATCH" => subscriptions::update_source(s, req, id, kind, &ctx),
            "DELETE" => subscriptions::delete_source(s, id, kind),
            _ => not_allowed(&["GET", "PATCH", "DELETE"]),
        },
        _ => Err(ApiError::no_route(raw_path)),
    }
}

/// A list page of `map` as its envelope: parses `limit`/`before_id`, renders the page's items.
pub fn list_page<T>(
    map: &std::collections::BTreeMap<String, T>,
    req: &ApiRequest<'_>,
    ctx: &Ctx<'_>,
    collection: &str,
    path: &str,
    render: impl Fn(&T) -> Value,
) -> Result<Reply, ApiError> {
    let page = crate::paging::parse(req.query, ctx.page_size)?;
    let (items, more) = crate::paging::select(map, &page);
    let last_id = items.last().map(|(id, _)| id.as_str());
    let rendered: Vec<Value> = items.iter().map(|(_, item)| render(item)).collect();
    Ok(Reply::Json(
        200,
        crate::paging::envelope(collection, rendered, path, ctx, &page, last_id, more),
    ))
}

/// Every resource as the API renders it, newest first, by collection (for `/_mock/state`).
pub fn render_state(store: &Store, ctx: &Ctx<'_>) -> Value {
    let newest_first = |v: Vec<Value>| Value::Array(v.into_iter().rev().collect());
    json!({
        "tunnel_sessions": newest_first(store.sessions.values().map(|x| sessions::render(x, ctx)).collect()),
        "pending_restarts": store.pending_restarts.len(),
        "ip_policies": newest_first(store.ip_policies.values().map(|x| ip_policies::render(x, ctx)).collect()),
        "backends": newest_first(store.backends.values().map(|x| backends::render(store, x, false, ctx)).collect()),
        "tunnels": newest_first(store.tunnels.values().map(|t| json!({"id": t.id, "labels": t.labels})).collect()),
        "tls_edges": newest_first(store.tls_edges.values().map(|e| json!({
            "id": e.id,
            "tls_termination": e.module.as_ref().map(|m| tls::render(m, ctx)),
        })).collect()),
        "event_destinations": newest_first(store.destinations.values().map(|x| destinations::render(x, ctx)).collect()),
        "event_subscriptions": newest_first(store.subscriptions.values().map(|x| subscriptions::render(x, ctx)).collect()),
    })
}
