//! Layer 3: the real loop (`runtime::run`) on a test backend, with scripted keys, against the
//! real sandbox on loopback. The test waits for text to appear on the drawn screen.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use quire::api::{Client, ClientConfig, Token};
use quire::app::{Model, Size};
use quire::runtime::{self, Effects, Exit, Host, InputEvent};
use quire::sandbox::{Sandbox, SandboxOptions, tokens};
use quire::screens::Screen;
use quire::screens::organizations::Organizations;
use quire::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::{Backend, ClearType, TestBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Position, Size as TerminalSize};
use tokio::sync::mpsc;

/// A `TestBackend` the test can look at while the loop owns the terminal, counting draws.
#[derive(Clone)]
struct SharedBackend {
    inner: Arc<Mutex<TestBackend>>,
    flushes: Arc<Mutex<usize>>,
}

impl SharedBackend {
    fn new(width: u16, height: u16) -> SharedBackend {
        SharedBackend {
            inner: Arc::new(Mutex::new(TestBackend::new(width, height))),
            flushes: Arc::new(Mutex::new(0)),
        }
    }

    fn screen(&self) -> String {
        self.inner.lock().unwrap().to_string()
    }

    fn flushes(&self) -> usize {
        *self.flushes.lock().unwrap()
    }
}

impl Backend for SharedBackend {
    type Error = std::io::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.inner
            .lock()
            .unwrap()
            .draw(content)
            .map_err(std::io::Error::other)
    }
    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner
            .lock()
            .unwrap()
            .hide_cursor()
            .map_err(std::io::Error::other)
    }
    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner
            .lock()
            .unwrap()
            .show_cursor()
            .map_err(std::io::Error::other)
    }
    /// quire must never ask where the cursor is: on a real terminal the answer arrives as input,
    /// and quire's own reader may swallow it (after `fg` or `$EDITOR`), which ended the program.
    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        Err(std::io::Error::other(
            "The cursor position could not be read within a normal duration",
        ))
    }
    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.inner
            .lock()
            .unwrap()
            .set_cursor_position(position)
            .map_err(std::io::Error::other)
    }
    fn clear(&mut self) -> Result<(), Self::Error> {
        self.inner
            .lock()
            .unwrap()
            .clear()
            .map_err(std::io::Error::other)
    }
    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.inner
            .lock()
            .unwrap()
            .clear_region(clear_type)
            .map_err(std::io::Error::other)
    }
    fn size(&self) -> Result<TerminalSize, Self::Error> {
        self.inner
            .lock()
            .unwrap()
            .size()
            .map_err(std::io::Error::other)
    }
    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        self.inner
            .lock()
            .unwrap()
            .window_size()
            .map_err(std::io::Error::other)
    }
    fn flush(&mut self) -> Result<(), Self::Error> {
        *self.flushes.lock().unwrap() += 1;
        self.inner
            .lock()
            .unwrap()
            .flush()
            .map_err(std::io::Error::other)
    }
}

#[derive(Default, Clone)]
struct RecordingHost {
    copied: Arc<Mutex<Vec<String>>>,
    /// The terminal as the shell leaves it after `fg`: `suspend` wipes it.
    terminal: Option<SharedBackend>,
    suspended: Arc<Mutex<usize>>,
}

impl Host for RecordingHost {
    fn copy_to_clipboard(&mut self, text: &str) -> std::io::Result<()> {
        self.copied.lock().unwrap().push(text.to_string());
        Ok(())
    }
    fn open_in_browser(&mut self, _url: &str) -> std::io::Result<()> {
        Ok(())
    }
    fn suspend(&mut self) -> std::io::Result<()> {
        *self.suspended.lock().unwrap() += 1;
        if let Some(terminal) = &self.terminal {
            terminal.inner.lock().unwrap().clear().unwrap();
        }
        Ok(())
    }
    fn edit_text(&mut self, text: &str, keep: &mut dyn FnMut(&str)) -> std::io::Result<String> {
        keep(text);
        Ok(text.to_string())
    }
}

struct Harness {
    backend: SharedBackend,
    keys: mpsc::UnboundedSender<InputEvent>,
    host: RecordingHost,
    running: tokio::task::JoinHandle<std::io::Result<Exit>>,
    _sandbox: Sandbox,
}

impl Harness {
    async fn start(token: &str, options: SandboxOptions) -> Harness {
        let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), options)
            .await
            .expect("sandbox starts");
        let client =
            Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token))).expect("client");
        let backend = SharedBackend::new(100, 30);
        let (keys, receiver) = mpsc::unbounded_channel();
        let input = Box::pin(futures::stream::unfold(
            receiver,
            |mut receiver| async move { receiver.recv().await.map(|event| (event, receiver)) },
        ));
        let host = RecordingHost {
            terminal: Some(backend.clone()),
            ..RecordingHost::default()
        };
        let mut loop_host = host.clone();
        let mut terminal = Terminal::new(backend.clone()).expect("terminal");
        // The model holds a text editor that is not `Sync`, so the loop gets a thread and a
        // runtime of its own, as in `main`.
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let mut model = Model::new(
                    Screen::Organizations(Organizations::default()),
                    common::environment(),
                    Size::default(),
                );
                let effects = Effects {
                    client: Some(client),
                    drafts: None,
                    theme: Theme::default(),
                    render: Default::default(),
                };
                runtime::run(&mut terminal, input, &mut model, effects, &mut loop_host).await
            })
        });
        let running = tokio::task::spawn_blocking(move || thread.join().expect("loop thread"));
        Harness {
            backend,
            keys,
            host,
            running,
            _sandbox: sandbox,
        }
    }

    fn press(&self, code: KeyCode) {
        self.press_with(code, KeyModifiers::NONE);
    }

    fn press_with(&self, code: KeyCode, modifiers: KeyModifiers) {
        let event = KeyEvent::new(code, modifiers);
        self.keys
            .send(InputEvent::Terminal(Event::Key(event)))
            .unwrap();
    }

    fn type_text(&self, text: &str) {
        for c in text.chars() {
            self.press(KeyCode::Char(c));
        }
    }

    async fn wait_for(&self, text: &str) {
        let start = Instant::now();
        while !self.backend.screen().contains(text) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "`{text}` never appeared:\n{}",
                self.backend.screen()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browse_from_organizations_to_a_rendered_page() {
    let harness = Harness::start(tokens::READER, SandboxOptions::default()).await;
    harness.wait_for("Acme Robotics").await;
    harness.press(KeyCode::Enter);
    harness.wait_for("Engineering").await;
    harness.press(KeyCode::Char('/'));
    harness.type_text("getting");
    harness.press(KeyCode::Enter);
    harness.press(KeyCode::Enter);
    harness.wait_for("BASICS").await;
    // The first page is selected and previewed without a key press.
    harness.wait_for("Welcome to Acme Fleet").await;
    harness.press(KeyCode::Char('j'));
    harness.press(KeyCode::Enter);
    harness.wait_for("Quickstart  /quickstart").await;
    harness.press(KeyCode::Char('y'));
    harness.press(KeyCode::Char('q'));
    let exit = harness.running.await.unwrap().unwrap();
    assert_eq!(exit, Exit::Quit);
    let copied = harness.host.copied.lock().unwrap().clone();
    assert_eq!(copied.len(), 1, "y copied the page's link");
    assert!(copied[0].contains("quickstart"), "{copied:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_token_explains_how_to_set_one() {
    let harness = Harness::start("not-a-demo-token", SandboxOptions::default()).await;
    harness
        .wait_for("The server rejected the token (401)")
        .await;
    let screen = harness.backend.screen();
    assert!(screen.contains("GITBOOK_TOKEN"));
    assert!(
        !screen.contains("not-a-demo-token"),
        "the token is never shown"
    );
    harness.keys.send(InputEvent::Hangup).unwrap();
    assert_eq!(harness.running.await.unwrap().unwrap(), Exit::TerminalGone);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_request_says_what_failed_and_r_retries() {
    let options = SandboxOptions {
        faults: quire::sandbox::Faults {
            fail_with: Some(503),
            ..Default::default()
        },
        ..Default::default()
    };
    let harness = Harness::start(tokens::ADMIN, options).await;
    harness.wait_for("r to retry").await;
    assert!(
        harness.backend.screen().contains("503"),
        "{}",
        harness.backend.screen()
    );
    harness._sandbox.set_faults(Default::default());
    harness.press(KeyCode::Char('r'));
    harness.wait_for("Acme Robotics").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_quire_does_not_draw() {
    let harness = Harness::start(tokens::ADMIN, SandboxOptions::default()).await;
    harness.wait_for("Acme Robotics").await;
    // Let any last message settle, then watch a quiet period.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = harness.backend.flushes();
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(harness.backend.flushes(), before, "no redraw while idle");
    harness.press(KeyCode::Char('j'));
    harness.wait_for("Lumen OSS").await;
    let start = Instant::now();
    while harness.backend.flushes() == before && start.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(harness.backend.flushes() > before, "a key press draws");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_server_shows_loading_then_the_data() {
    let options = SandboxOptions {
        latency: Duration::from_millis(300),
        ..Default::default()
    };
    let harness = Harness::start(tokens::ADMIN, options).await;
    harness.wait_for("Loading organizations").await;
    harness.wait_for("Acme Robotics").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fg_after_ctrl_z_redraws_the_whole_screen_without_a_key() {
    let harness = Harness::start(tokens::ADMIN, SandboxOptions::default()).await;
    harness.wait_for("Acme Robotics").await;
    harness.press_with(KeyCode::Char('z'), KeyModifiers::CONTROL);
    let start = Instant::now();
    while *harness.host.suspended.lock().unwrap() == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "ctrl-z never suspended"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // No key after `fg`: the frame comes back whole on its own, and quire is still running.
    harness.wait_for("Acme Robotics").await;
    harness.wait_for("quire").await;
    assert!(
        !harness.running.is_finished(),
        "quire kept running after fg"
    );
    harness.press(KeyCode::Char('q'));
    assert_eq!(harness.running.await.unwrap().unwrap(), Exit::Quit);
}
