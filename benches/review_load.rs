//! How long the review screen takes to show what the user reads against a server 100 ms away
//! (`quire sandbox --latency-ms 100`), in milliseconds and in round trips: the first screen
//! drawn (the review with its threads and the changed page's diff), the first thread with
//! replies showing them, and every reply loaded. Calls run as the terminal's loop runs them:
//! each its own task, each answer applied the moment it arrives.
//!
//! Run with `cargo bench --bench review_load`.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

use std::time::{Duration, Instant};

use quire::api::Client;
use quire::app::{Environment, Model, Size};
use quire::headless::Live;
use quire::sandbox::{SandboxOptions, demo_ids};
use quire::screens::Screen;
use quire::screens::change_requests::review::ReviewScreen;
use quire::vocabulary::change_requests::ChangeRequestRef;

const LATENCY: Duration = Duration::from_millis(100);
const RUNS: usize = 5;

fn main() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(measure());
}

struct Run {
    first_screen: Duration,
    first_replies: Duration,
    everything: Duration,
}

async fn measure() {
    let options = SandboxOptions {
        latency: LATENCY,
        ..SandboxOptions::default()
    };
    let (sandbox, client) = quire::headless::local_sandbox(options)
        .await
        .expect("sandbox");
    let target = ChangeRequestRef {
        space: demo_ids::SPACE_GETTING_STARTED.to_string(),
        change_request: demo_ids::CR_REVIEW.to_string(),
    };
    println!("server latency: {} ms per request", LATENCY.as_millis());
    let mut runs = Vec::new();
    for _ in 0..RUNS {
        runs.push(open_review(&client, &target).await);
    }
    report(
        "first screen (header, 26 threads, the changed page's diff)",
        &mut runs,
        |run| run.first_screen,
    );
    report("first thread with replies showing them", &mut runs, |run| {
        run.first_replies
    });
    report("every reply loaded", &mut runs, |run| run.everything);
    sandbox.shutdown().await;
}

fn report(what: &str, runs: &mut [Run], time: impl Fn(&Run) -> Duration) {
    runs.sort_by_key(&time);
    let median = time(&runs[runs.len() / 2]);
    println!(
        "review {what}: median {} ms over {RUNS} runs = {:.1} round trips (runs: {})",
        median.as_millis(),
        median.as_secs_f64() / LATENCY.as_secs_f64(),
        runs.iter()
            .map(|run| time(run).as_millis().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
}

/// Opens the review the way the app does and notes when each part is on screen.
async fn open_review(client: &Client, target: &ChangeRequestRef) -> Run {
    let mut model = Model::new(
        Screen::Review(Box::new(ReviewScreen::new(target.clone(), None))),
        Environment::default(),
        Size {
            width: 120,
            height: 40,
        },
    );
    let start = Instant::now();
    let mut live = Live::new(client);
    let first = model.init();
    let (mut screen_at, mut replies_at) = (None, None);
    let complete = live
        .run_until(&mut model, first, |model| {
            if screen_at.is_none() && first_screen(model) {
                screen_at = Some(start.elapsed());
            }
            if replies_at.is_none() && first_replies_shown(model) {
                replies_at = Some(start.elapsed());
            }
            every_reply_loaded(model) && screen_at.is_some()
        })
        .await;
    assert!(complete, "the review completes");
    let everything = start.elapsed();
    let run = Run {
        first_screen: screen_at.unwrap_or(everything),
        first_replies: replies_at.unwrap_or(everything),
        everything,
    };
    println!(
        "  one run: first screen {} ms, first replies {} ms, every reply {} ms",
        run.first_screen.as_millis(),
        run.first_replies.as_millis(),
        run.everything.as_millis()
    );
    run
}

fn review(model: &Model) -> Option<&ReviewScreen> {
    match model.top() {
        Screen::Review(screen) => Some(screen),
        _ => None,
    }
}

/// The header, the threads and the selected changed page's diff.
fn first_screen(model: &Model) -> bool {
    review(model)
        .is_some_and(|screen| screen.bundle.value().is_some() && screen.sides.value().is_some())
}

/// The topmost thread with replies shows them.
fn first_replies_shown(model: &Model) -> bool {
    review(model).is_some_and(|screen| {
        screen
            .threads()
            .iter()
            .find(|thread| thread.comment.replies.unwrap_or(0) > 0)
            .is_some_and(|thread| thread.replies_loaded)
    })
}

fn every_reply_loaded(model: &Model) -> bool {
    review(model).is_some_and(|screen| {
        !screen.bundle.is_loading()
            && screen.bundle.value().is_some()
            && screen.threads().iter().all(|thread| thread.replies_loaded)
    })
}
