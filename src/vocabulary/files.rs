//! The files area's API calls and their results.

use crate::api::models::File;
use crate::api::{ApiError, ContentSource, ListPage};

#[derive(Debug, Clone, PartialEq)]
pub enum FilesCall {
    List {
        source: ContentSource,
        cursor: Option<String>,
    },
    Get {
        source: ContentSource,
        file: String,
    },
}

impl FilesCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            FilesCall::List { .. } | FilesCall::Get { .. } => false,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum FilesResponse {
    Files(Result<ListPage<File>, ApiError>),
    File(Result<File, ApiError>),
}
