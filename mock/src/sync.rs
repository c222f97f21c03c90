//! Locking the emulator's mutexes. A leaf on purpose: every part of the emulator locks
//! something, and a lock helper that lived next to the state would tie each of them to all of
//! it.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks a mutex even if a previous holder panicked: the data is plain values that stay
/// consistent, and one bad request must not take the whole emulator down.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
