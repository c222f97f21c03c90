//! How a change and its values are written wherever a plan is shown (its table, its folded
//! lines, apply's report): what the change does, the resource it changes, a field's name as
//! the files spell it, a value. Everything from a file or the service is escaped here.

use serde_json::Value;

use super::plan::{Planned, Verb};
use crate::escape::escape;

/// What a change does, as the plan shows it.
pub fn verb(v: Verb) -> &'static str {
    match v {
        Verb::Create => "create",
        Verb::Update => "update",
        Verb::Delete => "delete",
    }
}

/// A field's path as the files name it: a subscription's `destinations` (the API's
/// `destination_ids`, which the plan compares), escaped for the terminal.
pub fn field_name(path: &str) -> String {
    let path = match path.strip_prefix("destination_ids") {
        Some(rest) if rest.is_empty() || rest.starts_with('.') => format!("destinations{rest}"),
        _ => path.to_string(),
    };
    escape(&path)
}

/// How a change is named: `ip_policies.office (ipp_…)`.
pub fn label(p: &Planned) -> String {
    let mut out = format!("{}.{}", p.kind.table(), escape(&p.name));
    if let Some(id) = &p.id {
        if id != &p.name {
            out.push_str(&format!(" ({})", escape(id)));
        }
    }
    out
}

/// A value as shown in the plan: JSON, compact, `(none)` for nothing.
pub fn shown(v: &Value) -> String {
    match v {
        Value::Null => "(none)".to_string(),
        other => escape(&other.to_string()),
    }
}
