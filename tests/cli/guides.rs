//! The guides a person reads (README.md, every `docs/*.md`, `mock/README.md`) and the
//! convention their examples follow, so that every command they show is run by the tests
//! (`examples.rs` runs them; CONTRIBUTING.md states the convention for writers):
//!
//! - A ```sh block holds commands a reader may paste. Every line of it whose command (the
//!   line without a trailing `# comment`) names `tunnelctl` or `tunnelctl-mock` is run, on
//!   its own, against a fresh emulator, and must exit 0; a line ending in `\` goes on over the
//!   next. Other lines (`cargo install`, `curl`, `./demo.sh`) are shown, not run.
//! - A ```console block (a `$ ` prompt and what was printed) or a ```text block (a screen, a
//!   table) is shown, never run.
//! - A block whose info string names a file (```json file=target.json, or a path inside the
//!   folder such as ```http file=fixtures/paid.http) is that file: it is written into the
//!   folder every example of the guides runs in.
//! - Every other block says its language (```json, ```toml, ```http, ```rust); ```bash,
//!   ```shell and a block without a language are refused, so that a reader never meets a
//!   command that no test ran.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::examples::root;

/// The guides, by path from the repository root: README.md first, then `docs/` in name order,
/// then the emulator's README.
pub(crate) fn guides() -> Vec<String> {
    let mut docs: Vec<String> = fs::read_dir(root().join("docs"))
        .map(|dir| {
            dir.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with(".md"))
                .map(|name| format!("docs/{name}"))
                .collect()
        })
        .unwrap_or_default();
    docs.sort();
    let mut all = vec!["README.md".to_string()];
    all.extend(docs);
    all.push("mock/README.md".to_string());
    all
}

/// The text of a guide.
pub(crate) fn read(guide: &str) -> String {
    fs::read_to_string(root().join(guide)).unwrap_or_else(|e| panic!("{guide}: {e}"))
}

/// One fenced block of a guide.
#[derive(Debug)]
pub(crate) struct Block {
    /// The info string after the opening fence (`sh`, `json file=target.json`).
    pub info: String,
    /// The line number of the opening fence (1-based).
    pub line: usize,
    /// The lines inside the fences.
    pub lines: Vec<String>,
}

impl Block {
    /// The language the block says it is: the first word of its info string.
    pub fn language(&self) -> &str {
        self.info.split_whitespace().next().unwrap_or_default()
    }

    /// The file this block is, when its info string names one (`file=NAME`).
    pub fn file(&self) -> Option<&str> {
        self.info
            .split_whitespace()
            .find_map(|w| w.strip_prefix("file="))
    }
}

/// The fenced blocks of `markdown`, in order; a block indented under a list item has its
/// lines taken without that indentation.
pub(crate) fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(Block, usize)> = None;
    for (n, line) in markdown.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        match (&mut open, line.trim_start().strip_prefix("```")) {
            (None, Some(info)) => {
                let block = Block {
                    info: info.trim().to_string(),
                    line: n + 1,
                    lines: Vec::new(),
                };
                open = Some((block, indent));
            }
            (Some(_), Some(rest)) if rest.trim().is_empty() => {
                out.extend(open.take().map(|(block, _)| block))
            }
            (Some((block, at)), _) => {
                let cut = indent.min(*at);
                block.lines.push(line[cut..].to_string());
            }
            (None, None) => {}
        }
    }
    out
}

/// Whether a command line calls the tool or its emulator (in its command, not its comment).
fn calls_tunnelctl(text: &str) -> bool {
    crate::examples::command_of(text).contains("tunnelctl")
}

/// The lines of the ```sh blocks of `markdown` that call `tunnelctl` (or `tunnelctl-mock`),
/// each with its line number (a line ending in `\` goes on over the next, and counts from its
/// first line).
pub(crate) fn sh_commands(markdown: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for block in blocks(markdown).iter().filter(|b| b.info == "sh") {
        let mut pending: Option<(String, usize)> = None;
        for (i, line) in block.lines.iter().enumerate() {
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let (text, first) = match pending.take() {
                Some((so_far, first)) => (format!("{so_far}\n{line}"), first),
                None => (line.clone(), block.line + 1 + i),
            };
            if line.trim_end().ends_with('\\') {
                pending = Some((text, first));
            } else if calls_tunnelctl(&text) {
                out.push((first, text));
            }
        }
    }
    out
}

/// The files the guides give (```LANG file=NAME blocks), by name: their text.
pub(crate) fn files() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for guide in guides() {
        for block in blocks(&read(&guide)) {
            if let Some(name) = block.file() {
                let mut text = block.lines.join("\n");
                text.push('\n');
                out.insert(name.to_string(), text);
            }
        }
    }
    out
}

/// Languages a block may not say: each would look runnable without being run.
const REFUSED: &[&str] = &["", "bash", "shell", "zsh", "shell-session", "sh-session"];

#[test]
fn every_block_of_the_guides_says_what_it_is() {
    let mut seen = 0;
    let mut named: BTreeMap<String, (String, String)> = BTreeMap::new();
    for guide in guides() {
        for block in blocks(&read(&guide)) {
            seen += 1;
            let at = format!("{guide} line {}", block.line);
            assert!(
                !REFUSED.contains(&block.language()),
                "{at}: a block marked {:?}: mark commands that the tests run ```sh, and \
                 shown sessions or screens ```console or ```text (see CONTRIBUTING.md)",
                block.info
            );
            if block.language() == "sh" {
                assert!(
                    block.file().is_none(),
                    "{at}: a ```sh block is commands, not a file"
                );
                for line in &block.lines {
                    assert!(
                        !line.starts_with("$ "),
                        "{at}: {line:?}: a prompt and its output go in a ```console block"
                    );
                }
            }
            if let Some(name) = block.file() {
                let text = block.lines.join("\n");
                let relative = Path::new(name);
                assert!(
                    relative.is_relative()
                        && relative
                            .components()
                            .all(|c| matches!(c, std::path::Component::Normal(_))),
                    "{at}: file={name}: a path inside the examples' folder (hooks/paid.http)"
                );
                if let Some((first, before)) = named.insert(name.to_string(), (at.clone(), text)) {
                    assert_eq!(
                        before, named[name].1,
                        "{at}: {name} is also given, differently, at {first}"
                    );
                }
            }
        }
    }
    assert!(seen > 30, "{seen} blocks in the guides");
}

/// A relative link of a guide leads to a file of the repository.
#[test]
fn the_guides_link_to_files_that_exist() {
    for guide in guides() {
        let text = read(&guide);
        let dir = Path::new(&guide).parent().unwrap_or(Path::new(""));
        for (i, _) in text.match_indices("](") {
            let target = &text[i + 2..];
            let Some(end) = target.find(')') else {
                continue;
            };
            let target = &target[..end];
            let path = target.split('#').next().unwrap_or_default();
            if path.is_empty() || path.contains("://") || path.starts_with("mailto:") {
                continue;
            }
            let file: PathBuf = root().join(dir).join(path);
            assert!(file.exists(), "{guide}: the link ({target}) leads nowhere");
        }
    }
}

/// The README stays a front page: short, and its first two commands are the demo and the
/// whole test suite.
#[test]
fn the_readme_is_short_and_starts_with_the_demo_and_the_tests() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 220,
        "README.md has {lines} lines; the rest goes in docs/"
    );
    let first = blocks(&readme)
        .into_iter()
        .find(|b| b.info == "sh")
        .expect("a ```sh block");
    let commands: Vec<String> = first
        .lines
        .iter()
        .map(|l| crate::examples::command_of(l))
        .collect();
    assert_eq!(commands[..2], ["./demo.sh", ".ci/run"], "{commands:?}");
    for script in ["demo.sh", ".ci/run"] {
        let mode = fs::metadata(root().join(script))
            .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()))
            .unwrap_or(0);
        assert!(mode & 0o111 != 0, "{script} is not executable");
    }
}

#[test]
fn commands_are_found_in_sh_blocks_only_and_by_their_command() {
    let markdown = "```sh\n\
        tunnelctl a   # one\n\
        cargo install --path .   # installs tunnelctl\n\
        printf x | tunnelctl b \\\n    --c\n\
        # tunnelctl in a comment\n\
        ```\n\
        ```console\n$ tunnelctl shown\n```\n\
        ```json file=t.json\n{\"tunnelctl\": 1}\n```\n\
        - a list item:\n\n  ```sh\n  tunnelctl c\n  ```\n";
    assert_eq!(
        sh_commands(markdown),
        [
            (2, "tunnelctl a   # one".to_string()),
            (4, "printf x | tunnelctl b \\\n    --c".to_string()),
            (17, "tunnelctl c".to_string())
        ]
    );
    let blocks = blocks(markdown);
    assert_eq!(blocks.len(), 4);
    assert_eq!(blocks[2].file(), Some("t.json"));
    assert_eq!(blocks[2].language(), "json");
}
