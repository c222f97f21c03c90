//! Making the changes of a plan, in its order, one at a time under the client's pacing.
//!
//! A saved plan is first checked against the account as it is now ([`stale`]): a resource
//! changed, made or deleted since refuses the whole plan before any write. Secrets are read
//! from their environment variables before the first write too. A change that fails stops
//! the run: what was done and what was not are reported, and running `apply` again finds
//! every resource made so far by its ownership marker, so nothing is made twice. A create
//! whose answer was lost is never sent again (the HTTP layer does not retry it).

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::desired::SECRET_SHOWN;
use super::live::LiveAccount;
use super::plan::{diff, holds_secret_placeholder, seen_of, AccountPlan, Planned, Verb};
use super::rendering::label;
use super::section::Section;
use crate::api::tls_termination::{self, TlsTermination};
use crate::api::Client;
use crate::error::{Error, Result};
use crate::escape::escape;

/// What changed in the account since a saved plan was made, one line per resource it
/// touches; empty when the plan still holds.
pub fn stale(plan: &AccountPlan, live: &LiveAccount) -> Vec<String> {
    let mut out = Vec::new();
    for p in &plan.actions {
        let items = live.of(p.kind);
        match (&p.action, &p.id) {
            (Verb::Create, _) if p.kind == Section::TlsTermination => {
                if items.iter().any(|l| Some(&l.id) == p.id.as_ref()) {
                    out.push(format!(
                        "{}: a TLS termination was set since the plan",
                        label(p)
                    ));
                }
            }
            (Verb::Create, _) => {
                if let Some(l) = items
                    .iter()
                    .find(|l| l.managed_as.as_deref() == Some(p.name.as_str()))
                {
                    out.push(format!(
                        "{}: made since the plan, as {}",
                        label(p),
                        escape(&l.id)
                    ));
                }
            }
            (_, Some(id)) => match items.iter().find(|l| &l.id == id) {
                None => out.push(format!("{}: deleted since the plan", label(p))),
                Some(l) => {
                    let now = seen_of(l);
                    if now != p.seen {
                        let mut fields = Vec::new();
                        diff("", &p.seen, &now, &mut fields);
                        let paths: Vec<String> = fields
                            .iter()
                            .map(|f| {
                                escape(f.path.trim_start_matches(".form.").trim_start_matches('.'))
                            })
                            .collect();
                        out.push(format!(
                            "{}: changed since the plan ({})",
                            label(p),
                            paths.join(", ")
                        ));
                    }
                }
            },
            (_, None) => {}
        }
    }
    out
}

/// The AWS secrets the plan's bodies need, by variable, read from the environment; a
/// missing one is a configuration error before any write (exit 3).
pub fn secrets(plan: &AccountPlan) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for p in &plan.actions {
        let Some(var) = &p.secret_env else { continue };
        if !holds_secret_placeholder(&p.body) || out.contains_key(var) {
            continue;
        }
        match std::env::var(var) {
            Ok(v) if !v.is_empty() => {
                crate::secrets::register_secret(&v);
                out.insert(var.clone(), v);
            }
            _ => {
                return Err(Error::Config(format!(
                    "{} needs its AWS secret access key from the environment variable {}, which is not set; nothing was sent",
                    label(p),
                    escape(var)
                )))
            }
        }
    }
    Ok(out)
}

/// How far a run got.
#[derive(Debug, Default)]
pub struct ApplyReport {
    /// Changes made, as reported.
    pub done: Vec<String>,
    /// Changes not made (the failed one first).
    pub not_done: Vec<String>,
}

/// Makes the changes in order; `report` is told of each as it lands. Stops at the first
/// failure: with some done, exit 5 ([`Error::Partial`]) after saying what was done and what
/// was not; with none done, the failure itself.
pub async fn run(
    client: &Client,
    plan: &AccountPlan,
    secrets: &BTreeMap<String, String>,
    report: &dyn Fn(&str),
) -> Result<ApplyReport> {
    let mut made: BTreeMap<String, String> = BTreeMap::new();
    let mut progress = ApplyReport::default();
    // A stop signal lets the change under way land, then stops with the report.
    let _graceful = crate::interrupt::graceful_saying(STOP_NOTE);
    for (i, p) in plan.actions.iter().enumerate() {
        if crate::interrupt::requested() {
            let rest = not_done(&plan.actions[i..]);
            report(&stopped_line(&progress, &rest, true));
            return Err(crate::interrupt::stop_error());
        }
        match one(client, p, secrets, &made).await {
            Ok(id) => {
                let verb = match p.action {
                    Verb::Create => "created",
                    Verb::Update => "updated",
                    Verb::Delete => "deleted",
                };
                let mut line = format!("{verb} {}", label(p));
                if let (Verb::Create, Some(id)) = (p.action, &id) {
                    if p.kind != Section::TlsTermination {
                        line.push_str(&format!(" ({})", escape(id)));
                    }
                    if p.kind == Section::EventDestinations {
                        made.insert(p.name.clone(), id.clone());
                    }
                }
                report(&line);
                progress.done.push(line);
            }
            Err(e) => {
                // The first change failing is the error itself, said once (the caller names
                // the change): nothing was done to list.
                if progress.done.is_empty() {
                    return Err(e);
                }
                let rest = not_done(&plan.actions[i..]);
                report(&format!("failed: {}: {e:#}", rest[0]));
                report(&stopped_line(&progress, &rest, again_helps(&e)));
                progress.not_done = rest;
                return Err(Error::Partial {
                    failed: progress.not_done.len(),
                    total: plan.actions.len(),
                    summarized: true,
                });
            }
        }
    }
    Ok(progress)
}

/// What the first stop signal during an apply says.
const STOP_NOTE: &str = "the change under way finishes, then apply stops and says what was done. Ctrl-C or SIGTERM again to stop at once.";

/// The changes not made, as lines.
fn not_done(rest: &[Planned]) -> Vec<String> {
    rest.iter().map(change_line).collect()
}

/// What was done and what was not, when a run stops early; and what to do: run apply again
/// where that can help (`again`), else fix what the service refused.
fn stopped_line(progress: &ApplyReport, rest: &[String], again: bool) -> String {
    let next = if again {
        "Run apply again to finish: what was made is found again, nothing is sent twice."
    } else {
        "The service refused the change as it is: fix it in the files, then plan again."
    };
    format!(
        "Done: {} change(s). Not done: {} change(s): {}. {next}",
        progress.done.len(),
        rest.len(),
        rest.join("; ")
    )
}

/// Can running apply again get past this failure? Not when the service refused the request
/// itself (a 4xx such as 400: the same change is refused again), but when it was unavailable,
/// limited the rate, lost the answer, or the account moved under the run (404, 409).
pub fn again_helps(e: &Error) -> bool {
    match e {
        Error::Api(f) => {
            !(400..500).contains(&f.status) || matches!(f.status, 404 | 408 | 409 | 429)
        }
        Error::Usage(_) | Error::Config(_) | Error::BadResponse(_) => false,
        _ => true,
    }
}

/// A change as its line names it: `update ip_policies.office (ipp_…)`.
pub fn change_line(p: &Planned) -> String {
    format!("{} {}", verb_word(p.action), label(p))
}

/// The verb of a change, as its line says it.
fn verb_word(v: Verb) -> &'static str {
    match v {
        Verb::Create => "create",
        Verb::Update => "update",
        Verb::Delete => "delete",
    }
}

/// Sends one change; the ID it made or changed.
async fn one(
    client: &Client,
    p: &Planned,
    secrets: &BTreeMap<String, String>,
    made: &BTreeMap<String, String>,
) -> Result<Option<String>> {
    let mut body = p.body.clone();
    if let (Some(var), Value::Object(b)) = (&p.secret_env, &mut body) {
        if let (Some(secret), Some(Value::Object(target))) = (secrets.get(var), b.get_mut("target"))
        {
            for member in target.values_mut() {
                if let Some(s) = member.pointer_mut("/auth/creds/aws_secret_access_key") {
                    if s == &json!(SECRET_SHOWN) {
                        *s = json!(secret);
                    }
                }
            }
        }
    }
    if !p.needs.is_empty() {
        if let Some(Value::Array(ids)) = body.get_mut("destination_ids") {
            for name in &p.needs {
                let id = made.get(name).ok_or_else(|| {
                    Error::usage(format!(
                        "the destination '{}' was not made before it",
                        escape(name)
                    ))
                })?;
                ids.push(json!(id));
            }
        }
    }
    if p.kind == Section::TlsTermination {
        let edge = p.id.as_deref().unwrap_or(&p.name);
        let module = TlsTermination {
            enabled: body.get("enabled").and_then(Value::as_bool),
            terminate_at: body
                .get("terminate_at")
                .and_then(Value::as_str)
                .map(str::to_string),
            min_version: Some(
                body.get("min_version")
                    .and_then(Value::as_str)
                    .map(str::to_string),
            ),
        };
        tls_termination::set(client, edge, &module).await?;
        return Ok(Some(edge.to_string()));
    }
    let Some(resource) = p.kind.resource() else {
        return Ok(None);
    };
    match (p.action, &p.id) {
        (Verb::Create, _) => {
            let created = resource
                .create(client, &body)
                .await
                .map_err(|e| e.with_check(&resource.list_command()))?;
            Ok(created
                .get("id")
                .and_then(Value::as_str)
                .map(str::to_string))
        }
        (Verb::Update, Some(id)) => {
            resource.update(client, id, &body).await?;
            Ok(Some(id.clone()))
        }
        (Verb::Delete, Some(id)) => {
            resource.delete(client, id).await?;
            Ok(Some(id.clone()))
        }
        (_, None) => Ok(None),
    }
}
