//! The real console: the terminal on stdin in raw mode for the time of one question, output
//! on stderr. In raw mode Ctrl-C is a key, not SIGINT, so the question itself ends at once on
//! it; a stop signal from elsewhere (`kill`, a supervisor's SIGTERM) is noticed between keys.
//! Dropping the console puts the terminal back as it was and shows the cursor again.

use std::collections::VecDeque;
use std::io::Write;

use super::keys::{self, Key};
use super::Console;
use crate::error::{Error, Result};
use crate::interrupt;

const STDIN: libc::c_int = 0;
const STDERR: libc::c_int = 2;
/// How long the rest of an escape sequence is waited for before ESC counts as a key alone.
const SEQUENCE_WAIT_MS: libc::c_int = 40;
/// How often a wait for a key looks for a stop signal.
const SIGNAL_CHECK_MS: libc::c_int = 100;

/// The terminal in raw mode until dropped.
pub struct Terminal {
    saved: libc::termios,
    pending: VecDeque<u8>,
    cursor_hidden: bool,
    signals_before: u32,
}

impl Terminal {
    /// Puts the terminal on stdin in raw mode (no echo, no line editing, no signal keys).
    pub fn open() -> Result<Terminal> {
        interrupt::watch();
        let signals_before = interrupt::seen();
        // SAFETY: tcgetattr fills the struct it is given; the descriptor is stdin.
        let mut saved: libc::termios = unsafe { std::mem::zeroed() };
        if unsafe { libc::tcgetattr(STDIN, &mut saved) } != 0 {
            return Err(Error::Io(format!(
                "cannot ask: the terminal's settings cannot be read ({})",
                std::io::Error::last_os_error()
            )));
        }
        let mut raw = saved;
        raw.c_lflag &= !(libc::ICANON | libc::ECHO | libc::ISIG | libc::IEXTEN);
        raw.c_iflag &= !(libc::IXON | libc::ICRNL | libc::INLCR | libc::IGNCR);
        raw.c_cc[libc::VMIN] = 1;
        raw.c_cc[libc::VTIME] = 0;
        // SAFETY: sets stdin's terminal to a copy of its own settings with flags cleared.
        if unsafe { libc::tcsetattr(STDIN, libc::TCSANOW, &raw) } != 0 {
            return Err(Error::Io(format!(
                "cannot ask: the terminal cannot be put in raw mode ({})",
                std::io::Error::last_os_error()
            )));
        }
        Ok(Terminal {
            saved,
            pending: VecDeque::new(),
            cursor_hidden: false,
            signals_before,
        })
    }

    /// Waits up to `ms` for input and appends what came; `false` when nothing came in time.
    fn fill(&mut self, ms: libc::c_int) -> Result<bool> {
        let mut fd = libc::pollfd {
            fd: STDIN,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for the duration of the call.
        let ready = unsafe { libc::poll(&mut fd, 1, ms) };
        if let Some(stop) = interrupt::error_since(self.signals_before) {
            return Err(stop);
        }
        if ready <= 0 {
            return Ok(false);
        }
        let mut buf = [0u8; 256];
        // SAFETY: reads at most buf.len() bytes into buf.
        let n = unsafe { libc::read(STDIN, buf.as_mut_ptr().cast(), buf.len()) };
        match n {
            n if n > 0 => {
                self.pending.extend(&buf[..usize::try_from(n).unwrap_or(0)]);
            }
            // End of input (the terminal hung up): as Ctrl-D.
            0 => self.pending.push_back(0x04),
            _ => {
                let e = std::io::Error::last_os_error();
                if e.kind() != std::io::ErrorKind::Interrupted {
                    return Err(Error::Io(format!("cannot read from the terminal: {e}")));
                }
            }
        }
        Ok(true)
    }
}

impl Console for Terminal {
    fn read_key(&mut self) -> Result<Key> {
        loop {
            let bytes: Vec<u8> = self.pending.iter().copied().collect();
            if let Some((key, n)) = keys::parse(&bytes) {
                self.pending.drain(..n);
                return Ok(key);
            }
            if self.pending.is_empty() {
                self.fill(SIGNAL_CHECK_MS)?;
            } else if !self.fill(SEQUENCE_WAIT_MS)? {
                // The start of a longer key, and nothing more came: the first byte alone.
                let first = self.pending.pop_front().unwrap_or(0);
                return Ok(keys::lone(first));
            }
        }
    }

    fn write(&mut self, text: &str) -> Result<()> {
        let mut err = std::io::stderr().lock();
        err.write_all(text.as_bytes())
            .and_then(|()| err.flush())
            .map_err(|e| Error::Io(format!("cannot write to the terminal: {e}")))
    }

    fn size(&self) -> (usize, usize) {
        // SAFETY: TIOCGWINSZ fills the winsize it is given.
        let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
        let ok = unsafe { libc::ioctl(STDERR, libc::TIOCGWINSZ, &mut ws) } == 0;
        if ok && ws.ws_row > 0 && ws.ws_col > 0 {
            (usize::from(ws.ws_row), usize::from(ws.ws_col))
        } else {
            (24, 80)
        }
    }

    fn hide_cursor(&mut self) -> Result<()> {
        self.cursor_hidden = true;
        self.write("\x1b[?25l")
    }

    fn discard_input(&mut self) {
        self.pending.clear();
        // SAFETY: drops what was typed but not yet read on stdin's terminal.
        unsafe { libc::tcflush(STDIN, libc::TCIFLUSH) };
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        if self.cursor_hidden {
            let _ = self.write("\x1b[?25h");
        }
        // SAFETY: puts back the settings read when the console was opened.
        unsafe { libc::tcsetattr(STDIN, libc::TCSADRAIN, &self.saved) };
    }
}
