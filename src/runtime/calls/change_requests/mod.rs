//! Carries out `ChangeRequestsCall`s with the API client. Independent requests run in parallel (the
//! client keeps at most 16 in flight per host). A review loads in one round without the
//! threads' replies; the screen then asks for the replies it shows first, the rest behind.

pub mod breaking_links;
mod review;

pub use review::{COMMENT_PAGES, load_review};

use futures::future::join_all;

use crate::api::models::revision::{TableShape, table_shapes};
use crate::api::models::{ChangeRequestReview, CommentReply, Page, RequestedReviewer, TableCell};
use crate::api::outbox::{Target, Write};
use crate::api::read_back;
use crate::api::{ApiError, ChangeRequestUpdate, Client, ReviewVerdict};
use crate::runtime::calls::queue;
use crate::vocabulary::change_requests::{
    ChangeRequestRef, ChangeRequestScope, ChangeRequestsCall, ChangeRequestsResponse, PageSides,
    SubmittedReview, ThreadReplies,
};

/// Semantic changes asked for at once; the server says how many more there are.
pub(super) const CHANGES_LIMIT: u32 = 200;

pub(super) fn outbox_target(target: &ChangeRequestRef) -> Target {
    Target::new(&target.space, &target.change_request)
}

pub async fn call_change_requests(
    client: &Client,
    call: ChangeRequestsCall,
) -> ChangeRequestsResponse {
    match call {
        ChangeRequestsCall::CurrentUser => {
            ChangeRequestsResponse::CurrentUser(client.current_user().await)
        }
        ChangeRequestsCall::ListChangeRequests {
            scope,
            filter,
            page,
        } => ChangeRequestsResponse::ChangeRequests(match scope {
            ChangeRequestScope::Space(space) => {
                client
                    .list_space_change_requests(&space, &filter, page.as_deref())
                    .await
            }
            ChangeRequestScope::Organization(organization) => {
                client
                    .list_organization_change_requests(&organization, &filter, page.as_deref())
                    .await
            }
        }),
        ChangeRequestsCall::LoadReview(target) => {
            ChangeRequestsResponse::Review(load_review(client, &target, |_| {}).await)
        }
        ChangeRequestsCall::LoadReplies {
            target, comments, ..
        } => ChangeRequestsResponse::Replies(load_replies(client, &target, comments).await),
        ChangeRequestsCall::LoadPageDiff {
            target,
            page,
            main,
            change_request,
        } => ChangeRequestsResponse::PageDiff(
            load_sides(client, &target, &page, main, change_request).await,
        ),
        ChangeRequestsCall::PostComment {
            target,
            page,
            markdown,
        } => post_comment_once(client, &target, markdown, page, None, None).await,
        ChangeRequestsCall::PostReply {
            target,
            comment,
            markdown,
        } => {
            let thread = (
                target.space.as_str(),
                target.change_request.as_str(),
                comment.as_str(),
            );
            let before = read_back::replies_before(client, thread).await;
            let (before, posted) = read_back::after_a_look(before, || {
                client.post_reply(&target.space, &target.change_request, &comment, &markdown)
            })
            .await;
            let posted =
                read_back::posted_reply(client, thread, &markdown, before.as_ref(), posted).await;
            let write = Write::Reply { comment, markdown };
            let queued = (outbox_target(&target), write);
            queue::or_queue(
                client,
                queued,
                before,
                posted,
                ChangeRequestsResponse::ReplyPosted,
            )
            .await
        }
        ChangeRequestsCall::UpdateComment {
            target,
            comment,
            reply,
            update,
        } => {
            let result = match &reply {
                Some(reply) => client
                    .update_reply(
                        &target.space,
                        &target.change_request,
                        &comment,
                        reply,
                        &update,
                    )
                    .await
                    .map(|_| ()),
                None => client
                    .update_comment(&target.space, &target.change_request, &comment, &update)
                    .await
                    .map(|_| ()),
            };
            match queue::write_of_update(&comment, reply.as_deref(), &update) {
                Some(write) => {
                    let queued = (outbox_target(&target), write);
                    queue::or_queue(
                        client,
                        queued,
                        None,
                        result,
                        ChangeRequestsResponse::CommentUpdated,
                    )
                    .await
                }
                None => ChangeRequestsResponse::CommentUpdated(result),
            }
        }
        ChangeRequestsCall::DeleteComment {
            target,
            comment,
            reply,
        } => ChangeRequestsResponse::Deleted(match reply {
            Some(reply) => {
                client
                    .delete_reply(&target.space, &target.change_request, &comment, &reply)
                    .await
            }
            None => {
                client
                    .delete_comment(&target.space, &target.change_request, &comment)
                    .await
            }
        }),
        ChangeRequestsCall::SubmitReview {
            target,
            verdict,
            comment,
        } => {
            let (before, result) =
                submit_review(client, &target, verdict, comment.as_deref()).await;
            let write = Write::Review {
                approve: verdict == ReviewVerdict::Approved,
                markdown: comment,
            };
            let queued = (outbox_target(&target), write);
            queue::or_queue(
                client,
                queued,
                before,
                result,
                ChangeRequestsResponse::ReviewSubmitted,
            )
            .await
        }
        ChangeRequestsCall::RequestReviewers { target, users } => {
            let users: Vec<&str> = users.iter().map(String::as_str).collect();
            let result = client
                .request_reviewers(&target.space, &target.change_request, &users)
                .await;
            ChangeRequestsResponse::ReviewersChanged(match result {
                Ok(_) => requested_reviewers(client, &target).await,
                Err(error) => Err(error),
            })
        }
        ChangeRequestsCall::RemoveReviewer { target, user } => {
            let result = client
                .remove_requested_reviewer(&target.space, &target.change_request, &user)
                .await;
            ChangeRequestsResponse::ReviewersChanged(match result {
                Ok(()) => requested_reviewers(client, &target).await,
                Err(error) => Err(error),
            })
        }
        ChangeRequestsCall::SetStatus { target, status } => ChangeRequestsResponse::StatusSet(
            client
                .update_change_request_status(&target.space, &target.change_request, &status)
                .await,
        ),
        ChangeRequestsCall::SetSubject { target, subject } => ChangeRequestsResponse::SubjectSet(
            client
                .update_change_request(
                    &target.space,
                    &target.change_request,
                    &ChangeRequestUpdate::subject(subject),
                )
                .await,
        ),
        ChangeRequestsCall::Merge(target) => ChangeRequestsResponse::Merged(
            client
                .merge_change_request(&target.space, &target.change_request)
                .await,
        ),
        ChangeRequestsCall::UpdateFromMain(target) => ChangeRequestsResponse::UpdatedFromMain(
            client
                .update_change_request_from_main(&target.space, &target.change_request)
                .await,
        ),
        ChangeRequestsCall::Create { space, subject } => {
            ChangeRequestsResponse::Created(client.create_change_request(&space, &subject).await)
        }
        ChangeRequestsCall::SetDescription { target, document } => {
            ChangeRequestsResponse::DescriptionSet(
                client
                    .update_change_request(
                        &target.space,
                        &target.change_request,
                        &ChangeRequestUpdate::description(document),
                    )
                    .await,
            )
        }
        ChangeRequestsCall::Pdf { target, page } => ChangeRequestsResponse::Pdf(
            client
                .change_request_pdf(&target.space, &target.change_request, page.as_deref())
                .await
                .map(|pdf| pdf.url),
        ),
        ChangeRequestsCall::ListIssueClusters { organization } => {
            ChangeRequestsResponse::IssueClusters(client.list_issue_clusters(&organization).await)
        }
        ChangeRequestsCall::ListMembers { organization } => ChangeRequestsResponse::Members(
            client
                .list_members_up_to(&organization, crate::runtime::calls::PICKER_PAGES)
                .await,
        ),
        ChangeRequestsCall::PostBlockComment {
            target,
            page,
            node,
            table_cell,
            markdown,
        } => post_comment_once(client, &target, markdown, Some(page), node, table_cell).await,
        ChangeRequestsCall::LoadPagesNow { target, pages } => {
            ChangeRequestsResponse::PagesNow(load_pages_now(client, &target, pages).await)
        }
        ChangeRequestsCall::ListCommenters(target) => ChangeRequestsResponse::Commenters(
            client
                .all_commenters(
                    &target.space,
                    &target.change_request,
                    crate::runtime::calls::PICKER_PAGES,
                )
                .await,
        ),
        ChangeRequestsCall::PageTitles(target) => {
            ChangeRequestsResponse::PageTitles(page_titles(client, &target).await)
        }
        ChangeRequestsCall::BreakingLinks { target, pages } => {
            ChangeRequestsResponse::BreakingLinks(
                breaking_links::breaking_links(client, &target, &pages).await,
            )
        }
    }
}

async fn requested_reviewers(
    client: &Client,
    target: &ChangeRequestRef,
) -> Result<Vec<RequestedReviewer>, ApiError> {
    client
        .list_requested_reviewers(&target.space, &target.change_request, None)
        .await
        .map(|page| page.items)
}

/// Each page of a tree (at any depth) by id, with its `updatedAt`.
fn page_versions(pages: &[Page]) -> std::collections::HashMap<String, String> {
    let mut versions = std::collections::HashMap::new();
    for (page, _) in flatten(pages, None) {
        if let Some(updated) = page.updated_at {
            versions.insert(page.id, updated);
        }
    }
    versions
}

/// Every page of a tree with its parent's id.
/// Every page of the change request's tree with its title, in one request.
async fn page_titles(
    client: &Client,
    target: &ChangeRequestRef,
) -> Result<Vec<(String, String)>, ApiError> {
    let tree = client
        .list_change_request_pages(&target.space, &target.change_request)
        .await?;
    Ok(flatten(&tree, None)
        .into_iter()
        .map(|(page, _)| (page.id, page.title))
        .collect())
}

pub(super) fn flatten(pages: &[Page], parent: Option<&str>) -> Vec<(Page, Option<String>)> {
    let mut all = Vec::new();
    for page in pages {
        all.push((page.clone(), parent.map(str::to_string)));
        all.extend(flatten(&page.pages, Some(&page.id)));
    }
    all
}

/// The replies of each of `comments`, all in parallel; one thread failing leaves the others.
async fn load_replies(
    client: &Client,
    target: &ChangeRequestRef,
    comments: Vec<String>,
) -> Vec<ThreadReplies> {
    join_all(comments.into_iter().map(|comment| async move {
        let replies = all_replies(client, target, &comment).await;
        ThreadReplies { comment, replies }
    }))
    .await
}

/// Every reply of one thread, up to [`COMMENT_PAGES`] pages; what was read is shown when the
/// list does not end (twenty thousand replies to one thread is beyond any review).
async fn all_replies(
    client: &Client,
    target: &ChangeRequestRef,
    comment: &str,
) -> Result<Vec<CommentReply>, ApiError> {
    let listed = client
        .all_replies(
            &target.space,
            &target.change_request,
            comment,
            COMMENT_PAGES,
        )
        .await?;
    Ok(listed.items)
}

/// Submits a review, then reads back the comment it carried, where the service keeps it.
/// A comment on the change request (on a page, and one block of it, when given), sent once:
/// read back when its answer is lost (an older one with the same words is not taken for it),
/// queued when the server is out of reach, with its page and block, like any comment.
async fn post_comment_once(
    client: &Client,
    target: &ChangeRequestRef,
    markdown: String,
    page: Option<String>,
    node: Option<String>,
    table_cell: Option<TableCell>,
) -> ChangeRequestsResponse {
    let change_request = (target.space.as_str(), target.change_request.as_str());
    let before = read_back::comments_before(client, change_request).await;
    let (before, posted) = read_back::after_a_look(before, || {
        client.post_comment_on_cell(
            &target.space,
            &target.change_request,
            &markdown,
            page.as_deref(),
            node.as_deref(),
            table_cell.as_ref(),
        )
    })
    .await;
    let posted =
        read_back::posted_comment(client, change_request, &markdown, before.as_ref(), posted).await;
    let write = Write::Comment {
        markdown,
        page,
        node,
        table_cell,
    };
    let queued = (outbox_target(target), write);
    queue::or_queue(
        client,
        queued,
        before,
        posted,
        ChangeRequestsResponse::CommentPosted,
    )
    .await
}

/// Submits a review, read back when its answer is lost; also what the user's reviews were
/// before, for the outbox should the outcome stay unknown.
async fn submit_review(
    client: &Client,
    target: &ChangeRequestRef,
    verdict: ReviewVerdict,
    comment: Option<&str>,
) -> (Option<read_back::Before>, Result<SubmittedReview, ApiError>) {
    let change_request = (target.space.as_str(), target.change_request.as_str());
    let before = read_back::reviews_before(client, change_request).await;
    let (before, submitted) = read_back::after_a_look(before, || {
        client.submit_review(&target.space, &target.change_request, verdict, comment)
    })
    .await;
    let approve = verdict == ReviewVerdict::Approved;
    let submitted =
        read_back::submitted_review(client, change_request, approve, before.as_ref(), submitted)
            .await;
    let result = match submitted {
        Ok(review) => with_comment(client, target, review).await,
        Err(error) => Err(error),
    };
    (before, result)
}

/// A submitted review with its comment read back whole.
async fn with_comment(
    client: &Client,
    target: &ChangeRequestRef,
    review: ChangeRequestReview,
) -> Result<SubmittedReview, ApiError> {
    let comment = match review.comment.as_ref().and_then(|c| c.id.as_deref()) {
        Some(id) => client
            .get_comment(&target.space, &target.change_request, id)
            .await
            .inspect_err(|error| tracing::warn!(%error, "reading a review's comment back"))
            .ok(),
        None => None,
    };
    Ok(SubmittedReview { review, comment })
}

async fn load_sides(
    client: &Client,
    target: &ChangeRequestRef,
    page: &str,
    main: bool,
    change_request: bool,
) -> Result<PageSides, ApiError> {
    let main_side = async {
        if main {
            client
                .get_page_markdown(&target.space, page)
                .await
                .map(|p| p.markdown.unwrap_or_default())
        } else {
            Ok(String::new())
        }
    };
    let change_request_side = async {
        if change_request {
            client
                .get_change_request_page_markdown(&target.space, &target.change_request, page)
                .await
                .map(|p| (p.markdown.unwrap_or_default(), p.updated_at))
        } else {
            Ok((String::new(), None))
        }
    };
    let blocks = async {
        if change_request {
            change_request_blocks(client, target, page).await
        } else {
            (Vec::new(), Vec::new())
        }
    };
    let (main_text, change_request_side, (block_keys, tables)) =
        tokio::join!(main_side, change_request_side, blocks);
    let (change_request_text, version) = change_request_side?;
    Ok(PageSides {
        main: main_text?,
        change_request: change_request_text,
        block_keys,
        tables,
        version,
    })
}

/// The block keys of a change request's page, and its table blocks' shapes, read from its
/// document format. Best effort: a page that will not load this way still shows its diff, its
/// threads then sit at the top and a comment on a table is on the whole table.
async fn change_request_blocks(
    client: &Client,
    target: &ChangeRequestRef,
    page: &str,
) -> (Vec<String>, Vec<(String, TableShape)>) {
    match client
        .get_change_request_page_document(&target.space, &target.change_request, page)
        .await
    {
        Ok(page) => (
            crate::api::models::revision::block_keys(&page["document"]),
            table_shapes(&page["document"]),
        ),
        Err(_) => (Vec::new(), Vec::new()),
    }
}

/// The change request's markdown of each page, in parallel; a page that fails is left out
/// (it counts as unchanged rather than inventing news), and so is a page whose `updatedAt` in
/// the change request's revision is still the one remembered: one read of the revision
/// instead of one per page. Without the revision every page is read.
async fn load_pages_now(
    client: &Client,
    target: &ChangeRequestRef,
    pages: Vec<(String, Option<String>)>,
) -> Vec<(String, String)> {
    let versions = if pages.iter().any(|(_, version)| version.is_some()) {
        client
            .get_change_request_content(&target.space, &target.change_request)
            .await
            .inspect_err(|error| tracing::info!(%error, "the change request's revision"))
            .ok()
            .map(|revision| page_versions(&revision.pages))
    } else {
        None
    };
    let unchanged = |page: &str, seen: &Option<String>| match (&versions, seen) {
        (Some(now), Some(seen)) => now.get(page) == Some(seen),
        _ => false,
    };
    let pages: Vec<String> = pages
        .into_iter()
        .filter(|(page, seen)| !unchanged(page, seen))
        .map(|(page, _)| page)
        .collect();
    let answers = join_all(pages.into_iter().map(|page| async move {
        let answer = client
            .get_change_request_page_markdown(&target.space, &target.change_request, &page)
            .await;
        (page, answer)
    }))
    .await;
    answers
        .into_iter()
        .filter_map(|(page, answer)| Some((page, answer.ok()?.markdown.unwrap_or_default())))
        .collect()
}
