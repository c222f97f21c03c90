//! Usage lines that fit 80 columns. clap writes a command's usage on one line whatever the
//! terminal's width, and the terminal then breaks it wherever the column runs out, inside a
//! word (`--a` / `ddr <ADDR>`). So a usage line wider than [`WIDTH`] is broken here, between
//! the arguments (never inside `<--to <URL>|--tunnel <NAME>>`), its continuation lines
//! indented under the command, and given to clap as the command's usage.

use clap::Command;

/// The width a usage line must fit (the narrowest terminal people use).
pub const WIDTH: usize = 80;

/// How far continuation lines are indented: past `Usage: `, and two more.
const INDENT: usize = "Usage: ".len() + 2;

/// `tree` with every usage line wider than [`WIDTH`] broken between arguments.
pub fn wrap_all(tree: Command) -> Command {
    let mut built = tree.clone();
    built.build();
    let mut wide = Vec::new();
    collect(&mut built, &mut Vec::new(), &mut wide);
    wide.into_iter()
        .fold(tree, |tree, (path, usage)| set_at(tree, &path, usage))
}

/// The usage of `cmd` and of every command under it that is too wide, broken, by path.
fn collect(cmd: &mut Command, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    let usage = cmd.render_usage().to_string();
    let body = usage.strip_prefix("Usage: ").unwrap_or(&usage);
    if body
        .lines()
        .any(|l| "Usage: ".len() + l.chars().count() > WIDTH)
    {
        out.push((path.clone(), broken(body)));
    }
    for sub in cmd.get_subcommands_mut() {
        path.push(sub.get_name().to_string());
        collect(sub, path, out);
        path.pop();
    }
}

fn set_at(cmd: Command, path: &[String], usage: String) -> Command {
    match path.split_first() {
        None => cmd.override_usage(usage),
        Some((name, rest)) => cmd.mut_subcommand(name, |sub| set_at(sub, rest, usage)),
    }
}

/// `usage` (without its `Usage: ` heading) broken between arguments so that each line fits
/// [`WIDTH`] after the heading or the indentation.
fn broken(usage: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    for source in usage.lines() {
        let mut line = String::new();
        for word in arguments(source.trim_start()) {
            let room = WIDTH
                - if lines.is_empty() {
                    "Usage: ".len()
                } else {
                    INDENT
                };
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > room {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        lines.push(line);
    }
    let indent = " ".repeat(INDENT);
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                l.clone()
            } else {
                format!("{indent}{l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The words of a usage line, a bracketed group (`<--to <URL>|--tunnel <NAME>>`, `[OPTIONS]`)
/// and a flag with its value (`--name <NAME>`) each kept as one.
fn arguments(line: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut depth = 0usize;
    let mut word = String::new();
    for c in line.chars() {
        match c {
            '<' | '[' => depth += 1,
            '>' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if c == ' ' && depth == 0 {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    // A flag and the value it takes stay on one line.
    let mut joined: Vec<String> = Vec::new();
    for w in words {
        match joined.last_mut() {
            Some(flag) if flag.starts_with('-') && !flag.contains(' ') && w.starts_with('<') => {
                flag.push(' ');
                flag.push_str(&w);
            }
            _ => joined.push(w),
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_usage_breaks_between_arguments() {
        let usage =
            "tunnelctl local tunnels start [OPTIONS] --name <NAME> --proto <PROTO> --addr <ADDR>";
        let b = broken(usage);
        assert_eq!(
            b,
            "tunnelctl local tunnels start [OPTIONS] --name <NAME> --proto <PROTO>\n         --addr <ADDR>"
        );
        let usage =
            "tunnelctl local requests send [OPTIONS] <--to <URL>|--tunnel <NAME>> <FILE>...";
        let b = broken(usage);
        assert!(b.contains("<--to <URL>|--tunnel <NAME>>"), "{b}");
        assert!(b.lines().all(|l| l.chars().count() + 7 <= WIDTH), "{b}");
    }

    #[test]
    fn every_usage_of_the_tree_fits() {
        let mut tree = wrap_all(super::super::command());
        tree.build();
        fn check(cmd: &mut Command) {
            let usage = cmd.render_usage().to_string();
            for line in usage.lines() {
                assert!(line.chars().count() <= WIDTH, "{usage}");
            }
            cmd.get_subcommands_mut().for_each(check);
        }
        check(&mut tree);
    }
}
