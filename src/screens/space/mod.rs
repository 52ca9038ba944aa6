//! A space: its page tree beside a live preview of the selected page. `Enter` reads a page at
//! full width.

mod page_tree;
mod view;

pub use page_tree::PageTreeSeed;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::ContentSource;
use crate::api::models::{Page, PageType, Space};
use crate::app::keymap::{Action, KeyContext};
use crate::app::search::SearchScope;
use crate::app::{ApiCall, ApiResponse, Cmd, Ctx, DocKey, Loadable, Model, RequestId, Step};
use crate::screens::change_requests::ChangeRequestList;
use crate::screens::change_requests::create::InSpace;
use crate::screens::files::FilesScreen;
use crate::screens::links::{LinkList, LinksScreen};
use crate::screens::page::PageScreen;
use crate::screens::search::SearchScreen;
use crate::screens::{Screen, ScreenState};
use crate::ui::input::{Filter, InputOutcome};
use crate::ui::list::Selection;
use crate::ui::markdown::preview_source;
use crate::ui::reader::Reader;
use crate::ui::tree::{Tree, TreeItem, TreeRows, VisibleRow};

/// One page as the tree shows it (the API's page without its children and body).
#[derive(Debug, Clone)]
pub struct PageNode {
    pub id: String,
    pub title: String,
    pub emoji: Option<String>,
    /// "document", "group", "link", "computed" (borrowed: 10,000 pages need no copies of
    /// these), or a kind this version does not know.
    pub kind: std::borrow::Cow<'static, str>,
    pub hidden: bool,
    pub path: Option<String>,
    /// The page's web address, unless it is `app_url_start` then `path` (see
    /// [`PageNode::app_link`]).
    pub app_url: Option<String>,
    /// The start of the page's web address, shared by the pages of a space: the address is
    /// this then the page's path.
    pub app_url_start: Option<Arc<str>>,
    pub link_target: Option<String>,
}

/// Pages are the same when they show the same, however their web address is kept.
impl PartialEq for PageNode {
    fn eq(&self, other: &PageNode) -> bool {
        self.id == other.id
            && self.title == other.title
            && self.emoji == other.emoji
            && self.kind == other.kind
            && self.hidden == other.hidden
            && self.path == other.path
            && self.link_target == other.link_target
            && self.app_link() == other.app_link()
    }
}

impl TreeItem for PageNode {
    fn key(&self) -> String {
        self.id.clone()
    }

    fn title(&self) -> &str {
        &self.title
    }
}

/// A page's kind as the tree keeps it: "document" when the answer names none.
fn kind_name(page_type: Option<&PageType>) -> std::borrow::Cow<'static, str> {
    match page_type {
        None | Some(PageType::Document) => "document".into(),
        Some(PageType::Group) => "group".into(),
        Some(PageType::Link) => "link".into(),
        Some(PageType::Computed) => "computed".into(),
        Some(other) => other.to_string().into(),
    }
}

impl Default for PageNode {
    fn default() -> Self {
        PageNode {
            id: String::new(),
            title: String::new(),
            emoji: None,
            kind: kind_name(None),
            hidden: false,
            path: None,
            app_url: None,
            app_url_start: None,
            link_target: None,
        }
    }
}

impl PageNode {
    fn from_page(page: &Page) -> PageNode {
        PageNode {
            id: page.id.clone(),
            title: page.title.clone(),
            emoji: page.emoji.clone(),
            kind: kind_name(page.page_type.as_ref()),
            hidden: page.hidden,
            path: page.path.clone(),
            app_url: page.urls.app.clone(),
            app_url_start: None,
            link_target: page.href.clone(),
        }
    }

    /// The page's address in the web app.
    pub fn app_link(&self) -> Option<String> {
        match (&self.app_url, &self.app_url_start, &self.path) {
            (Some(url), _, _) => Some(url.clone()),
            (None, Some(start), Some(path)) => Some(format!("{start}{path}")),
            _ => None,
        }
    }

    /// Groups and links have no markdown of their own.
    pub fn has_body(&self) -> bool {
        self.kind == "document" || self.kind == "computed"
    }
}

/// The page tree with children in API order; nesting is capped so a hostile server cannot
/// make the tree arbitrarily deep.
pub fn build_page_tree(pages: &[Page]) -> Tree<PageNode> {
    use page_tree::MAX_DEPTH;
    fn add(tree: &mut Tree<PageNode>, pages: &[Page], parent: Option<usize>, depth: usize) {
        for page in pages {
            let node = tree.push(PageNode::from_page(page), parent);
            if depth < MAX_DEPTH {
                add(tree, &page.pages, Some(node), depth + 1);
            }
        }
    }
    let mut tree = Tree::default();
    add(&mut tree, pages, None, 0);
    tree.shrink_to_fit();
    tree
}

/// The key under which a page's parsed markdown is cached.
pub fn doc_key(space: &str, page: &Page) -> DocKey {
    let version = page
        .updated_at
        .clone()
        .unwrap_or_else(|| format!("len:{}", page.markdown.as_deref().map_or(0, str::len)));
    DocKey {
        space: space.to_string(),
        page: page.id.clone(),
        version,
    }
}

/// Asks for a parse unless the whole page is already parsed.
pub fn parse_unless_cached(key: &DocKey, page: &Page, ctx: &Ctx) -> Cmd {
    if ctx.docs.get(key).is_some_and(|cached| cached.is_complete()) {
        return Cmd::None;
    }
    Cmd::ParseMarkdown {
        key: key.clone(),
        markdown: Arc::from(page.markdown.clone().unwrap_or_default()),
    }
}

/// Pages longer than this are previewed from their start only: far more than a screenful of
/// markdown, and a small fraction of a big page's parse.
pub const PREVIEW_BYTES: usize = 16 * 1024;

/// How long the selection must rest on a page before its preview is fetched, so holding `j`
/// through a tree fetches only the page it stops on.
pub const PREVIEW_DELAY: Duration = Duration::from_millis(150);

/// Asks for what the preview of a fetched page needs: nothing when it is parsed already, the
/// whole page when it is short, else the parse of its start, keeping the markdown so reading
/// the page does not fetch it again.
fn parse_for_preview(key: &DocKey, page: &Page, ctx: &mut Ctx) -> Cmd {
    let markdown = page.markdown.as_deref().unwrap_or_default();
    let Some(start) = preview_source(markdown, PREVIEW_BYTES) else {
        return parse_unless_cached(key, page, ctx);
    };
    if ctx.docs.get(key).is_some() {
        return Cmd::None;
    }
    ctx.docs.keep_source(key.clone(), Arc::from(markdown));
    Cmd::ParsePreview {
        key: key.clone(),
        markdown: Arc::from(start),
    }
}

/// Tree on the left, preview on the right; the preview disappears on narrow terminals.
pub fn split(area: Rect) -> (Rect, Option<Rect>) {
    if area.width < 60 {
        return (area, None);
    }
    let tree_width = (u32::from(area.width) * 35 / 100).clamp(24, 48) as u16;
    let tree = Rect::new(area.x, area.y, tree_width, area.height);
    let preview = Rect::new(
        area.x + tree_width + 1,
        area.y,
        area.width - tree_width - 1,
        area.height,
    );
    (tree, Some(preview))
}

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
    // ── reader ──
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

    // ── reader ──
    /// Where the tree and the preview go: side by side, or the focused one alone when zoomed
    /// (and the preview alone when focused on a terminal too narrow for both).
    pub fn panes(&self, area: Rect) -> (Option<Rect>, Option<Rect>) {
        let (tree, preview) = split(area);
        match (self.zoomed, self.preview_focused) {
            (true, true) => (None, Some(area)),
            (true, false) => (Some(area), None),
            (false, true) if preview.is_none() => (None, Some(area)),
            _ => (Some(tree), preview),
        }
    }

    /// `tab` / `ctrl-w`, `z`, and the preview's own keys while it has the focus.
    fn on_pane_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        match action {
            Action::FocusPane => {
                self.preview_focused = !self.preview_focused;
                return Some(Step::cmd(self.relayout_preview(ctx)));
            }
            Action::ZoomPane => {
                self.zoomed = !self.zoomed;
                return Some(Step::cmd(self.relayout_preview(ctx)));
            }
            Action::PreviewWheelDown | Action::PreviewWheelUp => {
                return Some(self.wheel_preview(action == Action::PreviewWheelDown, ctx));
            }
            _ => {}
        }
        if !self.preview_focused {
            return None;
        }
        let height = Self::preview_rows(ctx);
        if self.reader.scroll_for(action, height) {
            return Some(Step::default());
        }
        if action != Action::Back {
            return None;
        }
        self.preview_focused = false;
        Some(Step::cmd(self.relayout_preview(ctx)))
    }

    /// The wheel over the preview scrolls it, three lines a notch: the preview takes the focus
    /// first (only a focused preview is laid out whole, so it can scroll), as a click would.
    fn wheel_preview(&mut self, down: bool, ctx: &mut Ctx) -> Step {
        const WHEEL_LINES: isize = 3;
        let cmd = if self.preview_focused {
            Cmd::None
        } else {
            self.preview_focused = true;
            self.relayout_preview(ctx)
        };
        let lines = if down { WHEEL_LINES } else { -WHEEL_LINES };
        let before = self.reader.scroll as isize;
        self.reader.scroll_by(lines, Self::preview_rows(ctx));
        // A page previewed from its start is parsed whole first: what the short layout could
        // not scroll yet is scrolled once the whole page is laid out.
        self.wheel_pending = lines - (self.reader.scroll as isize - before);
        Step::cmd(cmd)
    }

    /// The preview's width and how much of it is laid out follow the focus and the zoom: a
    /// focused preview scrolls, so the whole page is laid out (and parsed, when only its start
    /// was).
    fn relayout_preview(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(width) = self.preview_width_now(ctx) else {
            return Cmd::None;
        };
        self.reader.row_limit = if self.preview_focused {
            None
        } else {
            self.reader.scroll = 0;
            Some(Self::preview_rows(ctx))
        };
        self.reader.refresh_layout(ctx.docs, width);
        let Some(key) = self.reader.key.clone() else {
            return Cmd::None;
        };
        let partial = ctx
            .docs
            .get(&key)
            .is_some_and(|cached| !cached.is_complete());
        match ctx.docs.source(&key) {
            Some(markdown) if self.preview_focused && partial => {
                Cmd::ParseMarkdown { key, markdown }
            }
            _ => Cmd::None,
        }
    }

    fn preview_width_now(&self, ctx: &Ctx) -> Option<u16> {
        let (width, height) = crate::ui::chrome::body_size(ctx.size.width, ctx.size.height);
        self.panes(Rect::new(0, 0, width, height))
            .1
            .map(|r| r.width)
    }

    pub fn visible_rows(&self) -> &[VisibleRow] {
        self.rows.rows()
    }

    pub fn selected_page(&self) -> Option<&PageNode> {
        let row = self.visible_rows().get(self.selection.selected)?;
        self.pages.value()?.item(row.node)
    }

    /// Rows the preview shows: the body below its two-row title.
    fn preview_rows(ctx: &Ctx) -> usize {
        let (_, height) = crate::ui::chrome::body_size(ctx.size.width, ctx.size.height);
        usize::from(height.saturating_sub(2))
    }

    /// Shows a page in the preview, laid out only as far as the preview shows it.
    fn show_preview(&mut self, key: DocKey, ctx: &Ctx, width: u16) {
        self.reader.row_limit = (!self.preview_focused).then(|| Self::preview_rows(ctx));
        self.reader.show(key, ctx.docs, width);
    }

    /// The page tree arrived (or failed): keeps the branches the user had open on a reload,
    /// opens the first groups on the first load, and previews the selection.
    fn on_page_tree(
        &mut self,
        request: RequestId,
        result: Result<Tree<PageNode>, crate::api::ApiError>,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        let loaded = result.is_ok();
        let first_load = self.pages.value().is_none();
        let open_keys = self.pages.value().map(|old| self.rows.open_keys(old));
        if !self.pages.settle(request, result) {
            return None;
        }
        match (loaded, open_keys, self.pages.value()) {
            (false, _, _) => {}
            (true, Some(keys), Some(tree)) => {
                self.rows = TreeRows::reopened(tree, &keys, &self.filter.text);
            }
            _ if first_load => self.open_groups_and_select_first_page(),
            _ => {}
        }
        self.selection.clamp(self.visible_rows().len());
        Some(Step::cmd(self.follow_selection(ctx, false)))
    }

    fn load_pages(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.pages.start(request);
        Cmd::Api {
            request,
            call: ApiCall::ListPages {
                space: self.space.id.clone(),
            },
        }
    }

    /// Loads the preview of the selected page when it changed: at once (the first page of a
    /// space, a refresh), or after [`PREVIEW_DELAY`] when the selection moved.
    fn follow_selection(&mut self, ctx: &mut Ctx, force: bool) -> Cmd {
        self.preview_selection(ctx, force, false)
    }

    /// Like [`follow_selection`](Self::follow_selection), waiting for the selection to rest.
    fn follow_moving_selection(&mut self, ctx: &mut Ctx) -> Cmd {
        self.preview_selection(ctx, false, true)
    }

    fn preview_selection(&mut self, ctx: &mut Ctx, force: bool, debounce: bool) -> Cmd {
        let Some(width) = self.preview_width_now(ctx) else {
            return Cmd::None;
        };
        let Some(page) = self.selected_page().cloned() else {
            return Cmd::None;
        };
        if !force && self.preview_page.as_deref() == Some(page.id.as_str()) {
            return Cmd::None;
        }
        self.preview_page = Some(page.id.clone());
        self.preview_timer = None;
        if !page.has_body() {
            self.preview = Loadable::NotAsked;
            self.reader = Reader::default();
            return Cmd::None;
        }
        if !force && let Some(key) = self.known.get(&page.id).cloned() {
            self.show_preview(key.clone(), ctx, width);
            self.preview = Loadable::Loaded(key);
            return Cmd::None;
        }
        if debounce {
            let id = ctx.requests.issue();
            self.preview_timer = Some(id);
            return Cmd::Timer {
                id,
                after: PREVIEW_DELAY,
            };
        }
        self.fetch_preview(&page.id, ctx)
    }

    fn fetch_preview(&mut self, page: &str, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.preview.start(request);
        Cmd::Api {
            request,
            call: ApiCall::GetPageMarkdown {
                space: self.space.id.clone(),
                page: page.to_string(),
            },
        }
    }

    /// Like the platform's own sidebar: groups start open, and the first page with a body is
    /// selected so its preview shows at once.
    fn open_groups_and_select_first_page(&mut self) {
        let Some(tree) = self.pages.value() else {
            return;
        };
        self.rows = TreeRows::new(tree, |node| {
            node.parent.is_none() && node.item.kind == "group"
        });
        self.rows.set_filter(tree, &self.filter.text);
        let first_readable = self
            .rows
            .rows()
            .iter()
            .position(|row| tree.item(row.node).is_some_and(PageNode::has_body));
        self.selection.selected = first_readable.unwrap_or(0);
    }

    fn on_tree_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.visible_rows().len();
        let page = ctx.size.height.saturating_sub(4).max(1) as isize;
        let selected = self.selection.selected;
        let row = self.visible_rows().get(selected).copied();
        match action {
            _ if crate::app::move_selection(&mut self.selection, action, len, page) => {}
            Action::Expand => {
                self.selected_page()?;
                let tree = self.pages.value()?;
                match row {
                    Some(row) if row.has_children && !row.expanded => {
                        self.rows.set_open(tree, selected, true);
                    }
                    Some(row) if row.has_children => self.selection.move_by(1, len),
                    _ => {}
                }
            }
            Action::Collapse => {
                if let Some(tree) = self.pages.value() {
                    let selected = &mut self.selection.selected;
                    self.rows.collapse_or_go_to_parent(tree, selected);
                }
            }
            Action::ExpandAll => {
                if let Some(tree) = self.pages.value() {
                    self.rows.open_all(tree);
                }
            }
            Action::CollapseAll => {
                if let Some(tree) = self.pages.value() {
                    self.rows.close_all(tree);
                }
                self.selection.top();
            }
            Action::Open => return self.open_selected(),
            _ => return None,
        }
        Some(Step::cmd(self.follow_moving_selection(ctx)))
    }

    /// Another screen opens on top: a preview still waiting for the selection to rest is not
    /// fetched behind it, but when this screen shows again.
    fn cancel_pending_preview(&mut self) {
        if self.preview_timer.take().is_some() {
            self.preview_page = None;
        }
    }

    fn open_selected(&mut self) -> Option<Step> {
        let page = self.selected_page()?.clone();
        if !page.has_body() {
            // A group opens and closes like a folder.
            if let Some(tree) = self.pages.value() {
                self.rows.toggle(tree, self.selection.selected);
            }
            return Some(Step::default());
        }
        let known = self.known.get(&page.id).cloned();
        self.cancel_pending_preview();
        Some(Step::push(Screen::Page(PageScreen::new(
            self.space.clone(),
            page,
            known,
        ))))
    }

    /// Search, the links report, the files, or what links to the selected page.
    fn find_things(&self, action: Action) -> Step {
        let source = ContentSource::Space(self.space.id.clone());
        let screen = match action {
            Action::SearchContent => Screen::Search(SearchScreen::new(SearchScope::Space {
                id: self.space.id.clone(),
                title: self.space.title.clone(),
            })),
            Action::Files => Screen::Files(FilesScreen::new(
                source,
                self.space.clone(),
                self.space.title.clone(),
            )),
            Action::Backlinks => {
                let Some(page) = self.selected_page() else {
                    return Step::default();
                };
                let list = LinkList::PageBacklinks {
                    id: page.id.clone(),
                    title: page.title.clone(),
                };
                Screen::Links(LinksScreen::new(source, self.space.clone(), list))
            }
            _ => Screen::Links(LinksScreen::new(
                source,
                self.space.clone(),
                LinkList::Space,
            )),
        };
        Step::push(screen)
    }

    /// Shows the rows for the filter as typed now; while it is typed, the first page that
    /// matches it is selected.
    fn follow_filter(&mut self, select_first_match: bool) {
        if let Some(tree) = self.pages.value() {
            self.rows.set_filter(tree, &self.filter.text);
        }
        if select_first_match {
            self.selection.selected = self.rows.first_match();
        }
    }
}

impl ScreenState for SpaceScreen {
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
        if self.change_requests.on_paste(text) {
            return Cmd::None;
        }
        self.filter.paste(text);
        self.follow_filter(false);
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
                let screen = crate::screens::git::GitScreen::new(self.space.clone());
                Some(Step::push(Screen::Git(Box::new(screen))))
            }
            Action::ChangeRequestsOfSpace => {
                self.cancel_pending_preview();
                Some(Step::push(Screen::ChangeRequests(
                    ChangeRequestList::for_space(&self.space),
                )))
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

    fn on_response(
        &mut self,
        request: RequestId,
        response: &ApiResponse,
        ctx: &mut Ctx,
    ) -> Option<Step> {
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
                if self.preview.waiting_for() != Some(request) {
                    return None;
                }
                let page = match result {
                    Ok(page) => page,
                    Err(error) => {
                        self.preview.settle(request, Err(error.clone()));
                        return Some(Step::default());
                    }
                };
                let key = doc_key(&self.space.id, page);
                self.known.insert(page.id.clone(), key.clone());
                self.preview.settle(request, Ok(key.clone()));
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

    fn draw(&self, frame: &mut Frame, area: Rect, model: &Model) {
        view::draw(self, frame, area, model);
    }
}
