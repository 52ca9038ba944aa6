//! The worker process holds one language's grammars at a time: colouring TypeScript compiles
//! ~5 MB of regexes, and a block in another language afterwards hands them back (kept, Rust's
//! would come on top of them). Spoken to
//! as quire speaks to it, one JSON request per line, and measured from `/proc`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const QUICKSTART: &str = include_str!("../../crates/sandbox/src/demo/pages/quickstart.md");

/// The lines of the Quickstart's first block in `language`.
fn quickstart_block(language: &str) -> Vec<String> {
    let fence = format!("```{language}");
    QUICKSTART
        .lines()
        .skip_while(|line| line.trim() != fence)
        .skip(1)
        .take_while(|line| !line.starts_with("```"))
        .map(str::to_string)
        .collect()
}

/// Anonymous memory (heap) of `pid` in kB.
fn anonymous_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("RssAnon:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("RssAnon")
}

#[test]
fn a_block_in_another_language_hands_back_the_grammars_of_the_last() {
    let mut worker = Command::new(env!("CARGO_BIN_EXE_quire"))
        .arg("highlight-worker")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the worker starts");
    let pid = worker.id();
    let mut requests = worker.stdin.take().expect("stdin");
    let mut replies = BufReader::new(worker.stdout.take().expect("stdout")).lines();
    let mut colour = |language: &str| {
        // What quire sends for the first block of a language: ten 50 ms budgets.
        let request = serde_json::json!({
            "language": language,
            "lines": quickstart_block(language),
            "budget_us": 500_000,
            "idle_exit_ms": 60_000,
        });
        writeln!(requests, "{request}").expect("request sent");
        let reply = replies.next().expect("a reply").expect("a line");
        let reply: serde_json::Value = serde_json::from_str(&reply).expect("JSON");
        assert!(reply["lines"].is_array(), "{language} came back plain");
        anonymous_kb(pid)
    };
    let with_typescript = colour("typescript");
    let with_rust = colour("rust");
    assert!(
        with_rust + 2 * 1024 < with_typescript,
        "TypeScript's grammars are handed back: {with_typescript} kB with them, {with_rust} kB after a Rust block"
    );
    let _ = worker.kill();
    let _ = worker.wait();
}
