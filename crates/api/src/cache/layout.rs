//! How an answer's body goes into the file and comes out: through SQLite's blob handle, in
//! place, so neither SQLite nor quire holds a second copy of a body (a page list can be 7 MB).

use rusqlite::{Connection, MAIN_DB, OptionalExtension, Transaction, params};

/// Stores the row for `key` with room for `body`, then writes the body into that room.
pub(super) fn write_answer(
    transaction: &Transaction<'_>,
    key: &str,
    body: &[u8],
    stored_at_ms: i64,
    used: i64,
) -> rusqlite::Result<()> {
    let size = i64::try_from(body.len()).unwrap_or(i64::MAX);
    transaction.execute(
        "INSERT INTO answers (key, size, stored_at_ms, used, body)
         VALUES (?1, ?2, ?3, ?4, zeroblob(?2))
         ON CONFLICT(key) DO UPDATE
         SET size = ?2, stored_at_ms = ?3, used = ?4, body = zeroblob(?2)",
        params![key, size, stored_at_ms, used],
    )?;
    let row: i64 = transaction.query_row(
        "SELECT rowid FROM answers WHERE key = ?1",
        params![key],
        |row| row.get(0),
    )?;
    if body.is_empty() {
        return Ok(());
    }
    let mut blob = transaction.blob_open(MAIN_DB, c"answers", c"body", row, false)?;
    blob.write_at(body, 0)
}

/// The body and time of receipt stored under `key`; the body read into one buffer of its size.
/// One read transaction, so another quire replacing the answer meanwhile is not half seen.
pub(super) fn read_answer(
    connection: &mut Connection,
    key: &str,
) -> rusqlite::Result<Option<(Vec<u8>, i64)>> {
    let transaction = connection.transaction()?;
    let found = transaction
        .query_row(
            "SELECT rowid, stored_at_ms FROM answers WHERE key = ?1",
            params![key],
            |row| Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?)),
        )
        .optional()?;
    let Some((row, stored_at_ms)) = found else {
        return Ok(None);
    };
    let blob = transaction.blob_open(MAIN_DB, c"answers", c"body", row, true)?;
    let mut body = vec![0; blob.len()];
    blob.read_at_exact(&mut body, 0)?;
    drop(blob);
    transaction.commit()?;
    Ok(Some((body, stored_at_ms)))
}

/// Files written before the body came last have it second: those rows are moved into a
/// table of the new layout, in one transaction that another quire opening the file waits for
/// (and then finds nothing left to do). A table of other columns is left as it is, for the
/// schema check to refuse.
pub(super) fn put_body_last(connection: &Connection) -> rusqlite::Result<()> {
    if !body_comes_before_the_end(connection)? {
        return Ok(());
    }
    connection.execute_batch("BEGIN IMMEDIATE")?;
    let moved = move_rows_to_new_layout(connection);
    let end = if moved.is_ok() { "COMMIT" } else { "ROLLBACK" };
    let ended = connection.execute_batch(end);
    moved.and(ended)
}

fn move_rows_to_new_layout(connection: &Connection) -> rusqlite::Result<()> {
    // Checked again under the write lock: another quire may have moved them meanwhile.
    if !body_comes_before_the_end(connection)? {
        return Ok(());
    }
    connection.execute_batch(
        "CREATE TABLE answers_body_last (
            key TEXT PRIMARY KEY,
            size INTEGER NOT NULL,
            stored_at_ms INTEGER NOT NULL,
            used INTEGER NOT NULL,
            body BLOB NOT NULL
        );
        INSERT INTO answers_body_last (key, size, stored_at_ms, used, body)
            SELECT key, size, stored_at_ms, used, body FROM answers;
        DROP TABLE answers;
        ALTER TABLE answers_body_last RENAME TO answers;
        CREATE INDEX IF NOT EXISTS answers_by_use ON answers (used);",
    )
}

/// True for quire's earlier layout: the five columns, with `body` not last.
fn body_comes_before_the_end(connection: &Connection) -> rusqlite::Result<bool> {
    let mut columns = connection.prepare("SELECT name FROM pragma_table_info('answers')")?;
    let names: Vec<String> = columns
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut sorted = names.clone();
    sorted.sort();
    let ours = sorted == ["body", "key", "size", "stored_at_ms", "used"];
    Ok(ours && names.last().map(String::as_str) != Some("body"))
}
