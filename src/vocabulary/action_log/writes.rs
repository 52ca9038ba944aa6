//! How a write reads in the log when its screen logs nothing finer (it answered after the
//! screen was left, or the screen keeps no log of its own), and what an answer says about a
//! write: done, refused, or nothing there to do. Which calls write is not decided here but by
//! [`ApiCall::writes`]: a write this table has no words for is logged in general words.

use crate::api::GitDirection;
use crate::api::models::{MergeOutcome, UpdateOutcome};
use crate::vocabulary::change_requests::{ChangeRequestsCall, ChangeRequestsResponse};
use crate::vocabulary::collections::{CollectionsCall, CollectionsResponse};
use crate::vocabulary::conversations::{ConversationsCall, ConversationsResponse};
use crate::vocabulary::git::{GitCall, GitResponse};
use crate::vocabulary::integrations::IntegrationsCall;
use crate::vocabulary::members::{MembersCall, MembersResponse};
use crate::vocabulary::openapi::{OpenApiCall, OpenApiResponse};
use crate::vocabulary::org_settings::{OrgSettingsCall, OrgSettingsResponse};
use crate::vocabulary::outbox::OutboxCall;
use crate::vocabulary::sites::{SitesCall, SitesResponse};
use crate::vocabulary::spaces::{SpacesCall, SpacesResponse};
use crate::vocabulary::sso::{SsoCall, SsoResponse};
use crate::vocabulary::teams::{TeamsCall, TeamsResponse};
use crate::vocabulary::translations::{TranslationsCall, TranslationsResponse};
use crate::vocabulary::{ApiCall, ApiResponse};

/// What the answer to a write says.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The server changed what was asked.
    Done,
    /// The server changed nothing because there was nothing to change (why, in words).
    NothingToDo(String),
    /// The server refused or failed (its reason).
    Refused(String),
}

/// How a write reads when the table below has no words for it.
pub const A_WRITE: &str = "Changed something on the server";

/// The write `call` in a few words; `None` for a read (as [`ApiCall::writes`] says).
pub fn in_words(call: &ApiCall) -> Option<&'static str> {
    call.writes().then(|| worded(call).unwrap_or(A_WRITE))
}

/// The words for the writes that have some; a read has none, but a call without words is not
/// a read for that.
fn worded(call: &ApiCall) -> Option<&'static str> {
    match call {
        ApiCall::ChangeRequests(call) => review(call),
        ApiCall::Sites(call) => sites(call),
        ApiCall::Collections(call) => collections(call),
        ApiCall::Spaces(call) => spaces(call),
        ApiCall::Git(call) => git(call),
        ApiCall::Members(call) => members(call),
        ApiCall::Teams(call) => teams(call),
        ApiCall::Sso(call) => sso(call),
        ApiCall::OrgSettings(call) => org_settings(call),
        ApiCall::Translations(call) => translations(call),
        ApiCall::OpenApi(call) => openapi(call),
        ApiCall::Conversations(ConversationsCall::IngestFile { .. }) => {
            Some("Ingested a conversation file")
        }
        ApiCall::Outbox(call) => outbox(call),
        ApiCall::Integrations(IntegrationsCall::Publish { .. }) => Some("Published an integration"),
        _ => None,
    }
}

fn review(call: &ChangeRequestsCall) -> Option<&'static str> {
    Some(match call {
        ChangeRequestsCall::PostComment { .. } | ChangeRequestsCall::PostBlockComment { .. } => {
            "Posted a comment"
        }
        ChangeRequestsCall::PostReply { .. } => "Posted a reply",
        ChangeRequestsCall::UpdateComment { .. } => "Changed a comment",
        ChangeRequestsCall::DeleteComment { .. } => "Deleted a comment",
        ChangeRequestsCall::SubmitReview { .. } => "Posted a review",
        ChangeRequestsCall::RequestReviewers { .. } => "Requested reviewers",
        ChangeRequestsCall::RemoveReviewer { .. } => "Removed a requested reviewer",
        ChangeRequestsCall::SetStatus { .. } => "Changed a change request's status",
        ChangeRequestsCall::SetSubject { .. } => "Renamed a change request",
        ChangeRequestsCall::Merge(_) => "Merged a change request",
        ChangeRequestsCall::UpdateFromMain(_) => "Brought main's changes into a change request",
        ChangeRequestsCall::Create { .. } => "Opened a change request",
        ChangeRequestsCall::SetDescription { .. } => "Changed a change request's description",
        _ => return None,
    })
}

fn sites(call: &SitesCall) -> Option<&'static str> {
    Some(match call {
        SitesCall::CreateSite { .. } => "Created a site",
        SitesCall::DeleteSite { .. } => "Deleted a site",
        SitesCall::UpdateSite { .. } => "Changed a site's settings",
        SitesCall::Publish { .. } => "Published a site",
        SitesCall::Unpublish { .. } => "Unpublished a site",
        SitesCall::PutAdaptiveSchema { .. } => "Saved a site's adaptive content schema",
        SitesCall::CreateShareLink { .. } => "Created a share link",
        SitesCall::UpdateShareLink { .. } => "Changed a share link",
        SitesCall::DeleteShareLink { .. } => "Deleted a share link",
        SitesCall::CreateSectionGroup { .. } => "Created a section group",
        SitesCall::UpdateSectionGroup { .. } => "Changed a section group",
        SitesCall::DeleteSectionGroup { .. } => "Deleted a section group",
        SitesCall::AddSectionToGroup { .. } => "Added a section to a group",
        SitesCall::RemoveSectionFromGroup { .. } => "Took a section out of a group",
        _ => return None,
    })
}

fn outbox(call: &OutboxCall) -> Option<&'static str> {
    match call {
        OutboxCall::Send { .. } | OutboxCall::SendAll => Some("Sent writes from the outbox"),
        OutboxCall::Drop { .. } => Some("Dropped a write from the outbox"),
        OutboxCall::Edit { .. } => Some("Changed a write in the outbox"),
        OutboxCall::List => None,
    }
}

fn collections(call: &CollectionsCall) -> Option<&'static str> {
    Some(match call {
        CollectionsCall::Create { .. } => "Created a collection",
        CollectionsCall::Update { .. } => "Changed a collection",
        CollectionsCall::Delete { .. } => "Deleted a collection",
        CollectionsCall::Move { .. } => "Moved content",
        CollectionsCall::Transfer { .. } => "Moved content to another organization",
        CollectionsCall::Organizations
        | CollectionsCall::Spaces { .. }
        | CollectionsCall::Get { .. } => return None,
    })
}

fn spaces(call: &SpacesCall) -> Option<&'static str> {
    Some(match call {
        SpacesCall::Update { .. } => "Changed a space's settings",
        SpacesCall::Delete { .. } => "Deleted a space",
        SpacesCall::Restore { .. } => "Restored a space",
        SpacesCall::Duplicate { .. } => "Duplicated a space",
        SpacesCall::ApplyTemplate { .. } => "Applied a content template",
        SpacesCall::Members { .. } => return None,
    })
}

fn git(call: &GitCall) -> Option<&'static str> {
    match call {
        GitCall::Sync {
            direction: GitDirection::Import,
            ..
        } => Some("Imported a space from its repository"),
        GitCall::Sync { .. } => Some("Exported a space to its repository"),
        GitCall::RemoveLegacyInstallation { .. } => Some("Removed a legacy git installation"),
        GitCall::Info { .. } => None,
    }
}

fn members(call: &MembersCall) -> Option<&'static str> {
    match call {
        MembersCall::SetRole { .. } => Some("Changed a member's role"),
        MembersCall::MakeSso { .. } => Some("Made a member an SSO member"),
        MembersCall::Remove { .. } => Some("Removed a member"),
        MembersCall::List { .. } | MembersCall::Details { .. } => None,
    }
}

fn teams(call: &TeamsCall) -> Option<&'static str> {
    Some(match call {
        TeamsCall::Create { .. } => "Created a team",
        TeamsCall::Rename { .. } => "Renamed a team",
        TeamsCall::Delete { .. } => "Deleted a team",
        TeamsCall::UpdateMembers { .. } | TeamsCall::SetMember { .. } => "Changed a team's members",
        TeamsCall::RemoveMember { .. } => "Removed a team member",
        _ => return None,
    })
}

fn sso(call: &SsoCall) -> Option<&'static str> {
    match call {
        SsoCall::Create { .. } => Some("Added an SSO provider"),
        SsoCall::Update { .. } => Some("Changed an SSO provider"),
        SsoCall::Delete { .. } => Some("Deleted an SSO provider"),
        _ => None,
    }
}

fn org_settings(call: &OrgSettingsCall) -> Option<&'static str> {
    match call {
        OrgSettingsCall::Save { .. } => Some("Changed the organization's settings"),
        OrgSettingsCall::SaveInstructions { .. } => Some("Changed the agent instructions"),
        OrgSettingsCall::RevokeInvite { .. } => Some("Revoked an invite"),
        OrgSettingsCall::Join { .. } => Some("Joined an organization"),
        _ => None,
    }
}

fn translations(call: &TranslationsCall) -> Option<&'static str> {
    match call {
        TranslationsCall::Create { .. } => Some("Created a translation"),
        TranslationsCall::SetInstructions { .. } => Some("Changed a translation's instructions"),
        TranslationsCall::Run { .. } => Some("Ran a translation"),
        TranslationsCall::Delete { .. } => Some("Deleted a translation"),
        _ => None,
    }
}

fn openapi(call: &OpenApiCall) -> Option<&'static str> {
    match call {
        OpenApiCall::Create { .. } => Some("Added an OpenAPI spec"),
        OpenApiCall::Replace { .. } => Some("Replaced an OpenAPI spec's source"),
        OpenApiCall::SetVisibility { .. } => Some("Changed an OpenAPI spec's visibility"),
        OpenApiCall::Delete { .. } => Some("Deleted an OpenAPI spec"),
        _ => None,
    }
}

/// What the answer to a write says; `None` for an answer no write gets.
pub fn answer(response: &ApiResponse) -> Option<Answer> {
    match response {
        ApiResponse::ChangeRequests(response) => review_answer(response),
        ApiResponse::Sites(response) => sites_answer(response),
        ApiResponse::Spaces(SpacesResponse::NotDeleted(space)) => {
            Some(Answer::NothingToDo(format!(
                "“{}” is not in the trash (it was restored already)",
                crate::ui::sanitize::sanitize(&space.title)
            )))
        }
        ApiResponse::Spaces(SpacesResponse::Space(result)) => plain(result),
        ApiResponse::Spaces(SpacesResponse::Deleted(result)) => plain(result),
        ApiResponse::Collections(response) => match response {
            CollectionsResponse::Collection(result) => plain(result),
            CollectionsResponse::Deleted(result) => plain(result),
            CollectionsResponse::Moved(result) => plain(result),
            CollectionsResponse::Organizations(_) | CollectionsResponse::Spaces(_) => None,
        },
        ApiResponse::Git(GitResponse::Done(result)) => plain(result),
        ApiResponse::Members(MembersResponse::Updated(result)) => plain(result),
        ApiResponse::Members(MembersResponse::Removed(result)) => plain(result),
        ApiResponse::Teams(response) => match response {
            TeamsResponse::Saved(result) => plain(result),
            TeamsResponse::Deleted(result) | TeamsResponse::MembersChanged(result) => plain(result),
            _ => None,
        },
        ApiResponse::Sso(SsoResponse::Provider(result)) => plain(result),
        ApiResponse::Sso(SsoResponse::Deleted(result)) => plain(result),
        ApiResponse::OrgSettings(response) => match response {
            OrgSettingsResponse::Organization(result) => plain(result),
            OrgSettingsResponse::Instructions(result) => plain(result),
            OrgSettingsResponse::Done(result) => plain(result),
            OrgSettingsResponse::Sites(_) => None,
        },
        ApiResponse::Translations(response) => match response {
            TranslationsResponse::Saved(result) => plain(result),
            TranslationsResponse::Done(result) => plain(result),
            _ => None,
        },
        ApiResponse::OpenApi(response) => match response {
            OpenApiResponse::Saved(result) => plain(result),
            OpenApiResponse::Deleted(result) => plain(result),
            _ => None,
        },
        ApiResponse::Conversations(ConversationsResponse::Ingested(result)) => Some(match result {
            Ok(_) => Answer::Done,
            Err(failure) => Answer::Refused(failure.to_string()),
        }),
        _ => None,
    }
}

fn plain<T>(result: &Result<T, crate::api::ApiError>) -> Option<Answer> {
    Some(match result {
        Ok(_) => Answer::Done,
        Err(error) => Answer::Refused(error.user_message()),
    })
}

fn review_answer(response: &ChangeRequestsResponse) -> Option<Answer> {
    match response {
        ChangeRequestsResponse::CommentPosted(result) => plain(result),
        ChangeRequestsResponse::ReplyPosted(result) => plain(result),
        ChangeRequestsResponse::CommentUpdated(result)
        | ChangeRequestsResponse::Deleted(result) => plain(result),
        ChangeRequestsResponse::ReviewSubmitted(result) => plain(result),
        ChangeRequestsResponse::ReviewersChanged(result) => plain(result),
        ChangeRequestsResponse::StatusSet(result)
        | ChangeRequestsResponse::SubjectSet(result)
        | ChangeRequestsResponse::Created(result)
        | ChangeRequestsResponse::DescriptionSet(result) => plain(result),
        ChangeRequestsResponse::Merged(Ok(merge)) if merge.result != MergeOutcome::Merge => Some(
            Answer::Refused("not merged: it conflicts with main".to_string()),
        ),
        ChangeRequestsResponse::Merged(result) => plain(result),
        ChangeRequestsResponse::UpdatedFromMain(Ok(update))
            if update.result != UpdateOutcome::Update =>
        {
            Some(Answer::Refused(
                "main's changes conflict with it: nothing was brought in".to_string(),
            ))
        }
        ChangeRequestsResponse::UpdatedFromMain(result) => plain(result),
        _ => None,
    }
}

fn sites_answer(response: &SitesResponse) -> Option<Answer> {
    match response {
        SitesResponse::Site(result) => plain(result),
        SitesResponse::Published(Ok(crate::api::models::PublishOutcome::Checkout { .. })) => Some(
            Answer::Refused("not published: the plan needs a checkout first".to_string()),
        ),
        SitesResponse::Published(result) => plain(result),
        SitesResponse::SchemaSaved(result) => plain(result),
        SitesResponse::ShareLink(result) => plain(result),
        SitesResponse::SectionGroup(result) => plain(result),
        SitesResponse::Done(result) => plain(result),
        _ => None,
    }
}
