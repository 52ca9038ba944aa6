//! The real `api::Client` against the real sandbox on loopback: every change-request, comment
//! and review method, each write checked by reading the server's state back.

use quire::api::{
    ApiError, ChangeRequest, ChangeRequestFilter, ChangeRequestOrderBy, ChangeRequestStatus,
    ChangeRequestUpdate, Client, ClientConfig, Comment, CommentFilter, CommentStatus,
    CommentStatusFilter, CommentUpdate, MergeOutcome, PageCursor, ReviewStatus, ReviewVerdict,
    SemanticChangeType, SortOrder, Token, UpdateOutcome,
};
use quire::runtime::calls::change_requests::COMMENT_PAGES;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;

async fn start() -> Result<Sandbox, Box<dyn std::error::Error>> {
    Ok(Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?)
}

fn client_for(sandbox: &Sandbox, token: &str) -> Result<Client, ApiError> {
    Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token)))
}

fn ids(change_requests: &[ChangeRequest]) -> Vec<&str> {
    change_requests
        .iter()
        .map(|change_request| change_request.id.as_str())
        .collect()
}

fn statuses(statuses: &[ChangeRequestStatus]) -> ChangeRequestFilter {
    ChangeRequestFilter {
        statuses: statuses.to_vec(),
        ..ChangeRequestFilter::default()
    }
}

async fn space_list(
    client: &Client,
    filter: &ChangeRequestFilter,
) -> Result<Vec<ChangeRequest>, ApiError> {
    Ok(client
        .list_space_change_requests(SPACE, filter, None)
        .await?
        .items)
}

async fn organization_list(
    client: &Client,
    filter: &ChangeRequestFilter,
) -> Result<Vec<ChangeRequest>, ApiError> {
    Ok(client
        .list_organization_change_requests(demo_ids::ACME, filter, None)
        .await?
        .items)
}

fn status_of(error: Result<impl std::fmt::Debug, ApiError>) -> Option<u16> {
    error.err().and_then(|error| error.status())
}

#[tokio::test]
async fn space_and_organization_lists_apply_every_filter() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;

    let open = space_list(&client, &ChangeRequestFilter::default()).await?;
    let open_ids = ids(&open);
    for id in [
        demo_ids::CR_REVIEW,
        demo_ids::CR_OUTDATED,
        demo_ids::CR_CONFLICTS,
    ] {
        assert!(open_ids.contains(&id), "{id} in {open_ids:?}");
    }
    assert!(
        open.iter()
            .all(|cr| cr.status == Some(ChangeRequestStatus::Open))
    );

    let drafts = space_list(&client, &statuses(&[ChangeRequestStatus::Draft])).await?;
    assert_eq!(ids(&drafts), vec![demo_ids::CR_DRAFT]);
    // The space list takes one status: only the first is sent.
    let merged_first = space_list(
        &client,
        &statuses(&[ChangeRequestStatus::Merged, ChangeRequestStatus::Open]),
    )
    .await?;
    assert_eq!(ids(&merged_first), vec![demo_ids::CR_MERGED]);

    let by_creator = space_list(
        &client,
        &ChangeRequestFilter {
            creator: Some(demo_ids::USER_FATIMA.into()),
            ..ChangeRequestFilter::default()
        },
    )
    .await?;
    assert_eq!(ids(&by_creator), vec![demo_ids::CR_REVIEW]);
    let by_reviewer = space_list(
        &client,
        &ChangeRequestFilter {
            requested_reviewer: Some(demo_ids::USER_SOFIA.into()),
            ..ChangeRequestFilter::default()
        },
    )
    .await?;
    assert_eq!(ids(&by_reviewer), vec![demo_ids::CR_REVIEW]);
    let by_contributor = space_list(
        &client,
        &ChangeRequestFilter {
            contributor: Some(demo_ids::USER_EDITOR.into()),
            ..ChangeRequestFilter::default()
        },
    )
    .await?;
    assert!(ids(&by_contributor).contains(&demo_ids::CR_REVIEW));

    let by_created = space_list(
        &client,
        &ChangeRequestFilter {
            order_by: Some(ChangeRequestOrderBy::CreatedAt),
            ..ChangeRequestFilter::default()
        },
    )
    .await?;
    let created: Vec<&str> = by_created
        .iter()
        .filter_map(|cr| cr.created_at.as_deref())
        .collect();
    let mut sorted = created.clone();
    sorted.sort_unstable_by(|left, right| right.cmp(left));
    assert_eq!(created, sorted);

    // The organization list repeats `status`: open and draft across Acme's spaces.
    let open_and_draft = organization_list(
        &client,
        &statuses(&[ChangeRequestStatus::Open, ChangeRequestStatus::Draft]),
    )
    .await?;
    let found = ids(&open_and_draft);
    for id in [
        demo_ids::CR_REVIEW,
        demo_ids::CR_DRAFT,
        demo_ids::CR_RUNBOOK,
    ] {
        assert!(found.contains(&id), "{id} in {found:?}");
    }
    assert!(!found.contains(&demo_ids::CR_MERGED));
    assert!(!found.contains(&demo_ids::CR_LUMEN_OPEN));
    let in_space = organization_list(
        &client,
        &ChangeRequestFilter {
            space: Some("spc-platform-runbooks".into()),
            ..ChangeRequestFilter::default()
        },
    )
    .await?;
    assert_eq!(ids(&in_space), vec![demo_ids::CR_RUNBOOK]);
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_change_request_decodes_by_id_and_number() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let review = client
        .get_change_request(SPACE, demo_ids::CR_REVIEW)
        .await?;
    assert_eq!(review.number, Some(u64::from(demo_ids::CR_REVIEW_NUMBER)));
    assert_eq!(review.subject, "Clarify token scopes in Quickstart");
    assert_eq!(review.status, Some(ChangeRequestStatus::Open));
    assert_eq!(
        review.created_by.as_ref().map(|user| user.id.as_str()),
        Some(demo_ids::USER_FATIMA)
    );
    assert!(review.revision.is_some() && review.revision_initial.is_some());
    assert!(review.comments.is_some_and(|count| count > 0));
    assert!(!review.outdated);
    assert!(review.urls.app.is_some());
    assert!(
        review
            .permissions
            .as_ref()
            .is_some_and(|p| p.merge && p.edit)
    );

    let by_number = client
        .get_change_request(SPACE, &demo_ids::CR_REVIEW_NUMBER.to_string())
        .await?;
    assert_eq!(by_number.id, demo_ids::CR_REVIEW);

    let outdated = client
        .get_change_request(SPACE, demo_ids::CR_OUTDATED)
        .await?;
    assert!(outdated.outdated);
    let merged = client
        .get_change_request(SPACE, demo_ids::CR_MERGED)
        .await?;
    assert_eq!(merged.status, Some(ChangeRequestStatus::Merged));
    assert!(merged.merged_by.is_some() && merged.revision_merged.is_some());

    let reader = client_for(&sandbox, tokens::READER)?;
    let seen = reader
        .get_change_request(SPACE, demo_ids::CR_REVIEW)
        .await?;
    assert!(seen.permissions.is_some_and(|p| !p.edit && !p.merge));
    let missing = client.get_change_request(SPACE, "cr-nope").await;
    assert!(missing.is_err_and(|error| error.is_not_found()));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn status_changes_are_stored() -> TestResult {
    let sandbox = start().await?;
    let editor = client_for(&sandbox, tokens::EDITOR)?;
    let opened = editor
        .update_change_request_status(SPACE, demo_ids::CR_DRAFT, &ChangeRequestStatus::Open)
        .await?;
    assert_eq!(opened.status, Some(ChangeRequestStatus::Open));
    let stored = editor.get_change_request(SPACE, demo_ids::CR_DRAFT).await?;
    assert_eq!(stored.status, Some(ChangeRequestStatus::Open));
    editor
        .update_change_request_status(SPACE, demo_ids::CR_DRAFT, &ChangeRequestStatus::Archived)
        .await?;
    let stored = editor.get_change_request(SPACE, demo_ids::CR_DRAFT).await?;
    assert_eq!(stored.status, Some(ChangeRequestStatus::Archived));

    let merged = editor
        .update_change_request_status(SPACE, demo_ids::CR_MERGED, &ChangeRequestStatus::Open)
        .await;
    assert_eq!(status_of(merged), Some(409));
    let reader = client_for(&sandbox, tokens::READER)?;
    let refused = reader
        .update_change_request_status(SPACE, demo_ids::CR_OUTDATED, &ChangeRequestStatus::Draft)
        .await;
    assert_eq!(status_of(refused), Some(403));
    let stored = editor
        .get_change_request(SPACE, demo_ids::CR_OUTDATED)
        .await?;
    assert_eq!(stored.status, Some(ChangeRequestStatus::Open));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn merge_and_update_report_success_and_conflicts() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;

    let conflicting = client
        .merge_change_request(SPACE, demo_ids::CR_CONFLICTS)
        .await?;
    assert_eq!(conflicting.result, MergeOutcome::Conflicts);
    let stored = client
        .get_change_request(SPACE, demo_ids::CR_CONFLICTS)
        .await?;
    assert_eq!(stored.status, Some(ChangeRequestStatus::Open));
    let update = client
        .update_change_request_from_main(SPACE, demo_ids::CR_CONFLICTS)
        .await?;
    assert_eq!(update.result, UpdateOutcome::Conflicts);

    let updated = client
        .update_change_request_from_main(SPACE, demo_ids::CR_OUTDATED)
        .await?;
    assert_eq!(updated.result, UpdateOutcome::Update);
    let stored = client
        .get_change_request(SPACE, demo_ids::CR_OUTDATED)
        .await?;
    assert!(!stored.outdated);
    assert!(stored.revision_merged_ancestor.is_some());
    assert_eq!(stored.revision, updated.revision);

    let merged = client
        .merge_change_request(SPACE, demo_ids::CR_REVIEW)
        .await?;
    assert_eq!(merged.result, MergeOutcome::Merge);
    let stored = client
        .get_change_request(SPACE, demo_ids::CR_REVIEW)
        .await?;
    assert_eq!(stored.status, Some(ChangeRequestStatus::Merged));
    assert_eq!(stored.revision_merged, merged.revision);
    assert_eq!(
        stored.merged_by.map(|user| user.id).as_deref(),
        Some(demo_ids::USER_ADMIN)
    );
    // Main now has the page the change request created.
    let main = client
        .get_page_markdown(SPACE, demo_ids::PAGE_TOKEN_SCOPES)
        .await?;
    assert!(main.markdown.is_some_and(|text| !text.is_empty()));
    let again = client
        .merge_change_request(SPACE, demo_ids::CR_REVIEW)
        .await;
    assert_eq!(status_of(again), Some(409));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn changes_and_both_sides_of_a_page_diff() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let changes = client
        .change_request_changes(SPACE, demo_ids::CR_REVIEW, 50)
        .await?;
    let of_type = |kind: SemanticChangeType, page: &str| {
        changes.changes.iter().any(|change| {
            change.change_type == kind && change.page.as_ref().is_some_and(|p| p.id == page)
        })
    };
    assert!(of_type(
        SemanticChangeType::PageCreated,
        demo_ids::PAGE_TOKEN_SCOPES
    ));
    assert!(of_type(
        SemanticChangeType::PageEdited,
        demo_ids::PAGE_QUICKSTART
    ));
    assert!(of_type(
        SemanticChangeType::PageDeleted,
        demo_ids::PAGE_HIDDEN
    ));
    assert!(of_type(
        SemanticChangeType::PageMoved,
        demo_ids::PAGE_REST_API
    ));
    let moved = changes
        .changes
        .iter()
        .find(|change| change.change_type == SemanticChangeType::PageMoved)
        .ok_or("a move")?;
    assert!(moved.parent.is_some());
    assert_eq!(changes.more, None);
    let total = changes.changes.len() as u64;
    let one = client
        .change_request_changes(SPACE, demo_ids::CR_REVIEW, 1)
        .await?;
    assert_eq!(one.changes.len(), 1);
    assert_eq!(one.more, Some(total - 1));

    let pages = client
        .list_change_request_pages(SPACE, demo_ids::CR_REVIEW)
        .await?;
    fn contains(pages: &[quire::api::Page], id: &str) -> bool {
        pages
            .iter()
            .any(|page| page.id == id || contains(&page.pages, id))
    }
    assert!(contains(&pages, demo_ids::PAGE_TOKEN_SCOPES));
    assert!(!contains(&pages, demo_ids::PAGE_HIDDEN));

    let after = client
        .get_change_request_page_markdown(SPACE, demo_ids::CR_REVIEW, demo_ids::PAGE_QUICKSTART)
        .await?;
    let before = client
        .get_page_markdown(SPACE, demo_ids::PAGE_QUICKSTART)
        .await?;
    let after_text = after.markdown.ok_or("after markdown")?;
    let before_text = before.markdown.ok_or("before markdown")?;
    assert!(after_text.contains("## Check your token"));
    assert!(!before_text.contains("## Check your token"));
    let created = client
        .get_change_request_page_markdown(SPACE, demo_ids::CR_REVIEW, demo_ids::PAGE_TOKEN_SCOPES)
        .await?;
    assert!(created.markdown.is_some());
    let only_in_cr = client
        .get_page_markdown(SPACE, demo_ids::PAGE_TOKEN_SCOPES)
        .await;
    assert!(only_in_cr.is_err_and(|error| error.is_not_found()));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn comments_are_listed_lazily_and_filtered() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let cr = demo_ids::CR_REVIEW;
    let everything = client
        .list_all_comments(SPACE, cr, &CommentFilter::default(), COMMENT_PAGES)
        .await?
        .items;
    assert!(everything.len() > 20, "{}", everything.len());
    assert!(
        everything
            .iter()
            .all(|comment| comment.body.markdown().is_some())
    );

    // Lazily, small pages, no gaps or repeats.
    let mut cursor = PageCursor::new();
    let mut lazily: Vec<Comment> = Vec::new();
    let mut page: Option<String> = None;
    loop {
        cursor
            .begin(page.as_deref())
            .map_err(|reason| format!("paging loop: {reason}"))?;
        let list = client
            .list_comments(SPACE, cr, &CommentFilter::default(), page.as_deref())
            .await?;
        lazily.extend(list.items);
        match list.next_page {
            Some(next) => page = Some(next),
            None => break,
        }
    }
    let lazy_ids: Vec<&str> = lazily.iter().map(|comment| comment.id.as_str()).collect();
    let all_ids: Vec<&str> = everything
        .iter()
        .map(|comment| comment.id.as_str())
        .collect();
    assert_eq!(lazy_ids, all_ids);

    let open = client
        .list_all_comments(
            SPACE,
            cr,
            &CommentFilter {
                status: Some(CommentStatusFilter::Open),
                ..CommentFilter::default()
            },
            COMMENT_PAGES,
        )
        .await?
        .items;
    let resolved = client
        .list_all_comments(
            SPACE,
            cr,
            &CommentFilter {
                status: Some(CommentStatusFilter::Resolved),
                ..CommentFilter::default()
            },
            COMMENT_PAGES,
        )
        .await?
        .items;
    assert!(!resolved.is_empty());
    assert_eq!(open.len() + resolved.len(), everything.len());
    assert!(resolved.iter().all(|comment| comment.is_resolved()
        && comment.resolved_by.is_some()
        && comment.resolved_at.is_some()));
    assert!(open.iter().all(|comment| !comment.is_resolved()));

    let on_quickstart = client
        .list_all_comments(
            SPACE,
            cr,
            &CommentFilter {
                target_page: Some(demo_ids::PAGE_QUICKSTART.into()),
                ..CommentFilter::default()
            },
            COMMENT_PAGES,
        )
        .await?
        .items;
    assert!(!on_quickstart.is_empty());
    assert!(on_quickstart.iter().all(|comment| {
        comment.target.page.as_ref().map(|page| page.id.as_str()) == Some(demo_ids::PAGE_QUICKSTART)
    }));

    let authors = [demo_ids::USER_REVIEWER, demo_ids::USER_COMMENTER];
    let by_authors = client
        .list_all_comments(
            SPACE,
            cr,
            &CommentFilter {
                authors: authors.iter().map(|id| (*id).to_owned()).collect(),
                ..CommentFilter::default()
            },
            COMMENT_PAGES,
        )
        .await?
        .items;
    assert!(!by_authors.is_empty());
    assert!(by_authors.iter().all(|comment| {
        comment
            .posted_by
            .as_ref()
            .is_some_and(|user| authors.contains(&user.id.as_str()))
    }));
    let expected = everything
        .iter()
        .filter(|comment| {
            comment
                .posted_by
                .as_ref()
                .is_some_and(|user| authors.contains(&user.id.as_str()))
        })
        .count();
    assert_eq!(by_authors.len(), expected);

    let ascending = client
        .list_all_comments(
            SPACE,
            cr,
            &CommentFilter {
                order: Some(SortOrder::Ascending),
                ..CommentFilter::default()
            },
            COMMENT_PAGES,
        )
        .await?
        .items;
    let mut reversed: Vec<&str> = ascending
        .iter()
        .map(|comment| comment.id.as_str())
        .collect();
    reversed.reverse();
    assert_eq!(reversed, all_ids);
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_comment_thread_is_written_resolved_reacted_and_deleted() -> TestResult {
    let sandbox = start().await?;
    let commenter = client_for(&sandbox, tokens::COMMENTER)?;
    let reviewer = client_for(&sandbox, tokens::REVIEWER)?;
    let cr = demo_ids::CR_OUTDATED;

    let posted = commenter
        .post_comment(SPACE, cr, "Does this work on **Pi 4**?", None)
        .await?;
    let stored = commenter.get_comment(SPACE, cr, &posted.id).await?;
    assert_eq!(stored.body.markdown(), Some("Does this work on **Pi 4**?"));
    assert_eq!(
        stored.posted_by.as_ref().map(|user| user.id.as_str()),
        Some(demo_ids::USER_COMMENTER)
    );
    assert_eq!(stored.status, Some(CommentStatus::Open));
    assert!(stored.permissions.edit && stored.permissions.delete);

    let on_page = commenter
        .post_comment(SPACE, cr, "Typo here", Some(demo_ids::PAGE_INSTALL_LINUX))
        .await?;
    let stored = commenter.get_comment(SPACE, cr, &on_page.id).await?;
    assert_eq!(
        stored.target.page.map(|page| page.id).as_deref(),
        Some(demo_ids::PAGE_INSTALL_LINUX)
    );
    let bad_page = commenter
        .post_comment(SPACE, cr, "Nowhere", Some("pg-nope"))
        .await;
    assert_eq!(status_of(bad_page), Some(400));

    // Edit (author only), react (anyone who may comment), resolve and reopen.
    let edited = commenter
        .update_comment(
            SPACE,
            cr,
            &posted.id,
            &CommentUpdate::edit("Does this work on a Pi 4?"),
        )
        .await?;
    assert_eq!(edited.body.markdown(), Some("Does this work on a Pi 4?"));
    let stored = commenter.get_comment(SPACE, cr, &posted.id).await?;
    assert_eq!(stored.body.markdown(), Some("Does this work on a Pi 4?"));
    assert!(stored.edited_at.is_some());
    let not_author = reviewer
        .update_comment(SPACE, cr, &posted.id, &CommentUpdate::edit("hijack"))
        .await;
    assert_eq!(status_of(not_author), Some(403));

    reviewer
        .update_comment(SPACE, cr, &posted.id, &CommentUpdate::react("👍", true))
        .await?;
    commenter
        .update_comment(SPACE, cr, &posted.id, &CommentUpdate::react("👍", true))
        .await?;
    let stored = commenter.get_comment(SPACE, cr, &posted.id).await?;
    let thumbs = stored
        .reactions
        .iter()
        .find(|reaction| reaction.emoji == "👍")
        .ok_or("thumbs up")?;
    assert_eq!(thumbs.count, 2);
    assert_eq!(thumbs.users.len(), 2);
    reviewer
        .update_comment(SPACE, cr, &posted.id, &CommentUpdate::react("👍", false))
        .await?;
    let stored = commenter.get_comment(SPACE, cr, &posted.id).await?;
    let thumbs = stored
        .reactions
        .iter()
        .find(|reaction| reaction.emoji == "👍")
        .ok_or("thumbs up after removal")?;
    assert_eq!(thumbs.count, 1);
    assert_eq!(thumbs.users[0].user.id, demo_ids::USER_COMMENTER);

    reviewer
        .update_comment(SPACE, cr, &posted.id, &CommentUpdate::resolve(true))
        .await?;
    let stored = commenter.get_comment(SPACE, cr, &posted.id).await?;
    assert!(stored.is_resolved());
    assert_eq!(
        stored.resolved_by.map(|user| user.id).as_deref(),
        Some(demo_ids::USER_REVIEWER)
    );
    commenter
        .update_comment(SPACE, cr, &posted.id, &CommentUpdate::resolve(false))
        .await?;
    let stored = commenter.get_comment(SPACE, cr, &posted.id).await?;
    assert!(!stored.is_resolved());

    // Replies.
    let reply = reviewer
        .post_reply(SPACE, cr, &posted.id, "Yes, with the 64-bit image.")
        .await?;
    let stored_reply = reviewer.get_reply(SPACE, cr, &posted.id, &reply.id).await?;
    assert_eq!(
        stored_reply.body.markdown(),
        Some("Yes, with the 64-bit image.")
    );
    let listed = reviewer.list_replies(SPACE, cr, &posted.id, None).await?;
    assert_eq!(listed.items.len(), 1);
    assert_eq!(listed.items[0].id, reply.id);
    let thread = commenter.get_comment(SPACE, cr, &posted.id).await?;
    assert_eq!(thread.replies, Some(1));
    assert!(
        thread
            .repliers
            .iter()
            .any(|replier| replier.user.id == demo_ids::USER_REVIEWER)
    );

    reviewer
        .update_reply(
            SPACE,
            cr,
            &posted.id,
            &reply.id,
            &CommentUpdate::edit("Yes, with the 64-bit OS image."),
        )
        .await?;
    commenter
        .update_reply(
            SPACE,
            cr,
            &posted.id,
            &reply.id,
            &CommentUpdate::react("🎉", true),
        )
        .await?;
    let stored_reply = reviewer.get_reply(SPACE, cr, &posted.id, &reply.id).await?;
    assert_eq!(
        stored_reply.body.markdown(),
        Some("Yes, with the 64-bit OS image.")
    );
    assert!(stored_reply.edited_at.is_some());
    assert_eq!(stored_reply.reactions.len(), 1);
    assert_eq!(stored_reply.reactions[0].emoji, "🎉");

    let commenters = reviewer.list_commenters(SPACE, cr, None).await?;
    let commenter_ids: Vec<&str> = commenters
        .items
        .iter()
        .map(|member| member.user.id.as_str())
        .collect();
    assert!(commenter_ids.contains(&demo_ids::USER_COMMENTER));
    assert!(commenter_ids.contains(&demo_ids::USER_REVIEWER));

    // Deletes: someone else's is refused; own ones go; a second delete still succeeds.
    let refused = commenter
        .delete_reply(SPACE, cr, &posted.id, &reply.id)
        .await;
    assert_eq!(status_of(refused), Some(403));
    reviewer
        .delete_reply(SPACE, cr, &posted.id, &reply.id)
        .await?;
    let gone = reviewer.get_reply(SPACE, cr, &posted.id, &reply.id).await;
    assert!(gone.is_err_and(|error| error.is_not_found()));
    reviewer
        .delete_reply(SPACE, cr, &posted.id, &reply.id)
        .await?;

    commenter.delete_comment(SPACE, cr, &posted.id).await?;
    let gone = commenter.get_comment(SPACE, cr, &posted.id).await;
    assert!(gone.is_err_and(|error| error.is_not_found()));
    commenter.delete_comment(SPACE, cr, &posted.id).await?;
    let remaining = commenter
        .list_all_comments(SPACE, cr, &CommentFilter::default(), COMMENT_PAGES)
        .await?
        .items;
    assert!(!remaining.iter().any(|comment| comment.id == posted.id));
    assert!(remaining.iter().any(|comment| comment.id == on_page.id));

    let reader = client_for(&sandbox, tokens::READER)?;
    let refused = reader.post_comment(SPACE, cr, "hello", None).await;
    assert_eq!(status_of(refused), Some(403));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn reviews_and_requested_reviewers_round_trip() -> TestResult {
    let sandbox = start().await?;
    let editor = client_for(&sandbox, tokens::EDITOR)?;
    let reviewer = client_for(&sandbox, tokens::REVIEWER)?;
    let cr = demo_ids::CR_REVIEW;

    let reviews = reviewer.list_reviews(SPACE, cr, None).await?;
    let by_hannah: Vec<_> = reviews
        .items
        .iter()
        .filter(|review| {
            review.reviewer.as_ref().map(|user| user.id.as_str()) == Some(demo_ids::USER_HANNAH)
        })
        .collect();
    assert_eq!(by_hannah.len(), 2);
    assert_eq!(by_hannah.iter().filter(|review| review.outdated).count(), 1);

    let requested = reviewer.list_requested_reviewers(SPACE, cr, None).await?;
    assert!(
        requested
            .items
            .iter()
            .any(|entry| entry.user_id() == Some(demo_ids::USER_SOFIA))
    );

    // Ask Priya (the reviewer token) to review, afresh: the demo may already have asked her.
    editor
        .remove_requested_reviewer(SPACE, cr, demo_ids::USER_REVIEWER)
        .await?;
    let requested = reviewer.list_requested_reviewers(SPACE, cr, None).await?;
    assert!(
        !requested
            .items
            .iter()
            .any(|entry| entry.user_id() == Some(demo_ids::USER_REVIEWER))
    );
    let answered = editor
        .request_reviewers(SPACE, cr, &[demo_ids::USER_REVIEWER])
        .await?;
    assert!(
        answered
            .iter()
            .any(|entry| entry.user_id() == Some(demo_ids::USER_REVIEWER))
    );
    let requested = reviewer.list_requested_reviewers(SPACE, cr, None).await?;
    let priya = requested
        .items
        .iter()
        .find(|entry| entry.user_id() == Some(demo_ids::USER_REVIEWER))
        .ok_or("priya requested")?;
    assert_eq!(
        priya.requested_by.as_ref().map(|user| user.id.as_str()),
        Some(demo_ids::USER_EDITOR)
    );
    let refused = editor.request_reviewers(SPACE, cr, &["usr-nobody"]).await;
    assert_eq!(status_of(refused), Some(400));

    // Priya approves with a comment.
    let review = reviewer
        .submit_review(
            SPACE,
            cr,
            ReviewVerdict::Approved,
            Some("Scopes read well now."),
        )
        .await?;
    assert_eq!(review.status, Some(ReviewStatus::Approved));
    assert_eq!(
        review
            .comment
            .as_ref()
            .and_then(|comment| comment.markdown()),
        Some("Scopes read well now.")
    );
    let reviews = reviewer.list_reviews(SPACE, cr, None).await?;
    let stored = reviews
        .items
        .iter()
        .find(|candidate| candidate.id == review.id)
        .ok_or("review listed")?;
    assert_eq!(stored.status, Some(ReviewStatus::Approved));
    assert!(!stored.outdated);
    assert_eq!(
        stored.requested_by.as_ref().map(|user| user.id.as_str()),
        Some(demo_ids::USER_EDITOR)
    );
    assert_eq!(
        stored
            .comment
            .as_ref()
            .and_then(|comment| comment.markdown()),
        Some("Scopes read well now.")
    );
    // Reviewing fulfils the request.
    let requested = reviewer.list_requested_reviewers(SPACE, cr, None).await?;
    assert!(
        !requested
            .items
            .iter()
            .any(|entry| entry.user_id() == Some(demo_ids::USER_REVIEWER))
    );

    // A second review supersedes the first.
    let second = reviewer
        .submit_review(SPACE, cr, ReviewVerdict::ChangesRequested, None)
        .await?;
    assert_eq!(second.status, Some(ReviewStatus::ChangesRequested));
    assert_eq!(second.comment, None);
    let reviews = reviewer.list_reviews(SPACE, cr, None).await?;
    let first = reviews
        .items
        .iter()
        .find(|candidate| candidate.id == review.id)
        .ok_or("first review listed")?;
    assert!(first.outdated);

    // Remove Sofia's request; removing again still succeeds (204 after 205).
    editor
        .remove_requested_reviewer(SPACE, cr, demo_ids::USER_SOFIA)
        .await?;
    let requested = reviewer.list_requested_reviewers(SPACE, cr, None).await?;
    assert!(
        !requested
            .items
            .iter()
            .any(|entry| entry.user_id() == Some(demo_ids::USER_SOFIA))
    );
    editor
        .remove_requested_reviewer(SPACE, cr, demo_ids::USER_SOFIA)
        .await?;

    let commenter = client_for(&sandbox, tokens::COMMENTER)?;
    let refused = commenter
        .submit_review(SPACE, cr, ReviewVerdict::Approved, None)
        .await;
    assert_eq!(status_of(refused), Some(403));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn subject_and_description_edits_are_stored_and_only_set_fields_change() -> TestResult {
    let sandbox = start().await?;
    let editor = client_for(&sandbox, tokens::EDITOR)?;
    let description = serde_json::json!({
        "object": "document",
        "nodes": [{"object": "block", "type": "paragraph",
                   "nodes": [{"object": "text", "leaves": [{"text": "Why this change"}]}]}]
    });
    let update = ChangeRequestUpdate {
        subject: Some("A clearer subject".into()),
        description: Some(description.clone()),
        status: None,
    };
    let updated = editor
        .update_change_request(SPACE, demo_ids::CR_DRAFT, &update)
        .await?;
    assert_eq!(updated.subject, "A clearer subject");
    assert_eq!(
        updated.status,
        Some(ChangeRequestStatus::Draft),
        "status untouched"
    );
    let stored = editor.get_change_request(SPACE, demo_ids::CR_DRAFT).await?;
    assert_eq!(stored.subject, "A clearer subject");
    assert_eq!(stored.description.as_ref(), Some(&description));
    // A status change alone leaves the subject and description as they are.
    editor
        .update_change_request(
            SPACE,
            demo_ids::CR_DRAFT,
            &ChangeRequestUpdate::status(ChangeRequestStatus::Open),
        )
        .await?;
    let stored = editor.get_change_request(SPACE, demo_ids::CR_DRAFT).await?;
    assert_eq!(stored.subject, "A clearer subject");
    assert_eq!(stored.description.as_ref(), Some(&description));
    assert_eq!(stored.status, Some(ChangeRequestStatus::Open));
    // Too long a subject is refused by the server, and a reader may not edit at all.
    let long = ChangeRequestUpdate::subject("x".repeat(ChangeRequestUpdate::MAX_SUBJECT + 1));
    let refused = editor
        .update_change_request(SPACE, demo_ids::CR_DRAFT, &long)
        .await;
    assert_eq!(status_of(refused), Some(400));
    let reader = client_for(&sandbox, tokens::READER)?;
    let refused = reader
        .update_change_request(
            SPACE,
            demo_ids::CR_DRAFT,
            &ChangeRequestUpdate::subject("Mine"),
        )
        .await;
    assert_eq!(status_of(refused), Some(403));
    sandbox.shutdown().await;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Change requests: create, description, PDF, several statuses of one space, clusters

#[tokio::test]
async fn create_then_read_back_and_refusals_are_errors() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::EDITOR)?;
    let created = client
        .create_change_request(SPACE, "Explain scopes")
        .await?;
    assert_eq!(created.subject, "Explain scopes");
    assert_eq!(created.status, Some(ChangeRequestStatus::Open));
    let read = client.get_change_request(SPACE, &created.id).await?;
    assert_eq!(read.number, created.number);
    let reader = client_for(&sandbox, tokens::READER)?;
    assert_eq!(
        status_of(reader.create_change_request(SPACE, "No").await),
        Some(403)
    );
    assert_eq!(
        status_of(client.create_change_request(SPACE, &"x".repeat(101)).await),
        Some(400)
    );
    Ok(())
}

#[tokio::test]
async fn description_update_sends_the_document_only() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::EDITOR)?;
    let document = serde_json::json!({"object": "document", "data": {}, "nodes": [
        {"object": "block", "type": "paragraph", "data": {}, "nodes": [
            {"object": "text", "leaves": [{"object": "leaf", "text": "New words", "marks": []}]}]}
    ]});
    let updated = client
        .update_change_request(
            SPACE,
            demo_ids::CR_REVIEW,
            &ChangeRequestUpdate::description(document.clone()),
        )
        .await?;
    assert_eq!(updated.description, Some(document.clone()));
    let read = client
        .get_change_request(SPACE, demo_ids::CR_REVIEW)
        .await?;
    assert_eq!(read.description, Some(document));
    assert_eq!(read.subject, "Clarify token scopes in Quickstart");
    Ok(())
}

#[tokio::test]
async fn pdf_addresses_for_the_change_request_and_one_page() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::READER)?;
    let whole = client
        .change_request_pdf(SPACE, demo_ids::CR_REVIEW, None)
        .await?;
    assert!(whole.url.ends_with(".pdf"), "{}", whole.url);
    let page = client
        .change_request_pdf(
            SPACE,
            demo_ids::CR_REVIEW,
            Some(demo_ids::PAGE_TOKEN_SCOPES),
        )
        .await?;
    assert!(
        page.url.contains(demo_ids::PAGE_TOKEN_SCOPES),
        "{}",
        page.url
    );
    assert_eq!(
        status_of(
            client
                .change_request_pdf(SPACE, demo_ids::CR_REVIEW, Some("pg-nowhere"))
                .await
        ),
        Some(404)
    );
    Ok(())
}

/// Several statuses of one space: the space list takes one, so quire asks the organization's
/// list (which takes several) for that space.
#[tokio::test]
async fn several_statuses_of_one_space_through_the_organization_list() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let filter = ChangeRequestFilter {
        statuses: vec![ChangeRequestStatus::Draft, ChangeRequestStatus::Merged],
        space: Some(SPACE.into()),
        ..ChangeRequestFilter::default()
    };
    let found = organization_list(&client, &filter).await?;
    let mut found_ids = ids(&found);
    found_ids.sort_unstable();
    let mut expected = vec![demo_ids::CR_DRAFT, demo_ids::CR_MERGED];
    expected.sort_unstable();
    assert_eq!(found_ids, expected);
    Ok(())
}

#[tokio::test]
async fn cluster_filter_and_the_clusters_list() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let clusters = client.list_issue_clusters(demo_ids::ACME).await?.items;
    assert_eq!(clusters.len(), 4);
    assert!(
        clusters
            .iter()
            .any(|cluster| cluster.id == demo_ids::CLUSTER_TOKEN_ERRORS
                && cluster.label == "Token scope errors"
                && cluster.stats.issues.is_some())
    );
    let filter = ChangeRequestFilter {
        issues_cluster: Some(demo_ids::CLUSTER_TOKEN_ERRORS.into()),
        ..ChangeRequestFilter::default()
    };
    let in_space = space_list(&client, &filter).await?;
    assert_eq!(ids(&in_space), vec![demo_ids::CR_REVIEW]);
    assert_eq!(
        in_space[0].conversations_issues_cluster.as_deref(),
        Some(demo_ids::CLUSTER_TOKEN_ERRORS)
    );
    let in_organization = organization_list(&client, &filter).await?;
    assert_eq!(ids(&in_organization), vec![demo_ids::CR_REVIEW]);
    assert_eq!(
        status_of(client.list_issue_clusters("org-nowhere").await),
        Some(404)
    );
    Ok(())
}
