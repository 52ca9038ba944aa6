//! One page as the space's tree shows it, and the page tree built from the API's pages.

use std::sync::Arc;

use crate::tree::{Tree, TreeItem};
use quire_api::models::{Page, PageType};

mod decode;

pub use decode::{MAX_DEPTH, PageTreeSeed};

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
pub(crate) fn kind_name(page_type: Option<&PageType>) -> std::borrow::Cow<'static, str> {
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
