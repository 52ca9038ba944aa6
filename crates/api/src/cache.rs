//! The answers to reads, kept on disk so a screen can show what it showed last time at once and
//! while the server cannot be reached. One SQLite file per user and server (the caller picks
//! the path); every successful `GET`'s body is stored as it came, under its path and query,
//! with the time it came. Bounded: the least recently used answers go first.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime};

use rusqlite::{OptionalExtension, params};

pub use super::database::CacheError;
use super::database::{Damage, Database, with_suffix};

/// A year of normal use: a few hundred pages read a week, each a few kilobytes, the lists
/// around them, and a handful of big page trees.
pub const DEFAULT_MAX_BYTES: u64 = 200 * 1024 * 1024;

/// One stored answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Cached {
    pub body: Vec<u8>,
    pub stored_at: SystemTime,
}

/// What `quire cache info` tells.
#[derive(Debug, Clone, PartialEq)]
pub struct CacheInfo {
    pub path: PathBuf,
    pub entries: u64,
    /// The stored bodies' bytes.
    pub body_bytes: u64,
    /// The database file and its write-ahead log on disk.
    pub file_bytes: u64,
    pub max_bytes: u64,
}

/// The cache file. Its methods block (SQLite); the client calls them off the async threads.
pub struct Cache {
    database: Arc<Database>,
    path: PathBuf,
    max_bytes: u64,
    /// A logical clock for "last used": ties cannot happen, and the order survives restarts.
    clock: AtomicI64,
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Cache")
            .field("path", &self.path)
            .field("max_bytes", &self.max_bytes)
            .finish_non_exhaustive()
    }
}

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    body BLOB NOT NULL,
    size INTEGER NOT NULL,
    stored_at_ms INTEGER NOT NULL,
    used INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_use ON answers (used);";

/// The columns quire reads, asked for once at open: a file of another program's tables with
/// the same name fails here, not at every read.
const SCHEMA_CHECK: &str = "SELECT key, body, size, stored_at_ms, used FROM answers LIMIT 0";

impl Cache {
    /// Opens (or creates) the cache at `path` (see [`Database::open`]): this process's one
    /// connection on the file, which the outbox shares.
    pub fn open(path: &Path, max_bytes: u64) -> Result<Cache, CacheError> {
        Cache::on(Database::open(path)?, max_bytes)
    }

    /// The cache in an open database. Counting the answers reads the whole index, so a file cut
    /// short is found here rather than at the first read.
    pub fn on(database: Arc<Database>, max_bytes: u64) -> Result<Cache, CacheError> {
        let path = database.path().to_path_buf();
        let failed = |damage: Damage, message: String| CacheError::Open {
            path: path.display().to_string(),
            damage,
            message,
        };
        let clock: i64 = {
            let connection = database.lock()?;
            connection
                // The log is trimmed back after each checkpoint instead of keeping its largest size.
                .pragma_update(None, "journal_size_limit", 1 << 20)
                .and_then(|_| connection.execute_batch(SCHEMA))
                .map_err(|error| failed(Damage::of_schema(&error), error.to_string()))?;
            connection
                .prepare(SCHEMA_CHECK)
                .map(drop)
                .map_err(|error| failed(Damage::of_schema(&error), error.to_string()))?;
            connection
                .query_row(
                    "SELECT COALESCE(MAX(used), 0), COUNT(*) FROM answers",
                    [],
                    |row| row.get(0),
                )
                .map_err(|error| failed(Damage::of(&error), error.to_string()))?
        };
        Ok(Cache {
            database,
            path,
            max_bytes,
            clock: AtomicI64::new(clock),
        })
    }

    /// The connection the cache uses, for the outbox to share.
    pub fn database(&self) -> Arc<Database> {
        self.database.clone()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The answer stored under `key`, marked as used now; None when there is none (or the
    /// file cannot be read: a cache that fails is a cache that misses).
    pub fn get(&self, key: &str) -> Option<Cached> {
        let connection = self.database.lock().ok()?;
        let found = connection
            .query_row(
                "SELECT body, stored_at_ms FROM answers WHERE key = ?1",
                params![key],
                |row| Ok((row.get::<_, Vec<u8>>(0)?, row.get::<_, i64>(1)?)),
            )
            .optional();
        let (body, stored_at_ms) = match found {
            Ok(found) => found?,
            Err(error) => {
                tracing::warn!(%error, "reading the cache failed");
                return None;
            }
        };
        let used = self.tick();
        if let Err(error) = connection.execute(
            "UPDATE answers SET used = ?1 WHERE key = ?2",
            params![used, key],
        ) {
            tracing::debug!(%error, "could not mark a cached answer as used");
        }
        Some(Cached {
            body,
            stored_at: from_millis(stored_at_ms),
        })
    }

    /// Stores `body` under `key` as received now, then evicts the least recently used answers
    /// until the bodies fit in the size allowed.
    pub fn put(&self, key: &str, body: &[u8]) -> Result<(), CacheError> {
        self.put_at(key, body, SystemTime::now())
    }

    /// `put` with the time of receipt given (tests age an answer this way).
    pub fn put_at(&self, key: &str, body: &[u8], stored_at: SystemTime) -> Result<(), CacheError> {
        if body.len() as u64 > self.max_bytes {
            return Ok(());
        }
        let used = self.tick();
        let mut connection = self.database.lock()?;
        let transaction = connection
            .transaction()
            .map_err(|error| self.failed(error))?;
        transaction
            .execute(
                "INSERT INTO answers (key, body, size, stored_at_ms, used)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT(key) DO UPDATE SET body = ?2, size = ?3, stored_at_ms = ?4, used = ?5",
                params![key, body, body.len() as i64, to_millis(stored_at), used],
            )
            .map_err(|error| self.failed(error))?;
        evict_beyond(&transaction, self.max_bytes).map_err(|error| self.failed(error))?;
        transaction.commit().map_err(|error| self.failed(error))
    }

    /// Where the cache is, how many answers it holds and how big it is.
    pub fn info(&self) -> Result<CacheInfo, CacheError> {
        let connection = self.database.lock()?;
        let (entries, body_bytes): (i64, i64) = connection
            .query_row(
                "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM answers",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .map_err(|error| self.failed(error))?;
        Ok(CacheInfo {
            path: self.path.clone(),
            entries: entries.max(0) as u64,
            body_bytes: body_bytes.max(0) as u64,
            file_bytes: file_bytes(&self.path),
            max_bytes: self.max_bytes,
        })
    }

    /// Every key stored, least recently used first.
    pub fn keys(&self) -> Vec<String> {
        let Ok(connection) = self.database.lock() else {
            return Vec::new();
        };
        let keys = connection
            .prepare("SELECT key FROM answers ORDER BY used ASC")
            .and_then(|mut keys| keys.query_map([], |row| row.get(0))?.collect());
        keys.unwrap_or_default()
    }

    /// Forgets every answer, in one transaction: another quire using the file meanwhile sees
    /// the answers go and nothing else (the outbox in the same file stays). The space goes back
    /// to the file system when no other quire is reading; otherwise the next clear gives it.
    pub fn clear(&self) -> Result<(), CacheError> {
        let connection = self.database.lock()?;
        connection
            .execute("DELETE FROM answers", [])
            .map_err(|error| self.failed(error))?;
        if let Err(error) = connection.execute_batch("VACUUM; PRAGMA wal_checkpoint(TRUNCATE);") {
            tracing::info!(%error, "the cache's space stays taken while another quire reads it");
        }
        Ok(())
    }

    fn tick(&self) -> i64 {
        self.clock.fetch_add(1, Ordering::Relaxed) + 1
    }

    fn failed(&self, error: rusqlite::Error) -> CacheError {
        self.database.failed(error)
    }
}

/// Deletes the least recently used answers while the bodies take more than `max_bytes`.
fn evict_beyond(transaction: &rusqlite::Transaction<'_>, max_bytes: u64) -> rusqlite::Result<()> {
    let total: i64 =
        transaction.query_row("SELECT COALESCE(SUM(size), 0) FROM answers", [], |row| {
            row.get(0)
        })?;
    let mut excess = total - max_bytes as i64;
    if excess <= 0 {
        return Ok(());
    }
    let mut oldest = transaction.prepare("SELECT key, size FROM answers ORDER BY used ASC")?;
    let mut rows = oldest.query([])?;
    let mut evicted = Vec::new();
    while excess > 0
        && let Some(row) = rows.next()?
    {
        evicted.push(row.get::<_, String>(0)?);
        excess -= row.get::<_, i64>(1)?;
    }
    drop(rows);
    for key in &evicted {
        transaction.execute("DELETE FROM answers WHERE key = ?1", params![key])?;
    }
    tracing::debug!(
        evicted = evicted.len(),
        "cache over its size: least used answers evicted"
    );
    Ok(())
}

fn file_bytes(path: &Path) -> u64 {
    let size = |path: PathBuf| std::fs::metadata(path).map(|meta| meta.len()).unwrap_or(0);
    size(path.to_path_buf()) + size(with_suffix(path, "-wal"))
}

fn to_millis(time: SystemTime) -> i64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map(|since| i64::try_from(since.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

fn from_millis(millis: i64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(millis.max(0) as u64)
}

/// The key an answer is stored under: the path and the query as sent.
pub fn key_for(path: &str, query: &[(String, String)]) -> String {
    if query.is_empty() {
        return path.to_string();
    }
    let mut encoded = url::form_urlencoded::Serializer::new(String::new());
    for (name, value) in query {
        encoded.append_pair(name, value);
    }
    format!("{path}?{}", encoded.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_stored_read_back_and_replaced() {
        let folder = tempfile::tempdir().unwrap();
        let cache = Cache::open(&folder.path().join("c.sqlite"), 1024).unwrap();
        assert_eq!(cache.get("/orgs"), None);
        cache.put("/orgs", b"one").unwrap();
        cache.put("/orgs", b"two").unwrap();
        assert_eq!(cache.get("/orgs").unwrap().body, b"two");
        assert_eq!(cache.info().unwrap().entries, 1);
        cache.clear().unwrap();
        assert_eq!(cache.get("/orgs"), None);
    }

    #[test]
    fn the_least_recently_used_answer_goes_first() {
        let folder = tempfile::tempdir().unwrap();
        let cache = Cache::open(&folder.path().join("c.sqlite"), 30).unwrap();
        cache.put("/a", &[0; 10]).unwrap();
        cache.put("/b", &[0; 10]).unwrap();
        cache.put("/c", &[0; 10]).unwrap();
        assert!(cache.get("/a").is_some());
        cache.put("/d", &[0; 10]).unwrap();
        assert!(cache.get("/b").is_none(), "b was used least recently");
        assert!(cache.get("/a").is_some() && cache.get("/c").is_some());
    }

    #[test]
    fn keys_keep_the_query() {
        let query = [("page".to_string(), "a b&c".to_string())];
        assert_eq!(key_for("/orgs", &query), "/orgs?page=a+b%26c");
        assert_eq!(key_for("/orgs", &[]), "/orgs");
    }
}
