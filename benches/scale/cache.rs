//! See main.rs. What keeping the big demo's page tree answer (`GET .../content/pages` of the
//! 10,000-page space, about 7 MB) in the cache costs: the answer is fetched once from an
//! in-process sandbox through a client with a cache, as the app fetches it, then stored and
//! read again in a child process of this bench, whose peak counts nothing else.

use std::io::Write as _;
use std::process::Command;

use quire::api::cache::{Cache, DEFAULT_MAX_BYTES, key_for};
use quire::api::{Client, ClientConfig, Token};
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};

use super::page::{Memory, cpu_timed, megabytes, ms};

/// Set in the child process: the path of the file holding the answer's body.
const CHILD_ENV: &str = "QUIRE_BENCH_CACHE_BODY";

pub fn run() {
    if let Ok(path) = std::env::var(CHILD_ENV) {
        let body = std::fs::read(path).expect("body file");
        measure(&body);
        return;
    }
    let body = fetch_page_tree_answer();
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    file.write_all(&body).expect("write body");
    drop(body);
    let status = Command::new(std::env::current_exe().expect("bench path"))
        .arg("cache")
        .env(CHILD_ENV, file.path())
        .status()
        .expect("child bench");
    assert!(status.success(), "the cache measurement failed");
}

fn tree_key() -> String {
    key_for(
        &format!("/spaces/{}/content/pages", demo_ids::SPACE_BIG),
        &[],
    )
}

/// The page tree's answer as the server sent it: read by a client with a cache, then taken
/// back out of that cache.
fn fetch_page_tree_answer() -> Vec<u8> {
    let folder = tempfile::tempdir().expect("temp dir");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let cache_path = folder.path().join("fetch.sqlite");
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
        client.use_cache(Cache::open(&cache_path, DEFAULT_MAX_BYTES).expect("cache"));
        let pages = client
            .list_pages(demo_ids::SPACE_BIG)
            .await
            .expect("the page tree");
        assert!(!pages.is_empty(), "the big space has pages");
        sandbox.shutdown().await;
    });
    let cache = Cache::open(&cache_path, DEFAULT_MAX_BYTES).expect("cache");
    cache
        .get(&tree_key())
        .expect("the tree's answer was kept")
        .body
}

fn measure(body: &[u8]) {
    println!(
        "cache: the {}-page tree's answer ({:.2} MB) kept in a new cache file",
        demo_ids::BIG_PAGE_COUNT,
        body.len() as f64 / (1024.0 * 1024.0)
    );
    let folder = tempfile::tempdir().expect("temp dir");
    let path = folder.path().join("cache.sqlite");
    let cache = Cache::open(&path, DEFAULT_MAX_BYTES).expect("cache");
    let key = tree_key();

    let (_, put_time) = measured("stored", || cache.put(&key, body).expect("put"));
    let size = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        std::fs::metadata(name).map_or(0, |meta| meta.len())
    };
    println!(
        "  {}; on disk after: database {}, write-ahead log {}",
        ms(put_time),
        megabytes(size("") / 1024),
        megabytes(size("-wal") / 1024)
    );

    let (found, get_time) = measured("read back", || cache.get(&key).expect("get"));
    assert!(found.body == body, "the answer read back differs");
    println!("  {}", ms(get_time));
}

/// Runs `work`, printing how far above the resident size before it the process's peak went
/// and the most SQLite's own allocations held at once; the result and the CPU time spent.
fn measured<T>(what: &str, work: impl FnOnce() -> T) -> (T, std::time::Duration) {
    let peak_reset = Memory::reset_peak();
    let before = Memory::now();
    // SAFETY: reads (and restarts) SQLite's memory statistics, which it keeps thread-safely.
    let sqlite_before = unsafe { rusqlite::ffi::sqlite3_memory_highwater(1) };
    let (result, time) = cpu_timed(work);
    // SAFETY: as above.
    let sqlite_peak = unsafe { rusqlite::ffi::sqlite3_memory_highwater(0) };
    let after = Memory::now();
    let above = if peak_reset {
        megabytes(after.hwm_kb.saturating_sub(before.rss_kb))
    } else {
        "not measured (no /proc/self/clear_refs)".to_string()
    };
    println!(
        "  {what}: peak {above} above the resident size before, SQLite's allocations at most {} \
         above theirs",
        megabytes(u64::try_from(sqlite_peak - sqlite_before).unwrap_or(0) / 1024)
    );
    (result, time)
}
