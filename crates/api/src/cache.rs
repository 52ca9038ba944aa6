//! The answers to reads, kept on disk so a screen can show what it showed last time at once and
//! while the server cannot be reached. One SQLite file per user and server (the caller picks
//! the path); every successful `GET`'s body is stored as it came, under its path and query,
//! with the time it came. Bounded: the least recently used answers go first.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::SystemTime;

use rusqlite::params;

pub use super::database::CacheError;
use super::database::{Damage, Database, from_millis, to_millis, with_suffix};

mod layout;

/// The write-ahead log is checkpointed into the database every this many bytes of it (SQLite's
/// default is 4 MB), and trimmed back to it after a checkpoint instead of keeping its largest
/// size.
const LOG_LIMIT_BYTES: i64 = 1 << 20;

/// An answer at least this big passes through SQLite's page cache (2 MB at most) on its way
/// to or from the file and would leave it full of pages nobody reads again: the cache hands
/// them back at once. Smaller answers leave the index pages that make the next lookup cheap.
const HAND_BACK_PAGES_AFTER_BYTES: usize = 256 * 1024;

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

/// The body comes last: a row is built in memory whole, except for a zero-filled blob at its
/// end, so a body inserted as `zeroblob(size)` and then written into place through SQLite's
/// blob handle is never held by SQLite in one piece (bound as a parameter, it would be copied
/// twice: the bound value, then the row built from it).
const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    stored_at_ms INTEGER NOT NULL,
    used INTEGER NOT NULL,
    body BLOB NOT NULL
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
                .pragma_update(None, "journal_size_limit", LOG_LIMIT_BYTES)
                .and_then(|_| {
                    connection.pragma_update(None, "wal_autocheckpoint", LOG_LIMIT_BYTES / 4096)
                })
                .and_then(|_| connection.execute_batch(SCHEMA))
                .and_then(|_| layout::put_body_last(&connection))
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
    /// file cannot be read: a cache that fails is a cache that misses). The body is read
    /// straight into the one buffer returned.
    pub fn get(&self, key: &str) -> Option<Cached> {
        let mut connection = self.database.lock().ok()?;
        let (body, stored_at_ms) = match layout::read_answer(&mut connection, key) {
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
        hand_back_pages_after(&connection, body.len());
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

    /// `put` with the time of receipt given (tests age an answer this way). The body is
    /// written from the caller's buffer into the file's pages, with no copy of it in between;
    /// a write that leaves the log bigger than the database is checkpointed at once.
    pub fn put_at(&self, key: &str, body: &[u8], stored_at: SystemTime) -> Result<(), CacheError> {
        if body.len() as u64 > self.max_bytes {
            return Ok(());
        }
        let used = self.tick();
        let mut connection = self.database.lock()?;
        let transaction = connection
            .transaction()
            .map_err(|error| self.failed(error))?;
        layout::write_answer(&transaction, key, body, to_millis(stored_at), used)
            .and_then(|_| evict_beyond(&transaction, self.max_bytes))
            .map_err(|error| self.failed(error))?;
        transaction.commit().map_err(|error| self.failed(error))?;
        self.database.trim_log(&connection);
        hand_back_pages_after(&connection, body.len());
        Ok(())
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

/// Frees SQLite's cached pages of this connection after an answer of `bytes` went through it
/// ([`HAND_BACK_PAGES_AFTER_BYTES`] says why).
fn hand_back_pages_after(connection: &rusqlite::Connection, bytes: usize) {
    if bytes < HAND_BACK_PAGES_AFTER_BYTES {
        return;
    }
    if let Err(error) = connection.release_memory() {
        tracing::debug!(%error, "SQLite kept its cached pages");
    }
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

    /// Held by the tests that write big answers: SQLite's memory statistics are the process's,
    /// and each big write fills its connection's page cache, so the one that measures them
    /// runs alone among these.
    static BIG_WRITES: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn one_big_writer() -> std::sync::MutexGuard<'static, ()> {
        BIG_WRITES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A body of `size` bytes that no two answers share and compression would not shrink.
    fn big_body(size: usize, seed: u64) -> Vec<u8> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..size)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect()
    }

    fn file_size(path: &Path) -> u64 {
        std::fs::metadata(path).map_or(0, |meta| meta.len())
    }

    #[test]
    fn a_big_answer_reads_back_identical_and_is_replaced_whole() {
        let _alone = one_big_writer();
        let folder = tempfile::tempdir().unwrap();
        let cache = Cache::open(&folder.path().join("c.sqlite"), DEFAULT_MAX_BYTES).unwrap();
        let first = big_body(3 << 20, 1);
        cache.put("/spaces/s/content/pages", &first).unwrap();
        assert!(cache.get("/spaces/s/content/pages").unwrap().body == first);
        let shorter = big_body(1 << 20, 2);
        cache.put("/spaces/s/content/pages", &shorter).unwrap();
        assert!(cache.get("/spaces/s/content/pages").unwrap().body == shorter);
        cache.put("/empty", b"").unwrap();
        assert_eq!(cache.get("/empty").unwrap().body, b"");
        assert_eq!(cache.info().unwrap().body_bytes, 1 << 20);
    }

    #[test]
    fn the_log_never_stays_bigger_than_the_database_after_big_answers() {
        let _alone = one_big_writer();
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("c.sqlite");
        let cache = Cache::open(&path, DEFAULT_MAX_BYTES).unwrap();
        for round in 0..4 {
            cache
                .put(&format!("/big/{round}"), &big_body(2 << 20, round))
                .unwrap();
            let (log, database) = (file_size(&with_suffix(&path, "-wal")), file_size(&path));
            assert!(
                log <= database,
                "after answer {round}: log {log} bytes, database {database}"
            );
        }
        for round in 0..4 {
            assert!(cache.get(&format!("/big/{round}")).unwrap().body == big_body(2 << 20, round));
        }
    }

    /// Another quire reading the file keeps the log (its snapshot is in it): storing a big
    /// answer meanwhile still succeeds, and the next write after the reader is done trims it.
    #[test]
    fn a_reader_in_another_connection_delays_the_trim_to_the_next_write() {
        let _alone = one_big_writer();
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("c.sqlite");
        let cache = Cache::open(&path, DEFAULT_MAX_BYTES).unwrap();
        cache.put("/orgs", b"one").unwrap();
        let other = rusqlite::Connection::open(&path).unwrap();
        other.execute_batch("BEGIN").unwrap();
        let seen: i64 = other
            .query_row("SELECT COUNT(*) FROM answers", [], |row| row.get(0))
            .unwrap();
        assert_eq!(seen, 1);
        cache.put("/big/0", &big_body(2 << 20, 4)).unwrap();
        let log = || file_size(&with_suffix(&path, "-wal"));
        assert!(
            log() > file_size(&path),
            "the reader's snapshot keeps the log"
        );
        other.execute_batch("COMMIT").unwrap();
        cache.put("/big/1", &big_body(2 << 20, 5)).unwrap();
        assert!(log() <= file_size(&path), "log {} bytes", log());
        drop(other);
        assert!(cache.get("/big/0").unwrap().body == big_body(2 << 20, 4));
    }

    /// SQLite's own allocations while a 16 MB answer is stored stay far below its size: the
    /// body goes from the caller's buffer into the file's pages, never copied whole.
    #[test]
    fn storing_a_big_answer_holds_no_copy_of_it_in_sqlite() {
        let _alone = one_big_writer();
        let folder = tempfile::tempdir().unwrap();
        let cache = Cache::open(&folder.path().join("c.sqlite"), DEFAULT_MAX_BYTES).unwrap();
        let body = big_body(16 << 20, 3);
        // SAFETY: plain reads of SQLite's memory statistics, which it keeps thread-safely.
        let before = unsafe { rusqlite::ffi::sqlite3_memory_highwater(1) };
        cache.put("/spaces/s/content/pages", &body).unwrap();
        // SAFETY: as above.
        let peak = unsafe { rusqlite::ffi::sqlite3_memory_highwater(0) };
        let held = usize::try_from(peak - before).unwrap_or(0);
        assert!(
            held < body.len() / 2,
            "SQLite held {held} bytes more while storing {} bytes",
            body.len()
        );
    }

    /// The pages of the connection's cache, in bytes (SQLite's own count).
    fn page_cache_bytes(cache: &Cache) -> i32 {
        let connection = cache.database.lock().unwrap();
        let (mut used, mut highest) = (0, 0);
        // SAFETY: the handle is the live connection's, held locked for the call; SQLite only
        // writes the two counters given.
        let status = unsafe {
            rusqlite::ffi::sqlite3_db_status(
                connection.handle(),
                rusqlite::ffi::SQLITE_DBSTATUS_CACHE_USED,
                &mut used,
                &mut highest,
                0,
            )
        };
        assert_eq!(status, rusqlite::ffi::SQLITE_OK);
        used
    }

    #[test]
    fn a_big_answer_stored_or_read_leaves_no_pages_in_sqlites_cache() {
        let folder = tempfile::tempdir().unwrap();
        let cache = Cache::open(&folder.path().join("c.sqlite"), DEFAULT_MAX_BYTES).unwrap();
        let body = big_body(4 << 20, 7);
        cache.put("/spaces/s/content/pages", &body).unwrap();
        let after_write = page_cache_bytes(&cache);
        assert!(cache.get("/spaces/s/content/pages").unwrap().body == body);
        let after_read = page_cache_bytes(&cache);
        assert!(
            after_write < 256 * 1024 && after_read < 256 * 1024,
            "SQLite kept {after_write} bytes of pages after the write, {after_read} after the read"
        );
    }

    #[test]
    fn a_file_of_the_earlier_layout_keeps_its_answers_with_the_body_moved_last() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("c.sqlite");
        {
            let earlier = rusqlite::Connection::open(&path).unwrap();
            earlier
                .execute_batch(
                    "CREATE TABLE answers (key TEXT PRIMARY KEY, body BLOB NOT NULL,
                         size INTEGER NOT NULL, stored_at_ms INTEGER NOT NULL,
                         used INTEGER NOT NULL);
                     CREATE INDEX answers_by_use ON answers (used);
                     INSERT INTO answers VALUES ('/orgs', x'6f6e65', 3, 1000, 7);",
                )
                .unwrap();
        }
        let cache = Cache::open(&path, 1024).unwrap();
        let kept = cache.get("/orgs").unwrap();
        assert_eq!(kept.body, b"one");
        assert_eq!(kept.stored_at, from_millis(1000));
        cache.put("/spaces", b"two").unwrap();
        assert_eq!(cache.keys(), ["/orgs", "/spaces"], "the use order survived");
        let connection = cache.database.lock().unwrap();
        let last: String = connection
            .query_row(
                "SELECT name FROM pragma_table_info('answers') ORDER BY cid DESC LIMIT 1",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(last, "body");
    }
}
