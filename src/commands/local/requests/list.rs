//! `tunnelctl local requests list`: the captured requests, filtered; and, when `--tunnel NAME`
//! got nothing from the agent, a word on stderr on why: which tunnels have captures, and
//! whether a tunnel of that name exists at all (an http tunnel `hook` captures on its twin
//! `hook (http)`). With `--history`, the captures kept by `record` instead.

use super::filter_flags::Chosen;
use super::history_file::open_for_reading;
use super::listing::CaptureRows;
use crate::agent;
use crate::capture::filter::Query;
use crate::context::Context;
use crate::error::Result;
use crate::escape::escape;
use crate::history::store::StoredSelection;

/// `list [--history]`: the agent's captures, or the kept ones, that the filter flags select.
pub async fn run(ctx: &Context, history: bool, chosen: Chosen) -> Result<()> {
    let query = chosen.only.query_signing(ctx)?;
    let (limit, tunnel) = (chosen.limit, chosen.filter.tunnel.as_deref());
    match history {
        true => list_history(ctx, limit, tunnel, chosen.from.source, query).await,
        false => list(ctx, limit, tunnel, &query).await,
    }
}

/// `list`: the agent's captures, printed as [`CaptureRows`] prints them (each one's JSON
/// text passed on as it came).
async fn list(
    ctx: &Context,
    limit: Option<usize>,
    tunnel: Option<&str>,
    query: &Query,
) -> Result<()> {
    let client = ctx.agent()?;
    // The agent filters by tunnel only: with other filters, every capture is read and
    // --limit counts the matches.
    let asked = if query.is_empty() { limit } else { None };
    let raw = client.requests_raw(asked, tunnel).await?;
    let items = raw.items()?;
    let listed = items.len();
    let mut rows = CaptureRows::start(ctx, query, limit)?;
    for item in items {
        if !rows.push(item)? {
            break;
        }
    }
    rows.finish(ctx)?;
    if let (Some(name), 0) = (tunnel, listed) {
        // A hint, after the data: a failure to gather it changes nothing of the answer.
        if let Ok(lines) = why_none_on(&client, name).await {
            for line in lines {
                ctx.note(&line);
            }
        }
    }
    Ok(())
}

/// `list --history`: the kept captures, newest first, through the same rows as the agent's.
async fn list_history(
    ctx: &Context,
    limit: Option<usize>,
    tunnel: Option<&str>,
    source: Option<String>,
    query: Query,
) -> Result<()> {
    let (texts, rest) = query.take_text();
    let Some(mut store) = open_for_reading(ctx).await? else {
        return CaptureRows::start(ctx, &rest, limit)?.finish(ctx);
    };
    let many = source.is_none() && store.many_sources().await?;
    let mut rows = CaptureRows::start_kept(ctx, many, &rest, limit)?;
    let selection = StoredSelection {
        tunnel: tunnel.map(str::to_string),
        source,
        texts,
    };
    store
        .each(&selection, |json, source| rows.push_from(json, source))
        .await?;
    rows.finish(ctx)
}

/// Why the agent has no captures on the tunnel `name`: whether it exists, and which tunnels
/// do have captures (with a guess at the one meant).
pub(super) async fn why_none_on(client: &agent::AgentClient, name: &str) -> Result<Vec<String>> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    let all = client.requests_raw(None, None).await?;
    for item in all.items()? {
        let on = serde_json::from_str::<OnTunnel>(item)
            .map(|t| t.tunnel_name)
            .unwrap_or_default();
        match counts.iter_mut().find(|(n, _)| *n == on) {
            Some((_, count)) => *count += 1,
            None => counts.push((on, 1)),
        }
    }
    let tunnels = client.tunnels().await?;
    let exists = tunnels.iter().any(|t| agent::name_of(t) == name);
    Ok(explain(name, exists, &counts))
}

/// The `tunnel_name` of a capture, all that the hint reads of it.
#[derive(serde::Deserialize)]
struct OnTunnel {
    #[serde(default)]
    tunnel_name: String,
}

/// The lines that say why `--tunnel name` matched nothing: `exists` says whether a running
/// tunnel has that name; `counts` are the captures per tunnel, in the agent's order.
fn explain(name: &str, exists: bool, counts: &[(String, usize)]) -> Vec<String> {
    let shown = |n: &str| format!("'{}'", escape(n));
    let mut lines = vec![if exists {
        format!("Tunnel {} has no captured requests.", shown(name))
    } else {
        format!("No tunnel is named {}.", shown(name))
    }];
    if counts.is_empty() {
        lines.push("No tunnel has captured requests yet.".to_string());
        return lines;
    }
    let have: Vec<String> = counts
        .iter()
        .map(|(n, c)| format!("{} has {c}", shown(n)))
        .collect();
    lines.push(format!("Captured requests are on: {}.", have.join(", ")));
    // `hook` for `hook (http)`: an http tunnel captures on its twin.
    let meant = counts.iter().map(|(n, _)| n).find(|n| {
        n.strip_prefix(name)
            .is_some_and(|rest| rest.starts_with(" ("))
    });
    if let Some(meant) = meant {
        lines.push(format!(
            "Try --tunnel {}",
            crate::capture::curl::shell_quote(&escape(meant))
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_which_tunnels_have_captures_and_guesses_the_one_meant() {
        let counts = vec![("hook (http)".to_string(), 3), ("web".to_string(), 1)];
        assert_eq!(
            explain("hook", true, &counts),
            [
                "Tunnel 'hook' has no captured requests.",
                "Captured requests are on: 'hook (http)' has 3, 'web' has 1.",
                "Try --tunnel 'hook (http)'"
            ]
        );
        assert_eq!(
            explain("nope", false, &counts)[0],
            "No tunnel is named 'nope'."
        );
        assert_eq!(explain("nope", false, &counts).len(), 2);
        assert_eq!(
            explain("x", false, &[])[1],
            "No tunnel has captured requests yet."
        );
    }
}
