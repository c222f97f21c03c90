//! The text after a command's help (`after_help`) taken apart: its examples, then its notes.
//!
//! Every command's `after_help` starts with `Example:` or `Examples:` and one example per line,
//! indented two spaces (a long one goes on over the next, more indented lines after a `\`);
//! a blank line ends them and any paragraphs after it are notes. The man pages render the two
//! apart, and the test suite runs every example.

/// An `after_help` text taken apart.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct AfterHelp {
    /// The examples, in order.
    pub examples: Vec<Example>,
    /// Paragraphs of prose after the examples (or all of the text when it has no examples).
    pub notes: Vec<String>,
}

/// One example command line, as written in the help.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// Its lines without the help's indentation: the command, then any continuation lines
    /// (each after a line ending in `\`), which keep their extra indentation.
    pub lines: Vec<String>,
}

impl Example {
    /// The example as shell text (continuation lines joined by their backslash-newline).
    pub fn shell(&self) -> String {
        self.lines.join("\n")
    }
}

/// Takes an `after_help` text apart.
pub fn parse(text: &str) -> AfterHelp {
    let mut parsed = AfterHelp::default();
    let mut lines = text.lines().peekable();
    let in_examples = lines
        .peek()
        .is_some_and(|l| matches!(l.trim_end(), "Example:" | "Examples:"));
    if in_examples {
        lines.next();
        while let Some(line) = lines.next_if(|l| !l.trim().is_empty()) {
            let body = line.strip_prefix("  ").unwrap_or(line);
            let continues = parsed
                .examples
                .last()
                .and_then(|e| e.lines.last())
                .is_some_and(|l| l.trim_end().ends_with('\\'));
            match parsed.examples.last_mut() {
                Some(example) if continues => example.lines.push(body.to_string()),
                _ => parsed.examples.push(Example {
                    lines: vec![body.to_string()],
                }),
            }
        }
    }
    let mut paragraph: Vec<&str> = Vec::new();
    for line in lines {
        if line.trim().is_empty() {
            if !paragraph.is_empty() {
                parsed.notes.push(paragraph.join(" "));
                paragraph.clear();
            }
        } else {
            paragraph.push(line.trim());
        }
    }
    if !paragraph.is_empty() {
        parsed.notes.push(paragraph.join(" "));
    }
    parsed
}

/// `text` as help shows it: the examples as written, one per line, and each note on one line
/// of its own, which clap then wraps at spaces for the terminal's width. (A note kept on the
/// lines it was written on would have each of them wrapped again on a narrower terminal,
/// leaving stubs such as `profile in the` alone on a line.)
pub fn reflowed(text: &str) -> String {
    let parsed = parse(text);
    let mut blocks: Vec<String> = Vec::new();
    if !parsed.examples.is_empty() {
        let heading = text.lines().next().unwrap_or("Examples:").trim_end();
        let mut block = heading.to_string();
        for line in parsed.examples.iter().flat_map(|e| &e.lines) {
            block.push_str("\n  ");
            block.push_str(line);
        }
        blocks.push(block);
    }
    blocks.extend(parsed.notes);
    blocks.join("\n\n")
}

/// How many examples `-h` shows; `--help` shows them all. Two, so that with the options
/// a command's short help fits a 24-row screen.
pub const SHORT_EXAMPLES: usize = 2;

/// The first [`SHORT_EXAMPLES`] examples of `text` alone, as `-h` shows them (the others and
/// the notes are `--help`'s); `None` when `-h` would show the whole text anyway or it has no
/// examples.
pub fn examples_only(text: &str) -> Option<String> {
    let parsed = parse(text);
    if parsed.examples.is_empty()
        || (parsed.notes.is_empty() && parsed.examples.len() <= SHORT_EXAMPLES)
    {
        return None;
    }
    let heading = text.lines().next().unwrap_or("Examples:").trim_end();
    let shown = &parsed.examples[..parsed.examples.len().min(SHORT_EXAMPLES)];
    let mut block = heading.to_string();
    for line in shown.iter().flat_map(|e| &e.lines) {
        block.push_str("\n  ");
        block.push_str(line);
    }
    Some(block)
}

/// `cmd` and every command under it with their `after_help` [`reflowed`]: `--help` shows it
/// whole, `-h` its first examples only, so that a command's short help fits a screen.
pub fn reflow_all(mut cmd: clap::Command) -> clap::Command {
    let long = cmd
        .get_after_long_help()
        .or_else(|| cmd.get_after_help())
        .map(|t| t.to_string());
    let short = cmd.get_after_help().map(|t| t.to_string());
    if let Some(text) = long {
        cmd = cmd.after_long_help(reflowed(&text));
    }
    if let Some(text) = short {
        let shown = examples_only(&text).unwrap_or_else(|| reflowed(&text));
        cmd = cmd.after_help(shown);
    }
    cmd.mut_subcommands(reflow_all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_become_one_line_each_and_examples_stay() {
        let text = "Examples:\n  tunnelctl a   # c\n  tunnelctl b \\\n      --long x\n\nA note\nthat goes on.\n\nAnother.";
        assert_eq!(
            reflowed(text),
            "Examples:\n  tunnelctl a   # c\n  tunnelctl b \\\n      --long x\n\nA note that goes on.\n\nAnother."
        );
        assert_eq!(
            reflowed("Example:\n  tunnelctl x"),
            "Example:\n  tunnelctl x"
        );
        assert_eq!(reflowed("Only\nprose."), "Only prose.");
    }

    #[test]
    fn examples_continuations_and_notes() {
        let text = "Examples:\n  tunnelctl a   # comment\n  tunnelctl b \\\n      --long x\n\nA note\nthat goes on.\n\nAnother.";
        let parsed = parse(text);
        assert_eq!(parsed.examples.len(), 2);
        assert_eq!(parsed.examples[0].shell(), "tunnelctl a   # comment");
        assert_eq!(parsed.examples[1].shell(), "tunnelctl b \\\n    --long x");
        assert_eq!(parsed.notes, vec!["A note that goes on.", "Another."]);
    }

    #[test]
    fn short_help_keeps_the_examples_alone() {
        let text =
            "Examples:\n  tunnelctl a\n  tunnelctl b \\\n      --long x\n\nA note\nthat goes on.";
        assert_eq!(
            examples_only(text).as_deref(),
            Some("Examples:\n  tunnelctl a\n  tunnelctl b \\\n      --long x")
        );
        assert_eq!(examples_only("Example:\n  tunnelctl x"), None);
        assert_eq!(
            examples_only("Examples:\n  tunnelctl a\n  tunnelctl b\n  tunnelctl c").as_deref(),
            Some("Examples:\n  tunnelctl a\n  tunnelctl b")
        );
        assert_eq!(examples_only("Only prose."), None);
    }

    #[test]
    fn text_without_examples_is_notes() {
        let parsed = parse("Just prose.");
        assert!(parsed.examples.is_empty());
        assert_eq!(parsed.notes, vec!["Just prose."]);
    }
}
