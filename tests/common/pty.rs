//! A pseudo-terminal harness: runs a program as a person would meet it, on a terminal of a
//! given size, types keys into it and reads the screen back as a terminal would draw it.
//!
//! ```ignore
//! let mut term = Pty::spawn(&env.std_cmd().args(["config", "init"]), 24, 80);
//! term.wait_for("API key");
//! term.send(keys::CTRL_C);
//! assert_eq!(term.wait_exit(), 130);
//! term.assert_restored();
//! ```
//!
//! The program's output is parsed by `vt100` as it arrives, so `screen()` is what the person
//! sees (cursor movements and erasures applied) and `output()` is every byte it wrote. Keys go
//! through the terminal's line discipline as typed keys do: Ctrl-C (`\x03`) becomes SIGINT
//! unless the program put the terminal in raw mode. Every wait is bounded ([`WAIT`]) and
//! fails the test with the screen in its message.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};

/// The longest any wait lasts before the test fails (generous: the machine may be busy).
pub const WAIT: Duration = Duration::from_secs(20);

/// Keys as a terminal sends them.
pub mod keys {
    /// Enter (the terminal sends a carriage return).
    pub const ENTER: &str = "\r";
    /// Ctrl-C.
    pub const CTRL_C: &str = "\x03";
    /// Ctrl-D.
    pub const CTRL_D: &str = "\x04";
    /// Escape.
    pub const ESC: &str = "\x1b";
    /// Backspace (DEL, as most terminals send it).
    pub const BACKSPACE: &str = "\x7f";
    /// Cursor up.
    pub const UP: &str = "\x1b[A";
    /// Cursor down.
    pub const DOWN: &str = "\x1b[B";
    /// Space.
    pub const SPACE: &str = " ";
}

/// What the reader thread collected: the parsed screen and every byte.
struct Seen {
    parser: vt100::Parser,
    bytes: Vec<u8>,
    closed: bool,
}

/// A program running on a pseudo-terminal.
pub struct Pty {
    seen: Arc<Mutex<Seen>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    master: Box<dyn MasterPty + Send>,
    exit: Option<i32>,
}

impl Pty {
    /// Starts `cmd` (its program, arguments, environment changes and folder) on a terminal of
    /// `rows` x `cols`. Its stdin, stdout and stderr are the terminal, which is its
    /// controlling terminal.
    pub fn spawn(cmd: &std::process::Command, rows: u16, cols: u16) -> Pty {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal opens");
        let mut builder = CommandBuilder::new(cmd.get_program());
        builder.args(cmd.get_args());
        for (key, value) in cmd.get_envs() {
            match value {
                Some(v) => builder.env(key, v),
                None => builder.env_remove(key),
            }
        }
        builder.env("TERM", "xterm-256color");
        if let Some(dir) = cmd.get_current_dir() {
            builder.cwd(dir);
        }
        let child = pair
            .slave
            .spawn_command(builder)
            .expect("the program starts on the terminal");
        // Only the child holds the terminal's other end now, so its exit ends the reads.
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("a reader");
        let writer = pair.master.take_writer().expect("a writer");
        let seen = Arc::new(Mutex::new(Seen {
            parser: vt100::Parser::new(
                NonZeroU16::new(rows).expect("rows > 0"),
                NonZeroU16::new(cols).expect("cols > 0"),
                0,
            ),
            bytes: Vec::new(),
            closed: false,
        }));
        let sink = Arc::clone(&seen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                let n = reader.read(&mut buf).unwrap_or(0);
                let mut s = sink.lock().expect("the screen lock");
                if n == 0 {
                    s.closed = true;
                    return;
                }
                s.parser.process(&buf[..n]);
                s.bytes.extend_from_slice(&buf[..n]);
            }
        });
        Pty {
            seen,
            writer,
            child,
            master: pair.master,
            exit: None,
        }
    }

    /// Types `keys` (text, or the constants of [`keys`]).
    pub fn send(&mut self, keys: &str) -> &mut Self {
        self.send_bytes(keys.as_bytes())
    }

    /// Sends raw bytes to the program's terminal.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> &mut Self {
        self.writer
            .write_all(bytes)
            .expect("the terminal takes input");
        self.writer.flush().expect("the terminal takes input");
        self
    }

    /// The program's process id (to send it a signal as another process would).
    pub fn pid(&self) -> u32 {
        self.child.process_id().expect("the child has a pid")
    }

    /// The screen's text as it is drawn now (rows joined by newlines, trailing blanks cut).
    pub fn screen(&self) -> String {
        self.seen
            .lock()
            .expect("the screen lock")
            .parser
            .screen()
            .contents()
    }

    /// Is the cursor hidden now?
    pub fn cursor_hidden(&self) -> bool {
        self.seen
            .lock()
            .expect("the screen lock")
            .parser
            .screen()
            .hide_cursor()
    }

    /// The rows (of the screen as drawn now) whose text ran past the last column and went on
    /// in the next row, with their text.
    pub fn wrapped_rows(&self) -> Vec<String> {
        let s = self.seen.lock().expect("the screen lock");
        let screen = s.parser.screen();
        let (rows, cols) = screen.size();
        let (rows, cols) = (rows.get(), cols.get());
        (0..rows)
            .filter(|row| screen.row_wrapped(*row))
            .map(|row| screen.contents_between(row, 0, row, cols))
            .collect()
    }

    /// Every byte the program wrote to the terminal so far.
    pub fn output(&self) -> Vec<u8> {
        self.seen.lock().expect("the screen lock").bytes.clone()
    }

    /// Waits until the screen shows `text`; returns the screen. Fails the test after [`WAIT`],
    /// or as soon as the program has exited without showing it.
    #[track_caller]
    pub fn wait_for(&mut self, text: &str) -> String {
        self.wait_until(&format!("{text:?}"), |screen| screen.contains(text))
    }

    /// Waits until the screen shows `text` and the terminal has stopped echoing: a hidden
    /// question is then reading its answer, and what is typed is not shown. (Typing as soon as
    /// the question is drawn races the program turning echo off.)
    #[track_caller]
    pub fn wait_for_hidden(&mut self, text: &str) -> String {
        self.wait_for(text);
        let fd = self.master.as_raw_fd();
        self.wait_until(&format!("echo off after {text:?}"), |_| !echoes(fd))
    }

    /// Waits until the screen is as `done` wants it (`what` names that in the failure);
    /// returns the screen. Fails as [`Pty::wait_for`] does.
    #[track_caller]
    pub fn wait_until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let (screen, closed) = {
                let s = self.seen.lock().expect("the screen lock");
                (s.parser.screen().contents(), s.closed)
            };
            if done(&screen) {
                return screen;
            }
            if closed || start.elapsed() > WAIT {
                panic!(
                    "{what} not on the screen ({}):\n{screen}",
                    if closed {
                        "the program ended"
                    } else {
                        "timed out"
                    }
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits (at most [`WAIT`]) for the program to exit and for its last output to be read;
    /// returns its exit code (128 + N for a program killed by signal N is not told apart from
    /// an exit with that code). Fails the test, killing the program, if it does not exit.
    #[track_caller]
    pub fn wait_exit(&mut self) -> i32 {
        if let Some(code) = self.exit {
            return code;
        }
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the child's status") {
                break status;
            }
            if start.elapsed() > WAIT {
                let _ = self.child.kill();
                panic!("the program did not exit; the screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // The output the program wrote before it exited is still being read.
        while !self.seen.lock().expect("the screen lock").closed && start.elapsed() < WAIT {
            std::thread::sleep(Duration::from_millis(10));
        }
        let code = match status.signal() {
            Some(signal) => panic!(
                "the program was killed by a signal ({signal}); the screen:\n{}",
                self.screen()
            ),
            None => status.exit_code() as i32,
        };
        self.exit = Some(code);
        code
    }

    /// Asserts the program left the terminal as a shell needs it: cursor visible, main screen
    /// (not the alternate one), and the line discipline back in cooked mode (echo, line
    /// editing and Ctrl-C as a signal), as before it started.
    #[track_caller]
    pub fn assert_restored(&self) {
        let s = self.seen.lock().expect("the screen lock");
        let screen = s.parser.screen();
        assert!(
            !screen.hide_cursor(),
            "the cursor was left hidden:\n{}",
            screen.contents()
        );
        assert!(
            !screen.alternate_screen(),
            "the alternate screen was left on:\n{}",
            screen.contents()
        );
        if let Some(fd) = self.master.as_raw_fd() {
            // SAFETY: tcgetattr only fills the struct; the descriptor is the open master.
            let mut t: libc::termios = unsafe { std::mem::zeroed() };
            if unsafe { libc::tcgetattr(fd, &mut t) } == 0 {
                for (flag, name) in [
                    (libc::ECHO, "ECHO"),
                    (libc::ICANON, "ICANON"),
                    (libc::ISIG, "ISIG"),
                ] {
                    assert!(
                        t.c_lflag & flag != 0,
                        "the terminal was left without {name} (raw mode not undone)"
                    );
                }
            }
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        if self.exit.is_none() {
            let _ = self.child.kill();
        }
    }
}

/// Whether the terminal of master `fd` echoes what is typed (its line discipline's ECHO flag).
fn echoes(fd: Option<std::os::fd::RawFd>) -> bool {
    let Some(fd) = fd else {
        return true;
    };
    // SAFETY: an all-zero termios is a valid value to be overwritten; tcgetattr only writes
    // the termios it is given, and `fd` is the open master of the test's terminal, whose
    // settings are those of its other side.
    let mut t: libc::termios = unsafe { std::mem::zeroed() };
    if unsafe { libc::tcgetattr(fd, &mut t) } != 0 {
        return true;
    }
    t.c_lflag & libc::ECHO != 0
}
