//! The Spaces tab's tree on the organization screen: loading the organization's collections
//! and spaces, rebuilding the tree when they come (its open nodes kept), moving through it,
//! its filter, and revealing a collection chosen in the command palette. What the tab changes
//! is in `content_ops/` (collections, moves) and `space_ops.rs` (a space).

use super::{OrgNode, Organization, Tab, build_tree};
use crate::api::ApiError;
use crate::screens::Screen;
use crate::screens::change_requests::ChangeRequestList;
use crate::screens::space::SpaceScreen;
use crate::screens::step::{Ctx, Step};
use crate::ui::keymap::Action;
use crate::ui::tree::{TreeRows, VisibleRow};
use crate::vocabulary::{ApiCall, Cmd, OrganizationTree, RequestId};

impl Organization {
    /// The tree rows as drawn now (respecting expansion and the filter).
    pub fn visible_rows(&self) -> &[VisibleRow] {
        self.tree_rows.rows()
    }

    pub fn selected_node(&self) -> Option<&OrgNode> {
        let row = self.visible_rows().get(self.tree_selection.selected)?;
        self.tree.value()?.item(row.node)
    }

    pub(super) fn load_tree(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.tree.start(request);
        Cmd::Api {
            request,
            call: ApiCall::OrganizationTree {
                organization: self.organization.id.clone(),
            },
        }
    }

    pub(super) fn on_tree_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.visible_rows().len();
        let page = ctx.size.height.saturating_sub(4).max(1) as isize;
        let index = self.tree_selection.selected;
        let selected = self.visible_rows().get(index).copied();
        let read_alone = if matches!(action, Action::Expand | Action::Open) {
            self.read_collection_spaces(ctx)
        } else {
            Cmd::None
        };
        match action {
            _ if crate::screens::step::move_selection(
                &mut self.tree_selection,
                action,
                len,
                page,
            ) => {}
            Action::Expand => {
                if let (Some(row), Some(tree)) = (selected, self.tree.value()) {
                    if row.has_children && !row.expanded {
                        self.tree_rows.set_open(tree, index, true);
                    } else if row.has_children {
                        self.tree_selection.move_by(1, len);
                    }
                }
            }
            Action::Collapse => {
                if let Some(tree) = self.tree.value() {
                    let selected = &mut self.tree_selection.selected;
                    self.tree_rows.collapse_or_go_to_parent(tree, selected);
                }
            }
            Action::ExpandAll => {
                if let Some(tree) = self.tree.value() {
                    self.tree_rows.open_all(tree);
                }
            }
            Action::CollapseAll => {
                if let Some(tree) = self.tree.value() {
                    self.tree_rows.close_all(tree);
                }
                self.tree_selection.top();
            }
            Action::ChangeRequestsOfSpace => {
                let Some(OrgNode::Space(space)) = self.selected_node() else {
                    return Some(Step::default());
                };
                return Some(Step::push(Screen::ChangeRequests(
                    ChangeRequestList::for_space(space),
                )));
            }
            Action::Open => {
                let node = self.selected_node()?.clone();
                match node {
                    OrgNode::Space(space) => {
                        return Some(Step::push(Screen::Space(SpaceScreen::new(
                            space,
                            self.organization.title.clone(),
                        ))));
                    }
                    OrgNode::Collection(_) => {
                        if let Some(tree) = self.tree.value() {
                            self.tree_rows.toggle(tree, self.tree_selection.selected);
                        }
                    }
                }
            }
            _ => return None,
        }
        Some(Step::cmd(read_alone))
    }

    /// Shows the rows for the tree filter as typed now. While it is typed, the first node that
    /// matches it (not an ancestor shown only for context) is selected, so `enter` opens what
    /// was searched for.
    pub(super) fn follow_tree_filter(&mut self, select_first_match: bool) {
        if let Some(tree) = self.tree.value() {
            self.tree_rows.set_filter(tree, &self.tree_filter.text);
        }
        if select_first_match {
            self.tree_selection.selected = self.tree_rows.first_match();
        }
    }

    /// The organization's listing came: the tree rebuilt with the same nodes open, the Trash
    /// tab's deleted spaces taken from it, and what a change asked to select selected.
    pub(super) fn on_tree_loaded(
        &mut self,
        request: RequestId,
        result: &Result<OrganizationTree, ApiError>,
        answer: crate::vocabulary::AnswerKind,
    ) -> Option<Step> {
        // A cached copy shows only where nothing is shown yet (a reload after a change waits
        // for the server's answer, which names what the change selects).
        if answer.is_provisional() && self.tree.value().is_some() {
            return None;
        }
        if let Ok(data) = result
            && self.tree.waiting_for() == Some(request)
        {
            self.trash.take_listed(&data.spaces);
        }
        let note = result.as_ref().ok().and_then(tree_note);
        if let Ok(listing) = result
            && self.tree.waiting_for() == Some(request)
        {
            self.collection_spaces.listed(listing);
        }
        let result = result.as_ref().map(build_tree).map_err(Clone::clone);
        let loaded = result.is_ok();
        let open_keys = self
            .tree
            .value()
            .map(|old| self.tree_rows.open_keys(old))
            .unwrap_or_default();
        if !self.tree.settle_as(request, result, answer) {
            return None;
        }
        self.trash.follow_listing(&self.tree);
        self.change_requests.list.space_titles = self.space_titles();
        if self.tree.error().is_none() {
            self.tree_note = note;
        }
        if loaded && let Some(tree) = self.tree.value() {
            let filter = &self.tree_filter.text;
            self.tree_rows = if open_keys.is_empty() {
                // Open the top level so the first view shows the structure.
                let mut rows = TreeRows::new(tree, |node| node.parent.is_none());
                rows.set_filter(tree, filter);
                rows
            } else {
                TreeRows::reopened(tree, &open_keys, filter)
            };
        }
        self.tree_selection.clamp(self.visible_rows().len());
        self.select_after_reload();
        self.select_pending_space();
        Some(Step::default())
    }
}

impl Organization {
    /// Shows collection `id` selected in the Spaces tab (chosen in the command palette): the
    /// filter cleared and the collections around it open.
    pub fn reveal_collection(&mut self, id: &str) {
        self.tab = Tab::Spaces;
        self.tree_filter.clear();
        let Some(tree) = self.tree.value() else {
            return;
        };
        self.tree_rows.set_filter(tree, "");
        let found = tree.nodes().find_map(|(index, node)| match &node.item {
            OrgNode::Collection(collection) if collection.id == id => Some(index),
            _ => None,
        });
        if let Some(node) = found {
            self.reveal_node(node);
        }
    }

    /// Opens the ancestors of tree node `node` and selects its row.
    pub(crate) fn reveal_node(&mut self, node: usize) {
        let Some(tree) = self.tree.value() else {
            return;
        };
        for ancestor in tree.ancestors(node).into_iter().rev() {
            let rows = self.tree_rows.rows();
            if let Some(row) = rows.iter().position(|r| r.node == ancestor) {
                self.tree_rows.set_open(tree, row, true);
            }
        }
        let rows = self.tree_rows.rows();
        if let Some(row) = rows.iter().position(|r| r.node == node) {
            self.tree_selection.select(row, rows.len());
        }
    }
}

/// What the tree cannot show, for the line under it: lists cut short or items not read.
fn tree_note(data: &OrganizationTree) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(reason) = &data.spaces_unread {
        parts.push(format!(
            "spaces not listed: opening a collection reads its own ({reason})"
        ));
    }
    if let Some(pages) = data.stopped_after_pages {
        parts.push(crate::ui::status::stopped_after(pages));
    }
    match data.unreadable.as_slice() {
        [] => {}
        [one] => parts.push(format!("could not read ({})", one.path)),
        [first, ..] => parts.push(format!(
            "could not read {} items ({}, …)",
            data.unreadable.len(),
            first.path
        )),
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

impl Organization {
    /// Space titles by id, so the organization's change requests can name their space.
    pub(super) fn space_titles(&self) -> std::collections::HashMap<String, String> {
        let Some(tree) = self.tree.value() else {
            return Default::default();
        };
        tree.nodes()
            .filter_map(|(_, node)| match &node.item {
                OrgNode::Space(space) => Some((space.id.clone(), space.title.clone())),
                OrgNode::Collection(_) => None,
            })
            .collect()
    }
}
