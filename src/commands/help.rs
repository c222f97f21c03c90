//! `tunnelctl help [TOPIC | COMMAND…]`: help on a command, or on a topic (exit-codes), laid
//! out for the terminal's width and broken only at spaces, as clap lays out `--help`.

use crate::output::print_bytes;

use clap::Args;

use crate::error::{Error, Result, EXIT_CODES_HELP};

/// Arguments of `help`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  tunnelctl help exit-codes\n  tunnelctl help sessions restart")]
pub struct HelpArgs {
    /// A topic (exit-codes) or a command path (e.g. sessions restart)
    #[arg(value_name = "TOPIC|COMMAND")]
    words: Vec<String>,
}

/// The widest a topic is laid out, however wide the terminal: `--help`'s limit.
const MAX_WIDTH: usize = 100;

/// One unit of text to lay out: a paragraph, or an entry `  TERM   text` whose lines go on
/// under its text (a hanging indent).
struct Unit<'a> {
    /// What the first line starts with (the indentation, or the entry's term and gap).
    lead: &'a str,
    /// The columns every further line is indented by.
    hang: usize,
    words: Vec<&'a str>,
}

impl<'a> Unit<'a> {
    /// A unit begun by `line`.
    fn of(line: &'a str) -> Unit<'a> {
        let indent = line.len() - line.trim_start().len();
        // An entry: indented, a term without spaces, then a gap of two spaces or more.
        let entry = (indent > 0)
            .then(|| line[indent..].find("  ").map(|gap| indent + gap))
            .flatten()
            .filter(|gap| !line[indent..*gap].contains(' '));
        let text_at = match entry {
            Some(gap) => gap + line[gap..].len() - line[gap..].trim_start().len(),
            None => indent,
        };
        Unit {
            lead: &line[..text_at],
            hang: text_at,
            words: line[text_at..].split_whitespace().collect(),
        }
    }

    /// Whether `line` goes on with this unit rather than beginning the next.
    fn goes_on_with(&self, line: &str) -> bool {
        let indent = line.len() - line.trim_start().len();
        indent == self.hang && !self.words.is_empty()
    }

    /// The unit's lines, at most `width` columns where its words allow (a word longer than
    /// the room is put on a line of its own, never cut).
    fn lines(&self, width: usize, out: &mut String) {
        let mut line = self.lead.to_string();
        let mut empty = true;
        for word in &self.words {
            let used = line.chars().count();
            if !empty && used + 1 + word.chars().count() > width {
                out.push_str(line.trim_end());
                out.push('\n');
                line = " ".repeat(self.hang);
                empty = true;
            }
            if !empty {
                line.push(' ');
            }
            line.push_str(word);
            empty = false;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// `text` laid out again for `width` columns, broken at spaces: the lines of a paragraph
/// joined and wrapped, an entry (`  2    usage error: …`) wrapped under its text; blank lines
/// kept.
pub fn fit(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut unit: Option<Unit<'_>> = None;
    for line in text.lines() {
        if line.trim().is_empty() {
            if let Some(u) = unit.take() {
                u.lines(width, &mut out);
            }
            out.push('\n');
            continue;
        }
        match &mut unit {
            Some(u) if u.goes_on_with(line) => u.words.extend(line.split_whitespace()),
            _ => {
                if let Some(u) = unit.replace(Unit::of(line)) {
                    u.lines(width, &mut out);
                }
            }
        }
    }
    if let Some(u) = unit {
        u.lines(width, &mut out);
    }
    out
}

/// Prints the help asked for.
pub fn run(args: HelpArgs) -> Result<()> {
    if args.words.len() == 1 && args.words[0] == "exit-codes" {
        let width = crate::output::Streams::system().width();
        let width = usize::from(width).min(MAX_WIDTH);
        return print_bytes(fit(EXIT_CODES_HELP, width).as_bytes());
    }
    let mut cmd = crate::cli::command();
    cmd.build();
    let mut current = &cmd;
    for word in &args.words {
        current = current.find_subcommand(word).ok_or_else(|| {
            Error::usage(format!(
                "no help topic or command '{word}'; try 'tunnelctl help exit-codes' or 'tunnelctl --help'"
            ))
        })?;
    }
    print_bytes(current.clone().render_long_help().to_string().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_wrap_under_their_text_and_paragraphs_at_spaces() {
        let text = "Codes:\n  0    success\n  2    usage error: bad flags or arguments,\n       a refusal\n\nA paragraph that\ngoes on here.\n";
        assert_eq!(
            fit(text, 24),
            "Codes:\n  0    success\n  2    usage error: bad\n       flags or\n       arguments, a\n       refusal\n\nA paragraph that goes on\nhere.\n"
        );
    }

    #[test]
    fn the_exit_codes_fit_80_columns_without_a_word_cut() {
        let laid = fit(EXIT_CODES_HELP, 80);
        assert!(laid.lines().all(|l| l.chars().count() <= 80), "{laid}");
        let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(
            words(&laid),
            words(EXIT_CODES_HELP),
            "every word kept whole"
        );
        assert!(laid.contains("\n  1    the API answered"), "{laid}");
    }
}
