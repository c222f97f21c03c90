//! Lays out the code `tunnelctl` runs at start-up side by side in the binary.
//!
//! Each start maps the code it touches page by page; scattered over 7 MB of text, the few
//! hundred functions every command runs before it does anything (the runtime, clap's parser,
//! the global flags) cost a page fault each in a different place. `link/startup.order`
//! names them (`link/generate-startup-order.sh` writes it from a profile of the built binary)
//! and the linker's `--symbol-ordering-file` (LLD's, which rustc uses on x86_64 Linux from
//! Rust 1.90, and mold's) puts them first, together. A name the build no longer has is
//! skipped, so a stale list costs only speed (bench S1 shows it), never the build.
//!
//! Whether the linker takes the flag is not guessed from the platform: a rustc built by a
//! distribution may link through `cc` with GNU ld, which refuses it. A program that does
//! nothing is linked with the flag first, as this build links; only when that works is the
//! flag passed for `tunnelctl`.
//!
//! It also says which source the binary was built from, for `tunnelctl --version`
//! (`src/cli/version.rs`): from a git checkout of this repository, the commit, its date (UTC)
//! and whether the tree had changes; from anywhere else (a packaged crate, an archive of the
//! source, a machine without git), nothing, and the version stands alone. It reruns when
//! HEAD, the branch it names, the index or the sources change, so that the commit and the
//! `-dirty` mark follow the checkout.

use std::env;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn main() {
    describe_source();
    let order = Path::new("link").join("startup.order");
    println!("cargo::rerun-if-changed={}", order.display());
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=RUSTC_LINKER");
    let (Some(manifest_dir), Some(out_dir)) =
        (env::var_os("CARGO_MANIFEST_DIR"), env::var_os("OUT_DIR"))
    else {
        return;
    };
    let path = Path::new(&manifest_dir).join(&order);
    if !path.is_file() || !linker_takes_ordering(Path::new(&out_dir)) {
        return;
    }
    // -Xlinker, not -Wl,: a comma in the path would split it.
    for arg in ordering_args(&path) {
        println!(
            "cargo::rustc-link-arg-bin=tunnelctl={}",
            arg.to_string_lossy()
        );
    }
}

/// The linker arguments that pass `order`, through the compiler driver rustc links with.
fn ordering_args(order: &Path) -> Vec<OsString> {
    let mut file = OsString::from("--symbol-ordering-file=");
    file.push(order);
    vec![
        "-Xlinker".into(),
        file,
        "-Xlinker".into(),
        "--no-warn-symbol-ordering".into(),
    ]
}

/// Whether this build's linker takes `--symbol-ordering-file`: links a program that does
/// nothing with it (and an empty list), for this target, with this build's flags and linker.
fn linker_takes_ordering(out_dir: &Path) -> bool {
    let source = out_dir.join("probe.rs");
    let empty = out_dir.join("probe.order");
    if std::fs::write(&source, "fn main() {}\n").is_err() || std::fs::write(&empty, "").is_err() {
        return false;
    }
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let mut cmd = Command::new(rustc);
    cmd.arg(&source)
        .arg("-o")
        .arg(out_dir.join(PathBuf::from("probe")))
        .args(["--crate-type", "bin", "--edition", "2021"]);
    if let Ok(target) = env::var("TARGET") {
        cmd.args(["--target", &target]);
    }
    if let Ok(flags) = env::var("CARGO_ENCODED_RUSTFLAGS") {
        cmd.args(flags.split('\x1f').filter(|f| !f.is_empty()));
    }
    if let Some(linker) = env::var_os("RUSTC_LINKER") {
        let mut flag = OsString::from("linker=");
        flag.push(linker);
        cmd.arg("-C").arg(flag);
    }
    for arg in ordering_args(&empty) {
        let mut flag = OsString::from("link-arg=");
        flag.push(arg);
        cmd.arg("-C").arg(flag);
    }
    cmd.stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The commit the binary is built from, as `tunnelctl --version` shows it.
struct Checkout {
    /// The short commit, abbreviated as `git rev-parse --short` does.
    commit: String,
    /// The commit's date, `YYYY-MM-DD`, in UTC (whatever the builder's time zone).
    date: String,
    /// Whether tracked files differed from the commit.
    dirty: bool,
}

/// Hands the source's description to the compiler as environment variables, each empty
/// when unknown (`src/cli/version.rs` reads them): `BUILD_VERSION_TEXT` (what `--version`
/// prints after the name), `BUILD_GIT_COMMIT`, `BUILD_GIT_DATE`, `BUILD_GIT_DIRTY` (`true`
/// or `false`) and `BUILD_TARGET`.
fn describe_source() {
    let version = env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let manifest_dir = env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    let checkout = manifest_dir.as_deref().and_then(checkout);
    if let (None, Some(dir)) = (&checkout, &manifest_dir) {
        watch_package(dir);
    }
    let text = match &checkout {
        Some(c) => format!(
            "{version} ({}{} {})",
            c.commit,
            if c.dirty { "-dirty" } else { "" },
            c.date
        ),
        None => version,
    };
    let (commit, date, dirty) = match &checkout {
        Some(c) => (c.commit.as_str(), c.date.as_str(), c.dirty.to_string()),
        None => ("", "", String::new()),
    };
    println!("cargo::rustc-env=BUILD_VERSION_TEXT={text}");
    println!("cargo::rustc-env=BUILD_GIT_COMMIT={commit}");
    println!("cargo::rustc-env=BUILD_GIT_DATE={date}");
    println!("cargo::rustc-env=BUILD_GIT_DIRTY={dirty}");
    println!(
        "cargo::rustc-env=BUILD_TARGET={}",
        env::var("TARGET").unwrap_or_default()
    );
}

/// The commit checked out at `dir`, when `dir` is the top of a git work tree (not merely
/// inside one: a packaged crate unpacked under a checkout, as `cargo package` verifies it in
/// `target/package/`, is not that checkout's commit). Any failure (no git, not a checkout,
/// a repository git refuses to read) is `None`, never a failed build.
fn checkout(dir: &Path) -> Option<Checkout> {
    let top = git(dir, &["rev-parse", "--show-toplevel"])?;
    if Path::new(&top).canonicalize().ok()? != dir.canonicalize().ok()? {
        return None;
    }
    watch_checkout(dir);
    let commit = git(dir, &["rev-parse", "--short", "HEAD"])?;
    let date = git(
        dir,
        &[
            "show",
            "-s",
            "--format=%cd",
            "--date=format-local:%Y-%m-%d",
            "HEAD",
        ],
    )?;
    let changes = git(dir, &["status", "--porcelain", "--untracked-files=no"])?;
    Some(Checkout {
        commit,
        date,
        dirty: !changes.is_empty(),
    })
}

/// Reruns this script when what [`checkout`] read may have changed: HEAD (a checkout), the
/// branch it names (a commit; loose or packed) and HEAD's log (which every commit and
/// checkout writes, should the branch's file not exist yet), the index (`git add`), and the
/// files the binary is built from (an edit makes the tree dirty). Only paths that exist are named:
/// cargo reruns the script on every build for a path that does not.
fn watch_checkout(dir: &Path) {
    let mut paths = Vec::new();
    let mut git_paths: Vec<String> = ["HEAD", "logs/HEAD", "index", "packed-refs"]
        .map(String::from)
        .into();
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        git_paths.push(branch);
    }
    for name in &git_paths {
        if let Some(path) = git(
            dir,
            &["rev-parse", "--path-format=absolute", "--git-path", name],
        ) {
            paths.push(PathBuf::from(path));
        }
    }
    for name in ["src", "Cargo.toml", "Cargo.lock"] {
        paths.push(dir.join(name));
    }
    for path in paths.iter().filter(|p| p.exists()) {
        println!("cargo::rerun-if-changed={}", path.display());
    }
}

/// In a packaged crate, names a file that only packages hold. `cargo package` verifies the
/// crate in the checkout's target folder, and cargo gives this script's run there the same
/// place as the checkout's own (it hashes a path package by its path within its workspace,
/// the same in both): after it, the checkout's next build would take this run for its own and
/// say the version alone. Naming `.cargo_vcs_info.json` (which cargo writes into a package
/// made from a checkout), which the checkout lacks, makes that build run the script again.
fn watch_package(dir: &Path) {
    if dir.join(".cargo_vcs_info.json").is_file() {
        println!("cargo::rerun-if-changed=.cargo_vcs_info.json");
    }
}

/// What `git ARGS` prints in `dir`, trimmed, if it succeeds. Dates are read in UTC, and git
/// takes no optional lock: `status` would otherwise refresh the index, and the index
/// changing is what reruns this script.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("TZ", "UTC")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.trim().to_string())
}
