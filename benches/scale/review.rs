//! See main.rs. The 2,000-thread change request (500 threads with replies) over a sandbox
//! 100 ms away, driven as the runtime drives it: every call runs as its own task through the
//! runtime's executor and each answer (a review's opening too) is applied the moment it
//! arrives. Reported: time and round trips until the first screen is drawn (the review with its
//! first threads and the changed page's diff), until the topmost thread with replies shows
//! them, until every reply is loaded; the most requests the server had in flight at once; the
//! connections it accepted.

use std::time::{Duration, Instant};

use quire::api::{Client, ClientConfig, Token};
use quire::app::{Environment, Model, Size};
use quire::headless::Live;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::review::ReviewScreen;
use quire::vocabulary::change_requests::ChangeRequestRef;

const LATENCY: Duration = Duration::from_millis(100);
const RUNS: usize = 3;

/// Runs to take the median of: 3, or `QUIRE_BENCH_RUNS`.
fn run_count() -> usize {
    std::env::var("QUIRE_BENCH_RUNS")
        .ok()
        .and_then(|runs| runs.parse().ok())
        .filter(|runs| *runs > 0)
        .unwrap_or(RUNS)
}

/// The server's distance: 100 ms, or `QUIRE_BENCH_LATENCY_MS` (1 leaves mostly the CPU work
/// between the click and the screen, which a busy machine's noise hides at 100 ms).
fn latency() -> Duration {
    std::env::var("QUIRE_BENCH_LATENCY_MS")
        .ok()
        .and_then(|millis| millis.parse().ok())
        .map_or(LATENCY, Duration::from_millis)
}

pub fn run() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(measure());
}

struct Run {
    first_screen: Duration,
    first_thread: Duration,
    everything: Duration,
    max_in_flight: usize,
    connections: usize,
    requests: usize,
}

async fn measure() {
    let latency = latency();
    let options = SandboxOptions {
        latency,
        big: true,
        ..SandboxOptions::default()
    };
    let sandbox = Sandbox::start("127.0.0.1:0".parse().expect("address"), options)
        .await
        .expect("sandbox");
    println!(
        "review: change request with {} threads, server {} ms away",
        demo_ids::CR_BIG_THREAD_COUNT,
        latency.as_millis()
    );
    let mut runs = Vec::new();
    for _ in 0..run_count() {
        // A fresh client per run: connections opened are counted from a cold start.
        let client = Client::new(ClientConfig::new(
            sandbox.base_url(),
            Token::new(tokens::ADMIN),
        ))
        .expect("client");
        sandbox.reset_load();
        let before = sandbox.requests("GET", "*");
        let mut run = open_big_review(&client).await;
        run.max_in_flight = sandbox.max_requests_in_flight();
        run.connections = sandbox.connections_accepted();
        run.requests = sandbox.requests("GET", "*") - before;
        println!(
            "  one run: first screen {} ms, first thread usable {} ms, all loaded {} ms, \
             {} requests, max {} in flight, {} connections",
            run.first_screen.as_millis(),
            run.first_thread.as_millis(),
            run.everything.as_millis(),
            run.requests,
            run.max_in_flight,
            run.connections
        );
        runs.push(run);
    }
    runs.sort_by_key(|run| run.first_screen);
    let screen = runs[runs.len() / 2].first_screen;
    runs.sort_by_key(|run| run.first_thread);
    let first = runs[runs.len() / 2].first_thread;
    runs.sort_by_key(|run| run.everything);
    let median = &runs[runs.len() / 2];
    let round_trips = |time: Duration| time.as_secs_f64() / latency.as_secs_f64();
    println!(
        "review: first screen (threads and the changed page's diff): median {} ms = {:.1} round trips",
        screen.as_millis(),
        round_trips(screen)
    );
    println!(
        "review: first thread and its replies usable: median {} ms = {:.1} round trips",
        first.as_millis(),
        round_trips(first)
    );
    println!(
        "review: every reply loaded: median {} ms = {:.1} round trips",
        median.everything.as_millis(),
        round_trips(median.everything)
    );
    println!(
        "review: most requests in flight {}, connections opened {}, requests {}",
        runs.iter().map(|run| run.max_in_flight).max().unwrap_or(0),
        runs.iter().map(|run| run.connections).max().unwrap_or(0),
        median.requests
    );
    sandbox.shutdown().await;
}

async fn open_big_review(client: &Client) -> Run {
    let target = ChangeRequestRef {
        space: demo_ids::SPACE_BIG.to_string(),
        change_request: demo_ids::CR_BIG.to_string(),
    };
    let mut model = Model::new(
        Screen::Review(Box::new(ReviewScreen::new(target, None))),
        Environment::default(),
        Size {
            width: 80,
            height: 24,
        },
    );
    // For profiling the opening alone: each run stops once the first thread is usable.
    let first_only = std::env::var_os("QUIRE_BENCH_FIRST_ONLY").is_some();
    let start = Instant::now();
    let mut live = Live::new(client);
    let first = model.init();
    let (mut screen_at, mut replies_at) = (None, None);
    let complete = live
        .run_until(&mut model, first, |model| {
            if screen_at.is_none() && first_screen(model) {
                screen_at = Some(start.elapsed());
            }
            if replies_at.is_none() && first_replied_thread_usable(model) {
                replies_at = Some(start.elapsed());
            }
            every_reply_loaded(model) || (first_only && replies_at.is_some())
        })
        .await;
    assert!(complete, "every reply loads");
    let everything = start.elapsed();
    Run {
        first_screen: screen_at.unwrap_or(everything),
        first_thread: replies_at.unwrap_or(everything),
        everything,
        max_in_flight: 0,
        connections: 0,
        requests: 0,
    }
}

/// The review with its threads and the selected changed page's diff.
fn first_screen(model: &Model) -> bool {
    let Screen::Review(screen) = model.top() else {
        return false;
    };
    screen.bundle.value().is_some() && screen.sides.value().is_some()
}

/// Every thread of the whole review (not only its opening) has its replies.
fn every_reply_loaded(model: &Model) -> bool {
    let Screen::Review(screen) = model.top() else {
        return false;
    };
    !screen.bundle.is_loading()
        && screen.bundle.value().is_some()
        && screen.threads().iter().all(|thread| thread.replies_loaded)
}

/// The topmost thread with replies (threads come newest first) shows them.
fn first_replied_thread_usable(model: &Model) -> bool {
    let Screen::Review(screen) = model.top() else {
        return false;
    };
    screen
        .threads()
        .iter()
        .find(|thread| thread.comment.replies.unwrap_or(0) > 0)
        .is_some_and(|thread| thread.replies_loaded)
}
