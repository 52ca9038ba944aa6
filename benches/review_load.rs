//! How long the review screen takes to be complete against a server 100 ms away
//! (`quire sandbox --latency-ms 100`), in milliseconds and in round trips.
//!
//! Run with `cargo bench --bench review_load`.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

use std::time::{Duration, Instant};

use quire::api::Client;
use quire::app::{Environment, Model, Size};
use quire::headless::Waves;
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
    let mut totals = Vec::new();
    for _ in 0..RUNS {
        totals.push(open_review(&client, &target).await);
    }
    totals.sort();
    let median = totals[totals.len() / 2];
    println!(
        "review complete (header, changes, 26 threads with replies, reviews, first diff): \
         median {} ms over {RUNS} runs = {:.1} round trips",
        median.as_millis(),
        median.as_secs_f64() / LATENCY.as_secs_f64()
    );
    sandbox.shutdown().await;
}

/// Opens the review the way the app does: the screen's first commands, executed in parallel;
/// then whatever those answers ask for, until the screen has its first page's diff.
async fn open_review(client: &Client, target: &ChangeRequestRef) -> Duration {
    let start = Instant::now();
    let mut model = Model::new(
        Screen::Review(Box::new(ReviewScreen::new(target.clone(), None))),
        Environment::default(),
        Size {
            width: 120,
            height: 40,
        },
    );
    let rounds = Waves::new(model.init())
        .until(&mut model, client, review_complete)
        .await
        .expect("the review completes");
    let elapsed = start.elapsed();
    println!(
        "  one run: {} ms, {rounds} waves of parallel calls",
        elapsed.as_millis()
    );
    elapsed
}

/// Header, changes, every thread with its replies, reviews, and the first page's diff.
fn review_complete(model: &Model) -> bool {
    let Screen::Review(screen) = model.top() else {
        return false;
    };
    screen.bundle.value().is_some()
        && screen.sides.value().is_some()
        && screen.threads().iter().all(|thread| thread.replies_loaded)
}
