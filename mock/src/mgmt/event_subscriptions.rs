//! Event subscriptions and their event sources: CRUD with the API reference's character limits (255 and
//! 4096 characters, unlike the byte limits elsewhere), destination ids that must exist, and the
//! sources sub-collection addressed by the percent-decoded type.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde_json::{json, Map, Value};

use super::crud::{find, find_mut, head, Changes, Collection, Editable};
use super::event_destinations::Destinations;
use super::request::{ApiRequest, Ctx, Reply};
use crate::api_error::{code, ApiError};
use crate::input::{set_given, Fields, Unit};
use crate::store::{Store, Subscription};

const PATH: &str = Subscriptions::PATH;

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

/// The event subscriptions collection.
pub struct Subscriptions;

/// What a create or update body of a subscription sets beyond description and metadata:
/// the event types it follows and the destinations it delivers to.
pub struct Routing {
    sources: Option<Vec<String>>,
    destination_ids: Option<Vec<String>>,
}

impl Collection for Subscriptions {
    type Item = Subscription;
    const NOUN: &'static str = "event subscription";
    const KEY: &'static str = "event_subscriptions";
    const PATH: &'static str = "/event_subscriptions";

    fn render(_: &Store, s: &Subscription, ctx: &Ctx<'_>) -> Value {
        let mut out = head(ctx, PATH, &s.id, &s.created_at);
        out.insert("metadata".into(), json!(s.metadata));
        out.insert("description".into(), json!(s.description));
        let sources = s.sources.iter().map(|t| source_json(&s.id, t, ctx));
        out.insert("sources".into(), Value::Array(sources.collect()));
        let destinations = s
            .destination_ids
            .iter()
            .map(|d| ctx.reference(Destinations::PATH, d));
        out.insert("destinations".into(), Value::Array(destinations.collect()));
        ctx.finish(out)
    }
}

impl Editable for Subscriptions {
    const PREFIX: &'static str = "esb_";
    const FIELDS: &'static [&'static str] =
        &["description", "metadata", "sources", "destination_ids"];
    type Own = Routing;

    fn read(store: &Store, f: &Fields<'_>) -> Result<Changes<Routing>, ApiError> {
        Changes::read(f, (255, 4096), Unit::Chars, || {
            Ok(Routing {
                sources: sources(f)?,
                destination_ids: destination_ids(store, f)?,
            })
        })
    }

    fn build(id: String, created_at: String, c: Changes<Routing>) -> Subscription {
        Subscription {
            id,
            created_at,
            description: c.description.unwrap_or_default(),
            metadata: c.metadata.unwrap_or_default(),
            sources: c.own.sources.unwrap_or_default(),
            destination_ids: c.own.destination_ids.unwrap_or_default(),
        }
    }

    fn apply(s: &mut Subscription, c: Changes<Routing>) {
        let own = c.apply_to(&mut s.description, &mut s.metadata);
        set_given(&mut s.sources, own.sources);
        set_given(&mut s.destination_ids, own.destination_ids);
    }
}

fn sources(f: &Fields<'_>) -> Result<Option<Vec<String>>, ApiError> {
    let Some(items) = f.items("sources")? else {
        return Ok(None);
    };
    let mut out: Vec<String> = Vec::new();
    for (path, item) in items {
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
    let Some(items) = f.items("destination_ids")? else {
        return Ok(None);
    };
    let mut out: Vec<String> = Vec::new();
    for (path, item) in items {
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
    let sub = find::<Subscriptions>(store, id)?;
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
    let sub = find_mut::<Subscriptions>(store, id)?;
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
    let sub = find::<Subscriptions>(store, id)?;
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
    let sub = find::<Subscriptions>(store, id)?;
    source_index(sub, kind)?;
    let body = req.json()?;
    Fields::root(&body).only(&[])?;
    Ok(Reply::Json(200, source_json(id, kind, ctx)))
}

/// `DELETE /event_subscriptions/{id}/sources/{type}`.
pub fn delete_source(store: &mut Store, id: &str, kind: &str) -> Result<Reply, ApiError> {
    let sub = find_mut::<Subscriptions>(store, id)?;
    let idx = source_index(sub, kind)?;
    sub.sources.remove(idx);
    Ok(Reply::NoContent)
}
