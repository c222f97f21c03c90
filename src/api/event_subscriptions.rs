//! Event subscriptions (`/event_subscriptions`).

use serde::Serialize;

use super::fields::{usual_limits, Count, OwnFields};
use super::Resource;
use crate::output::columns::{col, Cell, Kind, ALWAYS};

/// The collection.
pub const RESOURCE: Resource = Resource {
    path: &["event_subscriptions"],
    collection: "event_subscriptions",
    id_name: "event subscription ID",
    prefix: "esb_",
    article: "an",
    command: "tunnelctl event-subscriptions",
    kind: &Kind {
        noun: "event subscription",
        plural: "event subscriptions",
        columns: &[
            col("ID", "id", Cell::Text, ALWAYS),
            // What a subscription is for: its event types (wrapped onto more lines when
            // short of room), kept before the description.
            col("DESCRIPTION", "description", Cell::Free, 3),
            col("SOURCES", "sources", Cell::Types, 2),
            col("DESTINATIONS", "destinations", Cell::RefIds, 4),
            col("METADATA", "metadata", Cell::Free, 6),
            col("CREATED", "created_at", Cell::Time, 5),
        ],
    },
    summary: &["description"],
    // Counted in characters for subscriptions.
    text: usual_limits(Count::Chars),
};

/// An event source type in a request body.
#[derive(Debug, Clone, Serialize)]
pub struct SourceType {
    /// The event type, e.g. `ip_policy_created.v0`.
    #[serde(rename = "type")]
    pub kind: String,
}

/// The own fields of an event subscription: which events go where.
#[derive(Debug, Default, Serialize)]
pub struct Routes {
    /// Event types that trigger the subscription.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<SourceType>>,
    /// Destinations that receive the events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination_ids: Option<Vec<String>>,
}

impl OwnFields for Routes {}
