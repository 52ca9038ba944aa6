//! The outbox in the cache's database, beside a client reading the real sandbox: what was queued
//! is there after the file is opened again, clearing the cache keeps it, and the file stays
//! private and never holds the token. Sending it never doubles a write: one whose outcome is
//! unknown is read back first.

use std::os::unix::fs::PermissionsExt;

use quire::api::cache::Cache;
use quire::api::outbox::{Outbox, Target, Write};
use quire::api::outbox_send::{Sent, send_queued};
use quire::api::read_back;
use quire::api::{ApiError, Client, ClientConfig, CommentFilter, SortOrder, Token};
use quire::sandbox::{Fault, FaultRule, Faults, Outage, Sandbox, SandboxOptions, demo_ids, tokens};

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[tokio::test]
async fn a_queued_write_survives_reopening_and_clearing_the_cache_in_a_private_file() -> TestResult
{
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?;
    let data = tempfile::tempdir()?;
    let path = quire::cli::cache::cache_path(data.path(), &sandbox.base_url(), tokens::ADMIN);
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))?;
    client.use_cache(Cache::open(&path, 10 << 20)?);
    client.list_organizations(None).await?;
    let target = Target::new(demo_ids::SPACE_GETTING_STARTED, "1");
    let written = Write::Reply {
        comment: "thread".to_string(),
        markdown: "Queued while offline".to_string(),
    };
    Outbox::open(&path)?.enqueue(&target, &written)?;
    Cache::open(&path, 10 << 20)?.clear()?;

    let reopened = Outbox::open(&path)?;
    let listed = reopened.list()?;
    assert_eq!(listed.len(), 1);
    assert_eq!((&listed[0].target, &listed[0].write), (&target, &written));
    assert!(!listed[0].attempted);
    let folder = path.parent().ok_or("a folder")?;
    assert_eq!(
        std::fs::metadata(folder)?.permissions().mode() & 0o777,
        0o700
    );
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        let mode = entry.metadata()?.permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", entry.path().display());
        let bytes = std::fs::read(entry.path())?;
        let token = tokens::ADMIN.as_bytes();
        assert!(!bytes.windows(token.len()).any(|window| window == token));
    }
    Ok(())
}

const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;
const CR: &str = demo_ids::CR_REVIEW;

/// A sandbox and a client for it with a cache (so an outbox) in a fresh folder.
async fn client_with_outbox()
-> Result<(Sandbox, Client, std::sync::Arc<Outbox>, tempfile::TempDir), Box<dyn std::error::Error>>
{
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?;
    let data = tempfile::tempdir()?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))?;
    client.use_cache(Cache::open(&data.path().join("cache.sqlite"), 10 << 20)?);
    let outbox = client.outbox().ok_or("an outbox beside the cache")?;
    Ok((sandbox, client, outbox, data))
}

/// How many comments on the change request have exactly `text`.
async fn stored(client: &Client, text: &str) -> Result<usize, Box<dyn std::error::Error>> {
    let filter = CommentFilter {
        order: Some(SortOrder::Descending),
        ..CommentFilter::default()
    };
    let page = client.list_comments(SPACE, CR, &filter, None).await?;
    Ok(page
        .items
        .iter()
        .filter(|comment| comment.body.markdown.as_deref() == Some(text))
        .count())
}

fn comment(text: &str) -> Write {
    Write::Comment {
        markdown: text.to_string(),
        page: None,
        node: None,
        table_cell: None,
    }
}

#[tokio::test]
async fn a_queued_comment_stored_then_failed_is_read_back_and_not_sent_again() -> TestResult {
    let (sandbox, client, outbox, _data) = client_with_outbox().await?;
    let queued = outbox.enqueue(&Target::new(SPACE, CR), &comment("Stored, answer lost"))?;
    sandbox.set_faults(Faults {
        rules: vec![FaultRule::new("*/comments", Fault::StoreThenFail).method("POST")],
        ..Faults::default()
    });
    let posts = sandbox.requests("POST", "*/comments");
    let sent = send_queued(&client, &outbox, queued.id, true).await;
    sandbox.set_faults(Faults::default());
    assert!(matches!(sent, Sent::Sent), "{sent:?}");
    assert_eq!(sandbox.requests("POST", "*/comments") - posts, 1);
    assert_eq!(stored(&client, "Stored, answer lost").await?, 1);
    assert!(outbox.list()?.is_empty());
    Ok(())
}

#[tokio::test]
async fn an_attempted_comment_is_read_back_first_and_sent_only_when_missing() -> TestResult {
    let (sandbox, client, outbox, _data) = client_with_outbox().await?;
    let target = Target::new(SPACE, CR);
    // What was there when both were tried; one landed before quire was killed waiting for
    // the answer, the other never arrived.
    let before = read_back::comments_before(&client, (SPACE, CR)).await?;
    client
        .post_comment(SPACE, CR, "Landed before", None)
        .await?;
    let landed = outbox.enqueue_unsure(&target, &comment("Landed before"), Some(&before))?;
    let missing = outbox.enqueue_unsure(&target, &comment("Never arrived"), Some(&before))?;
    let posts = sandbox.requests("POST", "*/comments");

    let first = send_queued(&client, &outbox, landed.id, true).await;
    assert!(matches!(first, Sent::AlreadyThere), "{first:?}");
    assert_eq!(sandbox.requests("POST", "*/comments"), posts);
    let second = send_queued(&client, &outbox, missing.id, true).await;
    assert!(matches!(second, Sent::Sent), "{second:?}");
    assert_eq!(sandbox.requests("POST", "*/comments") - posts, 1);
    assert_eq!(stored(&client, "Landed before").await?, 1);
    assert_eq!(stored(&client, "Never arrived").await?, 1);
    assert!(outbox.list()?.is_empty());
    Ok(())
}

#[tokio::test]
async fn a_queued_write_is_kept_as_it_was_while_the_server_refuses_connections() -> TestResult {
    let (sandbox, client, outbox, _data) = client_with_outbox().await?;
    let queued = outbox.enqueue(&Target::new(SPACE, CR), &comment("Still offline"))?;
    sandbox.set_outage(Outage::Refuse).await;
    let sent = send_queued(&client, &outbox, queued.id, true).await;
    assert!(matches!(sent, Sent::Kept(_)), "{sent:?}");
    let left = outbox.list()?;
    assert_eq!(left.len(), 1);
    assert!(!left[0].attempted, "a refused connection carried nothing");
    // So it can still be edited, and goes without a read-back.
    outbox.replace(queued.id, &comment("Still offline, edited"))?;
    let left = outbox.list()?;
    sandbox.set_outage(Outage::None).await;
    let sent = send_queued(&client, &outbox, left[0].id, true).await;
    assert!(matches!(sent, Sent::Sent), "{sent:?}");
    assert_eq!(stored(&client, "Still offline, edited").await?, 1);
    Ok(())
}

#[tokio::test]
async fn offline_a_merge_or_a_delete_is_refused_with_the_reason_it_is_not_queued() -> TestResult {
    let (sandbox, client, _outbox, _data) = client_with_outbox().await?;
    let (offline, _record) = client.cache_only();
    let merged = offline.merge_change_request(SPACE, CR).await;
    let message = merged.err().ok_or("refused")?.user_message();
    assert!(
        message.starts_with("Offline: a merge is not queued"),
        "{message}"
    );
    let deleted = offline.delete_comment(SPACE, CR, "any").await;
    let message = deleted.err().ok_or("refused")?.user_message();
    assert!(
        message.starts_with("Offline: a delete is not queued"),
        "{message}"
    );
    assert_eq!(sandbox.requests("POST", "*/merge"), 0);
    Ok(())
}

/// Online but out of reach (the header says "offline"), a merge whose connection was refused
/// never left: it is said in the same words as offline, not queued, not "could not reach".
#[tokio::test]
async fn a_merge_refused_a_connection_says_it_is_not_queued() -> TestResult {
    let (sandbox, client, _outbox, _data) = client_with_outbox().await?;
    sandbox.set_outage(Outage::Refuse).await;
    let merged = client.merge_change_request(SPACE, CR).await;
    let message = merged.err().ok_or("refused")?.user_message();
    assert!(
        message.starts_with("Offline: a merge is not queued"),
        "{message}"
    );
    assert!(message.contains("connection refused"), "{message}");
    Ok(())
}

/// Started with `--offline`, what was never read says it will not load in this run.
#[tokio::test]
async fn offline_by_flag_a_read_never_made_says_to_start_without_it() -> TestResult {
    let (_sandbox, client, _outbox, _data) = client_with_outbox().await?;
    client.set_offline_only(true);
    let read = client.list_organizations(None).await;
    let message = read.err().ok_or("not in the cache")?.user_message();
    assert!(
        message.starts_with("Offline by --offline: not read before; start quire without --offline"),
        "{message}"
    );
    Ok(())
}

#[tokio::test]
async fn the_outbox_calls_list_send_only_the_chosen_write_and_drop_another() -> TestResult {
    use quire::runtime::calls::outbox::{SendTurn, call_outbox};
    use quire::vocabulary::outbox::{OutboxCall, OutboxResponse, SendOutcome};
    let (_sandbox, client, outbox, _data) = client_with_outbox().await?;
    let turn = SendTurn::default();
    let target = Target::new(SPACE, CR);
    let chosen = outbox.enqueue(&target, &comment("Chosen to send"))?;
    let dropped = outbox.enqueue(&target, &comment("Dropped unsent"))?;

    let listed = call_outbox(&client, &turn, OutboxCall::List).await;
    let OutboxResponse::Listed(Ok(listed)) = listed else {
        return Err(format!("{listed:?}").into());
    };
    assert_eq!(listed.writes.len(), 2);
    let sent = call_outbox(
        &client,
        &turn,
        OutboxCall::Send {
            ids: vec![chosen.id],
        },
    )
    .await;
    assert_eq!(
        sent,
        OutboxResponse::Sent(vec![(chosen.id, SendOutcome::Sent)])
    );
    let gone = call_outbox(&client, &turn, OutboxCall::Drop { id: dropped.id }).await;
    assert_eq!(gone, OutboxResponse::Dropped(Ok(true)));

    assert!(outbox.list()?.is_empty());
    assert_eq!(stored(&client, "Chosen to send").await?, 1);
    assert_eq!(stored(&client, "Dropped unsent").await?, 0);
    Ok(())
}

#[tokio::test]
async fn send_all_sends_every_write_and_an_edit_is_refused_once_a_write_was_attempted() -> TestResult
{
    use quire::runtime::calls::outbox::{SendTurn, call_outbox};
    use quire::vocabulary::outbox::{OutboxCall, OutboxResponse, SendOutcome};
    let (_sandbox, client, outbox, _data) = client_with_outbox().await?;
    let turn = SendTurn::default();
    let target = Target::new(SPACE, CR);
    let plain = outbox.enqueue(&target, &comment("Typo here"))?;
    let before = read_back::comments_before(&client, (SPACE, CR)).await?;
    let unsure = outbox.enqueue_unsure(&target, &comment("Maybe landed"), Some(&before))?;

    let edited = call_outbox(
        &client,
        &turn,
        OutboxCall::Edit {
            id: plain.id,
            markdown: "Typo fixed".to_string(),
        },
    )
    .await;
    assert_eq!(edited, OutboxResponse::Edited(Ok(())));
    let refused = call_outbox(
        &client,
        &turn,
        OutboxCall::Edit {
            id: unsure.id,
            markdown: "Changed after it may have landed".to_string(),
        },
    )
    .await;
    assert!(
        matches!(refused, OutboxResponse::Edited(Err(_))),
        "{refused:?}"
    );

    let sent = call_outbox(&client, &turn, OutboxCall::SendAll).await;
    assert_eq!(
        sent,
        OutboxResponse::Sent(vec![
            (plain.id, SendOutcome::Sent),
            (unsure.id, SendOutcome::Sent)
        ])
    );
    assert!(outbox.list()?.is_empty());
    assert_eq!(stored(&client, "Typo fixed").await?, 1);
    assert_eq!(stored(&client, "Typo here").await?, 0);
    assert_eq!(stored(&client, "Maybe landed").await?, 1);
    assert_eq!(outbox.count()?, 0);
    Ok(())
}

#[tokio::test]
async fn the_same_text_posted_long_before_is_not_taken_for_the_queued_comment() -> TestResult {
    let (_sandbox, client, outbox, _data) = client_with_outbox().await?;
    // demo-admin wrote this a year ago; the outbox holds the same words, possibly sent.
    let text =
        "Once this is merged, please post in `#docs-updates` so support can update their macros.";
    assert_eq!(stored(&client, text).await?, 1);
    let before = read_back::comments_before(&client, (SPACE, CR)).await?;
    let queued = outbox.enqueue_unsure(&Target::new(SPACE, CR), &comment(text), Some(&before))?;

    let sent = send_queued(&client, &outbox, queued.id, true).await;
    assert!(matches!(sent, Sent::Sent), "{sent:?}");
    assert_eq!(stored(&client, text).await?, 2);
    assert!(outbox.list()?.is_empty());
    Ok(())
}

#[tokio::test]
async fn without_knowing_what_was_there_a_same_text_match_is_an_unknown_outcome() -> TestResult {
    let (sandbox, client, outbox, _data) = client_with_outbox().await?;
    let text = "LGTM, unknown whether twice";
    client.post_comment(SPACE, CR, text, None).await?;
    // Tried by a quire that did not keep what was there before (or could not read it).
    let queued = outbox.enqueue_unsure(&Target::new(SPACE, CR), &comment(text), None)?;
    let posts = sandbox.requests("POST", "*/comments");

    let first = send_queued(&client, &outbox, queued.id, true).await;
    let Sent::Kept(error) = first else {
        return Err(format!("kept with an unknown outcome, not {first:?}").into());
    };
    assert!(matches!(error, ApiError::MaybeSaved { .. }), "{error:?}");
    assert!(error.user_message().starts_with("Outcome unknown"));
    assert_eq!(
        sandbox.requests("POST", "*/comments"),
        posts,
        "nothing sent"
    );
    assert_eq!(stored(&client, text).await?, 1);
    // The user was told to send it again or drop it: sending again sends it.
    let again = send_queued(&client, &outbox, queued.id, true).await;
    assert!(matches!(again, Sent::Sent), "{again:?}");
    assert_eq!(stored(&client, text).await?, 2);
    Ok(())
}

#[tokio::test]
async fn a_comment_sent_again_under_a_reset_is_not_taken_for_the_older_one() -> TestResult {
    let (sandbox, client, outbox, _data) = client_with_outbox().await?;
    let text = "LGTM";
    client.post_comment(SPACE, CR, text, None).await?;
    let queued = outbox.enqueue(&Target::new(SPACE, CR), &comment(text))?;
    // The second "LGTM" is reset before the server stores it.
    sandbox.set_faults(Faults {
        rules: vec![
            FaultRule::new("*/comments", Fault::Reset)
                .method("POST")
                .times(1),
        ],
        ..Faults::default()
    });
    let sent = send_queued(&client, &outbox, queued.id, true).await;
    sandbox.set_faults(Faults::default());
    assert!(
        matches!(&sent, Sent::Kept(ApiError::NotSaved { .. })),
        "not taken for the older one: {sent:?}"
    );
    assert_eq!(stored(&client, text).await?, 1);
    assert_eq!(outbox.count()?, 1, "kept to be sent again");
    let again = send_queued(&client, &outbox, queued.id, true).await;
    assert!(matches!(again, Sent::Sent), "{again:?}");
    assert_eq!(stored(&client, text).await?, 2);
    Ok(())
}

/// A write whose outcome is unknown is held for the user: sending everything (the automatic
/// send when the server is back, `outbox send` without ids) leaves it; naming it sends it.
#[tokio::test]
async fn a_write_of_unknown_outcome_is_sent_only_when_named() -> TestResult {
    let (_sandbox, client, outbox, _data) = client_with_outbox().await?;
    let text = "LGTM, held for a choice";
    client.post_comment(SPACE, CR, text, None).await?;
    let queued = outbox.enqueue_unsure(&Target::new(SPACE, CR), &comment(text), None)?;
    let first = send_queued(&client, &outbox, queued.id, false).await;
    assert!(
        matches!(first, Sent::Kept(ApiError::MaybeSaved { .. })),
        "{first:?}"
    );
    assert!(outbox.list()?[0].held);
    let everything = send_queued(&client, &outbox, queued.id, false).await;
    assert!(
        matches!(everything, Sent::Kept(ApiError::MaybeSaved { .. })),
        "{everything:?}"
    );
    assert_eq!(stored(&client, text).await?, 1, "not sent without a choice");
    let named = send_queued(&client, &outbox, queued.id, true).await;
    assert!(matches!(named, Sent::Sent), "{named:?}");
    assert_eq!(stored(&client, text).await?, 2);
    Ok(())
}
