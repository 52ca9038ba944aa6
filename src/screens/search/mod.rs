//! Search a space or a whole organization as you type. The query is sent once typing rests
//! ([`SEARCH_DELAY`]); a newer query cancels the answer to an older one. Results are grouped by
//! space (organization search) and page, each matching section with its text, the breadcrumb
//! of the page's ancestors and the match highlighted; more results load as the selection nears
//! the end. `enter` reads the page at the section.

mod view;

use std::time::Duration;

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;

use crate::api::MAX_SEARCH_QUERY;
use crate::api::models::{SearchPage, SearchSection, SearchSpace, Space};
use crate::screens::look::Look;
use crate::screens::page::{PageScreen, SectionTarget};
use crate::screens::step::{Answered, Ctx, Step};
use crate::screens::{Screen, ScreenState};
use crate::ui::hit::Canvas;
use crate::ui::input::{InputOutcome, LineInput};
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::page_tree::PageNode;
use crate::vocabulary::paged::PagedList;
use crate::vocabulary::search::{SearchCall, SearchResults, SearchScope};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, RequestId};

/// How long typing must rest before the query is sent: a word typed at speed sends one query.
pub const SEARCH_DELAY: Duration = Duration::from_millis(250);

/// One line of the results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultRow {
    /// A space's title above its pages (organization search only).
    Space {
        group: usize,
    },
    Page {
        group: usize,
        page: usize,
    },
    Section {
        group: usize,
        page: usize,
        section: usize,
    },
}

impl ResultRow {
    fn group(self) -> usize {
        match self {
            ResultRow::Space { group }
            | ResultRow::Page { group, .. }
            | ResultRow::Section { group, .. } => group,
        }
    }
}

#[derive(Debug)]
pub struct SearchScreen {
    pub scope: SearchScope,
    pub input: LineInput,
    /// True while keys go to the query; `esc` (or `↓` to the list) hands them to the results.
    pub typing: bool,
    /// The query the results are for (or are loading for).
    pub searched: Option<String>,
    pub results: PagedList<SearchSpace>,
    pub rows: Vec<ResultRow>,
    pub selection: Selection,
    /// Why the query typed is not sent (too long).
    pub problem: Option<String>,
    /// The debounce timer for the query as typed now; older ones are stale.
    timer: Option<RequestId>,
}

impl SearchScreen {
    pub fn new(scope: SearchScope) -> SearchScreen {
        SearchScreen {
            scope,
            input: LineInput::default(),
            typing: true,
            searched: None,
            results: PagedList::default(),
            rows: Vec::new(),
            selection: Selection::default(),
            problem: None,
            timer: None,
        }
    }

    /// A search already typed (from the command palette): it is sent when the screen opens,
    /// and the results take the keys.
    pub fn with_query(scope: SearchScope, query: &str) -> SearchScreen {
        let mut screen = SearchScreen::new(scope);
        screen.input = LineInput::with_text(query);
        screen.typing = false;
        screen
    }

    pub fn query(&self) -> &str {
        self.input.text.trim()
    }

    /// The space, page and section of a row.
    pub fn hit(
        &self,
        row: ResultRow,
    ) -> Option<(&SearchSpace, Option<&SearchPage>, Option<&SearchSection>)> {
        let group = self.results.items.get(row.group())?;
        match row {
            ResultRow::Space { .. } => Some((group, None, None)),
            ResultRow::Page { page, .. } => Some((group, Some(group.pages.get(page)?), None)),
            ResultRow::Section { page, section, .. } => {
                let page = group.pages.get(page)?;
                Some((group, Some(page), Some(page.sections.get(section)?)))
            }
        }
    }

    pub fn selected_row(&self) -> Option<ResultRow> {
        self.rows.get(self.selection.selected).copied()
    }

    /// The rows for the results loaded: a space's title (when searching an organization),
    /// then each page and its sections.
    fn rebuild_rows(&mut self) {
        let with_spaces = self.scope.is_organization();
        self.rows.clear();
        for (group, space) in self.results.items.iter().enumerate() {
            if space.pages.is_empty() {
                continue;
            }
            if with_spaces {
                self.rows.push(ResultRow::Space { group });
            }
            for (page, found) in space.pages.iter().enumerate() {
                self.rows.push(ResultRow::Page { group, page });
                for section in 0..found.sections.len() {
                    self.rows.push(ResultRow::Section {
                        group,
                        page,
                        section,
                    });
                }
            }
        }
        self.selection.clamp(self.rows.len());
        self.step_off_space_title(1);
    }

    /// A space's title cannot be opened: the selection moves on to its first page (or back).
    fn step_off_space_title(&mut self, direction: isize) {
        let len = self.rows.len();
        if matches!(self.selected_row(), Some(ResultRow::Space { .. })) {
            self.selection.move_by(direction, len);
            if matches!(self.selected_row(), Some(ResultRow::Space { .. })) {
                self.selection.move_by(-direction, len);
            }
        }
    }

    /// The query as typed changed: the answer to the old one is no longer wanted, and the new
    /// one is sent once typing rests.
    fn query_changed(&mut self, ctx: &mut Ctx) -> Cmd {
        self.results.cancel();
        self.problem = None;
        if self.query().is_empty() {
            self.searched = None;
            self.results = PagedList::default();
            self.rows.clear();
            self.selection.top();
            return Cmd::cancel_timer(&mut self.timer);
        }
        let id = ctx.requests.issue();
        Cmd::restart_timer(&mut self.timer, id, SEARCH_DELAY)
    }

    /// Sends the query as typed now, unless it is empty, too long, or already searched.
    fn search_now(&mut self, ctx: &mut Ctx) -> Cmd {
        self.timer = None;
        let query = self.query().to_string();
        // The same query again is a retry when its search failed; otherwise nothing to do.
        let failed = self.results.error.is_some() && self.rows.is_empty();
        if query.is_empty() || (self.searched.as_deref() == Some(query.as_str()) && !failed) {
            return Cmd::None;
        }
        let length = query.chars().count();
        if length > MAX_SEARCH_QUERY {
            self.problem = Some(format!(
                "A search is at most {MAX_SEARCH_QUERY} characters; this one has {length}."
            ));
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.results.restart(request);
        self.searched = Some(query.clone());
        self.selection.top();
        self.search_call(request, query, None)
    }

    fn search_call(&self, request: RequestId, query: String, page: Option<String>) -> Cmd {
        Cmd::Api {
            request,
            call: ApiCall::Search(SearchCall {
                scope: self.scope.clone(),
                query,
                page,
            }),
        }
    }

    /// The next page of results when the selection nears the end of those loaded.
    fn load_more(&mut self, ctx: &mut Ctx) -> Cmd {
        let group = self.selected_row().map_or(0, ResultRow::group);
        let Some(query) = self.searched.clone() else {
            return Cmd::None;
        };
        self.results
            .next_page(group, ctx.requests)
            .map_or(Cmd::None, |next| {
                self.search_call(next.request, query, Some(next.page))
            })
    }

    fn move_selection(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        let before = self.selection.selected;
        let page = ctx.size.height.saturating_sub(6).max(1) as isize;
        if !crate::screens::step::move_selection(&mut self.selection, action, self.rows.len(), page)
        {
            return false;
        }
        let direction = if self.selection.selected < before {
            -1
        } else {
            1
        };
        self.step_off_space_title(direction);
        true
    }

    /// Reads the selected page, at the selected section.
    fn open_selected(&self) -> Option<Step> {
        let (space, page, section) = self.hit(self.selected_row()?)?;
        let page = page?;
        let node = PageNode {
            id: page.id.clone(),
            title: page.title.clone(),
            emoji: None,
            kind: "document".into(),
            hidden: false,
            path: page.path.clone(),
            app_url: section
                .and_then(|section| section.urls.app.clone())
                .or_else(|| page.urls.app.clone()),
            app_url_start: None,
            link_target: None,
        };
        let target = section.map(|section| SectionTarget {
            title: section.title.clone(),
            anchor: section_anchor(section),
        });
        let reader = PageScreen::new(Space::known_as(&space.id, &space.title), node, None)
            .at_section(target);
        Some(Step::push(Screen::Page(reader)))
    }

    fn on_typing_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Step {
        // The results move under the query, as in every finder.
        let motion = match key.code {
            KeyCode::Down => Some(Action::Down),
            KeyCode::Up => Some(Action::Up),
            KeyCode::PageDown => Some(Action::PageDown),
            KeyCode::PageUp => Some(Action::PageUp),
            _ => None,
        };
        if let Some(action) = motion {
            self.move_selection(action, ctx);
            return Step::cmd(self.load_more(ctx));
        }
        match self.input.handle_key(key) {
            InputOutcome::Changed => Step::cmd(self.query_changed(ctx)),
            InputOutcome::Submitted => {
                let current = self.searched.as_deref() == Some(self.query());
                if current && !self.rows.is_empty() {
                    return self.open_selected().unwrap_or_default();
                }
                Step::cmd(self.search_now(ctx))
            }
            InputOutcome::Cancelled if self.rows.is_empty() => Step::pop(),
            InputOutcome::Cancelled => {
                self.typing = false;
                Step::default()
            }
            InputOutcome::Moved | InputOutcome::Ignored => Step::default(),
        }
    }
}

/// `install#linux` → `linux`: the anchor of a section from its path, id or address.
fn section_anchor(section: &SearchSection) -> Option<String> {
    [
        section.path.as_deref(),
        Some(section.id.as_str()),
        section.urls.app.as_deref(),
    ]
    .into_iter()
    .flatten()
    .find_map(|text| text.split_once('#').map(|(_, anchor)| anchor.to_string()))
    .filter(|anchor| !anchor.is_empty())
}

impl ScreenState for SearchScreen {
    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.search_now(ctx)
    }

    fn title(&self) -> String {
        format!("Search · {}", self.scope.title())
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        let failed = self.results.error.is_some() && self.rows.is_empty();
        vec![
            (Action::Open, if failed { "retry" } else { "read" }),
            (Action::Filter, "edit query"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        if !self.typing {
            return None;
        }
        Some(self.on_typing_key(key, ctx))
    }

    fn on_paste(&mut self, text: &str, ctx: &mut Ctx) -> Cmd {
        self.typing = true;
        self.input.insert_str(text);
        self.query_changed(ctx)
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        match action {
            _ if self.move_selection(action, ctx) => Some(Step::cmd(self.load_more(ctx))),
            // After a failed search `enter` sends it again, as it does while typing.
            Action::Open if self.rows.is_empty() => Some(Step::cmd(self.search_now(ctx))),
            Action::Open => self.open_selected(),
            Action::Filter => {
                self.typing = true;
                Some(Step::default())
            }
            _ => None,
        }
    }

    fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        if self.timer != Some(id) {
            return None;
        }
        Some(Step::cmd(self.search_now(ctx)))
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Search(SearchResults { query, result }) = response else {
            return None;
        };
        if self.searched.as_deref() != Some(query.as_str())
            || !self.results.settle(request, result.clone())
        {
            return None;
        }
        self.rebuild_rows();
        Some(Step::cmd(self.load_more(ctx)))
    }

    fn link(&self) -> Option<String> {
        let (_, page, section) = self.hit(self.selected_row()?)?;
        section
            .and_then(|section| section.urls.app.clone())
            .or_else(|| page.and_then(|page| page.urls.app.clone()))
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}
