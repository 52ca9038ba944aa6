//! The page tree read straight from `GET /spaces/{id}/content/pages`.
//!
//! A big space's answer holds every page with all its fields; decoded into typed pages first,
//! 10,000 of them took 13.7 MB (and the 7 MB answer beside them) only to be copied into the
//! tree and dropped. [`PageTreeSeed`] reads the answer once and keeps, for each page, only what
//! the tree shows: the other fields are skipped without being stored.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, Error, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{PageNode, kind_name};
use crate::tree::Tree;
use quire_api::models::PageType;

/// Pages nested deeper than this keep no children, so a hostile server cannot make the tree
/// arbitrarily deep (the same cap as [`super::build_page_tree`]).
pub const MAX_DEPTH: usize = 32;

/// Reads `{"pages": [...]}` into the tree, children in answer order under their parent.
#[derive(Debug, Clone, Copy, Default)]
pub struct PageTreeSeed;

impl<'de> DeserializeSeed<'de> for PageTreeSeed {
    type Value = Tree<PageNode>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(AnswerVisitor)
    }
}

struct AnswerVisitor;

impl<'de> Visitor<'de> for AnswerVisitor {
    type Value = Tree<PageNode>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object with the space's pages")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut building = Building::default();
        while let Some(field) = map.next_key::<AnswerField>()? {
            match field {
                AnswerField::Pages => map.next_value_seed(Children {
                    tree: &mut building,
                    parent: None,
                    depth: 0,
                })?,
                AnswerField::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let mut tree = building.tree;
        tree.shrink_to_fit();
        Ok(tree)
    }
}

/// The tree being read, and the start most of its pages' web addresses share.
#[derive(Default)]
struct Building {
    tree: Tree<PageNode>,
    app_url_start: Option<Arc<str>>,
}

impl Building {
    /// Keeps a page's web address: as the shared start when it is that start then the page's
    /// path (the space's address: 10,000 pages keep one copy), else whole.
    fn keep_app_url(&mut self, node: &mut PageNode, url: Option<Cow<'_, str>>) {
        let Some(url) = url else { return };
        let start = node
            .path
            .as_deref()
            .filter(|path| !path.is_empty())
            .and_then(|path| url.strip_suffix(path));
        if let Some(start) = start {
            match &self.app_url_start {
                Some(shared) if **shared == *start => {
                    node.app_url_start = Some(Arc::clone(shared));
                    return;
                }
                None => {
                    let shared: Arc<str> = Arc::from(start);
                    node.app_url_start = Some(Arc::clone(&shared));
                    self.app_url_start = Some(shared);
                    return;
                }
                Some(_) => {}
            }
        }
        node.app_url = Some(url.into_owned());
    }
}

#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "camelCase")]
enum AnswerField {
    Pages,
    #[serde(other)]
    Other,
}

/// A list of pages (or `null`, read as none) at `depth`, each added under `parent`.
struct Children<'t> {
    tree: &'t mut Building,
    parent: Option<usize>,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for Children<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for Children<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a list of pages")
    }

    fn visit_none<E: Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut pages: A) -> Result<(), A::Error> {
        while pages
            .next_element_seed(OnePage {
                tree: &mut *self.tree,
                parent: self.parent,
                depth: self.depth,
            })?
            .is_some()
        {}
        Ok(())
    }
}

/// One page: added to the tree when its object opens, so its children (which may come before
/// its title in the answer) find their parent; its fields are filled in as they are read.
struct OnePage<'t> {
    tree: &'t mut Building,
    parent: Option<usize>,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for OnePage<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "camelCase")]
enum PageField {
    Id,
    Title,
    Type,
    Emoji,
    Hidden,
    Path,
    Href,
    Urls,
    Pages,
    #[serde(other)]
    Other,
}

/// Of a page's `urls`, only the web app address (borrowed from the answer where it can be:
/// most are kept as the shared start, see [`Building::keep_app_url`]).
#[derive(Deserialize, Default)]
struct AppUrl<'a> {
    #[serde(default, borrow)]
    app: Option<Cow<'a, str>>,
}

impl<'de> Visitor<'de> for OnePage<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a page")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut fields: A) -> Result<(), A::Error> {
        let index = self.tree.tree.push(PageNode::default(), self.parent);
        let mut node = PageNode::default();
        let mut app_url = None;
        let mut has_id = false;
        while let Some(field) = fields.next_key::<PageField>()? {
            match field {
                PageField::Id => {
                    node.id = fields.next_value()?;
                    has_id = true;
                }
                PageField::Title => {
                    node.title = fields.next_value::<Option<String>>()?.unwrap_or_default();
                }
                PageField::Type => {
                    node.kind = kind_name(fields.next_value::<Option<PageType>>()?.as_ref())
                }
                PageField::Emoji => node.emoji = fields.next_value()?,
                PageField::Hidden => {
                    node.hidden = fields.next_value::<Option<bool>>()?.unwrap_or_default();
                }
                PageField::Path => node.path = fields.next_value()?,
                PageField::Href => node.link_target = fields.next_value()?,
                PageField::Urls => {
                    app_url = fields
                        .next_value::<Option<AppUrl<'de>>>()?
                        .unwrap_or_default()
                        .app;
                }
                PageField::Pages if self.depth < MAX_DEPTH => {
                    fields.next_value_seed(Children {
                        tree: &mut *self.tree,
                        parent: Some(index),
                        depth: self.depth + 1,
                    })?;
                }
                PageField::Pages | PageField::Other => {
                    fields.next_value::<IgnoredAny>()?;
                }
            }
        }
        if !has_id {
            return Err(A::Error::missing_field("id"));
        }
        self.tree.keep_app_url(&mut node, app_url);
        if let Some(slot) = self.tree.tree.item_mut(index) {
            *slot = node;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::page_tree::build_page_tree;
    use quire_api::client::decode_body_with;
    use quire_api::models::Page;

    fn read(answer: &Value) -> Result<Tree<PageNode>, quire_api::ApiError> {
        let bytes = serde_json::to_vec(answer).unwrap();
        decode_body_with("GET /spaces/s/content/pages", &bytes, PageTreeSeed)
    }

    fn typed(answer: &Value) -> Tree<PageNode> {
        let pages: Vec<Page> = serde_json::from_value(answer["pages"].clone()).unwrap();
        build_page_tree(&pages)
    }

    #[test]
    fn every_field_the_tree_shows_is_read_in_any_order() {
        let answer = json!({
            "object": "list",
            "pages": [
                {
                    // Children before the page's own fields: they still land under it.
                    "pages": [
                        {"id": "child", "title": "Child", "type": "document", "hidden": true,
                         "path": "guide/child", "urls": {"app": "https://app/child", "location": "x"}},
                        {"id": "link", "title": "Out", "type": "link", "href": "https://example.com",
                         "pages": null}
                    ],
                    "id": "guide", "title": "Guide", "type": "group", "emoji": "📘",
                    "description": "skipped", "createdAt": "2026-01-01", "git": {"oid": "a"}
                },
                {"id": "odd", "title": null, "type": "some-future-kind", "hidden": null},
                {"id": "plain", "title": "Plain", "markdown": "# not kept", "computed": {"a": [1]}}
            ]
        });
        let tree = read(&answer).unwrap();
        assert!(tree == typed(&answer), "{tree:?}");
        let titles: Vec<&str> = tree
            .nodes()
            .map(|(_, node)| node.item.title.as_str())
            .collect();
        assert_eq!(titles, ["Guide", "Child", "Out", "", "Plain"]);
        let child = &tree.nodes().nth(1).unwrap().1;
        assert_eq!(child.parent, Some(0));
        assert_eq!(child.item.app_link().as_deref(), Some("https://app/child"));
        assert_eq!(tree.nodes().nth(3).unwrap().1.item.kind, "some-future-kind");
    }

    /// A space's pages' web addresses are its own address then each page's path: the tree
    /// keeps that start once, and an address of another shape (or an escaped one) whole.
    #[test]
    fn web_addresses_share_the_space_address() {
        let space = "https://app.example/o/org/s/space/";
        let answer = json!({"pages": [
            {"id": "a", "title": "A", "path": "a", "urls": {"app": format!("{space}a")},
             "pages": [{"id": "b", "title": "B", "path": "a/b", "urls": {"app": format!("{space}a/b")}}]},
            {"id": "c", "title": "C", "path": "c", "urls": {"app": "https://elsewhere.example/c"}},
            // Written with escapes, so read into a string of its own rather than borrowed.
            {"id": "d", "title": "D", "path": "d\"q", "urls": {"app": format!("{space}d\"q")}},
            {"id": "e", "title": "E", "urls": {"app": format!("{space}e")}},
            {"id": "f", "title": "F", "path": "f"}
        ]});
        let tree = read(&answer).unwrap();
        assert!(tree == typed(&answer), "{tree:?}");
        let pages: Vec<&PageNode> = tree.nodes().map(|(_, node)| &node.item).collect();
        let links: Vec<Option<String>> = pages.iter().map(|page| page.app_link()).collect();
        assert_eq!(
            links,
            [
                Some(format!("{space}a")),
                Some(format!("{space}a/b")),
                Some("https://elsewhere.example/c".to_string()),
                Some(format!("{space}d\"q")),
                Some(format!("{space}e")),
                None,
            ]
        );
        // a, b and d share one start; c and e keep their own address.
        let start = pages[0].app_url_start.as_ref().expect("a shared start");
        assert!(pages[0].app_url.is_none() && pages[1].app_url.is_none());
        assert!(Arc::ptr_eq(start, pages[1].app_url_start.as_ref().unwrap()));
        assert!(Arc::ptr_eq(start, pages[3].app_url_start.as_ref().unwrap()));
        assert!(pages[2].app_url.is_some() && pages[4].app_url.is_some());
    }

    #[test]
    fn nesting_past_the_cap_keeps_no_children() {
        let mut page = json!({"id": "deepest", "title": "deepest"});
        for level in 0..40 {
            page = json!({"id": format!("p{level}"), "title": "t", "pages": [page]});
        }
        let answer = json!({"pages": [page]});
        let tree = read(&answer).unwrap();
        assert_eq!(tree.len(), MAX_DEPTH + 1);
        assert!(tree == typed(&answer));
    }

    #[test]
    fn a_page_without_an_id_or_a_wrong_field_names_where() {
        let missing = read(&json!({"pages": [{"id": "a", "pages": [{"title": "no id"}]}]}));
        let quire_api::ApiError::Decode { path, message, .. } = missing.unwrap_err() else {
            panic!("a decode error")
        };
        assert!(message.contains("missing field `id`"), "{message}");
        assert_eq!(path, "pages[0].pages[0]");
        let wrong = read(&json!({"pages": [{"id": "a", "title": 7}]}));
        let quire_api::ApiError::Decode { path, .. } = wrong.unwrap_err() else {
            panic!("a decode error")
        };
        assert_eq!(path, "pages[0].title");
    }

    #[test]
    fn no_pages_or_null_pages_is_an_empty_tree() {
        assert_eq!(read(&json!({})).unwrap().len(), 0);
        assert_eq!(read(&json!({"pages": null})).unwrap().len(), 0);
        let cut = decode_body_with("GET /x", br#"{"pages": [{"id": "a""#, PageTreeSeed);
        assert!(
            matches!(cut, Err(quire_api::ApiError::CutOff { .. })),
            "{cut:?}"
        );
    }
}
