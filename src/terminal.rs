//! The real terminal: entering and leaving the modes quire uses, the input stream (keys plus
//! signals), and the host effects (OSC 52 clipboard, browser, Ctrl-Z).

use std::io::{self, Write};
use std::process::{Command, Stdio};

use base64::Engine;
use futures::{Stream, StreamExt};
use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableFocusChange, EnableBracketedPaste, EnableFocusChange, EventStream,
};
use ratatui::crossterm::style::{Attribute, SetAttribute};
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker, ready};
use tokio::signal::unix::{SignalKind, signal};

use tokio::sync::mpsc;

use crate::editor_process::{self, EditFile};
use crate::notification::NotifyStyle;
use crate::runtime::{Host, InputEvent};

/// Whether `enter` asks the terminal for mouse events (on unless `--no-mouse` or
/// `mouse = false`). Kept here because `restore` runs from places that know no settings: the
/// panic hook, Ctrl-Z and `$EDITOR`.
static MOUSE: AtomicBool = AtomicBool::new(false);

/// Clicks and the wheel (1000) in SGR encoding (1006), which has no limit on the column. Not
/// crossterm's `EnableMouseCapture`: that also asks for every pointer move (1003), which would
/// wake quire for nothing each time the mouse crosses the window.
pub const MOUSE_ON: &str = "\x1b[?1000h\x1b[?1006h";
pub const MOUSE_OFF: &str = "\x1b[?1006l\x1b[?1000l";

/// Turns mouse reporting on or off for the next `enter` (and off again in `restore`).
pub fn use_mouse(on: bool) {
    MOUSE.store(on, Ordering::SeqCst);
}

/// Set by `enter` and cleared by `restore`: whether quire holds the terminal (raw mode, the
/// alternate screen). `restore` does nothing otherwise, so a subcommand whose stdout is a pipe
/// (`quire api … | jq`) never gets escape sequences written into it, even from the panic hook.
static TAKEN: AtomicBool = AtomicBool::new(false);

/// Raw mode, the alternate screen, bracketed paste, focus reports and the mouse (when wanted) — everything
/// `restore` turns off again. On failure whatever was turned on is turned off again.
pub fn enter() -> io::Result<()> {
    // Set first: a failure half-way leaves something on that `restore` must turn off.
    TAKEN.store(true, Ordering::SeqCst);
    let entered = enable_raw_mode().and_then(|()| {
        execute!(
            io::stdout(),
            EnterAlternateScreen,
            EnableBracketedPaste,
            // Focus reports (`ESC [ I` / `ESC [ O`): watching slows down while quire's window
            // is not the one looked at. Terminals that do not know the mode ignore it.
            EnableFocusChange,
            cursor::Hide
        )?;
        if MOUSE.load(Ordering::SeqCst) {
            let mut stdout = io::stdout();
            stdout.write_all(MOUSE_ON.as_bytes())?;
            stdout.flush()?;
        }
        Ok(())
    });
    if entered.is_err() {
        restore();
    }
    entered
}

/// Set while `$EDITOR` owns the terminal: the terminal's events are not read (a read under way
/// is cut short by dropping the reader), so no key typed into the editor reaches quire.
static INPUT_PAUSED: AtomicBool = AtomicBool::new(false);

/// Set by SIGHUP: the terminal is gone. Read where the async loop cannot answer, such as while
/// `$EDITOR` runs.
static HUNG_UP: std::sync::LazyLock<Arc<AtomicBool>> =
    std::sync::LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// The last signal among HUP, TERM, INT and QUIT that quire received (0 for none): it ends the
/// editor quire waits on, and quire's exit status says it (128 + its number), as a shell expects.
static SIGNALLED: std::sync::LazyLock<Arc<AtomicUsize>> =
    std::sync::LazyLock::new(|| Arc::new(AtomicUsize::new(0)));

/// The signal that told quire to end, if one did.
pub fn terminating_signal() -> Option<i32> {
    match SIGNALLED.load(Ordering::SeqCst) {
        0 => None,
        signal => i32::try_from(signal).ok(),
    }
}

/// Records HUP, TERM, INT and QUIT where code blocked outside the async loop can see them.
fn record_terminating_signals() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    // Registered beside tokio's handlers (both go through signal-hook-registry).
    signal_hook::flag::register(SIGHUP, HUNG_UP.clone())?;
    for signal in [SIGHUP, SIGTERM, SIGINT, SIGQUIT] {
        signal_hook::flag::register_usize(signal, SIGNALLED.clone(), signal as usize)?;
    }
    Ok(())
}

fn pause_input(paused: bool) {
    INPUT_PAUSED.store(paused, Ordering::SeqCst);
    let mut events = terminal_events();
    if paused {
        if !events.reading {
            // Nothing reads the terminal until the loop polls again, which it does not while
            // paused. Dropping the reader now would leave its wake-up pending, and the poll
            // it cuts short would be the new reader's first: a key arriving with it is lost.
            return;
        }
        // Dropping the reader stops its thread reading the terminal.
        events.reader = None;
        events.reading = false;
        drop(events);
        // Give the reader a moment to let go of the terminal before the editor starts.
        std::thread::sleep(std::time::Duration::from_millis(50));
    } else {
        if !events.ended && events.reader.is_none() {
            events.reader = Some(EventStream::new());
        }
        if let Some(waker) = events.waker.take() {
            waker.wake();
        }
    }
}

/// True when `error` means the terminal is gone: a hangup came, or the device answers as a
/// closed one (EIO, ENXIO).
pub fn is_gone(error: &io::Error) -> bool {
    HUNG_UP.load(Ordering::SeqCst)
        || matches!(error.raw_os_error(), Some(libc::EIO | libc::ENXIO))
        // The loop carries backend errors as text, which keeps the OS code only in words.
        || error.to_string().contains("(os error 5)")
}

/// DECSTBM without parameters: the scroll region is the whole screen again.
const RESET_SCROLL_REGION: &[u8] = b"\x1b[r";

/// Undoes `enter`, when quire holds the terminal (see [`TAKEN`]). Safe to call more than once
/// and from a panic hook: errors are ignored because there is nothing better to do with them
/// at that point.
pub fn restore() {
    if !TAKEN.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = disable_raw_mode();
    if MOUSE.load(Ordering::SeqCst) {
        let _ = io::stdout().write_all(MOUSE_OFF.as_bytes());
    }
    // quire leaves its scroll region set between frames (src/output): the shell, the editor
    // or whoever gets the terminal next gets the whole screen back.
    let _ = io::stdout().write_all(RESET_SCROLL_REGION);
    // Frames end with whatever colours their last cell had (resetting after every frame would
    // cost bytes on each key): the shell gets default ones back here.
    let _ = execute!(
        io::stdout(),
        SetAttribute(Attribute::Reset),
        DisableBracketedPaste,
        DisableFocusChange,
        LeaveAlternateScreen,
        cursor::Show
    );
}

/// Key presses and the signals that mean "stop now", as one stream. Reading input failing or
/// ending (the terminal went away) also ends it.
///
/// The loop polls the terminal's event reader itself: a key then crosses one thread
/// (crossterm's reader wakes the loop) rather than two (a forwarding task woken first, which
/// then wakes the loop), a saving on every key.
pub fn input_stream() -> io::Result<impl Stream<Item = InputEvent> + Unpin> {
    let (sender, signals) = mpsc::unbounded_channel();
    let mut hangup = signal(SignalKind::hangup())?;
    record_terminating_signals()?;
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    // `kill -QUIT` would otherwise end quire with the terminal still raw and in the alternate
    // screen: it ends quire the way TERM does, with the terminal restored.
    let mut quit = signal(SignalKind::quit())?;
    tokio::spawn(async move {
        let event = tokio::select! {
            _ = hangup.recv() => InputEvent::Hangup,
            _ = terminate.recv() => InputEvent::Terminate,
            _ = interrupt.recv() => InputEvent::Terminate,
            _ = quit.recv() => InputEvent::Terminate,
        };
        let _ = sender.send(event);
    });
    *terminal_events() = TerminalEvents {
        reader: Some(EventStream::new()),
        reading: false,
        ended: false,
        waker: None,
    };
    Ok(Input { signals })
}

/// The terminal's event reader, where pausing input (from the loop's thread, while it does
/// not poll) can drop it at once.
struct TerminalEvents {
    /// None once reading failed or ended, and while input is paused with a read cut short.
    reader: Option<EventStream>,
    /// The reader's thread waits on the terminal: the loop's last poll found nothing.
    reading: bool,
    /// Reading failed or ended: no reader is started again.
    ended: bool,
    /// The loop's, to wake it when input resumes.
    waker: Option<Waker>,
}

static TERMINAL_EVENTS: Mutex<TerminalEvents> = Mutex::new(TerminalEvents {
    reader: None,
    reading: false,
    ended: false,
    waker: None,
});

fn terminal_events() -> MutexGuard<'static, TerminalEvents> {
    TERMINAL_EVENTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What [`input_stream`] returns: the signals' one event, then the terminal's events.
struct Input {
    signals: mpsc::UnboundedReceiver<InputEvent>,
}

impl Stream for Input {
    type Item = InputEvent;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<InputEvent>> {
        // A closed signal channel (its task ended with the runtime) leaves the terminal's events.
        if let Poll::Ready(Some(signal)) = self.signals.poll_recv(cx) {
            return Poll::Ready(Some(signal));
        }
        let mut events = terminal_events();
        events.waker = Some(cx.waker().clone());
        if INPUT_PAUSED.load(Ordering::SeqCst) {
            return Poll::Pending;
        }
        let Some(reader) = events.reader.as_mut() else {
            return Poll::Pending;
        };
        let polled = reader.poll_next_unpin(cx);
        events.reading = polled.is_pending();
        let event = match ready!(polled) {
            Some(Ok(event)) => return Poll::Ready(Some(InputEvent::Terminal(event))),
            Some(Err(error)) => InputEvent::Failed(error.to_string()),
            None => InputEvent::Failed("input closed".to_string()),
        };
        // Nothing more comes from a reader that failed or ended; signals still do.
        events.reader = None;
        events.ended = true;
        Poll::Ready(Some(event))
    }
}

/// The escape sequence that asks the terminal to put `text` on the clipboard. It travels with
/// the output, so it works over SSH and inside tmux (with `set-clipboard on`).
pub fn osc52(text: &str) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    format!("\u{1b}]52;c;{encoded}\u{7}")
}

#[derive(Debug, Default)]
pub struct RealHost {
    /// quire's private folder for the files `$EDITOR` edits; None (no data directory) refuses
    /// the editor rather than put unpublished words in a shared folder.
    editing: Option<std::path::PathBuf>,
    /// How a ping reaches the user.
    notify: NotifyStyle,
    /// Inside tmux, whose envelope a notification needs to reach the outer terminal.
    in_tmux: bool,
}

impl RealHost {
    pub fn new(editing: Option<std::path::PathBuf>, notify: NotifyStyle) -> RealHost {
        RealHost {
            editing,
            notify,
            in_tmux: std::env::var_os("TMUX").is_some_and(|value| !value.is_empty()),
        }
    }
}

impl Host for RealHost {
    fn copy_to_clipboard(&mut self, text: &str) -> io::Result<()> {
        let mut stdout = io::stdout();
        stdout.write_all(osc52(text).as_bytes())?;
        stdout.flush()
    }

    fn notify(&mut self, title: &str, body: &str) -> io::Result<()> {
        let Some(sequence) = self.notify.sequence(title, body, self.in_tmux) else {
            return Ok(());
        };
        let mut stdout = io::stdout();
        stdout.write_all(sequence.as_bytes())?;
        stdout.flush()
    }

    fn open_in_browser(&mut self, url: &str) -> io::Result<()> {
        // Only web addresses: a server must not be able to make us open a local file or an
        // arbitrary scheme handler.
        let parsed = url::Url::parse(url).map_err(|e| io::Error::other(e.to_string()))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(io::Error::other(format!(
                "not a web address: {}",
                parsed.scheme()
            )));
        }
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else {
            // Over SSH there is no display: xdg-open would fall back to a text browser that
            // fights quire for the terminal, or fail silently.
            if std::env::var_os("DISPLAY").is_none()
                && std::env::var_os("WAYLAND_DISPLAY").is_none()
            {
                return Err(io::Error::other("no graphical display here"));
            }
            "xdg-open"
        };
        let child = Command::new(opener)
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| io::Error::other(format!("cannot run {opener}: {error}")))?;
        wait_for_opener(child, opener)
    }

    fn edit_text(
        &mut self,
        text: &str,
        draft: Option<&std::path::Path>,
        keep: &mut dyn FnMut(&str),
    ) -> io::Result<String> {
        let Some(folder) = &self.editing else {
            return Err(io::Error::other("no private folder for the editor's file"));
        };
        let editor = std::env::var("VISUAL")
            .or_else(|_| std::env::var("EDITOR"))
            .unwrap_or_else(|_| "vi".to_string());
        let file = EditFile::create(folder, text, draft)?;
        pause_input(true);
        restore();
        let end = editor_process::run(&editor, file.path(), &|| terminating_signal().is_some());
        // The text is kept however the editor ended (a plugin error after `:wq` must not throw
        // it away; an editor ended by a signal to quire leaves what it saved), and saved before
        // the terminal is touched: taking it back fails when the terminal went away while the
        // editor ran. The file goes only after that.
        let edited = file.read();
        if let Ok(text) = &edited {
            keep(text);
        }
        drop(file);
        if let Err(error) = enter() {
            // The terminal went away while the editor ran: the input reader, started again
            // below, reports it and quire ends; the text is already safe.
            tracing::warn!(%error, "taking the terminal back after $EDITOR failed");
        }
        pause_input(false);
        match (edited, end) {
            (Ok(text), _) => Ok(text),
            (Err(error), Ok(_)) => Err(error),
            (Err(_), Err(error)) => Err(error),
        }
    }

    fn suspend(&mut self) -> io::Result<()> {
        restore();
        // Stop like any job on Ctrl-Z; `fg` sends SIGCONT and we carry on from here.
        signal_hook::low_level::raise(signal_hook::consts::SIGTSTP)?;
        enter()
    }
}

/// Openers hand the address to a browser and exit at once; one that fails says so quickly.
/// One still running after a moment is taken as success (it may be the browser itself).
fn wait_for_opener(mut child: std::process::Child, opener: &str) -> io::Result<()> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(1500);
    while std::time::Instant::now() < deadline {
        match child.try_wait()? {
            Some(status) if status.success() => return Ok(()),
            Some(status) => {
                return Err(io::Error::other(format!("{opener} failed ({status})")));
            }
            None => std::thread::sleep(std::time::Duration::from_millis(25)),
        }
    }
    // Reap it whenever it ends, so no zombie is left behind.
    std::thread::spawn(move || child.wait());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_wraps_base64() {
        assert_eq!(osc52("hi"), "\u{1b}]52;c;aGk=\u{7}");
    }
}
