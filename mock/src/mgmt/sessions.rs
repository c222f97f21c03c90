//! Tunnel sessions: list, get, and the agent commands restart, stop and update with the
//! behavioural rules of the API reference (rules 1 to 3), which are what clients most need to test
//! against: a restarted agent comes back under a new id after a delay, and an update is
//! refused under each condition of rule 3.

use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use super::crud::{find, find_mut, Collection};
use super::request::{ApiRequest, Ctx, Reply};
use crate::api_error::{code, ApiError};
use crate::input::Fields;
use crate::shared::Config;
use crate::store::{PendingRestart, Session, Store, UpdatePhase};
use crate::timestamp;

/// The tunnel sessions collection: online agents, which only seeding adds.
pub struct Sessions;

impl Collection for Sessions {
    type Item = Session;
    const NOUN: &'static str = "tunnel session";
    const KEY: &'static str = "tunnel_sessions";
    const PATH: &'static str = "/tunnel_sessions";

    /// `metadata` only when not empty.
    fn render(_: &Store, s: &Session, ctx: &Ctx<'_>) -> Value {
        let mut out = Map::new();
        out.insert("id".into(), json!(s.id));
        out.insert(
            "uri".into(),
            json!(ctx.url(&format!("{}/{}", Self::PATH, s.id))),
        );
        out.insert("agent_version".into(), json!(s.agent_version));
        out.insert(
            "credential".into(),
            ctx.reference("/credentials", &s.credential_id),
        );
        out.insert("ip".into(), json!(s.ip));
        if !s.metadata.is_empty() {
            out.insert("metadata".into(), json!(s.metadata));
        }
        out.insert("os".into(), json!(s.os));
        out.insert("region".into(), json!(s.region));
        out.insert("started_at".into(), json!(s.started_at));
        out.insert("transport".into(), json!("service/v2"));
        ctx.finish(out)
    }
}

/// `POST /tunnel_sessions/{id}/{restart|stop|update}`.
pub fn command(
    store: &mut Store,
    req: &ApiRequest<'_>,
    id: &str,
    command: &str,
    cfg: &Config,
    now: Instant,
) -> Result<Reply, ApiError> {
    find::<Sessions>(store, id)?;
    let body = req.json()?;
    Fields::root(&body).only(&[])?;
    let session = find_mut::<Sessions>(store, id)?;
    match command {
        "stop" => {
            store.sessions.remove(id);
        }
        "restart" => {
            if session.os.eq_ignore_ascii_case("windows") {
                return Err(ApiError::new(
                    400,
                    code::RESTART_UNSUPPORTED,
                    "restart is not supported on Windows",
                )
                .detail("id", id));
            }
            let delay = Duration::from_millis(cfg.restart_delay_ms);
            let successor = successor(session, now, delay);
            store.sessions.remove(id);
            store.pending_restarts.push(PendingRestart {
                at: now + delay,
                session: successor,
            });
        }
        _ => update(session, now)?,
    }
    Ok(Reply::NoContent)
}

/// The session the agent opens when it reconnects after a restart: same agent and host, new
/// start time, and the updated version if an update finished before the restart.
fn successor(old: &Session, now: Instant, delay: Duration) -> Session {
    let mut next = old.clone();
    next.id = String::new();
    next.started_at = timestamp::after_now(delay);
    if let UpdatePhase::Updated { version } = old.phase(now) {
        next.agent_version = version;
        next.update_available = None;
    }
    next.update = UpdatePhase::Idle;
    next
}

fn update(session: &mut Session, now: Instant) -> Result<(), ApiError> {
    let id = session.id.clone();
    let refuse = |reason: &str, msg: &str| {
        Err(ApiError::new(400, code::UPDATE_REFUSED, msg)
            .detail("reason", reason)
            .detail("id", id.as_str()))
    };
    let Some(version) = session.update_available.clone() else {
        return refuse("no_update_available", "no update is available");
    };
    if session.update_checks_disabled {
        return refuse(
            "update_checks_disabled",
            "update checks are disabled in the agent configuration",
        );
    }
    match session.phase(now) {
        UpdatePhase::Updating { .. } => refuse("updating", "the agent is already updating"),
        UpdatePhase::Updated { .. } => refuse(
            "updated_not_restarted",
            "the agent already updated and has not restarted yet",
        ),
        UpdatePhase::Idle => {
            session.update = if session.update_duration.is_zero() {
                UpdatePhase::Updated { version }
            } else {
                UpdatePhase::Updating {
                    until: Some(now + session.update_duration),
                    version,
                }
            };
            Ok(())
        }
    }
}

/// The next minor version (`3.19.2` -> `3.20.0`): rule 2 says an update never changes the
/// major version. `None` when the version does not parse.
pub fn next_minor(version: &str) -> Option<String> {
    let mut parts = version.split('.');
    let major: u64 = parts.next()?.parse().ok()?;
    let minor: u64 = parts.next()?.parse().ok()?;
    Some(format!("{major}.{}.0", minor + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_minor_keeps_major() {
        assert_eq!(next_minor("3.19.2").as_deref(), Some("3.20.0"));
        assert_eq!(next_minor("2.9").as_deref(), Some("2.10.0"));
        assert_eq!(next_minor("dev"), None);
    }
}
