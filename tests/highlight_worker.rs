//! Code is coloured in a `quire highlight-worker` process: quire itself never reads the syntax
//! set or compiles a grammar, and the worker goes away when idle. (The real binary, as the app
//! starts it; `tests/highlight_worker_stuck.rs` covers a worker that stops answering.)

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]
#[path = "common/processes.rs"]
#[allow(dead_code)]
mod processes;
#[path = "common/wait.rs"]
#[allow(dead_code)]
mod wait;

use std::path::PathBuf;

use quire::ui::markdown::{MarkdownDoc, RenderOptions, highlight_worker, syntax_set_in_memory};
use quire::ui::theme::Theme;

const QUICKSTART: &str = include_str!("../crates/sandbox/src/demo/pages/quickstart.md");

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

/// Whether `pid` is still a process of ours, running or a zombie not yet waited for.
fn is_child(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn code_is_coloured_by_the_worker_and_quire_reads_no_grammar() {
    highlight_worker::use_worker_program(PathBuf::from(env!("CARGO_BIN_EXE_quire")));
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
    wait::wait_until_polled(wait::PATIENCE, || !is_child(worker));
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
