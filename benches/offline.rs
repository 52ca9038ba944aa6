//! The cache on disk, measured: how long from launch until the organization list is on screen
//! from the cache, with the server 300 ms away (`quire --demo --demo-latency-ms 300`), against
//! waiting for the server; and how big the cache is after browsing the whole demo, and the big
//! demo of `--big` (every organization's tree, every space's page tree, every page).
//!
//! Run with `cargo bench --bench offline`.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use quire::api::Client;
use quire::api::cache::{Cache, DEFAULT_MAX_BYTES};
use quire::app::{ApiCall, ApiResponse, Cmd, Environment, Model, Msg, Size, update};
use quire::runtime::call_api;
use quire::sandbox::SandboxOptions;
use quire::screens::Screen;
use quire::screens::organizations::Organizations;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const LATENCY: Duration = Duration::from_millis(300);
const RUNS: usize = 7;

fn main() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(measure());
}

async fn measure() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    browse_into(&path, "the demo", SandboxOptions::default()).await;
    let big = SandboxOptions {
        big: true,
        ..SandboxOptions::default()
    };
    browse_into(&folder.path().join("big.sqlite"), "the big demo", big).await;

    let options = SandboxOptions {
        latency: LATENCY,
        ..SandboxOptions::default()
    };
    let (far, _) = quire::headless::local_sandbox(options)
        .await
        .expect("sandbox");
    println!("server latency: {} ms per request", LATENCY.as_millis());
    let mut cached = Vec::new();
    let mut network = Vec::new();
    for _ in 0..RUNS {
        cached.push(launch(&far.base_url(), &path, true).await);
        network.push(launch(&far.base_url(), &path, false).await);
    }
    println!(
        "launch to the organization list on screen: from the cache median {} ms, from the \
         server median {} ms, over {RUNS} runs",
        median(&mut cached).as_millis(),
        median(&mut network).as_millis()
    );
    far.shutdown().await;
}

/// Browses every corner of the sandbox `options` make with a cache at `path`, and says how big
/// the cache is then.
async fn browse_into(path: &Path, name: &str, options: SandboxOptions) {
    let (sandbox, browsing) = quire::headless::local_sandbox(options)
        .await
        .expect("sandbox");
    browsing.use_cache(Cache::open(path, DEFAULT_MAX_BYTES).expect("cache"));
    let (answers, pages) = browse_the_demo(&browsing).await;
    let info = browsing.cache().expect("cache").info().expect("info");
    println!(
        "cache after browsing {name} ({answers} answers, {pages} pages read): {} answers, \
         {:.1} MB of answers, {:.1} MB on disk",
        info.entries,
        info.body_bytes as f64 / 1e6,
        info.file_bytes as f64 / 1e6
    );
    drop(browsing);
    sandbox.shutdown().await;
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Reads what a user browsing every corner of the demo reads: the organizations, each one's
/// tree, each space's page tree and every page. The answers and pages read.
async fn browse_the_demo(client: &Client) -> (usize, usize) {
    let mut answers = 0;
    let mut pages = 0;
    let organizations = client
        .list_organizations(None)
        .await
        .expect("organizations");
    answers += 1;
    for organization in organizations.items {
        let tree = ApiCall::OrganizationTree {
            organization: organization.id.clone(),
        };
        let ApiResponse::OrganizationTree(Ok(tree)) =
            call_api(client, &quire::runtime::SendTurn::default(), tree).await
        else {
            continue;
        };
        answers += 1;
        for space in tree.spaces {
            let Ok(listed) = client.list_pages(&space.id).await else {
                continue;
            };
            answers += 1;
            for page in flatten(&listed) {
                if client.get_page_markdown(&space.id, &page).await.is_ok() {
                    pages += 1;
                }
            }
        }
    }
    (answers + pages, pages)
}

fn flatten(pages: &[quire::api::models::Page]) -> Vec<String> {
    let mut ids = Vec::new();
    for page in pages {
        ids.push(page.id.clone());
        ids.extend(flatten(&page.pages));
    }
    ids
}

/// One launch: the cache opened, the first screen asks for the organizations, the answer (from
/// the cache, or the server's) goes through `update` and the frame is drawn. Until the list
/// is on screen.
async fn launch(base_url: &str, cache_path: &Path, from_cache: bool) -> Duration {
    let start = Instant::now();
    let client = Client::new(quire::api::ClientConfig::new(
        base_url,
        quire::api::Token::new(quire::sandbox::tokens::ADMIN),
    ))
    .expect("client");
    client.use_cache(Cache::open(cache_path, DEFAULT_MAX_BYTES).expect("cache"));
    let size = Size {
        width: 80,
        height: 24,
    };
    let mut model = Model::new(
        Screen::Organizations(Organizations::default()),
        Environment::default(),
        size,
    );
    let Cmd::Api { request, call } = model.init() else {
        panic!("the organizations screen asks for its list");
    };
    let msg = if from_cache {
        let (cache_only, record) = client.cache_only();
        let response = call_api(&cache_only, &quire::runtime::SendTurn::default(), call).await;
        Msg::FromCache {
            request,
            response,
            as_of: record.as_of().unwrap_or(SystemTime::now()),
            revalidating: true,
        }
    } else {
        let response = call_api(&client, &quire::runtime::SendTurn::default(), call).await;
        Msg::Api { request, response }
    };
    update(&mut model, msg);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("terminal");
    terminal
        .draw(|frame| quire::app::view::chrome::draw(frame, &model))
        .expect("draw");
    let elapsed = start.elapsed();
    let screen = terminal.backend().to_string();
    assert!(screen.contains("Acme Robotics"), "{screen}");
    elapsed
}
