//! Conversations' API calls and results, joined to the core through `ApiCall::Conversations`
//! and `ApiResponse::Conversations`.

use crate::api::models::{Conversation, ConversationDetail, IssueWithConversation, IssuesCluster};
use crate::api::{ApiError, ClusterOrder, ClusterStatus, FieldProblem, IssueFilter, ListPage};

#[derive(Debug, Clone, PartialEq)]
pub enum ConversationsCall {
    Clusters {
        organization: String,
        order: ClusterOrder,
        /// Only the clusters of this status; every one when `None`.
        status: Option<ClusterStatus>,
        page: Option<String>,
    },
    Conversations {
        organization: String,
        source: Option<String>,
        page: Option<String>,
    },
    Conversation {
        organization: String,
        id: String,
    },
    Issues {
        organization: String,
        filter: IssueFilter,
        page: Option<String>,
    },
    /// One issue, read alone (`r` on the conversation opened from it).
    Issue {
        organization: String,
        id: String,
    },
    /// Read a conversation file, check it, and ingest it when it is right.
    IngestFile {
        organization: String,
        path: String,
    },
}

impl ConversationsCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            ConversationsCall::Clusters { .. }
            | ConversationsCall::Conversations { .. }
            | ConversationsCall::Conversation { .. }
            | ConversationsCall::Issues { .. }
            | ConversationsCall::Issue { .. } => false,
            ConversationsCall::IngestFile { .. } => true,
        }
    }
}

/// Why a conversation file was not ingested.
#[derive(Debug, Clone, PartialEq)]
pub enum IngestFailure {
    /// The file could not be read (the reason in words).
    Unreadable(String),
    /// The file was read but is wrong; nothing was sent.
    Invalid(Vec<FieldProblem>),
    /// The server refused it.
    Refused(ApiError),
}

impl std::fmt::Display for IngestFailure {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IngestFailure::Unreadable(reason) => {
                write!(formatter, "cannot read the file: {reason}")
            }
            IngestFailure::Invalid(problems) => {
                let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
                write!(formatter, "not sent: {}", listed.join("; "))
            }
            IngestFailure::Refused(error) => write!(formatter, "{}", error.user_message()),
        }
    }
}

// Moved once from a task to `update`, like `Msg`: boxing would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum ConversationsResponse {
    Clusters(Result<ListPage<IssuesCluster>, ApiError>),
    Conversations(Result<ListPage<Conversation>, ApiError>),
    Conversation(Result<ConversationDetail, ApiError>),
    Issues(Result<ListPage<IssueWithConversation>, ApiError>),
    Issue(Result<IssueWithConversation, ApiError>),
    /// The subject of the conversation ingested.
    Ingested(Result<String, IngestFailure>),
}
