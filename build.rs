//! Links the `tunnelctl` binary position-dependent on Linux (`-no-pie`), as Go links `gh` and
//! `kubectl`. A position-independent executable carries about 8,000 pointers that the
//! dynamic loader rewrites at every start, copying some 35 pages of the binary to do it: a
//! fifth of what `tunnelctl --version` costs (bench S1). Linked at a fixed address, the
//! pointers are written once by the linker, the pages are shared and only read, and the
//! binary is 190 KB smaller. What is given up is the random placement of the binary's own
//! code; the libraries, the heap and the stack are still placed at random, and what a
//! stranger sends through a tunnel is parsed by Rust code only, never by a C parser.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
