//! A change request's content as a page tree: the base with the edits applied, the semantic
//! changes between two trees, and whether the edits still apply cleanly to a newer main.

use std::collections::{HashMap, HashSet};

use crate::model::{Page, PageKind};
use crate::render::slugify;

use super::model::PageEdit;

/// `pages` with `edits` applied in order; pages touched get `stamp` as their update time.
/// Edits whose page no longer exists are skipped (creating an id that exists is skipped too),
/// so applying is total and a merged change request can be re-applied without duplicates.
pub(crate) fn apply(pages: &[Page], edits: &[PageEdit], stamp: &str) -> Vec<Page> {
    let mut tree = pages.to_vec();
    for edit in edits {
        match edit {
            PageEdit::Edit {
                page,
                title,
                markdown,
            } => {
                if let Some(target) = find_mut(&mut tree, page) {
                    if let Some(title) = title {
                        target.title = title.clone();
                        target.slug = slugify(title);
                    }
                    if let (Some(markdown), PageKind::Document { markdown: current }) =
                        (markdown, &mut target.kind)
                    {
                        *current = markdown.clone();
                    }
                    target.updated_at = stamp.to_string();
                }
            }
            PageEdit::Create {
                page,
                parent,
                index,
            } => {
                if find(&tree, &page.id).is_none() {
                    insert(&mut tree, parent.as_deref(), *index, page.as_ref().clone());
                }
            }
            PageEdit::Delete { page } => {
                take(&mut tree, page);
            }
            PageEdit::Move {
                page,
                parent,
                index,
            } => {
                let parent_exists = parent
                    .as_deref()
                    .is_none_or(|parent| find(&tree, parent).is_some());
                if parent_exists && let Some(mut moved) = take(&mut tree, page) {
                    moved.updated_at = stamp.to_string();
                    insert(&mut tree, parent.as_deref(), *index, moved);
                }
            }
        }
    }
    recompute_paths(&mut tree, "");
    tree
}

/// The ids of pages that both the change request and main changed since the base: the edits
/// that cannot be applied to `main` without overwriting someone's work.
pub(crate) fn conflicts(base: &[Page], main: &[Page], edits: &[PageEdit]) -> Vec<String> {
    let mut conflicting = Vec::new();
    for edit in edits {
        let touched = match edit {
            PageEdit::Edit { page, .. } => Some(page),
            PageEdit::Delete { page } | PageEdit::Move { page, .. } => Some(page),
            PageEdit::Create { .. } => None,
        };
        let Some(page) = touched else { continue };
        let before = find(base, page);
        let now = find(main, page);
        let changed_in_main = match (before, now) {
            (Some(before), Some(now)) => {
                markdown_of(before) != markdown_of(now) || before.title != now.title
            }
            (Some(_), None) => true,
            _ => false,
        };
        if changed_in_main && !conflicting.contains(page) {
            conflicting.push(page.clone());
        }
    }
    conflicting
}

/// One semantic change between two trees.
#[derive(Clone, Debug)]
pub(crate) enum Change<'a> {
    Created(&'a Page),
    Edited {
        before: &'a Page,
        after: &'a Page,
    },
    Moved {
        page: &'a Page,
        parent_before: Option<&'a Page>,
        parent_after: Option<&'a Page>,
    },
    Deleted(&'a Page),
}

/// Changes from `before` to `after`: created, edited and moved pages in the order of the new
/// tree, then deleted pages in the order of the old one. A page both moved and edited yields
/// both changes.
pub(crate) fn changes<'a>(before: &'a [Page], after: &'a [Page]) -> Vec<Change<'a>> {
    let old = with_parents(before);
    let new = with_parents(after);
    // By id: the big demo's trees have 10,000 pages, too many to search one by one.
    let old_by_id: HashMap<&str, &(&Page, Option<&Page>)> = old
        .iter()
        .map(|entry| (entry.0.id.as_str(), entry))
        .collect();
    let new_ids: HashSet<&str> = new.iter().map(|(page, _)| page.id.as_str()).collect();
    let mut list = Vec::new();
    for (page, parent) in &new {
        match old_by_id.get(page.id.as_str()) {
            None => list.push(Change::Created(page)),
            Some((previous, previous_parent)) => {
                if markdown_of(previous) != markdown_of(page) || previous.title != page.title {
                    list.push(Change::Edited {
                        before: previous,
                        after: page,
                    });
                }
                let parent_id = parent.map(|parent| parent.id.as_str());
                let previous_parent_id = previous_parent.map(|parent| parent.id.as_str());
                if parent_id != previous_parent_id {
                    list.push(Change::Moved {
                        page,
                        parent_before: *previous_parent,
                        parent_after: *parent,
                    });
                }
            }
        }
    }
    for (page, _) in &old {
        if !new_ids.contains(page.id.as_str()) {
            list.push(Change::Deleted(page));
        }
    }
    list
}

pub(crate) fn markdown_of(page: &Page) -> Option<&str> {
    match &page.kind {
        PageKind::Document { markdown } => Some(markdown),
        _ => None,
    }
}

pub(crate) fn find<'a>(pages: &'a [Page], id: &str) -> Option<&'a Page> {
    pages.iter().find_map(|page| {
        if page.id == id {
            Some(page)
        } else {
            find(&page.children, id)
        }
    })
}

fn find_mut<'a>(pages: &'a mut [Page], id: &str) -> Option<&'a mut Page> {
    for page in pages.iter_mut() {
        if page.id == id {
            return Some(page);
        }
        if let Some(found) = find_mut(&mut page.children, id) {
            return Some(found);
        }
    }
    None
}

/// Removes a page (with its subtree) from wherever it is and hands it back.
fn take(pages: &mut Vec<Page>, id: &str) -> Option<Page> {
    if let Some(position) = pages.iter().position(|page| page.id == id) {
        return Some(pages.remove(position));
    }
    pages
        .iter_mut()
        .find_map(|page| take(&mut page.children, id))
}

/// Inserts under `parent` (top level when `None` or when the parent is gone), clamping the index.
fn insert(pages: &mut Vec<Page>, parent: Option<&str>, index: usize, page: Page) {
    let siblings = match parent.and_then(|parent| find_mut(pages, parent)) {
        Some(parent) => &mut parent.children,
        None => pages,
    };
    let index = index.min(siblings.len());
    siblings.insert(index, page);
}

/// Paths as the demo builds them: a page's path extends its parent's, except that groups do not
/// contribute to their children's paths.
pub(crate) fn recompute_paths(pages: &mut [Page], parent_path: &str) {
    for page in pages {
        page.path = if parent_path.is_empty() {
            page.slug.clone()
        } else {
            format!("{parent_path}/{}", page.slug)
        };
        let children_parent = match page.kind {
            PageKind::Group => parent_path.to_string(),
            _ => page.path.clone(),
        };
        recompute_paths(&mut page.children, &children_parent);
    }
}

fn with_parents(pages: &[Page]) -> Vec<(&Page, Option<&Page>)> {
    let mut flat = Vec::new();
    collect(pages, None, &mut flat);
    flat
}

fn collect<'a>(
    pages: &'a [Page],
    parent: Option<&'a Page>,
    flat: &mut Vec<(&'a Page, Option<&'a Page>)>,
) {
    for page in pages {
        flat.push((page, parent));
        collect(&page.children, Some(page), flat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo;

    fn tree() -> Vec<Page> {
        let mut pages = vec![
            demo::group(
                "g",
                "Group",
                vec![
                    demo::document("a", "Alpha", "alpha"),
                    demo::document("b", "Beta", "beta"),
                ],
            ),
            demo::document("c", "Gamma", "gamma"),
        ];
        demo::finish_tree(&mut pages, 0);
        pages
    }

    fn edit(page: &str, markdown: &str) -> PageEdit {
        PageEdit::Edit {
            page: page.to_string(),
            title: None,
            markdown: Some(markdown.to_string()),
        }
    }

    #[test]
    fn every_kind_of_change_is_seen() {
        let base = tree();
        let edits = vec![
            edit("a", "ALPHA"),
            PageEdit::Create {
                page: Box::new(demo::document("d", "Delta", "delta")),
                parent: Some("c".to_string()),
                index: 0,
            },
            PageEdit::Delete {
                page: "b".to_string(),
            },
            PageEdit::Move {
                page: "c".to_string(),
                parent: Some("g".to_string()),
                index: 9,
            },
        ];
        let after = apply(&base, &edits, "now");
        assert_eq!(
            find(&after, "d").map(|page| page.path.as_str()),
            Some("gamma/delta")
        );
        let kinds: Vec<String> = changes(&base, &after)
            .iter()
            .map(|change| match change {
                Change::Created(page) => format!("created {}", page.id),
                Change::Edited { after, .. } => format!("edited {}", after.id),
                Change::Moved { page, .. } => format!("moved {}", page.id),
                Change::Deleted(page) => format!("deleted {}", page.id),
            })
            .collect();
        assert_eq!(kinds, ["edited a", "moved c", "created d", "deleted b"]);
        // Applying again (as a merge into a main that already has it) changes nothing more.
        let again = apply(&after, &edits, "later");
        assert!(changes(&after, &again).is_empty());
    }

    #[test]
    fn conflicts_only_where_both_sides_changed() {
        let base = tree();
        let main = apply(&base, &[edit("b", "main's beta")], "t");
        assert!(conflicts(&base, &main, &[edit("a", "mine")]).is_empty());
        assert_eq!(conflicts(&base, &main, &[edit("b", "mine")]), ["b"]);
        let gone = apply(&base, &[PageEdit::Delete { page: "a".into() }], "t");
        assert_eq!(conflicts(&base, &gone, &[edit("a", "mine")]), ["a"]);
    }
}
