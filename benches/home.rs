//! Home against a server 100 ms away (`quire sandbox --latency-ms 100`), as the demo reviewer
//! in the demo's two organizations: when its first section shows (the first organization's
//! answer to it, and both organizations'), when every section is in, and how many requests an
//! idle Home sends per refresh and per hour at the default watch intervals.
//!
//! Run with `cargo bench --bench home`.

// A failed unwrap in a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use quire::api::home::{HomeEvent, default_sections, gather};
use quire::api::{Client, ClientConfig, Token};
use quire::sandbox::{Sandbox, SandboxOptions, tokens};
use quire::vocabulary::watch::{DEFAULT_INTERVAL_SECS, DEFAULT_UNFOCUSED_INTERVAL_SECS};
use tokio::sync::mpsc::unbounded_channel;

const LATENCY: Duration = Duration::from_millis(100);
const RUNS: usize = 5;

/// When one gathering's answers arrived, from its start.
struct Timings {
    first_rows: Duration,
    first_section_whole: Duration,
    every_section: Duration,
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(measure());
}

async fn measure() {
    let options = SandboxOptions {
        latency: LATENCY,
        ..SandboxOptions::default()
    };
    let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    let sandbox = Sandbox::start(loopback, options).await.expect("sandbox");
    println!("server latency: {} ms per request", LATENCY.as_millis());
    let mut runs = Vec::new();
    for _ in 0..RUNS {
        // A new client each time: a quire starting, with no connection open yet.
        let client = Client::new(ClientConfig::new(
            sandbox.base_url(),
            Token::new(tokens::REVIEWER),
        ))
        .expect("client");
        runs.push(gather_once(&client).await);
    }
    let median = |pick: fn(&Timings) -> Duration| {
        let mut all: Vec<Duration> = runs.iter().map(pick).collect();
        all.sort();
        all[all.len() / 2]
    };
    let say = |what: &str, took: Duration| {
        println!(
            "{what}: median {} ms over {RUNS} runs = {:.1} round trips",
            took.as_millis(),
            took.as_secs_f64() / LATENCY.as_secs_f64()
        );
    };
    say(
        "first section's first rows (\"Review requested from me\", one organization)",
        median(|t| t.first_rows),
    );
    say(
        "first section whole (both organizations)",
        median(|t| t.first_section_whole),
    );
    say("every section", median(|t| t.every_section));
    requests_per_hour(&sandbox).await;
    sandbox.shutdown().await;
}

async fn gather_once(client: &Client) -> Timings {
    let sections = default_sections();
    let (sender, mut events) = unbounded_channel();
    let start = Instant::now();
    let gathering = gather(client, &sections, sender);
    let watching = async {
        let mut expected = 0;
        let mut answered = 0;
        let mut first_rows = None;
        let mut first_section_whole = None;
        while let Some(event) = events.recv().await {
            match event {
                HomeEvent::Started { expected: each, .. } => expected = each[0],
                HomeEvent::Answer { section: 0, .. } | HomeEvent::NotFound { section: 0, .. } => {
                    answered += 1;
                    first_rows.get_or_insert_with(|| start.elapsed());
                    if answered == expected {
                        first_section_whole = Some(start.elapsed());
                    }
                }
                HomeEvent::Failed(error) => panic!("Home failed: {error}"),
                _ => {}
            }
        }
        (first_rows, first_section_whole)
    };
    let ((), (first_rows, first_section_whole)) = tokio::join!(gathering, watching);
    Timings {
        first_rows: first_rows.expect("the first section answered"),
        first_section_whole: first_section_whole.expect("the first section completed"),
        every_section: start.elapsed(),
    }
}

/// One idle refresh is one gathering (no change request moved, so no look follows it).
async fn requests_per_hour(sandbox: &Sandbox) {
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::REVIEWER),
    ))
    .expect("client");
    let count = || sandbox.request_counts().values().sum::<usize>();
    let before = count();
    gather_once(&client).await;
    let per_refresh = count() - before;
    let per_hour = |interval: u64| per_refresh as u64 * 3600 / interval;
    println!(
        "idle Home: {per_refresh} requests per refresh; {} an hour at the default \
         watch_interval_secs ({DEFAULT_INTERVAL_SECS} s), {} an hour out of focus \
         (watch_unfocused_interval_secs, {DEFAULT_UNFOCUSED_INTERVAL_SECS} s)",
        per_hour(DEFAULT_INTERVAL_SECS),
        per_hour(DEFAULT_UNFOCUSED_INTERVAL_SECS),
    );
}
