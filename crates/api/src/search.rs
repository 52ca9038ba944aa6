//! Search limits, and the little a search result says about its space.

use super::models::Space;

/// The longest `query` the service accepts (space and organization search).
pub const MAX_SEARCH_QUERY: usize = 512;

impl Space {
    /// A space known only by id and title (a search hit, a link's location): enough for
    /// screens that read its content, which address it by id.
    pub fn known_as(id: &str, title: &str) -> Space {
        Space {
            id: id.to_owned(),
            title: title.to_owned(),
            emoji: None,
            visibility: None,
            edit_mode: None,
            created_at: None,
            updated_at: None,
            deleted_at: None,
            organization: None,
            parent: None,
            language: None,
            revision: None,
            default_level: None,
            comments: None,
            change_requests: None,
            change_requests_open: None,
            change_requests_draft: None,
            git_sync: None,
            merge_rules: None,
            urls: Default::default(),
            permissions: Default::default(),
        }
    }
}
