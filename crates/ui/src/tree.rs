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

impl VisibleRow {
    fn of<T>(index: usize, node: &TreeNode<T>, open: bool) -> VisibleRow {
        VisibleRow {
            node: index,
            depth: node.depth,
            has_children: !node.children.is_empty(),
            expanded: open && !node.children.is_empty(),
        }
    }
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

    /// Hands back the room the arena grew into while it was filled: a 10,000-page tree
    /// otherwise keeps up to twice its nodes' size (over 1 MB) for the screen's life.
    pub fn shrink_to_fit(&mut self) {
        self.nodes.shrink_to_fit();
        self.roots.shrink_to_fit();
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

    /// To replace what a node shows after an edit that does not move it.
    pub fn item_mut(&mut self, index: usize) -> Option<&mut T> {
        self.nodes.get_mut(index).map(|n| &mut n.item)
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
            rows.push(VisibleRow::of(index, node, open));
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

/// The rows a tree widget shows, kept up to date as nodes open and close and the filter
/// changes, so that a key costs what it changes on screen and not the size of the tree: moving
/// the selection touches no row, opening a node splices in only its subtree's rows, and a
/// filter keystroke narrows the previous result (backspace goes back to an earlier one).
///
/// The rows are the same as [`Tree::visible_rows`] computes from scratch for the open set and
/// the filter; the tree they belong to is passed to every call that changes them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TreeRows {
    /// Per node: whether it is open (children shown when no filter is typed).
    open: Vec<bool>,
    /// Rows of the open set without a filter.
    unfiltered: Vec<VisibleRow>,
    /// Lowercased titles, made on the first filter keystroke and kept for the tree's life.
    haystacks: Vec<String>,
    /// One result per filter typed so far, each narrowing the one below it: a longer filter
    /// searches only the last one's matches, a shorter one pops back to a result it had.
    filtered: Vec<FilterResult>,
    /// Nodes examined and rows written since the tree was loaded: what tests and benchmarks
    /// read to check that a key costs what it changes.
    work: usize,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct FilterResult {
    /// The filter, lowercased.
    query: String,
    /// Nodes whose title holds the filter, in index order.
    matches: Vec<usize>,
    rows: Vec<VisibleRow>,
}

impl TreeRows {
    /// Rows for `tree` with the nodes `is_open` says open and no filter.
    pub fn new<T>(tree: &Tree<T>, is_open: impl Fn(&TreeNode<T>) -> bool) -> TreeRows {
        let mut rows = TreeRows {
            open: tree.nodes.iter().map(is_open).collect(),
            ..TreeRows::default()
        };
        rows.rebuild_unfiltered(tree);
        rows
    }

    /// Rows as drawn now: with a filter, matches and their context; without, the open set.
    pub fn rows(&self) -> &[VisibleRow] {
        match self.filtered.last() {
            Some(result) => &result.rows,
            None => &self.unfiltered,
        }
    }

    /// See the field: a count that only grows.
    pub fn work(&self) -> usize {
        self.work
    }

    pub fn is_open(&self, node: usize) -> bool {
        self.open.get(node).copied().unwrap_or(false)
    }

    /// The keys of the open nodes, to open the same ones in a reloaded tree.
    pub fn open_keys<T: TreeItem>(&self, tree: &Tree<T>) -> HashSet<String> {
        tree.nodes()
            .filter(|(index, _)| self.is_open(*index))
            .map(|(_, node)| node.item.key())
            .collect()
    }

    /// The rows of a reloaded `tree`: the nodes open before (their [`TreeRows::open_keys`])
    /// open again, and the filter in force applied.
    pub fn reopened<T: TreeItem>(tree: &Tree<T>, keys: &HashSet<String>, filter: &str) -> TreeRows {
        let mut rows = TreeRows::new(tree, |node| keys.contains(&node.item.key()));
        rows.set_filter(tree, filter);
        rows
    }

    /// Opens or closes the node on row `row` of [`TreeRows::rows`]; without a filter, its
    /// subtree's rows come or go. With a filter the view stays as it is (every branch it shows
    /// is open) and the change shows once the filter is cleared.
    pub fn set_open<T>(&mut self, tree: &Tree<T>, row: usize, open: bool) {
        let Some(node) = self.rows().get(row).map(|row| row.node) else {
            return;
        };
        let Some(slot) = self.open.get_mut(node) else {
            return;
        };
        if *slot == open {
            return;
        }
        *slot = open;
        let position = if self.filtered.is_empty() {
            Some(row)
        } else {
            // Visible without the filter only if its ancestors are open.
            self.unfiltered.iter().position(|row| row.node == node)
        };
        if let Some(position) = position {
            self.splice_subtree(tree, position, open);
        }
    }

    pub fn toggle<T>(&mut self, tree: &Tree<T>, row: usize) {
        let Some(node) = self.rows().get(row).map(|row| row.node) else {
            return;
        };
        let open = !self.is_open(node);
        self.set_open(tree, row, open);
    }

    /// Brings the unfiltered rows in line with the node at `position` being opened or closed:
    /// its descendants' rows follow it in reading order, down to the next row no deeper.
    fn splice_subtree<T>(&mut self, tree: &Tree<T>, position: usize, open: bool) {
        let row = self.unfiltered[position];
        if !row.has_children {
            return;
        }
        self.unfiltered[position].expanded = open;
        if open {
            let subtree = self.open_rows_below(tree, row.node);
            self.unfiltered.splice(position + 1..position + 1, subtree);
        } else {
            let end = self.unfiltered[position + 1..]
                .iter()
                .position(|below| below.depth <= row.depth)
                .map_or(self.unfiltered.len(), |offset| position + 1 + offset);
            self.work += end - position - 1;
            self.unfiltered.drain(position + 1..end);
        }
    }

    pub fn open_all<T>(&mut self, tree: &Tree<T>) {
        self.open.iter_mut().for_each(|open| *open = true);
        self.rebuild_unfiltered(tree);
    }

    pub fn close_all<T>(&mut self, tree: &Tree<T>) {
        self.open.iter_mut().for_each(|open| *open = false);
        self.rebuild_unfiltered(tree);
    }

    /// Shows what matches `text` (case-insensitive substring of the title, as
    /// [`Filter::matches`](crate::input::Filter::matches)); empty shows the open set.
    pub fn set_filter<T: TreeItem>(&mut self, tree: &Tree<T>, text: &str) {
        let query = text.to_lowercase();
        if query.is_empty() {
            self.filtered.clear();
            return;
        }
        while self
            .filtered
            .last()
            .is_some_and(|result| !query.starts_with(&result.query))
        {
            self.filtered.pop();
        }
        if self
            .filtered
            .last()
            .is_some_and(|result| result.query == query)
        {
            return;
        }
        if self.haystacks.len() != tree.len() {
            self.haystacks = tree
                .nodes
                .iter()
                .map(|node| node.item.title().to_lowercase())
                .collect();
        }
        // A title holding the longer filter holds every prefix of it: only the last result's
        // matches can still match.
        let haystacks = &self.haystacks;
        let holds_query = |index: &usize| {
            haystacks
                .get(*index)
                .is_some_and(|haystack| haystack.contains(query.as_str()))
        };
        let matches: Vec<usize> = match self.filtered.last() {
            Some(narrower) => {
                self.work += narrower.matches.len();
                narrower
                    .matches
                    .iter()
                    .copied()
                    .filter(holds_query)
                    .collect()
            }
            None => {
                self.work += tree.len();
                (0..tree.len()).filter(holds_query).collect()
            }
        };
        let rows = self.filtered_rows(tree, &matches);
        self.filtered.push(FilterResult {
            query,
            matches,
            rows,
        });
    }

    /// The row of the first node that matches the filter itself (not an ancestor shown for
    /// context), so `enter` opens what was searched for; 0 without a filter.
    pub fn first_match(&self) -> usize {
        let Some(result) = self.filtered.last() else {
            return 0;
        };
        result
            .rows
            .iter()
            .position(|row| result.matches.binary_search(&row.node).is_ok())
            .unwrap_or(0)
    }

    /// `h`/`←`: close the selected node if it is open, else move to its parent.
    pub fn collapse_or_go_to_parent<T>(&mut self, tree: &Tree<T>, selected: &mut usize) {
        let Some(row) = self.rows().get(*selected).copied() else {
            return;
        };
        if row.expanded {
            self.set_open(tree, *selected, false);
            return;
        }
        let parent = tree.node(row.node).and_then(|n| n.parent);
        // The parent comes before its child in reading order.
        let rows = &self.rows()[..*selected];
        if let Some(position) = parent.and_then(|p| rows.iter().rposition(|r| r.node == p)) {
            *selected = position;
        }
    }

    fn rebuild_unfiltered<T>(&mut self, tree: &Tree<T>) {
        let mut rows = Vec::new();
        for &root in &tree.roots {
            self.push_open_subtree(tree, root, &mut rows);
        }
        self.unfiltered = rows;
    }

    /// The rows under `node` (not its own) as the open set shows them.
    fn open_rows_below<T>(&mut self, tree: &Tree<T>, node: usize) -> Vec<VisibleRow> {
        let mut rows = Vec::new();
        for &child in tree.nodes[node].children.iter() {
            self.push_open_subtree(tree, child, &mut rows);
        }
        rows
    }

    /// `node`'s row and, while open, its descendants', in reading order. A stack, not
    /// recursion: a hostile server may nest deep.
    fn push_open_subtree<T>(&mut self, tree: &Tree<T>, node: usize, rows: &mut Vec<VisibleRow>) {
        let start = rows.len();
        let mut stack = vec![node];
        while let Some(index) = stack.pop() {
            let node = &tree.nodes[index];
            let open = self.is_open(index);
            rows.push(VisibleRow::of(index, node, open));
            if open {
                stack.extend(node.children.iter().rev());
            }
        }
        self.work += rows.len() - start;
    }

    /// Matches, their ancestors (for context) and their descendants (a matching branch shows
    /// what it holds), all open; the same rows [`Tree::visible_rows`] gives for the filter,
    /// made from the matches alone instead of a pass over every node.
    fn filtered_rows<T>(&mut self, tree: &Tree<T>, matches: &[usize]) -> Vec<VisibleRow> {
        let mut keep = vec![false; tree.len()];
        let mut is_match = vec![false; tree.len()];
        for &index in matches {
            is_match[index] = true;
            let mut current = Some(index);
            while let Some(node) = current {
                if keep[node] {
                    break;
                }
                keep[node] = true;
                self.work += 1;
                current = tree.nodes[node].parent;
            }
        }
        let mut rows = Vec::new();
        // (node, whether it or an ancestor matched)
        let mut stack: Vec<(usize, bool)> = tree
            .roots
            .iter()
            .rev()
            .filter(|root| keep[**root])
            .map(|root| (*root, false))
            .collect();
        while let Some((index, inside_match)) = stack.pop() {
            let node = &tree.nodes[index];
            let inside_match = inside_match || is_match[index];
            rows.push(VisibleRow::of(index, node, true));
            let children = node.children.iter().rev();
            self.work += node.children.len();
            stack.extend(
                children
                    .filter(|child| inside_match || keep[**child])
                    .map(|child| (*child, inside_match)),
            );
        }
        rows
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

    /// A tree item for the property tests: its title is its key.
    #[derive(Debug, Clone)]
    struct Titled(String);

    impl TreeItem for Titled {
        fn key(&self) -> String {
            self.0.clone()
        }

        fn title(&self) -> &str {
            &self.0
        }
    }

    #[derive(Debug, Clone)]
    enum Op {
        Open(usize),
        Close(usize),
        Toggle(usize),
        CollapseOrGoToParent(usize),
        OpenAll,
        CloseAll,
        Type(char),
        Backspace,
        Filter(String),
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        prop_oneof![
            4 => (0..40usize).prop_map(Op::Open),
            2 => (0..40usize).prop_map(Op::Close),
            2 => (0..40usize).prop_map(Op::Toggle),
            2 => (0..40usize).prop_map(Op::CollapseOrGoToParent),
            1 => Just(Op::OpenAll),
            1 => Just(Op::CloseAll),
            3 => prop::sample::select(vec!['a', 'b', 'A', 'ß']).prop_map(Op::Type),
            2 => Just(Op::Backspace),
            1 => "[abAB]{0,3}".prop_map(Op::Filter),
        ]
    }

    /// Nodes as (parent, title): a parent anywhere before the node (so index order is not
    /// always reading order), none, or one that does not exist yet.
    fn tree_shape() -> impl proptest::strategy::Strategy<Value = Vec<(Option<usize>, String)>> {
        use proptest::prelude::*;
        prop::collection::vec((prop::option::of(0..40usize), "[abAB]{0,3}"), 0..40)
    }

    /// What the rows must be, computed from scratch as before `TreeRows` existed.
    fn expected(tree: &Tree<Titled>, open: &HashSet<usize>, filter: &str) -> Vec<VisibleRow> {
        let query = filter.to_lowercase();
        let matches = |item: &Titled| item.0.to_lowercase().contains(&query);
        if filter.is_empty() {
            tree.visible_rows(open, None)
        } else {
            tree.visible_rows(open, Some(&matches))
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 512,
            failure_persistence: None,
            ..proptest::test_runner::Config::default()
        })]

        #[test]
        fn kept_rows_always_equal_a_from_scratch_computation(
            shape in tree_shape(),
            ops in proptest::collection::vec(op(), 0..40),
        ) {
            let mut tree = Tree::default();
            for (parent, title) in shape {
                tree.push(Titled(title), parent);
            }
            let mut rows = TreeRows::new(&tree, |node| node.parent.is_none());
            let mut open: HashSet<usize> = tree
                .nodes()
                .filter(|(_, node)| node.parent.is_none())
                .map(|(index, _)| index)
                .collect();
            let mut filter = String::new();
            for op in ops {
                let shown = expected(&tree, &open, &filter);
                match op {
                    Op::Open(row) | Op::Close(row) | Op::Toggle(row) => {
                        if let Some(node) = shown.get(row).map(|r| r.node) {
                            let wanted = match op {
                                Op::Open(_) => true,
                                Op::Close(_) => false,
                                _ => !open.contains(&node),
                            };
                            if wanted { open.insert(node); } else { open.remove(&node); }
                        }
                        match op {
                            Op::Open(_) => rows.set_open(&tree, row, true),
                            Op::Close(_) => rows.set_open(&tree, row, false),
                            _ => rows.toggle(&tree, row),
                        }
                    }
                    Op::CollapseOrGoToParent(row) => {
                        let mut selected = row;
                        let mut want_selected = row;
                        let parent_position = |node: usize| {
                            let parent = tree.node(node).and_then(|n| n.parent)?;
                            shown.iter().position(|r| r.node == parent)
                        };
                        match shown.get(row) {
                            Some(r) if r.expanded => {
                                open.remove(&r.node);
                            }
                            Some(r) => want_selected = parent_position(r.node).unwrap_or(row),
                            None => {}
                        }
                        rows.collapse_or_go_to_parent(&tree, &mut selected);
                        proptest::prop_assert_eq!(selected, want_selected);
                    }
                    Op::OpenAll => {
                        open = (0..tree.len()).collect();
                        rows.open_all(&tree);
                    }
                    Op::CloseAll => {
                        open.clear();
                        rows.close_all(&tree);
                    }
                    Op::Type(c) => {
                        filter.push(c);
                        rows.set_filter(&tree, &filter);
                    }
                    Op::Backspace => {
                        filter.pop();
                        rows.set_filter(&tree, &filter);
                    }
                    Op::Filter(ref text) => {
                        filter = text.clone();
                        rows.set_filter(&tree, &filter);
                    }
                }
                let shown = expected(&tree, &open, &filter);
                proptest::prop_assert_eq!(rows.rows(), shown.as_slice(), "after {:?}", op);
                let query = filter.to_lowercase();
                let first_match = shown
                    .iter()
                    .position(|row| tree.item(row.node).is_some_and(|t| t.0.to_lowercase().contains(&query)))
                    .unwrap_or(0);
                proptest::prop_assert_eq!(rows.first_match(), first_match);
            }
        }
    }

    fn big_tree() -> Tree<Titled> {
        // 10 × 10 × 10 × 10 nodes, titled by their path.
        let mut tree = Tree::default();
        let mut level = vec![None];
        for depth in 0..4 {
            let mut next = Vec::new();
            for parent in level {
                for i in 0..10 {
                    let title = format!("n{depth}-{i}");
                    next.push(Some(tree.push(Titled(title), parent)));
                }
            }
            level = next;
        }
        tree
    }

    #[test]
    fn moving_costs_nothing_and_opening_costs_the_subtree() {
        let tree = big_tree();
        let mut rows = TreeRows::new(&tree, |_| true);
        assert_eq!(rows.rows().len(), tree.len());
        let work = rows.work();
        // Closing a top-level node removes its 1,110 descendants' rows, nothing more.
        rows.set_open(&tree, 0, false);
        assert_eq!(rows.rows().len(), tree.len() - 1_110);
        assert_eq!(rows.work() - work, 1_110);
        let work = rows.work();
        rows.set_open(&tree, 0, true);
        assert_eq!(rows.work() - work, 1_110);
        assert_eq!(
            rows.rows(),
            tree.visible_rows(&(0..tree.len()).collect(), None)
        );
    }

    #[test]
    fn a_growing_filter_narrows_and_backspace_reuses_the_earlier_result() {
        let tree = big_tree();
        let cost_from_scratch = |query: &str| {
            let mut rows = TreeRows::new(&tree, |_| false);
            let before = rows.work();
            rows.set_filter(&tree, query);
            rows.work() - before
        };
        let mut rows = TreeRows::new(&tree, |_| false);
        for typed in ["n", "n3", "n3-"] {
            rows.set_filter(&tree, typed);
        }
        let leaves = 10_000;
        let work = rows.work();
        rows.set_filter(&tree, "n3-7");
        // Only the leaves (the previous matches) are searched again, not every node.
        assert_eq!(
            rows.work() - work,
            cost_from_scratch("n3-7") - tree.len() + leaves
        );
        let work = rows.work();
        for erased in ["n3-", "n3", "n"] {
            rows.set_filter(&tree, erased);
        }
        assert_eq!(rows.work(), work, "backspace reuses what was computed");
        assert_eq!(rows.rows().len(), tree.len());
    }
}
