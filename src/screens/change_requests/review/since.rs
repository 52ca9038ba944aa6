//! "Since my last review": what this user saw of the change request at their last visit is
//! remembered (see [`crate::vocabulary::change_requests::memory`]), and the next visit marks what is new.
//!
//! Seen means: the comments tab was shown (every thread then loaded, with its reply count),
//! the changes tab was shown (the list of changed pages) and a page's diff was opened (that
//! page's text in the change request). The memory is written as soon as a visit has seen
//! something new, so a crash or a kill keeps it; the comparison always uses the memory as it
//! was when the review opened.
//!
//! The API gives no page content at an older revision of a change request, so the "since"
//! diff compares the page's text as remembered with its text now; a page whose diff was not
//! opened at the last visit counts as changed only when it is new to the change request, and
//! its "since" diff is the whole change against main.

use std::collections::HashMap;

use chrono::Utc;

use super::{ReviewScreen, ReviewTab};
use crate::screens::step::Ctx;
use crate::vocabulary::change_requests::ChangeRequestsCall;
use crate::vocabulary::change_requests::memory::{self, PageSeen, Seen};
use crate::vocabulary::{ApiCall, Cmd};

/// The "since" part of the review screen's state.
#[derive(Debug, Clone, Default)]
pub struct Since {
    /// The memory read when the review opened; None on a first visit (or before it is read).
    pub before: Option<Seen>,
    /// True once the memory was read (or found missing).
    pub loaded: bool,
    /// What this visit has seen so far.
    pub now: Seen,
    /// `L` on the changes tab: only pages changed since the last review, diffed against it.
    pub only_since: bool,
    /// Every changed page, while `only_since` shows fewer.
    pub all_pages: Vec<super::ChangedPageRow>,
    /// The change request's text now of the pages remembered, once asked for.
    pub pages_now: Option<HashMap<String, String>>,
    /// The revision `pages_now` was read at (or found unneeded at): a newer revision, or the
    /// server's answer after a review shown from memory, asks again.
    pages_now_revision: Option<String>,
    pages_request: Option<(crate::vocabulary::RequestId, Option<String>)>,
    /// The revision at which every remembered page's text is known to be the one seen: the
    /// only revision the memory may name, since the next visit reads no page text at the
    /// revision it names.
    verified_revision: Option<String>,
    /// The news was said once already.
    announced: bool,
}

/// What is new since the last review.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct News {
    pub new_threads: usize,
    /// Threads with new replies, and how many replies in all.
    pub threads_with_replies: usize,
    pub new_replies: usize,
    pub changed_pages: Vec<String>,
}

impl News {
    pub fn is_empty(&self) -> bool {
        self.new_threads == 0 && self.new_replies == 0 && self.changed_pages.is_empty()
    }

    /// "3 new threads, 1 new reply, 2 pages changed".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.new_threads > 0 {
            parts.push(crate::ui::time::plural(
                self.new_threads,
                "new thread",
                "new threads",
            ));
        }
        if self.new_replies > 0 {
            parts.push(crate::ui::time::plural(
                self.new_replies,
                "new reply",
                "new replies",
            ));
        }
        if !self.changed_pages.is_empty() {
            parts.push(format!(
                "{} changed",
                crate::ui::time::plural(self.changed_pages.len(), "page", "pages")
            ));
        }
        parts.join(", ")
    }
}

impl ReviewScreen {
    pub fn memory_key(&self) -> String {
        memory::key(&self.target.space, &self.target.change_request)
    }

    /// The memory came from disk (`text` None: first visit).
    pub fn on_memory(&mut self, text: Option<&str>, ctx: &mut Ctx) -> Cmd {
        self.since.before = text.and_then(Seen::from_json);
        self.since.loaded = true;
        if let Some(before) = &self.since.before {
            // What was seen before stays seen: this visit adds to it.
            self.since.now = before.clone();
        }
        self.after_load(ctx)
    }

    /// After the review or the memory arrived: asks for the pages' text when the change
    /// request has a new revision, records what is on screen, and says the news once. Only
    /// with the server's answer in: a review reopened in the same session is first drawn as
    /// it was, at the revision the memory may already name.
    pub fn after_load(&mut self, ctx: &mut Ctx) -> Cmd {
        if !self.since.loaded || self.bundle.value().is_none() || self.bundle.is_loading() {
            return Cmd::None;
        }
        let pages = self.ask_for_pages_now(ctx);
        self.announce_news();
        let seen = self.record_seen();
        Cmd::batch([pages, seen])
    }

    fn ask_for_pages_now(&mut self, ctx: &mut Ctx) -> Cmd {
        let revision = self.change_request().and_then(|cr| cr.revision.clone());
        if self.since.now.pages.is_empty() {
            // No page remembered: a page's text remembered from now on is seen at this one.
            self.since.verified_revision = revision.clone();
        }
        let asked = match &self.since.pages_request {
            Some((_, asked)) => Some(asked),
            None => self
                .since
                .pages_now
                .as_ref()
                .map(|_| &self.since.pages_now_revision),
        };
        if asked == Some(&revision) {
            return Cmd::None;
        }
        let Some(before) = &self.since.before else {
            return Cmd::None;
        };
        let current: Vec<&str> = self.all_changed_pages().map(|p| p.page.as_str()).collect();
        let pages: Vec<(String, Option<String>)> = before
            .pages
            .iter()
            .filter(|(page, _)| current.contains(&page.as_str()))
            .map(|(page, seen)| (page.clone(), seen.version.clone()))
            .collect();
        // Same revision: nothing in the content changed, there is nothing to ask.
        if pages.is_empty() || (revision.is_some() && revision == before.revision) {
            self.since.pages_now = Some(HashMap::new());
            self.since.pages_now_revision = revision.clone();
            self.since.verified_revision = revision;
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.since.pages_request = Some((request, revision));
        Cmd::Api {
            request,
            call: ApiCall::ChangeRequests(ChangeRequestsCall::LoadPagesNow {
                target: self.target.clone(),
                pages,
            }),
        }
    }

    /// The answer of [`ChangeRequestsCall::LoadPagesNow`]; false when it is not ours.
    pub fn on_pages_now(
        &mut self,
        request: crate::vocabulary::RequestId,
        pages: &[(String, String)],
    ) -> bool {
        let Some((_, revision)) = self
            .since
            .pages_request
            .take_if(|(asked, _)| *asked == request)
        else {
            return false;
        };
        self.since.pages_now = Some(pages.iter().cloned().collect());
        self.since.pages_now_revision = revision.clone();
        // Every remembered page reads as seen at this revision (a page left out was unchanged,
        // or could not be read and counts as unchanged): the memory may name it.
        let seen_as_now = self.since.now.pages.iter().all(|(page, seen)| {
            pages
                .iter()
                .find(|(read, _)| read == page)
                .is_none_or(|(_, text)| memory::fingerprint(text) == seen.fingerprint)
        });
        if seen_as_now {
            self.since.verified_revision = revision;
        }
        self.announce_news();
        if self.since.only_since {
            self.filter_since_pages();
        }
        true
    }

    fn all_changed_pages(&self) -> impl Iterator<Item = &super::ChangedPageRow> {
        if self.since.only_since {
            self.since.all_pages.iter()
        } else {
            self.pages.iter()
        }
    }

    /// Nothing on a first visit; on a return visit with news, the news in the status line.
    fn announce_news(&mut self) {
        if self.since.announced || self.since.before.is_none() || self.since.pages_now.is_none() {
            return;
        }
        self.since.announced = true;
        let news = self.news();
        if news.is_empty() {
            return;
        }
        let when = self.last_review_ago();
        self.notice(
            format!(
                "{} since your last visit{when} — L shows them",
                news.describe()
            ),
            false,
        );
    }

    /// " (2 h ago)", or nothing when the time is unknown.
    pub fn last_review_ago(&self) -> String {
        self.since
            .before
            .as_ref()
            .and_then(|before| crate::ui::time::ago(&before.seen_at, Utc::now()))
            .map(|ago| format!(" ({ago})"))
            .unwrap_or_default()
    }

    pub fn news(&self) -> News {
        let mut news = News::default();
        let Some(before) = &self.since.before else {
            return news;
        };
        for thread in self.threads() {
            match before.threads.get(&thread.comment.id) {
                None if self.is_mine(&thread.comment) => {}
                None => news.new_threads += 1,
                Some(seen) => {
                    let now = thread.comment.replies.unwrap_or(0);
                    if now > *seen {
                        news.threads_with_replies += 1;
                        news.new_replies += (now - seen) as usize;
                    }
                }
            }
        }
        news.changed_pages = self
            .all_changed_pages()
            .filter(|page| self.changed_since(&page.page))
            .map(|page| page.page.clone())
            .collect();
        news
    }

    /// A page is changed since the last review when it is new to the change request, or its
    /// text now differs from the text seen; nothing is when the changes were never looked at.
    pub fn changed_since(&self, page: &str) -> bool {
        let Some(before) = &self.since.before else {
            return false;
        };
        // No pages remembered: the changes tab was never shown, so nothing can be told of them
        // (every page would look new).
        if before.changed_pages.is_empty() {
            return false;
        }
        if !before.changed_pages.iter().any(|p| p == page) {
            return true;
        }
        let (Some(seen), Some(now)) = (
            before.pages.get(page),
            self.since.pages_now.as_ref().and_then(|p| p.get(page)),
        ) else {
            return false;
        };
        seen.fingerprint != memory::fingerprint(now)
    }

    /// The thread is new, or has replies, since the last review.
    pub fn is_new_thread(&self, thread: usize) -> bool {
        let Some(before) = &self.since.before else {
            return false;
        };
        let Some(thread) = self.threads().get(thread) else {
            return false;
        };
        match before.threads.get(&thread.comment.id) {
            None => !self.is_mine(&thread.comment),
            Some(seen) => thread.comment.replies.unwrap_or(0) > *seen,
        }
    }

    /// Written by the signed-in user: never news to them.
    fn is_mine(&self, comment: &crate::api::models::Comment) -> bool {
        let me = self.me.value().map(|user| user.id.as_str());
        me.is_some() && comment.posted_by.as_ref().map(|user| user.id.as_str()) == me
    }

    pub fn new_thread_count(&self) -> usize {
        (0..self.threads().len())
            .filter(|index| self.is_new_thread(*index))
            .count()
    }

    /// `L` on the comments tab: the next new thread after the selected one, wrapping.
    pub fn next_new_thread(&mut self) {
        let rows = self.rows();
        let start = self.comment_selection.selected;
        let count = rows.len();
        let found = (1..=count)
            .map(|step| (start + step) % count.max(1))
            .find(|index| {
                rows.get(*index)
                    .is_some_and(|row| row.reply.is_none() && self.is_new_thread(row.thread))
            });
        match found {
            Some(index) => self.comment_selection.selected = index,
            None if self.since.before.is_none() => self.notice(
                "This is your first visit: everything is new, nothing is marked.",
                false,
            ),
            None => self.notice("No new thread since your last visit.", false),
        }
    }

    /// `L` on the changes tab.
    pub fn toggle_since(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.since.before.is_none() {
            self.notice(
                "This is your first visit here: there is no last visit to compare with.",
                false,
            );
            return Cmd::None;
        }
        let selected = self.selected_page().map(|p| p.page.clone());
        self.since.only_since = !self.since.only_since;
        if self.since.only_since {
            self.since.all_pages = self.pages.clone();
            self.filter_since_pages();
        } else {
            self.pages = std::mem::take(&mut self.since.all_pages);
        }
        self.page_selection.selected = selected
            .and_then(|page| self.pages.iter().position(|p| p.page == page))
            .unwrap_or(0);
        self.page_selection.clamp(self.pages.len());
        if self.pages.is_empty() {
            self.notice("No page changed since your last visit.", false);
        } else if self.since.only_since {
            self.notice(
                format!(
                    "Since your last visit{}: {} changed — L shows all",
                    self.last_review_ago(),
                    crate::ui::time::plural(self.pages.len(), "page", "pages")
                ),
                false,
            );
        }
        self.follow_page(ctx, true)
    }

    fn filter_since_pages(&mut self) {
        let all = self.since.all_pages.clone();
        self.pages = all
            .into_iter()
            .filter(|page| self.changed_since(&page.page))
            .collect();
        self.page_selection.clamp(self.pages.len());
    }

    /// A fresh list of changed pages from the server, kept filtered while `L` is on.
    pub fn refilter_since(&mut self) {
        if self.since.only_since {
            self.since.all_pages = std::mem::take(&mut self.pages);
            self.filter_since_pages();
        }
    }

    /// The old side of the "since" diff of a page: its text as seen, when remembered.
    pub fn since_base(&self, page: &str) -> Option<&str> {
        if !self.since.only_since {
            return None;
        }
        self.since
            .before
            .as_ref()?
            .pages
            .get(page)?
            .markdown
            .as_deref()
    }

    /// "since your last visit (2 h ago)" for the changes tab, while `L` is on.
    pub fn since_label(&self) -> Option<String> {
        if !self.since.only_since {
            return None;
        }
        let tail = if self.since_against_main() {
            " · not opened then: vs main"
        } else {
            ""
        };
        // Short: the tab line has about 30 columns left at 80; the notice says it in full.
        Some(format!("since last visit{}{tail}", self.last_review_ago()))
    }

    /// Whether the page shown was not opened at the last review, so its diff is against the
    /// main content instead.
    pub fn since_against_main(&self) -> bool {
        self.sides_page
            .as_deref()
            .is_some_and(|page| self.since_base(page).is_none())
    }

    /// Notes what the screen shows now and writes the memory when it grew.
    pub fn record_seen(&mut self) -> Cmd {
        if !self.since.loaded {
            return Cmd::None;
        }
        let key = self.memory_key();
        let Some(bundle) = self.bundle.value() else {
            return Cmd::None;
        };
        let now = &mut self.since.now;
        // Checked without serializing anything: this runs after every key.
        let mut grew = false;
        // The memory names a revision only where every page it remembers was seen as that
        // revision has it; an edit that arrived while the review was open is not seen.
        let revision = &bundle.change_request.revision;
        let verified = revision.is_some()
            && (now.pages.is_empty() || self.since.verified_revision == *revision);
        if verified && now.revision != *revision {
            now.revision = revision.clone();
            grew = true;
        }
        match self.tab {
            ReviewTab::Comments => {
                for thread in &bundle.threads {
                    let replies = thread.comment.replies.unwrap_or(0);
                    if now.threads.get(&thread.comment.id) != Some(&replies) {
                        now.threads.insert(thread.comment.id.clone(), replies);
                        grew = true;
                    }
                }
            }
            ReviewTab::Changes => {
                let pages = if self.since.only_since {
                    &self.since.all_pages
                } else {
                    &self.pages
                };
                for page in pages {
                    if !now.changed_pages.contains(&page.page) {
                        now.changed_pages.push(page.page.clone());
                        grew = true;
                    }
                }
                if let (Some(page), Some(sides)) = (&self.sides_page, self.sides.value()) {
                    let fingerprint = memory::fingerprint(&sides.change_request);
                    let known = now
                        .pages
                        .get(page)
                        .map(|seen| (&seen.fingerprint, &seen.version));
                    if known != Some((&fingerprint, &sides.version)) {
                        let seen =
                            PageSeen::of(&sides.change_request).with_version(sides.version.clone());
                        now.pages.insert(page.clone(), seen);
                        grew = true;
                    }
                }
            }
            _ => {}
        }
        if !grew {
            return Cmd::None;
        }
        now.trim();
        // The time says when what was seen last grew.
        now.seen_at = Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        Cmd::SaveReviewMemory {
            key,
            text: now.to_json(),
        }
    }
}
