//! Lays out the code `tunnelctl` runs at start-up side by side in the binary.
//!
//! Each start maps the code it touches page by page; scattered over 7 MB of text, the few
//! hundred functions every command runs before it does anything (the runtime, clap's parser,
//! the global flags) cost a page fault each in a different place. `link/startup.order`
//! names them (`link/generate-startup-order.sh` writes it from a profile of the built binary)
//! and LLD's `--symbol-ordering-file` puts them first, together. A name the build no longer
//! has is skipped, so a stale list costs only speed (bench S1 shows it), never the build.
//!
//! Only where rustc links with its own LLD: on x86_64 Linux (GNU) from Rust 1.90, unless the
//! build names another linker. Elsewhere the flag is not passed and the layout is the
//! linker's own.

use std::env;
use std::path::Path;
use std::process::Command;

fn main() {
    let order = Path::new("link").join("startup.order");
    println!("cargo::rerun-if-changed={}", order.display());
    println!("cargo::rerun-if-env-changed=CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER");
    println!("cargo::rerun-if-env-changed=RUSTC_LINKER");
    if !links_with_rust_lld() || !order.is_file() {
        return;
    }
    let Ok(manifest_dir) = env::var("CARGO_MANIFEST_DIR") else {
        return;
    };
    let path = Path::new(&manifest_dir).join(&order);
    println!(
        "cargo::rustc-link-arg-bin=tunnelctl=-Wl,--symbol-ordering-file={}",
        path.display()
    );
    println!("cargo::rustc-link-arg-bin=tunnelctl=-Wl,--no-warn-symbol-ordering");
}

/// Whether this build links with the LLD that rustc ships, the one linker here known to take
/// `--symbol-ordering-file`.
fn links_with_rust_lld() -> bool {
    if env::var("TARGET").ok().as_deref() != Some("x86_64-unknown-linux-gnu") {
        return false;
    }
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let linker_chosen = flags.contains("linker")
        || flags.contains("link-self-contained")
        || flags.contains("fuse-ld")
        || env::var_os("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER").is_some()
        || env::var_os("RUSTC_LINKER").is_some();
    !linker_chosen && rustc_minor().is_some_and(|minor| minor >= 90)
}

/// The minor version of the rustc building this crate (`rustc 1.95.0 …` gives 95).
fn rustc_minor() -> Option<u32> {
    let rustc = env::var_os("RUSTC")?;
    let out = Command::new(rustc).arg("--version").output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let version = text.split_whitespace().nth(1)?;
    let mut parts = version.split('.');
    match (parts.next()?, parts.next()?) {
        ("1", minor) => minor.parse().ok(),
        _ => None,
    }
}
