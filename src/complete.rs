//! Dynamic shell completion: resource IDs and tunnel names from the live APIs.
//!
//! The shell calls `tunnelctl` back with `COMPLETE=<shell>` for every completion (clap's
//! `CompleteEnv`); these functions answer with what is online now. Settings come from the
//! environment and the config file, each lookup is bounded by a short timeout, and any failure
//! means no candidates rather than an error in the middle of the user's command line.

use std::time::Duration;

use clap_complete::engine::CompletionCandidate;
use serde_json::Value;

use crate::api::{self, Resource};
use crate::context::Context;
use crate::output::{OutputFlags, Printer, Streams};
use crate::ratelimit::RateSetting;
use crate::settings::SettingFlags;

/// How long one completion may take.
const BUDGET: Duration = Duration::from_millis(1500);
/// At most this many candidates.
const MOST: usize = 200;

/// The settings from the environment and config file (no flags are known at completion time).
fn context() -> Option<Context> {
    let mut flags = SettingFlags::from_env();
    let quiet = OutputFlags {
        quiet: true,
        ..OutputFlags::default()
    };
    let out = Printer::resolve(&quiet, Streams::system()).ok()?;
    flags.timeout = Some(BUDGET);
    flags.rate = Some(RateSetting::Off);
    flags.verbose = false;
    Some(Context::new(flags, out))
}

/// Runs `fetch` on a small runtime within the budget; nothing on any failure.
fn live<F, Fut>(fetch: F) -> Vec<CompletionCandidate>
where
    F: FnOnce(Context) -> Fut,
    Fut: std::future::Future<Output = Option<Vec<CompletionCandidate>>>,
{
    let Some(ctx) = context() else {
        return Vec::new();
    };
    let Ok(rt) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return Vec::new();
    };
    rt.block_on(async {
        tokio::time::timeout(BUDGET, fetch(ctx))
            .await
            .ok()
            .flatten()
    })
    .unwrap_or_default()
}

fn text(v: &Value, k: &str) -> String {
    crate::escape::escape(v.get(k).and_then(Value::as_str).unwrap_or(""))
}

/// IDs of a management collection, each with a short help from `help`.
fn ids(resource: &'static Resource, help: fn(&Value) -> String) -> Vec<CompletionCandidate> {
    live(|ctx| async move {
        let client = ctx.management().ok()?;
        let mut pages = resource.list(&client, Some(MOST)).ok()?;
        let mut out = Vec::new();
        while let Ok(Some(item)) = pages.next_item().await {
            let id = text(&item, "id");
            if !id.is_empty() {
                out.push(CompletionCandidate::new(id).help(Some(help(&item).into())));
            }
        }
        Some(out)
    })
}

/// Online session IDs.
pub fn session_ids() -> Vec<CompletionCandidate> {
    ids(&api::sessions::RESOURCE, |s| {
        format!(
            "{} {} {} {}",
            text(s, "region"),
            text(s, "os"),
            text(s, "agent_version"),
            text(s, "ip")
        )
    })
}

/// IP policy IDs.
pub fn ip_policy_ids() -> Vec<CompletionCandidate> {
    ids(&api::ip_policies::RESOURCE, |p| text(p, "description"))
}

/// Tunnel-group backend IDs.
pub fn backend_ids() -> Vec<CompletionCandidate> {
    ids(&api::backends::RESOURCE, |b| text(b, "description"))
}

/// Event destination IDs.
pub fn destination_ids() -> Vec<CompletionCandidate> {
    ids(&api::event_destinations::RESOURCE, |d| {
        text(d, "description")
    })
}

/// Event subscription IDs.
pub fn subscription_ids() -> Vec<CompletionCandidate> {
    ids(&api::event_subscriptions::RESOURCE, |s| {
        text(s, "description")
    })
}

/// Names of the local agent's tunnels.
pub fn tunnel_names() -> Vec<CompletionCandidate> {
    live(|ctx| async move {
        let tunnels = ctx.agent().ok()?.tunnels().await.ok()?;
        Some(
            tunnels
                .iter()
                .map(|t| {
                    CompletionCandidate::new(text(t, "name"))
                        .help(Some(text(t, "public_url").into()))
                })
                .collect(),
        )
    })
}

/// IDs of the requests the local agent captured, newest first.
pub fn captured_ids() -> Vec<CompletionCandidate> {
    live(|ctx| async move {
        let requests = ctx.agent().ok()?.requests(Some(50), None).await.ok()?;
        Some(
            requests
                .iter()
                .map(|r| {
                    let req = r.get("request").cloned().unwrap_or(Value::Null);
                    CompletionCandidate::new(text(r, "id")).help(Some(
                        format!("{} {}", text(&req, "method"), text(&req, "uri")).into(),
                    ))
                })
                .collect(),
        )
    })
}
