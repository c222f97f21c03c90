//! Help on an 80-column terminal (a real pseudo-terminal, so the width is the terminal's own):
//! every line fits, no word is cut, and prose fills its lines (a paragraph written for a
//! wider terminal would leave stubs such as `profile in the` alone on a line).

use crate::common::pty::Pty;
use crate::common::Env;

/// What the program wrote to an 80x24 terminal for `args`, as lines.
fn on_80_columns(env: &Env, args: &[&str]) -> Vec<String> {
    let mut cmd = env.std_cmd();
    cmd.env_remove("COLUMNS").args(args);
    let mut term = Pty::spawn(&cmd, 24, 80);
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    String::from_utf8_lossy(&term.output())
        .replace("\r\n", "\n")
        .lines()
        .map(str::to_string)
        .collect()
}

/// Every line fits 80 columns; each line of a paragraph (lines not indented, between blank
/// lines) is full: its next line's first word would not have fitted on it.
#[track_caller]
fn assert_fits_and_fills(lines: &[String]) {
    let text = lines.join("\n");
    for line in lines {
        assert!(
            line.chars().count() <= 80,
            "{line:?} is wider than 80:\n{text}"
        );
    }
    for pair in lines.windows(2) {
        let (line, next) = (&pair[0], &pair[1]);
        let prose = |l: &str| !l.is_empty() && !l.starts_with(' ');
        if prose(line) && prose(next) && !line.ends_with(':') {
            let first = next.split_whitespace().next().unwrap_or_default();
            assert!(
                line.chars().count() + 1 + first.chars().count() > 80,
                "{line:?} is broken early ({first:?} would fit):\n{text}"
            );
        }
    }
}

#[test]
fn help_exit_codes_fits_80_columns_with_every_word_whole() {
    let env = Env::new();
    let lines = on_80_columns(&env, &["help", "exit-codes"]);
    assert_fits_and_fills(&lines);
    let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(
        words(&lines.join("\n")),
        words(tunnelctl::error::EXIT_CODES_HELP),
        "every word kept whole"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "  4    not found (the API answered 404)"),
        "{lines:?}"
    );
}

/// The other topics fit an 80-column terminal the same way, each entry's text wrapped under
/// its text.
#[test]
fn help_filters_and_output_fit_80_columns() {
    let env = Env::new();
    for (topic, entry) in [
        ("filters", "  method:POST   the method"),
        ("output", "  ndjson    one JSON object per line"),
    ] {
        let lines = on_80_columns(&env, &["help", topic]);
        assert_fits_and_fills(&lines);
        assert!(
            lines.iter().any(|l| l.starts_with(entry)),
            "{topic}: {lines:?}"
        );
    }
}

#[test]
fn the_footer_of_help_fills_80_columns() {
    let env = Env::new();
    for args in [&["--help"][..], &["sessions", "restart", "--help"]] {
        let lines = on_80_columns(&env, args);
        assert_fits_and_fills(&lines);
        let text = lines.join(" ");
        if args.len() == 1 {
            assert!(
                text.contains("then the profile in the config file."),
                "{lines:?}"
            );
        }
    }
}
