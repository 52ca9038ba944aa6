//! A page's parsed markdown: the key it is cached under, and asking for its parse. The page
//! tree's preview and the reader both show a page from the same cache.

use std::sync::Arc;

use crate::api::models::Page;
use crate::screens::step::Ctx;
use crate::vocabulary::{Cmd, DocKey};

/// The key under which a page's parsed markdown is cached.
pub fn doc_key(space: &str, page: &Page) -> DocKey {
    let version = page
        .updated_at
        .clone()
        .unwrap_or_else(|| format!("len:{}", page.markdown.as_deref().map_or(0, str::len)));
    DocKey {
        space: space.to_string(),
        page: page.id.clone(),
        version,
    }
}

/// Asks for a parse unless the whole page is already parsed.
pub fn parse_unless_cached(key: &DocKey, page: &Page, ctx: &Ctx) -> Cmd {
    if ctx.docs.get(key).is_some_and(|cached| cached.is_complete()) {
        return Cmd::None;
    }
    Cmd::ParseMarkdown {
        key: key.clone(),
        markdown: Arc::from(page.markdown.clone().unwrap_or_default()),
    }
}
