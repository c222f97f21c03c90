//! The `tunnelctl` binary: everything is in the library; this only hands over the arguments
//! and exits with the code it returns.

fn main() {
    std::process::exit(tunnelctl::run(std::env::args_os()));
}
