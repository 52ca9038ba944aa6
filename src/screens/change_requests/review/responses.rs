//! Loading the review and handling what the server answers: the review itself, replies
//! fetched in batches, a page's two sides, members; a write's answer goes to the actions.

use super::{Overlay, ReviewScreen, changes, replies, threads};
use crate::api::limits::Priority;
use crate::screens::step::{Ctx, Step};
use crate::vocabulary::change_requests::{
    ChangeRequestsCall, ChangeRequestsResponse, ReviewOpening, ThreadReplies,
};
use crate::vocabulary::{ApiCall, Cmd, Loadable, RequestId};

impl ReviewScreen {
    pub(super) fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        // Seen before: paint what we had at once; the answer replaces it.
        if self.bundle.value().is_none()
            && let Some(cached) = ctx.reviews.get(&self.target)
        {
            self.bundle = Loadable::Loaded(cached.clone());
            self.pages = changes::changed_pages(cached);
        }
        let request = ctx.requests.issue();
        self.bundle.start(request);
        Cmd::Api {
            request,
            call: ApiCall::ChangeRequests(ChangeRequestsCall::LoadReview(self.target.clone())),
        }
    }

    pub(super) fn load_me(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.me.value().is_some() || self.me.is_loading() {
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.me.start(request);
        Cmd::Api {
            request,
            call: ApiCall::ChangeRequests(ChangeRequestsCall::CurrentUser),
        }
    }

    /// The review as the cache had it, shown while the server is asked: drawn, but nothing is
    /// fetched for it (replies, a page's sides) and nothing is marked seen; the server's
    /// answer to the same request does that.
    fn show_cached(
        &mut self,
        request: RequestId,
        result: &Result<crate::vocabulary::change_requests::ReviewBundle, crate::api::ApiError>,
        ctx: &mut Ctx,
    ) -> Option<Cmd> {
        if !self.bundle.settle_as(request, result.clone(), ctx.answer) {
            return None;
        }
        let queued = self.bundle.value()?.queued.clone();
        self.set_queued(queued);
        let bundle = self.bundle.value()?;
        self.pages = changes::changed_pages(bundle);
        self.refilter_since();
        self.page_selection.clamp(self.pages.len());
        self.comment_selection.clamp(self.rows().len());
        self.relayout(ctx);
        Some(Cmd::None)
    }

    fn on_bundle(&mut self, ctx: &mut Ctx) -> Cmd {
        self.announce_drafts();
        let Some(bundle) = self.bundle.value() else {
            return Cmd::None;
        };
        self.pages = changes::changed_pages(bundle);
        self.refilter_since();
        self.page_selection.clamp(self.pages.len());
        self.comment_selection.clamp(self.rows().len());
        let page = self.follow_page(ctx, false);
        // Threads came or went: the diff's markers are drawn again.
        self.relayout(ctx);
        let replies = self.fetch_replies(ctx);
        let since = self.after_load(ctx);
        let titles = self.ask_for_page_titles(ctx);
        Cmd::batch([page, replies, since, titles])
    }

    /// The review with the first page of its threads, the others still being read: shown,
    /// and the changed page and the replies on screen asked for, as for the whole review. Only
    /// where nothing is shown yet: a review on screen (a reload, the cache's copy) stays until
    /// the whole one comes.
    fn on_opening(
        &mut self,
        request: RequestId,
        opening: &ReviewOpening,
        ctx: &mut Ctx,
    ) -> Option<Cmd> {
        // Only where there was nothing: then the opening is what is on screen. Taken, not
        // copied, and only then: a review on screen keeps it for the whole answer.
        if self.bundle.waiting_for() != Some(request) || self.bundle.value().is_some() {
            return None;
        }
        let bundle = opening.bundle.take()?;
        let queued = bundle.queued.clone();
        let shown = self.bundle.settle_as(
            request,
            Ok(bundle),
            crate::vocabulary::AnswerKind::Provisional,
        );
        if !shown {
            return None;
        }
        self.reply_loading.opened(request);
        // Asked for by the review's own call; they come to the same request.
        if let Some(comment) = &opening.replies_coming {
            self.reply_loading
                .sent(request, vec![comment.clone()], false);
        }
        self.set_queued(queued);
        Some(self.on_bundle(ctx))
    }

    /// Asks for the replies still missing: those of the threads on screen and the triage
    /// targets at once, one call each, so each thread shows its replies the moment they come
    /// (the first of them beside what draws the screen, the others right behind it); the rest
    /// in background batches (see [`replies`]).
    fn fetch_replies(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(bundle) = self.bundle.value() else {
            return Cmd::None;
        };
        if bundle.threads.iter().all(|thread| thread.replies_loaded) {
            return Cmd::None;
        }
        let (first, nearest) = self.threads_to_show_first(ctx);
        let plan = self.reply_loading.plan(&bundle.threads, &first, nearest);
        let mut commands = Vec::new();
        for (place, comment) in plan.on_screen.into_iter().enumerate() {
            let priority = if place == 0 {
                Priority::FirstScreen
            } else {
                Priority::OnScreen
            };
            commands.push(self.ask_for_replies(ctx, vec![comment], priority));
        }
        for batch in plan.background {
            commands.push(self.ask_for_replies(ctx, batch, Priority::Background));
        }
        Cmd::batch(commands)
    }

    fn ask_for_replies(&mut self, ctx: &mut Ctx, comments: Vec<String>, priority: Priority) -> Cmd {
        let request = ctx.requests.issue();
        self.reply_loading
            .sent(request, comments.clone(), priority == Priority::Background);
        Cmd::Api {
            request,
            call: ApiCall::ChangeRequests(ChangeRequestsCall::LoadReplies {
                target: self.target.clone(),
                comments,
                priority,
            }),
        }
    }

    /// The threads whose replies matter first (indices), in the order they are asked for: the
    /// selected thread, those in the comments list's window around the selection (a screen's
    /// worth of rows, which is more than fits, from the top) and the triage loop's next and
    /// previous stops; and the selected thread, where the background batches start.
    fn threads_to_show_first(&self, ctx: &Ctx) -> (Vec<usize>, usize) {
        let rows = self.rows();
        let selected = self
            .comment_selection
            .selected
            .min(rows.len().saturating_sub(1));
        let height = usize::from(ctx.size.height);
        let current = rows.get(selected).map_or(0, |row| row.thread);
        let mut first = vec![current];
        first.extend(
            rows.iter()
                .skip(selected.saturating_sub(height / 3))
                .take(height)
                .map(|row| row.thread),
        );
        first.dedup();
        let open = threads::unresolved(self.threads());
        let next = open.iter().find(|t| **t > current).or(open.first());
        let previous = open.iter().rev().find(|t| **t < current).or(open.last());
        first.extend(next.into_iter().chain(previous).copied());
        (first, current)
    }

    /// Replies came: they fill their threads (here and in the cache); the selection stays on
    /// the same comment although rows appeared above it; more are asked for.
    fn on_replies(&mut self, answers: &[ThreadReplies], ctx: &mut Ctx) -> Cmd {
        let selected = self.selected_row();
        let failure = match self.bundle.value_mut() {
            Some(bundle) => self.reply_loading.apply(bundle, answers),
            None => None,
        };
        if let Some(cached) = ctx.reviews.get_mut(&self.target) {
            for answer in answers {
                if let Ok(found) = &answer.replies {
                    replies::fill(cached, &answer.comment, found);
                }
            }
        }
        if let Some((count, error)) = failure {
            self.notice(
                format!(
                    "The replies of {} did not load: {}. Press r to reload.",
                    crate::ui::time::plural(count, "thread", "threads"),
                    error.user_message()
                ),
                true,
            );
        }
        let rows = self.rows();
        self.comment_selection.selected = threads::position_after_change(&rows, selected);
        self.comment_selection.clamp(rows.len());
        self.fetch_replies(ctx)
    }

    /// After a key: the selection or the filter may have brought threads without their
    /// replies on screen.
    pub(super) fn with_replies(&mut self, step: Option<Step>, ctx: &mut Ctx) -> Option<Step> {
        let mut step = step?;
        if matches!(step.nav, crate::screens::step::Nav::Stay) {
            let cmd = std::mem::take(&mut step.cmd);
            step.cmd = Cmd::batch([
                cmd,
                self.fetch_replies(ctx),
                self.record_seen(),
                self.ask_for_page_titles(ctx),
            ]);
        }
        Some(step)
    }

    pub(super) fn apply_review_response(
        &mut self,
        request: RequestId,
        response: &ChangeRequestsResponse,
        ctx: &mut Ctx,
    ) -> Option<Cmd> {
        match response {
            ChangeRequestsResponse::Review(result) if ctx.answer.is_provisional() => {
                self.show_cached(request, result, ctx)
            }
            ChangeRequestsResponse::ReviewOpening(opening) => {
                self.on_opening(request, opening, ctx)
            }
            ChangeRequestsResponse::Review(result) => {
                if self.bundle.waiting_for() != Some(request) {
                    return None;
                }
                // The rest of a review whose opening is on screen: the replies that came and
                // those asked for are kept.
                let opened = self.reply_loading.take_opening(request);
                let mut result = result.clone();
                if let (Ok(fresh), Some(earlier)) = (result.as_mut(), self.bundle.value()) {
                    if opened {
                        replies::keep_loaded_replies(fresh, earlier);
                    } else {
                        replies::keep_earlier_replies(fresh, earlier);
                    }
                }
                let earlier = self.bundle.value().filter(|_| !opened).cloned();
                if !self.bundle.settle(request, result) {
                    return None;
                }
                let watch = self.on_watched_load(earlier.as_ref(), ctx);
                if !opened {
                    self.reply_loading.reset();
                }
                if let Loadable::Loaded(bundle) = &self.bundle {
                    let queued = bundle.queued.clone();
                    ctx.reviews.insert(self.target.clone(), bundle.clone());
                    self.set_queued(queued);
                }
                Some(Cmd::batch([self.on_bundle(ctx), watch]))
            }
            ChangeRequestsResponse::Replies(answers) => {
                if !self.reply_loading.take_answer(request) {
                    return None;
                }
                Some(self.on_replies(answers, ctx))
            }
            ChangeRequestsResponse::CurrentUser(result) => {
                self.me.settle(request, result.clone()).then_some(Cmd::None)
            }
            ChangeRequestsResponse::PageDiff(result) => {
                if !self.sides.settle(request, result.clone()) {
                    return None;
                }
                Some(self.on_sides(ctx))
            }
            ChangeRequestsResponse::Members(result) => {
                let Some(Overlay::Reviewers { members, .. }) = self.overlay.as_mut() else {
                    return None;
                };
                members.settle(request, result.clone()).then_some(Cmd::None)
            }
            ChangeRequestsResponse::PagesNow(pages) => {
                self.on_pages_now(request, pages).then_some(Cmd::None)
            }
            ChangeRequestsResponse::Commenters(result) => {
                self.on_commenters(request, result).then_some(Cmd::None)
            }
            ChangeRequestsResponse::PageTitles(result) => {
                self.on_page_titles(request, result).then_some(Cmd::None)
            }
            ChangeRequestsResponse::BreakingLinks(result) => {
                self.on_breaking_links(request, result).then_some(Cmd::None)
            }
            _ => {
                let pending = self.pending.remove(&request)?;
                self.log_if_accepted(request, response, ctx);
                Some(self.on_write_answer(pending, response, ctx))
            }
        }
    }
}
