//! Waiting for restarted agents to come back: an agent is back when its old session is gone
//! and a new session from the same agent (same credential, IP, OS and metadata) has appeared.

use std::collections::HashSet;
use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;

use super::{id_of, same_agent};
use crate::api::{sessions, Client};
use crate::error::{Error, Result};

/// How long `--wait` and a rolling upgrade's batches wait for agents when `--timeout` does
/// not say.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(300);

/// How often the session list is read while waiting.
pub const POLL: Duration = Duration::from_millis(500);

/// Every session now, each once: a list that changes while it is paged can show a session on
/// two pages, and a command must never be sent to it twice.
pub async fn all_sessions(client: &Client) -> Result<Vec<Value>> {
    let mut pages = sessions::RESOURCE.list(client, None)?;
    let mut all = Vec::new();
    let mut seen = HashSet::new();
    while let Some(s) = pages.next_item().await? {
        if seen.insert(id_of(&s).to_string()) {
            all.push(s);
        }
    }
    Ok(all)
}

/// Waits until each of `olds` is back, calling `on_back(old, new)` as each returns. `known`
/// holds the session ids that existed before the restarts (never taken for a new one).
/// Returns the ids of the sessions not back by `deadline` (empty when all came back); the
/// command's `--timeout` running out mid-read, or a graceful stop, counts as the deadline.
pub async fn until_back(
    client: &Client,
    olds: &[Value],
    known: &HashSet<String>,
    deadline: Instant,
    mut on_back: impl FnMut(&Value, &Value),
) -> Result<Vec<String>> {
    let mut pending: Vec<&Value> = olds.iter().collect();
    let mut claimed: HashSet<String> = HashSet::new();
    loop {
        let now = match all_sessions(client).await {
            Ok(now) => now,
            Err(Error::WaitTimeout(_)) => {
                return Ok(pending.iter().map(|o| id_of(o).to_string()).collect())
            }
            Err(e) => return Err(e),
        };
        let ids: HashSet<&str> = now.iter().map(id_of).collect();
        pending.retain(|old| {
            if ids.contains(id_of(old)) {
                return true;
            }
            let new = now.iter().find(|s| {
                !known.contains(id_of(s)) && !claimed.contains(id_of(s)) && same_agent(*old, *s)
            });
            match new {
                Some(new) => {
                    claimed.insert(id_of(new).to_string());
                    on_back(old, new);
                    false
                }
                None => true,
            }
        });
        if pending.is_empty() {
            return Ok(Vec::new());
        }
        // A graceful stop ends the wait as the deadline does.
        if Instant::now() + POLL > deadline || crate::interrupt::requested() {
            return Ok(pending.iter().map(|o| id_of(o).to_string()).collect());
        }
        tokio::time::sleep(POLL).await;
    }
}
