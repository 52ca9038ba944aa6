//! Change requests the user marked to watch (`W`), kept in the cache's database: shared by
//! every quire on the account (another terminal window sees the mark at its next refresh) and
//! kept across runs. Home lists them in its "Watching" section and pings when one moves.

use std::time::SystemTime;

use super::super::client::Client;
use super::super::database::{CacheError, Database, to_millis};

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS watched_change_requests (
    space TEXT NOT NULL,
    change_request TEXT NOT NULL,
    marked_at_ms INTEGER NOT NULL,
    PRIMARY KEY (space, change_request)
);";

/// Why a mark could not be set or read, in words for the status line.
pub const NEEDS_THE_CACHE: &str =
    "Watching needs the cache, where marks are kept (the config file has cache = false)";

/// Marks (`on`) or unmarks the change request `id` of `space`.
pub fn set(database: &Database, space: &str, id: &str, on: bool) -> Result<(), CacheError> {
    let connection = database.lock()?;
    let failed = |error: rusqlite::Error| database.failed(error);
    connection.execute_batch(SCHEMA).map_err(failed)?;
    if on {
        let now_ms = to_millis(SystemTime::now());
        connection
            .execute(
                "INSERT OR IGNORE INTO watched_change_requests \
                 (space, change_request, marked_at_ms) VALUES (?1, ?2, ?3)",
                rusqlite::params![space, id, now_ms],
            )
            .map_err(failed)?;
    } else {
        connection
            .execute(
                "DELETE FROM watched_change_requests WHERE space = ?1 AND change_request = ?2",
                [space, id],
            )
            .map_err(failed)?;
    }
    Ok(())
}

/// Every mark as (space, change request), the newest first.
pub fn all(database: &Database) -> Result<Vec<(String, String)>, CacheError> {
    let connection = database.lock()?;
    let failed = |error: rusqlite::Error| database.failed(error);
    connection.execute_batch(SCHEMA).map_err(failed)?;
    let mut statement = connection
        .prepare(
            "SELECT space, change_request FROM watched_change_requests \
             ORDER BY marked_at_ms DESC",
        )
        .map_err(failed)?;
    let rows = statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .map_err(failed)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(failed)
}

impl Client {
    /// Marks or unmarks a change request to watch; an error in words when there is no cache
    /// to keep the mark in, or its file cannot be written.
    pub async fn set_watch_mark(&self, space: &str, id: &str, on: bool) -> Result<(), String> {
        let cache = self.cache().ok_or_else(|| NEEDS_THE_CACHE.to_string())?;
        let database = cache.database();
        let (space, id) = (space.to_owned(), id.to_owned());
        tokio::task::spawn_blocking(move || set(&database, &space, &id, on))
            .await
            .map_err(|error| error.to_string())?
            .map_err(|error| error.to_string())
    }

    /// The change requests marked to watch; none without a cache.
    pub async fn watch_marks(&self) -> Vec<(String, String)> {
        let Some(cache) = self.cache() else {
            return Vec::new();
        };
        let database = cache.database();
        let read = tokio::task::spawn_blocking(move || all(&database)).await;
        match read {
            Ok(Ok(marks)) => marks,
            Ok(Err(error)) => {
                tracing::warn!(%error, "the watch marks could not be read");
                Vec::new()
            }
            Err(_) => Vec::new(),
        }
    }
}
