//! Reviewing one change request: what changed (page by page, as a diff against main), every
//! comment thread (reply, react, resolve, with a triage loop over unresolved threads), reviews
//! and requested reviewers, and the status actions up to a merge behind a pre-flight check.
//!
//! Writes are optimistic where that is safe (resolve, react) and roll back with a message when
//! the server refuses; text being written is saved as a draft on every key and removed only
//! once the server accepted it.

mod actions;
pub mod authors;
mod breaking_links;
pub mod cells;
mod changes;
mod content;
mod description;
pub mod diff_cursor;
mod diff_rows;
pub mod diff_threads;
mod layout;
mod logged;
mod overview;
pub mod page_titles;
mod permissions;
mod preflight;
mod preflight_line;
pub mod replies;
mod responses;
pub mod since;
mod state;
mod template;
pub mod threads;
mod view;

use std::collections::HashMap;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::models::{ChangeRequest, RequestedReviewer, User};
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::diff::{DiffView, PageDiff};
use crate::ui::hit::Canvas;
use crate::ui::input::Filter;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::{self, Notice};
use crate::ui::reader::Reader;
use crate::vocabulary::change_requests::{
    ChangeRequestRef, ChangeRequestsCall, ChangeRequestsResponse, PageSides, ReviewBundle,
};
use crate::vocabulary::spaces::SpacesResponse;
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, DocKey, Loadable, RequestId};

pub use changes::{ChangeKind, ChangedPageRow};
pub use overview::{Event, timeline};
pub use preflight::{Preflight, PreflightLayout, preflight_content};
pub use preflight_line::PreflightLine;
pub use state::{ComposeTarget, Confirmation, Overlay, PendingWrite, ReviewTab};
pub use threads::{Row, ThreadFilter};

#[derive(Debug)]
pub struct ReviewScreen {
    pub target: ChangeRequestRef,
    /// What the list knew, so the header paints before anything loads.
    pub summary: Option<ChangeRequest>,
    pub bundle: Loadable<ReviewBundle>,
    pub me: Loadable<User>,
    pub tab: ReviewTab,
    // Changes tab.
    pub pages: Vec<ChangedPageRow>,
    pub page_selection: Selection,
    pub sides: Loadable<PageSides>,
    pub sides_page: Option<String>,
    pub page_diff: Option<PageDiff>,
    pub diff_view: Option<DiffView>,
    pub diff_scroll: usize,
    /// The diff's line cursor (`›`): a row of `diff_view`.
    pub diff_cursor: usize,
    pub side_by_side: bool,
    pub rendered: bool,
    pub reader: Reader,
    /// The hunk `n`/`N` last went to; None once the diff was scrolled by hand.
    pub current_hunk: Option<usize>,
    /// Where to land once the page `n`/`N` moved to has loaded.
    pub hunk_landing: Option<changes::HunkLanding>,
    /// `/` on the changes tab: a search in the diff, `n`/`N` walk its matches.
    pub diff_search: Filter,
    pub search_match: usize,
    // Comments tab.
    pub thread_filter: ThreadFilter,
    /// `/` on the comments tab: threads whose author or text contain it.
    pub comment_query: Filter,
    /// `a` on the comments tab: only the threads this person wrote in.
    pub author_filter: Option<authors::AuthorFilter>,
    /// The commenters asked for, answered by opening the author picker.
    commenters_request: Option<RequestId>,
    pub comment_selection: Selection,
    // Reviews tab.
    pub reviewer_selection: Selection,
    pub overlay: Option<Overlay>,
    pub pending: HashMap<RequestId, PendingWrite>,
    /// Drafts found on disk, by key, offered when the matching composer opens.
    pub drafts: HashMap<String, String>,
    /// Drafts came from disk and were not announced yet (that waits for the permissions).
    drafts_to_announce: bool,
    pub notice: Option<Notice>,
    pub recent_reactions: Vec<String>,
    /// Comment bodies and the description as drawn markdown, parsed once each.
    pub bodies: view::RenderedBodies,
    /// Which threads' replies are being fetched (the review arrives without them).
    pub reply_loading: replies::ReplyLoading,
    /// The description's blocks the text cannot hold, while it is being edited.
    pub description_kept: Vec<serde_json::Value>,
    /// Threads on the diff: where they are drawn, where `m` lands.
    pub diff_threads: diff_threads::DiffThreads,
    /// What was seen at the last visit, and what this one has seen.
    pub since: since::Since,
    /// Action-log entries of writes in flight, logged once the server accepts them.
    log_pending: HashMap<RequestId, crate::vocabulary::action_log::PendingEntry>,
    /// The action log's undo count when this review last loaded: an undo made from the log
    /// changed the server behind it, so it reloads when it shows again.
    undos_seen: u64,
    /// The list this review was opened from, for `]c` / `[c`.
    pub siblings: Option<crate::vocabulary::change_requests::Siblings>,
    /// Overview tab: how far its text is scrolled.
    pub overview_scroll: u16,
    /// Watching: the next refresh, and what the last one brought.
    ticker: crate::vocabulary::watch::Ticker,
    pub news: crate::vocabulary::watch::ReviewNews,
    /// The load under way was started by the watch, so what it brings is marked new.
    watch_reload: bool,
    /// The links a merge would break, checked when the pre-flight opens.
    pub breaking_links: Loadable<Vec<crate::vocabulary::change_requests::BreakingLink>>,
    /// Writes made here that wait in the outbox, shown pending (◷) on the comments tab.
    pub queued: Vec<crate::api::outbox::Queued>,
    /// Titles of pages threads are on that the change request did not change.
    pub page_titles: page_titles::PageTitles,
}

impl ReviewScreen {
    pub fn new(target: ChangeRequestRef, summary: Option<ChangeRequest>) -> ReviewScreen {
        ReviewScreen {
            target,
            summary,
            bundle: Loadable::NotAsked,
            me: Loadable::NotAsked,
            tab: ReviewTab::Overview,
            pages: Vec::new(),
            page_selection: Selection::default(),
            sides: Loadable::NotAsked,
            sides_page: None,
            page_diff: None,
            diff_view: None,
            diff_scroll: 0,
            diff_cursor: 0,
            side_by_side: true,
            rendered: false,
            reader: Reader::default(),
            current_hunk: None,
            hunk_landing: None,
            diff_search: Filter::default(),
            search_match: 0,
            thread_filter: ThreadFilter::All,
            comment_query: Filter::default(),
            author_filter: None,
            commenters_request: None,
            comment_selection: Selection::default(),
            reviewer_selection: Selection::default(),
            overlay: None,
            pending: HashMap::new(),
            drafts: HashMap::new(),
            drafts_to_announce: false,
            notice: None,
            recent_reactions: Vec::new(),
            bodies: view::RenderedBodies::default(),
            reply_loading: replies::ReplyLoading::default(),
            description_kept: Vec::new(),
            diff_threads: Default::default(),
            since: Default::default(),
            log_pending: HashMap::new(),
            undos_seen: 0,
            siblings: None,
            overview_scroll: 0,
            ticker: crate::vocabulary::watch::Ticker::default(),
            news: crate::vocabulary::watch::ReviewNews::default(),
            watch_reload: false,
            breaking_links: Loadable::NotAsked,
            queued: Vec::new(),
            page_titles: Default::default(),
        }
    }

    /// The change request as best known: loaded, or what the list said.
    pub fn change_request(&self) -> Option<&ChangeRequest> {
        self.bundle
            .value()
            .map(|b| &b.change_request)
            .or(self.summary.as_ref())
    }

    pub fn threads(&self) -> &[crate::vocabulary::change_requests::Thread] {
        self.bundle.value().map_or(&[], |b| b.threads.as_slice())
    }

    pub fn rows(&self) -> Vec<Row> {
        let author = self.author_filter.as_ref().map(|a| a.user.as_str());
        threads::rows(
            self.threads(),
            self.thread_filter,
            &self.comment_query,
            author,
        )
    }

    /// The `/` query of the current tab: the threads filter or the diff search.
    pub fn query(&self) -> &Filter {
        match self.tab {
            ReviewTab::Changes => &self.diff_search,
            ReviewTab::Comments | ReviewTab::Reviews | ReviewTab::Overview => &self.comment_query,
        }
    }

    pub fn query_mut(&mut self) -> &mut Filter {
        match self.tab {
            ReviewTab::Changes => &mut self.diff_search,
            ReviewTab::Comments | ReviewTab::Reviews | ReviewTab::Overview => {
                &mut self.comment_query
            }
        }
    }

    pub fn selected_row(&self) -> Option<Row> {
        self.rows().get(self.comment_selection.selected).copied()
    }

    /// The thread selected on the comments tab, by its first comment's id: the Outbox opened
    /// from here selects a write waiting on it.
    pub fn selected_thread_on_comments(&self) -> Option<&str> {
        if self.tab != ReviewTab::Comments {
            return None;
        }
        let row = self.selected_row()?;
        let thread = self.threads().get(row.thread)?;
        Some(thread.comment.id.as_str())
    }

    pub fn requested(&self) -> &[RequestedReviewer] {
        self.bundle.value().map_or(&[], |b| b.requested.as_slice())
    }

    /// Prefix of every draft key of this change request.
    pub fn draft_prefix(&self) -> String {
        format!("{}.{}.", self.target.space, self.target.change_request)
    }

    pub fn draft_key(&self, target: &ComposeTarget) -> String {
        let suffix = match target {
            ComposeTarget::NewComment { page: Some(page) } => format!("comment-{page}"),
            ComposeTarget::NewComment { page: None } => "comment".to_string(),
            ComposeTarget::Reply { comment } => format!("reply-{comment}"),
            ComposeTarget::Edit {
                comment,
                reply: Some(reply),
            } => format!("edit-{comment}-{reply}"),
            ComposeTarget::Edit {
                comment,
                reply: None,
            } => format!("edit-{comment}"),
            ComposeTarget::Review { approve: true } => "review-approve".to_string(),
            ComposeTarget::Review { approve: false } => "review-changes".to_string(),
            ComposeTarget::Description => "description".to_string(),
            ComposeTarget::BlockComment {
                page,
                node: Some(node),
                cell: Some(cell),
                ..
            } => format!(
                "comment-{page}-block-{node}-cell-{}-{}",
                cell.cell.record, cell.cell.definition
            ),
            ComposeTarget::BlockComment {
                page,
                node: Some(node),
                ..
            } => format!("comment-{page}-block-{node}"),
            ComposeTarget::BlockComment { page, line, .. } => format!("comment-{page}-line-{line}"),
        };
        format!("{}{suffix}", self.draft_prefix())
    }

    /// Sends a review call, remembering what to undo if it fails.
    fn send(&mut self, ctx: &mut Ctx, call: ChangeRequestsCall, pending: PendingWrite) -> Cmd {
        let request = ctx.requests.issue();
        self.pending.insert(request, pending);
        self.remember_for_log(request, &call);
        Cmd::Api {
            request,
            call: ApiCall::ChangeRequests(call),
        }
    }

    fn notice(&mut self, text: impl Into<String>, error: bool) {
        self.notice = Some(Notice::new(text, error));
    }

    /// The writes of this change request waiting in the outbox, as last read. Once none
    /// waits, a "◷ … queued" notice from earlier is taken down: it is no longer true.
    fn set_queued(&mut self, queued: Vec<crate::api::outbox::Queued>) {
        let said_queued = self
            .notice
            .as_ref()
            .is_some_and(|notice| notice.text.starts_with("◷ "));
        if queued.is_empty() && said_queued {
            self.notice = None;
        }
        self.queued = queued;
    }

    /// Says that drafts were found, once, when both the drafts and the permissions are known,
    /// and counts only the drafts this user may send here (a reader's old comment draft is
    /// kept on disk but not offered).
    fn announce_drafts(&mut self) {
        if !self.drafts_to_announce || self.bundle.value().is_none() {
            return;
        }
        self.drafts_to_announce = false;
        let sendable = self
            .drafts
            .keys()
            .filter(|key| self.may_send_draft(key))
            .count();
        if sendable > 0 {
            self.notice(
                format!(
                    "{} restored: open the composer where you left it",
                    crate::ui::time::plural(sendable, "unsent draft", "unsent drafts")
                ),
                false,
            );
        }
    }

    /// Review drafts need the review permission; comments, replies and edits need comment.
    fn may_send_draft(&self, key: &str) -> bool {
        let suffix = key.strip_prefix(&self.draft_prefix()).unwrap_or(key);
        if suffix.starts_with("review-") {
            self.can_review()
        } else if suffix == "description" || suffix == "subject" {
            self.can_edit()
        } else {
            self.can_comment()
        }
    }
}

impl ScreenState for ReviewScreen {
    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        let refused = match &self.overlay {
            Some(Overlay::Composer { composer, .. }) => composer.error.clone(),
            _ => None,
        };
        let refused = refused.map(crate::ui::notice::Notice::error);
        self.notice.iter().cloned().chain(refused).collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.undos_seen = ctx.action_log.undos();
        let prefix = self.draft_prefix();
        let load = self.load(ctx);
        let me = self.load_me(ctx);
        let memory = Cmd::LoadReviewMemory {
            key: self.memory_key(),
        };
        Cmd::batch([load, me, Cmd::LoadDrafts { prefix }, memory])
    }

    fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        if !self.ticker.fired(id) {
            return None;
        }
        self.watch_reload = true;
        Some(Step::cmd(self.load(ctx)))
    }

    fn hasten_watch(&mut self, ctx: &mut Ctx) -> Cmd {
        self.ticker.hasten(ctx)
    }

    fn watchable(&self) -> Option<crate::screens::Watchable> {
        let change_request = self.change_request()?;
        Some(crate::screens::Watchable::of(
            &self.target.space,
            change_request,
        ))
    }

    fn resumed(&mut self, ctx: &mut Ctx) -> Cmd {
        // Writes shown pending may have been sent, edited or dropped from the outbox above.
        let pending_shown = !self.queued.is_empty();
        if ctx.action_log.undos() == self.undos_seen && !pending_shown {
            return Cmd::None;
        }
        self.refresh(ctx)
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        self.undos_seen = ctx.action_log.undos();
        let load = self.load(ctx);
        let page = self.follow_page(ctx, true);
        Cmd::batch([load, page])
    }

    fn title(&self) -> String {
        match self.change_request().and_then(|cr| cr.number) {
            Some(number) => format!("#{number}"),
            None => "Change request".to_string(),
        }
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        match self.tab {
            ReviewTab::Changes => &[KeyContext::Changes, KeyContext::Review, KeyContext::List],
            ReviewTab::Comments => &[KeyContext::Comments, KeyContext::Review, KeyContext::List],
            ReviewTab::Reviews => &[KeyContext::Reviews, KeyContext::Review, KeyContext::List],
            ReviewTab::Overview => &[KeyContext::Review, KeyContext::Browse],
        }
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        actions::hints(self)
    }

    fn disabled_actions(&self) -> Vec<Action> {
        actions::disabled(self)
    }

    fn disabled_reason(
        &self,
        action: Action,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Option<String> {
        match action {
            Action::Merge => self.merge_refusal(now),
            _ => None,
        }
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        // The shared rule: information goes with a key once it has been read, errors stay.
        notice::on_key(&mut self.notice);
        let step = actions::on_raw_key(self, key, ctx);
        self.with_replies(step, ctx)
    }

    fn on_paste(&mut self, text: &str, ctx: &mut Ctx) -> Cmd {
        match self.overlay.as_mut() {
            // A paste is an edit like any other: saved as a draft at once.
            Some(Overlay::Composer {
                composer,
                draft_key,
                ..
            }) if !composer.submitting => {
                composer.insert_str(text);
                let text = composer.text();
                self.drafts.insert(draft_key.clone(), text.clone());
                Cmd::SaveDraft {
                    key: draft_key.clone(),
                    text,
                }
            }
            Some(Overlay::Reviewers { filter, .. }) => {
                filter.paste(text);
                Cmd::None
            }
            Some(Overlay::Subject { input, .. }) => {
                input.insert_str(text);
                let text = input.text.clone();
                actions::keep_subject_draft(self, &text)
            }
            Some(Overlay::Template(flow)) => {
                flow.on_paste(text);
                Cmd::None
            }
            None => {
                actions::paste_into_query(self, text, ctx);
                Cmd::None
            }
            _ => Cmd::None,
        }
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let step = actions::on_action(self, action, ctx);
        self.with_replies(step, ctx)
    }

    fn on_resize(&mut self, ctx: &mut Ctx) {
        self.relayout(ctx);
        // "Side by side needs 120 columns…" is answered once the terminal is wide enough.
        let wide_enough = changes::diff_area(ctx).width >= crate::ui::diff::SIDE_BY_SIDE_MIN_WIDTH;
        if wide_enough
            && self
                .notice
                .as_ref()
                .is_some_and(|notice| notice.text.starts_with(changes::SIDE_BY_SIDE_REFUSAL))
        {
            self.notice = None;
        }
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        if let ApiResponse::Spaces(SpacesResponse::TemplateApplied(result)) = response {
            return self.on_template_applied(request, result, ctx);
        }
        let ApiResponse::ChangeRequests(response) = response else {
            return None;
        };
        let cmd = self.apply_review_response(request, response, ctx)?;
        // What is seen changes when the review or a page's diff arrives; a write's answer
        // is followed by a reload, which records it.
        let seen = match response {
            ChangeRequestsResponse::Review(_) | ChangeRequestsResponse::PageDiff(_) => {
                self.record_seen()
            }
            // A thread came or went: the markers (which count threads by position) follow.
            ChangeRequestsResponse::CommentPosted(_) | ChangeRequestsResponse::Deleted(_) => {
                self.relayout(ctx);
                Cmd::None
            }
            _ => Cmd::None,
        };
        Some(Step::cmd(Cmd::batch([cmd, seen])))
    }

    fn on_document(&mut self, key: &DocKey, ctx: &mut Ctx) {
        if self.reader.key.as_ref() == Some(key) {
            let width = changes::diff_area(ctx).width;
            self.reader.refresh_layout(ctx.docs, width);
        }
    }

    fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)], _ctx: &mut Ctx) -> Cmd {
        if prefix == self.draft_prefix() {
            self.drafts = drafts.iter().cloned().collect();
            self.drafts_to_announce = true;
            self.announce_drafts();
        }
        if prefix == self.memory_key() {
            let text = drafts.first().map(|(_, text)| text.as_str());
            return self.on_memory(text, _ctx);
        }
        Cmd::None
    }

    fn on_external_edit(&mut self, key: &str, text: String, _ctx: &mut Ctx) -> Cmd {
        if let Some(Overlay::Composer {
            draft_key,
            composer,
            ..
        }) = self.overlay.as_mut()
            && draft_key == key
        {
            composer.set_text(&text);
            self.drafts.insert(key.to_string(), text.clone());
            return Cmd::SaveDraft {
                key: key.to_string(),
                text,
            };
        }
        Cmd::None
    }

    fn link(&self) -> Option<String> {
        let urls = &self.change_request()?.urls;
        urls.app.clone().or_else(|| urls.location.clone())
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}
