//! A collection opened alone: when the organization's spaces could not all be read (their list
//! failed, or stopped before it ended), opening or expanding a collection reads its own spaces
//! (`GET /collections/{id}/spaces`) and the tree shows them under it. A whole tree costs no
//! such read.

use std::collections::{HashMap, HashSet};

use super::{OrgNode, Organization, build_tree};
use crate::api::models::Space;
use crate::api::{ApiError, WholeList};
use crate::screens::step::{Ctx, Step};
use crate::ui::notice::Notice;
use crate::ui::tree::TreeRows;
use crate::vocabulary::collections::CollectionsCall;
use crate::vocabulary::{ApiCall, Cmd, Loadable, OrganizationTree, RequestId};

/// What the tree was built from, and the collections read alone since.
#[derive(Debug, Default)]
pub(super) struct CollectionSpaces {
    /// The organization's listing as it came, to build the tree again with what a collection
    /// read adds.
    listing: Option<OrganizationTree>,
    /// Collections read (or being read) alone since that listing.
    read: HashSet<String>,
    requests: HashMap<RequestId, String>,
}

impl CollectionSpaces {
    /// A new listing: what was read alone before is read again when asked.
    pub(super) fn listed(&mut self, listing: &OrganizationTree) {
        self.listing = Some(listing.clone());
        self.read.clear();
        self.requests.clear();
    }

    fn incomplete(&self) -> bool {
        self.listing.as_ref().is_some_and(|listing| {
            listing.spaces_unread.is_some() || listing.stopped_after_pages.is_some()
        })
    }
}

impl Organization {
    /// On `enter` or `l` on a collection of an incomplete tree, the first time: its spaces,
    /// read alone.
    pub(super) fn read_collection_spaces(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(OrgNode::Collection(collection)) = self.selected_node() else {
            return Cmd::None;
        };
        let id = collection.id.clone();
        let reads = &mut self.collection_spaces;
        if !reads.incomplete() || !reads.read.insert(id.clone()) {
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        reads.requests.insert(request, id.clone());
        Cmd::Api {
            request,
            call: ApiCall::Collections(CollectionsCall::Spaces { collection: id }),
        }
    }

    /// A collection's spaces came: those the tree lacked join it, under that collection,
    /// which opens. `None` when the answer is not to a read of this file.
    pub(super) fn on_collection_spaces(
        &mut self,
        request: RequestId,
        result: &Result<WholeList<Space>, ApiError>,
    ) -> Option<Step> {
        let collection = self.collection_spaces.requests.remove(&request)?;
        let spaces = match result {
            Ok(listed) => {
                if let Some(pages) = listed.stopped_after_pages() {
                    self.space_ops.notice = Some(Notice::info(format!(
                        "The collection's spaces: {}",
                        crate::ui::status::stopped_after(pages)
                    )));
                }
                &listed.items
            }
            Err(error) => {
                self.collection_spaces.read.remove(&collection);
                self.space_ops.notice = Some(Notice::error(format!(
                    "The collection's spaces could not be read: {}",
                    error.user_message()
                )));
                return Some(Step::default());
            }
        };
        let listing = self.collection_spaces.listing.as_mut()?;
        for space in spaces {
            if !listing.spaces.iter().any(|known| known.id == space.id) {
                let mut space = space.clone();
                space.parent.get_or_insert_with(|| collection.clone());
                listing.spaces.push(space);
            }
        }
        let tree = build_tree(listing);
        let mut open_keys = self
            .tree
            .value()
            .map(|old| self.tree_rows.open_keys(old))
            .unwrap_or_default();
        open_keys.insert(format!("collection:{collection}"));
        let selected = self.selected_node().map(OrgNode::key);
        self.tree_rows = TreeRows::reopened(&tree, &open_keys, &self.tree_filter.text);
        self.tree = Loadable::Loaded(tree);
        if let Some(key) = selected
            && let Some(tree) = self.tree.value()
            && let Some(row) = self
                .tree_rows
                .rows()
                .iter()
                .position(|row| tree.item(row.node).map(OrgNode::key) == Some(key.clone()))
        {
            self.tree_selection.select(row, self.tree_rows.rows().len());
        }
        Some(Step::default())
    }
}
