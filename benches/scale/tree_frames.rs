//! Per-key cost on the 10,000-page tree as the terminal sees it: the whole frame (header, tree,
//! the preview of the selected page, footer) drawn and encoded into terminal bytes as the loop
//! does (`TerminalOutput`), at 80x24 and 200x50.
//!
//! Two ways to press a key. Moving fast (keys closer than the preview's rest): the key's frame,
//! and the previous key's preview timer going off, stale (drawn only if the loop would draw it).
//! At rest (the selection rests after each key): the key, its preview fetched, parsed and laid
//! out, and the frames in between, all carried out; that CPU is the whole process's, the
//! sandbox's answer included.

use std::time::Duration;

use quire::app::view::chrome;
use quire::app::{Environment, Model, Msg, RequestId, Size, update, update_noting_change};
use quire::headless;
use quire::output::{OutputOptions, TerminalOutput, draw_frame};
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids};
use quire::screens::Screen;
use quire::screens::space::SpaceScreen;
use quire::vocabulary::Cmd;
use ratatui::Terminal;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

const SIZES: [(u16, u16); 2] = [(80, 24), (200, 50)];
const KEYS: usize = 200;
const KEYS_AT_REST: usize = 40;
const QUERY: &str = "faq about quotas";

type TerminalScreen = Terminal<TerminalOutput<Vec<u8>>>;

pub fn run() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    println!(
        "tree, whole frame: update + the frame drawn and encoded for the terminal \
         (thread CPU moving fast; process CPU, sandbox included, at rest)"
    );
    for (width, height) in SIZES {
        let (mut model, sandbox, effects) = runtime.block_on(open_big_space(width, height));
        let mut terminal = terminal(width, height);
        let mut bench = Frames {
            model: &mut model,
            terminal: &mut terminal,
            pending_timer: None,
        };
        bench.draw();
        let label = format!("{width}x{height}");
        let keys = bench.moving_fast(KEYS, plain(KeyCode::Char('j')));
        report(&format!("{label} moving fast: j"), &keys);
        let keys = bench.moving_fast(KEYS / 10, plain(KeyCode::PageDown));
        report(&format!("{label} moving fast: page down"), &keys);
        bench.moving_fast(1, plain(KeyCode::Char('g')));

        let at_rest = |bench: &mut Frames, key: KeyEvent| {
            let cpu = process_cpu_time();
            runtime.block_on(headless::settle(bench.model, &effects, Msg::Key(key)));
            bench.draw();
            process_cpu_time().saturating_sub(cpu)
        };
        let keys: Vec<Duration> = (0..KEYS_AT_REST)
            .map(|_| at_rest(&mut bench, plain(KeyCode::Char('j'))))
            .collect();
        report(&format!("{label} at rest: j"), &keys);

        at_rest(&mut bench, plain(KeyCode::Char('/')));
        let typed: Vec<Duration> = QUERY
            .chars()
            .map(|c| at_rest(&mut bench, plain(KeyCode::Char(c))))
            .collect();
        let erased: Vec<Duration> = QUERY
            .chars()
            .map(|_| at_rest(&mut bench, plain(KeyCode::Backspace)))
            .collect();
        report(&format!("{label} at rest: typing \"{QUERY}\""), &typed);
        println!(
            "    first character {}, backspace to empty {}",
            millis(typed[0]),
            millis(erased[erased.len() - 1])
        );
        report(&format!("{label} at rest: backspace"), &erased);
        at_rest(&mut bench, plain(KeyCode::Esc));
        runtime.block_on(sandbox.shutdown());
    }
}

fn terminal(width: u16, height: u16) -> TerminalScreen {
    let size = ratatui::layout::Size { width, height };
    let backend = TerminalOutput::with_size(Vec::new(), OutputOptions::default(), size);
    Terminal::new(backend).expect("terminal")
}

/// The big space loaded the way the app opens it, its first page previewed.
async fn open_big_space(width: u16, height: u16) -> (Model, Sandbox, Effects) {
    let options = SandboxOptions {
        big: true,
        ..SandboxOptions::default()
    };
    let (sandbox, client) = headless::local_sandbox(options).await.expect("sandbox");
    let space = client.get_space(demo_ids::SPACE_BIG).await.expect("space");
    let effects = headless::effects_with(client);
    let mut model = Model::new(
        Screen::Space(SpaceScreen::new(space, "Big Co".into())),
        Environment::default(),
        Size { width, height },
    );
    headless::start(&mut model, &effects).await;
    (model, sandbox, effects)
}

struct Frames<'a> {
    model: &'a mut Model,
    terminal: &'a mut TerminalScreen,
    /// The preview timer the last key set: it goes off, stale, after the next key.
    pending_timer: Option<RequestId>,
}

impl Frames<'_> {
    /// Presses `key` `times` times as fast as a held key: each key's frame, and the frame of
    /// the previous key's timer going off after it.
    fn moving_fast(&mut self, times: usize, key: KeyEvent) -> Vec<Duration> {
        (0..times)
            .map(|_| {
                let cpu = thread_cpu_time();
                let cmd = update(self.model, Msg::Key(key));
                self.draw();
                // As the loop does: a frame only when the timer changed something.
                if let Some(stale) = self.pending_timer.take()
                    && update_noting_change(self.model, Msg::Timer(stale)).redraw
                {
                    self.draw();
                }
                self.pending_timer = timer_of(&cmd);
                thread_cpu_time().saturating_sub(cpu)
            })
            .collect()
    }

    /// Draws and sends a frame as the loop does.
    fn draw(&mut self) {
        let model = &*self.model;
        draw_frame(self.terminal, |frame| chrome::draw(frame, model)).expect("draw");
        self.terminal.backend_mut().writer_mut().clear();
    }
}

fn timer_of(cmd: &Cmd) -> Option<RequestId> {
    match cmd {
        Cmd::Timer { id, .. } => Some(*id),
        Cmd::Batch(cmds) => cmds.iter().find_map(timer_of),
        _ => None,
    }
}

fn plain(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn report(label: &str, costs: &[Duration]) {
    let mut sorted = costs.to_vec();
    sorted.sort();
    let mean = costs.iter().sum::<Duration>() / costs.len().max(1) as u32;
    println!(
        "  {label:<40} {:>4} keys  mean {}  median {}  worst {}",
        costs.len(),
        millis(mean),
        millis(sorted[sorted.len() / 2]),
        millis(sorted[sorted.len() - 1]),
    );
}

fn millis(duration: Duration) -> String {
    format!("{:.3} ms", duration.as_secs_f64() * 1000.0)
}

fn clock(id: libc::clockid_t) -> Duration {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only into `time`, a valid timespec on this stack frame.
    let status = unsafe { libc::clock_gettime(id, &mut time) };
    if status != 0 {
        return Duration::ZERO;
    }
    Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
}

fn thread_cpu_time() -> Duration {
    clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

fn process_cpu_time() -> Duration {
    clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}
