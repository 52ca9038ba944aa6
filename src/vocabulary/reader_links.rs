//! The reader's one API call: a space and its page tree, to open the page a link names.

use crate::api::ApiError;
use crate::api::models::{Page, Space};

#[derive(Debug, Clone, PartialEq)]
pub enum ReaderCall {
    /// A space and its whole page tree (a link named one of its pages by path or id).
    SpacePages { space: String },
}

impl ReaderCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            ReaderCall::SpacePages { .. } => false,
        }
    }
}

#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum ReaderResponse {
    SpacePages(Result<(Space, Vec<Page>), ApiError>),
}
