//! A space: its page tree beside a live preview of the selected page. `Enter` reads a page at
//! full width.

mod preview;
mod tree_nav;
mod view;

pub use crate::ui::page_tree::{PageNode, PageTreeSeed, build_page_tree};
use preview::parse_for_preview;
pub use preview::{PREVIEW_BYTES, PREVIEW_DELAY, split};

use std::collections::HashMap;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::models::Space;
use crate::screens::ScreenState;
use crate::screens::change_requests::create::InSpace;
use crate::screens::look::Look;
use crate::screens::page_doc::doc_key;
use crate::screens::route::Route;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::input::{Filter, InputOutcome};
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::reader::Reader;
use crate::ui::tree::{Tree, TreeRows, VisibleRow};
use crate::vocabulary::{ApiResponse, Cmd, DocKey, Loadable, RequestId};

#[derive(Debug)]
pub struct SpaceScreen {
    pub space: Space,
    pub organization_title: String,
    pub pages: Loadable<Tree<PageNode>>,
    /// The rows shown of `pages`: its open nodes and the filter, kept up to date as they change.
    pub rows: TreeRows,
    pub selection: Selection,
    pub filter: Filter,
    /// The page whose markdown is loading or shown in the preview.
    pub preview_page: Option<String>,
    pub preview: Loadable<DocKey>,
    pub reader: Reader,
    /// Pages fetched before, so going back to one previews it at once.
    known: HashMap<String, DocKey>,
    /// The timer after which the selected page's preview is fetched; older ones are stale.
    preview_timer: Option<RequestId>,
    /// `N` (new change request) and `P` (PDF): the prompt and what they say.
    pub change_requests: InSpace,
    /// The preview has the focus: the scrolling keys scroll it.
    pub preview_focused: bool,
    /// Wheel lines the preview could not scroll yet (its whole page was still being parsed).
    wheel_pending: isize,
    /// The focused pane fills the width.
    pub zoomed: bool,
}

impl SpaceScreen {
    pub fn new(space: Space, organization_title: String) -> SpaceScreen {
        SpaceScreen {
            space,
            organization_title,
            pages: Loadable::NotAsked,
            rows: TreeRows::default(),
            selection: Selection::default(),
            filter: Filter::default(),
            preview_page: None,
            preview: Loadable::NotAsked,
            reader: Reader::default(),
            known: HashMap::new(),
            preview_timer: None,
            change_requests: InSpace::default(),
            preview_focused: false,
            wheel_pending: 0,
            zoomed: false,
        }
    }

    pub fn visible_rows(&self) -> &[VisibleRow] {
        self.rows.rows()
    }

    pub fn selected_page(&self) -> Option<&PageNode> {
        let row = self.visible_rows().get(self.selection.selected)?;
        self.pages.value()?.item(row.node)
    }
}

impl ScreenState for SpaceScreen {
    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.change_requests.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load_pages(ctx)
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        self.known.clear();
        let pages = self.load_pages(ctx);
        let preview = self.follow_selection(ctx, true);
        Cmd::batch([pages, preview])
    }

    fn title(&self) -> String {
        let emoji = crate::ui::text::emoji(self.space.emoji.as_deref());
        match emoji {
            Some(emoji) => format!("{emoji} {}", self.space.title),
            None => self.space.title.clone(),
        }
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        if self.preview_focused {
            &[KeyContext::SpaceTree, KeyContext::Preview]
        } else {
            &[KeyContext::SpaceTree, KeyContext::Tree, KeyContext::List]
        }
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        if self.preview_focused {
            return vec![
                (Action::PageDown, "page"),
                (Action::FocusPane, "focus tree"),
                (Action::ZoomPane, "zoom"),
                (Action::Open, "read"),
                (Action::Back, "tree"),
                (Action::Help, "keys"),
            ];
        }
        vec![
            (Action::Open, "read"),
            (Action::Expand, "expand"),
            (Action::Collapse, "collapse"),
            (Action::Filter, "filter"),
            (Action::ChangeRequestsOfSpace, "change requests"),
            (Action::NewChangeRequest, "new change request"),
            (Action::Pdf, "PDF"),
            (Action::SearchContent, "search"),
            (Action::LinksReport, "links"),
            (Action::Files, "files"),
            (Action::Backlinks, "backlinks"),
            (Action::GitSync, "git"),
            (Action::FocusPane, "focus preview"),
            (Action::ZoomPane, "zoom"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn disabled_actions(&self) -> Vec<Action> {
        let mut disabled = Vec::new();
        if !self.space.permissions.edit {
            disabled.push(Action::NewChangeRequest);
        }
        disabled
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.change_requests.on_raw_key(key, ctx) {
            return Some(step);
        }
        let outcome = self.filter.handle_key(key)?;
        self.follow_filter(outcome == InputOutcome::Changed);
        self.selection.clamp(self.visible_rows().len());
        Some(Step::cmd(self.follow_moving_selection(ctx)))
    }

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        if let Some(keep) = self.change_requests.on_paste(text) {
            return keep;
        }
        self.filter.paste(text);
        self.follow_filter(false);
        Cmd::None
    }

    fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)], _ctx: &mut Ctx) -> Cmd {
        self.change_requests.on_drafts(prefix, drafts);
        Cmd::None
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.on_pane_action(action, ctx) {
            return Some(step);
        }
        match action {
            Action::Filter => {
                self.filter.open();
                Some(Step::default())
            }
            Action::Back if self.filter.is_shown() => {
                self.filter.clear();
                self.follow_filter(false);
                Some(Step::default())
            }
            Action::GitSync => {
                self.cancel_pending_preview();
                Some(Step::open(Route::Git(self.space.clone())))
            }
            Action::ChangeRequestsOfSpace => {
                self.cancel_pending_preview();
                Some(Step::open(Route::ChangeRequests(self.space.clone())))
            }
            Action::NewChangeRequest | Action::Pdf => {
                self.cancel_pending_preview();
                self.change_requests.on_action(action, &self.space)
            }
            Action::SearchContent | Action::LinksReport | Action::Files | Action::Backlinks => {
                self.cancel_pending_preview();
                Some(self.find_things(action))
            }
            _ => self.on_tree_action(action, ctx),
        }
    }

    fn on_resize(&mut self, ctx: &mut Ctx) {
        if let Some(width) = self.preview_width_now(ctx) {
            self.reader.row_limit = (!self.preview_focused).then(|| Self::preview_rows(ctx));
            self.reader.refresh_layout(ctx.docs, width);
            if self.preview_focused && self.wheel_pending != 0 {
                self.reader.scroll_by(
                    std::mem::take(&mut self.wheel_pending),
                    Self::preview_rows(ctx),
                );
            }
        }
    }

    fn resumed(&mut self, ctx: &mut Ctx) -> Cmd {
        self.follow_selection(ctx, false)
    }

    fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        if self.preview_timer != Some(id) {
            return None;
        }
        self.preview_timer = None;
        let page = self.preview_page.clone()?;
        Some(Step::cmd(self.fetch_preview(&page, ctx)))
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.change_requests.on_response(request, response) {
            return Some(step);
        }
        match response {
            ApiResponse::PageTree(result) => {
                let result = match result {
                    Ok(handoff) => Ok(handoff.take()?),
                    Err(error) => Err(error.clone()),
                };
                self.on_page_tree(request, result, ctx)
            }
            ApiResponse::PageMarkdown(result) => {
                if self.preview.waiting_for() != Some(request)
                    || ctx.answer.is_provisional() && self.preview.value().is_some()
                {
                    return None;
                }
                let page = match result {
                    Ok(page) => page,
                    Err(error) => {
                        self.preview
                            .settle_as(request, Err(error.clone()), ctx.answer);
                        return Some(Step::default());
                    }
                };
                let key = doc_key(&self.space.id, page);
                self.known.insert(page.id.clone(), key.clone());
                self.preview.settle_as(request, Ok(key.clone()), ctx.answer);
                if let Some(width) = self.preview_width_now(ctx) {
                    self.show_preview(key.clone(), ctx, width);
                }
                Some(Step::cmd(parse_for_preview(&key, page, ctx)))
            }
            _ => None,
        }
    }

    fn on_document(&mut self, key: &DocKey, ctx: &mut Ctx) {
        if self.reader.key.as_ref() == Some(key)
            && let Some(width) = self.preview_width_now(ctx)
        {
            self.reader.refresh_layout(ctx.docs, width);
        }
    }

    fn link(&self) -> Option<String> {
        self.selected_page()
            .and_then(PageNode::app_link)
            .or_else(|| self.space.urls.app.clone())
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}
