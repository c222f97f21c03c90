//! Stop signals: Ctrl-C (SIGINT) and SIGTERM, the signal GitLab CI, systemd, Kubernetes and
//! most supervisors send to cancel a job (GitHub Actions sends SIGINT, then SIGTERM).
//!
//! Both are handled alike. A plain command stops at once. A bulk operation asks for a graceful
//! stop instead: the first signal stops it from starting new requests, the ones in flight
//! finish, and it reports what was done and what was not; a second signal (either kind) stops
//! at once, and so does the end of [`GRACE`]: a signal ends every command within a second,
//! whatever the network does. The exit code says which signal ended the run, as a shell
//! would: 130 for SIGINT, 143 for SIGTERM.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU8, AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Notify;

use crate::error::Error;

/// The graceful guards alive: a bulk operation runs inside a command that is graceful itself
/// (a rolling upgrade's batches, the actions of `sessions watch`), and the inner one ending
/// must not end the outer one's.
static GRACEFUL: AtomicUsize = AtomicUsize::new(0);
static REQUESTED: AtomicBool = AtomicBool::new(false);
/// Wakes those waiting in [`stop_requested`] when a graceful stop is asked for.
static STOP_ASKED: Notify = Notify::const_new();
/// The last stop signal received: 0 (none), [`SIGINT`] or [`SIGTERM`].
static LAST: AtomicU8 = AtomicU8::new(0);

/// Stop signals counted as they arrive, outside the runtime (see [`watch`]).
static SEEN: AtomicU32 = AtomicU32::new(0);
/// The SIGTERMs among them: a SIGTERM decides the exit code even when a SIGINT follows it
/// (the terminal library a question uses raises SIGINT itself when its wait is interrupted).
static SEEN_TERM: AtomicU32 = AtomicU32::new(0);

const SIGINT: u8 = 2;
const SIGTERM: u8 = 15;

/// While the guard lives, the first stop signal only sets [`requested`].
pub struct GracefulGuard(());

impl Drop for GracefulGuard {
    fn drop(&mut self) {
        GRACEFUL.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What the first stop signal in graceful mode says, by default (a bulk operation's).
const BULK_NOTE: &str =
    "no new requests are started; the ones under way may finish (for up to 0.8 s). Ctrl-C or SIGTERM again to stop at once.";

/// What the first stop signal in graceful mode says.
static NOTE: std::sync::Mutex<&'static str> = std::sync::Mutex::new(BULK_NOTE);

/// Enters graceful mode for a bulk operation.
pub fn graceful() -> GracefulGuard {
    graceful_saying(BULK_NOTE)
}

/// Enters graceful mode; the first stop signal says `note` (what happens now), or nothing
/// when it is empty. Inside another graceful guard the outer one's note stays: the command
/// that owns the terminal says what a stop does (a full-screen view wants nothing said).
pub fn graceful_saying(note: &'static str) -> GracefulGuard {
    if GRACEFUL.fetch_add(1, Ordering::SeqCst) == 0 {
        if let Ok(mut n) = NOTE.lock() {
            *n = note;
        }
    }
    GracefulGuard(())
}

/// Has a graceful stop been asked for?
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Resolves once a graceful stop has been asked for (at once if it already was): an event
/// loop waiting for keys and timers wakes to end as its quit key does.
pub async fn stop_requested() {
    loop {
        let asked = STOP_ASKED.notified();
        tokio::pin!(asked);
        // Registered before the check, so a stop asked in between still wakes it.
        asked.as_mut().enable();
        if requested() {
            return;
        }
        asked.await;
    }
}

/// The error to end on after a graceful stop: it carries the exit code of the last signal
/// received (143 for SIGTERM, else 130).
pub fn stop_error() -> Error {
    error_for(LAST.load(Ordering::SeqCst))
}

fn error_for(signal: u8) -> Error {
    if signal == SIGTERM {
        Error::Terminated
    } else {
        Error::Interrupted
    }
}

fn name(signal: u8) -> &'static str {
    if signal == SIGTERM {
        "SIGTERM"
    } else {
        "Ctrl-C"
    }
}

/// Starts counting stop signals the moment they arrive (once per run). The runtime hears a
/// signal only when it is polled, and a question waiting for a key blocks it; with this, the
/// question notices a SIGTERM (or a SIGINT sent with `kill`) itself and ends. The count is
/// kept beside the runtime's own handling, which is unchanged.
pub fn watch() {
    #[cfg(unix)]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            for (signal, code) in [(libc::SIGINT, SIGINT), (libc::SIGTERM, SIGTERM)] {
                // SAFETY: the action only stores to atomics, which is async-signal-safe.
                let _ = unsafe {
                    signal_hook_registry::register(signal, move || {
                        if code == SIGTERM {
                            SEEN_TERM.fetch_add(1, Ordering::SeqCst);
                        }
                        SEEN.fetch_add(1, Ordering::SeqCst);
                    })
                };
            }
        });
    }
}

/// The stop signals [`watch`] has counted so far (all of them, and the SIGTERMs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    all: u32,
    term: u32,
}

/// The stop signals [`watch`] has counted so far.
pub fn seen() -> Seen {
    Seen {
        all: SEEN.load(Ordering::SeqCst),
        term: SEEN_TERM.load(Ordering::SeqCst),
    }
}

/// The error to end on if a stop signal arrived since [`seen`] returned `before`: SIGTERM's
/// if one came, else SIGINT's.
pub fn error_since(before: Seen) -> Option<Error> {
    let now = seen();
    if now.term != before.term {
        Some(Error::Terminated)
    } else {
        (now.all != before.all).then_some(Error::Interrupted)
    }
}

/// How long a graceful stop waits for what is under way before it stops at once: a signal
/// ends every command within a second, whatever the network does (a request whose server
/// never answers would otherwise hold the run until its timeout, minutes later).
pub const GRACE: Duration = Duration::from_millis(800);

/// Resolves, with the error to end on, when the program should stop at once: a stop signal
/// outside graceful mode, a second one inside it, or [`GRACE`] after the first one. A first
/// signal in graceful mode is only recorded. What it has to say goes to `say`, a line at a
/// time (stderr, folded for its terminal).
pub async fn hard_stop(say: impl Fn(&str)) -> Error {
    let Some(mut signals) = Signals::new() else {
        // No signal handling on this platform: never resolve.
        return std::future::pending().await;
    };
    let mut grace: Option<tokio::time::Instant> = None;
    loop {
        let signal = tokio::select! {
            signal = signals.next() => signal,
            () = tokio::time::sleep_until(grace.unwrap_or_else(tokio::time::Instant::now)),
                if grace.is_some() =>
            {
                // A command that says what a stop does promised to finish what was under way.
                if !NOTE.lock().map_or(BULK_NOTE, |n| *n).is_empty() {
                    say("Stopped at once: what was under way did not end within a second of the signal, so its outcome is unknown.");
                }
                return stop_error();
            }
        };
        LAST.store(signal, Ordering::SeqCst);
        if GRACEFUL.load(Ordering::SeqCst) > 0 && !REQUESTED.swap(true, Ordering::SeqCst) {
            STOP_ASKED.notify_waiters();
            let note = NOTE.lock().map_or(BULK_NOTE, |n| *n);
            // An empty note: the command says it stops itself (below its spinner's line).
            if !note.is_empty() {
                say("");
                say(&format!("Stopping ({}): {note}", name(signal)));
            }
            grace = Some(tokio::time::Instant::now() + GRACE);
            continue;
        }
        return error_for(signal);
    }
}

/// The stop signals this platform delivers, listened to from the start of the run so none is
/// lost between two waits.
struct Signals {
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> Option<Signals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Some(Signals {
                int: signal(SignalKind::interrupt()).ok()?,
                term: signal(SignalKind::terminate()).ok()?,
            })
        }
        #[cfg(not(unix))]
        {
            Some(Signals {})
        }
    }

    /// The next stop signal.
    async fn next(&mut self) -> u8 {
        #[cfg(unix)]
        {
            tokio::select! {
                Some(()) = self.int.recv() => SIGINT,
                Some(()) = self.term.recv() => SIGTERM,
                else => std::future::pending().await,
            }
        }
        #[cfg(not(unix))]
        {
            match tokio::signal::ctrl_c().await {
                Ok(()) => SIGINT,
                Err(_) => std::future::pending().await,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_signal_has_its_exit_code() {
        assert_eq!(error_for(SIGTERM).exit_code(), 143);
        assert_eq!(error_for(SIGINT).exit_code(), 130);
        assert_eq!(error_for(0).exit_code(), 130);
    }
}
