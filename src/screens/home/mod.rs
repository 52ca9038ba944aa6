//! Home: what needs the user across every organization they belong to, in sections (each a
//! filter over change requests: the config file's `[[sections]]`, or four defaults), as
//! gh-dash's sections and `gh status` do. The first screen once signed in; `~` comes back to it
//! from anywhere, `O` opens the organization list.
//!
//! A refresh (the watch interval, or `r`) fills a second board behind the one shown: a section
//! is replaced when its answers are all in, so rows never blink away, and the selection stays
//! on the change request it was on. A row whose change request moved since the last board is
//! marked new until it is opened.

mod pings;
mod view;

use std::collections::HashSet;

use ratatui::layout::Rect;

use crate::api::home::{DEFAULT_SECTION_LIMIT, HomeEvent, HomeRow, SectionQuery};
use crate::api::models::ChangeRequest;
use crate::api::paging::MAX_PAGE_LIMIT;
use crate::screens::look::Look;
use crate::screens::organizations::Organizations;
use crate::screens::route::Route;
use crate::screens::step::{Answered, Ctx, Step};
use crate::screens::{Screen, ScreenState};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::vocabulary::change_requests::{ChangeRequestRef, Siblings};
use crate::vocabulary::home::{HomeAnswer, HomeBoard, HomeCall};
use crate::vocabulary::loadable::AnswerKind;
use crate::vocabulary::watch::Ticker;
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, RequestId};

#[derive(Debug)]
pub struct HomeScreen {
    queries: Vec<SectionQuery>,
    /// What is drawn.
    pub board: HomeBoard,
    /// The answers of the gathering under way, until each section is whole.
    filling: Option<HomeBoard>,
    request: Option<RequestId>,
    /// The board shown came from the cache: the server's is still to come (or cannot).
    pub from_cache: bool,
    pub tab: usize,
    pub selections: Vec<Selection>,
    /// Change requests (space, id) that moved since the board before, until opened.
    pub new: HashSet<(String, String)>,
    ticker: Ticker,
    /// Change requests that moved on the last board, for the pings to look at.
    moved_now: HashSet<(String, String)>,
    pub pings: pings::Pings,
    /// Each section's `limit` as configured: reaching a section's last row reads this many
    /// more.
    page_sizes: Vec<u32>,
    /// The board being read asks for more rows: those it brings are not news.
    reading_more: bool,
}

impl HomeScreen {
    pub fn new(queries: Vec<SectionQuery>) -> HomeScreen {
        let page_sizes = queries.iter().map(|query| query.limit).collect();
        HomeScreen {
            board: HomeBoard::new(queries.clone()),
            selections: queries.iter().map(|_| Selection::default()).collect(),
            queries,
            filling: None,
            request: None,
            from_cache: false,
            tab: 0,
            new: HashSet::new(),
            ticker: Ticker::default(),
            moved_now: HashSet::new(),
            pings: pings::Pings::default(),
            page_sizes,
            reading_more: false,
        }
    }

    /// The rows of the section shown.
    pub fn rows(&self) -> &[HomeRow] {
        self.board
            .sections
            .get(self.tab)
            .map(|section| section.rows.as_slice())
            .unwrap_or_default()
    }

    pub fn selection(&self) -> &Selection {
        &self.selections[self.tab.min(self.selections.len().saturating_sub(1))]
    }

    fn selected(&self) -> Option<&HomeRow> {
        self.rows().get(self.selection().selected)
    }

    /// True while the first answers are awaited and nothing is shown yet.
    pub fn is_loading(&self) -> bool {
        self.request.is_some() && self.board.sections.iter().all(|s| s.waiting.is_none())
    }

    fn gather(&mut self, quiet: bool, ctx: &mut Ctx) -> Cmd {
        self.reading_more = false;
        let request = ctx.requests.issue();
        self.request = Some(request);
        self.filling = None;
        let call = HomeCall::Gather {
            sections: self.queries.clone(),
            quiet,
        };
        Cmd::Batch(vec![
            Cmd::Api {
                request,
                call: ApiCall::Home(call),
            },
            self.ticker.arm(ctx),
        ])
    }

    /// Takes the cache's board, or every answer at once, in place of the one shown.
    fn take_whole(&mut self, events: &[HomeEvent], provisional: bool) {
        let mut board = HomeBoard::new(self.queries.clone());
        for event in events {
            board.apply(event.clone());
        }
        self.show(board, provisional);
    }

    /// One answer of the gathering under way; a section is shown once whole (or at once,
    /// while nothing of it is shown yet).
    fn take_one(&mut self, event: &HomeEvent) {
        let mut filling = self
            .filling
            .take()
            .unwrap_or_else(|| HomeBoard::new(self.queries.clone()));
        let changed = filling.apply(event.clone());
        self.board.failed = filling.failed.clone();
        if filling.me.is_some() {
            self.board.me = filling.me.clone();
        }
        if let Some(section) = changed {
            let fresh = filling.sections[section].clone();
            // A section shown whole waits for its next whole answer; one still filling takes
            // each organization's rows as they come.
            if fresh.is_complete() || !self.board.sections[section].is_complete() {
                // Only a whole board is compared: the rows of an organization that answered
                // second are not news.
                if self.board.sections[section].is_complete() {
                    let before = self.board.sections[section].rows.clone();
                    self.mark_new(&before, &fresh.rows);
                }
                // A refresh keeps the selection on its change request; while a section
                // first fills, it stays on its row (the top, until the user moves).
                let selected = self.board.sections[section]
                    .is_complete()
                    .then(|| self.selected_key(section))
                    .flatten();
                self.board.sections[section] = fresh;
                self.keep_selected(section, selected);
            }
        }
        if filling.is_complete() {
            self.from_cache = false;
        } else {
            self.filling = Some(filling);
        }
    }

    fn show(&mut self, board: HomeBoard, provisional: bool) {
        for (section, fresh) in board.sections.iter().enumerate() {
            if let Some(shown) = self.board.sections.get(section) {
                let before = shown.rows.clone();
                self.mark_new(&before, &fresh.rows);
            }
        }
        let selected: Vec<_> = (0..board.sections.len())
            .map(|section| self.selected_key(section))
            .collect();
        self.board = board;
        self.from_cache = provisional;
        for (section, key) in selected.into_iter().enumerate() {
            self.keep_selected(section, key);
        }
    }

    /// Rows that moved between two boards: a change request that was not there, or whose
    /// update time, status, open threads, review state or standing with main changed. The first board marks
    /// nothing.
    fn mark_new(&mut self, before: &[HomeRow], after: &[HomeRow]) {
        if before.is_empty() {
            return;
        }
        for row in after {
            let was = before
                .iter()
                .find(|old| old.id == row.id && old.space.id == row.space.id);
            let moved = |old: &HomeRow| {
                old.updated_at != row.updated_at
                    || old.status != row.status
                    || old.open_threads != row.open_threads
                    || old.review != row.review
                    || old.outdated != row.outdated
            };
            if was.is_none() && self.reading_more {
                continue;
            }
            if was.is_none_or(moved) {
                self.new.insert(key_of(row));
                self.moved_now.insert(key_of(row));
            }
        }
    }

    fn selected_key(&self, section: usize) -> Option<(String, String)> {
        let selection = self.selections.get(section)?;
        let row = self
            .board
            .sections
            .get(section)?
            .rows
            .get(selection.selected)?;
        Some(key_of(row))
    }

    /// The selection stays on the change request it was on when rows move around it.
    fn keep_selected(&mut self, section: usize, key: Option<(String, String)>) {
        let rows = &self.board.sections[section].rows;
        let Some(selection) = self.selections.get_mut(section) else {
            return;
        };
        if let Some(key) = key
            && let Some(index) = rows.iter().position(|row| key_of(row) == key)
        {
            selection.selected = index;
        }
        selection.clamp(rows.len());
    }

    fn switch_tab(&mut self, forward: bool) {
        let count = self.board.sections.len().max(1);
        self.tab = if forward {
            (self.tab + 1) % count
        } else {
            (self.tab + count - 1) % count
        };
    }

    /// The review of the selected row, with the section as the list `]c` walks.
    fn open_selected(&mut self) -> Option<Step> {
        let row = self.selected()?.clone();
        self.new.remove(&key_of(&row));
        let items: Vec<(ChangeRequestRef, ChangeRequest)> = self
            .rows()
            .iter()
            .filter_map(|row| Some((target_of(row), summary_of(row)?)))
            .collect();
        let index = items
            .iter()
            .position(|(target, _)| target.change_request == row.id)
            .unwrap_or(0);
        Some(Step::open(Route::Review {
            target: target_of(&row),
            summary: summary_of(&row),
            siblings: Some(Siblings { items, index }),
        }))
    }

    /// The rows of every whole section that watches for the user: change requests of theirs,
    /// and ones waiting for their review.
    fn watched_rows(&self) -> impl Iterator<Item = &HomeRow> {
        self.board
            .sections
            .iter()
            .filter(|section| section.is_complete() && watches_for_me(&section.query))
            .flat_map(|section| section.rows.iter())
    }

    /// Once the server's board is in (not the cache's), the pings look at what is watched.
    fn look_at_watched(&mut self, provisional: bool, ctx: &mut Ctx) -> Cmd {
        if provisional || self.from_cache {
            return Cmd::None;
        }
        let moved = std::mem::take(&mut self.moved_now);
        let watched: Vec<HomeRow> = self.watched_rows().cloned().collect();
        // Every watched section in, from every organization: a row missing from it left.
        let whole = self.board.failed.is_none()
            && self
                .board
                .sections
                .iter()
                .filter(|section| watches_for_me(&section.query))
                .all(|section| section.is_complete() && section.problems.is_empty());
        self.pings
            .looks(watched.iter(), &moved, whole, ctx.requests)
    }

    /// Sections read first pages only: moving down from the last row of a section that is
    /// full (as many rows as its limit) reads it again with a page more.
    fn read_more_at_the_end(&mut self, tab: usize, action: Action, ctx: &mut Ctx) -> Option<Cmd> {
        let down = matches!(
            action,
            Action::Down | Action::PageDown | Action::HalfPageDown | Action::Bottom
        );
        let section = self.board.sections.get(tab)?;
        let rows = section.rows.len();
        let at_the_end = self.selections.get(tab)?.selected + 1 == rows;
        let full = u32::try_from(rows).is_ok_and(|rows| rows >= section.query.limit);
        if !down || !at_the_end || !full || !section.is_complete() {
            return None;
        }
        let more = self
            .page_sizes
            .get(tab)
            .copied()
            .unwrap_or(DEFAULT_SECTION_LIMIT);
        let query = self.queries.get_mut(tab)?;
        query.limit = query.limit.saturating_add(more).min(MAX_PAGE_LIMIT);
        let gather = self.gather(false, ctx);
        self.reading_more = true;
        Some(gather)
    }

    fn page_height(ctx: &Ctx) -> isize {
        ctx.size.height.saturating_sub(6).max(1) as isize
    }
}

/// A section of the user's own change requests, of those waiting for their review, or of
/// those they marked to watch.
fn watches_for_me(query: &SectionQuery) -> bool {
    let me = Some(crate::api::home::Person::Me);
    query.marked || query.creator == me || query.requested_reviewer == me
}

fn key_of(row: &HomeRow) -> (String, String) {
    (row.space.id.clone(), row.id.clone())
}

fn target_of(row: &HomeRow) -> ChangeRequestRef {
    ChangeRequestRef {
        space: row.space.id.clone(),
        change_request: row.id.clone(),
    }
}

/// What the review's header shows before its own answers come: the row's facts as the list
/// answer had them. None only if the model came to ask for more than a list row has.
fn summary_of(row: &HomeRow) -> Option<ChangeRequest> {
    let summary = serde_json::json!({
        "id": row.id,
        "number": row.number,
        "status": row.status,
        "subject": row.subject,
        "createdBy": row.author,
        "createdAt": row.created_at,
        "updatedAt": row.updated_at,
        "space": row.space.id,
    });
    serde_json::from_value(summary).ok()
}

impl ScreenState for HomeScreen {
    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.gather(false, ctx)
    }

    fn title(&self) -> String {
        "Home".to_string()
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Home, KeyContext::Tabs, KeyContext::Browse]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Open, "review"),
            (Action::NextTab, "section"),
            (Action::GoOrganizations, "organizations"),
            (Action::Refresh, "refresh"),
            (Action::Help, "keys"),
            (Action::Quit, "quit"),
        ]
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.rows().len();
        let page = Self::page_height(ctx);
        let tab = self.tab.min(self.selections.len().saturating_sub(1));
        if let Some(more) = self.read_more_at_the_end(tab, action, ctx) {
            return Some(Step::cmd(more));
        }
        match action {
            _ if crate::screens::step::move_selection(
                self.selections.get_mut(tab)?,
                action,
                len,
                page,
            ) => {}
            Action::NextTab => self.switch_tab(true),
            Action::PreviousTab => self.switch_tab(false),
            Action::Open => return self.open_selected(),
            Action::GoOrganizations => {
                return Some(Step::push(Screen::Organizations(Organizations::default())));
            }
            _ => return None,
        }
        Some(Step::default())
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Home(answer) = response else {
            return None;
        };
        if let HomeAnswer::Looked { looked, .. } = answer {
            if !self.pings.asked(request) {
                return None;
            }
            let me = self.board.me.as_ref().map(|me| me.id.as_str());
            let row = self.watched_rows().find(|row| {
                looked
                    .as_ref()
                    .is_ok_and(|(snapshot, _)| snapshot.change_request.id == row.id)
            });
            let row = row.cloned();
            return Some(Step::cmd(self.pings.on_looked(
                request,
                looked,
                me,
                row.as_ref(),
            )));
        }
        if self.request != Some(request) {
            return None;
        }
        let provisional = ctx.answer == AnswerKind::Provisional;
        match answer {
            HomeAnswer::All(events) => self.take_whole(events, provisional),
            HomeAnswer::One(event) => self.take_one(event),
            HomeAnswer::Looked { .. } | HomeAnswer::Marked(_) => {}
        }
        Some(Step::cmd(self.look_at_watched(provisional, ctx)))
    }

    fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        if !self.ticker.fired(id) {
            return None;
        }
        Some(Step::cmd(self.gather(true, ctx)))
    }

    fn hasten_watch(&mut self, ctx: &mut Ctx) -> Cmd {
        self.ticker.hasten(ctx)
    }

    fn watchable(&self) -> Option<crate::screens::Watchable> {
        let row = self.selected()?;
        Some(crate::screens::Watchable::new(
            &row.space.id,
            &row.id,
            row.number,
            &row.subject,
        ))
    }

    fn reveal_change_request(&mut self, id: &str) {
        let Some(index) = self.rows().iter().position(|row| row.id == id) else {
            return;
        };
        let tab = self.tab.min(self.selections.len().saturating_sub(1));
        if let Some(selection) = self.selections.get_mut(tab) {
            selection.selected = index;
        }
    }

    fn link(&self) -> Option<String> {
        self.selected()?.url.clone()
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}
