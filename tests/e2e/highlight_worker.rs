//! Code is coloured in a `quire highlight-worker` process: quire itself never reads the syntax
//! set or compiles a grammar, each distinct code block reaches the worker once, and the worker
//! goes away when idle. (The real binary, as the app starts it, counted at the pipe; the
//! `quire-ui` crate's `highlight_worker_stuck` test covers a worker that stops answering.)
//!
//! One worker serves the whole process and quitting stops it for good, so the steps run in
//! one test, in order; no other test of this crate colours code in its own process.

use std::path::PathBuf;

use quire::ui::markdown::{MarkdownDoc, RenderOptions, highlight_worker, syntax_set_in_memory};
use quire::ui::theme::Theme;

use crate::common::{processes, wait};

const QUICKSTART: &str = include_str!("../../crates/sandbox/src/demo/pages/quickstart.md");

/// Runs of text in a distinct style: highlighting splits code lines into many.
fn styled_runs(doc: &MarkdownDoc) -> usize {
    doc.layout(80)
        .lines
        .iter()
        .map(|line| line.spans.len())
        .sum()
}

fn process_exists(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        // A zombie (state Z) has exited.
        .is_ok_and(|stat| {
            !stat
                .split(") ")
                .nth(1)
                .is_some_and(|rest| rest.starts_with('Z'))
        })
}

/// A fenced block; `marker` makes its first line findable in a layout.
fn block(language: &str, marker: &str) -> String {
    format!("```{language}\nlet {marker} = compute(1, \"two\"); // three\n```\n\n")
}

/// How many styled runs each row showing `marker` has, one entry per row.
fn runs_of_rows_with(doc: &MarkdownDoc, marker: &str) -> Vec<usize> {
    doc.layout(80)
        .lines
        .iter()
        .filter(|line| line.spans.iter().any(|span| span.content.contains(marker)))
        .map(|line| line.spans.len())
        .collect()
}

fn colour(markdown: &str, complete: bool) -> MarkdownDoc {
    let theme = Theme::default();
    let plain = if complete {
        MarkdownDoc::parse(markdown, &theme)
    } else {
        MarkdownDoc::parse_preview(markdown, &theme)
    };
    plain.highlighted(&theme, &RenderOptions::default())
}

/// Whether `pid` is still a process of ours, running or a zombie not yet waited for.
fn is_child(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn code_is_coloured_by_a_worker_once_per_distinct_block_and_the_worker_leaves_when_idle() {
    highlight_worker::use_worker_program(PathBuf::from(env!("CARGO_BIN_EXE_quire")));
    each_distinct_block_reaches_the_worker_once_and_every_copy_is_coloured();
    code_is_coloured_by_the_worker_and_quire_reads_no_grammar_and_the_worker_leaves_when_idle();
}

fn code_is_coloured_by_the_worker_and_quire_reads_no_grammar_and_the_worker_leaves_when_idle() {
    let theme = Theme::default();
    let plain = MarkdownDoc::parse(QUICKSTART, &theme);
    let coloured = plain.highlighted(&theme, &RenderOptions::default());

    assert!(
        styled_runs(&coloured) > styled_runs(&plain) + 50,
        "the Quickstart's code came back coloured: {} runs, plain {}",
        styled_runs(&coloured),
        styled_runs(&plain)
    );
    assert!(
        !syntax_set_in_memory(),
        "quire itself never read the syntax set"
    );
    let worker = highlight_worker::worker_process_id().expect("a worker runs");
    assert!(process_exists(worker));

    // Idle, the worker exits and takes its grammars with it; and it is waited for at once,
    // not left a zombie until the next page with code.
    processes::wait_for_exit(worker, highlight_worker::IDLE_EXIT + wait::PATIENCE);
    highlight_worker::wait_until_reaped(worker, wait::PATIENCE);
    assert!(!process_exists(worker), "the idle worker exited");
    assert!(!is_child(worker), "the idle worker was waited for");

    // The next page with a block not coloured before starts a new one; the blocks it shares
    // with the Quickstart keep the colours they were given.
    let next_page = format!("{QUICKSTART}\n```rust\nfn not_seen_before() -> u8 {{ 7 }}\n```\n");
    let again =
        MarkdownDoc::parse(&next_page, &theme).highlighted(&theme, &RenderOptions::default());
    assert!(styled_runs(&again) > styled_runs(&coloured));
    let second = highlight_worker::worker_process_id().expect("a new worker");
    assert_ne!(second, worker);

    highlight_worker::stop_worker();
    assert!(!process_exists(second), "quitting stops the worker");
}

fn each_distinct_block_reaches_the_worker_once_and_every_copy_is_coloured() {
    let mut page = String::from("# Repeated code\n\n");
    for copy in 0..25 {
        page.push_str(&format!("Step {copy}.\n\n"));
        page.push_str(&block("rust", "alpha"));
        page.push_str(&block("python", "beta"));
        page.push_str(&block("rust", "gamma"));
    }
    let plain_runs = runs_of_rows_with(&MarkdownDoc::parse(&page, &Theme::default()), "alpha");
    let sent_before = highlight_worker::blocks_sent();
    let coloured = colour(&page, true);
    assert_eq!(
        highlight_worker::blocks_sent() - sent_before,
        3,
        "75 blocks, 3 distinct"
    );
    for marker in ["alpha", "beta", "gamma"] {
        let runs = runs_of_rows_with(&coloured, marker);
        assert_eq!(runs.len(), 25, "{marker}: {runs:?}");
        assert!(
            runs.iter()
                .all(|count| *count == runs[0] && *count > plain_runs[0]),
            "every copy of {marker} is coloured like the first: {runs:?}"
        );
    }

    // A preview of the start of another page, then that page: the page sends only what the
    // preview did not colour, and its copies of the preview's blocks come coloured too.
    let start = format!(
        "# Next\n\n{}{}",
        block("go", "delta"),
        block("sh", "epsilon")
    );
    let whole = format!("{start}{}{}", block("go", "zeta"), block("go", "delta"));
    let sent_before = highlight_worker::blocks_sent();
    let preview = colour(&start, false);
    assert_eq!(highlight_worker::blocks_sent() - sent_before, 2);
    let opened = colour(&whole, true);
    assert_eq!(
        highlight_worker::blocks_sent() - sent_before,
        3,
        "opening the page sent its one new block"
    );
    let delta = runs_of_rows_with(&opened, "delta");
    assert_eq!(delta.len(), 2);
    assert_eq!(delta, [runs_of_rows_with(&preview, "delta")[0]; 2]);
    assert!(runs_of_rows_with(&opened, "zeta")[0] > 1);
}
