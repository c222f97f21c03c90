//! The completion scripts in `completions/` and the man pages in `man/` are generated from
//! the clap tree and committed. This test fails when they are stale; to write them anew run
//! `UPDATE_GENERATED=1 cargo test --test generated_files`.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

#[path = "docs/mod.rs"]
mod docs;

#[test]
fn completions_and_man_pages_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = docs::generated_files();
    assert!(files
        .iter()
        .any(|(p, _)| p == "man/tunnelctl-ip-policies-create.1"));
    assert!(files.iter().any(|(p, _)| p == "completions/_tunnelctl"));
    let update = std::env::var("UPDATE_GENERATED").is_ok_and(|v| v == "1");
    if update {
        for dir in ["man", "completions"] {
            let _ = fs::remove_dir_all(root.join(dir));
            fs::create_dir_all(root.join(dir)).unwrap();
        }
        for (path, content) in &files {
            fs::write(root.join(path), content).unwrap();
        }
        return;
    }
    let mut stale = Vec::new();
    for (path, content) in &files {
        match fs::read(root.join(path)) {
            Ok(on_disk) if &on_disk == content => {}
            Ok(_) => stale.push(format!("{path} differs")),
            Err(_) => stale.push(format!("{path} is missing")),
        }
    }
    let expected: BTreeSet<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    for dir in ["man", "completions"] {
        for entry in fs::read_dir(root.join(dir)).unwrap() {
            let name = format!("{dir}/{}", entry.unwrap().file_name().to_string_lossy());
            if !expected.contains(name.as_str()) {
                stale.push(format!("{name} is no longer generated"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated files are stale (run UPDATE_GENERATED=1 cargo test --test generated_files):\n{}",
        stale.join("\n")
    );
}
