//! The titles of the pages threads are on. The review reads only the pages the change request
//! changed, but a thread can be on any page of it: the change request's page tree is read
//! once, when the comments tab shows a thread on a page with no known title. Until it comes
//! (or when it fails) such a thread says "on a page", never the page's id.

use std::collections::HashMap;

use super::{ReviewScreen, ReviewTab};
use crate::api::ApiError;
use crate::screens::step::Ctx;
use crate::vocabulary::change_requests::ChangeRequestsCall;
use crate::vocabulary::{ApiCall, Cmd, RequestId};

/// The words for a page whose title is not known (yet).
pub const UNKNOWN_PAGE: &str = "a page";

/// Titles learnt from the change request's page tree, beyond those of the changed pages.
#[derive(Debug, Default)]
pub struct PageTitles {
    titles: HashMap<String, String>,
    request: Option<RequestId>,
    /// The tree was asked for: it is not asked again for this review.
    asked: bool,
}

impl ReviewScreen {
    /// The page's title: from the changed pages, else from the page tree once read.
    pub fn page_title(&self, page: &str) -> Option<&str> {
        self.pages
            .iter()
            .find(|row| row.page == page)
            .map(|row| row.title.as_str())
            .or_else(|| self.page_titles.titles.get(page).map(String::as_str))
    }

    /// Asks for the change request's page tree when the comments tab shows threads on pages
    /// with no known title; at most once per review.
    pub(super) fn ask_for_page_titles(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.tab != ReviewTab::Comments || self.page_titles.asked {
            return Cmd::None;
        }
        let untitled = self
            .threads()
            .iter()
            .filter_map(|thread| thread.comment.target.page.as_ref())
            .any(|page| self.page_title(&page.id).is_none());
        if !untitled {
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.page_titles.asked = true;
        self.page_titles.request = Some(request);
        Cmd::Api {
            request,
            call: ApiCall::ChangeRequests(ChangeRequestsCall::PageTitles(self.target.clone())),
        }
    }

    /// The page tree came; a failure leaves "on a page", which is true, and says nothing more.
    pub(super) fn on_page_titles(
        &mut self,
        request: RequestId,
        result: &Result<Vec<(String, String)>, ApiError>,
    ) -> bool {
        if self.page_titles.request != Some(request) {
            return false;
        }
        self.page_titles.request = None;
        if let Ok(pages) = result {
            self.page_titles.titles.extend(pages.iter().cloned());
        }
        true
    }
}
