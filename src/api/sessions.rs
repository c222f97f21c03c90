//! Tunnel sessions (`/tunnel_sessions`) and the commands sent to their agents.

use super::{Client, Resource, Seg};
use crate::error::{Error, Result};
use crate::output::columns::{col, detail_col, detail_only, Cell, Kind, ALWAYS};

/// The collection.
pub const RESOURCE: Resource = Resource {
    path: &["tunnel_sessions"],
    collection: "tunnel_sessions",
    id_name: "session ID",
    prefix: "ts_",
    article: "a",
    command: "tunnelctl sessions",
    kind: &Kind {
        noun: "tunnel session",
        plural: "tunnel sessions",
        columns: &[
            col("ID", "id", Cell::Text, ALWAYS),
            col("REGION", "region", Cell::Text, 2),
            col("OS", "os", Cell::Text, 2),
            col("AGENT VERSION", "agent_version", Cell::Text, 3),
            col("IP", "ip", Cell::Text, 4),
            col("STARTED", "started_at", Cell::Time, 3),
            detail_col("CREDENTIAL", "credential", Cell::RefId),
            col("METADATA", "metadata", Cell::Free, 5),
            // TSV rows keep the fields scripts cut; -o wide and the detail view show it.
            detail_only("TRANSPORT", "transport", Cell::Text),
        ],
    },
    summary: &["region", "os", "agent_version", "ip"],
    text: None,
};

/// A command for the agent behind a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentCommand {
    /// Restart the agent (it reconnects under a new session id).
    Restart,
    /// Stop the agent (it exits; the session ends).
    Stop,
    /// Update the agent (wait at least 10 s before a restart).
    Update,
}

impl AgentCommand {
    /// The path segment of the command.
    pub fn as_str(self) -> &'static str {
        match self {
            AgentCommand::Restart => "restart",
            AgentCommand::Stop => "stop",
            AgentCommand::Update => "update",
        }
    }
}

/// Sends `command` to the agent of session `id` (204 on success).
pub async fn send(client: &Client, id: &str, command: AgentCommand) -> Result<()> {
    client
        .command(&[
            Seg::Lit("tunnel_sessions"),
            Seg::Id(RESOURCE.id_name, id),
            Seg::Lit(command.as_str()),
        ])
        .await
}

/// Was an update refused because none is available (rule 3's first condition), that is, is
/// the agent already on the newest version it can have? Told by the reason the service gives
/// (`details.reason: no_update_available`) or, whatever the body's shape, by its message.
pub fn no_update_available(e: &Error) -> bool {
    let Error::Api(f) = e else {
        return false;
    };
    let reason = f
        .detail
        .as_deref()
        .is_some_and(|d| d.contains("reason: no_update_available"));
    let message = f.message.as_deref().is_some_and(|m| {
        let m = m.to_ascii_lowercase();
        m.contains("no update is available") || m.contains("no update available")
    });
    (400..500).contains(&f.status) && (reason || message)
}
