//! The list envelope and a guard against servers that page forever.

use std::collections::HashSet;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};

use super::error::PagingLoopReason;
use super::models::common::lenient_count;

/// The most items the API returns per page (`limit` maximum); never send more.
pub const MAX_PAGE_LIMIT: u32 = 1000;

/// Page size for lazily loaded lists: enough to fill a tall terminal, small enough to be quick.
pub const DEFAULT_PAGE_LIMIT: u32 = 100;

/// Pages a lazily paged list may be scrolled through before it is considered endless (1000
/// pages × 1000 items is far beyond any real organization). Whole-list reads choose a much
/// smaller cap of their own (see [`crate::Client::list_up_to`]'s callers).
pub const DEFAULT_MAX_PAGES: usize = 1000;

/// One page of a list: the envelope `{next: {page}, count, items}`. `next_page` is the opaque id
/// to pass as `page` for the following page; `None` means this was the last page. `count` is the
/// total number of items in the whole list when the server says so. An item that cannot be
/// decoded does not fail the page: it is left out of `items` and described in `unreadable`, so
/// the rest of the list still shows and the screen can mark where something was lost.
#[derive(Debug, Clone, PartialEq)]
pub struct ListPage<T> {
    pub items: Vec<T>,
    pub unreadable: Vec<UnreadableItem>,
    pub next_page: Option<String>,
    pub count: Option<u64>,
}

/// One list item the client could not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableItem {
    /// The field that failed, from the page's root: `items[3].user.id`.
    pub path: String,
    /// The decoder's explanation (server text: sanitize before showing).
    pub message: String,
}

impl<T> Default for ListPage<T> {
    fn default() -> Self {
        ListPage {
            items: Vec::new(),
            unreadable: Vec::new(),
            next_page: None,
            count: None,
        }
    }
}

#[derive(Deserialize)]
struct Envelope {
    #[serde(default)]
    next: Option<NextPage>,
    #[serde(default, deserialize_with = "lenient_count")]
    count: Option<u64>,
    /// Kept raw so each item decodes on its own and one bad item cannot fail the page: as
    /// the text it came as, which decodes straight into the item (a `Value` would build and
    /// drop a map of every object first, most of the work of reading a thousand threads).
    items: Vec<Box<serde_json::value::RawValue>>,
}

#[derive(Deserialize)]
struct NextPage {
    page: String,
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for ListPage<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let envelope = Envelope::deserialize(deserializer)?;
        let mut page = ListPage {
            next_page: envelope.next.map(|next| next.page),
            count: envelope.count,
            ..ListPage::default()
        };
        page.items.reserve(envelope.items.len());
        for (index, item) in envelope.items.iter().enumerate() {
            let mut text = serde_json::Deserializer::from_str(item.get());
            match serde_path_to_error::deserialize::<_, T>(&mut text) {
                Ok(item) => page.items.push(item),
                Err(error) => page.unreadable.push(UnreadableItem {
                    path: item_path(index, &error.path().to_string()),
                    message: without_position(error.inner()),
                }),
            }
        }
        Ok(page)
    }
}

/// The decoder's message without "at line 1 column 80": the place inside one item's text
/// means nothing to a reader, the path says where.
fn without_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    match message.strip_suffix(&position) {
        Some(bare) => bare.to_string(),
        None => message,
    }
}

/// `items[3].user.id` from the item's index and the path inside it (`.` for the item itself).
fn item_path(index: usize, inner: &str) -> String {
    if inner == "." || inner.is_empty() {
        format!("items[{index}]")
    } else {
        format!("items[{index}].{inner}")
    }
}

/// What [`crate::Client::list_up_to`] fetched of a whole list: everything read, even when
/// paging stopped before the end.
#[derive(Debug, Clone, PartialEq)]
pub struct WholeList<T> {
    pub items: Vec<T>,
    pub unreadable: Vec<UnreadableItem>,
    /// Pages fetched.
    pub pages: usize,
    /// Why paging stopped before the list's end, when it did; `items` holds what came before.
    pub stopped: Option<PagingLoopReason>,
}

impl<T> WholeList<T> {
    /// The pages read when the list did not end within its cap (`None`: read to its end), for
    /// a screen's "stopped after N pages" note.
    pub fn stopped_after_pages(&self) -> Option<usize> {
        self.stopped.as_ref().map(|_| self.pages)
    }
}

/// A list known whole, as read to its end in one page.
impl<T> From<Vec<T>> for WholeList<T> {
    fn from(items: Vec<T>) -> Self {
        WholeList {
            items,
            pages: 1,
            ..WholeList::default()
        }
    }
}

impl<T> Default for WholeList<T> {
    fn default() -> Self {
        WholeList {
            items: Vec::new(),
            unreadable: Vec::new(),
            pages: 0,
            stopped: None,
        }
    }
}

/// Remembers which pages of one list were requested and refuses a page id seen before or a page
/// beyond the cap. Pure, so the UI can keep one per lazily paged list, and `Client::list_up_to`
/// uses one to walk a whole list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageCursor {
    requested: HashSet<String>,
    pages_requested: usize,
    max_pages: usize,
}

impl Default for PageCursor {
    fn default() -> Self {
        PageCursor::new()
    }
}

impl PageCursor {
    /// A fresh cursor with the default cap of [`DEFAULT_MAX_PAGES`].
    pub fn new() -> PageCursor {
        PageCursor::with_max_pages(DEFAULT_MAX_PAGES)
    }

    /// A cursor that allows at most `max_pages` requests (at least one).
    pub fn with_max_pages(max_pages: usize) -> PageCursor {
        PageCursor {
            requested: HashSet::new(),
            pages_requested: 0,
            max_pages: max_pages.max(1),
        }
    }

    /// Records that `page` is about to be requested (`None` = the first page) and says whether
    /// that is allowed. On `Err` nothing is recorded and the caller should stop paging.
    pub fn begin(&mut self, page: Option<&str>) -> Result<(), PagingLoopReason> {
        if self.pages_requested >= self.max_pages {
            return Err(PagingLoopReason::TooManyPages(self.max_pages));
        }
        if let Some(page) = page {
            if self.requested.contains(page) {
                return Err(PagingLoopReason::RepeatedPage(page.to_owned()));
            }
            self.requested.insert(page.to_owned());
        }
        self.pages_requested += 1;
        Ok(())
    }

    /// True when `page` was already requested through this cursor.
    pub fn was_requested(&self, page: &str) -> bool {
        self.requested.contains(page)
    }

    /// How many pages were requested so far (the first page included).
    pub fn pages_requested(&self) -> usize {
        self.pages_requested
    }

    /// Forgets everything, for a refresh that starts the list again from its first page.
    pub fn reset(&mut self) {
        self.requested.clear();
        self.pages_requested = 0;
    }
}

/// The query for one page request: the caller's filters without any `page` or `limit` they
/// passed, then `limit` (capped at [`MAX_PAGE_LIMIT`]) and `page` when there is one.
pub fn page_query(query: &[(&str, &str)], page: Option<&str>, limit: u32) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = query
        .iter()
        .filter(|(key, _)| *key != "page" && *key != "limit")
        .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
        .collect();
    pairs.push(("limit".to_owned(), limit.min(MAX_PAGE_LIMIT).to_string()));
    if let Some(page) = page {
        pairs.push(("page".to_owned(), page.to_owned()));
    }
    pairs
}

/// The `limit` a caller asked for in its query, if it is a number; capped at the maximum.
pub fn requested_limit(query: &[(&str, &str)]) -> Option<u32> {
    query
        .iter()
        .find(|(key, _)| *key == "limit")
        .and_then(|(_, value)| value.trim().parse::<u64>().ok())
        .map(|limit| limit.min(u64::from(MAX_PAGE_LIMIT)) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Item {
        id: String,
    }

    #[test]
    fn decodes_the_full_envelope() {
        let json = r#"{"next":{"page":"p2"},"count":3,"items":[{"id":"a"},{"id":"b"}],"x":1}"#;
        let page: ListPage<Item> = serde_json::from_str(json).unwrap();
        assert_eq!(page.next_page.as_deref(), Some("p2"));
        assert_eq!(page.count, Some(3));
        assert_eq!(page.items.len(), 2);
    }

    #[test]
    fn next_and_count_are_optional() {
        let page: ListPage<Item> = serde_json::from_str(r#"{"items":[]}"#).unwrap();
        assert_eq!(page, ListPage::default());
        let page: ListPage<Item> =
            serde_json::from_str(r#"{"next":null,"count":null,"items":[{"id":"a"}]}"#).unwrap();
        assert_eq!(page.next_page, None);
        assert_eq!(page.count, None);
    }

    #[test]
    fn odd_counts_are_tolerated() {
        let page: ListPage<Item> = serde_json::from_str(r#"{"count":2.0,"items":[]}"#).unwrap();
        assert_eq!(page.count, Some(2));
        let page: ListPage<Item> = serde_json::from_str(r#"{"count":-1,"items":[]}"#).unwrap();
        assert_eq!(page.count, Some(0));
        let page: ListPage<Item> = serde_json::from_str(r#"{"count":2.6,"items":[]}"#).unwrap();
        assert_eq!(page.count, Some(3));
    }

    #[test]
    fn one_unreadable_item_leaves_the_rest_of_the_page() {
        let json = r#"{"count":4,"items":[{"id":"a"},{"id":7},{"name":"no id"},{"id":"d"}]}"#;
        let page: ListPage<Item> = serde_json::from_str(json).unwrap();
        let ids: Vec<&str> = page.items.iter().map(|item| item.id.as_str()).collect();
        assert_eq!(ids, ["a", "d"]);
        let paths: Vec<&str> = page
            .unreadable
            .iter()
            .map(|item| item.path.as_str())
            .collect();
        assert_eq!(paths, ["items[1].id", "items[2]"]);
        assert!(page.unreadable[1].message.contains("id"), "{page:?}");
    }

    #[test]
    fn missing_items_is_an_error() {
        assert!(serde_json::from_str::<ListPage<Item>>(r#"{"count":1}"#).is_err());
    }

    #[test]
    fn cursor_accepts_new_pages_and_refuses_repeats() {
        let mut cursor = PageCursor::new();
        assert_eq!(cursor.begin(None), Ok(()));
        assert_eq!(cursor.begin(Some("p2")), Ok(()));
        assert_eq!(cursor.begin(Some("p3")), Ok(()));
        assert!(cursor.was_requested("p2"));
        assert_eq!(
            cursor.begin(Some("p2")),
            Err(PagingLoopReason::RepeatedPage("p2".into()))
        );
        assert_eq!(cursor.pages_requested(), 3);
    }

    #[test]
    fn cursor_stops_at_the_cap() {
        let mut cursor = PageCursor::with_max_pages(3);
        assert_eq!(cursor.begin(None), Ok(()));
        assert_eq!(cursor.begin(Some("a")), Ok(()));
        assert_eq!(cursor.begin(Some("b")), Ok(()));
        assert_eq!(
            cursor.begin(Some("c")),
            Err(PagingLoopReason::TooManyPages(3))
        );
        assert!(!cursor.was_requested("c"));
    }

    #[test]
    fn cursor_reset_starts_over() {
        let mut cursor = PageCursor::with_max_pages(0);
        assert_eq!(cursor.begin(Some("a")), Ok(()));
        assert!(cursor.begin(Some("b")).is_err());
        cursor.reset();
        assert_eq!(cursor.begin(Some("a")), Ok(()));
    }

    #[test]
    fn page_query_caps_limit_and_replaces_page() {
        let query = page_query(
            &[("nested", "true"), ("page", "old"), ("limit", "5")],
            Some("p2"),
            5000,
        );
        assert_eq!(
            query,
            vec![
                ("nested".to_owned(), "true".to_owned()),
                ("limit".to_owned(), "1000".to_owned()),
                ("page".to_owned(), "p2".to_owned()),
            ]
        );
        assert_eq!(
            page_query(&[], None, 10),
            vec![("limit".to_owned(), "10".to_owned())]
        );
    }

    #[test]
    fn requested_limit_reads_and_caps() {
        assert_eq!(requested_limit(&[("limit", "50")]), Some(50));
        assert_eq!(requested_limit(&[("limit", "99999")]), Some(1000));
        assert_eq!(requested_limit(&[("limit", "lots")]), None);
        assert_eq!(requested_limit(&[]), None);
    }
}
