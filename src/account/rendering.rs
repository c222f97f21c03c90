//! The plan as people read it: a table of the changes in order, a row per field with its
//! old and new value, then what is kept and what is left alone; in a pipe, the same rows as
//! tab-separated values; `--json` prints the plan itself.
//!
//! Every value of the plan is shown whole: it is what `apply` asks to confirm. The table is
//! drawn with every column at its full width when it fits the terminal, and always off a
//! terminal (`-o table > plan.txt`, for a pull-request comment) or with `-o wide`; a terminal
//! too narrow for it gets the same changes as a list of `field: old -> new` lines, folded
//! ([`super::change_lines`]), never a table with columns left out or values cut.

use std::io::{self, Write};

pub use super::change_text::label;
use super::change_text::{field_name, shown, verb};
use super::plan::{AccountPlan, Verb};
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::output::columns::{col, Cell, Kind, ALWAYS};
use crate::output::table::{width, Layout};
use crate::output::Printer;

/// The rows of a plan as a table: one per field changed.
pub static PLAN_ROWS: Kind = Kind {
    noun: "change",
    plural: "changes",
    columns: &[
        col("ACTION", "action", Cell::Text, ALWAYS),
        col("RESOURCE", "resource", Cell::Text, ALWAYS),
        col("ID", "id", Cell::Text, 4),
        col("FIELD", "field", Cell::Text, 2),
        col("OLD", "old", Cell::Free, 3),
        col("NEW", "new", Cell::Free, 2),
    ],
};

/// The plan's rows: each change's fields, the change named on its first row only when
/// `repeat` is false (a table), on every row when true (TSV, for `cut` and `awk`).
fn rows(plan: &AccountPlan, repeat: bool) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for p in &plan.actions {
        let head = vec![
            verb(p.action).to_string(),
            format!("{}.{}", p.kind.table(), escape(&p.name)),
            p.id.as_deref().map(escape).unwrap_or_default(),
        ];
        if p.fields.is_empty() {
            out.push([head.clone(), vec![String::new(); 3]].concat());
        }
        for (i, f) in p.fields.iter().enumerate() {
            let first = if i == 0 || repeat {
                head.clone()
            } else {
                vec![String::new(); 3]
            };
            let old = if p.action == Verb::Create {
                String::new()
            } else {
                shown(&f.old)
            };
            out.push([first, vec![field_name(&f.path), old, shown(&f.new)]].concat());
        }
    }
    out
}

/// Writes the plan for a person, then what is kept and left alone, and the counts: a table
/// with every column whole where `terminal` is `None` (off a terminal) or `-o wide`, or where
/// it fits the terminal's width; the changes as folded lines where it does not.
pub fn write_table(
    plan: &AccountPlan,
    terminal: Option<u16>,
    wide: bool,
    color: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    write_changes(plan, terminal, wide, color, out)?;
    write_footer(plan, out)
}

/// Writes the changes of the plan as [`write_table`] does, without what follows them.
pub fn write_changes(
    plan: &AccountPlan,
    terminal: Option<u16>,
    wide: bool,
    color: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    if !plan.changes {
        return Ok(());
    }
    let rows = rows(plan, false);
    match terminal {
        Some(room) if !wide && full_width(&rows) > usize::from(room) => {
            super::change_lines::write(plan, usize::from(room), out)
        }
        _ => {
            let layout = Layout::every(&PLAN_ROWS, &rows);
            writeln!(out, "{}", layout.draw(&rows, true, color))
        }
    }
}

/// How wide the plan's table is with every column whole.
fn full_width(rows: &[Vec<String>]) -> usize {
    let columns = PLAN_ROWS.columns;
    let widest = |i: usize| {
        rows.iter()
            .filter_map(|r| r.get(i))
            .map(|c| width(c))
            .fold(width(columns[i].header), usize::max)
    };
    (0..columns.len()).map(widest).sum::<usize>() + 2 * columns.len().saturating_sub(1)
}

/// Writes the plan's rows as tab-separated values, no header.
pub fn write_tsv(plan: &AccountPlan, out: &mut dyn Write) -> io::Result<()> {
    for row in rows(plan, true) {
        writeln!(out, "{}", row.join("\t"))?;
    }
    Ok(())
}

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

/// What is kept, what is left alone, and the counts.
fn write_footer(plan: &AccountPlan, out: &mut dyn Write) -> io::Result<()> {
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

/// Prints a plan through `printer`: a table (and what is kept, left alone, and the counts)
/// for a table, its rows for TSV (the rest then on stderr), the plan itself for JSON.
pub fn print(plan: &AccountPlan, printer: &Printer) -> Result<()> {
    let doc = serde_json::to_value(plan)
        .map_err(|e| Error::Io(format!("could not encode the plan: {e}")))?;
    let mut rows_only = false;
    printer.document_or_text(&doc, |out, table| {
        if table {
            let terminal = printer.tty.then(|| printer.streams.width());
            write_table(plan, terminal, printer.wide, printer.color, out)
        } else {
            rows_only = true;
            write_tsv(plan, out)
        }
    })?;
    if rows_only {
        let mut footer = Vec::new();
        write_footer(plan, &mut footer)?;
        printer.note(String::from_utf8_lossy(&footer).trim_end());
    }
    Ok(())
}
