//! Bytes quire writes to the terminal per key, as an SSH link carries them; see README
//! "Performance".
//!
//! The real loop (`quire::runtime::run`) runs against the sandbox (with the big demo) on a
//! terminal of a fixed size whose writer counts bytes. Each key is sent once the screen is idle,
//! and the bytes of the frame it causes are counted. Three ways of writing are measured:
//! "before" (ratatui's own cell diff, as quire wrote until scroll regions), "no regions" (quire's
//! encoder with `QUIRE_NO_SCROLL_REGIONS`) and "now". `less` on the same markdown, in a pty of the
//! same size, is the peer.
//!
//! `cargo bench --bench ssh`; `cargo bench --bench ssh -- less` (or `reader`, `big`, `diff`,
//! `tree`) runs one part.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use quire::api::{Client, ClientConfig, Space, Token};
use quire::app::{Environment, Model, Size};
use quire::output::{OutputOptions, Present, TerminalOutput};
use quire::runtime::{self, Effects, Host, InputEvent};
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::review::ReviewScreen;
use quire::screens::page::{PageScreen, text_area};
use quire::screens::space::{PageNode, SpaceScreen};
use quire::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Position, Rect, Size as TerminalSize};
use tokio::sync::mpsc;

const SIZES: [(u16, u16); 2] = [(80, 24), (200, 50)];
/// Keys measured per row of the table; the figure is their mean.
const PRESSES: usize = 8;

fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|argument| !argument.starts_with('-'))
        .collect();
    let runs = |part: &str| wanted.is_empty() || wanted.iter().any(|w| w == part);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let sandbox = runtime
        .block_on(Sandbox::start(
            "127.0.0.1:0".parse().expect("address"),
            SandboxOptions {
                big: true,
                ..SandboxOptions::default()
            },
        ))
        .expect("sandbox");
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .expect("client");
    let quickstart = (demo_ids::SPACE_GETTING_STARTED, demo_ids::PAGE_QUICKSTART);
    let huge = (demo_ids::SPACE_BIG, demo_ids::PAGE_BIG_HUGE);
    let _guard = runtime.enter();

    println!("bytes written per key (mean of {PRESSES}), counted at the terminal");
    println!(
        "{:<34} {:>8} {:>9} {:>11} {:>7}",
        "view, key", "size", "before", "no regions", "now"
    );
    let keys = [("j", key('j')), ("page down", KeyCode::PageDown)];
    if runs("reader") {
        let screen = runtime.block_on(page_screen(&client, quickstart));
        measure_quire("reader, Quickstart", &client, &screen, &keys, &[key('g')]);
    }
    if runs("big") {
        let screen = runtime.block_on(page_screen(&client, huge));
        measure_quire("reader, 1 MB page", &client, &screen, &keys, &[key('g')]);
    }
    if runs("diff") {
        let review = || {
            Screen::Review(Box::new(ReviewScreen::new(
                quire::vocabulary::change_requests::ChangeRequestRef {
                    space: demo_ids::SPACE_GETTING_STARTED.to_owned(),
                    change_request: demo_ids::CR_REVIEW.to_owned(),
                },
                None,
            )))
        };
        measure_quire(
            "review diff",
            &client,
            &review,
            &[
                ("ctrl-d", KeyCode::Char('d')),
                ("page down", KeyCode::PageDown),
            ],
            // `g` selects the first page; the diff goes back up by pages.
            &[KeyCode::PageUp; 12],
        );
    }
    if runs("tree") {
        let space = runtime
            .block_on(client.get_space(demo_ids::SPACE_BIG))
            .expect("the big space");
        let tree = move || Screen::Space(SpaceScreen::new(space.clone(), "Big Co".to_string()));
        measure_quire(
            "page tree, 10,000 pages",
            &client,
            &tree,
            &keys,
            &[key('g')],
        );
    }
    if runs("less") {
        for (name, (space, page)) in [("Quickstart", quickstart), ("1 MB page", huge)] {
            let markdown = runtime
                .block_on(client.get_page_markdown(space, page))
                .expect("the page")
                .markdown
                .unwrap_or_default();
            measure_less(name, &markdown, "less", &SIZES);
            for size in SIZES {
                // Wrapped as the reader wraps it: its text column is at most 100 wide.
                let (width, height) = size;
                let text_width = text_area(Rect::new(0, 0, width, height)).width;
                let rendered = rendered_as_ansi(&markdown, text_width);
                measure_less(name, &rendered, "less -R, quire's rendering", &[size]);
            }
        }
    }
    runtime.block_on(sandbox.shutdown());
}

fn key(c: char) -> KeyCode {
    KeyCode::Char(c)
}

/// A reader on `page` of `space`, as the page tree opens it.
async fn page_screen(
    client: &Client,
    (space, page): (&str, &str),
) -> impl Fn() -> Screen + Clone + Send + 'static {
    let space: Space = client.get_space(space).await.expect("space");
    let page = client
        .get_page_markdown(&space.id, page)
        .await
        .expect("page");
    let node = PageNode {
        id: page.id.clone(),
        title: page.title.clone(),
        emoji: page.emoji.clone(),
        kind: "document".into(),
        hidden: page.hidden,
        path: page.path.clone(),
        app_url: page.urls.app.clone(),
        app_url_start: None,
        link_target: None,
    };
    move || Screen::Page(PageScreen::new(space.clone(), node.clone(), None))
}

/// Bytes per key of `keys` on the screen `screen` makes, at each size and in each way of
/// writing; `top` are the keys that bring the view back to its start.
fn measure_quire<F>(
    view: &str,
    client: &Client,
    screen: &F,
    keys: &[(&str, KeyCode)],
    top: &[KeyCode],
) where
    F: Fn() -> Screen + Clone + Send + 'static,
{
    for (width, height) in SIZES {
        let mut figures: Vec<Vec<usize>> = vec![Vec::new(); keys.len()];
        let mut full_page = None;
        for writing in [Writing::Before, Writing::NoRegions, Writing::Now] {
            let session = Session::start(client.clone(), screen.clone(), width, height, writing);
            for (index, (_, code)) in keys.iter().enumerate() {
                let modifiers = if *code == KeyCode::Char('d') {
                    KeyModifiers::CONTROL
                } else {
                    KeyModifiers::NONE
                };
                figures[index].push(session.mean_bytes_per_key(*code, modifiers, top));
            }
            if writing == Writing::Now
                && view.starts_with("reader")
                && let Some((_, code)) = keys.iter().find(|(name, _)| *name == "page down")
            {
                // A reader pages by its text area's height.
                let rows = text_area(Rect::new(0, 0, width, height)).height;
                full_page = Some((session.full_page_from_top(*code, top), usize::from(rows)));
            }
            session.stop();
        }
        for ((name, _), figure) in keys.iter().zip(figures) {
            println!(
                "{:<34} {:>8} {:>9} {:>11} {:>7}",
                format!("{view}, {name}"),
                format!("{width}x{height}"),
                figure[0],
                figure[1],
                figure[2]
            );
        }
        if let Some((bytes, rows)) = full_page {
            print_full_page(&format!("{view}, page down"), width, height, bytes, rows);
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Writing {
    Before,
    NoRegions,
    Now,
}

/// Bytes and flushes seen by the terminal's writer.
#[derive(Clone, Default)]
struct Counter {
    bytes: Arc<AtomicUsize>,
    flushes: Arc<AtomicUsize>,
    /// The most recent bytes, kept to show them (`SSH_BENCH_SHOW=1`).
    recent: Arc<std::sync::Mutex<Vec<u8>>>,
}

impl Counter {
    fn bytes(&self) -> usize {
        self.bytes.load(Ordering::SeqCst)
    }

    /// Waits until nothing was written for `quiet`.
    fn wait_quiet(&self, quiet: Duration) {
        let mut last = self.bytes();
        let mut since = Instant::now();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(5));
            let now = self.bytes();
            if now != last {
                last = now;
                since = Instant::now();
            } else if since.elapsed() >= quiet {
                return;
            }
        }
    }
}

struct CountingWriter(Counter);

impl Write for CountingWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut recent) = self.0.recent.lock() {
            recent.extend_from_slice(buf);
            let excess = recent.len().saturating_sub(1 << 16);
            recent.drain(..excess);
        }
        self.0.bytes.fetch_add(buf.len(), Ordering::SeqCst);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flushes.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

/// ratatui's crossterm backend with its own diff ("before"), on a terminal of a fixed size.
struct PlainBackend {
    inner: CrosstermBackend<CountingWriter>,
    size: TerminalSize,
}

impl Present for PlainBackend {}

impl Backend for PlainBackend {
    type Error = std::io::Error;

    fn draw<'a, I>(&mut self, content: I) -> std::io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.inner.draw(content)
    }
    fn hide_cursor(&mut self) -> std::io::Result<()> {
        self.inner.hide_cursor()
    }
    fn show_cursor(&mut self) -> std::io::Result<()> {
        self.inner.show_cursor()
    }
    fn get_cursor_position(&mut self) -> std::io::Result<Position> {
        Ok(Position::ORIGIN)
    }
    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> std::io::Result<()> {
        self.inner.set_cursor_position(position)
    }
    fn clear(&mut self) -> std::io::Result<()> {
        self.inner.clear()
    }
    fn clear_region(&mut self, clear_type: ClearType) -> std::io::Result<()> {
        self.inner.clear_region(clear_type)
    }
    fn size(&self) -> std::io::Result<TerminalSize> {
        Ok(self.size)
    }
    fn window_size(&mut self) -> std::io::Result<WindowSize> {
        Ok(WindowSize {
            columns_rows: self.size,
            pixels: TerminalSize::default(),
        })
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Backend::flush(&mut self.inner)
    }
}

struct NoHost;

impl Host for NoHost {
    fn copy_to_clipboard(&mut self, _text: &str) -> std::io::Result<()> {
        Ok(())
    }
    fn open_in_browser(&mut self, _url: &str) -> std::io::Result<()> {
        Ok(())
    }
    fn suspend(&mut self) -> std::io::Result<()> {
        Ok(())
    }
    fn edit_text(
        &mut self,
        text: &str,
        _draft: Option<&std::path::Path>,
        _keep: &mut dyn FnMut(&str),
    ) -> std::io::Result<String> {
        Ok(text.to_string())
    }
}

/// quire's loop on its own thread, as in `main`, drawing on a counting terminal.
struct Session {
    counter: Counter,
    writing: Writing,
    keys: mpsc::UnboundedSender<InputEvent>,
    thread: std::thread::JoinHandle<()>,
}

impl Session {
    fn start<F>(client: Client, screen: F, width: u16, height: u16, writing: Writing) -> Session
    where
        F: FnOnce() -> Screen + Send + 'static,
    {
        let counter = Counter::default();
        let writer = CountingWriter(counter.clone());
        let (keys, receiver) = mpsc::unbounded_channel();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            let input = Box::pin(futures::stream::unfold(
                receiver,
                |mut receiver| async move { receiver.recv().await.map(|event| (event, receiver)) },
            ));
            let size = TerminalSize { width, height };
            runtime.block_on(async move {
                let environment = Environment {
                    server_label: "bench".to_string(),
                    config_path: "none".to_string(),
                    render: Default::default(),
                    clock: Default::default(),
                };
                let mut model = Model::new(screen(), environment, Size::default());
                let effects = Effects {
                    client: Some(client),
                    drafts: None,
                    theme: Theme::default(),
                    render: Default::default(),
                };
                let result = match writing {
                    Writing::Before => {
                        let backend = PlainBackend {
                            inner: CrosstermBackend::new(writer),
                            size,
                        };
                        let mut terminal = Terminal::new(backend).expect("terminal");
                        runtime::run(&mut terminal, input, &mut model, effects, &mut NoHost).await
                    }
                    Writing::NoRegions | Writing::Now => {
                        let options = OutputOptions {
                            scroll_regions: writing == Writing::Now,
                            // SSH_BENCH_NO_COLOR=1: as under NO_COLOR, the peer of plain `less`
                            // (which has no colours to send either).
                            colours: std::env::var_os("SSH_BENCH_NO_COLOR").is_none(),
                        };
                        let backend = TerminalOutput::with_size(writer, options, size);
                        let mut terminal = Terminal::new(backend).expect("terminal");
                        runtime::run(&mut terminal, input, &mut model, effects, &mut NoHost).await
                    }
                };
                if let Err(error) = result {
                    eprintln!("the loop failed: {error}");
                }
            });
        });
        let session = Session {
            counter,
            writing,
            keys,
            thread,
        };
        // Loaded, parsed, highlighted: nothing drawn for a while.
        session.counter.wait_quiet(Duration::from_millis(1500));
        session
    }

    fn press(&self, code: KeyCode, modifiers: KeyModifiers) -> usize {
        let before = self.counter.bytes();
        let flushes = self.counter.flushes.load(Ordering::SeqCst);
        let _ = self
            .keys
            .send(InputEvent::Terminal(Event::Key(KeyEvent::new(
                code, modifiers,
            ))));
        let start = Instant::now();
        while self.counter.flushes.load(Ordering::SeqCst) == flushes
            && start.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.counter.wait_quiet(Duration::from_millis(60));
        let written = self.counter.bytes() - before;
        if std::env::var_os("SSH_BENCH_SHOW").is_some()
            && let Ok(recent) = self.counter.recent.lock()
        {
            let frame = &recent[recent.len().saturating_sub(written)..];
            println!("    {code:?}: {:?}", String::from_utf8_lossy(frame));
        }
        written
    }

    /// The mean over `PRESSES` presses, after one press that leaves the top of the view (its
    /// first frame also changes the ruler from "Top").
    fn mean_bytes_per_key(&self, code: KeyCode, modifiers: KeyModifiers, top: &[KeyCode]) -> usize {
        self.press(code, modifiers);
        // ratatui's diff ends every frame with 26 bytes of resets, even an unchanged one;
        // quire's encoder sends nothing for an unchanged frame (and a scroll by one blank
        // line can cost fewer than 30 bytes: counting it as "unchanged" would drop it).
        let unchanged = match self.writing {
            Writing::Before => 30,
            Writing::NoRegions | Writing::Now => 0,
        };
        mean_of_moves(
            unchanged,
            || self.press(code, modifiers),
            || {
                for key in top {
                    self.press(*key, KeyModifiers::NONE);
                }
            },
        )
    }

    /// Bytes of a page-down from the top of the view: the like-for-like figure, with no
    /// short last page in it.
    fn full_page_from_top(&self, code: KeyCode, top: &[KeyCode]) -> usize {
        let mut total = 0;
        for _ in 0..PRESSES {
            for key in top {
                self.press(*key, KeyModifiers::NONE);
            }
            total += self.press(code, KeyModifiers::NONE);
        }
        total / PRESSES
    }

    /// Closing the input ends the loop, as a closed terminal does.
    fn stop(self) {
        drop(self.keys);
        let _ = self.thread.join();
    }
}

/// One "from the top" line: bytes of a whole page and per row brought into view.
fn print_full_page(label: &str, width: u16, height: u16, bytes: usize, rows: usize) {
    let per_row = bytes.checked_div(rows).unwrap_or(0);
    println!(
        "{:<34} {:>8} {:>9} bytes, {rows} rows, {per_row} per row",
        format!("{label}, a full page from the top"),
        format!("{width}x{height}"),
        bytes,
    );
}

/// The mean over `PRESSES` presses that moved the view. At the end of a page a press changes
/// nothing (or rings the bell) and would make the mean look cheaper than it is: then `top`
/// goes back to the top (`g`, in quire and in less) and the presses go on from there.
fn mean_of_moves(
    unchanged: usize,
    mut press: impl FnMut() -> usize,
    mut top: impl FnMut(),
) -> usize {
    let mut moved = Vec::with_capacity(PRESSES);
    for _ in 0..PRESSES * 3 {
        match press() {
            written if written > unchanged => moved.push(written),
            _ => top(),
        }
        if moved.len() == PRESSES {
            break;
        }
    }
    moved.iter().sum::<usize>() / moved.len().max(1)
}

/// The page as quire's reader shows it, coloured and wrapped to `width` columns, as a file of
/// text with SGR colours: the fair peer of quire's page-downs is `less -R` on this, which
/// sends the same colour changes quire does, where the plain markdown has none.
fn rendered_as_ansi(markdown: &str, width: u16) -> String {
    use quire::ui::markdown::{MarkdownDoc, RenderOptions};
    let theme = Theme::default();
    let doc = MarkdownDoc::parse(markdown, &theme).highlighted(&theme, &RenderOptions::default());
    let layout = std::sync::Arc::new(doc).page_layout(width);
    let mut text = String::new();
    for line in layout.lines(0..layout.len()) {
        let mut styled = false;
        for span in &line.spans {
            let style = line.style.patch(span.style);
            let codes = quire::cli::output::ansi::sgr(style);
            if !codes.is_empty() || styled {
                text.push_str("\x1b[0");
                if !codes.is_empty() {
                    text.push(';');
                    text.push_str(&codes);
                }
                text.push('m');
                styled = !codes.is_empty();
            }
            text.push_str(&span.content);
        }
        if styled {
            text.push_str("\x1b[0m");
        }
        text.push('\n');
    }
    text
}

/// `less` (`-R` when `label` says so) on `text` in a pty of each of `sizes`: bytes per `j` and per space
/// (page down).
fn measure_less(name: &str, text: &str, label: &str, sizes: &[(u16, u16)]) {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    file.write_all(text.as_bytes()).expect("write");
    for &(width, height) in sizes {
        let pty = native_pty_system();
        let pair = pty
            .openpty(PtySize {
                rows: height,
                cols: width,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("pty");
        let mut command = CommandBuilder::new("less");
        if label.contains("-R") {
            command.arg("-R");
        }
        command.arg(file.path());
        command.env("TERM", "xterm-256color");
        command.env_remove("LESS");
        let mut child = pair.slave.spawn_command(command).expect("less");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("reader");
        let writer = pair.master.take_writer().expect("writer");
        let counter = Counter::default();
        let reading = {
            let counter = counter.clone();
            std::thread::spawn(move || {
                let mut buffer = [0u8; 8192];
                while let Ok(n) = reader.read(&mut buffer) {
                    if n == 0 {
                        break;
                    }
                    counter.bytes.fetch_add(n, Ordering::SeqCst);
                }
            })
        };
        counter.wait_quiet(Duration::from_millis(500));
        let writer = std::cell::RefCell::new(writer);
        let press = |keys: &str| {
            let before = counter.bytes();
            let mut writer = writer.borrow_mut();
            writer.write_all(keys.as_bytes()).expect("key");
            writer.flush().expect("flush");
            let start = Instant::now();
            while counter.bytes() == before && start.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(1));
            }
            counter.wait_quiet(Duration::from_millis(60));
            counter.bytes() - before
        };
        let mean = |keys: &str| {
            press(keys);
            // At the end of the file less rings the bell.
            mean_of_moves(
                8,
                || press(keys),
                || {
                    press("g");
                },
            )
        };
        let line = mean("j");
        let page = mean(" ");
        // A whole page from the top: less pages by the window's height less one row.
        let mut full = 0;
        for _ in 0..PRESSES {
            press("g");
            full += press(" ");
        }
        let full = full / PRESSES;
        println!(
            "{:<34} {:>8} {:>9}",
            format!("{label}, {name}, j"),
            format!("{width}x{height}"),
            line
        );
        println!(
            "{:<34} {:>8} {:>9}",
            format!("{label}, {name}, space"),
            format!("{width}x{height}"),
            page
        );
        let rows = usize::from(height) - 1;
        print_full_page(
            &format!("{label}, {name}, space"),
            width,
            height,
            full,
            rows,
        );
        let mut writer = writer.into_inner();
        let _ = writer.write_all(b"q");
        let _ = child.wait();
        drop(writer);
        drop(pair.master);
        let _ = reading.join();
    }
}
