//! One capture by ID, wherever it still is: the agent first, then the history (when the agent
//! answers 404, as it does once a capture was evicted or the agent restarted, or cannot be
//! reached). Every command that reads a capture by ID (`get`, `replay`, `save`, `verify`, and
//! whatever compares or keeps captures) asks here, so they all find the same ones.

use crate::agent;
use crate::capture::Exchange;
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::output::Printer;

use super::stores::Location;

/// Where a capture was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The agent still has it.
    Agent,
    /// Only the history has it.
    History,
}

/// Why a capture was read from the history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AgentSaid {
    /// The agent answered 404.
    Gone,
    /// The agent could not be reached.
    Unreachable,
}

impl AgentSaid {
    /// As a message says it ("the agent …").
    fn as_str(self) -> &'static str {
        match self {
            AgentSaid::Gone => "no longer has it",
            AgentSaid::Unreachable => "could not be reached",
        }
    }
}

/// A capture found by ID, with the agent's JSON text kept.
#[derive(Debug)]
pub struct FoundCapture {
    /// The capture.
    pub capture: Exchange,
    /// Where it came from.
    pub origin: Origin,
}

/// The capture `id`: the agent's, else the one kept in the history at `history` (said on
/// stderr, one line). When neither has it, the agent's error.
pub async fn capture(
    client: &agent::AgentClient,
    history: &Location,
    printer: &Printer,
    id: &str,
) -> Result<FoundCapture> {
    let (found, said) = find(client, history, id).await?;
    if let Some(said) = said {
        printer.note(&format!(
            "{}: the agent {}; read from the history ({})",
            escape(id),
            said.as_str(),
            history.shown()
        ));
    }
    Ok(found)
}

/// [`capture`] without its note: for a command that reads many and says once how many came
/// from the history ([`note_read_from_history`]).
pub async fn capture_unsaid(
    client: &agent::AgentClient,
    history: &Location,
    id: &str,
) -> Result<FoundCapture> {
    Ok(find(client, history, id).await?.0)
}

/// The capture `id`, and why the history was read when it was.
async fn find(
    client: &agent::AgentClient,
    history: &Location,
    id: &str,
) -> Result<(FoundCapture, Option<AgentSaid>)> {
    let why = match client.request(id).await {
        Ok(text) => {
            let found = FoundCapture {
                capture: Exchange::from_agent(text)?,
                origin: Origin::Agent,
            };
            return Ok((found, None));
        }
        Err(Error::Api(f)) if f.status == 404 => (Error::Api(f), AgentSaid::Gone),
        Err(e @ Error::Unreachable(_)) => (e, AgentSaid::Unreachable),
        Err(e) => return Err(e),
    };
    let (agent_error, said) = why;
    let store = history.open_existing().await?;
    let searched = store.is_some();
    let json = match &store {
        Some(s) => s.get(id, None).await?,
        None => None,
    };
    let Some(json) = json else {
        return Err(not_kept_either(agent_error, searched, history));
    };
    let found = FoundCapture {
        capture: Exchange::from_agent(json)?,
        origin: Origin::History,
    };
    Ok((found, Some(said)))
}

/// The agent's 404 for a capture the history does not hold either, saying so (the history
/// was searched too, or there is none to search).
fn not_kept_either(agent_error: Error, searched: bool, history: &Location) -> Error {
    let Error::Api(mut f) = agent_error else {
        return agent_error;
    };
    let said = if searched {
        format!("The history ({}) does not hold it either.", history.shown())
    } else {
        format!(
            "No history was searched: there is none at {} ('local requests record' keeps \
             captures past the agent's memory).",
            history.shown()
        )
    };
    f.hint = Some(match f.hint.take() {
        Some(h) => format!("{h}\n{said}"),
        None => said,
    });
    Error::Api(f)
}

/// Says once which of the captures a command read ([`capture_unsaid`]) came from the
/// history file `history`: a few named, the rest counted (a line each was many lines for many
/// IDs).
pub fn note_read_from_history(printer: &Printer, history: &Location, ids: &[&str]) {
    if !ids.is_empty() {
        use crate::output::progress::{few, FEW};
        printer.note(&format!(
            "read from the history ({}), not from the agent: {}",
            history.shown(),
            few(ids, FEW).join(" ")
        ));
    }
}
