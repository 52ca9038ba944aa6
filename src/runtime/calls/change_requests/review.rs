//! Loading one change request's review: its own data, the changed pages and the threads in
//! one round, without the threads' replies (the screen asks for those it shows). A review
//! whose threads take more pages is shown from the first page while the rest are read, and the
//! first thread's replies are asked for at once, here.

use crate::api::models::{
    ChangeRequestReview, Comment, CommentReply, Page, RevisionSemanticChanges, SemanticChange,
};
use crate::api::paging::ListPage;
use crate::api::{ApiError, Client, CommentFilter};
use crate::vocabulary::change_requests::{
    ChangeRequestRef, ChangeRequestsResponse, ReviewBundle, ReviewOpening, Thread, ThreadReplies,
};
use crate::vocabulary::handoff::Handoff;

use super::{CHANGES_LIMIT, all_replies, flatten, outbox_target};

/// Pages of a change request's comment threads read when its review opens, before it shows
/// what was read and says "stopped after N pages": twenty thousand threads is ten times the
/// biggest review measured, and an endless list then costs a second, not a minute.
pub const COMMENT_PAGES: usize = 20;

/// The whole review. When its threads take more than one page, `early` is given the review
/// with the first page of them as soon as that is read
/// ([`ChangeRequestsResponse::ReviewOpening`]): the screen is drawn, and asks for the changed
/// page and the other replies it shows; the other pages (a thousand threads each) are read
/// once the first thread's replies are in. The replies of the first thread that has any are
/// asked for here, as soon as the first page of threads is read, so neither the rest of the
/// first round nor the screen taking the opening in holds them up; they go to `early` after
/// the opening ([`ChangeRequestsResponse::Replies`]) and are in the whole review too. It is the thread a review opened at the top shows first; one
/// opened elsewhere (a remembered selection, a filter) costs one list not shown at once.
pub async fn load_review(
    client: &Client,
    target: &ChangeRequestRef,
    early: impl Fn(ChangeRequestsResponse),
) -> Result<ReviewBundle, ApiError> {
    let space = &target.space;
    let change_request = &target.change_request;
    let filter = CommentFilter::default();
    // Round one: everything that does not depend on anything else. The first thread's replies
    // are asked for the moment the first page of threads is in, not once the slowest of the
    // others is (the changed pages, worked out on the server, take longest).
    let threads = async {
        let first = client
            .first_comments_page(space, change_request, &filter)
            .await;
        let ahead = first
            .as_ref()
            .ok()
            .and_then(|page| RepliesAhead::ask(client, target, page));
        (first, ahead)
    };
    let ((first, ahead), (detail, space_detail, changes, reviews, requested, queued)) =
        tokio::join!(threads, async {
            tokio::join!(
                client.get_change_request(space, change_request),
                client.get_space(space),
                client.change_request_changes(space, change_request, CHANGES_LIMIT),
                client.list_reviews(space, change_request, None),
                client.list_requested_reviewers(space, change_request, None),
                queued_for(client, target),
            )
        });
    let change_request_detail = detail?;
    let first = first?;
    // A server without `/changes`: compare the change request's page tree with main's.
    let changes = match changes {
        Err(error) if error.is_not_found() || error.status() == Some(405) => {
            compare_page_trees(client, target).await
        }
        other => other,
    };
    // The ids of the first page's threads, when more pages follow.
    let already_read: Option<Vec<String>> = first
        .next_page
        .as_ref()
        .map(|_| first.items.iter().map(|thread| thread.id.clone()).collect());
    let mut bundle = ReviewBundle {
        change_request: change_request_detail,
        space: space_detail.ok(),
        changes,
        threads: threads_of(first.items),
        threads_stopped_after_pages: None,
        reviews: newest_first(reviews.map(|page| page.items).unwrap_or_default()),
        requested: requested.map(|page| page.items).unwrap_or_default(),
        queued,
    };
    let Some(already_read) = already_read else {
        return Ok(bundle);
    };
    let replies_coming = ahead.as_ref().map(|ahead| ahead.comment.clone());
    early(ChangeRequestsResponse::ReviewOpening(ReviewOpening {
        bundle: Handoff::new(bundle.clone()),
        replies_coming,
    }));
    let first_replies = match ahead {
        Some(ahead) => Some(ahead.answer(client, target).await),
        None => None,
    };
    if let Some(answer) = &first_replies {
        early(ChangeRequestsResponse::Replies(vec![answer.clone()]));
    }
    // The other pages only once the first thread's replies are in: asked for at once, their
    // thousands of threads would arrive with those replies (and the changed page the screen
    // asked for) and hold them up while they are decoded. The screen has a page of threads
    // to show meanwhile.
    let rest = client
        .rest_of_comments(space, change_request, &filter, &already_read, COMMENT_PAGES)
        .await?;
    bundle.threads_stopped_after_pages = rest.stopped.as_ref().map(|_| rest.pages);
    bundle.threads.extend(threads_of(rest.items));
    if let Some(ThreadReplies {
        comment,
        replies: Ok(replies),
    }) = first_replies
        && let Some(thread) = bundle.threads.iter_mut().find(|t| t.comment.id == comment)
    {
        thread.comment.replies = Some(replies.len() as u64);
        thread.replies = replies;
        thread.replies_loaded = true;
    }
    Ok(bundle)
}

/// The replies of the first thread that has any, asked for on their own while the rest of
/// the review's first round is still coming; only for a review whose threads take more pages
/// (a review read in one page is shown whole, and the screen asks for the replies it shows).
/// Stopped when the review's loading is dropped.
struct RepliesAhead {
    comment: String,
    task: tokio::task::JoinHandle<Result<Vec<CommentReply>, ApiError>>,
}

impl RepliesAhead {
    fn ask(client: &Client, target: &ChangeRequestRef, first: &ListPage<Comment>) -> Option<Self> {
        first.next_page.as_ref()?;
        let comment = first
            .items
            .iter()
            .find(|comment| comment.replies.unwrap_or(0) > 0)?
            .id
            .clone();
        let (client, target, id) = (client.clone(), target.clone(), comment.clone());
        let task = tokio::spawn(async move { all_replies(&client, &target, &id).await });
        Some(RepliesAhead { comment, task })
    }

    /// The replies; asked for again here should the task have been lost.
    async fn answer(mut self, client: &Client, target: &ChangeRequestRef) -> ThreadReplies {
        let replies = match (&mut self.task).await {
            Ok(replies) => replies,
            Err(_) => all_replies(client, target, &self.comment).await,
        };
        ThreadReplies {
            comment: std::mem::take(&mut self.comment),
            replies,
        }
    }
}

impl Drop for RepliesAhead {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn threads_of(comments: impl IntoIterator<Item = Comment>) -> Vec<Thread> {
    comments.into_iter().map(Thread::without_replies).collect()
}

/// The writes on `target` waiting in the outbox; none when there is no outbox or it fails.
async fn queued_for(client: &Client, target: &ChangeRequestRef) -> Vec<crate::api::outbox::Queued> {
    let Some(outbox) = client.outbox() else {
        return Vec::new();
    };
    let target = outbox_target(target);
    tokio::task::spawn_blocking(move || outbox.for_target(&target))
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default()
}

/// Reviews newest first, whatever order the server lists them in (a new review is then put
/// on top, where it belongs). Reviews without a date keep their place at the end.
fn newest_first(mut reviews: Vec<ChangeRequestReview>) -> Vec<ChangeRequestReview> {
    reviews.sort_by_key(|review| {
        std::cmp::Reverse(
            review
                .created_at
                .as_deref()
                .and_then(|at| chrono::DateTime::parse_from_rfc3339(at).ok()),
        )
    });
    reviews
}

/// Changed pages found by comparing trees: pages only in the change request were created,
/// pages only on main were deleted, pages under another parent were moved, and pages whose
/// content fingerprint (git oid or update time) differs were edited.
async fn compare_page_trees(
    client: &Client,
    target: &ChangeRequestRef,
) -> Result<RevisionSemanticChanges, ApiError> {
    let (main, change_request) = tokio::join!(
        client.list_pages(&target.space),
        client.list_change_request_pages(&target.space, &target.change_request),
    );
    let main = flatten(&main?, None);
    let change_request = flatten(&change_request?, None);
    let mut changes = Vec::new();
    let change = |kind: &str, page: &Page| -> Option<SemanticChange> {
        serde_json::from_value(serde_json::json!({
            "type": kind,
            "page": {"id": page.id, "title": page.title, "path": page.path},
        }))
        .ok()
    };
    for (page, parent) in &change_request {
        match main.iter().find(|(p, _)| p.id == page.id) {
            None => changes.extend(change("page_created", page)),
            Some((before, before_parent)) => {
                let fingerprint = |p: &Page| {
                    (
                        p.git.as_ref().and_then(|g| g.oid.clone()),
                        p.updated_at.clone(),
                        p.title.clone(),
                    )
                };
                if fingerprint(before) != fingerprint(page) {
                    changes.extend(change("page_edited", page));
                }
                if before_parent != parent {
                    changes.extend(change("page_moved", page));
                }
            }
        }
    }
    for (page, _) in &main {
        if !change_request.iter().any(|(p, _)| p.id == page.id) {
            changes.extend(change("page_deleted", page));
        }
    }
    Ok(RevisionSemanticChanges {
        changes,
        more: None,
    })
}
