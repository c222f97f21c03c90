//! The plan as people read it: each change in order, with each field's old and new value,
//! then what is kept and what is left alone. The same text on a terminal, in a pipe and in
//! a pull-request comment; `--json` prints the plan itself.

use std::io::{self, Write};

use serde_json::Value;

use super::plan::{AccountPlan, Planned, Verb};
use crate::escape::escape;

/// The line that ends the plan (and starts it on stderr for `apply`): the counts.
pub fn summary_line(plan: &AccountPlan) -> String {
    let s = &plan.summary;
    if !plan.changes {
        return format!(
            "No changes: the account matches the files ({} resource(s) checked).",
            s.unchanged
        );
    }
    format!(
        "Plan: {} to create, {} to update, {} to delete; {} unchanged.",
        s.create, s.update, s.delete, s.unchanged
    )
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
fn shown(v: &Value) -> String {
    match v {
        Value::Null => "(none)".to_string(),
        other => escape(&other.to_string()),
    }
}

/// Writes the plan as text.
pub fn write_text(plan: &AccountPlan, out: &mut dyn Write) -> io::Result<()> {
    for p in &plan.actions {
        let (sign, verb) = match p.action {
            Verb::Create => ('+', "create"),
            Verb::Update => ('~', "update"),
            Verb::Delete => ('-', "delete"),
        };
        writeln!(out, "{sign} {verb} {}", label(p))?;
        for f in &p.fields {
            match p.action {
                Verb::Create => writeln!(out, "    {}: {}", escape(&f.path), shown(&f.new))?,
                _ => writeln!(
                    out,
                    "    {}: {} -> {}",
                    escape(&f.path),
                    shown(&f.old),
                    shown(&f.new)
                )?,
            }
        }
    }
    if !plan.not_in_files.is_empty() {
        writeln!(
            out,
            "Kept: {} resource(s) tunnelctl manages that the files no longer name (--prune deletes them):",
            plan.not_in_files.len()
        )?;
        for r in &plan.not_in_files {
            writeln!(
                out,
                "    {}.{} ({})",
                r.kind.table(),
                escape(&r.name),
                escape(&r.id)
            )?;
        }
    }
    if plan.summary.unmanaged > 0 {
        writeln!(
            out,
            "Left alone: {} resource(s) tunnelctl does not manage.",
            plan.summary.unmanaged
        )?;
    }
    writeln!(out, "{}", summary_line(plan))
}
