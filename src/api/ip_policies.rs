//! IP policies (`/ip_policies`).

use super::fields::{usual_limits, Count};
use super::Resource;
use crate::output::columns::IP_POLICY;

/// The collection.
pub const RESOURCE: Resource = Resource {
    path: &["ip_policies"],
    collection: "ip_policies",
    id_name: "IP policy ID",
    prefix: "ipp_",
    article: "an",
    command: "tunnelctl ip-policies",
    kind: &IP_POLICY,
    summary: &["description"],
    text: usual_limits(Count::Bytes),
};
