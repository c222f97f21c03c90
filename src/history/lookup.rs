//! One capture by ID, wherever it still is: the agent first, then the history (when the agent
//! answers 404, as it does once a capture was evicted or the agent restarted, or cannot be
//! reached). Every command that reads a capture by ID (`get`, `replay`, `save`, `verify`, and
//! whatever compares or keeps captures) asks here, so they all find the same ones.

use std::path::Path;

use crate::agent;
use crate::capture::Exchange;
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::output::Printer;

use super::store::Store;
use crate::escape::escape_path;

/// Where a capture was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The agent still has it.
    Agent,
    /// Only the history has it.
    History,
}

/// A capture found by ID, with the agent's JSON text kept.
#[derive(Debug)]
pub struct FoundCapture {
    /// The capture.
    pub capture: Exchange,
    /// Where it came from.
    pub origin: Origin,
}

/// The capture `id`: the agent's, else the one kept in the history file `history` (said on
/// stderr, one line). When neither has it, the agent's error.
pub async fn capture(
    client: &agent::AgentClient,
    history: &Path,
    printer: &Printer,
    id: &str,
) -> Result<FoundCapture> {
    let why = match client.request(id).await {
        Ok(text) => {
            return Ok(FoundCapture {
                capture: Exchange::from_agent(text)?,
                origin: Origin::Agent,
            })
        }
        Err(Error::Api(f)) if f.status == 404 => (Error::Api(f), "no longer has it"),
        Err(e @ Error::Unreachable(_)) => (e, "could not be reached"),
        Err(e) => return Err(e),
    };
    let (agent_error, said) = why;
    let Some(json) = Store::open_existing(history)?
        .map(|s| s.get(id))
        .transpose()?
        .flatten()
    else {
        return Err(agent_error);
    };
    printer.note(&format!(
        "{}: the agent {said}; read from the history ({})",
        escape(id),
        escape_path(history)
    ));
    Ok(FoundCapture {
        capture: Exchange::from_agent(json)?,
        origin: Origin::History,
    })
}
