//! The one SQLite connection a process holds on its cache file, shared by the [`Cache`] and the
//! [`Outbox`]. Several quire processes on one account (two tmux windows) use the same file, and
//! SQLite keeps them apart with POSIX locks, which have one trap: closing *any* descriptor a
//! process has on a file drops *every* lock that process holds on it. So a process opens the
//! file once (a second [`Database::open`] of the same path gets the same connection back), and
//! never opens a plain descriptor on a database file that may be in use: the file is made
//! private by its path, and a symbolic link is refused, never followed.
//!
//! A file that cannot serve (damaged, of another program, not a file at all) is told apart
//! from one that is merely busy, so the screen can say what is off and how to mend it.
//!
//! [`Cache`]: super::cache::Cache
//! [`Outbox`]: super::outbox::Outbox

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// What went wrong with the cache file: it could not be opened (and why, if the file
/// itself is to blame), or a statement on it failed.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("cannot open the cache {path}: {message}")]
    Open {
        path: String,
        /// What is wrong with the file, when something is.
        damage: Damage,
        message: String,
    },
    #[error("the cache {path}: {message}")]
    Use { path: String, message: String },
}

impl CacheError {
    /// What is wrong with the file itself; [`Damage::None`] when the file is not to blame.
    pub fn damage(&self) -> Damage {
        match self {
            CacheError::Open { damage, .. } => *damage,
            CacheError::Use { .. } => Damage::None,
        }
    }
}

/// How long a statement waits for another process's write to finish before it fails.
const BUSY_WAIT: Duration = Duration::from_secs(5);

/// A log below this size is left for SQLite's own checkpoints (see [`Database::trim_log`]).
const LOG_FLOOR_BYTES: u64 = 1 << 20;

/// The open connection on one file, with the file's path.
pub struct Database {
    connection: Mutex<Connection>,
    path: PathBuf,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Database")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// The databases this process has open, by path: a second open gets the first connection.
fn open_files() -> &'static Mutex<HashMap<PathBuf, Weak<Database>>> {
    static OPEN: OnceLock<Mutex<HashMap<PathBuf, Weak<Database>>>> = OnceLock::new();
    OPEN.get_or_init(Default::default)
}

impl Database {
    /// The connection on the file at `path`, opened (and the file created, private: 0600 in a
    /// 0700 folder) unless this process has it open already. WAL mode, so a reader never waits
    /// for a writer, `synchronous = NORMAL` (a write that must survive a power cut asks for
    /// more, see [`Database::durably`]).
    pub fn open(path: &Path) -> Result<Arc<Database>, CacheError> {
        let mut open = open_files()
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(database) = open.get(path).and_then(Weak::upgrade) {
            return Ok(database);
        }
        let database = Arc::new(Database {
            connection: Mutex::new(connect(path)?),
            path: path.to_path_buf(),
        });
        open.retain(|_, database| database.strong_count() > 0);
        open.insert(path.to_path_buf(), Arc::downgrade(&database));
        Ok(database)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection, for one piece of work.
    pub fn lock(&self) -> Result<MutexGuard<'_, Connection>, CacheError> {
        self.connection.lock().map_err(|_| CacheError::Use {
            path: self.path.display().to_string(),
            message: "an earlier use of the database failed midway".to_string(),
        })
    }

    /// Runs `work` with every commit synced to the disk (`synchronous = FULL`): a queued write
    /// must survive a power cut, not only a crash. The cache's answers do without.
    pub fn durably<T>(
        &self,
        work: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, CacheError> {
        let mut connection = self.lock()?;
        let failed = |error: rusqlite::Error| self.failed(error);
        connection
            .pragma_update(None, "synchronous", "FULL")
            .map_err(failed)?;
        let result = work(&mut connection).map_err(failed);
        let _ = connection.pragma_update(None, "synchronous", "NORMAL");
        result
    }

    /// Checkpoints the write-ahead log into the database and truncates it, when a write left
    /// the log bigger than the database (and than [`LOG_FLOOR_BYTES`]): a big answer is first
    /// written whole into the log, which would otherwise keep that size on disk. Never waits
    /// for another quire: one reading the file keeps the log for its next write to trim.
    pub fn trim_log(&self, connection: &Connection) {
        let size = |path: &Path| std::fs::metadata(path).map_or(0, |meta| meta.len());
        let log = size(&with_suffix(&self.path, "-wal"));
        if log <= size(&self.path).max(LOG_FLOOR_BYTES) {
            return;
        }
        let checkpointed = connection.busy_timeout(Duration::ZERO).and_then(|_| {
            connection.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| {
                row.get::<_, i64>(0)
            })
        });
        match checkpointed {
            Ok(0) => {}
            Ok(_) => tracing::debug!("the cache's log stays while another quire reads"),
            Err(error) => tracing::debug!(%error, "checkpointing the cache's log failed"),
        }
        if let Err(error) = connection.busy_timeout(BUSY_WAIT) {
            tracing::warn!(%error, "could not set the cache's busy wait back");
        }
    }

    pub fn failed(&self, error: impl std::fmt::Display) -> CacheError {
        CacheError::Use {
            path: self.path.display().to_string(),
            message: error.to_string(),
        }
    }
}

/// Opens `path` in WAL mode, after making sure it is a private regular file.
fn connect(path: &Path) -> Result<Connection, CacheError> {
    let failed = |damage: Damage, message: String| CacheError::Open {
        path: path.display().to_string(),
        damage,
        message,
    };
    prepare_private_file(path)?;
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_NOFOLLOW;
    let connection = Connection::open_with_flags(path, flags)
        .map_err(|error| failed(Damage::of(&error), error.to_string()))?;
    connection
        .busy_timeout(BUSY_WAIT)
        .and_then(|_| switch_to_wal(&connection))
        .and_then(|_| connection.pragma_update(None, "synchronous", "NORMAL"))
        .map_err(|error| failed(Damage::of(&error), error.to_string()))?;
    Ok(connection)
}

/// Puts the file in WAL mode (a no-op once it is: the mode is kept in the file). The switch
/// takes the file for itself, and SQLite answers "database is locked" at once, without
/// waiting, when another quire opening the same new file switches it at the same moment (two
/// windows started together): tried again until [`BUSY_WAIT`] has passed.
fn switch_to_wal(connection: &Connection) -> rusqlite::Result<()> {
    let deadline = std::time::Instant::now() + BUSY_WAIT;
    loop {
        match connection.pragma_update(None, "journal_mode", "WAL") {
            Err(error)
                if error.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(10));
            }
            switched => return switched,
        }
    }
}

/// What is wrong with a file that cannot serve as quire's database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Damage {
    /// Busy, out of memory, a disk that is full: nothing wrong with the file itself.
    None,
    /// Not a database, or a damaged one (cut short, overwritten).
    NotADatabase,
    /// A database of other tables than quire's.
    OtherSchema,
    /// A symbolic link, a folder, or another kind of file.
    NotAFile,
    /// It cannot be written (a read-only file or folder).
    ReadOnly,
}

impl Damage {
    pub fn of(error: &rusqlite::Error) -> Damage {
        use rusqlite::ErrorCode;
        match error.sqlite_error_code() {
            Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => Damage::NotADatabase,
            Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => {
                Damage::ReadOnly
            }
            _ => Damage::None,
        }
    }

    /// What a failure to lay out quire's tables says of the file: a plain SQL error there means
    /// tables of the same name and another shape, another program's.
    pub fn of_schema(error: &rusqlite::Error) -> Damage {
        let plain_sql_error = match error {
            rusqlite::Error::SqlInputError { .. } => true,
            _ => error.sqlite_error_code() == Some(rusqlite::ErrorCode::Unknown),
        };
        match Damage::of(error) {
            Damage::None if plain_sql_error => Damage::OtherSchema,
            damage => damage,
        }
    }

    /// True when moving the file aside and starting a new one mends it.
    pub fn is_damage(self) -> bool {
        self != Damage::None
    }
}

/// The file and its folder made private (0700 folder, 0600 file) by path: an existing file is
/// never opened here, since closing that descriptor would drop the locks this process's
/// SQLite connection holds on it. A symbolic link or anything but a regular file is refused.
fn prepare_private_file(path: &Path) -> Result<(), CacheError> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
    let failed = |damage: Damage, message: String| CacheError::Open {
        path: path.display().to_string(),
        damage,
        message,
    };
    if let Some(folder) = path.parent() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(folder)
            .map_err(|error| failed(Damage::None, error.to_string()))?;
    }
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(failed(
            Damage::NotAFile,
            "it is a symbolic link, which quire does not follow".to_string(),
        )),
        Ok(meta) if !meta.is_file() => Err(failed(
            Damage::NotAFile,
            "it is not a regular file".to_string(),
        )),
        Ok(meta) if meta.permissions().mode() & 0o777 != 0o600 => {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
                .map_err(|error| failed(Damage::ReadOnly, error.to_string()))
        }
        Ok(_) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            // A new file: nobody holds a lock on it yet, so this descriptor can be closed.
            let created = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW)
                .open(path);
            match created {
                Ok(_) => Ok(()),
                // Another quire made it a moment ago.
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
                Err(error) => Err(failed(Damage::ReadOnly, error.to_string())),
            }
        }
        Err(error) => Err(failed(Damage::None, error.to_string())),
    }
}

/// Moves a file that cannot serve aside (with its `-wal` and `-shm`), so a new one can be
/// started; the path it was moved to. A symbolic link is moved itself, never its target.
pub fn move_aside(path: &Path) -> std::io::Result<PathBuf> {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S");
    let aside = with_suffix(path, &format!(".damaged-{stamp}"));
    std::fs::rename(path, &aside)?;
    for log in ["-wal", "-shm"] {
        let from = with_suffix(path, log);
        if std::fs::symlink_metadata(&from).is_ok() {
            let _ = std::fs::rename(&from, with_suffix(&aside, log));
        }
    }
    Ok(aside)
}

/// `path` with `suffix` added to its file name.
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// A time as the database keeps it: milliseconds since the Unix epoch (0 before it).
pub fn to_millis(time: std::time::SystemTime) -> i64 {
    time.duration_since(std::time::SystemTime::UNIX_EPOCH)
        .map(|since| i64::try_from(since.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// The time `millis` after the Unix epoch (the epoch itself for a negative count).
pub fn from_millis(millis: i64) -> std::time::SystemTime {
    std::time::SystemTime::UNIX_EPOCH
        + std::time::Duration::from_millis(u64::try_from(millis).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_open_in_one_process_shares_the_first_connection() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("c.sqlite");
        let first = Database::open(&path).unwrap();
        let second = Database::open(&path).unwrap();
        assert!(Arc::ptr_eq(&first, &second));
        drop((first, second));
        let third = Database::open(&path).unwrap();
        assert_eq!(Arc::strong_count(&third), 1, "a closed one is opened anew");
    }

    #[test]
    fn a_symbolic_link_is_refused_and_its_target_left_alone() {
        use std::os::unix::fs::PermissionsExt;
        let folder = tempfile::tempdir().unwrap();
        let target = folder.path().join("elsewhere");
        std::fs::write(&target, b"not mine").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644)).unwrap();
        let link = folder.path().join("c.sqlite");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let error = Database::open(&link).unwrap_err();
        assert!(matches!(
            error,
            CacheError::Open {
                damage: Damage::NotAFile,
                ..
            }
        ));
        let mode = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644, "the link's target was not chmod-ed");
        assert_eq!(std::fs::read(&target).unwrap(), b"not mine");
    }

    #[test]
    fn random_bytes_are_told_as_damage() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("c.sqlite");
        std::fs::write(&path, vec![0x5a; 8192]).unwrap();
        let error = Database::open(&path).unwrap_err();
        assert!(matches!(
            error,
            CacheError::Open {
                damage: Damage::NotADatabase,
                ..
            }
        ));
        let aside = move_aside(&path).unwrap();
        assert!(aside.exists() && !path.exists());
        Database::open(&path).unwrap();
    }
}
