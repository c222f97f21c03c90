//! The generated files committed in `completions/` and `man/`, rendered from the clap tree.
//!
//! A test compares them with the committed files and fails when they are stale; run
//! `UPDATE_GENERATED=1 cargo test --test generated_files` to write them anew.

use clap::CommandFactory;

use crate::commands::completions::Shell;

use crate::cli::Cli;

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
        let _ = crate::commands::completions::write(shell, &mut buf);
        files.push((format!("completions/{name}"), buf));
    }
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    man_pages(&cmd, &mut vec!["tunnelctl".to_string()], &mut files);
    files
}

/// One page per command, named by its path (`tunnelctl-ip-policies-create.1`).
fn man_pages(cmd: &clap::Command, path: &mut Vec<String>, files: &mut Vec<(String, Vec<u8>)>) {
    let name = path.join("-");
    let page_cmd = cmd.clone().name(name.clone()).bin_name(path.join(" "));
    let mut buf = Vec::new();
    if clap_mangen::Man::new(page_cmd).render(&mut buf).is_ok() {
        files.push((format!("man/{name}.1"), buf));
    }
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        path.push(sub.get_name().to_string());
        man_pages(sub, path, files);
        path.pop();
    }
}
