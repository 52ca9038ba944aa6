//! The API calls of change-request review, and what comes back. Kept apart from `ApiCall` so the
//! review screens can grow without touching every other screen.

use crate::api::models::{
    ChangeRequest, ChangeRequestReview, ChangeRequestStatus, Comment, CommentReply, Member,
    MergeResult, RequestedReviewer, RevisionSemanticChanges, Space, UpdateResult, User,
};
use crate::api::{ApiError, ChangeRequestFilter, CommentUpdate, ListPage, ReviewVerdict};

/// Where a change-request list comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum ChangeRequestScope {
    Space(String),
    Organization(String),
}

/// Identifies one change request: its space and its id (or number).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ChangeRequestRef {
    pub space: String,
    pub change_request: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ReviewCall {
    CurrentUser,
    ListChangeRequests {
        scope: ChangeRequestScope,
        filter: ChangeRequestFilter,
        page: Option<String>,
    },
    /// Everything the review screen shows, fetched in two parallel rounds.
    LoadReview(ChangeRequestRef),
    /// Both sides of one page; `main`/`change_request` false when that side has no such page.
    LoadPageDiff {
        target: ChangeRequestRef,
        page: String,
        main: bool,
        change_request: bool,
    },
    PostComment {
        target: ChangeRequestRef,
        page: Option<String>,
        markdown: String,
    },
    PostReply {
        target: ChangeRequestRef,
        comment: String,
        markdown: String,
    },
    /// Resolve, react or edit a comment (or, with `reply`, one of its replies).
    UpdateComment {
        target: ChangeRequestRef,
        comment: String,
        reply: Option<String>,
        update: CommentUpdate,
    },
    DeleteComment {
        target: ChangeRequestRef,
        comment: String,
        reply: Option<String>,
    },
    SubmitReview {
        target: ChangeRequestRef,
        verdict: ReviewVerdict,
        comment: Option<String>,
    },
    RequestReviewers {
        target: ChangeRequestRef,
        users: Vec<String>,
    },
    RemoveReviewer {
        target: ChangeRequestRef,
        user: String,
    },
    SetStatus {
        target: ChangeRequestRef,
        status: ChangeRequestStatus,
    },
    SetSubject {
        target: ChangeRequestRef,
        subject: String,
    },
    Merge(ChangeRequestRef),
    UpdateFromMain(ChangeRequestRef),
    /// Members of an organization, for the reviewer picker.
    ListMembers {
        organization: String,
    },
}

/// A comment with all of its replies.
#[derive(Debug, Clone, PartialEq)]
pub struct Thread {
    pub comment: Comment,
    pub replies: Vec<CommentReply>,
}

/// What the review screen needs, as one value so a change request seen before paints at once.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewBundle {
    pub change_request: ChangeRequest,
    pub space: Option<Space>,
    pub changes: Result<RevisionSemanticChanges, ApiError>,
    pub threads: Vec<Thread>,
    pub reviews: Vec<ChangeRequestReview>,
    pub requested: Vec<RequestedReviewer>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PageSides {
    pub main: String,
    pub change_request: String,
}

#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum ReviewResponse {
    CurrentUser(Result<User, ApiError>),
    ChangeRequests(Result<ListPage<ChangeRequest>, ApiError>),
    Review(Result<ReviewBundle, ApiError>),
    PageDiff(Result<PageSides, ApiError>),
    CommentPosted(Result<Comment, ApiError>),
    ReplyPosted(Result<CommentReply, ApiError>),
    CommentUpdated(Result<(), ApiError>),
    Deleted(Result<(), ApiError>),
    ReviewSubmitted(Result<ChangeRequestReview, ApiError>),
    ReviewersChanged(Result<Vec<RequestedReviewer>, ApiError>),
    StatusSet(Result<ChangeRequest, ApiError>),
    SubjectSet(Result<ChangeRequest, ApiError>),
    Merged(Result<MergeResult, ApiError>),
    UpdatedFromMain(Result<UpdateResult, ApiError>),
    Members(Result<Vec<Member>, ApiError>),
}
