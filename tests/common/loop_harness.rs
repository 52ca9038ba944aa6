//! The real loop (`runtime::run`) on a shared test backend with scripted keys, against the real
//! sandbox on loopback: the test waits for text to appear on the drawn screen.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use quire::api::{Client, ClientConfig, Token};
use quire::app::{Model, Size};
use quire::runtime::{self, Effects, Exit, Host, InputEvent};
use quire::sandbox::{Sandbox, SandboxOptions};
use quire::screens::Screen;
use quire::screens::organizations::Organizations;
use quire::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::{Backend, ClearType, TestBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Position, Size as TerminalSize};
use tokio::sync::mpsc;

use super::wait::{Events, PATIENCE, wait_until_async};

/// A `TestBackend` the test can look at while the loop owns the terminal, counting draws.
#[derive(Clone)]
pub struct SharedBackend {
    pub inner: Arc<Mutex<TestBackend>>,
    flushes: Arc<Mutex<usize>>,
    /// A frame was drawn (or the screen wiped): what is on screen may have changed.
    pub drawn: Events,
}

impl SharedBackend {
    pub fn new(width: u16, height: u16) -> SharedBackend {
        SharedBackend {
            inner: Arc::new(Mutex::new(TestBackend::new(width, height))),
            flushes: Arc::new(Mutex::new(0)),
            drawn: Events::new(),
        }
    }

    pub fn screen(&self) -> String {
        self.inner.lock().unwrap().to_string()
    }

    pub fn flushes(&self) -> usize {
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
        let flushed = self
            .inner
            .lock()
            .unwrap()
            .flush()
            .map_err(std::io::Error::other);
        self.drawn.happened();
        flushed
    }
}

/// ratatui's own diff draws on the test backend.
impl quire::output::Present for SharedBackend {}

#[derive(Default, Clone)]
pub struct RecordingHost {
    pub copied: Arc<Mutex<Vec<String>>>,
    /// Terminal notifications, as "title: body".
    pub notified: Arc<Mutex<Vec<String>>>,
    /// The terminal as the shell leaves it after `fg`: `suspend` wipes it.
    pub terminal: Option<SharedBackend>,
    pub suspended: Arc<Mutex<usize>>,
    /// How long each timer quire set was to run, in order.
    pub timers: Arc<Mutex<Vec<std::time::Duration>>>,
    pub loop_state: Arc<Mutex<LoopState>>,
    /// The loop said it waits, took an input event, suspended, or ended.
    pub changed: Events,
}

/// What the loop last said of itself, and how many input events it has taken.
#[derive(Default, Debug)]
pub struct LoopState {
    /// Waiting with nothing under way (see `Host::waiting`), and no input taken since.
    pub idle: bool,
    pub events_taken: usize,
    /// The loop's thread has ended.
    pub ended: bool,
}

impl Host for RecordingHost {
    fn copy_to_clipboard(&mut self, text: &str) -> std::io::Result<()> {
        self.copied.lock().unwrap().push(text.to_string());
        Ok(())
    }
    fn open_in_browser(&mut self, _url: &str) -> std::io::Result<()> {
        Ok(())
    }
    fn notify(&mut self, title: &str, body: &str) -> std::io::Result<()> {
        self.notified
            .lock()
            .unwrap()
            .push(format!("{title}: {body}"));
        Ok(())
    }
    fn timer_set(&mut self, after: std::time::Duration) {
        self.timers.lock().unwrap().push(after);
        self.changed.happened();
    }
    fn waiting(&mut self, idle: bool) {
        self.loop_state.lock().unwrap().idle = idle;
        self.changed.happened();
    }
    fn suspend(&mut self) -> std::io::Result<()> {
        *self.suspended.lock().unwrap() += 1;
        if let Some(terminal) = &self.terminal {
            terminal.inner.lock().unwrap().clear().unwrap();
            terminal.drawn.happened();
        }
        self.changed.happened();
        Ok(())
    }
    fn edit_text(
        &mut self,
        text: &str,
        _draft: Option<&std::path::Path>,
        keep: &mut dyn FnMut(&str),
    ) -> std::io::Result<String> {
        keep(text);
        Ok(text.to_string())
    }
}

pub struct Harness {
    pub backend: SharedBackend,
    pub keys: mpsc::UnboundedSender<InputEvent>,
    pub host: RecordingHost,
    pub running: tokio::task::JoinHandle<std::io::Result<Exit>>,
    pub sandbox: Sandbox,
    /// Key presses sent through [`Harness::press_with`].
    events_sent: AtomicUsize,
}

impl Harness {
    /// quire on its first screen, the organizations list.
    pub async fn start(token: &str, options: SandboxOptions) -> Harness {
        Harness::start_on(token, options, || {
            Screen::Organizations(Organizations::default())
        })
        .await
    }

    /// quire opened on the screen `first` makes (called on the loop's thread).
    pub async fn start_on(
        token: &str,
        options: SandboxOptions,
        first: impl FnOnce() -> Screen + Send + 'static,
    ) -> Harness {
        let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), options)
            .await
            .expect("sandbox starts");
        let client =
            Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token))).expect("client");
        Harness::start_with(sandbox, client, first)
    }

    /// quire opened on the screen `first` makes, talking to `sandbox` through `client` (one
    /// with a cache, say).
    pub fn start_with(
        sandbox: Sandbox,
        client: Client,
        first: impl FnOnce() -> Screen + Send + 'static,
    ) -> Harness {
        Harness::start_configured(sandbox, client, first, |_| {})
    }

    /// As `start_with`, with settings the config file would give set on the model first.
    pub fn start_configured(
        sandbox: Sandbox,
        client: Client,
        first: impl FnOnce() -> Screen + Send + 'static,
        configure: impl FnOnce(&mut Model) + Send + 'static,
    ) -> Harness {
        let backend = SharedBackend::new(100, 30);
        let (keys, receiver) = mpsc::unbounded_channel();
        let host = RecordingHost {
            terminal: Some(backend.clone()),
            ..RecordingHost::default()
        };
        // An event taken means the loop is no longer idle, before it even looks at it.
        let taken = host.loop_state.clone();
        let loop_changed = host.changed.clone();
        let input = Box::pin(futures::stream::unfold(
            receiver,
            move |mut receiver: mpsc::UnboundedReceiver<InputEvent>| {
                let taken = taken.clone();
                let loop_changed = loop_changed.clone();
                async move {
                    let event = receiver.recv().await?;
                    let mut state = taken.lock().unwrap();
                    state.idle = false;
                    state.events_taken += 1;
                    drop(state);
                    loop_changed.happened();
                    Some((event, receiver))
                }
            },
        ));
        let mut loop_host = host.clone();
        let ended = LoopEnded(host.loop_state.clone(), host.changed.clone());
        let mut terminal = Terminal::new(backend.clone()).expect("terminal");
        // The model holds a text editor that is not `Sync`, so the loop gets a thread and a
        // runtime of its own, as in `main`.
        let thread = std::thread::spawn(move || {
            // Says the loop ended however it ends (a panic too), for `settle` to see.
            let _ended = ended;
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let mut model = Model::new(first(), super::environment(), Size::default());
                configure(&mut model);
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
            sandbox,
            events_sent: AtomicUsize::new(0),
        }
    }

    pub fn press(&self, code: KeyCode) {
        self.press_with(code, KeyModifiers::NONE);
    }

    pub fn press_with(&self, code: KeyCode, modifiers: KeyModifiers) {
        let event = KeyEvent::new(code, modifiers);
        self.events_sent.fetch_add(1, Ordering::SeqCst);
        self.keys
            .send(InputEvent::Terminal(Event::Key(event)))
            .unwrap();
    }

    /// A terminal event other than a key (focus gained or lost, say).
    pub fn send_event(&self, event: Event) {
        self.events_sent.fetch_add(1, Ordering::SeqCst);
        self.keys.send(InputEvent::Terminal(event)).unwrap();
    }

    /// Waits until quire has set a timer to run `after`, `count` times in all.
    pub async fn wait_for_timers(&self, after: Duration, count: usize) {
        let set = || {
            let timers = self.host.timers.lock().unwrap();
            timers.iter().filter(|timer| **timer == after).count()
        };
        let happened =
            wait_until_async(PATIENCE, self.host.changed.subscribe(), || set() >= count).await;
        assert!(
            happened,
            "{count} timers of {after:?} expected, {} set",
            set()
        );
    }

    pub fn type_text(&self, text: &str) {
        for c in text.chars() {
            self.press(KeyCode::Char(c));
        }
    }

    /// From the organizations list into Acme's Getting Started space, by keys.
    pub async fn open_getting_started(&self) {
        self.wait_for("Acme Robotics").await;
        self.press(KeyCode::Enter);
        self.wait_for("Engineering").await;
        self.press(KeyCode::Char('/'));
        self.type_text("getting");
        self.press(KeyCode::Enter);
        self.press(KeyCode::Enter);
        self.wait_for("BASICS").await;
    }

    pub async fn wait_for(&self, text: &str) {
        self.wait_for_within(text, PATIENCE).await;
    }

    /// The server found back: the check that notices waits longer after each failure (up to
    /// the retry budget, 30 s), so what follows may come that much later.
    pub async fn wait_until_back(&self, text: &str) {
        self.wait_for_within(text, PATIENCE + Duration::from_secs(30))
            .await;
    }

    pub async fn wait_for_within(&self, text: &str, patience: Duration) {
        let shown = wait_until_async(patience, self.backend.drawn.subscribe(), || {
            self.backend.screen().contains(text)
        })
        .await;
        assert!(shown, "`{text}` never appeared:\n{}", self.backend.screen());
    }

    pub async fn wait_gone(&self, text: &str) {
        let gone = wait_until_async(PATIENCE, self.backend.drawn.subscribe(), || {
            !self.backend.screen().contains(text)
        })
        .await;
        assert!(gone, "`{text}` never went:\n{}", self.backend.screen());
    }

    /// Waits until the screen satisfies `done`, looking at each frame drawn.
    pub async fn wait_for_screen(&self, what: &str, mut done: impl FnMut(&str) -> bool) {
        let happened = wait_until_async(PATIENCE, self.backend.drawn.subscribe(), || {
            done(&self.backend.screen())
        })
        .await;
        assert!(happened, "{what}:\n{}", self.backend.screen());
    }

    /// Waits until the sandbox has seen at least `count` requests `method pattern`, looking at
    /// each step it takes.
    pub async fn wait_for_requests(&self, method: &str, pattern: &str, count: usize) {
        let sent = wait_until_async(PATIENCE, self.sandbox.activity(), || {
            self.sandbox.requests(method, pattern) >= count
        })
        .await;
        assert!(
            sent,
            "{method} {pattern} sent {} times, expected {count}",
            self.sandbox.requests(method, pattern)
        );
    }

    /// Waits until the loop has taken every key pressed and then has nothing under way: no
    /// call, render or timer, no spinner (or it has ended). What did not happen by then will
    /// not happen without more input.
    pub async fn settle(&self) {
        let sent = self.events_sent.load(Ordering::SeqCst);
        let idle = wait_until_async(PATIENCE, self.host.changed.subscribe(), || {
            let state = self.host.loop_state.lock().unwrap();
            (state.idle && state.events_taken >= sent) || state.ended
        })
        .await;
        assert!(
            idle,
            "the loop never went idle ({:?}):\n{}",
            self.host.loop_state.lock().unwrap(),
            self.backend.screen()
        );
    }
}

/// Notes that the loop ended, and says so, when dropped with the loop's thread.
struct LoopEnded(Arc<Mutex<LoopState>>, Events);

impl Drop for LoopEnded {
    fn drop(&mut self) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).ended = true;
        self.1.happened();
    }
}
