//! The kinds of resource an account file holds, each a table of the file: its name there,
//! the API collection behind it, and where it stands in the order changes are made.

use serde::{Deserialize, Serialize};

use crate::api::{self, Resource};

/// A kind of resource, as a top-level table of the account file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    /// `[ip_policies.NAME]`.
    IpPolicies,
    /// `[backends.NAME]`: tunnel-group backends.
    Backends,
    /// `[event_destinations.NAME]`.
    EventDestinations,
    /// `[event_subscriptions.NAME]`: they name destinations, so they come after them.
    EventSubscriptions,
    /// `[tls_termination.EDGE_ID]`: the module of an existing TLS edge.
    TlsTermination,
}

impl Section {
    /// Every kind, in the order they are created and updated (destinations before the
    /// subscriptions that name them); deletes go the other way.
    pub const ALL: [Section; 5] = [
        Section::IpPolicies,
        Section::Backends,
        Section::EventDestinations,
        Section::EventSubscriptions,
        Section::TlsTermination,
    ];

    /// Its table name in the file (`ip_policies`).
    pub fn table(self) -> &'static str {
        match self {
            Section::IpPolicies => "ip_policies",
            Section::Backends => "backends",
            Section::EventDestinations => "event_destinations",
            Section::EventSubscriptions => "event_subscriptions",
            Section::TlsTermination => "tls_termination",
        }
    }

    /// The kind a table name of the file stands for.
    pub fn from_table(name: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.table() == name)
    }

    /// The API collection, for the kinds that are one (TLS termination is a module of an
    /// edge, read and set one edge at a time).
    pub fn resource(self) -> Option<&'static Resource> {
        match self {
            Section::IpPolicies => Some(&api::ip_policies::RESOURCE),
            Section::Backends => Some(&api::backends::RESOURCE),
            Section::EventDestinations => Some(&api::event_destinations::RESOURCE),
            Section::EventSubscriptions => Some(&api::event_subscriptions::RESOURCE),
            Section::TlsTermination => None,
        }
    }

    /// Does it carry `description` and `metadata` (and so the ownership marker)?
    pub fn has_metadata(self) -> bool {
        self != Section::TlsTermination
    }

    /// The keys a resource of this kind may have in the file, besides `id`.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            Section::IpPolicies => &["id", "description", "metadata"],
            Section::Backends => &["id", "description", "metadata", "labels"],
            Section::EventDestinations => &["id", "description", "metadata", "format", "target"],
            Section::EventSubscriptions => {
                &["id", "description", "metadata", "sources", "destinations"]
            }
            Section::TlsTermination => &["enabled", "terminate_at", "min_version"],
        }
    }
}
