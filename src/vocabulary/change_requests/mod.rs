//! The API calls of change requests (the lists, a new one, one change request's review), and
//! what comes back. Kept apart from `ApiCall` so the review screens can grow without touching
//! every other screen. What a review showed last time is in [`memory`].

pub mod memory;

use crate::api::limits::Priority;
use crate::api::models::{
    ChangeRequest, ChangeRequestReview, ChangeRequestStatus, Comment, CommentReply, IssuesCluster,
    Member, MergeResult, RequestedReviewer, RevisionSemanticChanges, Space, UpdateResult, User,
};
use crate::api::{
    ApiError, ChangeRequestFilter, CommentUpdate, ListPage, ReviewVerdict, WholeList,
};

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

/// The list a review was opened from, in its order, and where this review stands in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Siblings {
    pub items: Vec<(ChangeRequestRef, ChangeRequest)>,
    pub index: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ChangeRequestsCall {
    CurrentUser,
    ListChangeRequests {
        scope: ChangeRequestScope,
        filter: ChangeRequestFilter,
        page: Option<String>,
    },
    /// Everything the review screen shows, in parallel, except the threads' replies: those
    /// come with [`ChangeRequestsCall::LoadReplies`], what is on screen first. When the
    /// threads take more than one page, the review with the first page of them is answered
    /// first ([`ChangeRequestsResponse::ReviewOpening`]), before the rest are read, and the
    /// first thread's replies are asked for by this call itself, answered as they come
    /// ([`ChangeRequestsResponse::Replies`]) and kept in the whole review.
    LoadReview(ChangeRequestRef),
    /// The replies of these threads (comment ids), fetched in parallel, taking the host's
    /// free slots in `priority`'s turn: the first thread on screen beside what draws the
    /// screen, the others on screen next, the rest in the background.
    LoadReplies {
        target: ChangeRequestRef,
        comments: Vec<String>,
        priority: Priority,
    },
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
    /// A new change request in `space`.
    Create {
        space: String,
        subject: String,
    },
    /// The description, a rich-text Document, sent alone.
    SetDescription {
        target: ChangeRequestRef,
        document: serde_json::Value,
    },
    /// The PDF address of the change request, or of one of its pages.
    Pdf {
        target: ChangeRequestRef,
        page: Option<String>,
    },
    /// The organization's conversations issues clusters, for the list's cluster filter.
    ListIssueClusters {
        organization: String,
    },
    /// A comment on one block of a page (`node` None: on the page), from a line of the diff.
    PostBlockComment {
        target: ChangeRequestRef,
        page: String,
        node: Option<String>,
        /// The cell of the table block `node` the comment is on, when it is on one.
        table_cell: Option<crate::api::models::TableCell>,
        markdown: String,
    },
    /// The change request's markdown of these pages now, to see which changed since the
    /// last review. Each page comes with its `updatedAt` remembered, if any: the change
    /// request's revision is then read once, and a page whose `updatedAt` did not move is
    /// not read again.
    LoadPagesNow {
        target: ChangeRequestRef,
        pages: Vec<(String, Option<String>)>,
    },
    /// Everyone who wrote a comment or a reply here, for the comments tab's author filter.
    ListCommenters(ChangeRequestRef),
    /// The title of every page in the change request, for threads on pages it did not change.
    PageTitles(ChangeRequestRef),
    /// The links a merge would break: broken in the change request's version of its changed
    /// pages but not on main, and links on main to the pages it deletes.
    BreakingLinks {
        target: ChangeRequestRef,
        pages: Vec<LinkCheckPage>,
    },
}

impl ChangeRequestsCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            ChangeRequestsCall::CurrentUser
            | ChangeRequestsCall::ListChangeRequests { .. }
            | ChangeRequestsCall::LoadReview(_)
            | ChangeRequestsCall::LoadReplies { .. }
            | ChangeRequestsCall::LoadPageDiff { .. }
            | ChangeRequestsCall::ListMembers { .. }
            | ChangeRequestsCall::Pdf { .. }
            | ChangeRequestsCall::ListIssueClusters { .. }
            | ChangeRequestsCall::LoadPagesNow { .. }
            | ChangeRequestsCall::ListCommenters(_)
            | ChangeRequestsCall::PageTitles(_)
            | ChangeRequestsCall::BreakingLinks { .. } => false,
            ChangeRequestsCall::PostComment { .. }
            | ChangeRequestsCall::PostReply { .. }
            | ChangeRequestsCall::UpdateComment { .. }
            | ChangeRequestsCall::DeleteComment { .. }
            | ChangeRequestsCall::SubmitReview { .. }
            | ChangeRequestsCall::RequestReviewers { .. }
            | ChangeRequestsCall::RemoveReviewer { .. }
            | ChangeRequestsCall::SetStatus { .. }
            | ChangeRequestsCall::SetSubject { .. }
            | ChangeRequestsCall::Merge(_)
            | ChangeRequestsCall::UpdateFromMain(_)
            | ChangeRequestsCall::Create { .. }
            | ChangeRequestsCall::SetDescription { .. }
            | ChangeRequestsCall::PostBlockComment { .. } => true,
        }
    }
}

impl ChangeRequestsCall {
    /// Whether the call's requests wait for a free slot behind those that draw a screen. Reply
    /// lists say so themselves: a review asks for dozens or hundreds of them, and the threads,
    /// the changed page's two sides and the review's own data must never queue behind those
    /// off screen.
    pub fn priority(&self) -> Priority {
        match self {
            ChangeRequestsCall::LoadReplies { priority, .. } => *priority,
            _ => Priority::FirstScreen,
        }
    }
}

/// A changed page, as the links check needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkCheckPage {
    pub page: String,
    pub title: String,
    pub on_main: bool,
    pub in_change_request: bool,
}

/// A link a merge would break: written on page `page` (titled `page_title`), leading to
/// `target` (in words: the address written, or the page the change request deletes), which
/// will not be there. Server text, sanitized where it is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct BreakingLink {
    pub page: String,
    pub page_title: String,
    pub target: String,
}

/// A comment with its replies.
#[derive(Debug, Clone, PartialEq)]
pub struct Thread {
    pub comment: Comment,
    pub replies: Vec<CommentReply>,
    /// False until this thread's replies came from the server (a thread without replies has
    /// nothing to wait for). Until then `replies` is empty, or what an earlier load had.
    pub replies_loaded: bool,
}

impl Thread {
    /// A thread as the comment list gives it: its replies are still to be fetched when the
    /// comment says it has some.
    pub fn without_replies(comment: Comment) -> Thread {
        Thread {
            replies_loaded: comment.replies.unwrap_or(0) == 0,
            comment,
            replies: Vec::new(),
        }
    }
}

/// A review as the server took it, with the comment it was given as the comments list holds
/// it (read back at once, so it shows without a reload; None when there was none or it
/// could not be read).
#[derive(Debug, Clone, PartialEq)]
pub struct SubmittedReview {
    pub review: ChangeRequestReview,
    pub comment: Option<Comment>,
}

/// The opening of a review whose threads take several pages. The bundle is handed over, not
/// copied: a thousand threads are on screen the moment it is taken.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewOpening {
    pub bundle: crate::vocabulary::handoff::Handoff<ReviewBundle>,
    /// The thread whose replies the review's call asked for the moment the first page was
    /// read (the first one not known to be without replies, the one a review opened at the
    /// top shows first); they come as [`ChangeRequestsResponse::Replies`] to the same request,
    /// and are in the whole review's answer too.
    pub replies_coming: Option<String>,
}

/// The answer for one thread of a [`ChangeRequestsCall::LoadReplies`].
#[derive(Debug, Clone, PartialEq)]
pub struct ThreadReplies {
    pub comment: String,
    pub replies: Result<Vec<CommentReply>, ApiError>,
}

/// What the review screen needs, as one value so a change request seen before paints at once.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewBundle {
    pub change_request: ChangeRequest,
    pub space: Option<Space>,
    pub changes: Result<RevisionSemanticChanges, ApiError>,
    pub threads: Vec<Thread>,
    /// Set when the threads did not end within their cap: the pages read.
    pub threads_stopped_after_pages: Option<usize>,
    pub reviews: Vec<ChangeRequestReview>,
    pub requested: Vec<RequestedReviewer>,
    /// Writes on this change request waiting in the outbox, shown pending.
    pub queued: Vec<crate::api::outbox::Queued>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PageSides {
    pub main: String,
    pub change_request: String,
    /// The `key`s of the change request side's top-level blocks, in order (its document
    /// format): comment threads name these as `target.node`. Empty when unknown.
    pub block_keys: Vec<String>,
    /// The table blocks of the change request side's document, by block key: their columns
    /// and rows, for a comment on one cell. Empty when unknown.
    pub tables: Vec<(String, crate::api::models::revision::TableShape)>,
    /// The change request side's `updatedAt`, remembered with its text (see
    /// [`crate::vocabulary::change_requests::memory::PageSeen::version`]).
    pub version: Option<String>,
}

#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum ChangeRequestsResponse {
    CurrentUser(Result<User, ApiError>),
    ChangeRequests(Result<ListPage<ChangeRequest>, ApiError>),
    Review(Result<ReviewBundle, ApiError>),
    /// The review with the first page of its threads, sent before [`Self::Review`] to the same
    /// request when more pages of threads are still being read: the screen is drawn, and
    /// replies and the changed page asked for, one round trip (and a big decode) earlier.
    ReviewOpening(ReviewOpening),
    Replies(Vec<ThreadReplies>),
    PageDiff(Result<PageSides, ApiError>),
    CommentPosted(Result<Comment, ApiError>),
    ReplyPosted(Result<CommentReply, ApiError>),
    /// The server could not be reached: the write was put in the outbox instead.
    Queued(crate::api::outbox::Queued),
    CommentUpdated(Result<(), ApiError>),
    Deleted(Result<(), ApiError>),
    ReviewSubmitted(Result<SubmittedReview, ApiError>),
    ReviewersChanged(Result<Vec<RequestedReviewer>, ApiError>),
    StatusSet(Result<ChangeRequest, ApiError>),
    SubjectSet(Result<ChangeRequest, ApiError>),
    Merged(Result<MergeResult, ApiError>),
    UpdatedFromMain(Result<UpdateResult, ApiError>),
    Members(Result<WholeList<Member>, ApiError>),
    Created(Result<ChangeRequest, ApiError>),
    DescriptionSet(Result<ChangeRequest, ApiError>),
    /// The PDF's address.
    Pdf(Result<String, ApiError>),
    IssueClusters(Result<WholeList<IssuesCluster>, ApiError>),
    /// (page, markdown) for each page that loaded; pages that failed are left out.
    PagesNow(Vec<(String, String)>),
    Commenters(Result<WholeList<Member>, ApiError>),
    /// (page id, title) of every page in the change request's tree.
    PageTitles(Result<Vec<(String, String)>, ApiError>),
    BreakingLinks(Result<Vec<BreakingLink>, ApiError>),
}

/// The last loaded review of each change request, bounded.
#[derive(Debug, Default)]
pub struct ReviewCache {
    bundles: std::collections::HashMap<ChangeRequestRef, ReviewBundle>,
    order: std::collections::VecDeque<ChangeRequestRef>,
}

impl ReviewCache {
    const CAPACITY: usize = 16;

    pub fn get(&self, key: &ChangeRequestRef) -> Option<&ReviewBundle> {
        self.bundles.get(key)
    }

    /// To fill in what arrived later (a thread's replies) without cloning the whole review.
    pub fn get_mut(&mut self, key: &ChangeRequestRef) -> Option<&mut ReviewBundle> {
        self.bundles.get_mut(key)
    }

    pub fn insert(&mut self, key: ChangeRequestRef, bundle: ReviewBundle) {
        if self.bundles.insert(key.clone(), bundle).is_none() {
            self.order.push_back(key);
        }
        while self.order.len() > Self::CAPACITY {
            if let Some(oldest) = self.order.pop_front() {
                self.bundles.remove(&oldest);
            }
        }
    }
}
