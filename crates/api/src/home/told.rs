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
