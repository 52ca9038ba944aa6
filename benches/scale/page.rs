//! See main.rs. Memory and CPU of the big demo's 1 MB page (`demo_ids::PAGE_BIG_HUGE`, every
//! block type): fetched once from an in-process sandbox, then measured in a child process of
//! this bench, so the sandbox's own memory is not counted and the figures start from a clean
//! heap.

use std::io::Write as _;
use std::process::Command;
use std::time::{Duration, Instant};

use quire::api::{Client, ClientConfig, Token};
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::space::PREVIEW_BYTES;
use quire::ui::markdown::{MarkdownDoc, RenderOptions, highlight_worker, preview_source};
use quire::ui::theme::Theme;

/// Set in the child process: the path of the file holding the page's markdown.
const CHILD_ENV: &str = "QUIRE_BENCH_PAGE_MARKDOWN";

pub fn run() {
    if let Ok(path) = std::env::var(CHILD_ENV) {
        let markdown = std::fs::read_to_string(path).expect("markdown file");
        measure(&markdown);
        return;
    }
    let markdown = fetch_huge_page();
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    file.write_all(markdown.as_bytes()).expect("write markdown");
    drop(markdown);
    let status = Command::new(std::env::current_exe().expect("bench path"))
        .arg("page")
        .env(CHILD_ENV, file.path())
        .status()
        .expect("child bench");
    assert!(status.success(), "the page measurement failed");
}

fn fetch_huge_page() -> String {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let options = SandboxOptions {
            big: true,
            ..SandboxOptions::default()
        };
        let sandbox = Sandbox::start("127.0.0.1:0".parse().expect("address"), options)
            .await
            .expect("sandbox");
        let client = Client::new(ClientConfig::new(
            sandbox.base_url(),
            Token::new(tokens::ADMIN),
        ))
        .expect("client");
        let page = client
            .get_page_markdown(demo_ids::SPACE_BIG, demo_ids::PAGE_BIG_HUGE)
            .await
            .expect("the 1 MB page");
        sandbox.shutdown().await;
        page.markdown.unwrap_or_default()
    })
}

fn measure(markdown: &str) {
    let theme = Theme::default();
    println!(
        "page: the big demo's {} ({} bytes of markdown)",
        demo_ids::PAGE_BIG_HUGE,
        markdown.len()
    );
    let start = Memory::now();
    println!("  resident at start (markdown read):      {}", start.rss());

    // As the app does: code is coloured by `quire highlight-worker`, started at once.
    highlight_worker::use_worker_program(env!("CARGO_BIN_EXE_quire").into());
    highlight_worker::start_worker_early();
    let warmed = Memory::now();
    println!(
        "  + highlight worker started:             {} (+{})",
        warmed.rss(),
        warmed.rss_delta(&start)
    );

    let (plain, parse_time) = cpu_timed(|| MarkdownDoc::parse(markdown, &theme));
    let parsed = Memory::now();
    println!(
        "  + parsed:                               {} (+{}), {}",
        parsed.rss(),
        parsed.rss_delta(&warmed),
        ms(parse_time)
    );

    let (doc, highlight_time) = wall_timed(|| plain.highlighted(&theme, &RenderOptions::default()));
    let doc = std::sync::Arc::new(doc);
    drop(plain);
    let highlighted = Memory::now();
    println!(
        "  + highlighted (plain copy dropped):     {} (+{}), {} wall",
        highlighted.rss(),
        highlighted.rss_delta(&parsed),
        ms(highlight_time)
    );
    let (blocks, distinct) = code_blocks(markdown);
    println!(
        "  code blocks with a language: {blocks}, distinct: {distinct}; sent to the worker: {}",
        highlight_worker::blocks_sent()
    );
    if let Some(worker) = highlight_worker::worker_process_id().and_then(Memory::of_process) {
        println!(
            "  the highlight worker (a process of its own, gone {} s after the last page): peak {}, resident {}",
            highlight_worker::IDLE_EXIT.as_secs(),
            worker.peak(),
            worker.rss()
        );
    }

    let (layout_80, layout_80_time) = cpu_timed(|| doc.page_layout(80));
    let laid_80 = Memory::now();
    println!(
        "  + laid out at 80 columns:               {} (+{}), {}, {} rows",
        laid_80.rss(),
        laid_80.rss_delta(&highlighted),
        ms(layout_80_time),
        layout_80.len()
    );
    let (layout_200, layout_200_time) = cpu_timed(|| doc.page_layout(200));
    let laid_200 = Memory::now();
    println!(
        "  + laid out at 200 columns:              {} (+{}), {}, {} rows",
        laid_200.rss(),
        laid_200.rss_delta(&laid_80),
        ms(layout_200_time),
        layout_200.len()
    );
    println!(
        "  peak resident (VmHWM):                  {}",
        Memory::now().peak()
    );
    println!(
        "  structures: parsed page {}, layout at 80 {}, at 200 {}",
        bytes(doc.heap_bytes()),
        bytes(layout_80.heap_bytes()),
        bytes(layout_200.heap_bytes())
    );
    drop((layout_80, layout_200, doc));
    measure_preview(markdown, &theme);
}

/// What selecting the page costs its preview: cutting the start of the markdown, parsing it
/// and laying out the first screenful (a 200x50 terminal's preview: 129 columns, 45 rows);
/// beside the whole page's parse and layout it replaces.
fn measure_preview(markdown: &str, theme: &Theme) {
    const WIDTH: u16 = 129;
    const ROWS: usize = 45;
    let (rows, preview_time) = cpu_timed(|| {
        let start = preview_source(markdown, PREVIEW_BYTES).unwrap_or_default();
        MarkdownDoc::parse_preview(&start, theme)
            .page_layout_first(WIDTH, ROWS)
            .len()
    });
    let (_, whole_time) = cpu_timed(|| {
        MarkdownDoc::parse(markdown, theme)
            .page_layout_first(WIDTH, ROWS)
            .len()
    });
    println!(
        "  preview (start of the page, {rows} rows): {}; the whole page parsed instead: {}",
        ms(preview_time),
        ms(whole_time)
    );
}

/// The page's fenced code blocks with a language, and how many of them differ (by language
/// and text): what the worker would be sent without and with reuse of colours.
fn code_blocks(markdown: &str) -> (usize, usize) {
    use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let language = info.split_whitespace().next().unwrap_or("").to_string();
                open = Some((language, String::new()));
            }
            Event::Text(text) => {
                if let Some((_, code)) = open.as_mut() {
                    code.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(block) = open.take().filter(|(language, _)| !language.is_empty()) {
                    blocks.push(block);
                }
            }
            _ => {}
        }
    }
    let count = blocks.len();
    blocks.sort_unstable();
    blocks.dedup();
    (count, blocks.len())
}

fn bytes(count: usize) -> String {
    format!("{:.2} MB", count as f64 / (1024.0 * 1024.0))
}

/// The process's resident memory as /proc/self/status tells it, in kB.
pub struct Memory {
    pub rss_kb: u64,
    pub hwm_kb: u64,
}

impl Memory {
    pub fn now() -> Memory {
        Memory::of_process_status(&std::fs::read_to_string("/proc/self/status").unwrap_or_default())
    }

    fn of_process(pid: u32) -> Option<Memory> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        Some(Memory::of_process_status(&status))
    }

    fn of_process_status(status: &str) -> Memory {
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|kb| kb.parse().ok())
                .unwrap_or(0)
        };
        Memory {
            rss_kb: field("VmRSS:"),
            hwm_kb: field("VmHWM:"),
        }
    }

    pub fn rss(&self) -> String {
        megabytes(self.rss_kb)
    }

    pub fn peak(&self) -> String {
        megabytes(self.hwm_kb)
    }

    /// Starts the peak (VmHWM) again from the resident size now, so the next peak read is
    /// that of the work in between. False where the kernel does not offer it.
    pub fn reset_peak() -> bool {
        std::fs::write("/proc/self/clear_refs", "5").is_ok()
    }

    pub fn rss_delta(&self, before: &Memory) -> String {
        megabytes(self.rss_kb.saturating_sub(before.rss_kb))
    }
}

pub fn megabytes(kb: u64) -> String {
    format!("{:.1} MB", kb as f64 / 1024.0)
}

/// Runs `work` and returns its result with the CPU time the process spent on it (highlighting
/// runs on worker threads; nothing else runs in this process). The wall clock where the
/// system does not say.
pub fn cpu_timed<T>(work: impl FnOnce() -> T) -> (T, Duration) {
    let cpu_start = process_cpu_time();
    let wall_start = Instant::now();
    let result = work();
    let spent = match (cpu_start, process_cpu_time()) {
        (Some(start), Some(end)) => end.saturating_sub(start),
        _ => wall_start.elapsed(),
    };
    (result, spent)
}

fn process_cpu_time() -> Option<Duration> {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only into `time`, a valid timespec on this stack frame.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut time) };
    if status != 0 {
        return None;
    }
    Some(Duration::new(
        u64::try_from(time.tv_sec).ok()?,
        u32::try_from(time.tv_nsec).ok()?,
    ))
}

pub fn ms(duration: Duration) -> String {
    format!("{:.1} ms CPU", duration.as_secs_f64() * 1000.0)
}

/// Runs `work` and returns its result with the wall time it took: highlighting happens in the
/// worker process, whose CPU time this process's clock does not see.
fn wall_timed<T>(work: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let result = work();
    (result, start.elapsed())
}
