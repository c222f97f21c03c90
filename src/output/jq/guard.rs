//! A `--jq` filter that recurses without end (`def f: [f]; f`) must end with a clear error,
//! not abort the process with "has overflowed its stack" (SIGABRT, exit 134), on every
//! platform.
//!
//! jaq 3 evaluates filters by plain Rust recursion and has no depth limit of its own. What it
//! does offer is the data an evaluation carries ([`DataT`]): every step of an evaluation asks
//! that data for the filter's table of terms ([`HasLut::lut`]). Our data, [`Bounded`], checks
//! there how much stack is left, as the platform reports it (through `stacker`, which knows
//! Linux, macOS, Windows and the BSDs). An evaluation starts with at least [`MIN_LEFT`] of
//! stack: where the thread has less left (a Windows main thread has 1 MiB in all), `stacker`
//! runs it on a stack of [`STACK`], on the same thread, since jaq's values cannot move to
//! another one. A filter whose recursion ends (5000 levels deep is fine) runs as before.
//!
//! When less than [`RED_ZONE`] is left, the evaluation cannot be unwound (jaq offers no way to
//! stop it, and release builds abort on panic), so the process ends here: one error line and
//! exit 2, as for any other error of the filter the user gave (`--jq: …` runtime errors are
//! usage errors): the data was fine, the filter cannot be evaluated.

use std::sync::atomic::{AtomicBool, Ordering};

use jaq_core::data::{DataT, HasLut};
use jaq_core::Lut;
use jaq_json::Val;

use crate::error::Error;

/// What the user reads; one line, as every error.
const MESSAGE: &str = "--jq: the filter recursed too deeply and ran out of stack; give each recursive def a case that ends it";

/// The stack an evaluation starts with at least: deep enough for any filter that ends, and
/// what a Linux or macOS main thread has anyway (8 MiB), so that the evaluation of each of a
/// million list items does not pay for a stack of its own.
const MIN_LEFT: usize = 4 * 1024 * 1024;

/// The stack given to an evaluation where the thread has less than [`MIN_LEFT`] left.
const STACK: usize = 64 * 1024 * 1024;

/// Stack kept free below the deepest step: more than one step of jaq's recursion takes.
const RED_ZONE: usize = 256 * 1024;

/// Filters run on jaq's JSON values with [`Watch`] as their data.
pub struct Bounded;

impl DataT for Bounded {
    type V<'a> = Val;
    type Data<'a> = Watch<'a>;
}

/// The data an evaluation carries: the filter's terms, handed out only while stack is left,
/// and the flag that says the evaluation is to stop (a fixture's `jq` check given up by its
/// caller, a `--jq` filter past a bound its watcher ended the process on).
#[derive(Clone)]
pub struct Watch<'a>(pub &'a Lut<Bounded>, pub Option<&'a AtomicBool>);

impl<'a> HasLut<'a, Bounded> for Watch<'a> {
    fn lut(&self) -> &'a Lut<Bounded> {
        if stacker::remaining_stack().is_some_and(|left| left < RED_ZONE) {
            out_of_stack();
        }
        if self.1.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            given_up();
        }
        self.0
    }
}

/// Parks the thread for good: the evaluation was given up and cannot be unwound, and a parked
/// thread takes no more time nor memory until the process ends.
fn given_up() -> ! {
    loop {
        std::thread::park();
    }
}

/// Runs `eval` (the evaluation of a filter) with at least [`MIN_LEFT`] of stack.
pub fn guarded<T>(eval: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(MIN_LEFT, STACK, eval)
}

/// Ends the process: the recursion cannot be unwound.
fn out_of_stack() -> ! {
    super::bound::end(&Error::usage(MESSAGE))
}
