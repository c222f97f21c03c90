//! IP policies (`/ip_policies`).

use super::fields::{usual_limits, Count};
use super::Resource;
use crate::output::columns::{col, Cell, Kind, ALWAYS};

/// The collection.
pub const RESOURCE: Resource = Resource {
    path: &["ip_policies"],
    collection: "ip_policies",
    id_name: "IP policy ID",
    prefix: "ipp_",
    article: "an",
    command: "tunnelctl ip-policies",
    kind: &Kind {
        noun: "IP policy",
        plural: "IP policies",
        columns: &[
            col("ID", "id", Cell::Text, ALWAYS),
            col("DESCRIPTION", "description", Cell::Free, 2),
            col("METADATA", "metadata", Cell::Free, 4),
            col("CREATED", "created_at", Cell::Time, 3),
        ],
    },
    summary: &["description"],
    text: usual_limits(Count::Bytes),
};
