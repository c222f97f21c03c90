//! Choosing the sessions a fleet command acts on: the IDs given, the sessions the selectors
//! match, or, on a terminal with neither, the person's pick from the live list; then leaving
//! out the sessions selectors chose that the API reference says would only refuse ([`capable`]).

use std::collections::HashSet;

use serde_json::{json, Value};

use super::select::Selector;
use super::Console;
use super::{capable, field, id_of, wait};
use crate::api::Client;
use crate::error::{Error, Result};
use crate::escape::escape;

/// Which sessions a fleet command was asked to act on: IDs, or selectors (or `--all`), or
/// neither, when a person at a terminal picks them.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Session IDs given by name.
    pub ids: Vec<String>,
    /// The selectors given.
    pub selector: Selector,
}

/// The sessions a fleet command sends to, and those selectors left out (with why).
pub struct Targets {
    /// The sessions to send to, in order.
    pub send: Vec<Value>,
    /// The sessions selectors chose that cannot take the command, and why.
    pub skipped: Vec<(Value, &'static str)>,
}

impl Targets {
    /// The sessions to act on for `verb`, and those left out. With `need_details`, sessions
    /// given by ID are read from the list (their fields are needed to know them again). Only
    /// sessions chosen by selectors are left out: a session named or picked is always sent
    /// (the picker offers only the sessions that can take the command).
    pub async fn choose(
        ctx: &Console<'_>,
        client: &Client,
        selection: &Selection,
        verb: &str,
        need_details: bool,
    ) -> Result<Targets> {
        let chosen = chosen(ctx, client, selection, verb, need_details).await?;
        if !selection.selector.is_given() {
            return Ok(Targets {
                send: chosen,
                skipped: Vec::new(),
            });
        }
        let (mut send, mut skipped) = (Vec::new(), Vec::new());
        for s in chosen {
            match capable::refusal(verb, &s) {
                Some(why) => skipped.push((s, why)),
                None => send.push(s),
            }
        }
        Ok(Targets { send, skipped })
    }

    /// The IDs of the sessions to send to.
    pub fn ids(&self) -> Vec<String> {
        self.send.iter().map(|s| id_of(s).to_string()).collect()
    }
}

/// The sessions named, selected or picked, before any is left out.
async fn chosen(
    ctx: &Console<'_>,
    client: &Client,
    selection: &Selection,
    verb: &str,
    need_details: bool,
) -> Result<Vec<Value>> {
    let (ids, sel) = (&selection.ids, &selection.selector);
    if !ids.is_empty() && sel.is_given() {
        return Err(Error::usage(
            "give session IDs or selectors (--region, --os, …, --all), not both",
        ));
    }
    if !ids.is_empty() {
        let mut seen = HashSet::new();
        for id in ids {
            crate::http::encode_segment("session ID", id)?;
            if !seen.insert(id) {
                return Err(Error::usage(format!(
                    "the session ID {} is given twice",
                    escape(id)
                )));
            }
        }
        if !need_details {
            return Ok(ids.iter().map(|id| json!({ "id": id })).collect());
        }
        let all = wait::all_sessions(client).await?;
        return Ok(ids
            .iter()
            .map(|id| {
                all.iter()
                    .find(|s| id_of(s) == id)
                    .cloned()
                    .unwrap_or_else(|| json!({ "id": id }))
            })
            .collect());
    }
    if sel.is_given() {
        let all = wait::all_sessions(client).await?;
        return Ok(all.into_iter().filter(|s| sel.matches(s)).collect());
    }
    if !ctx.prompter.is_interactive() {
        return Err(Error::usage(format!(
            "which sessions? Give session IDs, a selector (--region, --os, --agent-version, --credential-id, --ip, --metadata-contains) or --all to {verb}"
        )));
    }
    pick(ctx, client, verb).await
}

/// Lets the person pick sessions from the live list: those that can take `verb` (a Windows
/// agent is not offered a restart, which it would only refuse), with a note of those left out.
async fn pick(ctx: &Console<'_>, client: &Client, verb: &str) -> Result<Vec<Value>> {
    let all = wait::all_sessions(client).await?;
    if all.is_empty() {
        return Err(Error::usage("there are no online sessions to choose from"));
    }
    let (all, refused): (Vec<Value>, Vec<Value>) = all
        .into_iter()
        .partition(|s| capable::refusal(verb, s).is_none());
    if let Some(why) = refused.first().and_then(|s| capable::refusal(verb, s)) {
        let n = refused.len();
        if all.is_empty() {
            return Err(Error::usage(format!(
                "none of the {n} online session(s) can take {verb}: {why}"
            )));
        }
        ctx.note(&format!("{n} session(s) not offered: {why}."));
    }
    let labels = session_lines(&all);
    let picked = ctx.prompter.pick(&format!("Sessions to {verb}"), &labels)?;
    if picked.is_empty() {
        return Err(Error::usage("no session chosen"));
    }
    Ok(picked
        .into_iter()
        .filter_map(|i| all.get(i).cloned())
        .collect())
}

/// A session as questions show it (the picker, the stop confirmation), a cell each: ID,
/// region, OS, agent version, IP and metadata, escaped; [`crate::prompt::columns`] lines them up.
fn session_cells(s: &Value) -> Vec<String> {
    [
        id_of(s),
        field(s, "region"),
        field(s, "os"),
        field(s, "agent_version"),
        field(s, "ip"),
        field(s, "metadata"),
    ]
    .iter()
    .map(|cell| escape(cell))
    .collect()
}

/// The sessions as questions show them, a line each, in columns.
pub fn session_lines(sessions: &[Value]) -> Vec<String> {
    let cells: Vec<Vec<String>> = sessions.iter().map(session_cells).collect();
    crate::prompt::columns(&cells)
}
