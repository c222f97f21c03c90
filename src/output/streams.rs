//! Where a run's output goes, and what the terminal and environment allow there: the
//! process's stdout and stderr, or two buffers a test reads back (gh's IOStreams is the model).
//! Everything `output/` writes, and every note on stderr, goes through one [`Streams`], so a
//! handler can be run in-process with a fake terminal of a chosen width and its output checked
//! without spawning the binary.
//!
//! The environment's say on terminals and colour (`TUNNELCTL_FORCE_TTY`, `NO_COLOR`) is read
//! and decided here only ([`TerminalEnv`]), for clap's own output (help, usage errors) and for
//! the printer's alike.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex, PoisonError};

/// The width assumed when there is no terminal to ask (`TUNNELCTL_FORCE_TTY`, or a pipe).
pub const DEFAULT_WIDTH: u16 = 120;

/// The height assumed when there is no terminal to ask and no `$LINES`: a classic terminal's.
pub const DEFAULT_HEIGHT: u16 = 24;

/// The width help is laid out for off a terminal (a pager, a file, `| head`) when `$COLUMNS`
/// does not say: the classic terminal's, which every pager shows whole.
pub const PIPE_WIDTH: u16 = 80;

/// The widest help is laid out, however wide the terminal: longer lines are hard to read.
pub const MAX_HELP_WIDTH: u16 = 100;

/// `$COLUMNS`, when it holds a width.
fn columns_variable() -> Option<u16> {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<u16>().ok())
        .filter(|n| *n > 0)
}

/// The width help is laid out for: the terminal's when stdout is one (or `$COLUMNS`, else
/// [`DEFAULT_WIDTH`], when a terminal is forced); off a terminal `$COLUMNS`, else
/// [`PIPE_WIDTH`] (it wrapped at 100 for `tunnelctl --help | less`); at most
/// [`MAX_HELP_WIDTH`].
pub fn help_width() -> u16 {
    let width = if std::io::stdout().is_terminal() || TerminalEnv::read().forced_tty {
        Streams::system().width()
    } else {
        columns_variable().unwrap_or(PIPE_WIDTH)
    };
    width.min(MAX_HELP_WIDTH)
}

/// One destination: a standard stream, or a buffer shared with a [`Captured`].
#[derive(Clone)]
enum Target {
    Stdout,
    Stderr,
    Buffer(Arc<Mutex<Vec<u8>>>),
}

/// Writes into a shared buffer.
struct BufferWriter(Arc<Mutex<Vec<u8>>>);

impl Write for BufferWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // A test thread that panicked while writing leaves bytes that are still worth reading.
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        held.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Target {
    fn writer(&self) -> Box<dyn Write> {
        match self {
            Target::Stdout => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
            Target::Stderr => Box::new(std::io::stderr().lock()),
            Target::Buffer(buf) => Box::new(BufferWriter(Arc::clone(buf))),
        }
    }
}

/// What the environment says about terminals and colour, read once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TerminalEnv {
    /// `TUNNELCTL_FORCE_TTY=1`: stdout is taken for a terminal (for tests of what people see).
    pub forced_tty: bool,
    /// `NO_COLOR` is set to something.
    pub no_color: bool,
}

/// When output may be coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorMode {
    /// Never (`--no-color`, `NO_COLOR`).
    Never,
    /// Always (stdout is forced to count as a terminal).
    Always,
    /// When the stream written to is a terminal.
    Auto,
}

impl TerminalEnv {
    /// The process's environment.
    pub fn read() -> Self {
        TerminalEnv {
            forced_tty: std::env::var(crate::registry::env::FORCE_TTY).is_ok_and(|v| v == "1"),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        }
    }

    /// The colour of output in this environment with `--no-color` given or not: off when
    /// either says so, on when a terminal is forced, else as the terminal decides.
    pub fn color(self, no_color_flag: bool) -> ColorMode {
        if no_color_flag || self.no_color {
            ColorMode::Never
        } else if self.forced_tty {
            ColorMode::Always
        } else {
            ColorMode::Auto
        }
    }
}

/// The output and error streams of one run, and what is known of the terminal behind them.
#[derive(Clone)]
pub struct Streams {
    out: Target,
    err: Target,
    out_tty: bool,
    err_tty: bool,
    width: u16,
    /// The width of stderr's terminal, when it is one: what its lines are folded for.
    err_width: u16,
    height: u16,
    env: TerminalEnv,
}

impl std::fmt::Debug for Streams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Streams")
            .field("out_tty", &self.out_tty)
            .field("err_tty", &self.err_tty)
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

impl Streams {
    /// The process's stdout and stderr. Stdout counts as a terminal when it is one, or when
    /// `TUNNELCTL_FORCE_TTY=1` makes it look like one (for tests of what people see); the
    /// width is the terminal's, else `$COLUMNS`, else [`DEFAULT_WIDTH`]; the height the
    /// terminal's, else `$LINES`, else [`DEFAULT_HEIGHT`].
    pub fn system() -> Self {
        let env = TerminalEnv::read();
        let out_tty = std::io::stdout().is_terminal() || env.forced_tty;
        let err_tty = std::io::stderr().is_terminal();
        let terminal = std::io::stdout()
            .is_terminal()
            .then(|| crossterm::terminal::size().ok())
            .flatten();
        // Stderr's own terminal: stdout may be a file or a pipe, or another terminal.
        let err_columns = err_tty
            .then(|| terminal_size::terminal_size_of(std::io::stderr()))
            .flatten()
            .map(|(w, _)| w.0);
        let size = |asked: Option<u16>, var: &str, default: u16| {
            asked
                .filter(|n| *n > 0)
                .or_else(|| {
                    std::env::var(var)
                        .ok()
                        .and_then(|c| c.trim().parse::<u16>().ok())
                        .filter(|n| *n > 0)
                })
                .unwrap_or(default)
        };
        Streams {
            out: Target::Stdout,
            err: Target::Stderr,
            out_tty,
            err_tty,
            width: size(terminal.map(|(w, _)| w), "COLUMNS", DEFAULT_WIDTH),
            err_width: size(err_columns, "COLUMNS", PIPE_WIDTH),
            height: size(terminal.map(|(_, h)| h), "LINES", DEFAULT_HEIGHT),
            env,
        }
    }

    /// Two buffers in place of stdout and stderr, with stdout a terminal of `width` columns
    /// when `tty`; the [`Captured`] reads what was written. The process's environment plays
    /// no part: a test's output does not depend on its runner's `NO_COLOR`.
    pub fn memory(tty: bool, width: u16) -> (Self, Captured) {
        let out = Arc::new(Mutex::new(Vec::new()));
        let err = Arc::new(Mutex::new(Vec::new()));
        let streams = Streams {
            out: Target::Buffer(Arc::clone(&out)),
            err: Target::Buffer(Arc::clone(&err)),
            out_tty: tty,
            err_tty: false,
            width: width.max(1),
            err_width: width.max(1),
            height: DEFAULT_HEIGHT,
            env: TerminalEnv::default(),
        };
        (streams, Captured { out, err })
    }

    /// These streams with stderr taken for a terminal or not: memory streams are not one by
    /// default, and tests of what a person sees on stderr (progress lines) make them one.
    pub fn with_stderr_terminal(mut self, tty: bool) -> Self {
        self.err_tty = tty;
        self
    }

    /// A writer to stdout (buffered: flush it when done).
    pub fn out(&self) -> Box<dyn Write> {
        self.out.writer()
    }

    /// A writer to stderr.
    pub fn err(&self) -> Box<dyn Write> {
        self.err.writer()
    }

    /// Writes one line to stderr (or several, each on its own), folded at spaces for
    /// stderr's terminal when it is one ([`Streams::folded_for_stderr`]); a stderr that is
    /// gone is no reason to stop the work.
    pub fn err_line(&self, line: &str) {
        let mut err = self.err();
        let _ = writeln!(err, "{}", self.folded_for_stderr(line));
        let _ = err.flush();
    }

    /// `text` folded at spaces for stderr's terminal, each of its lines on its own, never
    /// inside a word ([`super::fold`]): left to the terminal, a long line breaks wherever the
    /// column runs out. As it is when stderr is no terminal (a log keeps its lines whole).
    pub fn folded_for_stderr(&self, text: &str) -> String {
        if !self.err_tty {
            return text.to_string();
        }
        let columns = usize::from(self.err_width);
        text.split('\n')
            .map(|l| super::fold(l, columns))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Is stdout a terminal?
    pub fn out_is_terminal(&self) -> bool {
        self.out_tty
    }

    /// Is stderr a terminal (where progress bars may draw)?
    pub fn err_is_terminal(&self) -> bool {
        self.err_tty
    }

    /// The terminal's width in columns.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// The terminal's height in rows.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// May stdout be coloured, `--no-color` given or not?
    pub fn out_color(&self, no_color_flag: bool) -> bool {
        match self.env.color(no_color_flag) {
            ColorMode::Never => false,
            ColorMode::Always | ColorMode::Auto => self.out_tty,
        }
    }
}

/// What was written to the buffers of [`Streams::memory`].
#[derive(Clone)]
pub struct Captured {
    out: Arc<Mutex<Vec<u8>>>,
    err: Arc<Mutex<Vec<u8>>>,
}

impl Captured {
    /// Everything written to stdout so far.
    pub fn stdout(&self) -> String {
        read(&self.out)
    }

    /// Everything written to stderr so far.
    pub fn stderr(&self) -> String {
        read(&self.err)
    }
}

fn read(buf: &Mutex<Vec<u8>>) -> String {
    String::from_utf8_lossy(&buf.lock().unwrap_or_else(PoisonError::into_inner)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_streams_keep_stdout_and_stderr_apart() {
        let (streams, captured) = Streams::memory(true, 80);
        let mut out = streams.out();
        out.write_all(b"data\n").unwrap();
        out.flush().unwrap();
        streams.err_line("a note");
        assert_eq!(captured.stdout(), "data\n");
        assert_eq!(captured.stderr(), "a note\n");
        assert!(streams.out_is_terminal());
        assert_eq!(streams.width(), 80);
    }

    #[test]
    fn no_color_wins_over_a_forced_terminal() {
        let forced = TerminalEnv {
            forced_tty: true,
            no_color: false,
        };
        assert_eq!(forced.color(false), ColorMode::Always);
        assert_eq!(forced.color(true), ColorMode::Never);
        let no_color = TerminalEnv {
            no_color: true,
            ..forced
        };
        assert_eq!(no_color.color(false), ColorMode::Never);
        assert_eq!(TerminalEnv::default().color(false), ColorMode::Auto);
    }
}
