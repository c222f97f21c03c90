//! Event subscriptions (`/event_subscriptions`).

use serde::Serialize;

use super::validate::{max_chars, Checked};
use super::Resource;

/// The collection.
pub const RESOURCE: Resource = Resource {
    path: &["event_subscriptions"],
    collection: "event_subscriptions",
    id_name: "event subscription ID",
};

/// An event source type in a request body.
#[derive(Debug, Clone, Serialize)]
pub struct SourceType {
    /// The event type, e.g. `ip_policy_created.v0`.
    #[serde(rename = "type")]
    pub kind: String,
}

/// The fields of a create or update; only those set are sent (a given list replaces).
#[derive(Debug, Default, Serialize)]
pub struct SubscriptionFields {
    /// Machine-readable, at most 4096 characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<String>,
    /// Human-readable, at most 255 characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Event types that trigger the subscription.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<SourceType>>,
    /// Destinations that receive the events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination_ids: Option<Vec<String>>,
}

impl SubscriptionFields {
    /// Checks the API reference's limits (counted in characters for subscriptions).
    pub fn validate(&self) -> Checked {
        max_chars("description", self.description.as_deref(), 255)?;
        max_chars("metadata", self.metadata.as_deref(), 4096)
    }
}
