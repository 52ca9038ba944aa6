//! Writes made while the server could not be reached, kept in the cache's database until the
//! user has looked at them and sends them. Each is written in one transaction before the screen
//! says "queued", so a crash or a kill after that loses nothing.
//!
//! A write that was handed to the network once is marked *attempted* first: its outcome may
//! be unknown (the answer lost, quire killed while waiting), so whoever sends it again reads
//! the thread or review back before sending, and never edits its text in between (the read
//! back looks for the text that may have landed).
//!
//! Several quire processes may share one outbox (two terminals on one account). A write is
//! *claimed* before it is sent, in one transaction that only one process wins; the others say
//! another quire is sending it. A claim whose process is gone is taken over, and the write,
//! marked attempted, is read back before it is sent again.
//!
//! Reading back must not take an older comment with the same text ("LGTM") for the one sent:
//! before a write is first handed to the network, the ids of the user's comments (replies,
//! reviews) already there are stored with it (`before`), and only a new one counts. Where those
//! ids could not be read, the outcome of a lost answer stays unknown, and the user chooses.
//!
//! Only writes that reading back can tell apart are queued: comments, replies, edits of one's
//! own comments, reactions, resolve/unresolve and reviews. Merges, deletes, settings and admin
//! writes are refused offline instead (see [`refusal`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::SystemTime;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde::{Deserialize, Serialize};

use super::cache::CacheError;
use super::database::{Database, from_millis, to_millis};
pub use super::outbox_about::About;
use super::read_back::Before;

/// More than anyone writes offline in a week; past it, a write is refused rather than kept.
pub const MAX_QUEUED: usize = 1000;

/// One write waiting to be sent, on a comment thread or review of a change request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Write {
    /// A new thread on the change request, or on one of its pages when `page` is set, and on
    /// one block of that page (its document `key`, from a line of the diff) when `node` is.
    Comment {
        markdown: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        page: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<String>,
        /// The cell of the table block `node`, for a comment on one cell of a table.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table_cell: Option<crate::models::TableCell>,
    },
    /// A reply in the thread of `comment`.
    Reply { comment: String, markdown: String },
    /// A new text for one's own comment, or for one's own reply in it when `reply` is set.
    Edit {
        comment: String,
        reply: Option<String>,
        markdown: String,
    },
    /// One's reaction with `emoji` on a comment (or on a reply in its thread), added or
    /// taken back.
    Reaction {
        comment: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reply: Option<String>,
        emoji: String,
        add: bool,
    },
    /// The thread of `comment` resolved or reopened.
    Resolve { comment: String, resolved: bool },
    /// A review: approved or changes requested, with an optional comment.
    Review {
        approve: bool,
        markdown: Option<String>,
    },
}

impl Write {
    /// What the outbox screen says the write is.
    pub fn describe(&self) -> String {
        match self {
            Write::Comment { .. } => "comment".to_string(),
            Write::Reply { .. } => "reply".to_string(),
            Write::Edit { reply: None, .. } => "edit of a comment".to_string(),
            Write::Edit { reply: Some(_), .. } => "edit of a reply".to_string(),
            Write::Reaction { emoji, add, .. } => {
                let verb = if *add {
                    "reaction"
                } else {
                    "reaction taken back"
                };
                format!("{verb} {emoji}")
            }
            Write::Resolve { resolved: true, .. } => "resolve".to_string(),
            Write::Resolve {
                resolved: false, ..
            } => "reopen".to_string(),
            Write::Review { approve: true, .. } => "review: approve".to_string(),
            Write::Review { approve: false, .. } => "review: request changes".to_string(),
        }
    }

    /// Where on the change request's threads the write shows while it waits: the thread (its
    /// first comment's id) and, for a write on a reply, that reply. A new thread and a review
    /// have no place yet.
    pub fn place(&self) -> Option<(&str, Option<&str>)> {
        match self {
            Write::Reply { comment, .. } | Write::Resolve { comment, .. } => Some((comment, None)),
            Write::Edit { comment, reply, .. } | Write::Reaction { comment, reply, .. } => {
                Some((comment, reply.as_deref()))
            }
            Write::Comment { .. } | Write::Review { .. } => None,
        }
    }

    /// The text the user wrote, where the write has one.
    pub fn markdown(&self) -> Option<&str> {
        match self {
            Write::Comment { markdown, .. }
            | Write::Reply { markdown, .. }
            | Write::Edit { markdown, .. } => Some(markdown),
            Write::Review { markdown, .. } => markdown.as_deref(),
            Write::Reaction { .. } | Write::Resolve { .. } => None,
        }
    }
}

/// The change request a write belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Target {
    pub space: String,
    pub change_request: String,
}

impl Target {
    pub fn new(space: impl Into<String>, change_request: impl Into<String>) -> Target {
        Target {
            space: space.into(),
            change_request: change_request.into(),
        }
    }
}

/// A write in the outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    pub id: i64,
    pub target: Target,
    pub write: Write,
    pub queued_at: SystemTime,
    /// Handed to the network at least once: it may have landed, so it is read back first.
    pub attempted: bool,
    /// What the user had on the target before the first try, for reading back; None when it
    /// was not read (then a lost answer leaves the outcome unknown).
    pub before: Option<Before>,
    /// Its outcome is unknown (something like it is on the server, maybe older): it waits for
    /// the user to send it by name or drop it, and no send of everything takes it.
    pub held: bool,
    /// What the write's screen knew of its place when it was queued (titles, the thread).
    pub about: About,
}

/// Why a write was not put in the outbox.
#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    #[error(transparent)]
    Cache(#[from] CacheError),
    #[error("the outbox is full ({MAX_QUEUED} writes): send or drop some first")]
    Full,
    #[error("this write may already have been sent: send it (it is read back first) or drop it")]
    Attempted,
    #[error("this write is no longer in the outbox")]
    Gone,
    #[error("another quire is sending this write")]
    Elsewhere,
}

/// Who holds a claim on a write: a process, told apart from a later one with the same pid by
/// its start time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimant(String);

impl Claimant {
    /// This process, as this program image runs it: `pid:start:image`. The image part tells
    /// the quire that a profile switch started in the same process (`exec` keeps the pid and
    /// its start time) from the one before it, whose sends ended with it.
    pub fn this_process() -> Claimant {
        static IMAGE: OnceLock<u64> = OnceLock::new();
        let image = IMAGE.get_or_init(|| fastrand::u64(..));
        let pid = std::process::id();
        Claimant(format!(
            "{pid}:{}:{image:x}",
            start_time(pid).unwrap_or_default()
        ))
    }

    /// True while the process image that made this claim runs. Where that cannot be told (no
    /// `/proc`), a process with that id counts as alive: a claim is taken over only when its
    /// quire is surely gone, never while it may still be sending.
    pub fn is_alive(&self) -> bool {
        let mut parts = self.0.split(':');
        let (Some(pid), started) = (parts.next(), parts.next()) else {
            return false;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            return false;
        };
        if pid == std::process::id() {
            return *self == Claimant::this_process();
        }
        match start_time(pid) {
            Some(now) => started.is_none_or(|started| started.is_empty() || now == started),
            None if std::path::Path::new("/proc/self/stat").exists() => false,
            None => process_exists(pid),
        }
    }
}

/// True when a process with id `pid` exists (signal 0 checks without sending anything).
fn process_exists(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 sends nothing; kill only checks that the process exists.
    let answer = unsafe { libc::kill(pid, 0) };
    answer == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// The start time of process `pid` (field 22 of `/proc/PID/stat`), None when it is not running.
fn start_time(pid: u32) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields are counted after the last ')'.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(19).map(str::to_string)
}

/// What a claim on a write found.
#[derive(Debug, Clone, PartialEq)]
pub enum Claim {
    /// The write is this process's to send, as it stands now (attempted by a process that is
    /// gone, it is read back first).
    Mine(Box<Queued>),
    /// Another running quire is sending it.
    Elsewhere,
    /// It left the outbox (sent or dropped by another quire).
    Gone,
}

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    space TEXT NOT NULL,
    change_request TEXT NOT NULL,
    write TEXT NOT NULL,
    queued_at_ms INTEGER NOT NULL,
    attempted INTEGER NOT NULL DEFAULT 0
);";

/// Columns added since the table's first version: `ALTER TABLE` on an older file.
const ADDED_COLUMNS: [(&str, &str); 4] = [
    ("claimed_by", "TEXT"),
    ("before", "TEXT"),
    ("held", "INTEGER NOT NULL DEFAULT 0"),
    ("about", "TEXT"),
];

const COLUMNS: &str =
    "id, space, change_request, write, queued_at_ms, attempted, before, held, about";

/// The outbox table, in the same private file as the cache and through the same connection
/// (see [`Database`]). Its methods block; callers use them off the async threads.
pub struct Outbox {
    database: Arc<Database>,
    path: PathBuf,
    me: Claimant,
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Outbox")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl Outbox {
    /// Opens (or creates) the outbox in the database at `path`, through this process's one
    /// connection on it.
    pub fn open(path: &Path) -> Result<Outbox, OutboxError> {
        Outbox::on(Database::open(path)?)
    }

    /// The outbox in an open database (the cache's).
    pub fn on(database: Arc<Database>) -> Result<Outbox, OutboxError> {
        database.durably(|connection| {
            connection.execute_batch(SCHEMA)?;
            for (column, kind) in ADDED_COLUMNS {
                if has_column(connection, column)? {
                    continue;
                }
                let added = connection
                    .execute_batch(&format!("ALTER TABLE outbox ADD COLUMN {column} {kind}"));
                match added {
                    // Another quire starting at the same moment added it first.
                    Err(error) if error.to_string().contains("duplicate column") => {}
                    other => other?,
                }
            }
            Ok(())
        })?;
        Ok(Outbox {
            path: database.path().to_path_buf(),
            database,
            me: Claimant::this_process(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `work` on tokio's blocking threads: a commit waits for the disk (full sync), which
    /// must not hold up the tasks that draw and answer.
    pub async fn in_background<T: Send + 'static>(
        self: &std::sync::Arc<Self>,
        work: impl FnOnce(&Outbox) -> Result<T, OutboxError> + Send + 'static,
    ) -> Result<T, OutboxError> {
        let outbox = self.clone();
        tokio::task::spawn_blocking(move || work(&outbox))
            .await
            .unwrap_or(Err(OutboxError::Gone))
    }

    /// Puts `write` in the outbox in one transaction; once this returns, the write is on disk.
    pub fn enqueue(&self, target: &Target, write: &Write) -> Result<Queued, OutboxError> {
        self.insert(target, write, None, &About::default())
    }

    /// [`Outbox::enqueue`], remembering what is known of the write's place.
    pub fn enqueue_about(
        &self,
        target: &Target,
        write: &Write,
        about: &About,
    ) -> Result<Queued, OutboxError> {
        self.insert(target, write, None, about)
    }

    /// Puts in the outbox a write that was sent and got no answer: it may have landed, so it
    /// is queued as attempted, to be read back before it is sent again.
    /// `before` is what the user had on the target before that send, when it was read.
    pub fn enqueue_unsure(
        &self,
        target: &Target,
        write: &Write,
        before: Option<&Before>,
    ) -> Result<Queued, OutboxError> {
        self.insert(target, write, Some(before), &About::default())
    }

    /// [`Outbox::enqueue_unsure`], remembering what is known of the write's place.
    pub fn enqueue_unsure_about(
        &self,
        target: &Target,
        write: &Write,
        before: Option<&Before>,
        about: &About,
    ) -> Result<Queued, OutboxError> {
        self.insert(target, write, Some(before), about)
    }

    /// `attempted`: None for a write never sent, else what was known before its send.
    fn insert(
        &self,
        target: &Target,
        write: &Write,
        attempted: Option<Option<&Before>>,
        about: &About,
    ) -> Result<Queued, OutboxError> {
        let text = serde_json::to_string(write).map_err(|error| self.failed(error))?;
        let about_text = about.to_json();
        let before = attempted.flatten().map(Before::to_json);
        let queued_at = SystemTime::now();
        let id = self.database.durably(|connection| {
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let count: i64 =
                transaction.query_row("SELECT COUNT(*) FROM outbox", [], |row| row.get(0))?;
            if count >= MAX_QUEUED as i64 {
                return Ok(None);
            }
            transaction.execute(
                "INSERT INTO outbox
                 (space, change_request, write, queued_at_ms, attempted, before, about)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    target.space,
                    target.change_request,
                    text,
                    to_millis(queued_at),
                    attempted.is_some(),
                    before,
                    about_text
                ],
            )?;
            let id = transaction.last_insert_rowid();
            transaction.commit()?;
            Ok(Some(id))
        })?;
        let id = id.ok_or(OutboxError::Full)?;
        Ok(Queued {
            id,
            target: target.clone(),
            write: write.clone(),
            queued_at: from_millis(to_millis(queued_at)),
            attempted: attempted.is_some(),
            before: attempted.flatten().cloned(),
            held: false,
            about: about.clone(),
        })
    }

    /// Every write waiting, oldest first (the order they are sent in). A row this version of
    /// quire cannot read is left out rather than failing the whole list.
    pub fn list(&self) -> Result<Vec<Queued>, OutboxError> {
        self.select(
            &format!("SELECT {COLUMNS} FROM outbox ORDER BY id ASC"),
            params![],
        )
    }

    /// The writes waiting for one change request, oldest first.
    pub fn for_target(&self, target: &Target) -> Result<Vec<Queued>, OutboxError> {
        self.select(
            &format!(
                "SELECT {COLUMNS} FROM outbox
                 WHERE space = ?1 AND change_request = ?2 ORDER BY id ASC"
            ),
            params![target.space, target.change_request],
        )
    }

    /// How many writes wait, as `list` shows them: a row this version cannot read is not
    /// counted, or the header would count what the outbox screen cannot show.
    pub fn count(&self) -> Result<usize, OutboxError> {
        Ok(self.list()?.len())
    }

    /// Replaces a waiting write (the user edited it). Refused once it was attempted (its old
    /// text may be on the server, and reading back looks for that text) or while another quire
    /// is sending it.
    pub fn replace(&self, id: i64, write: &Write) -> Result<(), OutboxError> {
        let text = serde_json::to_string(write).map_err(|error| self.failed(error))?;
        self.change_unclaimed(id, |transaction, row| {
            if row.attempted {
                return Err(Refused(OutboxError::Attempted));
            }
            transaction.execute(
                "UPDATE outbox SET write = ?1 WHERE id = ?2",
                params![text, id],
            )?;
            Ok(())
        })
    }

    /// Takes a write out without sending it. True when it was there. Refused while another
    /// quire is sending it.
    pub fn drop_write(&self, id: i64) -> Result<bool, OutboxError> {
        match self.change_unclaimed(id, |transaction, _| {
            transaction.execute("DELETE FROM outbox WHERE id = ?1", params![id])?;
            Ok(())
        }) {
            Ok(()) => Ok(true),
            Err(OutboxError::Gone) => Ok(false),
            Err(error) => Err(error),
        }
    }

    /// Claims a write for this process to send, in one transaction only one process wins. A
    /// claim of a process that is gone is taken over; the write stays marked attempted, so it
    /// is read back before it goes again.
    pub fn claim(&self, id: i64) -> Result<Claim, OutboxError> {
        let me = self.me.0.clone();
        let claimed = self.database.durably(|connection| {
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let Some(row) = claim_row(&transaction, id)? else {
                return Ok(Claim::Gone);
            };
            if let Some(holder) = row.claimed_by.filter(|holder| *holder != me)
                && Claimant(holder).is_alive()
            {
                return Ok(Claim::Elsewhere);
            }
            transaction.execute(
                "UPDATE outbox SET claimed_by = ?1 WHERE id = ?2",
                params![me, id],
            )?;
            let queued = transaction
                .query_row(
                    &format!("SELECT {COLUMNS} FROM outbox WHERE id = ?1"),
                    params![id],
                    read_row,
                )
                .optional()?
                .flatten();
            transaction.commit()?;
            Ok(queued.map_or(Claim::Gone, |queued| Claim::Mine(Box::new(queued))))
        })?;
        Ok(claimed)
    }

    /// Lets go of a claim without sending (the write stays, as it is).
    pub fn release(&self, id: i64) -> Result<(), OutboxError> {
        self.database.durably(|connection| {
            connection.execute(
                "UPDATE outbox SET claimed_by = NULL WHERE id = ?1 AND claimed_by = ?2",
                params![id, self.me.0],
            )
        })?;
        Ok(())
    }

    /// Marks a write as handed to the network, before it is, with what the user had on the
    /// target before (`before`, None when it could not be read): if quire dies waiting for the
    /// answer, whoever sends it next reads back first.
    pub fn mark_attempted(&self, id: i64, before: Option<&Before>) -> Result<(), OutboxError> {
        let before = before.map(Before::to_json);
        let changed = self.database.durably(|connection| {
            connection.execute(
                "UPDATE outbox SET attempted = 1, before = ?1, held = 0 WHERE id = ?2",
                params![before, id],
            )
        })?;
        if changed == 0 {
            return Err(OutboxError::Gone);
        }
        Ok(())
    }

    /// The try is known not to have reached the server (the connection was refused, the
    /// server said no), or the user chose to send again a write whose outcome was unknown: the
    /// write is as before any try, editable and sent without a read-back. The claim goes too.
    pub fn clear_attempted(&self, id: i64) -> Result<(), OutboxError> {
        self.database.durably(|connection| {
            connection.execute(
                "UPDATE outbox SET attempted = 0, before = NULL, claimed_by = NULL WHERE id = ?1",
                params![id],
            )
        })?;
        Ok(())
    }

    /// The write's outcome is unknown and reading back cannot tell: it waits, unclaimed, for
    /// the user to send it by name (then without reading back) or drop it.
    pub fn hold(&self, id: i64) -> Result<(), OutboxError> {
        self.database.durably(|connection| {
            connection.execute(
                "UPDATE outbox SET held = 1, attempted = 0, before = NULL, claimed_by = NULL
                 WHERE id = ?1",
                params![id],
            )
        })?;
        Ok(())
    }

    /// The server has the write (its answer came, or reading back found it): it leaves the
    /// outbox. True when it was there.
    pub fn mark_sent(&self, id: i64) -> Result<bool, OutboxError> {
        let changed = self.database.durably(|connection| {
            connection.execute("DELETE FROM outbox WHERE id = ?1", params![id])
        })?;
        Ok(changed > 0)
    }

    /// A number that changes whenever another process changed the file (a write sent, queued
    /// or dropped by another quire, or an answer cached): the cheap first half of noticing what
    /// another quire did to the outbox.
    pub fn changes_elsewhere(&self) -> Result<i64, OutboxError> {
        let connection = self.database.lock()?;
        connection
            .query_row("PRAGMA data_version", [], |row| row.get(0))
            .map_err(|error| self.failed(error))
    }

    /// Runs `change` on write `id` unless another running quire has claimed it.
    fn change_unclaimed(
        &self,
        id: i64,
        change: impl FnOnce(&rusqlite::Transaction<'_>, ClaimRow) -> Result<(), Refusal>,
    ) -> Result<(), OutboxError> {
        let me = self.me.0.clone();
        let mut refused = None;
        self.database.durably(|connection| {
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let Some(row) = claim_row(&transaction, id)? else {
                refused = Some(OutboxError::Gone);
                return Ok(());
            };
            if let Some(holder) = row.claimed_by.clone().filter(|holder| *holder != me)
                && Claimant(holder).is_alive()
            {
                refused = Some(OutboxError::Elsewhere);
                return Ok(());
            }
            match change(&transaction, row) {
                Ok(()) => transaction.commit(),
                Err(Refusal::Sql(error)) => Err(error),
                Err(Refused(error)) => {
                    refused = Some(error);
                    Ok(())
                }
            }
        })?;
        refused.map_or(Ok(()), Err)
    }

    fn select(
        &self,
        sql: &str,
        arguments: &[&dyn rusqlite::ToSql],
    ) -> Result<Vec<Queued>, OutboxError> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(sql)
            .map_err(|error| self.failed(error))?;
        let rows = statement
            .query_map(arguments, read_row)
            .map_err(|error| self.failed(error))?;
        let mut queued = Vec::new();
        for row in rows {
            match row {
                Ok(Some(write)) => queued.push(write),
                Ok(None) => tracing::warn!("an outbox row this quire cannot read was skipped"),
                Err(error) => return Err(self.failed(error)),
            }
        }
        Ok(queued)
    }

    fn lock(&self) -> Result<std::sync::MutexGuard<'_, Connection>, OutboxError> {
        Ok(self.database.lock()?)
    }

    fn failed(&self, error: impl std::fmt::Display) -> OutboxError {
        OutboxError::Cache(self.database.failed(error))
    }
}

/// Why a change to a write did not happen: SQLite failed, or the write's state refused it.
enum Refusal {
    Sql(rusqlite::Error),
    Refused(OutboxError),
}
use Refusal::Refused;

impl From<rusqlite::Error> for Refusal {
    fn from(error: rusqlite::Error) -> Refusal {
        Refusal::Sql(error)
    }
}

/// A write's state as far as claims go.
struct ClaimRow {
    attempted: bool,
    claimed_by: Option<String>,
}

fn claim_row(connection: &Connection, id: i64) -> rusqlite::Result<Option<ClaimRow>> {
    connection
        .query_row(
            "SELECT attempted, claimed_by FROM outbox WHERE id = ?1",
            params![id],
            |row| {
                Ok(ClaimRow {
                    attempted: row.get::<_, i64>(0)? != 0,
                    claimed_by: row.get(1)?,
                })
            },
        )
        .optional()
}

fn has_column(connection: &Connection, column: &str) -> rusqlite::Result<bool> {
    let mut statement = connection.prepare("SELECT name FROM pragma_table_info('outbox')")?;
    let names: Vec<String> = statement
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(names.iter().any(|name| name == column))
}

fn read_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Option<Queued>> {
    let text: String = row.get(3)?;
    let Ok(write) = serde_json::from_str::<Write>(&text) else {
        return Ok(None);
    };
    Ok(Some(Queued {
        id: row.get(0)?,
        target: Target::new(row.get::<_, String>(1)?, row.get::<_, String>(2)?),
        write,
        queued_at: from_millis(row.get(4)?),
        attempted: row.get::<_, i64>(5)? != 0,
        before: row
            .get::<_, Option<String>>(6)?
            .and_then(|text| Before::from_json(&text)),
        held: row.get::<_, i64>(7)? != 0,
        about: About::from_json(row.get::<_, Option<String>>(8)?.as_deref()),
    }))
}

/// Writes that are never queued, and the reason the screen gives when one is made offline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unqueued {
    Merge,
    Delete,
    Settings,
    Admin,
}

/// Which kind of never-queued write the refused request (`"METHOD /path"`) was, if any.
pub fn unqueued_kind(endpoint: &str) -> Option<Unqueued> {
    let (method, path) = endpoint.split_once(' ')?;
    let path = path.split('?').next().unwrap_or(path);
    if method == "DELETE" {
        return Some(Unqueued::Delete);
    }
    if path.ends_with("/merge") {
        return Some(Unqueued::Merge);
    }
    if path.contains("settings") || path.contains("/sso") {
        return Some(Unqueued::Settings);
    }
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    match segments.as_slice() {
        // The organization itself, its members and teams.
        ["orgs", _] | ["orgs", _, "members" | "teams" | "invites", ..] => Some(Unqueued::Admin),
        _ => None,
    }
}

/// What the screen says when a write that is never queued is made offline.
pub fn refusal(kind: Unqueued) -> &'static str {
    match kind {
        Unqueued::Merge => {
            "Offline: a merge is not queued; its result depends on the server's state at the time"
        }
        Unqueued::Delete => "Offline: a delete is not queued; it cannot be undone once sent",
        Unqueued::Settings => "Offline: settings are not queued; they may change meanwhile",
        Unqueued::Admin => "Offline: administration is not queued; it needs the server's answer",
    }
}

#[cfg(test)]
#[path = "outbox_tests.rs"]
mod tests;
