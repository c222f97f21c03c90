//! Hidden answers (the API key, an AWS secret), asked through dialoguer's `Password`: nothing
//! typed is echoed, not even its length.
//!
//! `Password` reads a whole line in the terminal's line mode with echo off, and its terminal
//! library puts the terminal back itself however that read ends. In line mode Ctrl-C is a
//! signal, not a key: our handler only counts it, the read is restarted (and the standard
//! library retries a read a signal cut short anyway), so interrupting it would not end the
//! question. So while a stop signal (Ctrl-C, SIGTERM) is pending, the question's watcher first
//! makes stdin non-blocking ([`unblock`]), then interrupts the read: restarted, it fails at
//! once, the terminal is put back (dropping whatever was typed ahead), and the stop's error
//! ends the question (130, or 143 for SIGTERM). A line read before the watcher got there is not
//! an answer either: a stop that came while the question waited always wins. Stdin blocks
//! again as soon as the wait is over, before anything else is written, since the shell shares
//! that open file.
//!
//! Esc cannot end a line-mode read at once: an answer that holds one (Esc, then Enter) is a
//! cancel (exit 130), never an answer.

use dialoguer::Password;

use super::dialog::{AsGiven, Asking};
use crate::error::{Error, Result};

/// Shows `prompt` and reads a line without echoing it.
pub fn read(prompt: &str) -> Result<String> {
    let asking = Asking::start_with(unblock::stdin_on_stop());
    let answer = Password::with_theme(&AsGiven)
        .with_prompt(prompt)
        .allow_empty_password(true)
        .interact_on(&asking.term);
    let answer = asking.settle(answer)?;
    if answer.contains('\x1b') {
        return Err(Error::Interrupted);
    }
    Ok(answer)
}

/// Making stdin's reads fail instead of wait, until the question is over. Unix only: elsewhere
/// the terminal library reads a hidden answer key by key, not through a line-mode read of stdin.
mod unblock {
    /// What the watcher runs before it interrupts the read: stdin made non-blocking the first
    /// time, and blocking again when the watcher drops it.
    #[cfg(unix)]
    pub fn stdin_on_stop() -> impl FnMut() + Send + 'static {
        let mut set: Option<NonBlocking> = None;
        move || {
            if set.is_none() {
                set = NonBlocking::set();
            }
        }
    }

    /// Nothing to do where the hidden answer is not a line-mode read of stdin.
    #[cfg(not(unix))]
    pub fn stdin_on_stop() -> impl FnMut() + Send + 'static {
        || {}
    }

    /// Stdin's open file made non-blocking by us, until dropped.
    #[cfg(unix)]
    struct NonBlocking;

    #[cfg(unix)]
    impl NonBlocking {
        /// Sets the flag, unless stdin is no terminal (the hidden read is not stdin's then)
        /// or the flag was already set (someone else's to clear).
        fn set() -> Option<NonBlocking> {
            if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                return None;
            }
            // SAFETY: fcntl's F_GETFL/F_SETFL on fd 0 touch no memory of ours.
            unsafe {
                let flags = libc::fcntl(libc::STDIN_FILENO, libc::F_GETFL);
                if flags < 0 || flags & libc::O_NONBLOCK != 0 {
                    return None;
                }
                if libc::fcntl(libc::STDIN_FILENO, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
                    return None;
                }
            }
            Some(NonBlocking)
        }
    }

    #[cfg(unix)]
    impl Drop for NonBlocking {
        fn drop(&mut self) {
            // SAFETY: as in `set`.
            unsafe {
                let flags = libc::fcntl(libc::STDIN_FILENO, libc::F_GETFL);
                if flags >= 0 {
                    libc::fcntl(libc::STDIN_FILENO, libc::F_SETFL, flags & !libc::O_NONBLOCK);
                }
            }
        }
    }
}
