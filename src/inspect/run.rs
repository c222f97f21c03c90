//! The inspector's event loop: takes the terminal (and always gives it back), polls the agent,
//! reads keys, and carries out what the model asks (replay, copy, save, clear).

use std::future::Future;
use std::io::{BufWriter, IsTerminal, Write};
use std::pin::Pin;
use std::time::Duration;

use crossterm::event::{Event, EventStream, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::{cursor, execute, terminal};
use futures_util::StreamExt;
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use tokio::time::Instant;

use super::model::{handle, Action, Agent, KeyPress, ShownSource, State};
use super::screen::Screen;
use super::trace_aside::TraceAside;
use crate::agent;
use crate::capture::curl;
use crate::capture::filter::Query;
use crate::capture::follow::{self, Fetched, Follower};
use crate::capture::message::encode_base64;
use crate::capture::replay::edit::{chosen_editor, edit_to_send};
use crate::capture::replay::resign::resign;
use crate::capture::replay::send;
use crate::capture::replay::send::upstream_for;
use crate::capture::Exchange;
use crate::error::{Error, Result};
use crate::history::recorder::Recorder;
use crate::history::store::StoredSelection;
use crate::history::Store;

/// How often the inspector asks the history for what was kept since (`--history`).
const HISTORY_EVERY: Duration = Duration::from_millis(500);
use crate::http::Http;
use crate::output::Printer;
use crate::signature::Secrets;

/// Room for a whole frame of a large terminal, written at once.
pub const FRAME_BYTES: usize = 1 << 18;

/// The terminal the inspector draws on.
pub type Screenful = Terminal<CrosstermBackend<BufWriter<std::io::Stdout>>>;

/// How often an agent that does not answer is tried again.
const RETRY: Duration = Duration::from_secs(1);

/// Where the inspector's captures come from, besides the agent's.
pub enum CaptureSource {
    /// The agent's alone.
    Agent,
    /// The agent's, each one also kept in the history (`--record`).
    Recording(Box<Recorder>),
    /// The history's (`--history`), of one source when given: the newest read at the start,
    /// then what any recorder keeps while it runs; the agent not polled.
    History(Store, Option<String>),
}

/// What the command that starts the inspector gives it: the agent, the settings it reads,
/// and how it prints and sends.
pub struct Launch<'a> {
    /// The agent's client.
    pub client: agent::AgentClient,
    /// The agent's URL, for the title.
    pub agent_url: String,
    /// The webhook secrets, for the signature marks and for signing an edited request again.
    pub secrets: Secrets,
    /// The printer (its colour; stderr before and after the screen).
    pub printer: &'a Printer,
    /// `--verbose`: the trace goes to a file while the screen is taken.
    pub verbose: bool,
    /// A client for sending an edited request to the upstream of its tunnel.
    pub upstream: &'a dyn Fn(&url::Url) -> Result<Http>,
}

/// Runs the inspector until the user quits. `filter` is the `/` bar's first text; `budget`
/// the bytes of captures kept at most.
pub async fn run(
    ctx: Launch<'_>,
    filter: Option<&str>,
    budget: u64,
    kept: CaptureSource,
) -> Result<()> {
    crate::heap::hold_mmap_threshold();
    let filter = filter.unwrap_or("");
    Query::parse(filter).map_err(|e| Error::usage(format!("--filter: {e}")))?;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(Error::usage(
            "local inspect needs a terminal; in a script or a pipe, follow captures with \
             `tunnelctl local requests tail` (or list them with `local requests list`)",
        ));
    }
    let client = &ctx.client;
    let mut state = State::with_budget(&ctx.agent_url, budget);
    state.secrets = ctx.secrets.clone();
    state.set_filter(filter);
    let mut history = None;
    let mut recorder = match kept {
        CaptureSource::Agent => None,
        CaptureSource::Recording(r) => {
            state.source = ShownSource::Recording;
            Some(*r)
        }
        CaptureSource::History(mut store, source) => {
            let after = store.last_row().await?;
            let read = from_history(&mut store, source.clone(), budget).await?;
            state.left_out = store.count().await?.saturating_sub(read.len() as u64);
            state.merge(read);
            // The agent is not asked (the title says whose captures these are); what
            // recorders keep meanwhile comes in from the history.
            state.source = ShownSource::History;
            state.url = format!("history {}", store.shown());
            state.agent = Agent::Up;
            state.paused = true;
            history = Some(Following {
                store,
                source,
                after,
            });
            None
        }
    };
    // A stop signal ends it as `q` does (the terminal given back, what was recorded said),
    // with its exit code.
    let _graceful = crate::interrupt::graceful_saying("");
    let mut screen = Screen::new(ctx.printer.color);
    let trace = match ctx.verbose {
        true => Some(TraceAside::start(ctx.printer, "the inspector")?),
        false => None,
    };
    let guard = TerminalGuard::enter()?;
    // A frame goes out in one write (stdout alone would flush it in pieces of a kilobyte,
    // and a terminal could show half a frame).
    let backend = CrosstermBackend::new(BufWriter::with_capacity(FRAME_BYTES, std::io::stdout()));
    let mut term = Terminal::new(backend).map_err(io_error)?;
    let result = event_loop(
        &ctx,
        client,
        recorder.as_mut(),
        history.as_mut(),
        &mut term,
        &mut screen,
        &mut state,
    )
    .await;
    drop(term);
    drop(guard);
    if let Some(trace) = trace {
        trace.end(ctx.printer);
    }
    if let Some(r) = recorder.as_mut() {
        ctx.printer.note(&r.summary().await?.1);
    }
    result
}

/// The history the inspector follows (`--history`): its store, the source shown, and where
/// what comes next starts.
struct Following {
    store: Store,
    source: Option<String>,
    after: i64,
}

impl Following {
    /// Takes in what was kept since the last look.
    async fn look(&mut self, state: &mut State) {
        match self
            .store
            .kept_after(self.after, self.source.as_deref())
            .await
        {
            Ok(rows) => {
                let mut new = Vec::new();
                for kept in rows {
                    self.after = self.after.max(kept.row);
                    new.extend(Exchange::from_json(&kept.json));
                }
                // Newest first, as the agent lists them.
                new.reverse();
                state.merge(new);
            }
            Err(e) => {
                state.message = Some(format!(
                    "Could not read the history: {}",
                    first_line(&e.to_string())
                ))
            }
        }
    }
}

type Poll<'a> = Pin<Box<dyn Future<Output = Fetched> + 'a>>;

/// The newest kept captures (of `source`, when given), as many as `budget` bytes hold,
/// newest first.
async fn from_history(
    store: &mut Store,
    source: Option<String>,
    budget: u64,
) -> Result<Vec<Exchange>> {
    let mut all = Vec::new();
    let mut bytes = 0u64;
    let selection = StoredSelection {
        source,
        ..StoredSelection::default()
    };
    store
        .each(&selection, |json, _| {
            bytes += json.len() as u64;
            if let Some(e) = Exchange::from_json(json) {
                all.push(e);
            }
            Ok(bytes < budget && all.len() < super::kept::MAX_KEPT)
        })
        .await?;
    Ok(all)
}

async fn event_loop(
    ctx: &Launch<'_>,
    client: &agent::AgentClient,
    mut recorder: Option<&mut Recorder>,
    mut history: Option<&mut Following>,
    term: &mut Screenful,
    screen: &mut Screen,
    state: &mut State,
) -> Result<()> {
    let mut events = EventStream::new();
    let mut follower = Follower::new(None);
    let mut poll: Option<Poll<'_>> = None;
    let mut next_poll = Instant::now();
    let mut next_look = Instant::now() + HISTORY_EVERY;
    let mut editing: Option<String> = None;
    loop {
        if let Some(id) = editing.take() {
            // The editor reads the keys while it runs: the key reader stops first, and a new
            // one starts when the screen is taken back.
            drop(events);
            state.message = Some(edit_and_send(ctx, client, term, state, &id).await);
            events = EventStream::new();
        }
        term.draw(|f| screen.draw(f, state)).map_err(io_error)?;
        if crate::interrupt::requested() {
            // Exit 143 (or 130), as a stop signal ends any command.
            return Err(crate::interrupt::stop_error());
        }
        if poll.is_none() && !state.paused && Instant::now() >= next_poll {
            let plan = follower.plan(window_bound(state));
            let keep_json = recorder.is_some();
            poll = Some(Box::pin(plan.fetch(client, keep_json)));
        }
        if let Some(h) = history
            .as_deref_mut()
            .filter(|_| Instant::now() >= next_look)
        {
            h.look(state).await;
            next_look = Instant::now() + HISTORY_EVERY;
            continue;
        }
        let waiting = poll.is_none() && !state.paused;
        let looking = history.is_some();
        tokio::select! {
            ev = events.next() => match ev {
                Some(Ok(Event::Key(k))) => {
                    let Some(key) = key_of(k) else { continue };
                    let action = handle(state, key);
                    match action {
                        Action::Quit => return Ok(()),
                        // The terminal is given back and what was recorded said, as on `q`.
                        Action::Interrupted => return Err(Error::Interrupted),
                        Action::Edit(id) => editing = Some(id),
                        other => act(ctx, client, term, state, &mut follower, other).await,
                    }
                }
                Some(Ok(_)) => {} // a resize: drawn again at the top of the loop
                Some(Err(e)) => return Err(io_error(e)),
                None => return Ok(()),
            },
            answer = async {
                match poll.as_mut() {
                    Some(p) => p.await,
                    None => std::future::pending().await,
                }
            }, if poll.is_some() => {
                poll = None;
                next_poll = Instant::now() + took(state, &mut follower, recorder.as_deref_mut(), answer).await;
            }
            _ = tokio::time::sleep_until(next_poll), if waiting => {}
            _ = tokio::time::sleep_until(next_look), if looking => {}
            // A stop signal ends it now, whatever the agent does (a poll it never answers
            // would hold the loop until the poll's timeout): the top of the loop returns.
            () = crate::interrupt::stop_requested() => {}
        }
    }
}

/// The most captures worth asking for at once: what the memory budget can keep, at the size
/// the kept ones have on average (the inspector's own bound on the follower's window).
fn window_bound(s: &State) -> usize {
    let kept = s.kept();
    if kept.is_empty() {
        return follow::MIN_WINDOW;
    }
    let average = (kept.bytes() / kept.len()).max(1);
    (kept.budget() / ANSWER_SHARE / average).clamp(1, super::kept::MAX_KEPT)
}

/// One answer asks for no more captures than an eighth of the memory budget holds, at the
/// size of those kept so far: the answer is held beside what is kept, and a window of the
/// follower's usual size (50) of 1 MB captures would double the inspector's memory (bench
/// S10).
const ANSWER_SHARE: usize = 8;

/// Takes in a poll's answer (kept in the history on the way with `--record`); returns how
/// long to wait before the next one.
async fn took(
    state: &mut State,
    follower: &mut Follower,
    recorder: Option<&mut Recorder>,
    answer: Fetched,
) -> Duration {
    let whole = answer.asked_everything();
    match follower.took(answer, window_bound(state)) {
        Ok(polled) => {
            if state.agent != Agent::Up && !whole {
                // Back after a gap: look at everything again.
                follower.start_over();
            }
            state.agent = Agent::Up;
            if let Some(r) = recorder {
                let kept = match r.keep(&polled.newest).await {
                    Ok(_) => r.keep(&polled.answered_later).await,
                    Err(e) => Err(e),
                };
                if let Err(e) = kept {
                    state.message = Some(format!(
                        "Not kept in the history: {}",
                        first_line(&e.to_string())
                    ));
                }
            }
            // Only those still kept here: one dropped for the budget is not brought back.
            let answered: Vec<Exchange> = polled
                .answered_later
                .into_iter()
                .filter(|e| state.kept().seq_of(&e.id).is_some())
                .map(Exchange::without_json)
                .collect();
            if !state.paused {
                state.merge(
                    polled
                        .newest
                        .into_iter()
                        .map(Exchange::without_json)
                        .collect(),
                );
                state.merge(answered);
            }
            follow::EVERY
        }
        Err(e) => {
            let why = first_line(&e.to_string());
            state.agent = match state.agent {
                Agent::Waiting(_) => Agent::Waiting(Some(why)),
                _ => Agent::Gone(why),
            };
            RETRY
        }
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

/// Carries out what a key asked for; how it went is told on the bottom line.
async fn act(
    ctx: &Launch<'_>,
    client: &agent::AgentClient,
    term: &mut Screenful,
    state: &mut State,
    follower: &mut Follower,
    action: Action,
) {
    let said = match action {
        Action::None | Action::Quit | Action::Interrupted | Action::Edit(_) => return,
        Action::Replay(id) if state.source == ShownSource::History => {
            let Some(kept) = state.get(&id).cloned() else {
                return;
            };
            match send_again(ctx, client, &kept, None).await {
                Ok(said) => format!("Replayed the kept {id}: {said}"),
                Err(e) => format!("Replay failed: {}", first_line(&e.to_string())),
            }
        }
        Action::Replay(id) => match client.replay(&id, None).await {
            Ok(()) => format!("Replayed {id}: its new capture (↻) comes in at the top."),
            Err(e) => format!("Replay failed: {}", first_line(&e.to_string())),
        },
        Action::Clear => match client.clear().await {
            Ok(()) => {
                state.clear();
                follower.start_over();
                "Deleted every captured request.".into()
            }
            Err(e) => format!("Nothing deleted: {}", first_line(&e.to_string())),
        },
        Action::Copy(id) => match state.get(&id).map(curl::command) {
            None => return,
            Some(Err(e)) => format!("No curl command: {}", first_line(&e.to_string())),
            Some(Ok(cmd)) if osc52_clipboard() => match copy_osc52(term, &cmd) {
                Ok(()) => "Copied the curl command to the clipboard.".into(),
                Err(e) => format!("Could not copy: {e}"),
            },
            Some(Ok(cmd)) => match write_new(&id, "curl.sh", (cmd + "\n").as_bytes()) {
                Ok(path) => format!("Curl command written to {path} (no clipboard here)."),
                Err(e) => format!("Could not write the curl command: {e}"),
            },
        },
        Action::Save(id) => match state.get(&id) {
            None => return,
            Some(e) => match write_new(&id, "http", e.request_bytes()) {
                Ok(path) => format!("Saved the request to {path}"),
                Err(e) => format!("Could not save the request: {e}"),
            },
        },
    };
    state.message = Some(said);
}

/// `e`: the selected request opened in the user's editor (`$VISUAL`, `$EDITOR`, else `vi`),
/// the screen given back to the terminal meanwhile, then what was saved sent to the upstream
/// of the tunnel it was captured on, as `local requests replay ID --edit` does. How it went is
/// the bottom line's message.
async fn edit_and_send(
    ctx: &Launch<'_>,
    client: &agent::AgentClient,
    term: &mut Screenful,
    state: &State,
    id: &str,
) -> String {
    let captured = match state.source {
        // The history's capture: the agent may no longer hold it.
        ShownSource::History => state
            .get(id)
            .cloned()
            .ok_or_else(|| Error::usage("no such capture")),
        _ => client.request(id).await.and_then(Exchange::from_agent),
    };
    let captured = match captured {
        Ok(c) => c,
        Err(e) => return format!("Not sent: {}", first_line(&e.to_string())),
    };
    let editor = chosen_editor().unwrap_or_else(|| "vi".to_string());
    restore();
    let sent = send_again(ctx, client, &captured, Some(&editor)).await;
    // A full redraw on the screen taken back (`Terminal::clear` would ask the terminal where
    // its cursor is; a resize to the same size clears without asking).
    let back = take_screen().and_then(|()| {
        let size = term.size().map_err(io_error)?;
        term.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))
            .map_err(io_error)
    });
    if let Err(e) = back {
        return format!("The screen could not be taken back: {e}");
    }
    match sent {
        Ok(said) => format!("Sent the edited request {said}"),
        Err(e) => format!("Not sent: {}", first_line(&e.to_string())),
    }
}

/// Sends `captured`'s request to the upstream of the tunnel it was captured on, by tunnelctl
/// itself (as `local requests replay` does with a kept capture, or `--edit`): first through
/// `editor` when given (the screen is the editor's meanwhile), signed again when a secret is set for its provider. Says where it went and what
/// came back.
async fn send_again(
    ctx: &Launch<'_>,
    client: &agent::AgentClient,
    captured: &Exchange,
    editor: Option<&str>,
) -> Result<String> {
    let mut msg = captured.request_to_send()?;
    let upstream = upstream_for(client, captured, None).await?;
    if let Some(editor) = editor {
        msg = edit_to_send(editor, &msg)?;
    }
    // Signed again, as `replay` does, so the handler's verification accepts it.
    let done = resign(&mut msg, &ctx.secrets, crate::capture::signed::now(), None)?;
    let unsigned_note = done
        .warning()
        .map(|w| format!(" ({})", w.trim_start_matches("warning: ")))
        .unwrap_or_default();
    let http = (ctx.upstream)(&upstream)?;
    let sent = send(&http, &msg, &upstream).await?;
    Ok(format!(
        "to {}: {} in {} ms{unsigned_note}",
        crate::escape::escape(sent.url.as_str()),
        sent.answer.status,
        sent.took().as_millis()
    ))
}

/// Does this terminal take OSC 52 (set the clipboard) from programs? Known to by default:
/// kitty, WezTerm, Alacritty, foot, Ghostty, iTerm2 (when allowed), Windows Terminal. Others
/// (xterm, GNOME's, tmux by default) ignore it, so a file is written instead.
fn osc52_clipboard() -> bool {
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    if std::env::var_os("TMUX").is_some() || var("TERM").starts_with("screen") {
        return false;
    }
    let term = var("TERM");
    let program = var("TERM_PROGRAM");
    ["kitty", "alacritty", "foot", "wezterm", "ghostty"]
        .iter()
        .any(|t| term.contains(t))
        || ["WezTerm", "iTerm.app", "ghostty"].contains(&program.as_str())
        || std::env::var_os("WT_SESSION").is_some()
}

fn copy_osc52(term: &mut Screenful, text: &str) -> std::io::Result<()> {
    let b64 = encode_base64(text.as_bytes());
    let out = term.backend_mut();
    write!(out, "\x1b]52;c;{b64}\x07")?;
    out.flush()
}

/// Writes a new file `ID.EXT` in the current folder (`ID-2.EXT`… when taken; never over an
/// existing file), whole and readable by the user alone: a captured request may carry tokens.
/// Returns its name.
fn write_new(id: &str, ext: &str, bytes: &[u8]) -> std::io::Result<String> {
    let stem: String = id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .take(64)
        .collect();
    let stem = if stem.is_empty() {
        "capture".into()
    } else {
        stem
    };
    let path = crate::files::write_private_new(std::path::Path::new("."), &stem, ext, bytes)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    Ok(format!("./{}", name.unwrap_or(stem)))
}

/// The model's name for a key press; `None` for keys it has no use for (and releases).
pub fn key_of(k: KeyEvent) -> Option<KeyPress> {
    if k.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    Some(match k.code {
        KeyCode::Char('c') if ctrl => KeyPress::CtrlC,
        KeyCode::Char('u') if ctrl => KeyPress::CtrlU,
        KeyCode::Char(_) if ctrl => return None,
        KeyCode::Char(c) => KeyPress::Char(c),
        KeyCode::Up => KeyPress::Up,
        KeyCode::Down => KeyPress::Down,
        KeyCode::PageUp => KeyPress::PageUp,
        KeyCode::PageDown => KeyPress::PageDown,
        KeyCode::Home => KeyPress::Home,
        KeyCode::End => KeyPress::End,
        KeyCode::Enter => KeyPress::Enter,
        KeyCode::Tab => KeyPress::Tab,
        KeyCode::BackTab => KeyPress::BackTab,
        KeyCode::Esc => KeyPress::Esc,
        KeyCode::Backspace => KeyPress::Backspace,
        _ => return None,
    })
}

pub fn io_error(e: std::io::Error) -> Error {
    Error::Io(format!("the terminal: {e}"))
}

/// Holds the terminal in raw mode on the alternate screen; gives it back when dropped, which
/// also happens when the command is ended by SIGTERM or Ctrl-C (the future holding it is
/// dropped) and, through the panic hook, on a panic.
pub struct TerminalGuard(());

impl TerminalGuard {
    /// Takes the terminal (raw mode, the alternate screen, no cursor) until dropped.
    pub fn enter() -> Result<TerminalGuard> {
        let previous = std::panic::take_hook();
        // The release build aborts on panic; the hook still runs first, so the terminal is
        // given back before the usual message is printed.
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        let guard = TerminalGuard(());
        take_screen()?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
        // Back to the default hook (the program sets no other); a panicking thread may not
        // change hooks, and ours restoring twice does no harm.
        if !std::thread::panicking() {
            let _ = std::panic::take_hook();
        }
    }
}

/// Takes the terminal: raw mode, the alternate screen, no cursor.
fn take_screen() -> Result<()> {
    terminal::enable_raw_mode().map_err(io_error)?;
    execute!(
        std::io::stdout(),
        terminal::EnterAlternateScreen,
        cursor::Hide
    )
    .map_err(io_error)
}

/// Gives the terminal back: cooked mode, the main screen, the cursor.
fn restore() {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(
        std::io::stdout(),
        terminal::LeaveAlternateScreen,
        cursor::Show
    );
}
