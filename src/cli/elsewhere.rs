//! The tip of an unknown flag that other commands take: `local requests verify --signature
//! invalid` names `local requests list`, which filters on it, where clap would offer whichever
//! flag of `verify` is spelt most alike (`--agent-url`, which has nothing to do with it).

use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::Command;

/// How many commands a tip names at most.
const NAMED: usize = 3;

/// `e` with a tip naming the commands that take its unknown flag, when `e` is a long flag
/// unknown to the command typed and some other command takes it as its own; else `e`.
pub fn tip(e: clap::Error, args: &[OsString]) -> clap::Error {
    if e.kind() == ErrorKind::InvalidValue {
        return out_tip(e, args);
    }
    if e.kind() != ErrorKind::UnknownArgument {
        return e;
    }
    let Some(ContextValue::String(typed)) = e.get(ContextKind::InvalidArg) else {
        return e;
    };
    let Some(long) = typed
        .strip_prefix("--")
        .map(|f| f.split('=').next().unwrap_or(f))
    else {
        return e;
    };
    let mut root = super::command();
    root.build();
    let path = typed_path(&root, args);
    let mut takers = Vec::new();
    // The typed command's siblings first (`list` beside `verify`), then anywhere.
    for depth in (0..path.len()).rev() {
        collect(command_at(&root, &path[..depth]), long, &mut takers);
        if !takers.is_empty() {
            break;
        }
    }
    if takers.is_empty() {
        return e;
    }
    let names: Vec<String> = takers
        .iter()
        .take(NAMED)
        .map(|n| format!("'{n}'"))
        .collect();
    let mut tipped = clap::Error::new(ErrorKind::UnknownArgument).with_cmd(&root);
    tipped.insert(ContextKind::InvalidArg, ContextValue::String(typed.clone()));
    tipped.insert(
        ContextKind::Suggested,
        ContextValue::StyledStrs(vec![format!(
            "--{long} is an option of {}, not of '{}'",
            names.join(", "),
            std::iter::once("tunnelctl")
                .chain(path.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ")
        )
        .into()]),
    );
    let usage = command_at(&root, &path).clone().render_usage();
    tipped.insert(ContextKind::Usage, ContextValue::StyledStr(usage));
    tipped
}

/// `e`, a value of `-o` that is no format, with a tip naming `--out` where the command typed
/// writes files with it (`export -o account.toml`, as `export` once took it).
fn out_tip(mut e: clap::Error, args: &[OsString]) -> clap::Error {
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return e;
    };
    let Some(ContextValue::String(value)) = e.get(ContextKind::InvalidValue) else {
        return e;
    };
    if !arg.starts_with("--output") || value.is_empty() {
        return e;
    }
    let mut root = super::command();
    root.build();
    let path = typed_path(&root, args);
    let writes_files = command_at(&root, &path)
        .get_arguments()
        .any(|a| !a.is_global_set() && a.get_long() == Some("out"));
    if writes_files {
        let tip = format!("-o is the output format; to write a file, use --out {value}");
        e.insert(
            ContextKind::Suggested,
            ContextValue::StyledStrs(vec![tip.into()]),
        );
    }
    e
}

/// The command words of argv, as far as they name commands of the tree (a flag's value, as
/// in `--profile local`, names none).
fn typed_path(root: &Command, args: &[OsString]) -> Vec<String> {
    let mut path = Vec::new();
    let mut cmd = root;
    let mut words = args.iter().skip(1).filter_map(|a| a.to_str());
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        if word.starts_with('-') {
            if super::lazy::takes_next_word(cmd, word) {
                words.next();
            }
        } else if let Some(sub) = cmd.find_subcommand(word) {
            path.push(sub.get_name().to_string());
            cmd = sub;
        }
    }
    path
}

/// The command at `path` (names as the tree has them).
fn command_at<'a>(root: &'a Command, path: &[String]) -> &'a Command {
    path.iter()
        .try_fold(root, |cmd, word| cmd.find_subcommand(word))
        .unwrap_or(root)
}

/// The full names of the commands at and under `cmd` that take `--long` as their own flag.
fn collect(cmd: &Command, long: &str, out: &mut Vec<String>) {
    let own = cmd
        .get_arguments()
        .any(|a| !a.is_global_set() && !a.is_hide_set() && a.get_long() == Some(long));
    if own {
        let name = cmd.get_bin_name().unwrap_or(cmd.get_name()).to_string();
        if !out.contains(&name) {
            out.push(name);
        }
    }
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, long, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(line: &str) -> String {
        let args: Vec<OsString> = line.split(' ').map(Into::into).collect();
        let e = super::super::command()
            .color(clap::ColorChoice::Never)
            .try_get_matches_from(args.clone())
            .expect_err("a usage error");
        tip(e, &args).to_string()
    }

    #[test]
    fn a_flag_of_a_sibling_is_named() {
        let said = error_of("tunnelctl local requests verify --signature invalid");
        assert!(
            said.contains("--signature is an option of 'tunnelctl local requests list'"),
            "{said}"
        );
        assert!(!said.contains("--agent-url"), "{said}");
        assert!(
            said.contains("Usage: tunnelctl local requests verify"),
            "{said}"
        );
    }

    #[test]
    fn a_file_after_o_is_pointed_to_out_where_the_command_writes_files() {
        let suggested = |line: &str| {
            let args: Vec<OsString> = line.split(' ').map(Into::into).collect();
            let e = super::super::command()
                .try_get_matches_from(args.clone())
                .expect_err("a usage error");
            match tip(e, &args).get(ContextKind::Suggested) {
                Some(ContextValue::StyledStrs(s)) => s.iter().map(|s| s.to_string()).collect(),
                _ => Vec::new(),
            }
        };
        assert_eq!(
            suggested("tunnelctl export -o account.toml"),
            ["-o is the output format; to write a file, use --out account.toml"]
        );
        assert!(suggested("tunnelctl ip-policies list -o account.toml").is_empty());
    }

    #[test]
    fn a_flag_s_value_is_no_command_word() {
        let said = error_of("tunnelctl --profile local sessions list --signature x");
        assert!(said.contains("not of 'tunnelctl sessions list'"), "{said}");
    }

    #[test]
    fn a_flag_no_command_takes_keeps_clap_s_own_error() {
        let said = error_of("tunnelctl local requests verify --nonsense-flag");
        assert!(!said.contains("is an option of"), "{said}");
        assert!(
            said.contains("unexpected argument '--nonsense-flag'"),
            "{said}"
        );
    }
}
