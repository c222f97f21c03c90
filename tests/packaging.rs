//! tunnelctl as people install it: the crate the registry serves (`cargo install tunnelctl`),
//! the release archive of `scripts/release-archive.sh`, the Debian package of `cargo deb`.
//!
//! What each holds is checked here. The crates' file lists are quick and run with the suite;
//! the archive and the Debian package need the release build (minutes, LTO) and cargo-deb, so
//! those tests are ignored by a plain `cargo test`: `.ci/run` builds the release binary and
//! runs them (`cargo test --test packaging -- --ignored`), and under CI a test that cannot
//! run its check fails (tests/common/skip.rs). Nothing is installed: the Debian package is
//! extracted into a temporary folder and its binary run from there.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/skip.rs"]
mod skip;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The root of the repository.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cmd`, failing the test with what it printed if it fails.
#[track_caller]
fn succeeds(cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?} cannot start: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `program` (cargo, or a script that runs it) in the repository, without the variables
/// cargo gives a test about the package under test (`CARGO_MANIFEST_DIR`, `CARGO_PKG_*`,
/// `OUT_DIR`, what `build.rs` sets, …). A cargo started with them would build as another
/// cargo: ring's build script reads `CARGO_MANIFEST_DIR`, and a value it did not see before
/// rebuilds ring and everything above it, minutes of the release build.
fn cargo_child(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new(program);
    cmd.current_dir(root());
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        let of_the_test = [
            "CARGO_MANIFEST_DIR",
            "CARGO_MANIFEST_PATH",
            "CARGO_CRATE_NAME",
            "CARGO_PRIMARY_PACKAGE",
            "CARGO_TARGET_TMPDIR",
            "OUT_DIR",
        ]
        .contains(&name.as_ref())
            || ["CARGO_PKG_", "CARGO_BIN_", "BUILD_"]
                .iter()
                .any(|p| name.starts_with(p));
        if of_the_test {
            cmd.env_remove(name.as_ref());
        }
    }
    cmd
}

/// The cargo that runs the tests.
fn cargo() -> Command {
    cargo_child(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// The files `cargo package -p PACKAGE --list` would put in the crate, relative to it.
fn package_list(package: &str) -> BTreeSet<String> {
    let out = succeeds(cargo().args([
        "package",
        "--list",
        "--allow-dirty",
        "--locked",
        "-p",
        package,
    ]));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The names of the files in `dir` (of the repository).
fn files_in(dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every man page and completion script the repository generates.
fn man_pages() -> Vec<String> {
    let pages = files_in("man");
    assert!(pages.len() > 50, "{pages:?}");
    assert!(pages.iter().all(|p| p.ends_with(".1")), "{pages:?}");
    pages
}

#[test]
fn the_crate_holds_the_man_pages_and_completions_and_nothing_of_the_tests_or_emulator() {
    let list = package_list("tunnelctl");
    let mut wanted: Vec<String> = man_pages().iter().map(|p| format!("man/{p}")).collect();
    wanted.extend(
        files_in("completions")
            .iter()
            .map(|c| format!("completions/{c}")),
    );
    wanted.extend(
        [
            "Cargo.toml",
            "Cargo.lock",
            "README.md",
            "LICENSE-MIT",
            "LICENSE-APACHE",
            "build.rs",
            // build.rs reads it: without it the crate builds, but starts slower.
            "link/startup.order",
            "src/main.rs",
            "src/lib.rs",
        ]
        .map(String::from),
    );
    let missing: Vec<&String> = wanted.iter().filter(|w| !list.contains(*w)).collect();
    assert!(missing.is_empty(), "missing from the crate: {missing:?}");
    // The integration tests need the emulator, which is its own crate and is not a
    // dependency of the published one; the benchmarks, the guides' test data and CI are the
    // repository's.
    let foreign: Vec<&String> = list
        .iter()
        .filter(|f| {
            ["tests/", "mock/", "bench/", ".ci/", ".cargo/"]
                .iter()
                .any(|dir| f.starts_with(dir))
                || f.contains("mock")
                || *f == "demo.sh"
        })
        .collect();
    assert!(foreign.is_empty(), "not for the crate: {foreign:?}");
}

#[test]
fn the_emulator_crate_holds_its_sources_readme_spec_and_licences_and_not_its_tests() {
    let list = package_list("tunnelctl-mock");
    for wanted in [
        "Cargo.toml",
        "README.md",
        "SPEC.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "src/main.rs",
        "src/lib.rs",
    ] {
        assert!(list.contains(wanted), "{wanted} missing from {list:?}");
    }
    let foreign: Vec<&String> = list.iter().filter(|f| f.starts_with("tests/")).collect();
    assert!(foreign.is_empty(), "not for the crate: {foreign:?}");
}

/// The version line a packaged binary must print: this version, and in a git checkout the
/// commit checked out (with `-dirty` or not).
fn assert_version_of(binary: &Path) {
    let out = succeeds(Command::new(binary).arg("--version"));
    let text = String::from_utf8(out.stdout).unwrap();
    let prefix = format!("tunnelctl {} ", env!("CARGO_PKG_VERSION"));
    assert!(text.starts_with(&prefix), "{text}");
    let head = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(root())
        .output();
    match head {
        Ok(head) if head.status.success() => {
            let commit = String::from_utf8(head.stdout).unwrap();
            assert!(
                text.starts_with(&format!("{prefix}({}", commit.trim())),
                "{text}"
            );
        }
        _ => skip::cannot_run("git cannot name the commit checked out"),
    }
}

/// Asserts that `binary` is position-independent (ELF type DYN, not EXEC): ASLR is kept.
fn assert_position_independent(binary: &Path) {
    let Ok(out) = Command::new("readelf").arg("-h").arg(binary).output() else {
        skip::cannot_run("readelf (binutils) is not installed");
        return;
    };
    let header = String::from_utf8_lossy(&out.stdout);
    let kind = header
        .lines()
        .find_map(|l| l.trim().strip_prefix("Type:"))
        .map(str::trim);
    assert!(
        kind.is_some_and(|k| k.starts_with("DYN")),
        "{}: {kind:?}",
        binary.display()
    );
}

/// Is `tool` on PATH (it answers `--version`)?
fn have(tool: &str, args: &[&str]) -> bool {
    Command::new(tool)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The target the release binary is built for: this machine's (rustc's host).
fn host_target() -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = succeeds(Command::new(rustc).arg("-vV"));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .unwrap()
        .to_string()
}

#[test]
#[ignore = "builds the release binary (minutes, LTO): .ci/run runs it"]
fn the_release_archive_holds_binary_completions_man_pages_readme_licences_and_its_sum_verifies() {
    if !have("sha256sum", &["--version"]) || !have("tar", &["--version"]) {
        skip::cannot_run("sha256sum and tar are needed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = succeeds(
        cargo_child(root().join("scripts/release-archive.sh"))
            .arg("--out")
            .arg(dir.path()),
    );
    let name = format!("tunnelctl-{}-{}", env!("CARGO_PKG_VERSION"), host_target());
    let archive = dir.path().join(format!("{name}.tar.gz"));
    let printed = String::from_utf8(out.stdout).unwrap();
    assert_eq!(printed.lines().last(), Some(archive.to_str().unwrap()));

    let listed = succeeds(Command::new("tar").arg("-tzf").arg(&archive));
    let listed: BTreeSet<String> = String::from_utf8(listed.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let mut wanted: Vec<String> = ["tunnelctl", "README.md", "LICENSE-MIT", "LICENSE-APACHE"]
        .iter()
        .map(|f| format!("{name}/{f}"))
        .collect();
    wanted.extend(man_pages().iter().map(|p| format!("{name}/man/{p}")));
    wanted.extend(
        files_in("completions")
            .iter()
            .map(|c| format!("{name}/completions/{c}")),
    );
    let missing: Vec<&String> = wanted.iter().filter(|w| !listed.contains(*w)).collect();
    assert!(missing.is_empty(), "missing from the archive: {missing:?}");

    // The sum file verifies the archive, and only it.
    let sums = format!("{name}.tar.gz.sha256");
    let check = succeeds(
        Command::new("sha256sum")
            .args(["-c", &sums])
            .current_dir(dir.path()),
    );
    assert_eq!(
        String::from_utf8(check.stdout).unwrap(),
        format!("{name}.tar.gz: OK\n")
    );
    let mut bytes = std::fs::read(&archive).unwrap();
    bytes.push(0);
    let changed = tempfile::tempdir().unwrap();
    std::fs::write(changed.path().join(format!("{name}.tar.gz")), bytes).unwrap();
    std::fs::copy(dir.path().join(&sums), changed.path().join(&sums)).unwrap();
    let check = Command::new("sha256sum")
        .args(["-c", &sums])
        .current_dir(changed.path())
        .output()
        .unwrap();
    assert!(!check.status.success(), "a changed archive must not verify");

    // Unpacked, its binary runs and says which build it is.
    succeeds(
        Command::new("tar")
            .arg("-xzf")
            .arg(&archive)
            .current_dir(dir.path()),
    );
    let binary = dir.path().join(&name).join("tunnelctl");
    assert_version_of(&binary);
    assert_position_independent(&binary);
}

/// Where the Debian package must put each file, beside the file of the repository it is.
fn debian_paths() -> Vec<(String, Option<PathBuf>)> {
    let mut paths: Vec<(String, Option<PathBuf>)> = vec![("usr/bin/tunnelctl".into(), None)];
    for page in man_pages() {
        paths.push((format!("usr/share/man/man1/{page}.gz"), None));
    }
    for (file, dest) in [
        (
            "completions/tunnelctl.bash",
            "usr/share/bash-completion/completions/tunnelctl",
        ),
        (
            "completions/_tunnelctl",
            "usr/share/zsh/vendor-completions/_tunnelctl",
        ),
        (
            "completions/tunnelctl.fish",
            "usr/share/fish/vendor_completions.d/tunnelctl.fish",
        ),
        ("README.md", "usr/share/doc/tunnelctl/README.md"),
        ("LICENSE-MIT", "usr/share/doc/tunnelctl/LICENSE-MIT"),
        ("LICENSE-APACHE", "usr/share/doc/tunnelctl/LICENSE-APACHE"),
    ] {
        paths.push((dest.to_string(), Some(root().join(file))));
    }
    paths
}

/// The packages that hold the shared libraries `binary` needs (`readelf -d`, `dpkg -S`).
fn packages_of_needed_libraries(binary: &Path) -> BTreeSet<String> {
    let dynamic = succeeds(Command::new("readelf").arg("-d").arg(binary));
    let mut packages = BTreeSet::new();
    for line in String::from_utf8(dynamic.stdout).unwrap().lines() {
        let Some(lib) = line
            .split_once("Shared library: [")
            .and_then(|(_, rest)| rest.strip_suffix(']'))
        else {
            continue;
        };
        let owners = succeeds(Command::new("dpkg").args(["-S", &format!("*/{lib}")]));
        for owner in String::from_utf8(owners.stdout).unwrap().lines() {
            let package = owner.split([':', ',']).next().unwrap().trim();
            packages.insert(package.to_string());
        }
    }
    packages
}

#[test]
#[ignore = "builds the release binary (minutes, LTO) and needs cargo-deb: .ci/run runs it"]
fn the_debian_package_puts_binary_man_pages_completions_and_docs_where_debian_looks() {
    if !have("cargo-deb", &["--version"]) {
        skip::cannot_run("cargo-deb is not installed (cargo install cargo-deb --locked)");
        return;
    }
    if !have("dpkg-deb", &["--version"]) || !have("dpkg-shlibdeps", &["--version"]) {
        skip::cannot_run("dpkg-deb and dpkg-shlibdeps (dpkg-dev) are needed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = succeeds(
        cargo()
            .args(["deb", "-p", "tunnelctl", "--locked", "--output"])
            .arg(dir.path()),
    );
    let deb = PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
    assert!(deb.is_file(), "cargo deb printed {}", deb.display());

    // Every path, as dpkg lists the package (`./usr/bin/tunnelctl`, mode first).
    let contents = succeeds(Command::new("dpkg-deb").arg("-c").arg(&deb));
    let contents = String::from_utf8(contents.stdout).unwrap();
    let listed: BTreeSet<&str> = contents
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .map(|p| p.trim_start_matches("./"))
        .collect();
    let paths = debian_paths();
    let missing: Vec<&String> = paths
        .iter()
        .map(|(p, _)| p)
        .filter(|p| !listed.contains(p.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "missing from the package: {missing:?}\n{contents}"
    );
    assert!(
        contents
            .lines()
            .any(|l| l.starts_with("-rwxr-xr-x") && l.ends_with("./usr/bin/tunnelctl")),
        "{contents}"
    );

    // Extracted into a folder of the test's, never installed.
    let tree = dir.path().join("tree");
    succeeds(Command::new("dpkg-deb").arg("-x").arg(&deb).arg(&tree));
    for (path, source) in &paths {
        if let Some(source) = source {
            assert_eq!(
                std::fs::read(tree.join(path)).unwrap(),
                std::fs::read(source).unwrap(),
                "{path}"
            );
        }
    }
    let binary = tree.join("usr/bin/tunnelctl");
    assert_version_of(&binary);
    assert_position_independent(&binary);

    // Its dependencies are those of the libraries the binary links, and no others.
    let depends = succeeds(
        Command::new("dpkg-deb")
            .args(["-f"])
            .arg(&deb)
            .arg("Depends"),
    );
    let depends = String::from_utf8(depends.stdout).unwrap();
    let needed = packages_of_needed_libraries(&binary);
    let named: Vec<&str> = depends
        .split(',')
        .map(|d| d.split_whitespace().next().unwrap_or(""))
        .collect();
    assert!(!depends.trim().is_empty(), "no Depends");
    for package in &named {
        assert!(
            needed.contains(*package),
            "Depends names {package}, which holds no library the binary needs ({needed:?}): {depends}"
        );
    }

    // man reads the page of the program and of a command.
    if !have("man", &["--version"]) {
        skip::cannot_run("man (man-db) is not installed");
        return;
    }
    for page in ["tunnelctl.1.gz", "tunnelctl-ip-policies-create.1.gz"] {
        let out = succeeds(
            Command::new("man")
                .arg("-l")
                .arg(tree.join("usr/share/man/man1").join(page))
                .env("MANPAGER", "cat")
                .env("MANWIDTH", "80"),
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("NAME") && text.contains("SYNOPSIS") && text.contains("tunnelctl"),
            "{page}:\n{text}"
        );
    }
}
