//! Event subscriptions and their event sources: CRUD with the seeds' character limits (255 and
//! 4096 characters, unlike the byte limits elsewhere), destination ids that must exist, and the
//! sources sub-collection addressed by the percent-decoded type.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde_json::{json, Map, Value};

use super::{list_page, ApiRequest, Ctx, Reply};
use crate::clock;
use crate::errors::{code, ApiError};
use crate::input::{description_metadata, Fields, Unit};
use crate::store::{Store, Subscription};

const WHAT: &str = "event subscription";
const FIELDS: &[&str] = &["description", "metadata", "sources", "destination_ids"];
const PATH: &str = "/event_subscriptions";

/// Characters kept as they are in a path segment (RFC 3986 unreserved).
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

fn source_json(sub_id: &str, kind: &str, ctx: &Ctx<'_>) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), json!(kind));
    out.insert(
        "uri".into(),
        json!(ctx.url(&format!(
            "{PATH}/{sub_id}/sources/{}",
            utf8_percent_encode(kind, SEGMENT)
        ))),
    );
    ctx.finish(out)
}

/// The subscription as the API shows it.
pub fn render(s: &Subscription, ctx: &Ctx<'_>) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(s.id));
    out.insert("uri".into(), json!(ctx.url(&format!("{PATH}/{}", s.id))));
    out.insert("created_at".into(), json!(s.created_at));
    out.insert("metadata".into(), json!(s.metadata));
    out.insert("description".into(), json!(s.description));
    out.insert(
        "sources".into(),
        Value::Array(
            s.sources
                .iter()
                .map(|t| source_json(&s.id, t, ctx))
                .collect(),
        ),
    );
    out.insert(
        "destinations".into(),
        Value::Array(
            s.destination_ids
                .iter()
                .map(|d| ctx.reference("/event_destinations", d))
                .collect(),
        ),
    );
    ctx.finish(out)
}

/// `GET /event_subscriptions`.
pub fn list(store: &Store, req: &ApiRequest<'_>, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    list_page(
        &store.subscriptions,
        req,
        ctx,
        "event_subscriptions",
        PATH,
        |s| render(s, ctx),
    )
}

fn find<'s>(store: &'s Store, id: &str) -> Result<&'s Subscription, ApiError> {
    store
        .subscriptions
        .get(id)
        .ok_or_else(|| ApiError::not_found(WHAT, id))
}

fn find_mut<'s>(store: &'s mut Store, id: &str) -> Result<&'s mut Subscription, ApiError> {
    store
        .subscriptions
        .get_mut(id)
        .ok_or_else(|| ApiError::not_found(WHAT, id))
}

/// `GET /event_subscriptions/{id}`.
pub fn get(store: &Store, id: &str, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    Ok(Reply::Json(200, render(find(store, id)?, ctx)))
}

/// `POST /event_subscriptions`.
pub fn create(store: &mut Store, req: &ApiRequest<'_>, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    let body = req.json()?;
    let id = insert(store, &body)?;
    Ok(Reply::Json(201, render(find(store, &id)?, ctx)))
}

/// Validates a create body and stores the new subscription; also used by seeding.
pub fn insert(store: &mut Store, body: &Map<String, Value>) -> Result<String, ApiError> {
    let f = Fields::root(body);
    f.only(FIELDS)?;
    let (description, metadata) = description_metadata(&f, 255, 4096, Unit::Chars)?;
    let sources = sources(&f)?.unwrap_or_default();
    let destination_ids = destination_ids(store, &f)?.unwrap_or_default();
    let id = store.ids.next("esb_");
    store.subscriptions.insert(
        id.clone(),
        Subscription {
            id: id.clone(),
            created_at: clock::now(),
            description: description.unwrap_or_default(),
            metadata: metadata.unwrap_or_default(),
            sources,
            destination_ids,
        },
    );
    Ok(id)
}

/// `PATCH /event_subscriptions/{id}`.
pub fn update(
    store: &mut Store,
    req: &ApiRequest<'_>,
    id: &str,
    ctx: &Ctx<'_>,
) -> Result<Reply, ApiError> {
    find(store, id)?;
    let body = req.json()?;
    let f = Fields::root(&body);
    f.only(FIELDS)?;
    let (description, metadata) = description_metadata(&f, 255, 4096, Unit::Chars)?;
    let sources = sources(&f)?;
    let destination_ids = destination_ids(store, &f)?;
    let sub = find_mut(store, id)?;
    if let Some(d) = description {
        sub.description = d;
    }
    if let Some(m) = metadata {
        sub.metadata = m;
    }
    if let Some(s) = sources {
        sub.sources = s;
    }
    if let Some(d) = destination_ids {
        sub.destination_ids = d;
    }
    Ok(Reply::Json(200, render(sub, ctx)))
}

/// `DELETE /event_subscriptions/{id}`.
pub fn delete(store: &mut Store, id: &str) -> Result<Reply, ApiError> {
    store
        .subscriptions
        .remove(id)
        .map(|_| Reply::NoContent)
        .ok_or_else(|| ApiError::not_found(WHAT, id))
}

fn sources(f: &Fields<'_>) -> Result<Option<Vec<String>>, ApiError> {
    let Some(list) = f.array("sources")? else {
        return Ok(None);
    };
    let mut out: Vec<String> = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let path = format!("sources[{i}]");
        let Value::Object(map) = item else {
            return Err(ApiError::invalid(
                &path,
                format!("{path} must be an object {{\"type\": ...}}."),
            ));
        };
        let kind = source_type(&Fields::nested(map, &path))?;
        if out.contains(&kind) {
            return Err(ApiError::invalid(
                &path,
                format!("The event source type '{kind}' is listed twice."),
            ));
        }
        out.push(kind);
    }
    Ok(Some(out))
}

fn source_type(f: &Fields<'_>) -> Result<String, ApiError> {
    f.only(&["type"])?;
    Ok(f.required_string("type")?.to_string())
}

fn destination_ids(store: &Store, f: &Fields<'_>) -> Result<Option<Vec<String>>, ApiError> {
    let Some(list) = f.array("destination_ids")? else {
        return Ok(None);
    };
    let mut out: Vec<String> = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let path = format!("destination_ids[{i}]");
        let Value::String(id) = item else {
            return Err(ApiError::invalid(
                &path,
                format!("{path} must be a string."),
            ));
        };
        if !store.destinations.contains_key(id) {
            return Err(ApiError::new(
                400,
                code::NO_SUCH_DESTINATION,
                format!("The event destination '{id}' does not exist."),
            )
            .detail("field", path)
            .detail("id", id.as_str()));
        }
        if !out.contains(id) {
            out.push(id.clone());
        }
    }
    Ok(Some(out))
}

/// `GET /event_subscriptions/{id}/sources` (not paged, no `next_page_uri`).
pub fn list_sources(store: &Store, id: &str, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    let sub = find(store, id)?;
    let items: Vec<Value> = sub
        .sources
        .iter()
        .map(|t| source_json(id, t, ctx))
        .collect();
    Ok(Reply::Json(
        200,
        json!({"sources": items, "uri": ctx.url(&format!("{PATH}/{id}/sources"))}),
    ))
}

/// `POST /event_subscriptions/{id}/sources`.
pub fn add_source(
    store: &mut Store,
    req: &ApiRequest<'_>,
    id: &str,
    ctx: &Ctx<'_>,
) -> Result<Reply, ApiError> {
    let sub = find_mut(store, id)?;
    let body = req.json()?;
    let kind = source_type(&Fields::root(&body))?;
    if sub.sources.contains(&kind) {
        return Err(ApiError::new(
            400,
            code::SOURCE_EXISTS,
            format!("The event subscription '{id}' already has the event source type '{kind}'."),
        )
        .detail("field", "type"));
    }
    sub.sources.push(kind.clone());
    Ok(Reply::Json(201, source_json(id, &kind, ctx)))
}

fn source_index(sub: &Subscription, kind: &str) -> Result<usize, ApiError> {
    sub.sources.iter().position(|t| t == kind).ok_or_else(|| {
        ApiError::not_found("event source", kind).detail("subscription_id", sub.id.as_str())
    })
}

/// `GET /event_subscriptions/{id}/sources/{type}`.
pub fn get_source(store: &Store, id: &str, kind: &str, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    let sub = find(store, id)?;
    source_index(sub, kind)?;
    Ok(Reply::Json(200, source_json(id, kind, ctx)))
}

/// `PATCH /event_subscriptions/{id}/sources/{type}`: takes `{}`; nothing to change.
pub fn update_source(
    store: &Store,
    req: &ApiRequest<'_>,
    id: &str,
    kind: &str,
    ctx: &Ctx<'_>,
) -> Result<Reply, ApiError> {
    let sub = find(store, id)?;
    source_index(sub, kind)?;
    let body = req.json()?;
    Fields::root(&body).only(&[])?;
    Ok(Reply::Json(200, source_json(id, kind, ctx)))
}

/// `DELETE /event_subscriptions/{id}/sources/{type}`.
pub fn delete_source(store: &mut Store, id: &str, kind: &str) -> Result<Reply, ApiError> {
    let sub = find_mut(store, id)?;
    let idx = source_index(sub, kind)?;
    sub.sources.remove(idx);
    Ok(Reply::NoContent)
}
