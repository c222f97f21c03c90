//! The usual verbs of a management collection — list, get, create, update, delete — written
//! once: the server twin of the client's `commands/crud.rs`.
//!
//! Each resource module says what is particular to its collection by implementing
//! [`Collection`] (its names and how an item looks) and, when the API can create and
//! change them, [`Editable`] (which fields a body may carry and what they do). Everything the
//! collections have in common — the order of the checks (unknown id, then body, then fields),
//! paging, the status codes, the not-found error — is here, so that no collection can drift
//! from the others.

use serde_json::{json, Map, Value};

use super::request::{ApiRequest, Ctx, Reply};
use crate::api_error::ApiError;
use crate::input::Fields;
use crate::input::{description_metadata, set_given, Unit};
use crate::paging;
use crate::store::{Store, Stored};
use crate::timestamp;

/// A collection of the store, keyed by id, and how its items render.
pub trait Collection {
    /// What the store keeps for one item.
    type Item: Stored;
    /// What a not-found error calls an item (`ip policy`).
    const NOUN: &'static str;
    /// The key of the collection in its list envelope and in `/_mock/state` (`ip_policies`).
    const KEY: &'static str;
    /// The path of the collection, also the base of its items' `uri` (`/ip_policies`).
    const PATH: &'static str;

    /// An item as the API shows it.
    fn render(store: &Store, item: &Self::Item, ctx: &Ctx<'_>) -> Value;
}

/// A collection the API creates, updates and deletes items of.
pub trait Editable: Collection {
    /// The prefix of new items' ids (`ipp_`).
    const PREFIX: &'static str;
    /// The fields a create or update body may carry; any other is refused.
    const FIELDS: &'static [&'static str];
    /// The fields a create body must set (an update may leave any out).
    const REQUIRED: &'static [&'static str] = &[];

    /// What a body asks to set beyond `description` and `metadata` (see [`Changes`]).
    type Own;

    /// Validates a body's fields (already limited to [`Editable::FIELDS`]); the store is there
    /// to check references. Nothing changes until every field is valid.
    fn read(store: &Store, body: &Fields<'_>) -> Result<Changes<Self::Own>, ApiError>;

    /// A new item from a valid create body, whose [`Editable::REQUIRED`] fields are set.
    fn build(id: String, created_at: String, changes: Changes<Self::Own>) -> Self::Item;

    /// Changes an item as a valid update body asks.
    fn apply(item: &mut Self::Item, changes: Changes<Self::Own>);

    /// The item as the answer to an update shows it; `body` is the update's, for collections
    /// whose answer depends on what was sent.
    fn updated(store: &Store, item: &Self::Item, body: &Fields<'_>, ctx: &Ctx<'_>) -> Value {
        let _ = body;
        Self::render(store, item, ctx)
    }

    /// Refuses to delete an item that others still refer to.
    fn check_delete(store: &Store, id: &str) -> Result<(), ApiError> {
        let _ = (store, id);
        Ok(())
    }
}

/// What a create or update body asks to set: the `description` and `metadata` every
/// collection has, and what is the collection's own (`()` for an IP policy).
pub struct Changes<T> {
    /// `description`, when the body gives it.
    pub description: Option<String>,
    /// `metadata`, when the body gives it.
    pub metadata: Option<String>,
    /// The collection's own fields.
    pub own: T,
}

impl<T> Changes<T> {
    /// `description` and `metadata` read from `f` within their limits (counted in `unit`),
    /// then the collection's own changes (`own`): a body with several wrong fields is told
    /// of its description or metadata first.
    pub fn read(
        f: &Fields<'_>,
        (max_description, max_metadata): (usize, usize),
        unit: Unit,
        own: impl FnOnce() -> Result<T, ApiError>,
    ) -> Result<Self, ApiError> {
        let (description, metadata) = description_metadata(f, max_description, max_metadata, unit)?;
        Ok(Changes {
            description,
            metadata,
            own: own()?,
        })
    }

    /// Sets an item's `description` and `metadata` where the body gave them; returns the
    /// collection's own changes, for it to apply.
    pub fn apply_to(self, description: &mut String, metadata: &mut String) -> T {
        set_given(description, self.description);
        set_given(metadata, self.metadata);
        self.own
    }
}

/// The item with this id, or the collection's not-found error.
pub fn find<'s, C: Collection>(store: &'s Store, id: &str) -> Result<&'s C::Item, ApiError> {
    C::Item::all(store)
        .get(id)
        .ok_or_else(|| ApiError::not_found(C::NOUN, id))
}

/// The item with this id, to change, or the collection's not-found error.
pub fn find_mut<'s, C: Collection>(
    store: &'s mut Store,
    id: &str,
) -> Result<&'s mut C::Item, ApiError> {
    C::Item::all_mut(store)
        .get_mut(id)
        .ok_or_else(|| ApiError::not_found(C::NOUN, id))
}

/// `GET {PATH}`: one page, newest first, in its envelope.
pub fn list<C: Collection>(
    store: &Store,
    req: &ApiRequest<'_>,
    ctx: &Ctx<'_>,
) -> Result<Reply, ApiError> {
    let page = paging::parse(req.query, ctx.page_size)?;
    let (items, more) = paging::select(C::Item::all(store), &page);
    let last_id = items.last().map(|(id, _)| id.as_str());
    let rendered: Vec<Value> = items
        .iter()
        .map(|(_, item)| C::render(store, item, ctx))
        .collect();
    Ok(Reply::Json(
        200,
        paging::envelope(C::KEY, rendered, C::PATH, ctx, &page, last_id, more),
    ))
}

/// `GET {PATH}/{id}`.
pub fn get<C: Collection>(store: &Store, id: &str, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    Ok(Reply::Json(
        200,
        C::render(store, find::<C>(store, id)?, ctx),
    ))
}

/// Every item, newest first, as `/_mock/state` shows the collection.
pub fn state<C: Collection>(store: &Store, ctx: &Ctx<'_>) -> Value {
    Value::Array(
        C::Item::all(store)
            .values()
            .rev()
            .map(|item| C::render(store, item, ctx))
            .collect(),
    )
}

/// `POST {PATH}`.
pub fn create<C: Editable>(
    store: &mut Store,
    req: &ApiRequest<'_>,
    ctx: &Ctx<'_>,
) -> Result<Reply, ApiError> {
    let body = req.json()?;
    let id = insert::<C>(store, &body)?;
    Ok(Reply::Json(
        201,
        C::render(store, find::<C>(store, &id)?, ctx),
    ))
}

/// Validates a create body and stores the new item; returns its id. Seeding creates items
/// through here too, so seeded items obey the API's rules.
pub fn insert<C: Editable>(
    store: &mut Store,
    body: &Map<String, Value>,
) -> Result<String, ApiError> {
    let f = Fields::root(body);
    f.only(C::FIELDS)?;
    let changes = C::read(store, &f)?;
    if let Some(missing) = C::REQUIRED.iter().find(|key| !f.is_set(key)) {
        return Err(ApiError::invalid(
            missing,
            format!("{missing} is required."),
        ));
    }
    let id = store.ids.next(C::PREFIX);
    let item = C::build(id.clone(), timestamp::now(), changes);
    C::Item::all_mut(store).insert(id.clone(), item);
    Ok(id)
}

/// `PATCH {PATH}/{id}`: changes only the fields the body gives.
pub fn update<C: Editable>(
    store: &mut Store,
    req: &ApiRequest<'_>,
    id: &str,
    ctx: &Ctx<'_>,
) -> Result<Reply, ApiError> {
    find::<C>(store, id)?;
    let body = req.json()?;
    let f = Fields::root(&body);
    f.only(C::FIELDS)?;
    let changes = C::read(store, &f)?;
    C::apply(find_mut::<C>(store, id)?, changes);
    let item = find::<C>(store, id)?;
    Ok(Reply::Json(200, C::updated(store, item, &f, ctx)))
}

/// `DELETE {PATH}/{id}`.
pub fn delete<C: Editable>(store: &mut Store, id: &str) -> Result<Reply, ApiError> {
    find::<C>(store, id)?;
    C::check_delete(store, id)?;
    C::Item::all_mut(store).remove(id);
    Ok(Reply::NoContent)
}

/// Routes what lies below an editable collection's path: `[]` (list, create) and `[id]` (get,
/// update, delete); `None` for any deeper path.
pub fn route<C: Editable>(
    store: &mut Store,
    req: &ApiRequest<'_>,
    rest: &[&str],
    ctx: &Ctx<'_>,
) -> Option<Result<Reply, ApiError>> {
    Some(match (rest, req.method) {
        ([], "GET") => list::<C>(store, req, ctx),
        ([], "POST") => create::<C>(store, req, ctx),
        ([], method) => Err(ApiError::method_not_allowed(method, &["GET", "POST"])),
        ([id], "GET") => get::<C>(store, id, ctx),
        ([id], "PATCH") => update::<C>(store, req, id, ctx),
        ([id], "DELETE") => delete::<C>(store, id),
        ([_], method) => Err(ApiError::method_not_allowed(
            method,
            &["GET", "PATCH", "DELETE"],
        )),
        _ => return None,
    })
}

/// The fields every created resource starts with: `id`, its `uri` below `path`, `created_at`.
pub fn head(ctx: &Ctx<'_>, path: &str, id: &str, created_at: &str) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("id".into(), json!(id));
    out.insert("uri".into(), json!(ctx.url(&format!("{path}/{id}"))));
    out.insert("created_at".into(), json!(created_at));
    out
}
