//! `tunnelctl --version` and `--version --json`: which build this is, as people paste it into
//! bug reports and scripts read it (the format is in docs/install.md and in `--help`).

use std::path::Path;
use std::process::Command;

use crate::common::{run, Env};
use crate::skip;

/// What git says of the checkout the tests run in: the short commit (as `git rev-parse
/// --short HEAD` abbreviates it) and its commit date in UTC. `None` outside a git checkout,
/// where the test cannot run its check (tests/common/skip.rs).
fn checkout() -> Option<(String, String)> {
    let found = read_checkout();
    if found.is_none() {
        skip::cannot_run("the tests do not run in a git checkout (or git is missing)");
    }
    found
}

fn read_checkout() -> Option<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(root)
            .env("TZ", "UTC")
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let top = git(&["rev-parse", "--show-toplevel"])?;
    if Path::new(&top).canonicalize().ok()? != root.canonicalize().ok()? {
        return None;
    }
    let commit = git(&["rev-parse", "--short", "HEAD"])?;
    let date = git(&[
        "show",
        "-s",
        "--format=%cd",
        "--date=format-local:%Y-%m-%d",
        "HEAD",
    ])?;
    Some((commit, date))
}

#[test]
fn version_names_the_commit_of_the_checkout_and_its_date() {
    let Some((commit, date)) = checkout() else {
        return;
    };
    let env = Env::new();
    let out = run(env.bare().arg("--version"));
    out.code(0);
    let version = env!("CARGO_PKG_VERSION");
    let clean = format!("tunnelctl {version} ({commit} {date})\n");
    let dirty = format!("tunnelctl {version} ({commit}-dirty {date})\n");
    assert!(
        out.stdout == clean || out.stdout == dirty,
        "expected {clean:?} (or with -dirty), got {:?}",
        out.stdout
    );
    assert_eq!(out.stderr, "");
    // -V says the same.
    assert_eq!(run(env.bare().arg("-V")).stdout, out.stdout);
}

#[test]
fn version_as_json_gives_each_part_as_a_field() {
    let Some((commit, date)) = checkout() else {
        return;
    };
    let env = Env::new();
    let text = run(env.bare().arg("--version")).stdout;
    for args in [
        ["--version", "--json"],
        ["--json", "--version"],
        ["-V", "--json"],
    ] {
        let out = run(env.bare().args(args));
        out.code(0);
        let v = out.json();
        assert_eq!(v["name"], "tunnelctl", "{args:?}");
        assert_eq!(v["version"], env!("CARGO_PKG_VERSION"), "{args:?}");
        assert_eq!(v["commit"], commit.as_str(), "{args:?}");
        assert_eq!(v["commit_date"], date.as_str(), "{args:?}");
        let dirty = v["dirty"].as_bool().expect("dirty is true or false");
        assert_eq!(dirty, text.contains("-dirty"), "{args:?}: {text}");
        let target = v["target"].as_str().expect("the target is a string");
        assert!(
            target.contains(std::env::consts::ARCH),
            "{args:?}: {target}"
        );
        assert_eq!(
            v.as_object().map(|o| o.len()),
            Some(6),
            "only the documented fields: {v}"
        );
    }
}

#[test]
fn version_is_a_flag_of_the_program_not_of_its_commands() {
    let env = Env::new();
    let out = run(env.bare().args(["sessions", "list", "--version"]));
    out.code(2);
    assert!(out.stderr.contains("--version"), "{}", out.stderr);
    assert_eq!(out.stdout, "");
}
