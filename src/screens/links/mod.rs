//! Links and backlinks of a space's or a change request's content: the space's links report
//! (with its totals and a status filter, broken first), the links written on one page, and
//! "what links here" for a page or a file. `enter` reads the page that holds the link.

mod view;

use std::collections::HashMap;

use ratatui::layout::Rect;

use crate::api::models::{ContentRef, ContentRefKind, Link, LinkStats, LinkStatus, Space};
use crate::api::{BacklinkTarget, ContentSource, ListPage};
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::route::Route;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::page_tree::{PageNode, build_page_tree};
use crate::ui::tree::Tree;
use crate::vocabulary::links::{LinkList, LinksCall, LinksResponse};
use crate::vocabulary::paged::PagedList;
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

/// The status tabs of a links list: every link, then each status, broken first.
pub const STATUS_TABS: [Option<LinkStatus>; 4] = [
    None,
    Some(LinkStatus::Broken),
    Some(LinkStatus::InApp),
    Some(LinkStatus::Ok),
];

/// How a status sorts: what needs fixing first.
fn status_rank(status: Option<&LinkStatus>) -> usize {
    match status {
        Some(LinkStatus::Broken) => 0,
        Some(LinkStatus::InApp) => 1,
        Some(LinkStatus::Ok) => 2,
        _ => 3,
    }
}

/// The page tree, to name pages by id, and where each page sits in it.
#[derive(Debug, Clone, Default)]
pub struct PageIndex {
    pub tree: Tree<PageNode>,
    by_id: HashMap<String, usize>,
}

impl PageIndex {
    fn new(pages: &[crate::api::models::Page]) -> PageIndex {
        let tree = build_page_tree(pages);
        let by_id = tree
            .nodes()
            .map(|(index, node)| (node.item.id.clone(), index))
            .collect();
        PageIndex { tree, by_id }
    }

    pub fn page(&self, id: &str) -> Option<&PageNode> {
        self.tree.item(*self.by_id.get(id)?)
    }

    /// The titles of the page's ancestors, outermost first.
    pub fn breadcrumb(&self, id: &str) -> Vec<String> {
        let Some(index) = self.by_id.get(id) else {
            return Vec::new();
        };
        self.tree
            .ancestors(*index)
            .iter()
            .filter_map(|ancestor| self.tree.item(*ancestor))
            .map(|page| page.title.clone())
            .collect()
    }
}

#[derive(Debug)]
pub struct LinksScreen {
    pub source: ContentSource,
    /// The space the content belongs to, to read a linking page in.
    pub space: Space,
    pub list: LinkList,
    /// Index into [`STATUS_TABS`].
    pub status: usize,
    /// Links, or for backlinks one item per linking place (its only location).
    pub links: PagedList<Link>,
    pub stats: Option<LinkStats>,
    pub pages: Loadable<PageIndex>,
    pub selection: Selection,
}

impl LinksScreen {
    pub fn new(source: ContentSource, space: Space, list: LinkList) -> LinksScreen {
        LinksScreen {
            source,
            space,
            list,
            status: 0,
            links: PagedList::default(),
            stats: None,
            pages: Loadable::NotAsked,
            selection: Selection::default(),
        }
    }

    pub fn status_filter(&self) -> Option<&LinkStatus> {
        STATUS_TABS.get(self.status).and_then(Option::as_ref)
    }

    /// True when the server answered that it does not offer this list at all.
    pub fn is_unsupported(&self) -> bool {
        self.links
            .error
            .as_ref()
            .is_some_and(crate::api::ApiError::is_unsupported)
    }

    pub fn has_status_tabs(&self) -> bool {
        !self.list.is_backlinks()
    }

    /// The links loaded, broken first (the server sends them so; pages loaded later keep it).
    pub fn visible(&self) -> Vec<&Link> {
        let mut links: Vec<&Link> = self.links.items.iter().collect();
        links.sort_by_key(|link| status_rank(link.status.as_ref()));
        links
    }

    pub fn selected(&self) -> Option<&Link> {
        self.visible().get(self.selection.selected).copied()
    }

    pub fn page_index(&self) -> Option<&PageIndex> {
        self.pages.value()
    }

    /// What a reference points at, in words: a page's title, an address, a file.
    pub fn describe(&self, reference: &ContentRef) -> String {
        let page_title = |id: &str| {
            self.page_index()
                .and_then(|index| index.page(id))
                .map_or_else(|| id.to_string(), |page| page.title.clone())
        };
        match (&reference.kind, reference.page.as_deref()) {
            (ContentRefKind::Page, Some(page)) => page_title(page),
            (ContentRefKind::Anchor, Some(page)) => format!(
                "{}#{}",
                page_title(page),
                reference.anchor.as_deref().unwrap_or_default()
            ),
            (ContentRefKind::Url, _) => reference.url.clone().unwrap_or_default(),
            (ContentRefKind::File, _) => {
                format!("file {}", reference.file.as_deref().unwrap_or_default())
            }
            (kind, _) => kind.to_string(),
        }
    }

    fn request(&self, ctx: &mut Ctx, call: LinksCall) -> (RequestId, Cmd) {
        let request = ctx.requests.issue();
        (
            request,
            Cmd::Api {
                request,
                call: ApiCall::Links(call),
            },
        )
    }

    fn list_call(&self, cursor: Option<String>) -> LinksCall {
        let source = self.source.clone();
        match &self.list {
            LinkList::Space => LinksCall::Links {
                source,
                page: None,
                status: self.status_filter().cloned(),
                cursor,
            },
            LinkList::Page { id, .. } => LinksCall::Links {
                source,
                page: Some(id.clone()),
                status: self.status_filter().cloned(),
                cursor,
            },
            LinkList::PageBacklinks { id, .. } => LinksCall::Backlinks {
                source,
                target: BacklinkTarget::Page(id.clone()),
                cursor,
            },
            LinkList::FileBacklinks { id, .. } => LinksCall::Backlinks {
                source,
                target: BacklinkTarget::File(id.clone()),
                cursor,
            },
        }
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        let (request, cmd) = self.request(ctx, self.list_call(None));
        self.links.restart(request);
        self.selection.top();
        cmd
    }

    fn load_pages(&mut self, ctx: &mut Ctx) -> Cmd {
        let call = LinksCall::Pages {
            source: self.source.clone(),
        };
        let (request, cmd) = self.request(ctx, call);
        self.pages.start(request);
        cmd
    }

    fn load_more(&mut self, ctx: &mut Ctx) -> Cmd {
        self.links
            .next_page(self.selection.selected, ctx.requests)
            .map_or(Cmd::None, |next| {
                next.ask(|cursor| ApiCall::Links(self.list_call(cursor)))
            })
    }

    fn switch_status(&mut self, forward: bool, ctx: &mut Ctx) -> Cmd {
        if !self.has_status_tabs() {
            return Cmd::None;
        }
        let count = STATUS_TABS.len();
        self.status = (self.status + if forward { 1 } else { count - 1 }) % count;
        self.load(ctx)
    }

    /// Reads the page that holds the selected link (its first place, when several).
    fn open_selected(&self) -> Option<Step> {
        let link = self.selected()?;
        let page_id = link
            .location_references
            .iter()
            .find_map(|location| location.page.clone())?;
        let node = self
            .page_index()
            .and_then(|index| index.page(&page_id))
            .cloned()
            .unwrap_or_else(|| PageNode {
                id: page_id.clone(),
                title: page_id.clone(),
                emoji: None,
                kind: "document".into(),
                hidden: false,
                path: None,
                app_url: None,
                app_url_start: None,
                link_target: None,
            });
        Some(Step::open(Route::Page {
            space: self.space.clone(),
            page: node,
            known: None,
        }))
    }
}

/// Backlinks as links: each place that links here is an item with that one location.
fn as_links(page: ListPage<ContentRef>) -> ListPage<Link> {
    ListPage {
        items: page
            .items
            .into_iter()
            .map(|location| Link {
                status: None,
                relation: None,
                target_reference: None,
                location_references: vec![location],
            })
            .collect(),
        unreadable: page.unreadable,
        next_page: page.next_page,
        count: page.count,
    }
}

impl ScreenState for LinksScreen {
    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        Cmd::batch([self.load(ctx), self.load_pages(ctx)])
    }

    fn title(&self) -> String {
        match &self.list {
            LinkList::Space => "Links".to_string(),
            LinkList::Page { title, .. } => format!("Links · {title}"),
            LinkList::PageBacklinks { title, .. } => format!("Backlinks · {title}"),
            LinkList::FileBacklinks { name, .. } => format!("Backlinks · {name}"),
        }
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        if self.has_status_tabs() {
            &[KeyContext::Tabs, KeyContext::List]
        } else {
            &[KeyContext::List]
        }
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        // A server without the operation: nothing here can ever load, so only the way out.
        if self.is_unsupported() {
            return vec![(Action::Back, "back"), (Action::Help, "keys")];
        }
        let mut hints = vec![(Action::Open, "read the page")];
        if self.has_status_tabs() {
            hints.push((Action::NextTab, "status"));
        }
        hints.extend([
            (Action::Refresh, "refresh"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]);
        hints
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.visible().len();
        let page = ctx.size.height.saturating_sub(6).max(1) as isize;
        match action {
            _ if crate::screens::step::move_selection(&mut self.selection, action, len, page) => {
                Some(Step::cmd(self.load_more(ctx)))
            }
            Action::Open => self.open_selected(),
            Action::NextTab | Action::PreviousTab if self.has_status_tabs() => Some(Step::cmd(
                self.switch_status(action == Action::NextTab, ctx),
            )),
            _ => None,
        }
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Links(response) = response else {
            return None;
        };
        match response {
            LinksResponse::Pages(result) => {
                let result = result.as_ref().map(|pages| PageIndex::new(pages));
                self.pages
                    .settle(request, result.map_err(Clone::clone))
                    .then(Step::default)
            }
            LinksResponse::Links(result) => {
                let stats = result.as_ref().ok().and_then(|page| page.stats.clone());
                let links = result.clone().map(|page| page.links);
                if !self.links.settle(request, links) {
                    return None;
                }
                self.stats = stats.or(self.stats.take());
                self.selection.clamp(self.visible().len());
                Some(Step::cmd(self.load_more(ctx)))
            }
            LinksResponse::Backlinks(result) => {
                if !self.links.settle(request, result.clone().map(as_links)) {
                    return None;
                }
                self.selection.clamp(self.visible().len());
                Some(Step::cmd(self.load_more(ctx)))
            }
        }
    }

    fn link(&self) -> Option<String> {
        let link = self.selected()?;
        let target = link.target_reference.as_ref()?;
        target.url.clone()
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}
