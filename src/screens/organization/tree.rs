//! Builds the collections-and-spaces tree from the two flat lists the API returns.

use std::collections::{HashMap, HashSet};

use crate::api::models::{Collection, Space};
use crate::ui::tree::{Tree, TreeItem};
use crate::vocabulary::OrganizationTree;

// One node per collection or space, built once per load: the size difference does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum OrgNode {
    Collection(Collection),
    Space(Space),
}

impl TreeItem for OrgNode {
    fn key(&self) -> String {
        OrgNode::key(self)
    }

    fn title(&self) -> &str {
        OrgNode::title(self)
    }
}

impl OrgNode {
    /// Stable across reloads, unique across both kinds.
    pub fn key(&self) -> String {
        match self {
            OrgNode::Collection(c) => format!("collection:{}", c.id),
            OrgNode::Space(s) => format!("space:{}", s.id),
        }
    }

    pub fn title(&self) -> &str {
        match self {
            OrgNode::Collection(c) => &c.title,
            OrgNode::Space(s) => &s.title,
        }
    }

    pub fn app_url(&self) -> Option<String> {
        let urls = match self {
            OrgNode::Collection(c) => &c.urls,
            OrgNode::Space(s) => &s.urls,
        };
        urls.app.clone().or_else(|| urls.location.clone())
    }
}

/// Nesting shown as such; anything deeper is listed at the top level.
const MAX_DEPTH: usize = 32;

/// Collections first, then spaces, at every level, in the server's order. A collection whose
/// parent is unknown (or that sits in a cycle) is shown at the top level rather than lost.
pub fn build_tree(data: &OrganizationTree) -> Tree<OrgNode> {
    let known: HashSet<&str> = data.collections.iter().map(|c| c.id.as_str()).collect();
    let mut child_collections: HashMap<Option<&str>, Vec<&Collection>> = HashMap::new();
    for collection in &data.collections {
        let parent = collection
            .parent
            .as_deref()
            .filter(|p| known.contains(p) && *p != collection.id);
        child_collections
            .entry(parent)
            .or_default()
            .push(collection);
    }
    let mut child_spaces: HashMap<Option<&str>, Vec<&Space>> = HashMap::new();
    // Deleted spaces (listed with `deletedAt`) belong to the Trash tab, not the tree.
    for space in data
        .spaces
        .iter()
        .filter(|space| space.deleted_at.is_none())
    {
        let parent = space.parent.as_deref().filter(|p| known.contains(p));
        child_spaces.entry(parent).or_default().push(space);
    }

    let mut tree = Tree::default();
    let mut placed: HashSet<&str> = HashSet::new();
    add_level(
        &mut tree,
        None,
        None,
        &child_collections,
        &child_spaces,
        &mut placed,
        0,
    );
    // Collections only reachable through a cycle, or nested deeper than shown: at the top
    // level with their spaces, rather than lost.
    for collection in &data.collections {
        if placed.insert(collection.id.as_str()) {
            let node = tree.push(OrgNode::Collection(collection.clone()), None);
            for space in child_spaces
                .get(&Some(collection.id.as_str()))
                .into_iter()
                .flatten()
            {
                tree.push(OrgNode::Space((*space).clone()), Some(node));
            }
        }
    }
    tree
}

fn add_level<'a>(
    tree: &mut Tree<OrgNode>,
    parent_id: Option<&'a str>,
    parent_node: Option<usize>,
    child_collections: &HashMap<Option<&'a str>, Vec<&'a Collection>>,
    child_spaces: &HashMap<Option<&'a str>, Vec<&'a Space>>,
    placed: &mut HashSet<&'a str>,
    depth: usize,
) {
    // A hostile server could nest collections thousands deep; deeper ones are left for the
    // catch-all below, which shows them at the top level, instead of recursing without end.
    if depth > MAX_DEPTH {
        return;
    }
    for collection in child_collections.get(&parent_id).into_iter().flatten() {
        if !placed.insert(collection.id.as_str()) {
            continue;
        }
        let node = tree.push(OrgNode::Collection((*collection).clone()), parent_node);
        add_level(
            tree,
            Some(collection.id.as_str()),
            Some(node),
            child_collections,
            child_spaces,
            placed,
            depth + 1,
        );
    }
    for space in child_spaces.get(&parent_id).into_iter().flatten() {
        tree.push(OrgNode::Space((*space).clone()), parent_node);
    }
}
