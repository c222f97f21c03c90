//! Dynamic shell completion: resource IDs and tunnel names from the live APIs.
//!
//! The shell calls `tunnelctl` back with `COMPLETE=<shell>` for every completion (clap's
//! `CompleteEnv`); these functions answer with what is online now. Settings come from the
//! environment and the config file, each lookup is bounded by a short timeout, and any failure
//! means no candidates rather than an error in the middle of the user's command line.

use std::time::Duration;

use clap_complete::engine::{CompletionCandidate, ValueCandidates};
use serde_json::Value;

use crate::api::Resource;
use crate::context::Context;
use crate::output::{OutputFlags, Printer, Streams};
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
    flags.give(&crate::registry::RATE, "off");
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

/// The IDs of a management collection, each with its [`Resource::summary`] fields as help:
/// `ArgValueCandidates::new(Ids(&RESOURCE))` on an argument that takes one of its IDs.
#[derive(Clone, Copy)]
pub struct Ids(pub &'static Resource);

impl ValueCandidates for Ids {
    fn candidates(&self) -> Vec<CompletionCandidate> {
        let resource = self.0;
        live(|ctx| async move {
            let client = ctx.management().ok()?;
            let mut pages = resource.list(&client, Some(MOST)).ok()?;
            let mut out = Vec::new();
            while let Ok(Some(item)) = pages.next_item().await {
                let id = text(&item, "id");
                if !id.is_empty() {
                    let help: Vec<String> =
                        resource.summary.iter().map(|f| text(&item, f)).collect();
                    out.push(CompletionCandidate::new(id).help(Some(help.join(" ").into())));
                }
            }
            Some(out)
        })
    }
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
