//! Per-key cost on the big demo's 10,000-page tree: what one key costs the loop, `update` plus
//! one frame drawn at 80x24 into a test backend, as the runtime draws after every key.
//!
//! Commands a key returns (the preview's page fetch) are not carried out, so the preview pane
//! shows its loading state and only the tree's own work is measured.

use std::time::{Duration, Instant};

use quire::app::view::chrome;
use quire::app::{Environment, Model, Msg, Size, update};
use quire::headless;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids};
use quire::screens::Screen;
use quire::screens::space::SpaceScreen;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

const WIDTH: u16 = 80;
const HEIGHT: u16 = 24;
/// Filters typed (one character at a time) and erased again with backspace: many matches,
/// few matches, a two-word match, one that matches nothing.
const QUERIES: [&str; 5] = ["e", "webhooks", "faq about quotas", "scaling", "zzzz"];

pub fn run() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let (mut model, sandbox) = runtime.block_on(open_big_space());
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("terminal");
    let mut bench = Bench {
        model: &mut model,
        terminal: &mut terminal,
    };
    println!(
        "tree: per key on the {}-page space, update + one {WIDTH}x{HEIGHT} frame \
         (thread CPU; wall in brackets).\n  \
         Keys that make the preview show or stop showing the 1 MB page are left out of median \
         and worst; their worst is shown apart (a cost of the preview, not of the tree).",
        demo_ids::BIG_PAGE_COUNT
    );

    let rows = bench.rows();
    bench.untimed(Msg::Key(plain(KeyCode::Char('g'))));
    let down = bench.timed(rows - 1, plain(KeyCode::Char('j')));
    report(&format!("collapsed ({rows} rows): j"), &down);
    bench.untimed(Msg::Key(plain(KeyCode::Char('g'))));
    let pages = bench.timed(rows / 10, plain(KeyCode::PageDown));
    report("collapsed: page-down", &pages);

    bench.untimed(Msg::Key(KeyEvent::new(
        KeyCode::Char('E'),
        KeyModifiers::SHIFT,
    )));
    bench.untimed(Msg::Key(plain(KeyCode::Char('g'))));
    let rows = bench.rows();
    let down = bench.timed(1_000, plain(KeyCode::Char('j')));
    report(&format!("fully expanded ({rows} rows): j"), &down);
    bench.untimed(Msg::Key(plain(KeyCode::Char('g'))));
    let pages = bench.timed(rows / usize::from(HEIGHT), plain(KeyCode::PageDown));
    report("fully expanded: page-down", &pages);

    let (mut typed, mut erased) = (Vec::new(), Vec::new());
    for query in QUERIES {
        bench.untimed(Msg::Key(plain(KeyCode::Char('/'))));
        for c in query.chars() {
            typed.extend(bench.timed(1, plain(KeyCode::Char(c))));
        }
        let characters = query.chars().count();
        erased.extend(bench.timed(characters, plain(KeyCode::Backspace)));
        bench.untimed(Msg::Key(plain(KeyCode::Esc)));
    }
    report("filter: typing a character", &typed);
    report("filter: backspace", &erased);

    runtime.block_on(sandbox.shutdown());
}

/// The big space loaded the way the app opens it (pages and the first preview).
async fn open_big_space() -> (Model, Sandbox) {
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
        Size {
            width: WIDTH,
            height: HEIGHT,
        },
    );
    headless::start(&mut model, &effects).await;
    (model, sandbox)
}

struct Bench<'a> {
    model: &'a mut Model,
    terminal: &'a mut Terminal<TestBackend>,
}

/// One key's cost: CPU time of this thread and wall time, and whether the preview started or
/// stopped showing the ~1 MB page, which lays it out or drops its layout: a cost of the
/// preview, not of the tree, so it is reported apart.
#[derive(Clone)]
struct Cost {
    cpu: Duration,
    wall: Duration,
    huge_preview: bool,
}

impl Bench<'_> {
    fn rows(&self) -> usize {
        match self.model.top() {
            Screen::Space(screen) => screen.visible_rows().len(),
            _ => panic!("not on the space screen"),
        }
    }

    fn previews_huge_page(&self) -> bool {
        match self.model.top() {
            Screen::Space(screen) => {
                (screen.reader.key.as_ref()).is_some_and(|key| key.page == demo_ids::PAGE_BIG_HUGE)
            }
            _ => false,
        }
    }

    fn untimed(&mut self, msg: Msg) {
        update(self.model, msg);
        self.draw();
    }

    /// Presses `key` `times` times, each followed by a frame, and measures each.
    fn timed(&mut self, times: usize, key: KeyEvent) -> Vec<Cost> {
        (0..times)
            .map(|_| {
                let before = self.previews_huge_page();
                let (cpu, wall) = (thread_cpu_time(), Instant::now());
                update(self.model, Msg::Key(key));
                self.draw();
                let (cpu, wall) = (thread_cpu_time().saturating_sub(cpu), wall.elapsed());
                Cost {
                    cpu,
                    wall,
                    huge_preview: before != self.previews_huge_page(),
                }
            })
            .collect()
    }

    fn draw(&mut self) {
        let model = &*self.model;
        self.terminal
            .draw(|frame| chrome::draw(frame, model))
            .expect("draw");
    }
}

fn plain(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn report(label: &str, costs: &[Cost]) {
    let median = |mut values: Vec<Duration>| {
        values.sort();
        (values[values.len() / 2], values[values.len() - 1])
    };
    let tree_only: Vec<&Cost> = costs.iter().filter(|c| !c.huge_preview).collect();
    let (cpu_median, cpu_worst) = median(tree_only.iter().map(|c| c.cpu).collect());
    let (wall_median, wall_worst) = median(tree_only.iter().map(|c| c.wall).collect());
    let huge = costs.iter().filter(|c| c.huge_preview).map(|c| c.cpu).max();
    let huge = huge.map_or_else(String::new, |cpu| {
        format!("  [+1 MB page preview: {}]", millis(cpu))
    });
    println!(
        "  {label:<34} {:>5} keys  median {} ({})  worst {} ({}){huge}",
        costs.len(),
        millis(cpu_median),
        millis(wall_median),
        millis(cpu_worst),
        millis(wall_worst),
    );
}

fn millis(duration: Duration) -> String {
    format!("{:.3} ms", duration.as_secs_f64() * 1000.0)
}

fn thread_cpu_time() -> Duration {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only into `time`, a valid timespec on this stack frame.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    if status != 0 {
        return Duration::ZERO;
    }
    Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
}
