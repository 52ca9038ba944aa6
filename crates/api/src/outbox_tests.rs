//! The outbox table on its own: order, edits, claims between processes, and what is kept
//! with a write for reading it back.

use super::*;

fn comment(text: &str) -> Write {
    Write::Comment {
        markdown: text.to_string(),
        page: None,
        node: None,
        table_cell: None,
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
    outbox.mark_attempted(queued.id, None).unwrap();
    assert!(outbox.list().unwrap()[0].attempted);
    assert!(matches!(
        outbox.replace(queued.id, &comment("other")),
        Err(OutboxError::Attempted)
    ));
    assert!(outbox.mark_sent(queued.id).unwrap());
    assert!(matches!(
        outbox.mark_attempted(queued.id, None),
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

/// Marks write `id` as claimed by `holder`, as another quire would.
fn claimed_by(path: &Path, id: i64, holder: &str) {
    Connection::open(path)
        .unwrap()
        .execute(
            "UPDATE outbox SET claimed_by = ?1, attempted = 1 WHERE id = ?2",
            params![holder, id],
        )
        .unwrap();
}

/// An outbox holding one write, claimed by `holder`.
fn one_write_claimed_by(holder: &str) -> (tempfile::TempDir, Outbox, Queued) {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("c.sqlite");
    let outbox = Outbox::open(&path).unwrap();
    let queued = outbox
        .enqueue(&Target::new("s", "c"), &comment("mine"))
        .unwrap();
    claimed_by(&path, queued.id, holder);
    (folder, outbox, queued)
}

#[test]
fn a_write_claimed_by_a_running_quire_is_left_to_it() {
    // Process 1 runs as long as the machine does.
    let running = format!("1:{}", start_time(1).unwrap());
    let (_folder, outbox, queued) = one_write_claimed_by(&running);
    assert_eq!(outbox.claim(queued.id).unwrap(), Claim::Elsewhere);
    assert!(matches!(
        outbox.drop_write(queued.id),
        Err(OutboxError::Elsewhere)
    ));
    assert_eq!(outbox.count().unwrap(), 1);
}

#[test]
fn a_claim_whose_quire_is_gone_is_taken_over_and_read_back_first() {
    let (_folder, outbox, queued) = one_write_claimed_by("4194304999:12");
    let Claim::Mine(taken) = outbox.claim(queued.id).unwrap() else {
        panic!("the claim of a process that is gone is taken over");
    };
    assert!(taken.attempted, "it may have been sent: read back first");
    outbox.mark_sent(queued.id).unwrap();
    assert_eq!(outbox.claim(queued.id).unwrap(), Claim::Gone);
}

#[test]
fn what_was_there_before_a_try_is_kept_with_the_write() {
    let folder = tempfile::tempdir().unwrap();
    let outbox = Outbox::open(&folder.path().join("c.sqlite")).unwrap();
    let queued = outbox
        .enqueue(&Target::new("s", "c"), &comment("LGTM"))
        .unwrap();
    let before = Before::from_json(r#"{"seen":["c-1"]}"#).unwrap();
    outbox.mark_attempted(queued.id, Some(&before)).unwrap();
    let listed = outbox.list().unwrap();
    assert_eq!(listed[0].before.as_ref(), Some(&before));
    outbox.clear_attempted(queued.id).unwrap();
    assert_eq!(outbox.list().unwrap()[0].before, None);
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

#[test]
fn a_comment_queued_before_table_cells_still_loads_and_one_on_a_cell_keeps_it() {
    let old: Write =
        serde_json::from_str(r#"{"kind":"comment","markdown":"hi","page":"p","node":"block-1"}"#)
            .unwrap();
    assert!(matches!(
        old,
        Write::Comment {
            table_cell: None,
            ..
        }
    ));
    let on_cell = Write::Comment {
        markdown: "hi".into(),
        page: Some("p".into()),
        node: Some("block-1".into()),
        table_cell: Some(crate::models::TableCell {
            record: "row-0".into(),
            definition: "col-1".into(),
        }),
    };
    let text = serde_json::to_string(&on_cell).unwrap();
    assert_eq!(serde_json::from_str::<Write>(&text).unwrap(), on_cell);
}
