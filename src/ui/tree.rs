//! A UI-free tree model: nodes in an arena, an expanded set, and the flattened list of visible
//! rows a widget paints. Used for collections/spaces and for page trees.

use std::collections::HashSet;

#[derive(Debug, Clone, PartialEq)]
pub struct TreeNode<T> {
    pub item: T,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    pub depth: usize,
}

/// One row as drawn: which node, how deep, and whether it can open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VisibleRow {
    pub node: usize,
    pub depth: usize,
    pub has_children: bool,
    pub expanded: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Tree<T> {
    nodes: Vec<TreeNode<T>>,
    roots: Vec<usize>,
}

impl<T> Default for Tree<T> {
    fn default() -> Self {
        Tree {
            nodes: Vec::new(),
            roots: Vec::new(),
        }
    }
}

impl<T> Tree<T> {
    /// Adds a node under `parent` (or as a root) and returns its index.
    pub fn push(&mut self, item: T, parent: Option<usize>) -> usize {
        let index = self.nodes.len();
        let depth = parent
            .and_then(|p| self.nodes.get(p))
            .map_or(0, |p| p.depth + 1);
        let parent = parent.filter(|p| *p < index);
        self.nodes.push(TreeNode {
            item,
            parent,
            children: Vec::new(),
            depth,
        });
        match parent {
            Some(p) => self.nodes[p].children.push(index),
            None => self.roots.push(index),
        }
        index
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, index: usize) -> Option<&TreeNode<T>> {
        self.nodes.get(index)
    }

    pub fn item(&self, index: usize) -> Option<&T> {
        self.nodes.get(index).map(|n| &n.item)
    }

    pub fn nodes(&self) -> impl Iterator<Item = (usize, &TreeNode<T>)> {
        self.nodes.iter().enumerate()
    }

    pub fn ancestors(&self, index: usize) -> Vec<usize> {
        let mut chain = Vec::new();
        let mut current = self.nodes.get(index).and_then(|n| n.parent);
        while let Some(parent) = current {
            // Parents always come before their children (see `push`), so the chain can never
            // be longer than the index; that bound also stops a cycle.
            if chain.len() > index {
                break;
            }
            chain.push(parent);
            current = self.nodes.get(parent).and_then(|n| n.parent);
        }
        chain
    }

    /// Rows in reading order. Children show when their parent is expanded. With a filter, a
    /// node shows when it matches, sits inside a match (a matching collection shows what it
    /// holds) or has a matching descendant; matching branches open.
    pub fn visible_rows(
        &self,
        expanded: &HashSet<usize>,
        matches: Option<&dyn Fn(&T) -> bool>,
    ) -> Vec<VisibleRow> {
        let keep = matches.map(|predicate| self.nodes_to_keep(predicate));
        let mut rows = Vec::new();
        let mut stack: Vec<usize> = self.roots.iter().rev().copied().collect();
        while let Some(index) = stack.pop() {
            if keep.as_ref().is_some_and(|keep| !keep[index]) {
                continue;
            }
            let node = &self.nodes[index];
            let open = keep.is_some() || expanded.contains(&index);
            rows.push(VisibleRow {
                node: index,
                depth: node.depth,
                has_children: !node.children.is_empty(),
                expanded: open && !node.children.is_empty(),
            });
            if open {
                stack.extend(node.children.iter().rev());
            }
        }
        rows
    }

    fn nodes_to_keep(&self, predicate: &dyn Fn(&T) -> bool) -> Vec<bool> {
        let mut keep = vec![false; self.nodes.len()];
        // Parents come before their children (see `push`), so one pass in index order knows
        // whether a node's parent is inside a match.
        let mut inside_match = vec![false; self.nodes.len()];
        for (index, node) in self.nodes.iter().enumerate() {
            let parent_inside = node.parent.is_some_and(|parent| inside_match[parent]);
            if predicate(&node.item) {
                inside_match[index] = true;
                keep[index] = true;
                for ancestor in self.ancestors(index) {
                    if keep[ancestor] {
                        break;
                    }
                    keep[ancestor] = true;
                }
            } else if parent_inside {
                inside_match[index] = true;
                keep[index] = true;
            }
        }
        keep
    }
}

/// What a screen's tree needs to know of its items: a key that survives reloads (for the set
/// of open nodes) and the title the `/` filter matches.
pub trait TreeItem {
    fn key(&self) -> String;
    fn title(&self) -> &str;
}

/// The rows shown for `expanded` keys and a filter: with a filter, matches and their ancestors.
pub fn rows_for<T: TreeItem>(
    tree: &Tree<T>,
    expanded: &HashSet<String>,
    filter: &crate::ui::input::Filter,
) -> Vec<VisibleRow> {
    let open: HashSet<usize> = tree
        .nodes()
        .filter(|(_, node)| expanded.contains(&node.item.key()))
        .map(|(index, _)| index)
        .collect();
    if filter.text.is_empty() {
        tree.visible_rows(&open, None)
    } else {
        let matches = |item: &T| filter.matches(item.title());
        tree.visible_rows(&open, Some(&matches))
    }
}

/// The row of the first item that matches the filter itself (not an ancestor shown for
/// context), so `enter` opens what was searched for.
pub fn first_match<T: TreeItem>(
    tree: &Tree<T>,
    rows: &[VisibleRow],
    filter: &crate::ui::input::Filter,
) -> usize {
    rows.iter()
        .position(|row| {
            tree.item(row.node)
                .is_some_and(|item| filter.matches(item.title()))
        })
        .unwrap_or(0)
}

/// `h`/`←`: close the selected node if it is open, else move to its parent.
pub fn collapse_or_go_to_parent<T: TreeItem>(
    tree: &Tree<T>,
    rows: &[VisibleRow],
    selected: &mut usize,
    expanded: &mut HashSet<String>,
) {
    let Some(row) = rows.get(*selected).copied() else {
        return;
    };
    if row.expanded {
        if let Some(item) = tree.item(row.node) {
            expanded.remove(&item.key());
        }
        return;
    }
    let parent = tree.node(row.node).and_then(|n| n.parent);
    if let Some(position) = parent.and_then(|p| rows.iter().position(|r| r.node == p)) {
        *selected = position;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Tree<&'static str> {
        let mut tree = Tree::default();
        let guides = tree.push("Guides", None);
        let install = tree.push("Install", Some(guides));
        tree.push("Linux", Some(install));
        tree.push("API", None);
        tree
    }

    fn titles(tree: &Tree<&'static str>, rows: &[VisibleRow]) -> Vec<&'static str> {
        rows.iter().map(|r| *tree.item(r.node).unwrap()).collect()
    }

    #[test]
    fn collapsed_tree_shows_only_roots() {
        let tree = sample();
        let rows = tree.visible_rows(&HashSet::new(), None);
        assert_eq!(titles(&tree, &rows), ["Guides", "API"]);
        assert!(rows[0].has_children && !rows[0].expanded);
    }

    #[test]
    fn expanding_shows_children_in_order() {
        let tree = sample();
        let rows = tree.visible_rows(&HashSet::from([0, 1]), None);
        assert_eq!(titles(&tree, &rows), ["Guides", "Install", "Linux", "API"]);
        assert_eq!(rows[2].depth, 2);
    }

    #[test]
    fn a_matching_branch_shows_what_it_holds() {
        let tree = sample();
        let matches = |title: &&str| title.contains("Guid");
        let rows = tree.visible_rows(&HashSet::new(), Some(&matches));
        assert_eq!(titles(&tree, &rows), ["Guides", "Install", "Linux"]);
    }

    #[test]
    fn a_filter_keeps_matches_and_their_ancestors_open() {
        let tree = sample();
        let matches = |title: &&str| title.contains("Lin");
        let rows = tree.visible_rows(&HashSet::new(), Some(&matches));
        assert_eq!(titles(&tree, &rows), ["Guides", "Install", "Linux"]);
    }
}
