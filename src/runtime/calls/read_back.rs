//! Writes whose answer was lost. A write that got no usable answer (no answer, a cut one, a
//! server failure) may have landed: sending it again could post a comment twice or create two
//! teams. So before anything else the resource is read back:
//! - found there: the write is reported as done, like any success (the action log records it);
//! - found missing: [`ApiError::NotSaved`], which says so, and sending again is safe;
//! - the read fails too: the first error stays, and the screen says the outcome is unknown.
//!
//! Writes that set a value (PATCH of settings, a member's role) are idempotent: when the read
//! shows the value is not there yet, the write is sent once more.

use chrono::{DateTime, Duration, Utc};

use crate::api::models::{Comment, CommentReply, Member, MemberRole, Organization, Team};
use crate::api::{ApiError, Client, CommentFilter, OrganizationUpdate, SortOrder};

/// How recent a team with the same title must be to count as the one just created.
const JUST_CREATED: Duration = Duration::minutes(10);

/// The comment just posted with `markdown` by the signed-in user, if the server has it.
pub async fn posted_comment(
    client: &Client,
    (space, change_request): (&str, &str),
    markdown: &str,
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
    let Ok(me) = client.current_user().await else {
        return Err(error);
    };
    let filter = CommentFilter {
        authors: vec![me.id],
        order: Some(SortOrder::Descending),
        ..CommentFilter::default()
    };
    match client
        .list_comments(space, change_request, &filter, None)
        .await
    {
        Ok(page) => page
            .items
            .into_iter()
            .find(|comment| same_text(comment.body.markdown.as_deref(), markdown))
            .ok_or_else(|| error.not_saved()),
        Err(_) => Err(error),
    }
}

/// The reply just posted with `markdown` on `comment`, if the server has it.
pub async fn posted_reply(
    client: &Client,
    (space, change_request, comment): (&str, &str, &str),
    markdown: &str,
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
    let Ok(me) = client.current_user().await else {
        return Err(error);
    };
    let Ok(replies) = client
        .list_replies(space, change_request, comment, None)
        .await
    else {
        return Err(error);
    };
    replies
        .items
        .into_iter()
        .rev()
        .find(|reply| {
            reply.posted_by.as_ref().is_some_and(|by| by.id == me.id)
                && same_text(reply.body.markdown.as_deref(), markdown)
        })
        .ok_or_else(|| error.not_saved())
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
