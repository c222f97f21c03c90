//! `tunnelctl help [TOPIC | COMMAND…]`: help on a command, or on a topic (exit-codes, filters,
//! output), laid out for the terminal's width and broken only at spaces, as clap lays out
//! `--help`. A topic holds what many commands share; what one command does stays in its own
//! `--help` and man page.

use crate::output::print_bytes;

use clap::Args;

use crate::error::{Error, Result, EXIT_CODES_HELP};

/// Arguments of `help`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  tunnelctl help exit-codes\n  tunnelctl help filters\n  tunnelctl help output\n  tunnelctl help sessions restart"
)]
pub struct HelpArgs {
    /// A topic (exit-codes, filters, output) or a command path (e.g. sessions restart)
    #[arg(value_name = "TOPIC|COMMAND")]
    words: Vec<String>,
}

/// The topics, by name, with their text.
const TOPICS: &[(&str, &str)] = &[
    ("exit-codes", EXIT_CODES_HELP),
    ("filters", FILTERS_HELP),
    ("output", OUTPUT_HELP),
];

/// The text of `tunnelctl help filters`: the words that choose captured requests, shared by
/// `local requests list`'s flags and the inspector's `/` bar (`capture::filter`).
const FILTERS_HELP: &str = "\
Filters: choosing captured requests

The inspector's / bar (and 'local inspect --filter QUERY') reads words; 'local requests list'
reads flags. A flag selects what its word selects, and every word or flag given must match.

Words:
  TEXT          free text, any case: in the method, path, status, header names and values or
                body of the request or the response (\"two words\" in quotes)
  method:POST   the method (method:get,post: either)
  status:5xx    the status: a code (404), a class (5xx), several (2xx,3xx), or pending (no
                answer yet)
  path:GLOB     the path, with or without its query string ('*' any run of characters, '?'
                one, '[abc]' one of those): path:/hooks/*
  tunnel:NAME   the tunnel's name, as a glob: tunnel:\"hook (http)\", tunnel:hook*
  since:10m     captured in the last 10 minutes (90s, 2h), or since an RFC 3339 time
  replayed      sent again by a replay
  sig:RESULT    the webhook signature check: valid, invalid, expired, unsigned or no-secret
                (see 'tunnelctl local requests verify --help')
  !WORD         the word turned round: !method:GET, !replayed

A word whose key is not one of these (content-type:json) is free text, and so is a word that
begins with a quote.

Flags of 'local requests list':
  --method      method:...; repeatable or comma-separated (POST,PUT): any of them
  --status      status:...; repeatable or comma-separated (4xx,5xx): any of them
  --path        path:GLOB (quote it: --path '/hooks/*')
  --grep        free text; repeatable: all must be there
  --since       since:...
  --signature   sig:RESULT
  --tunnel      only the tunnel of exactly this name (the agent filters)
  --limit       at most N requests that match
  --history     read the captures kept in the history (a SQLite file, or the team's
                PostgreSQL store) instead of the agent's; --grep then searches its index
                ('record' fills it)
  --source      with --history: only the captures kept from this source (agent)
";

/// The text of `tunnelctl help output`: the output formats and what decides between them.
const OUTPUT_HELP: &str = "\
Output: formats, pipes and colour

Formats (-o FORMAT):
  table     the default: a table on a terminal, tab-separated values in a pipe
  wide      the table with every column of the resource, none left out and nothing cut
            (kubectl's -o wide)
  json      what the API returned, unknown fields included; a list is one array of every
            item of every page, streamed as pages arrive. --json is the same. Indented on a
            terminal, compact in a pipe
  ndjson    one JSON object per line, each item as it arrives

On a terminal, a table has a header, one line per row, human times (3h ago) and secrets
masked. When it is wider than the terminal, the columns of least use for that resource are
left out first (named once on stderr), then free text is cut with '…'; IDs, names, times
and ARNs are never cut. In a pipe, the same table is tab-separated values: no header, full
values, RFC 3339 times, no colour and no notes, so cut -f1 and awk work.

--jq EXPR runs a jq filter in-process on what --json would print (no jq needed); a string
result prints raw, as jq -r does. A filter that starts with '.[] |', and any filter with -o
ndjson, runs on each item as it arrives, in constant memory; any other filter sees the array
of every item. A filter is bounded as the command is: --timeout ends it (exit 7), so do
Ctrl-C (130) and SIGTERM (143), and one that takes more than 256 MiB of memory is stopped
with an error (exit 2). --limit N stops a list after N items, fetching no more pages than it
needs.

Data goes to stdout; confirmations, progress, warnings and errors go to stderr (--quiet
leaves out confirmations and progress). A closed pipe (| head -1) ends quietly. Control
characters a server or a visitor sent are shown escaped, never passed to the terminal.
Secrets the service echoes are masked in every format; --show-secrets prints them as sent.

Environment:
  NO_COLOR              no colour, as --no-color
  TUNNELCTL_FORCE_TTY   1: stdout counts as a terminal even in a pipe (a table, colour), for
                        watch and for tests
  COLUMNS               the width of such a forced terminal (default 120), and of help in a
                        pipe (default 80)
";

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

impl super::Group for HelpArgs {
    const REACHES: super::Reaches = super::Reaches::Neither;
    const PRINTS_DATA: bool = false;

    async fn run(self, _ctx: &crate::context::Context) -> crate::error::CommandResult {
        Ok(run(self)?)
    }
}

/// Prints the help asked for.
pub fn run(args: HelpArgs) -> Result<()> {
    if let [word] = args.words.as_slice() {
        if let Some((_, text)) = TOPICS.iter().find(|(name, _)| name == word) {
            let width = usize::from(crate::output::streams::help_width());
            return print_bytes(fit(text, width).as_bytes());
        }
    }
    let mut cmd =
        crate::cli::command().term_width(usize::from(crate::output::streams::help_width()));
    cmd.build();
    let mut current = &cmd;
    for word in &args.words {
        current = current.find_subcommand(word).ok_or_else(|| {
            let names: Vec<&str> = TOPICS.iter().map(|(name, _)| *name).collect();
            let topics = match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => names.join(""),
            };
            Error::usage(format!(
                "no help topic or command '{word}'; the topics are {topics}; try 'tunnelctl --help' for the commands"
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
    fn every_topic_fits_80_columns_without_a_word_cut() {
        let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        for (name, text) in TOPICS {
            let laid = fit(text, 80);
            assert!(
                laid.lines().all(|l| l.chars().count() <= 80),
                "{name}:\n{laid}"
            );
            assert_eq!(words(&laid), words(text), "{name}: every word kept whole");
        }
        let laid = fit(EXIT_CODES_HELP, 80);
        assert!(laid.contains("\n  1    the API answered"), "{laid}");
    }

    /// Every entry of a topic is laid out as an entry: its text wraps under its text, never
    /// joined to the entry above (an entry's term is one word).
    #[test]
    fn topic_entries_stay_one_per_line() {
        let terms: [(&str, &[&str]); 2] = [
            (
                FILTERS_HELP,
                &[
                    "method:POST",
                    "status:5xx",
                    "sig:RESULT",
                    "!WORD",
                    "--grep",
                    "--limit",
                ],
            ),
            (
                OUTPUT_HELP,
                &[
                    "wide",
                    "ndjson",
                    "NO_COLOR",
                    crate::registry::env::FORCE_TTY,
                    "COLUMNS",
                ],
            ),
        ];
        for (text, terms) in terms {
            let laid = fit(text, 60);
            for term in terms {
                assert!(
                    laid.lines().any(|l| l.trim_start().starts_with(term)),
                    "{term} does not begin a line:\n{laid}"
                );
            }
        }
    }
}
