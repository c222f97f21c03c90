//! Option descriptions as `-h` shows them: the first clause of a long one, so that a
//! command's short help stays near a screen; `--help` (and the man page) keeps the whole text.
//!
//! A description longer than [`LONG`] characters with no long text of its own is cut at its
//! first `; ` or `: ` (after the first few words), and a parenthesis it then ends with is left
//! out: what remains says what the option does, what is left out how (`Set a field of the
//! JSON body (repeatable)` / `: keys joined by dots, …`).

use clap::{Arg, Command};

/// Past this many characters a description takes two lines of `-h` at 80 columns.
const LONG: usize = 50;

/// The first clause ends no sooner than this: a shorter one would say too little.
const FIRST_WORDS: usize = 12;

/// The screen width `-h` is made to fit.
const SCREEN: usize = 80;

/// Past this many columns the flags take, clap puts every description of a command on a line
/// of its own as soon as one does not fit beside its flag (40% of the width), doubling `-h`.
const FLAG_COLUMN: usize = SCREEN * 2 / 5;

/// `cmd` and every command under it with their long option descriptions shortened for `-h`.
pub fn shorten_all(cmd: Command) -> Command {
    let room = room_beside_flags(&cmd);
    cmd.mut_args(|arg| shorten(arg, room))
        .mut_subcommands(shorten_all)
}

/// The columns left for a description beside the widest flag of `cmd`'s `-h` at
/// [`SCREEN`] columns; `None` when the flags are narrow enough that clap wraps each
/// description beside its flag instead.
fn room_beside_flags(cmd: &Command) -> Option<usize> {
    let widest = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_hide_short_help_set() && !a.is_positional())
        .map(flag_width)
        .max()?;
    // clap's indentation and the room a short flag (`-x, `) takes.
    let taken = widest + 8;
    (taken > FLAG_COLUMN).then(|| SCREEN.saturating_sub(taken))
}

/// `--long <VALUE>` as clap shows it.
fn flag_width(arg: &Arg) -> usize {
    let long = arg.get_long().map_or(0, |l| l.chars().count() + 2);
    let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values());
    let value = match arg.get_value_names() {
        Some(names) if takes_value => names.iter().map(|n| n.chars().count() + 3).sum(),
        None if takes_value => arg.get_id().as_str().chars().count() + 3,
        _ => 0,
    };
    long + value
}

/// What clap adds after a description in `-h`: ` [default: …]`, ` [possible values: …]`.
fn added_width(arg: &Arg) -> usize {
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    let mut width = 0;
    if !defaults.is_empty() && !arg.is_hide_default_value_set() {
        width += " [default: ]".len() + defaults.join(", ").chars().count();
    }
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_string())
        .collect();
    if !values.is_empty() && !arg.is_hide_possible_values_set() {
        width += " [possible values: ]".len() + values.join(", ").chars().count();
    }
    width
}

fn shorten(arg: Arg, room: Option<usize>) -> Arg {
    let Some(help) = arg.get_help().map(|h| h.to_string()) else {
        return arg;
    };
    let has_long = arg.get_long_help().is_some();
    let mut short = help.as_str();
    if !has_long {
        short = first_clause(short, LONG).unwrap_or(short);
        short = without_last_aside(short, LONG).unwrap_or(short);
    }
    // Beside wide flags, a description that does not fit would put every one of the
    // command's on a line of its own: cut it further.
    if let Some(room) = room {
        let room = room.saturating_sub(added_width(&arg));
        short = first_clause(short, room).unwrap_or(short);
        short = without_last_aside(short, room).unwrap_or(short);
    }
    if short == help {
        return arg;
    }
    let short = short.to_string();
    if has_long {
        arg.help(short)
    } else {
        arg.long_help(help).help(short)
    }
}

/// A `help` longer than `limit` without the parenthesis it ends with (`Send to this server instead of the
/// tunnel's upstream` / `(http:// or https://; …)`).
fn without_last_aside(help: &str, limit: usize) -> Option<&str> {
    if help.chars().count() <= limit || !help.ends_with(')') {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in help.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    let kept = help[..i].trim_end();
                    return (kept.len() >= FIRST_WORDS).then_some(kept);
                }
            }
            _ => {}
        }
    }
    None
}

/// The text before the first `; ` or `: ` of a `help` longer than `limit`, outside parentheses.
fn first_clause(help: &str, limit: usize) -> Option<&str> {
    if help.chars().count() <= limit {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in help.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            ';' | ':' if depth == 0 && i >= FIRST_WORDS && help[i + 1..].starts_with(' ') => {
                // `With --raw: …` names a condition, not what the option does: go on.
                if c == ':' && help.starts_with("With ") && !help[..i].contains(':') {
                    continue;
                }
                return Some(&help[..i]);
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_description_keeps_its_first_clause() {
        assert_eq!(
            first_clause(
                "Set a field of the JSON body (repeatable): keys joined by dots, array indexes",
                LONG
            ),
            Some("Set a field of the JSON body (repeatable)")
        );
        assert_eq!(first_clause("Short: kept whole", LONG), None);
        assert_eq!(
            first_clause(
                "With --raw or --body-only: the response's; else the request's",
                LONG
            ),
            Some("With --raw or --body-only: the response's")
        );
        assert_eq!(
            first_clause(
                "A long description with no clause at all to cut it at, none",
                LONG
            ),
            None
        );
        assert_eq!(
            without_last_aside(
                "Send to this server instead of the tunnel's upstream (http:// or https://)",
                LONG
            ),
            Some("Send to this server instead of the tunnel's upstream")
        );
        assert_eq!(without_last_aside("Short (kept)", LONG), None);
        // Not inside parentheses.
        assert_eq!(
            first_clause(
                "Only sessions of this version (3.19: that release; 3.20) and more",
                LONG
            ),
            None
        );
    }

    #[test]
    fn beside_a_wide_flag_a_description_is_cut_to_fit() {
        let cmd = Command::new("x")
            .arg(
                Arg::new("wide")
                    .long("firehose-delivery-stream-arn")
                    .value_name("ARN"),
            )
            .arg(
                Arg::new("d")
                    .long("description")
                    .help("Human-readable description (at most 255 bytes)"),
            );
        let cmd = shorten_all(cmd);
        let d = cmd.get_arguments().find(|a| a.get_id() == "d").unwrap();
        assert_eq!(
            d.get_help().unwrap().to_string(),
            "Human-readable description"
        );
        assert_eq!(
            d.get_long_help().unwrap().to_string(),
            "Human-readable description (at most 255 bytes)"
        );
        // Narrow flags: clap wraps beside them, nothing is cut.
        let narrow = shorten_all(
            Command::new("y").arg(
                Arg::new("d")
                    .long("description")
                    .help("Human-readable description (at most 255 bytes)"),
            ),
        );
        let d = narrow.get_arguments().find(|a| a.get_id() == "d").unwrap();
        assert!(d.get_long_help().is_none());
    }
}
