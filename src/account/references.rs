//! What the files name of the account, checked against the account as read before any
//! change is planned: an adopted ID it holds, a TLS edge it has, a destination ID it holds.
//! Each would be refused by the service at `apply` (404, or 400 for a subscription naming a
//! destination that is not there), after the changes before it were made; `plan` refuses
//! them all at once instead, each at its key's line, with what to do, before any write.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::desired::{is_id, refused, Desired, FileProblem, Wanted};
use super::live::LiveAccount;
use super::section::Section;
use crate::error::Result;

/// Checks every reference of `desired` to the account `live` holds; the problems in the
/// files' order.
pub fn check(desired: &Desired, live: &LiveAccount) -> Result<()> {
    let held: HashMap<Section, HashSet<&str>> = Section::ALL
        .into_iter()
        .map(|s| (s, live.of(s).iter().map(|l| l.id.as_str()).collect()))
        .collect();
    let holds = |section: Section, id: &str| held.get(&section).is_some_and(|ids| ids.contains(id));
    let mut problems = Vec::new();
    for w in &desired.wanted {
        let section = w.section;
        if let (Some(resource), Some(id)) = (section.resource(), w.id.as_deref()) {
            if !holds(section, id) {
                problems.push(FileProblem {
                    spot: w.spot_at(w.lines.id),
                    key: format!("{}.{}.id", section.table(), w.name),
                    reason: format!(
                        "the account holds no {} '{id}' (deleted?): remove the id line to make a new one, or name one it holds ({})",
                        resource.kind.noun,
                        resource.list_command()
                    ),
                });
            }
        }
        if section == Section::TlsTermination {
            if let Some((_, e)) = live.missing_edges.iter().find(|(edge, _)| *edge == w.name) {
                problems.push(FileProblem {
                    spot: w.spot.clone(),
                    key: format!("{}.{}", section.table(), w.name),
                    reason: format!(
                        "the account has no TLS edge '{}' ({}); check the ID",
                        w.name,
                        super::edges::answer(e)
                    ),
                });
            }
        }
        for id in named_ids(w).filter(|id| !holds(Section::EventDestinations, id)) {
            problems.push(FileProblem {
                spot: w.spot_at(w.lines.destinations),
                key: format!("event_subscriptions.{}.destinations", w.name),
                reason: format!(
                    "the account holds no event destination '{id}': name one it holds (tunnelctl event-destinations list), or a destination of the files by its name"
                ),
            });
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(refused(&problems))
    }
}

/// The destinations a subscription names by ID (`ed_…`; the rest are names of the files).
fn named_ids(w: &Wanted) -> impl Iterator<Item = &str> {
    w.form
        .get("destination_ids")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|d| is_id(d, "ed_"))
}
