//! Writes made while the server could not be reached, kept in the cache's database until the
//! user has looked at them and sends them. Each is written in one transaction before the screen
//! says "queued", so a crash or a kill after that loses nothing.
//!
//! A write that was handed to the network once is marked *attempted* first: its outcome may
//! be unknown (the answer lost, quire killed while waiting), so whoever sends it again reads
//! the thread or review back before sending, and never edits its text in between (the read
//! back looks for the text that may have landed).
//!
//! Only writes that reading back can tell apart are queued: comments, replies, edits of one's
//! own comments, reactions, resolve/unresolve and reviews. Merges, deletes, settings and admin
//! writes are refused offline instead (see [`refusal`]).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::cache::{CacheError, open_private};

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
}

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    space TEXT NOT NULL,
    change_request TEXT NOT NULL,
    write TEXT NOT NULL,
    queued_at_ms INTEGER NOT NULL,
    attempted INTEGER NOT NULL DEFAULT 0
);";

/// The outbox table, in the same private file as the cache (its own connection: SQLite in WAL
/// mode lets the two share the file). Its methods block; callers use them off the async threads.
pub struct Outbox {
    connection: Mutex<Connection>,
    path: PathBuf,
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
    /// Opens (or creates) the outbox in the database at `path`, made private (0600 in a 0700
    /// folder) before SQLite opens it, as the cache is.
    pub fn open(path: &Path) -> Result<Outbox, OutboxError> {
        let failed = |message: String| CacheError::Open {
            path: path.display().to_string(),
            message,
        };
        // A queued write must survive a power cut, not only a crash: full sync on commit.
        let connection = open_private(path, "FULL")?;
        connection
            .execute_batch(SCHEMA)
            .map_err(|error| failed(error.to_string()))?;
        Ok(Outbox {
            connection: Mutex::new(connection),
            path: path.to_path_buf(),
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
        self.insert(target, write, false)
    }

    /// Puts in the outbox a write that was sent and got no answer: it may have landed, so it
    /// is queued as attempted, to be read back before it is sent again.
    pub fn enqueue_unsure(&self, target: &Target, write: &Write) -> Result<Queued, OutboxError> {
        self.insert(target, write, true)
    }

    fn insert(
        &self,
        target: &Target,
        write: &Write,
        attempted: bool,
    ) -> Result<Queued, OutboxError> {
        let text = serde_json::to_string(write).map_err(|error| self.failed(error))?;
        let queued_at = SystemTime::now();
        let mut connection = self.lock()?;
        let transaction = connection
            .transaction()
            .map_err(|error| self.failed(error))?;
        let count: i64 = transaction
            .query_row("SELECT COUNT(*) FROM outbox", [], |row| row.get(0))
            .map_err(|error| self.failed(error))?;
        if count >= MAX_QUEUED as i64 {
            return Err(OutboxError::Full);
        }
        transaction
            .execute(
                "INSERT INTO outbox (space, change_request, write, queued_at_ms, attempted)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    target.space,
                    target.change_request,
                    text,
                    to_millis(queued_at),
                    attempted
                ],
            )
            .map_err(|error| self.failed(error))?;
        let id = transaction.last_insert_rowid();
        transaction.commit().map_err(|error| self.failed(error))?;
        Ok(Queued {
            id,
            target: target.clone(),
            write: write.clone(),
            queued_at: from_millis(to_millis(queued_at)),
            attempted,
        })
    }

    /// Every write waiting, oldest first (the order they are sent in). A row this version of
    /// quire cannot read is left out rather than failing the whole list.
    pub fn list(&self) -> Result<Vec<Queued>, OutboxError> {
        self.select(
            "SELECT id, space, change_request, write, queued_at_ms, attempted
             FROM outbox ORDER BY id ASC",
            params![],
        )
    }

    /// The writes waiting for one change request, oldest first.
    pub fn for_target(&self, target: &Target) -> Result<Vec<Queued>, OutboxError> {
        self.select(
            "SELECT id, space, change_request, write, queued_at_ms, attempted
             FROM outbox WHERE space = ?1 AND change_request = ?2 ORDER BY id ASC",
            params![target.space, target.change_request],
        )
    }

    /// How many writes wait.
    /// How many writes wait, as `list` shows them: a row this version cannot read is not
    /// counted, or the header would count what the outbox screen cannot show.
    pub fn count(&self) -> Result<usize, OutboxError> {
        Ok(self.list()?.len())
    }

    /// Replaces a waiting write (the user edited it). Refused once it was attempted: its old
    /// text may be on the server, and reading back looks for that text.
    pub fn replace(&self, id: i64, write: &Write) -> Result<(), OutboxError> {
        let text = serde_json::to_string(write).map_err(|error| self.failed(error))?;
        let connection = self.lock()?;
        match attempted(&connection, id).map_err(|error| self.failed(error))? {
            None => return Err(OutboxError::Gone),
            Some(true) => return Err(OutboxError::Attempted),
            Some(false) => {}
        }
        connection
            .execute(
                "UPDATE outbox SET write = ?1 WHERE id = ?2",
                params![text, id],
            )
            .map_err(|error| self.failed(error))?;
        Ok(())
    }

    /// Takes a write out without sending it. True when it was there.
    pub fn drop_write(&self, id: i64) -> Result<bool, OutboxError> {
        self.delete(id)
    }

    /// Marks a write as handed to the network, before it is: if quire dies waiting for the
    /// answer, the next send reads back first.
    pub fn mark_attempted(&self, id: i64) -> Result<(), OutboxError> {
        let connection = self.lock()?;
        let changed = connection
            .execute("UPDATE outbox SET attempted = 1 WHERE id = ?1", params![id])
            .map_err(|error| self.failed(error))?;
        if changed == 0 {
            return Err(OutboxError::Gone);
        }
        Ok(())
    }

    /// The try is known not to have reached the server (the connection was refused, the
    /// server said no): the write is as it was before it, editable and sent without a read-back.
    pub fn clear_attempted(&self, id: i64) -> Result<(), OutboxError> {
        let connection = self.lock()?;
        connection
            .execute("UPDATE outbox SET attempted = 0 WHERE id = ?1", params![id])
            .map_err(|error| self.failed(error))?;
        Ok(())
    }

    /// The server has the write (its answer came, or reading back found it): it leaves the
    /// outbox. True when it was there.
    pub fn mark_sent(&self, id: i64) -> Result<bool, OutboxError> {
        self.delete(id)
    }

    fn delete(&self, id: i64) -> Result<bool, OutboxError> {
        let connection = self.lock()?;
        let changed = connection
            .execute("DELETE FROM outbox WHERE id = ?1", params![id])
            .map_err(|error| self.failed(error))?;
        Ok(changed > 0)
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
        self.connection.lock().map_err(|_| {
            OutboxError::Cache(CacheError::Use {
                path: self.path.display().to_string(),
                message: "an earlier use of the outbox failed midway".to_string(),
            })
        })
    }

    fn failed(&self, error: impl std::fmt::Display) -> OutboxError {
        OutboxError::Cache(CacheError::Use {
            path: self.path.display().to_string(),
            message: error.to_string(),
        })
    }
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
    }))
}

fn attempted(connection: &Connection, id: i64) -> rusqlite::Result<Option<bool>> {
    connection
        .query_row(
            "SELECT attempted FROM outbox WHERE id = ?1",
            params![id],
            |row| row.get::<_, i64>(0),
        )
        .optional()
        .map(|found| found.map(|attempted| attempted != 0))
}

fn to_millis(time: SystemTime) -> i64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map(|since| i64::try_from(since.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

fn from_millis(millis: i64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(millis.max(0) as u64)
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
mod tests {
    use super::*;

    fn comment(text: &str) -> Write {
        Write::Comment {
            markdown: text.to_string(),
            page: None,
            node: None,
        }
    }

    #[test]
    fn writes_are_listed_in_order_edited_and_dropped() {
        let folder = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(&folder.path().join("c.sqlite")).unwrap();
        let target = Target::new("space", "cr");
        let first = outbox.enqueue(&target, &comment("one")).unwrap();
        let second = outbox.enqueue(&target, &comment("two")).unwrap();
        outbox.replace(first.id, &comment("one, edited")).unwrap();
        let listed = outbox.list().unwrap();
        assert_eq!(listed.len(), 2);
        assert_eq!(listed[0].write, comment("one, edited"));
        assert!(outbox.drop_write(second.id).unwrap());
        assert!(!outbox.drop_write(second.id).unwrap());
        assert_eq!(outbox.count().unwrap(), 1);
    }

    #[test]
    fn an_attempted_write_is_not_edited_and_leaves_when_sent() {
        let folder = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(&folder.path().join("c.sqlite")).unwrap();
        let queued = outbox
            .enqueue(&Target::new("s", "c"), &comment("hello"))
            .unwrap();
        outbox.mark_attempted(queued.id).unwrap();
        assert!(outbox.list().unwrap()[0].attempted);
        assert!(matches!(
            outbox.replace(queued.id, &comment("other")),
            Err(OutboxError::Attempted)
        ));
        assert!(outbox.mark_sent(queued.id).unwrap());
        assert!(matches!(
            outbox.mark_attempted(queued.id),
            Err(OutboxError::Gone)
        ));
    }

    #[test]
    fn a_row_written_by_a_newer_quire_is_skipped_not_fatal() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("c.sqlite");
        let outbox = Outbox::open(&path).unwrap();
        outbox
            .enqueue(&Target::new("s", "c"), &comment("kept"))
            .unwrap();
        Connection::open(&path)
            .unwrap()
            .execute(
                "INSERT INTO outbox (space, change_request, write, queued_at_ms)
                 VALUES ('s', 'c', '{\"kind\":\"poll\"}', 0)",
                [],
            )
            .unwrap();
        assert_eq!(outbox.list().unwrap().len(), 1);
    }

    #[test]
    fn merges_deletes_settings_and_admin_writes_are_told_apart() {
        let kind = |endpoint: &str| unqueued_kind(endpoint);
        assert_eq!(
            kind("POST /spaces/s/change-requests/1/merge"),
            Some(Unqueued::Merge)
        );
        assert_eq!(
            kind("DELETE /spaces/s/change-requests/1/comments/c"),
            Some(Unqueued::Delete)
        );
        assert_eq!(kind("PATCH /orgs/o/settings"), Some(Unqueued::Settings));
        assert_eq!(kind("PATCH /orgs/o/members/u"), Some(Unqueued::Admin));
        assert_eq!(kind("POST /spaces/s/change-requests/1/comments"), None);
        assert_eq!(kind("nonsense"), None);
        assert!(refusal(Unqueued::Merge).starts_with("Offline: a merge is not queued"));
    }

    #[test]
    fn writes_are_kept_per_change_request() {
        let folder = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(&folder.path().join("c.sqlite")).unwrap();
        let (one, two) = (Target::new("s", "1"), Target::new("s", "2"));
        outbox.enqueue(&one, &comment("a")).unwrap();
        outbox
            .enqueue(
                &two,
                &Write::Resolve {
                    comment: "c".into(),
                    resolved: true,
                },
            )
            .unwrap();
        let mine = outbox.for_target(&two).unwrap();
        assert_eq!(mine.len(), 1);
        assert_eq!(mine[0].write.describe(), "resolve");
    }
}
