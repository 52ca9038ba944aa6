//! Which pings were told, kept in the cache's database: two quire processes on one account
//! (two tmux windows) each look at the change requests they watch, and the first to claim an
//! event tells it; the other stays silent. Without a cache each process keeps its own record
//! (see the screen's `Pings`), so each rings once.

use std::time::SystemTime;

use super::super::client::Client;
use super::super::database::{CacheError, Database, to_millis};

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS told_pings (
    change_request TEXT NOT NULL,
    event TEXT NOT NULL,
    told_at_ms INTEGER NOT NULL,
    PRIMARY KEY (change_request, event)
);";

/// How long a told event is remembered: a look only ever reports events newer than the
/// previous look, so a month is far more than any gap between two looks.
const KEPT_FOR_MS: i64 = 30 * 24 * 60 * 60 * 1000;

/// True when this process is the first to tell `event` of `change_request` (space and id),
/// which is then recorded; false when another process (or this one) told it already.
pub fn claim(
    database: &Database,
    change_request: &str,
    event: &str,
    now_ms: i64,
) -> Result<bool, CacheError> {
    let connection = database.lock()?;
    let failed = |error: rusqlite::Error| database.failed(error);
    connection.execute_batch(SCHEMA).map_err(failed)?;
    connection
        .execute(
            "DELETE FROM told_pings WHERE told_at_ms < ?1",
            [now_ms - KEPT_FOR_MS],
        )
        .map_err(failed)?;
    let inserted = connection
        .execute(
            "INSERT OR IGNORE INTO told_pings (change_request, event, told_at_ms) \
             VALUES (?1, ?2, ?3)",
            rusqlite::params![change_request, event, now_ms],
        )
        .map_err(failed)?;
    Ok(inserted == 1)
}

impl Client {
    /// Claims the telling of each of `events` (ids) of the change request `id` in `space`:
    /// the ones this process is first to claim. Without a cache, or when its file cannot be
    /// used, every event is this process's to tell (ringing twice beats never ringing).
    pub async fn claim_pings(&self, space: &str, id: &str, events: Vec<String>) -> Vec<String> {
        let Some(cache) = self.cache() else {
            return events;
        };
        let database = cache.database();
        let change_request = format!("{space}/{id}");
        let claiming = tokio::task::spawn_blocking(move || {
            let now_ms = to_millis(SystemTime::now());
            events
                .into_iter()
                .filter(|event| {
                    claim(&database, &change_request, event, now_ms).unwrap_or_else(|error| {
                        tracing::warn!(%error, "a told ping could not be recorded");
                        true
                    })
                })
                .collect::<Vec<_>>()
        });
        claiming.await.unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, Write};
    use std::path::Path;
    use std::process::{Command, Stdio};

    use super::claim;
    use crate::cache::{Cache, DEFAULT_MAX_BYTES};

    const CACHE_PATH: &str = "QUIRE_TEST_CLAIMING_CACHE";

    /// One quire starting: waits for its go on stdin, opens the cache and claims one event,
    /// then prints what came of it. Run by the test below, as a process of its own.
    #[test]
    #[ignore = "a process the test below starts"]
    fn claiming_process() {
        let Ok(path) = std::env::var(CACHE_PATH) else {
            return;
        };
        let mut go = String::new();
        std::io::stdin().lock().read_line(&mut go).expect("a go");
        let claimed = Cache::open(Path::new(&path), DEFAULT_MAX_BYTES)
            .and_then(|cache| claim(&cache.database(), "space/7", "comment:1", 1));
        println!("claimed: {claimed:?}");
    }

    /// Windows started together (a tmux session brought back) open a new cache file at the same
    /// moment: each gets the cache, and one of them tells an event.
    #[test]
    fn processes_opening_a_new_cache_at_once_each_get_it_and_claim_once_between_them() {
        let this_test_binary = std::env::current_exe().expect("the test binary");
        for round in 0..100 {
            let folder = tempfile::tempdir().expect("a folder");
            let path = folder.path().join("cache").join("answers.sqlite");
            let mut processes: Vec<_> = (0..3)
                .map(|_| {
                    Command::new(&this_test_binary)
                        .args(["--ignored", "--exact", "--nocapture"])
                        .arg("home::told::tests::claiming_process")
                        .env(CACHE_PATH, &path)
                        .stdin(Stdio::piped())
                        .stdout(Stdio::piped())
                        .spawn()
                        .expect("a process")
                })
                .collect();
            for process in &mut processes {
                let mut go = process.stdin.take().expect("its stdin");
                go.write_all(b"go\n").expect("go");
            }
            let outcomes: Vec<String> = processes
                .into_iter()
                .map(|process| {
                    let output = process.wait_with_output().expect("its output");
                    String::from_utf8_lossy(&output.stdout)
                        .lines()
                        .filter(|line| line.starts_with("claimed: "))
                        .collect()
                })
                .collect();
            let first = outcomes
                .iter()
                .filter(|o| *o == "claimed: Ok(true)")
                .count();
            let later = outcomes
                .iter()
                .filter(|o| *o == "claimed: Ok(false)")
                .count();
            assert_eq!((first, later), (1, 2), "round {round}: {outcomes:?}");
        }
    }
}
