//! Ctrl-C. A plain command stops at once (exit 130). A bulk operation asks for a graceful
//! stop instead: the first Ctrl-C stops it from starting new requests, the ones in flight
//! finish, and it reports what was done and what was not; a second Ctrl-C stops at once.

use std::sync::atomic::{AtomicBool, Ordering};

static GRACEFUL: AtomicBool = AtomicBool::new(false);
static REQUESTED: AtomicBool = AtomicBool::new(false);

/// While the guard lives, the first Ctrl-C only sets [`requested`].
pub struct GracefulGuard(());

impl Drop for GracefulGuard {
    fn drop(&mut self) {
        GRACEFUL.store(false, Ordering::SeqCst);
    }
}

/// Enters graceful mode for a bulk operation.
pub fn graceful() -> GracefulGuard {
    GRACEFUL.store(true, Ordering::SeqCst);
    GracefulGuard(())
}

/// Has a graceful stop been asked for?
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Resolves, with the error to end on, when the program should stop at once: a Ctrl-C outside
/// graceful mode, or a second one inside it. A first Ctrl-C in graceful mode is only recorded.
pub async fn hard_stop() -> crate::error::Error {
    loop {
        if tokio::signal::ctrl_c().await.is_err() {
            // No signal handling on this platform: never resolve.
            std::future::pending::<()>().await;
        }
        if GRACEFUL.load(Ordering::SeqCst) && !REQUESTED.swap(true, Ordering::SeqCst) {
            eprintln!("\nStopping: no new requests are started; the ones under way finish. Ctrl-C again to stop at once.");
            continue;
        }
        return crate::error::Error::Interrupted;
    }
}
