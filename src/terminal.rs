//! The real terminal: entering and leaving the modes quire uses, the input stream (keys plus
//! signals), and the host effects (OSC 52 clipboard, browser, Ctrl-Z).

use std::io::{self, Write};
use std::process::{Command, Stdio};

use base64::Engine;
use futures::{Stream, StreamExt};
use ratatui::crossterm::event::{DisableBracketedPaste, EnableBracketedPaste, EventStream};
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;

use crate::runtime::{Host, InputEvent};

/// Raw mode, the alternate screen and bracketed paste — everything `restore` turns off again.
pub fn enter() -> io::Result<()> {
    enable_raw_mode()?;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableBracketedPaste,
        cursor::Hide
    )?;
    Ok(())
}

/// Undoes `enter`. Safe to call more than once and from a panic hook: errors are ignored
/// because there is nothing better to do with them at that point.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    );
}

/// Key presses and the signals that mean "stop now", as one stream. Reading input failing or
/// ending (the terminal went away) also ends it.
pub fn input_stream() -> io::Result<impl Stream<Item = InputEvent> + Unpin> {
    let (sender, receiver) = mpsc::unbounded_channel();
    let mut hangup = signal(SignalKind::hangup())?;
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    let signals = sender.clone();
    tokio::spawn(async move {
        let event = tokio::select! {
            _ = hangup.recv() => InputEvent::Hangup,
            _ = terminate.recv() => InputEvent::Terminate,
            _ = interrupt.recv() => InputEvent::Terminate,
        };
        let _ = signals.send(event);
    });
    tokio::spawn(async move {
        let mut events = EventStream::new();
        loop {
            let event = match events.next().await {
                Some(Ok(event)) => InputEvent::Terminal(event),
                Some(Err(error)) => InputEvent::Failed(error.to_string()),
                None => InputEvent::Failed("input closed".to_string()),
            };
            let last = !matches!(event, InputEvent::Terminal(_));
            if sender.send(event).is_err() || last {
                break;
            }
        }
    });
    Ok(Box::pin(futures::stream::unfold(
        receiver,
        |mut receiver| async move { receiver.recv().await.map(|event| (event, receiver)) },
    )))
}

/// The escape sequence that asks the terminal to put `text` on the clipboard. It travels with
/// the output, so it works over SSH and inside tmux (with `set-clipboard on`).
pub fn osc52(text: &str) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    format!("\u{1b}]52;c;{encoded}\u{7}")
}

#[derive(Debug, Default)]
pub struct RealHost;

impl Host for RealHost {
    fn copy_to_clipboard(&mut self, text: &str) -> io::Result<()> {
        let mut stdout = io::stdout();
        stdout.write_all(osc52(text).as_bytes())?;
        stdout.flush()
    }

    fn open_in_browser(&mut self, url: &str) -> io::Result<()> {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else {
            "xdg-open"
        };
        Command::new(opener)
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map(|_| ())
    }

    fn edit_text(&mut self, text: &str) -> io::Result<String> {
        let editor = std::env::var("VISUAL")
            .or_else(|_| std::env::var("EDITOR"))
            .unwrap_or_else(|_| "vi".to_string());
        let file = tempfile_path();
        std::fs::write(&file, text)?;
        restore();
        // `$EDITOR` may carry arguments ("code --wait"): let the shell split them.
        let status = Command::new("sh")
            .arg("-c")
            .arg(format!("{editor} \"$1\""))
            .arg("quire-editor")
            .arg(&file)
            .status();
        enter()?;
        let edited = std::fs::read_to_string(&file);
        let _ = std::fs::remove_file(&file);
        match status {
            Ok(status) if status.success() => edited,
            Ok(status) => Err(io::Error::other(format!("{editor} exited with {status}"))),
            Err(error) => Err(error),
        }
    }

    fn suspend(&mut self) -> io::Result<()> {
        restore();
        // Stop like any job on Ctrl-Z; `fg` sends SIGCONT and we carry on from here.
        signal_hook::low_level::raise(signal_hook::consts::SIGTSTP)?;
        enter()
    }
}

/// A private file for one `$EDITOR` session.
fn tempfile_path() -> std::path::PathBuf {
    let name = format!(
        "quire-{}-{}.md",
        std::process::id(),
        chrono::Utc::now().timestamp_millis()
    );
    std::env::temp_dir().join(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_wraps_base64() {
        assert_eq!(osc52("hi"), "\u{1b}]52;c;aGk=\u{7}");
    }
}
