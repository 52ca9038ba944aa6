//! The reader's one API call: a space and its page tree, to open the page a link names.

use crate::api::ApiError;
use crate::api::models::{Page, Space};

#[derive(Debug, Clone, PartialEq)]
pub enum ReaderCall {
    /// A space and its whole page tree (a link named one of its pages by path or id).
    SpacePages { space: String },
}

#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum ReaderResponse {
    SpacePages(Result<(Space, Vec<Page>), ApiError>),
}
