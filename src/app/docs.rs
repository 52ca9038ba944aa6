//! Parsed pages kept in memory, so a page seen before shows at once. Bounded: the oldest parse
//! is forgotten first.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use crate::app::command::DocKey;
use crate::ui::markdown::MarkdownDoc;

const MAX_DOCUMENTS: usize = 48;

#[derive(Debug, Default)]
pub struct DocCache {
    documents: HashMap<DocKey, CachedDoc>,
    order: VecDeque<DocKey>,
}

#[derive(Debug, Clone)]
pub struct CachedDoc {
    pub doc: Arc<MarkdownDoc>,
    pub highlighted: bool,
}

impl DocCache {
    pub fn get(&self, key: &DocKey) -> Option<&CachedDoc> {
        self.documents.get(key)
    }

    /// Forgets a page, so it is parsed and highlighted again (the user asked to reload it).
    pub fn forget(&mut self, key: &DocKey) {
        self.documents.remove(key);
        self.order.retain(|known| known != key);
    }

    pub fn insert(&mut self, key: DocKey, doc: Arc<MarkdownDoc>, highlighted: bool) {
        // A plain parse never replaces a highlighted one that raced ahead of it.
        if let Some(existing) = self.documents.get(&key)
            && existing.highlighted
            && !highlighted
        {
            return;
        }
        if !self.documents.contains_key(&key) {
            self.order.push_back(key.clone());
        }
        self.documents.insert(key, CachedDoc { doc, highlighted });
        while self.order.len() > MAX_DOCUMENTS {
            if let Some(oldest) = self.order.pop_front() {
                self.documents.remove(&oldest);
            }
        }
    }
}
