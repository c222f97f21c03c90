//! The real terminal's questions, asked through dialoguer on stderr: typed lines (Input) and
//! choices among many (MultiSelect, with [`super::picker`]'s look, and its find step,
//! FuzzySelect, with [`super::find`]'s); hidden answers ([`super::hidden`]) are asked the same
//! way, through [`Asking`].
//!
//! For a typed line or a choice, dialoguer reads each key in raw mode, so Ctrl-C is a key that
//! ends the question at once (the terminal library then raises SIGINT, which our handler only
//! counts). What it does not do, by its maintainers' choice, is show the cursor again when
//! Ctrl-C ends a question that hid it: [`Asking`] does, however the question ends, as other
//! tools built on it do. A stop signal that arrives while a question waits ends the wait too;
//! whatever was typed before or after any stop signal is never taken as an answer.
//!
//! Between two keys the terminal library puts the terminal back in line mode, where Ctrl-C is
//! a signal; one that arrives there (or before the first key is read) would leave the next
//! wait for a key blocked with the signal already handled. So while a question is asked, a
//! watcher ([`Waker`]) interrupts the asking thread's wait for as long as a stop signal is
//! pending, and the question ends. A question whose wait a signal alone cannot end (a hidden
//! answer's line-mode read) gives the watcher something to do first.

use std::fmt;
use std::io::ErrorKind;
use std::sync::mpsc;
use std::time::Duration;

use dialoguer::console::Term;
use dialoguer::theme::Theme;
use dialoguer::{Input, MultiSelect};

use super::find::{self, FindLook};
use super::picker::{self, PickerLook};
use crate::error::{Error, Result};
use crate::interrupt;

/// Prompts shown as they are given: the question's wording (`[y/N] `, `: `) is decided by
/// [`super::Prompter`], the same for the terminal and for a script.
pub(super) struct AsGiven;

impl Theme for AsGiven {
    fn format_input_prompt(
        &self,
        f: &mut dyn fmt::Write,
        prompt: &str,
        _default: Option<&str>,
    ) -> fmt::Result {
        write!(f, "{prompt}")
    }

    fn format_input_prompt_selection(
        &self,
        f: &mut dyn fmt::Write,
        prompt: &str,
        sel: &str,
    ) -> fmt::Result {
        write!(f, "{prompt}{sel}")
    }

    /// A hidden answer leaves its prompt as it was, with nothing after it.
    fn format_password_prompt_selection(
        &self,
        f: &mut dyn fmt::Write,
        prompt: &str,
    ) -> fmt::Result {
        write!(f, "{prompt}")
    }
}

/// One question being asked: notes the stop signals seen before it, ends its wait when one
/// comes, and puts the cursor back when it ends.
pub(super) struct Asking {
    /// Where the question is asked.
    pub(super) term: Term,
    before: interrupt::Seen,
    /// The watcher, until the wait is over.
    waker: Option<Waker>,
}

impl Asking {
    /// A question whose wait a signal ends.
    fn start() -> Asking {
        Asking::start_with(|| {})
    }

    /// A question whose wait a signal ends once `prepare` has run: the watcher runs it each
    /// time before it interrupts the wait, and drops it (and whatever it holds) when the wait
    /// is over.
    pub(super) fn start_with(prepare: impl FnMut() + Send + 'static) -> Asking {
        // A handler must be in place before the terminal library raises SIGINT on Ctrl-C,
        // or the signal would end the process with the terminal as the question left it.
        interrupt::watch();
        let before = interrupt::seen();
        Asking {
            term: Term::stderr(),
            before,
            waker: Some(Waker::start(before, prepare)),
        }
    }

    /// The question's answer, unless a stop signal came while it was asked or it was
    /// cancelled; says on the terminal that it was (`^C`).
    pub(super) fn settle<T>(mut self, answer: dialoguer::Result<T>) -> Result<T> {
        // The wait is over: nothing is interrupted any more, and what the watcher prepared
        // is undone before anything else is written.
        drop(self.waker.take());
        let stop = interrupt::error_since(self.before);
        let outcome = match (answer, stop) {
            (_, Some(Error::Terminated)) => Err(Error::Terminated),
            (_, Some(_)) => {
                let _ = self.term.write_str("^C");
                Err(Error::Interrupted)
            }
            (Ok(answer), None) => return Ok(answer),
            (Err(dialoguer::Error::IO(e)), None) => Err(match e.kind() {
                ErrorKind::Interrupted => Error::Interrupted,
                ErrorKind::UnexpectedEof => Error::usage("no answer: the input ended"),
                _ => Error::Io(format!("cannot ask at the terminal: {e}")),
            }),
        };
        let _ = self.term.write_line("");
        outcome
    }
}

impl Drop for Asking {
    fn drop(&mut self) {
        drop(self.waker.take());
        let _ = self.term.show_cursor();
    }
}

/// How often the watcher looks for a pending stop signal.
const WAKE_EVERY: Duration = Duration::from_millis(50);

/// While it lives, a thread that interrupts the asking thread's wait for a key (a signal
/// interrupts a wait that has begun; the terminal library takes that as Ctrl-C) for as long as
/// a stop signal has come since the question began.
struct Waker {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Waker {
    /// Starts watching; `prepare` runs before each interruption, on the watcher's thread, and
    /// is dropped there before [`Waker`]'s drop returns.
    fn start(before: interrupt::Seen, mut prepare: impl FnMut() + Send + 'static) -> Waker {
        let (stop, stopped) = mpsc::channel::<()>();
        let asking = wake::AskingThread::current();
        let thread = std::thread::spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(WAKE_EVERY) {
                if interrupt::error_since(before).is_some() {
                    prepare();
                    asking.wake();
                }
            }
        });
        Waker {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Waker {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Interrupting another thread's wait: a signal sent to that thread (Unix). Elsewhere the
/// terminal library reads keys without a line-mode window, and there is nothing to do.
mod wake {
    /// The thread asking a question.
    pub struct AskingThread(#[cfg(unix)] libc::pthread_t);

    // SAFETY: a pthread_t is an identifier; it is only passed to pthread_kill, while the
    // thread it names is alive (the watcher is joined before the question returns).
    unsafe impl Send for AskingThread {}

    impl AskingThread {
        pub fn current() -> AskingThread {
            // SAFETY: pthread_self has no preconditions.
            #[cfg(unix)]
            return AskingThread(unsafe { libc::pthread_self() });
            #[cfg(not(unix))]
            AskingThread()
        }

        pub fn wake(&self) {
            // SAFETY: the thread is alive (see above); SIGINT has a handler that only counts
            // (`interrupt::watch`), so the signal only interrupts the wait.
            #[cfg(unix)]
            unsafe {
                libc::pthread_kill(self.0, libc::SIGINT);
            }
        }
    }
}

/// Writes text to the person.
pub fn say(text: &str) -> Result<()> {
    Term::stderr()
        .write_str(text)
        .map_err(|e| Error::Io(format!("cannot write to the terminal: {e}")))
}

/// The terminal's width in columns.
pub fn width() -> usize {
    usize::from(Term::stderr().size().1)
}

/// Shows `prompt` and reads a typed line.
pub fn line(prompt: &str) -> Result<String> {
    let asking = Asking::start();
    let answer = Input::<String>::with_theme(&AsGiven)
        .with_prompt(prompt)
        .allow_empty(true)
        .interact_text_on(&asking.term);
    asking.settle(answer)
}

/// Lets the person choose among `items`, those at `chosen` already chosen; `None` when they
/// cancel with Esc or `q`. Says what was chosen when something was (an empty answer goes on
/// to the find step, and leaves nothing behind).
pub fn choose(prompt: &str, items: &[String], chosen: &[usize]) -> Result<Option<Vec<usize>>> {
    let asking = Asking::start();
    let (rows, cols) = asking.term.size();
    let width = usize::from(cols);
    let cut: Vec<String> = items
        .iter()
        .map(|i| picker::fit(i, width.saturating_sub(picker::MARKS)))
        .collect();
    let checked: Vec<bool> = (0..items.len()).map(|i| chosen.contains(&i)).collect();
    // The prompt, the rows and the status line fit in all rows but one.
    let per_page = usize::from(rows).saturating_sub(3).max(1);
    // dialoguer keeps two rows beside the items it pages (its own prompt and page line).
    let look = PickerLook::new(cut.clone(), per_page + 2, width, &checked);
    let answer = MultiSelect::with_theme(&look)
        .with_prompt(prompt)
        .items(&cut)
        .defaults(&checked)
        .max_length(per_page)
        .report(false)
        .interact_on_opt(&asking.term);
    let term = asking.term.clone();
    let answer = asking.settle(answer)?;
    if let Some(picked) = answer.as_ref().filter(|p| !p.is_empty()) {
        let mut report = String::new();
        let shown: Vec<&str> = picked
            .iter()
            .filter_map(|i| cut.get(*i))
            .map(String::as_str)
            .collect();
        let _ = look.format_multi_select_prompt_selection(&mut report, prompt, &shown);
        let _ = term.write_line(&report);
    }
    Ok(answer)
}

/// The picker's find step: lets the person find one of `items` by typing part of it (rows are
/// filtered as they type, best match first); `None` when they go back with Esc.
pub fn find(prompt: &str, items: &[String]) -> Result<Option<usize>> {
    let asking = Asking::start();
    let (rows, cols) = asking.term.size();
    let width = usize::from(cols);
    let look = FindLook::new(width);
    // The prompt line and the rows fit in all rows but one.
    let answer = dialoguer::FuzzySelect::with_theme(&look)
        .with_prompt(prompt)
        .items(find::rows(items, width))
        .default(0)
        .highlight_matches(false)
        .report(false)
        .max_length(usize::from(rows).saturating_sub(2).max(1))
        .interact_on_opt(&asking.term);
    asking.settle(answer)
}
