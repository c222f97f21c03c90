//! Tunnel-group backends (`/backends/tunnel_group`).

use std::collections::BTreeMap;

use serde::Serialize;

use super::Resource;

/// The collection.
pub const RESOURCE: Resource = Resource {
    path: &["backends", "tunnel_group"],
    collection: "backends",
    id_name: "backend ID",
};

/// The fields of a create or update; only those set are sent. On update, `labels` replaces
/// the whole map.
#[derive(Debug, Default, Serialize)]
pub struct TunnelGroupFields {
    /// Human-readable description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Machine-readable data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<String>,
    /// Labels a tunnel must carry to belong to this backend.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, String>>,
}

impl TunnelGroupFields {}
