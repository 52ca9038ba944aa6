//! A list fetched a page at a time, as the user scrolls near its end. Page ids go through the
//! client's `PageCursor`, so a server that repeats itself (or never stops) cannot make us loop.

use crate::api::{ApiError, ListPage, PageCursor, UnreadableItem};
use crate::vocabulary::loadable::{AnswerKind, RequestId};
use crate::vocabulary::{ApiCall, Cmd, RequestIds};

/// Start fetching the next page when the selection is this close to the end.
pub const PREFETCH_DISTANCE: usize = 10;

/// A page [`PagedList::next_page`] decided to fetch.
#[derive(Debug)]
pub struct NextPage {
    pub request: RequestId,
    pub page: String,
}

impl NextPage {
    /// The command that fetches it: `call` builds the request for a page id.
    pub fn ask(self, call: impl FnOnce(Option<String>) -> ApiCall) -> Cmd {
        Cmd::Api {
            request: self.request,
            call: call(Some(self.page)),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PagedList<T> {
    pub items: Vec<T>,
    /// Items the server sent that could not be read: the screen shows a row for each.
    pub unreadable: Vec<UnreadableItem>,
    pub total: Option<u64>,
    pub error: Option<ApiError>,
    loading: Option<RequestId>,
    /// True while the request in flight is for the first page (its answer replaces the items).
    loading_first: bool,
    /// True once the first page arrived (an empty list is then really empty).
    loaded_once: bool,
    next: Option<String>,
    cursor: PageCursor,
}

impl<T> Default for PagedList<T> {
    fn default() -> Self {
        PagedList {
            items: Vec::new(),
            unreadable: Vec::new(),
            total: None,
            error: None,
            loading: None,
            loading_first: false,
            loaded_once: false,
            next: None,
            cursor: PageCursor::default(),
        }
    }
}

impl<T> PagedList<T> {
    /// Starts over from the first page, keeping the old items on screen until it arrives.
    pub fn restart(&mut self, request: RequestId) {
        self.cursor.reset();
        // The first request of a fresh cursor is always allowed.
        let _ = self.cursor.begin(None);
        self.loading = Some(request);
        self.loading_first = true;
        self.error = None;
    }

    /// The page id to fetch next if the selection is near the end and there is more to fetch.
    pub fn want_more(&self, selected: usize) -> Option<String> {
        if self.loading.is_some() || self.error.is_some() {
            return None;
        }
        if selected + PREFETCH_DISTANCE < self.items.len() {
            return None;
        }
        self.next
            .clone()
            .filter(|page| !self.cursor.was_requested(page))
    }

    /// Records that `page` is being fetched with `request`. Returns false (and stops paging)
    /// when the cursor refuses the page: repeated, or past the cap.
    pub fn start_more(&mut self, request: RequestId, page: &str) -> bool {
        if self.cursor.begin(Some(page)).is_err() {
            self.next = None;
            return false;
        }
        self.loading = Some(request);
        self.loading_first = false;
        true
    }

    /// Asks for the first page again (see [`PagedList::restart`]) with `call`.
    pub fn load_first(&mut self, requests: &mut RequestIds, call: ApiCall) -> Cmd {
        let request = requests.issue();
        self.restart(request);
        Cmd::Api { request, call }
    }

    /// The next page to ask for when `reach` (the selected item, as a rule) nears the end of
    /// what is loaded and the server has more: recorded as asked for, with its request.
    pub fn next_page(&mut self, reach: usize, requests: &mut RequestIds) -> Option<NextPage> {
        let page = self.want_more(reach)?;
        let request = requests.issue();
        self.start_more(request, &page)
            .then_some(NextPage { request, page })
    }

    /// Forgets the request in flight, so its answer is dropped as stale (the user asked for
    /// something else meanwhile). The items shown stay.
    pub fn cancel(&mut self) {
        self.loading = None;
    }

    pub fn is_loading(&self) -> bool {
        self.loading.is_some()
    }

    pub fn loaded_once(&self) -> bool {
        self.loaded_once
    }

    /// True while the server says there is more and we would still ask for it.
    pub fn has_more(&self) -> bool {
        self.next
            .as_deref()
            .is_some_and(|page| !self.cursor.was_requested(page))
    }

    /// Applies a final page if it is the one awaited. Returns false for a stale result.
    pub fn settle(&mut self, request: RequestId, result: Result<ListPage<T>, ApiError>) -> bool {
        self.settle_as(request, result, AnswerKind::Final)
    }

    /// [`PagedList::settle`] for a page of either kind.
    pub fn settle_as(
        &mut self,
        request: RequestId,
        result: Result<ListPage<T>, ApiError>,
        kind: AnswerKind,
    ) -> bool {
        if self.loading != Some(request) {
            return false;
        }
        // A cached first page is shown only where nothing is yet (see `AnswerKind`); the
        // request stays awaited, and the server's first page replaces it.
        let provisional = kind.is_provisional();
        if provisional && (self.loaded_once || !self.loading_first || result.is_err()) {
            return false;
        }
        if !provisional {
            self.loading = None;
        }
        match result {
            Ok(page) => {
                if self.loading_first {
                    self.items.clear();
                    self.unreadable.clear();
                }
                self.unreadable.extend(page.unreadable);
                self.next = page.next_page;
                self.total = page.count.or(self.total);
                self.items.extend(page.items);
                self.loaded_once = true;
                self.error = None;
            }
            Err(error) => self.error = Some(error),
        }
        true
    }
}
