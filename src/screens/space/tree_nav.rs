//! The page tree: loading it, moving through it and filtering it, and opening what is selected
//! (a page, or search, links, files for the space).

use super::{PageNode, SpaceScreen};
use crate::api::ContentSource;
use crate::screens::route::Route;
use crate::screens::step::{Ctx, Step};
use crate::ui::keymap::Action;
use crate::ui::tree::{Tree, TreeRows};
use crate::vocabulary::links::LinkList;
use crate::vocabulary::search::SearchScope;
use crate::vocabulary::{ApiCall, Cmd, RequestId};

impl SpaceScreen {
    /// The page tree arrived (or failed): keeps the branches the user had open on a reload,
    /// opens the first groups on the first load, and previews the selection.
    pub(super) fn on_page_tree(
        &mut self,
        request: RequestId,
        result: Result<Tree<PageNode>, crate::api::ApiError>,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        let loaded = result.is_ok();
        let first_load = self.pages.value().is_none();
        let open_keys = self.pages.value().map(|old| self.rows.open_keys(old));
        if !self.pages.settle_as(request, result, ctx.answer) {
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

    pub(super) fn load_pages(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.pages.start(request);
        Cmd::Api {
            request,
            call: ApiCall::ListPages {
                space: self.space.id.clone(),
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

    pub(super) fn on_tree_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.visible_rows().len();
        let page = ctx.size.height.saturating_sub(4).max(1) as isize;
        let selected = self.selection.selected;
        let row = self.visible_rows().get(selected).copied();
        match action {
            _ if crate::screens::step::move_selection(&mut self.selection, action, len, page) => {}
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
        Some(Step::open(Route::Page {
            space: self.space.clone(),
            page,
            known,
        }))
    }

    /// Search, the links report, the files, or what links to the selected page.
    pub(super) fn find_things(&self, action: Action) -> Step {
        let source = ContentSource::Space(self.space.id.clone());
        let route = match action {
            Action::SearchContent => Route::Search(SearchScope::Space {
                id: self.space.id.clone(),
                title: self.space.title.clone(),
            }),
            Action::Files => Route::Files {
                source,
                space: self.space.clone(),
                owner: self.space.title.clone(),
            },
            Action::Backlinks => {
                let Some(page) = self.selected_page() else {
                    return Step::default();
                };
                let list = LinkList::PageBacklinks {
                    id: page.id.clone(),
                    title: page.title.clone(),
                };
                Route::Links {
                    source,
                    space: self.space.clone(),
                    list,
                }
            }
            _ => Route::Links {
                source,
                space: self.space.clone(),
                list: LinkList::Space,
            },
        };
        Step::open(route)
    }

    /// Shows the rows for the filter as typed now; while it is typed, the first page that
    /// matches it is selected.
    pub(super) fn follow_filter(&mut self, select_first_match: bool) {
        if let Some(tree) = self.pages.value() {
            self.rows.set_filter(tree, &self.filter.text);
        }
        if select_first_match {
            self.selection.selected = self.rows.first_match();
        }
    }
}
