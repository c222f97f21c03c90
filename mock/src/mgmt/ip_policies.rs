//! IP policies: plain CRUD with the seeds' byte limits on description (255) and metadata
//! (4096), and a PATCH that changes only the fields it is given.

use serde_json::{json, Map, Value};

use super::{list_page, ApiRequest, Ctx, Reply};
use crate::clock;
use crate::errors::ApiError;
use crate::input::{description_metadata, Fields, Unit};
use crate::store::{IpPolicy, Store};

const WHAT: &str = "ip policy";
const FIELDS: &[&str] = &["description", "metadata"];

/// The policy as the API shows it.
pub fn render(p: &IpPolicy, ctx: &Ctx<'_>) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(p.id));
    out.insert(
        "uri".into(),
        json!(ctx.url(&format!("/ip_policies/{}", p.id))),
    );
    out.insert("created_at".into(), json!(p.created_at));
    out.insert("description".into(), json!(p.description));
    out.insert("metadata".into(), json!(p.metadata));
    ctx.finish(out)
}

/// `GET /ip_policies`.
pub fn list(store: &Store, req: &ApiRequest<'_>, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    list_page(
        &store.ip_policies,
        req,
        ctx,
        "ip_policies",
        "/ip_policies",
        |p| render(p, ctx),
    )
}

/// `GET /ip_policies/{id}`.
pub fn get(store: &Store, id: &str, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    let p = store
        .ip_policies
        .get(id)
        .ok_or_else(|| ApiError::not_found(WHAT, id))?;
    Ok(Reply::Json(200, render(p, ctx)))
}

/// `POST /ip_policies`.
pub fn create(store: &mut Store, req: &ApiRequest<'_>, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    let body = req.json()?;
    let id = insert(store, &body)?;
    let p = store
        .ip_policies
        .get(&id)
        .ok_or_else(|| ApiError::not_found(WHAT, &id))?;
    Ok(Reply::Json(201, render(p, ctx)))
}

/// Validates a create body and stores the new policy; also used by seeding.
pub fn insert(store: &mut Store, body: &Map<String, Value>) -> Result<String, ApiError> {
    let f = Fields::root(body);
    f.only(FIELDS)?;
    let (description, metadata) = description_metadata(&f, 255, 4096, Unit::Bytes)?;
    let id = store.ids.next("ipp_");
    store.ip_policies.insert(
        id.clone(),
        IpPolicy {
            id: id.clone(),
            created_at: clock::now(),
            description: description.unwrap_or_default(),
            metadata: metadata.unwrap_or_default(),
        },
    );
    Ok(id)
}

/// `PATCH /ip_policies/{id}`.
pub fn update(
    store: &mut Store,
    req: &ApiRequest<'_>,
    id: &str,
    ctx: &Ctx<'_>,
) -> Result<Reply, ApiError> {
    let policy = store
        .ip_policies
        .get_mut(id)
        .ok_or_else(|| ApiError::not_found(WHAT, id))?;
    let body = req.json()?;
    let f = Fields::root(&body);
    f.only(FIELDS)?;
    let (description, metadata) = description_metadata(&f, 255, 4096, Unit::Bytes)?;
    if let Some(d) = description {
        policy.description = d;
    }
    if let Some(m) = metadata {
        policy.metadata = m;
    }
    Ok(Reply::Json(200, render(policy, ctx)))
}

/// `DELETE /ip_policies/{id}`.
pub fn delete(store: &mut Store, id: &str) -> Result<Reply, ApiError> {
    store
        .ip_policies
        .remove(id)
        .map(|_| Reply::NoContent)
        .ok_or_else(|| ApiError::not_found(WHAT, id))
}
