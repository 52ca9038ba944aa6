//! The collections feature's API calls and results (collections, and moving or transferring a
//! collection or a space), joined to the core enums through `ApiCall::Collections` and
//! `ApiResponse::Collections`.

use crate::api::models::{Collection, Organization, Space};
use crate::api::{
    ApiError, CollectionUpdate, ContentMove, ContentPointer, MovedContent, NewCollection, WholeList,
};

#[derive(Debug, Clone, PartialEq)]
pub enum CollectionsCall {
    Create {
        organization: String,
        collection: NewCollection,
    },
    Update {
        collection: String,
        update: CollectionUpdate,
    },
    Delete {
        collection: String,
    },
    Move {
        item: ContentPointer,
        target: ContentMove,
    },
    Transfer {
        item: ContentPointer,
        organization: String,
    },
    /// Every organization the user belongs to: where a transfer can go.
    Organizations,
    /// The spaces directly in one collection, read alone.
    Spaces {
        collection: String,
    },
    /// One collection read again (`r` on it).
    Get {
        collection: String,
    },
}

impl CollectionsCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            CollectionsCall::Organizations
            | CollectionsCall::Spaces { .. }
            | CollectionsCall::Get { .. } => false,
            CollectionsCall::Create { .. }
            | CollectionsCall::Update { .. }
            | CollectionsCall::Delete { .. }
            | CollectionsCall::Move { .. }
            | CollectionsCall::Transfer { .. } => true,
        }
    }
}

#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum CollectionsResponse {
    /// Created, changed, or read again.
    Collection(Result<Collection, ApiError>),
    Deleted(Result<(), ApiError>),
    /// Moved or transferred.
    Moved(Result<MovedContent, ApiError>),
    Organizations(Result<WholeList<Organization>, ApiError>),
    Spaces(Result<WholeList<Space>, ApiError>),
}
