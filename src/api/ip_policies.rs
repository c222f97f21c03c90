//! IP policies (`/ip_policies`).

use serde::Serialize;

use super::validate::{max_bytes, Checked};
use super::Resource;

/// The collection.
pub const RESOURCE: Resource = Resource {
    path: &["ip_policies"],
    collection: "ip_policies",
    id_name: "IP policy ID",
};

/// The fields of a create or update; only those set are sent.
#[derive(Debug, Default, Serialize)]
pub struct IpPolicyFields {
    /// Human-readable description, at most 255 bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Machine-readable data, at most 4096 bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<String>,
}

impl IpPolicyFields {
    /// Checks the API reference's limits.
    pub fn validate(&self) -> Checked {
        max_bytes("description", self.description.as_deref(), 255)?;
        max_bytes("metadata", self.metadata.as_deref(), 4096)
    }
}
