//! The generated files committed in `completions/` and `man/`, rendered from the library's
//! clap tree (each command's `after_help` taken apart by the library's `cli::after_help`).
//!
//! `generated_files.rs` compares them with the committed files and fails when they are stale
//! (run `UPDATE_GENERATED=1 cargo test --test generated_files` to write them anew);
//! `cli/examples.rs` runs every example they hold. Each of the two test binaries uses part.

#![allow(dead_code)]

use after_help::AfterHelp;
pub use tunnelctl::cli::after_help;
use tunnelctl::commands::completions::{self, Shell};

/// Every generated file: its path relative to the project root, and its contents.
pub fn generated_files() -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for (shell, name) in [
        (Shell::Bash, "tunnelctl.bash"),
        (Shell::Zsh, "_tunnelctl"),
        (Shell::Fish, "tunnelctl.fish"),
        (Shell::Powershell, "_tunnelctl.ps1"),
        (Shell::Elvish, "tunnelctl.elv"),
    ] {
        let mut buf = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = completions::write(shell, &mut buf);
        files.push((format!("completions/{name}"), buf));
    }
    let mut cmd = tunnelctl::cli::command().disable_help_subcommand(true);
    cmd.build();
    man_pages(&cmd, &mut vec!["tunnelctl".to_string()], &mut files);
    files
}

/// One page per command, named by its path (`tunnelctl-ip-policies-create.1`).
fn man_pages(cmd: &clap::Command, path: &mut Vec<String>, files: &mut Vec<(String, Vec<u8>)>) {
    let name = path.join("-");
    if let Some(page) = man_page(cmd, &name, &path.join(" ")) {
        files.push((format!("man/{name}.1"), page));
    }
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        path.push(sub.get_name().to_string());
        man_pages(sub, path, files);
        path.pop();
    }
}

/// A command's page: clap_mangen's sections, with the `after_help` text rendered as an
/// EXAMPLES section of unfilled lines (as typed, never reflowed or hyphenated) and a NOTES
/// section, in place of clap_mangen's EXTRA, which would reflow the examples as prose.
fn man_page(cmd: &clap::Command, name: &str, bin_name: &str) -> Option<Vec<u8>> {
    let after = cmd
        .get_after_long_help()
        .or_else(|| cmd.get_after_help())
        .map(|t| after_help::parse(&t.to_string()))
        .unwrap_or_default();
    let page_cmd = cmd
        .clone()
        .name(name.to_string())
        .bin_name(bin_name.to_string())
        .after_help(None::<&str>)
        .after_long_help(None::<&str>)
        // The usage broken for 80 columns is the terminal's; the page has its synopsis.
        .override_usage(None::<&str>)
        // A page is the long help: the global options `-h` leaves out are on it, described.
        .mut_args(|a| {
            if a.is_hide_short_help_set() && !a.is_hide_set() {
                a.hide_short_help(false)
            } else {
                a
            }
        });
    let mut buf = Vec::new();
    clap_mangen::Man::new(page_cmd).render(&mut buf).ok()?;
    let mut page = String::from_utf8(buf).ok()?;
    let extra = roff_sections(&after);
    match page.find("\n.SH VERSION") {
        Some(at) => page.insert_str(at + 1, &extra),
        None => page.push_str(&extra),
    }
    Some(page.into_bytes())
}

/// The EXAMPLES and NOTES sections of a page, in roff.
fn roff_sections(after: &AfterHelp) -> String {
    let mut out = String::new();
    if !after.examples.is_empty() {
        out.push_str(".SH EXAMPLES\n.RS 4\n.nf\n");
        let mut previous: Option<&after_help::Example> = None;
        for example in &after.examples {
            // A blank line sets a multi-line example apart; one-liners stay together.
            if previous.is_some_and(|p| p.lines.len() > 1 || example.lines.len() > 1) {
                out.push_str(".sp\n");
            }
            previous = Some(example);
            for line in &example.lines {
                out.push_str(&roff_line(line));
                out.push('\n');
            }
        }
        out.push_str(".fi\n.RE\n");
    }
    if !after.notes.is_empty() {
        out.push_str(".SH NOTES\n");
        for (i, note) in after.notes.iter().enumerate() {
            if i > 0 {
                out.push_str(".PP\n");
            }
            out.push_str(&roff_line(note));
            out.push('\n');
        }
    }
    out
}

/// One line of text for roff, shown as typed: backslashes, hyphens (so that they stay ASCII
/// minus signs, which shells need), quotes and a leading control character escaped.
pub fn roff_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    if text.starts_with(['.', '\'']) {
        out.push_str("\\&");
    }
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\e"),
            '-' => out.push_str("\\-"),
            '\'' => out.push_str("\\*(Aq"),
            '`' => out.push_str("\\(ga"),
            _ => out.push(c),
        }
    }
    out
}

/// Reads a line of [`roff_line`] back (what a reader of the page sees).
pub fn unroff_line(line: &str) -> String {
    line.strip_prefix("\\&")
        .unwrap_or(line)
        .replace("\\*(Aq", "'")
        .replace("\\(ga", "`")
        .replace("\\-", "-")
        .replace("\\e", "\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roff_lines_read_back_as_typed() {
        for text in [
            "tunnelctl api POST /x -f a=b -F m='\"{}\"' \\",
            ".starts with a dot",
            "printf '%s\\n' \"$KEY\" | tunnelctl config set api_key -",
        ] {
            let roff = roff_line(text);
            assert!(!roff.starts_with('.'), "{roff}");
            assert!(!roff.contains(" -"), "{roff}");
            assert_eq!(unroff_line(&roff), text);
        }
    }
}
