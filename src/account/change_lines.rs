//! The plan as a list, for a terminal too narrow for its table: a line per change (what it
//! does, the resource and its ID), then a line per field, `field: old -> new` (`field: new`
//! for a create), folded at the terminal's width. Nothing is cut and no column is left out:
//! every value `apply` asks to confirm is on the screen whole, however long (a description
//! of 255 bytes, an ARN wider than the terminal).

use std::io::{self, Write};

use unicode_width::UnicodeWidthChar;

use super::change_text::{field_name, label, shown, verb};
use super::plan::{AccountPlan, Verb};
use crate::output::table::width;

/// Indentation of a field's line under its change.
const FIELD: &str = "  ";
/// Indentation of what a folded line goes on with.
const MORE: &str = "      ";

/// Writes the changes of `plan` as lines of at most `width` columns.
pub fn write(plan: &AccountPlan, width: usize, out: &mut dyn Write) -> io::Result<()> {
    for p in &plan.actions {
        let head = format!("{} {}", verb(p.action), label(p));
        write_folded(&head, "", width, out)?;
        for f in &p.fields {
            let line = match p.action {
                Verb::Create => format!("{}: {}", field_name(&f.path), shown(&f.new)),
                Verb::Update | Verb::Delete => format!(
                    "{}: {} -> {}",
                    field_name(&f.path),
                    shown(&f.old),
                    shown(&f.new)
                ),
            };
            write_folded(&line, FIELD, width, out)?;
        }
    }
    Ok(())
}

/// `text` after `indent`, folded into lines of at most `columns` (see [`fold`]), each further
/// line indented under it by [`MORE`].
fn write_folded(text: &str, indent: &str, columns: usize, out: &mut dyn Write) -> io::Result<()> {
    let room = columns.saturating_sub(MORE.len()).max(20);
    for (i, line) in fold(text, room).iter().enumerate() {
        let lead = if i == 0 { indent } else { MORE };
        writeln!(out, "{lead}{line}")?;
    }
    Ok(())
}

/// `text` in lines of at most `room` columns, broken at spaces; a word longer than a line
/// (an ARN, a JSON value with no space) is broken after the last `:`, `/`, `-` or `,` that
/// fits, else where the line ends, so that each of its characters is still shown, in order.
fn fold(text: &str, room: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && width(&line) + 1 + width(word) <= room {
            line.push(' ');
            line.push_str(word);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        let mut rest = word;
        while width(rest) > room {
            let at = break_at(rest, room);
            lines.push(rest[..at].to_string());
            rest = &rest[at..];
        }
        line.push_str(rest);
    }
    lines.push(line);
    lines
}

/// Where to break `word` so that its first part fills at most `room` columns: after the last
/// separator that fits, else after as many characters as fit (at least one).
fn break_at(word: &str, room: usize) -> usize {
    let mut used = 0;
    let mut fits = 0;
    let mut after_separator = None;
    for (i, c) in word.char_indices() {
        used += UnicodeWidthChar::width(c).unwrap_or(0);
        if used > room {
            break;
        }
        fits = i + c.len_utf8();
        if matches!(c, ':' | '/' | '-' | ',') {
            after_separator = Some(fits);
        }
    }
    match after_separator {
        Some(at) if at > room / 2 => at,
        _ if fits == 0 => word.chars().next().map_or(word.len(), char::len_utf8),
        _ => fits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_value_is_folded_whole_within_the_width() {
        let arn = format!("\"arn:aws:kinesis:us-east-1:1:stream/{}\"", "x".repeat(90));
        let mut out = Vec::new();
        write_folded(&format!("target.arn: (none) -> {arn}"), FIELD, 80, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        assert!(text.lines().skip(1).all(|l| l.starts_with(MORE)), "{text}");
        let joined: String = text.lines().map(str::trim).collect();
        assert!(joined.contains(&arn), "{text}");
    }

    #[test]
    fn a_word_wider_than_the_line_breaks_after_a_separator() {
        let arn = "arn:aws:kinesis:us-east-1:123456789012:stream/tunnel-events-and-more";
        let lines = fold(arn, 50);
        assert_eq!(
            lines,
            [
                "arn:aws:kinesis:us-east-1:123456789012:stream/",
                "tunnel-events-and-more"
            ]
        );
        assert_eq!(fold("a b", 20), ["a b"]);
        assert_eq!(fold(&"x".repeat(45), 20).concat(), "x".repeat(45));
    }
}
