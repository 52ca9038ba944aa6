//! Parsed pages kept in memory, so a page seen before shows at once. Bounded: the oldest parse
//! is forgotten first. The markdown of a page shown only as a preview is kept too (a few, by
//! size), so reading it parses at once instead of fetching it again.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use crate::markdown::MarkdownDoc;

/// Identifies one version of one page's markdown, so a parsed document can be reused.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DocKey {
    pub space: String,
    pub page: String,
    /// The page's `updatedAt` (or its markdown's length when the server gives none), so an
    /// edited page is parsed again.
    pub version: String,
}

/// A parsed document handed between threads. Compared by identity: two handles are equal when
/// they point at the same parse.
#[derive(Debug, Clone)]
pub struct DocHandle(pub Arc<MarkdownDoc>);

impl PartialEq for DocHandle {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

const MAX_DOCUMENTS: usize = 48;

/// The markdown kept for pages parsed only in part, newest first, at most this many bytes in
/// all (the newest is always kept).
const MAX_SOURCE_BYTES: usize = 4 * 1024 * 1024;

#[derive(Debug, Default)]
pub struct DocCache {
    documents: HashMap<DocKey, CachedDoc>,
    order: VecDeque<DocKey>,
    /// Markdown of pages whose parse is a preview, oldest first.
    sources: VecDeque<(DocKey, Arc<str>)>,
}

#[derive(Debug, Clone)]
pub struct CachedDoc {
    pub doc: Arc<MarkdownDoc>,
    pub highlighted: bool,
}

/// How complete a parse of a page is: a preview of its start, the whole page plain, the whole
/// page with its code highlighted. A parse never gives way to a worse one of the same page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct ParseRank {
    complete: bool,
    highlighted: bool,
}

impl CachedDoc {
    pub fn rank(&self) -> ParseRank {
        ParseRank {
            complete: self.doc.is_complete(),
            highlighted: self.highlighted,
        }
    }

    /// The whole page is parsed (not only its start, for a preview).
    pub fn is_complete(&self) -> bool {
        self.doc.is_complete()
    }
}

impl DocCache {
    pub fn get(&self, key: &DocKey) -> Option<&CachedDoc> {
        self.documents.get(key)
    }

    /// Forgets a page, so it is parsed and highlighted again (the user asked to reload it).
    pub fn forget(&mut self, key: &DocKey) {
        self.documents.remove(key);
        self.order.retain(|known| known != key);
        self.sources.retain(|(known, _)| known != key);
    }

    /// Keeps the markdown of a page shown only as a preview, so reading it needs no fetch.
    pub fn keep_source(&mut self, key: DocKey, markdown: Arc<str>) {
        self.sources.retain(|(known, _)| *known != key);
        self.sources.push_back((key, markdown));
        let mut total: usize = self.sources.iter().map(|(_, text)| text.len()).sum();
        while total > MAX_SOURCE_BYTES && self.sources.len() > 1 {
            if let Some((_, oldest)) = self.sources.pop_front() {
                total -= oldest.len();
            }
        }
    }

    /// The kept markdown of a page (see [`DocCache::keep_source`]).
    pub fn source(&self, key: &DocKey) -> Option<Arc<str>> {
        self.sources
            .iter()
            .find(|(known, _)| known == key)
            .map(|(_, text)| Arc::clone(text))
    }

    pub fn insert(&mut self, key: DocKey, doc: Arc<MarkdownDoc>, highlighted: bool) {
        let cached = CachedDoc { doc, highlighted };
        // A plain parse never replaces a highlighted one that raced ahead of it, nor a preview
        // the whole page.
        if let Some(existing) = self.documents.get(&key)
            && existing.rank() > cached.rank()
        {
            return;
        }
        if cached.is_complete() {
            self.sources.retain(|(known, _)| *known != key);
        }
        if !self.documents.contains_key(&key) {
            self.order.push_back(key.clone());
        }
        self.documents.insert(key, cached);
        while self.order.len() > MAX_DOCUMENTS {
            if let Some(oldest) = self.order.pop_front() {
                self.documents.remove(&oldest);
            }
        }
    }
}
