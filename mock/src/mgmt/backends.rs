//! Tunnel group backends: CRUD, the tunnels a backend matches by labels, and the API reference's quirk
//! that a PATCH without `labels` answers `"labels": null` while keeping the stored labels
//! (clients must cope with it rather than show an empty map).
//!
//! Seeded tunnels live here too: they exist only to be matched by backends.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::crud::{head, Changes, Collection, Editable};
use super::request::Ctx;
use crate::api_error::ApiError;
use crate::input::{set_given, Fields};
use crate::store::{Backend, Store, Tunnel};

/// The tunnel group backends collection.
pub struct Backends;

/// The labels a create or update body of a backend sets.
type Labels = Option<BTreeMap<String, String>>;

/// The backend as the API shows it; `labels_null` renders the PATCH quirk.
fn render(store: &Store, b: &Backend, labels_null: bool, ctx: &Ctx<'_>) -> Value {
    // A backend without labels would otherwise match every tunnel, which is never what a
    // user who created it means; the service shows no tunnels for it.
    let tunnels: Vec<Value> = if b.labels.is_empty() {
        Vec::new()
    } else {
        store
            .tunnels
            .values()
            .filter(|t| b.labels.iter().all(|(k, v)| t.labels.get(k) == Some(v)))
            .map(|t| ctx.reference(Tunnels::PATH, &t.id))
            .collect()
    };
    let mut out = head(ctx, Backends::PATH, &b.id, &b.created_at);
    out.insert("description".into(), json!(b.description));
    out.insert("metadata".into(), json!(b.metadata));
    let labels = if labels_null {
        Value::Null
    } else {
        json!(b.labels)
    };
    out.insert("labels".into(), labels);
    out.insert("tunnels".into(), Value::Array(tunnels));
    ctx.finish(out)
}

impl Collection for Backends {
    type Item = Backend;
    const NOUN: &'static str = "tunnel group backend";
    const KEY: &'static str = "backends";
    const PATH: &'static str = "/backends/tunnel_group";

    fn render(store: &Store, b: &Backend, ctx: &Ctx<'_>) -> Value {
        render(store, b, false, ctx)
    }
}

impl Editable for Backends {
    const PREFIX: &'static str = "bkdtg_";
    const FIELDS: &'static [&'static str] = &["description", "metadata", "labels"];
    type Own = Labels;

    fn read(_: &Store, f: &Fields<'_>) -> Result<Changes<Labels>, ApiError> {
        Ok(Changes {
            description: f.string("description")?.map(str::to_string),
            metadata: f.string("metadata")?.map(str::to_string),
            own: f.labels("labels")?,
        })
    }

    fn build(id: String, created_at: String, c: Changes<Labels>) -> Backend {
        Backend {
            id,
            created_at,
            description: c.description.unwrap_or_default(),
            metadata: c.metadata.unwrap_or_default(),
            labels: c.own.unwrap_or_default(),
        }
    }

    fn apply(b: &mut Backend, c: Changes<Labels>) {
        let labels = c.apply_to(&mut b.description, &mut b.metadata);
        set_given(&mut b.labels, labels);
    }

    fn updated(store: &Store, b: &Backend, body: &Fields<'_>, ctx: &Ctx<'_>) -> Value {
        render(store, b, !body.is_set("labels"), ctx)
    }
}

/// The seeded tunnels, which the API only shows as backends' matches.
pub struct Tunnels;

impl Collection for Tunnels {
    type Item = Tunnel;
    const NOUN: &'static str = "tunnel";
    const KEY: &'static str = "tunnels";
    const PATH: &'static str = "/tunnels";

    fn render(_: &Store, t: &Tunnel, _: &Ctx<'_>) -> Value {
        json!({"id": t.id, "labels": t.labels})
    }
}
