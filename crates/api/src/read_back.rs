//! Writes whose answer was lost. A write that got no usable answer (no answer, a cut one, a
//! server failure) may have landed: sending it again could post a comment twice or create two
//! teams. So before anything else the resource is read back:
//! - found there: the write is reported as done, like any success (the action log records it);
//! - found missing: [`ApiError::NotSaved`], which says so, and sending again is safe;
//! - the read fails too: the first error stays, and the screen says the outcome is unknown;
//! - found something that may be older: [`ApiError::MaybeSaved`], and the user chooses.
//!
//! A comment, reply or review is told from an older one with the same text ("LGTM") by what
//! the user had there *before* the send ([`Before`], read just before it): only one that was not
//! there counts. Without that, a match proves nothing.
//!
//! Writes that set a value (PATCH of settings, a member's role) are idempotent: when the read
//! shows the value is not there yet, the write is sent once more.

use std::collections::BTreeSet;
use std::future::Future;

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::models::{
    ChangeRequestReview, Comment, CommentReply, Member, MemberRole, Organization, ReviewStatus,
    Team,
};
use crate::{ApiError, Client, CommentFilter, OrganizationUpdate, SortOrder};

/// How recent a team with the same title must be to count as the one just created.
const JUST_CREATED: Duration = Duration::minutes(10);

/// Pages of a thread's replies read to know them all: a thread of twenty thousand replies is
/// beyond any review, and a server whose list never ends costs a second.
const REPLY_PAGES: usize = 20;

/// What the signed-in user had on a change request (or a thread) before a write was sent:
/// the ids of their comments or replies, or their reviews with the time each was last
/// changed. Kept with a queued write, so another process can read it back too.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Before {
    seen: BTreeSet<String>,
}

impl Before {
    fn of(seen: impl IntoIterator<Item = String>) -> Before {
        Before {
            seen: seen.into_iter().collect(),
        }
    }

    fn had(&self, fingerprint: &str) -> bool {
        self.seen.contains(fingerprint)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Option<Before> {
        serde_json::from_str(text).ok()
    }
}

/// The user's comments on the change request, newest first (the first page: a comment posted
/// now comes first, and an older one cannot climb onto it).
async fn my_comments(
    client: &Client,
    (space, change_request): (&str, &str),
) -> Result<Vec<Comment>, ApiError> {
    let me = client.current_user().await?;
    let filter = CommentFilter {
        authors: vec![me.id],
        order: Some(SortOrder::Descending),
        ..CommentFilter::default()
    };
    let page = client
        .list_comments(space, change_request, &filter, None)
        .await?;
    Ok(page.items)
}

/// The user's replies in a thread.
async fn my_replies(
    client: &Client,
    (space, change_request, comment): (&str, &str, &str),
) -> Result<Vec<CommentReply>, ApiError> {
    let me = client.current_user().await?;
    let replies = client
        .all_replies(space, change_request, comment, REPLY_PAGES)
        .await?;
    Ok(replies
        .items
        .into_iter()
        .filter(|reply| reply.posted_by.as_ref().is_some_and(|by| by.id == me.id))
        .collect())
}

/// The user's reviews of the change request.
async fn my_reviews(
    client: &Client,
    (space, change_request): (&str, &str),
) -> Result<Vec<ChangeRequestReview>, ApiError> {
    let me = client.current_user().await?;
    let reviews = client.list_reviews(space, change_request, None).await?;
    Ok(reviews
        .items
        .into_iter()
        .filter(|review| review.reviewer.as_ref().is_some_and(|by| by.id == me.id))
        .collect())
}

/// A review changes in place when its reviewer reviews again: its id and its time tell it.
fn review_fingerprint(review: &ChangeRequestReview) -> String {
    let at = review.updated_at.as_ref().or(review.created_at.as_ref());
    format!("{}@{}", review.id, at.map_or("", String::as_str))
}

/// The user's comments on the change request, before one is posted. Read once, not retried:
/// with the server out of reach the write is queued at once rather than seconds later.
pub async fn comments_before(client: &Client, target: (&str, &str)) -> Result<Before, ApiError> {
    let comments = my_comments(&client.trying_once(), target).await?;
    Ok(Before::of(comments.into_iter().map(|comment| comment.id)))
}

/// The user's replies in a thread, before one is posted.
pub async fn replies_before(
    client: &Client,
    thread: (&str, &str, &str),
) -> Result<Before, ApiError> {
    let replies = my_replies(&client.trying_once(), thread).await?;
    Ok(Before::of(replies.into_iter().map(|reply| reply.id)))
}

/// The user's reviews of the change request, before one is submitted.
pub async fn reviews_before(client: &Client, target: (&str, &str)) -> Result<Before, ApiError> {
    let reviews = my_reviews(&client.trying_once(), target).await?;
    Ok(Before::of(reviews.iter().map(review_fingerprint)))
}

/// Sends a write that reading back must tell from an older one: first what the user had there
/// (`before`), then `send`. When even that read finds the server out of reach, the write is not
/// sent at all, and fails as surely not sent (the outbox then takes it as never tried).
pub async fn after_a_look<T, Fut>(
    before: Result<Before, ApiError>,
    send: impl FnOnce() -> Fut,
) -> (Option<Before>, Result<T, ApiError>)
where
    Fut: Future<Output = Result<T, ApiError>>,
{
    match before {
        Err(error) if error.is_unreachable() => (None, Err(surely_not_sent(error))),
        Err(error) => {
            tracing::info!(%error, "what was there before a write could not be read");
            (None, send().await)
        }
        Ok(before) => (Some(before), send().await),
    }
}

/// A failure of the look before a write, as the write's own: it never went out.
pub fn surely_not_sent(error: ApiError) -> ApiError {
    match error {
        ApiError::Network {
            endpoint, message, ..
        } => ApiError::Network {
            endpoint,
            message,
            never_sent: true,
        },
        ApiError::Timeout { endpoint } => ApiError::Network {
            endpoint,
            message: "timed out".to_string(),
            never_sent: true,
        },
        other => other,
    }
}

/// What reading back found among the user's items with the sent text.
fn judged<T>(
    error: ApiError,
    matches: Vec<(String, T)>,
    before: Option<&Before>,
) -> Result<T, ApiError> {
    if matches.is_empty() {
        return Err(error.not_saved());
    }
    let Some(before) = before else {
        // Something with this text is there, but whether it is this write cannot be told.
        return Err(error.maybe_saved());
    };
    matches
        .into_iter()
        .find(|(fingerprint, _)| !before.had(fingerprint))
        .map(|(_, found)| found)
        .ok_or_else(|| error.not_saved())
}

/// The comment just posted with `markdown` by the signed-in user, if the server has it: one
/// with that text that was not there `before`.
pub async fn posted_comment(
    client: &Client,
    target: (&str, &str),
    markdown: &str,
    before: Option<&Before>,
    result: Result<Comment, ApiError>,
) -> Result<Comment, ApiError> {
    let error = match result {
        Err(error) if error.outcome_unknown() => error,
        other => return other,
    };
    tracing::info!(
        endpoint = error.endpoint(),
        "no answer to a comment; reading back"
    );
    let Ok(comments) = my_comments(client, target).await else {
        return Err(error);
    };
    let matches = comments
        .into_iter()
        .filter(|comment| same_text(comment.body.markdown.as_deref(), markdown))
        .map(|comment| (comment.id.clone(), comment))
        .collect();
    judged(error, matches, before)
}

/// The reply just posted with `markdown` on a thread, if the server has it: one of the user's
/// with that text that was not there `before`, the newest first.
pub async fn posted_reply(
    client: &Client,
    thread: (&str, &str, &str),
    markdown: &str,
    before: Option<&Before>,
    result: Result<CommentReply, ApiError>,
) -> Result<CommentReply, ApiError> {
    let error = match result {
        Err(error) if error.outcome_unknown() => error,
        other => return other,
    };
    tracing::info!(
        endpoint = error.endpoint(),
        "no answer to a reply; reading back"
    );
    let Ok(replies) = my_replies(client, thread).await else {
        return Err(error);
    };
    let matches = replies
        .into_iter()
        .rev()
        .filter(|reply| same_text(reply.body.markdown.as_deref(), markdown))
        .map(|reply| (reply.id.clone(), reply))
        .collect();
    judged(error, matches, before)
}

/// The review just submitted, if the server has it: one of the user's with that verdict, not
/// outdated, that was not there (or not as it is now) `before`.
pub async fn submitted_review(
    client: &Client,
    target: (&str, &str),
    approve: bool,
    before: Option<&Before>,
    result: Result<ChangeRequestReview, ApiError>,
) -> Result<ChangeRequestReview, ApiError> {
    let error = match result {
        Err(error) if error.outcome_unknown() => error,
        other => return other,
    };
    tracing::info!(
        endpoint = error.endpoint(),
        "no answer to a review; reading back"
    );
    let Ok(reviews) = my_reviews(client, target).await else {
        return Err(error);
    };
    let wanted = if approve {
        ReviewStatus::Approved
    } else {
        ReviewStatus::ChangesRequested
    };
    let matches = reviews
        .into_iter()
        .filter(|review| !review.outdated && review.status.as_ref() == Some(&wanted))
        .map(|review| (review_fingerprint(&review), review))
        .collect();
    judged(error, matches, before)
}

/// The team just created with `title`: one of that title made in the last minutes.
pub async fn created_team(
    client: &Client,
    organization: &str,
    title: &str,
    result: Result<Team, ApiError>,
) -> Result<Team, ApiError> {
    let error = match result {
        Err(error) if error.outcome_unknown() => error,
        other => return other,
    };
    tracing::info!(
        endpoint = error.endpoint(),
        "no answer to a new team; reading back"
    );
    let Ok(page) = client
        .list_teams(organization, Some(title), None, None)
        .await
    else {
        return Err(error);
    };
    let now = Utc::now();
    page.items
        .into_iter()
        .filter(|team| team.title == title)
        .filter(|team| created_lately(team.created_at.as_deref(), now))
        .max_by(|a, b| a.created_at.cmp(&b.created_at))
        .ok_or_else(|| error.not_saved())
}

/// The organization after a settings save whose answer was lost: read back, then the same
/// PATCH once more (it sets values, so sending it twice changes nothing more).
pub async fn saved_organization(
    client: &Client,
    organization: &str,
    update: &OrganizationUpdate,
    result: Result<Organization, ApiError>,
) -> Result<Organization, ApiError> {
    let error = match result {
        Err(error) if error.outcome_unknown() => error,
        other => return other,
    };
    tracing::info!(
        endpoint = error.endpoint(),
        "no answer to a settings save; reading back"
    );
    if client.get_organization(organization).await.is_err() {
        return Err(error);
    }
    client.update_organization(organization, update).await
}

/// The member after a role change whose answer was lost: read back; sent once more only when
/// the role is not the one asked for.
pub async fn member_with_role(
    client: &Client,
    (organization, user): (&str, &str),
    role: Option<&MemberRole>,
    result: Result<Member, ApiError>,
) -> Result<Member, ApiError> {
    let error = match result {
        Err(error) if error.outcome_unknown() => error,
        other => return other,
    };
    tracing::info!(
        endpoint = error.endpoint(),
        "no answer to a role change; reading back"
    );
    match client.get_member(organization, user).await {
        Ok(member) if member.role.as_ref() == role => Ok(member),
        Ok(_) => client.set_member_role(organization, user, role).await,
        Err(_) => Err(error),
    }
}

/// Bodies compared as the user wrote them, ignoring blank edges the server may trim.
fn same_text(stored: Option<&str>, sent: &str) -> bool {
    stored.is_some_and(|stored| stored.trim() == sent.trim())
}

fn created_lately(created_at: Option<&str>, now: DateTime<Utc>) -> bool {
    created_at
        .and_then(|text| DateTime::parse_from_rfc3339(text).ok())
        .is_some_and(|at| now.signed_duration_since(at.with_timezone(&Utc)) <= JUST_CREATED)
}
