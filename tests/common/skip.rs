//! The one way a test that needs a tool or a privilege (the `sqlite3` shell, `mount`, root for
//! a device node, the providers' official libraries, the real-agent harness) says it cannot
//! run its check.
//!
//! Under CI it fails the test: there every check must run, and a skip would pass unseen. CI is
//! the variable `CI` set to anything but the empty string (every CI service sets it to `true`
//! or `1`; an empty `CI`, as `CI= cargo test` leaves it, is taken for unset, as most tools
//! take it). Elsewhere it writes `SKIPPED <test>: <why>` to the process's stderr itself, past
//! the test harness's capture (which takes only what `print!` and `eprint!` write, and shows
//! it only for a failed test), so the skip shows beside the test's `ok`.

use std::fmt::Display;
use std::io::Write as _;

/// Is this a CI run (`CI` set, not empty)?
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// Says that the running test cannot run its check, and why: under CI the test fails here;
/// elsewhere `SKIPPED`, with the test's name, on the terminal, and the caller returns early.
#[track_caller]
pub fn cannot_run(why: impl Display) {
    let caller = std::panic::Location::caller();
    // libtest names each test's thread after the test (but for `--test-threads=1`).
    let test = match std::thread::current().name() {
        Some(name) if name != "main" => name.to_string(),
        _ => format!("the test at {}:{}", caller.file(), caller.line()),
    };
    if in_ci() {
        panic!("{test} cannot run its check under CI: {why}");
    }
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {why}");
}
