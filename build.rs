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

use std::env;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn main() {
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
