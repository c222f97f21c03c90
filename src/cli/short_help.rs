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

/// `cmd` and every command under it with their long option descriptions shortened for `-h`.
pub fn shorten_all(cmd: Command) -> Command {
    cmd.mut_args(shorten).mut_subcommands(shorten_all)
}

fn shorten(arg: Arg) -> Arg {
    if arg.get_long_help().is_some() {
        return arg;
    }
    let Some(help) = arg.get_help().map(|h| h.to_string()) else {
        return arg;
    };
    let short = first_clause(&help).unwrap_or(&help);
    let short = without_last_aside(short).unwrap_or(short);
    if short == help {
        return arg;
    }
    let short = short.to_string();
    arg.long_help(help).help(short)
}

/// A long `help` without the parenthesis it ends with (`Send to this server instead of the
/// tunnel's upstream` / `(http:// or https://; …)`).
fn without_last_aside(help: &str) -> Option<&str> {
    if help.chars().count() <= LONG || !help.ends_with(')') {
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

/// The text before the first `; ` or `: ` of a long `help`, outside parentheses.
fn first_clause(help: &str) -> Option<&str> {
    if help.chars().count() <= LONG {
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
                "Set a field of the JSON body (repeatable): keys joined by dots, array indexes"
            ),
            Some("Set a field of the JSON body (repeatable)")
        );
        assert_eq!(first_clause("Short: kept whole"), None);
        assert_eq!(
            first_clause("With --raw or --body-only: the response's; else the request's"),
            Some("With --raw or --body-only: the response's")
        );
        assert_eq!(
            first_clause("A long description with no clause at all to cut it at, none"),
            None
        );
        assert_eq!(
            without_last_aside(
                "Send to this server instead of the tunnel's upstream (http:// or https://)"
            ),
            Some("Send to this server instead of the tunnel's upstream")
        );
        assert_eq!(without_last_aside("Short (kept)"), None);
        // Not inside parentheses.
        assert_eq!(
            first_clause("Only sessions of this version (3.19: that release; 3.20) and more"),
            None
        );
    }
}
