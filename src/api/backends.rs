//! Tunnel-group backends (`/backends/tunnel_group`).

use std::collections::BTreeMap;

use serde::Serialize;

use super::fields::OwnFields;
use super::Resource;
use crate::output::columns::{col, Cell, Kind, ALWAYS};

/// The collection.
pub const RESOURCE: Resource = Resource {
    path: &["backends", "tunnel_group"],
    collection: "backends",
    id_name: "backend ID",
    prefix: "bkdtg_",
    article: "a",
    command: "tunnelctl backends tunnel-group",
    kind: &Kind {
        noun: "tunnel-group backend",
        plural: "tunnel-group backends",
        columns: &[
            col("ID", "id", Cell::Text, ALWAYS),
            col("DESCRIPTION", "description", Cell::Free, 2),
            col("LABELS", "labels", Cell::Labels, 3),
            col("TUNNELS", "tunnels", Cell::RefIds, 4),
            col("METADATA", "metadata", Cell::Free, 6),
            col("CREATED", "created_at", Cell::Time, 5),
        ],
    },
    summary: &["description"],
    text: None,
};

/// The own field of a tunnel-group backend in a create or update (only what is set is
/// sent, beside the shared fields of [`super::fields::Fields`]). On update, `labels` replaces the whole map.
#[derive(Debug, Default, Serialize)]
pub struct Labels {
    /// Labels a tunnel must carry to belong to this backend.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, String>>,
}

impl OwnFields for Labels {}
