//! IP policies: plain CRUD with the API reference's byte limits on description (255) and metadata
//! (4096), and a PATCH that changes only the fields it is given.

use serde_json::{json, Value};

use super::crud::{head, Changes, Collection, Editable};
use super::request::Ctx;
use crate::api_error::ApiError;
use crate::input::{Fields, Unit};
use crate::store::{IpPolicy, Store};

/// The IP policies collection.
pub struct IpPolicies;

impl Collection for IpPolicies {
    type Item = IpPolicy;
    const NOUN: &'static str = "ip policy";
    const KEY: &'static str = "ip_policies";
    const PATH: &'static str = "/ip_policies";

    fn render(_: &Store, p: &IpPolicy, ctx: &Ctx<'_>) -> Value {
        let mut out = head(ctx, Self::PATH, &p.id, &p.created_at);
        out.insert("description".into(), json!(p.description));
        out.insert("metadata".into(), json!(p.metadata));
        ctx.finish(out)
    }
}

impl Editable for IpPolicies {
    const PREFIX: &'static str = "ipp_";
    const FIELDS: &'static [&'static str] = &["description", "metadata"];
    /// Description and metadata only.
    type Own = ();

    fn read(_: &Store, f: &Fields<'_>) -> Result<Changes<()>, ApiError> {
        Changes::read(f, (255, 4096), Unit::Bytes, || Ok(()))
    }

    fn build(id: String, created_at: String, c: Changes<()>) -> IpPolicy {
        IpPolicy {
            id,
            created_at,
            description: c.description.unwrap_or_default(),
            metadata: c.metadata.unwrap_or_default(),
        }
    }

    fn apply(p: &mut IpPolicy, c: Changes<()>) {
        c.apply_to(&mut p.description, &mut p.metadata);
    }
}
