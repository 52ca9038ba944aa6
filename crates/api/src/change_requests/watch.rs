//! What happened to a change request between two looks: a comment, a reply, a review, a new
//! status, a new revision, each with who did it. `quire cr watch` prints these; Home pings
//! with those done by someone else.

use crate::change_requests::comments::{CommentFilter, CommentStatusFilter, SortOrder};
use crate::client::Client;
use crate::error::ApiError;
use crate::home::{ReviewState, review_state};
use crate::models::{
    ChangeRequest, ChangeRequestReview, ChangeRequestStatus, Comment, ReviewStatus, User,
};

/// Pages of a thread's replies read per look.
const MAX_PAGES: usize = 10;

/// What one look saw.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub change_request: ChangeRequest,
    /// The newest threads, newest first: one page of them. A look needs no more to tell what
    /// is new, and a change request with thousands of threads costs one page, not all.
    pub comments: Vec<Comment>,
    /// When the threads took more than that page: the `postedAt` of the oldest one in it. A
    /// thread not in `comments` is new only when posted after it; before it, it was simply
    /// not read.
    pub comments_after: Option<String>,
    pub reviews: Vec<ChangeRequestReview>,
}

/// One thing that happened: when, what in words, who did it, and a name for the event
/// itself, so that it is told once however often it is seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub at: String,
    pub what: String,
    pub actor: Actor,
    pub id: String,
}

/// Who caused an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor {
    /// A user, by id.
    Person(String),
    /// The API does not say (a new revision, a status change other than a merge): the
    /// change request's author, when it is theirs to do.
    Unsaid,
    /// No one on this change request: main moved on (it is `outdated`).
    Main,
}

impl Actor {
    fn of(user: Option<&User>) -> Actor {
        user.map_or(Actor::Unsaid, |user| Actor::Person(user.id.clone()))
    }
}

impl Snapshot {
    /// The change request, its newest page of threads and its reviews, read together. A
    /// reply is told for a thread on that page; one to an older thread of a change request
    /// that long is not.
    pub async fn read(client: &Client, space: &str, number: &str) -> Result<Snapshot, ApiError> {
        let newest_threads = CommentFilter {
            status: Some(CommentStatusFilter::All),
            order: Some(SortOrder::Descending),
            ..CommentFilter::default()
        };
        let (change_request, comments, reviews) = tokio::try_join!(
            client.get_change_request(space, number),
            client.list_comments(space, number, &newest_threads, None),
            client.list_reviews(space, number, None),
        )?;
        let comments_after = comments.next_page.as_ref().and_then(|_| {
            comments
                .items
                .iter()
                .filter_map(|c| c.posted_at.clone())
                .min()
        });
        Ok(Snapshot {
            change_request,
            comments: comments.items,
            comments_after,
            reviews: reviews.items,
        })
    }

    /// Whether a thread this look did not see was posted after it, so is new: always when
    /// the look saw every thread.
    fn would_have_seen(&self, comment: &Comment) -> bool {
        match (&self.comments_after, &comment.posted_at) {
            (None, _) => true,
            (Some(oldest), Some(posted)) => posted > oldest,
            (Some(_), None) => false,
        }
    }

    pub fn status(&self) -> Option<&ChangeRequestStatus> {
        self.change_request.status.as_ref()
    }

    pub fn review(&self) -> ReviewState {
        review_state(&self.reviews)
    }
}

/// What changed from `seen` to `now`, oldest first. New replies are read from the threads
/// whose reply count grew.
pub async fn changes(
    client: &Client,
    space: &str,
    number: &str,
    seen: &Snapshot,
    now: &Snapshot,
) -> Result<Vec<Event>, ApiError> {
    let mut events = status_and_revision(seen, now);
    // A review's comment is told with the review, not again as a comment.
    let of_reviews: Vec<&str> = now
        .reviews
        .iter()
        .filter_map(|review| review.comment.as_ref()?.id.as_deref())
        .collect();
    for comment in &now.comments {
        let before = seen.comments.iter().find(|old| old.id == comment.id);
        let unseen = before.is_none() && seen.would_have_seen(comment);
        if unseen && !of_reviews.contains(&comment.id.as_str()) {
            events.push(Event {
                at: comment.posted_at.clone().unwrap_or_default(),
                what: format!(
                    "comment by {}: {}",
                    name(comment.posted_by.as_ref()),
                    excerpt(comment.body.markdown())
                ),
                actor: Actor::of(comment.posted_by.as_ref()),
                id: format!("comment:{}", comment.id),
            });
        }
        // A thread older than the last look's page: its replies then were not counted.
        if before.is_none() && !unseen {
            continue;
        }
        let had = before.map_or(0, |old| old.replies.unwrap_or(0));
        let has = comment.replies.unwrap_or(0);
        if has > had {
            let replies = client
                .all_replies(space, number, &comment.id, MAX_PAGES)
                .await?;
            let skip = usize::try_from(had).unwrap_or(usize::MAX);
            for reply in replies.items.iter().skip(skip) {
                events.push(Event {
                    at: reply.posted_at.clone().unwrap_or_default(),
                    what: format!(
                        "reply by {} to {}: {}",
                        name(reply.posted_by.as_ref()),
                        name(comment.posted_by.as_ref()),
                        excerpt(reply.body.markdown())
                    ),
                    actor: Actor::of(reply.posted_by.as_ref()),
                    id: format!("reply:{}", reply.id),
                });
            }
        }
    }
    for review in &now.reviews {
        let same = |old: &&ChangeRequestReview| {
            old.id == review.id
                && old.status == review.status
                && old.updated_at == review.updated_at
        };
        if !seen.reviews.iter().any(|old| same(&old)) {
            events.push(review_event(review));
        }
    }
    events.sort_by(|one, other| one.at.cmp(&other.at));
    Ok(events)
}

fn status_and_revision(seen: &Snapshot, now: &Snapshot) -> Vec<Event> {
    let mut events = Vec::new();
    let change_request = &now.change_request;
    let updated = change_request.updated_at.clone().unwrap_or_default();
    if now.status() != seen.status() {
        let word = |status: Option<&ChangeRequestStatus>| {
            status
                .map_or("unknown", ChangeRequestStatus::as_str)
                .to_string()
        };
        let merged = now.status() == Some(&ChangeRequestStatus::Merged);
        let by = match &change_request.merged_by {
            Some(user) if merged => format!(" by {}", name(Some(user))),
            _ => String::new(),
        };
        let at = match &change_request.merged_at {
            Some(at) if merged => at.clone(),
            _ => updated.clone(),
        };
        events.push(Event {
            at,
            what: format!(
                "status {} → {}{by}",
                word(seen.status()),
                word(now.status())
            ),
            actor: Actor::of(change_request.merged_by.as_ref().filter(|_| merged)),
            id: format!("status:{}", word(now.status())),
        });
    }
    let revised = change_request.revision != seen.change_request.revision;
    if revised && now.status() != Some(&ChangeRequestStatus::Merged) {
        let revision = change_request.revision.clone().unwrap_or_default();
        events.push(Event {
            at: updated,
            what: format!("new revision {revision}"),
            // The API does not say who pushed a revision.
            actor: Actor::Unsaid,
            id: format!("revision:{revision}"),
        });
    }
    if change_request.outdated && !seen.change_request.outdated {
        // Its base names the fall: a change request updated from main has a new one, so it
        // can fall behind again.
        let base = change_request
            .revision_merged_ancestor
            .as_deref()
            .or(change_request.revision_initial.as_deref())
            .unwrap_or_default();
        events.push(Event {
            at: change_request.updated_at.clone().unwrap_or_default(),
            what: "fell behind main: bring main in before merging (it may conflict)".to_string(),
            actor: Actor::Main,
            id: format!("outdated:{base}"),
        });
    }
    events
}

fn review_event(review: &ChangeRequestReview) -> Event {
    let verdict = match &review.status {
        Some(ReviewStatus::Approved) => "approved".to_string(),
        Some(ReviewStatus::ChangesRequested) => "changes requested".to_string(),
        Some(other) => other.as_str().to_string(),
        None => "reviewed".to_string(),
    };
    let said = review
        .comment
        .as_ref()
        .and_then(|comment| comment.markdown())
        .map(|text| format!(": {}", excerpt(Some(text))))
        .unwrap_or_default();
    Event {
        at: review
            .updated_at
            .clone()
            .or_else(|| review.created_at.clone())
            .unwrap_or_default(),
        what: format!(
            "review by {}: {verdict}{said}",
            name(review.reviewer.as_ref())
        ),
        actor: Actor::of(review.reviewer.as_ref()),
        id: format!("review:{}:{verdict}", review.id),
    }
}

/// A user's name as a line shows it.
pub fn name(user: Option<&User>) -> String {
    match user {
        Some(user) if !user.display_name.is_empty() => user.display_name.clone(),
        Some(user) => user.id.clone(),
        None => "someone".to_string(),
    }
}

/// The first line of a text, at most 80 characters.
fn excerpt(text: Option<&str>) -> String {
    let line = text.unwrap_or("").lines().next().unwrap_or("").trim();
    let mut cut: String = line.chars().take(80).collect();
    if line.chars().count() > 80 {
        cut.push('…');
    }
    cut
}
