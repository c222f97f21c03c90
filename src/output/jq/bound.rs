//! A `--jq` filter that never ends (`last(range(1e12))`) or grows without end
//! (`[limit(1e9; repeat(1))] | length`) is bounded as the rest of a command is: by
//! `--timeout`, by Ctrl-C and SIGTERM, and by the memory budget of fixtures' `jq` checks.
//!
//! The filter runs synchronously on the main thread (jaq's values cannot move to another), so
//! while it runs the runtime polls neither its stop signals nor `--timeout`'s backstop. A
//! watcher thread, started with the first evaluation, looks at them instead, and at the
//! memory, while an evaluation is under way. When one says stop, it sets the flag the
//! evaluation's data carries ([`super::guard::Watch`]): the evaluation parks at its next step
//! (it cannot be unwound), and the watcher ends the process with the error a stopped command
//! ends with: 7 past `--timeout`, 130 on Ctrl-C, 143 on SIGTERM, 2 past the memory budget
//! (as for the filter's other runtime errors: the data was fine, the filter cannot be
//! evaluated within bounds).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use crate::deadline;
use crate::error::Error;
use crate::interrupt::{self, Seen};

/// How much more memory than before it began the process may hold while a `jq` filter runs:
/// far more than any filter of a command's output or of a webhook's answer needs.
pub const JQ_MEMORY: u64 = 256 * 1024 * 1024;

/// How often a watcher looks at the clock, the stop signals and the memory.
pub const LOOK_EVERY: Duration = Duration::from_millis(50);

/// The watcher of the main thread's evaluations.
struct Watcher {
    /// The stop signals seen before the evaluation under way began; `None` between two.
    under_way: Mutex<Option<Seen>>,
    /// Set once the evaluation under way is to stop.
    stop: AtomicBool,
}

static WATCHER: OnceLock<Option<Watcher>> = OnceLock::new();

/// Runs `eval`, an evaluation on the main thread, given the flag that stops it; the flag is
/// `None` only where the watcher thread could not start.
pub fn during<T>(eval: impl FnOnce(Option<&AtomicBool>) -> T) -> T {
    let watcher = WATCHER.get_or_init(start).as_ref();
    if let Some(w) = watcher {
        if let Ok(mut under_way) = w.under_way.lock() {
            *under_way = Some(interrupt::seen());
        }
    }
    let _done = Done(watcher);
    eval(watcher.map(|w| &w.stop))
}

/// Marks the evaluation over when dropped.
struct Done(Option<&'static Watcher>);

impl Drop for Done {
    fn drop(&mut self) {
        if let Some(mut under_way) = self.0.and_then(|w| w.under_way.lock().ok()) {
            *under_way = None;
        }
    }
}

/// Starts the watcher thread; `None` (evaluations unwatched, as before) if it cannot start.
fn start() -> Option<Watcher> {
    // Counts stop signals as they arrive, which the blocked runtime cannot.
    interrupt::watch();
    std::thread::Builder::new()
        .name("jq-watch".into())
        .spawn(watch)
        .ok()?;
    Some(Watcher {
        under_way: Mutex::new(None),
        stop: AtomicBool::new(false),
    })
}

/// The watcher's life: between evaluations it notes the memory; during one, it ends the
/// process once a bound is passed.
fn watch() {
    let mut before = resident();
    loop {
        std::thread::sleep(LOOK_EVERY);
        let Some(Some(watcher)) = WATCHER.get() else {
            continue;
        };
        let Ok(under_way) = watcher.under_way.lock() else {
            return;
        };
        let Some(seen) = *under_way else {
            before = resident();
            continue;
        };
        if let Some(why) = bound_passed(seen, before) {
            // Held until the end: the evaluation cannot be marked over meanwhile.
            watcher.stop.store(true, Ordering::SeqCst);
            end(&why);
        }
    }
}

/// The error to end an evaluation on, if a bound is passed: a stop signal since `seen`, the
/// command's `--timeout`, or the memory budget over `before`.
fn bound_passed(seen: Seen, before: Option<u64>) -> Option<Error> {
    if let Some(signal) = interrupt::error_since(seen) {
        return Some(signal);
    }
    if deadline::passed() {
        return Some(deadline::ran_out(
            "while the --jq filter ran; the command was stopped",
        ));
    }
    let grown = resident()?.saturating_sub(before?);
    (grown > JQ_MEMORY).then(|| {
        Error::usage(format!(
            "--jq: the filter took more than {} MiB of memory and was stopped \
             (a filter that builds a value without end never finishes; a large list can be \
             filtered item by item with '.[] |', or cut with --limit)",
            JQ_MEMORY / (1024 * 1024)
        ))
    })
}

/// Ends the process with `why`, printed as a run's errors are.
pub fn end(why: &Error) -> ! {
    let mut err = std::io::stderr().lock();
    let _ = match why.is_stop_signal() {
        true => writeln!(err, "{why}"),
        false => writeln!(err, "error: {why}"),
    };
    let _ = err.flush();
    std::process::exit(why.exit_code())
}

/// The process's resident memory in bytes, where the platform says it simply (Linux).
pub fn resident() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
        let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
        // SAFETY: sysconf only reads a system constant.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        u64::try_from(page).ok().map(|p| pages * p)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}
