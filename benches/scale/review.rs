//! See main.rs. The 2,000-thread change request (500 threads with replies) over a sandbox
//! 100 ms away, driven as the runtime drives it: every call runs as its own task and its answer
//! is applied the moment it arrives. Reported: time and round trips until the topmost thread
//! with replies shows them, until every reply is loaded; the most requests the server had in
//! flight at once; the connections it accepted.

use std::time::{Duration, Instant};

use quire::api::{Client, ClientConfig, Token};
use quire::app::{Cmd, Environment, Model, Msg, Size, update};
use quire::runtime::call_api;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::review::ReviewScreen;
use quire::vocabulary::change_requests::ChangeRequestRef;
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

const LATENCY: Duration = Duration::from_millis(100);
const RUNS: usize = 3;

pub fn run() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(measure());
}

struct Run {
    first_thread: Duration,
    everything: Duration,
    max_in_flight: usize,
    connections: usize,
    requests: usize,
}

async fn measure() {
    let options = SandboxOptions {
        latency: LATENCY,
        big: true,
        ..SandboxOptions::default()
    };
    let sandbox = Sandbox::start("127.0.0.1:0".parse().expect("address"), options)
        .await
        .expect("sandbox");
    println!(
        "review: change request with {} threads, server {} ms away",
        demo_ids::CR_BIG_THREAD_COUNT,
        LATENCY.as_millis()
    );
    let mut runs = Vec::new();
    for _ in 0..RUNS {
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
            "  one run: first thread usable {} ms, all loaded {} ms, {} requests, \
             max {} in flight, {} connections",
            run.first_thread.as_millis(),
            run.everything.as_millis(),
            run.requests,
            run.max_in_flight,
            run.connections
        );
        runs.push(run);
    }
    runs.sort_by_key(|run| run.first_thread);
    let first = runs[runs.len() / 2].first_thread;
    runs.sort_by_key(|run| run.everything);
    let median = &runs[runs.len() / 2];
    let round_trips = |time: Duration| time.as_secs_f64() / LATENCY.as_secs_f64();
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
    let start = Instant::now();
    let (sender, mut answers) = unbounded_channel();
    let mut in_flight = spawn_calls(client, model.init(), &sender);
    let mut first_thread = None;
    while in_flight > 0 {
        let Some((request, response)) = answers.recv().await else {
            break;
        };
        in_flight -= 1;
        let cmd = update(&mut model, Msg::Api { request, response });
        in_flight += spawn_calls(client, cmd, &sender);
        if first_thread.is_none() && first_replied_thread_usable(&model) {
            first_thread = Some(start.elapsed());
        }
    }
    let everything = start.elapsed();
    let Screen::Review(screen) = model.top() else {
        unreachable!("the review screen stays on top")
    };
    assert!(screen.threads().iter().all(|thread| thread.replies_loaded));
    Run {
        first_thread: first_thread.unwrap_or(everything),
        everything,
        max_in_flight: 0,
        connections: 0,
        requests: 0,
    }
}

/// Runs every API call of `cmd` as its own task, as the runtime does; returns how many.
fn spawn_calls(
    client: &Client,
    cmd: Cmd,
    sender: &UnboundedSender<(quire::app::RequestId, quire::app::ApiResponse)>,
) -> usize {
    let calls = cmd.api_calls();
    let count = calls.len();
    for (request, call) in calls {
        let client = client.clone();
        let sender = sender.clone();
        tokio::spawn(async move {
            let response = call_api(&client, &quire::runtime::SendTurn::default(), call).await;
            let _ = sender.send((request, response));
        });
    }
    count
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
