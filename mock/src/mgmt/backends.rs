//! Tunnel group backends: CRUD, the tunnels a backend matches by labels, and the seeds' quirk
//! that a PATCH without `labels` answers `"labels": null` while keeping the stored labels
//! (clients must cope with it rather than show an empty map).

use serde_json::{json, Map, Value};

use super::{list_page, ApiRequest, Ctx, Reply};
use crate::clock;
use crate::errors::ApiError;
use crate::input::Fields;
use crate::store::{Backend, Store};

const WHAT: &str = "tunnel group backend";
const FIELDS: &[&str] = &["description", "metadata", "labels"];
const PATH: &str = "/backends/tunnel_group";

/// The backend as the API shows it; `labels_null` renders the PATCH quirk.
pub fn render(store: &Store, b: &Backend, labels_null: bool, ctx: &Ctx<'_>) -> Value {
    // A backend without labels would otherwise match every tunnel, which is never what a
    // user who created it means; the service shows no tunnels for it.
    let tunnels: Vec<Value> = if b.labels.is_empty() {
        Vec::new()
    } else {
        store
            .tunnels
            .values()
            .filter(|t| b.labels.iter().all(|(k, v)| t.labels.get(k) == Some(v)))
            .map(|t| ctx.reference("/tunnels", &t.id))
            .collect()
    };
    let mut out = Map::new();
    out.insert("id".into(), json!(b.id));
    out.insert("uri".into(), json!(ctx.url(&format!("{PATH}/{}", b.id))));
    out.insert("created_at".into(), json!(b.created_at));
    out.insert("description".into(), json!(b.description));
    out.insert("metadata".into(), json!(b.metadata));
    out.insert(
        "labels".into(),
        if labels_null {
            Value::Null
        } else {
            json!(b.labels)
        },
    );
    out.insert("tunnels".into(), Value::Array(tunnels));
    ctx.finish(out)
}

/// `GET /backends/tunnel_group`.
pub fn list(store: &Store, req: &ApiRequest<'_>, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    list_page(&store.backends, req, ctx, "backends", PATH, |b| {
        render(store, b, false, ctx)
    })
}

/// `GET /backends/tunnel_group/{id}`.
pub fn get(store: &Store, id: &str, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    let b = store
        .backends
        .get(id)
        .ok_or_else(|| ApiError::not_found(WHAT, id))?;
    Ok(Reply::Json(200, render(store, b, false, ctx)))
}

/// `POST /backends/tunnel_group`.
pub fn create(store: &mut Store, req: &ApiRequest<'_>, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    let body = req.json()?;
    let id = insert(store, &body)?;
    let b = store
        .backends
        .get(&id)
        .ok_or_else(|| ApiError::not_found(WHAT, &id))?;
    Ok(Reply::Json(201, render(store, b, false, ctx)))
}

/// Validates a create body and stores the new backend; also used by seeding.
pub fn insert(store: &mut Store, body: &Map<String, Value>) -> Result<String, ApiError> {
    let f = Fields::root(body);
    f.only(FIELDS)?;
    let description = f.string("description")?.unwrap_or_default().to_string();
    let metadata = f.string("metadata")?.unwrap_or_default().to_string();
    let labels = f.labels("labels")?.unwrap_or_default();
    let id = store.ids.next("bkdtg_");
    store.backends.insert(
        id.clone(),
        Backend {
            id: id.clone(),
            created_at: clock::now(),
            description,
            metadata,
            labels,
        },
    );
    Ok(id)
}

/// `PATCH /backends/tunnel_group/{id}`.
pub fn update(
    store: &mut Store,
    req: &ApiRequest<'_>,
    id: &str,
    ctx: &Ctx<'_>,
) -> Result<Reply, ApiError> {
    let backend = store
        .backends
        .get_mut(id)
        .ok_or_else(|| ApiError::not_found(WHAT, id))?;
    let body = req.json()?;
    let f = Fields::root(&body);
    f.only(FIELDS)?;
    let description = f.string("description")?;
    let metadata = f.string("metadata")?;
    let labels = f.labels("labels")?;
    if let Some(d) = description {
        backend.description = d.to_string();
    }
    if let Some(m) = metadata {
        backend.metadata = m.to_string();
    }
    let labels_null = labels.is_none();
    if let Some(l) = labels {
        backend.labels = l;
    }
    let b = backend.clone();
    Ok(Reply::Json(200, render(store, &b, labels_null, ctx)))
}

/// `DELETE /backends/tunnel_group/{id}`.
pub fn delete(store: &mut Store, id: &str) -> Result<Reply, ApiError> {
    store
        .backends
        .remove(id)
        .map(|_| Reply::NoContent)
        .ok_or_else(|| ApiError::not_found(WHAT, id))
}
