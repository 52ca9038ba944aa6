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

#[derive(Debug, Clone, PartialEq)]
pub enum FilesResponse {
    Files(Result<ListPage<File>, ApiError>),
    File(Result<File, ApiError>),
}
