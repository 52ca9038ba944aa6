//! Space content: revisions, the page tree, pages (with markdown) and files.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::common::{Urls, null_as_default, string_enum};

string_enum! {
    /// `RevisionPageType`: what a page is.
    pub enum PageType {
        Document => "document",
        /// A heading grouping pages, without content of its own.
        Group => "group",
        /// An entry pointing elsewhere (`href`/`target`).
        Link => "link",
        /// Generated content (for instance from an OpenAPI spec).
        Computed => "computed",
    }
}

string_enum! {
    /// How a revision came to be.
    pub enum RevisionType {
        Edits => "edits",
        Merge => "merge",
        Rollback => "rollback",
        Update => "update",
        Computed => "computed",
    }
}

string_enum! {
    /// What a `ContentRef` points at.
    pub enum ContentRefKind {
        File => "file",
        Url => "url",
        Page => "page",
        Anchor => "anchor",
        User => "user",
        Collection => "collection",
        Space => "space",
        ReusableContent => "reusable-content",
        Tag => "tag",
        OpenApi => "openapi",
    }
}

/// A reference to content (`ContentRef`): the target of a link page, a cover image, …. The
/// variants differ only in which keys are set, so one tolerant struct holds them all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContentRef {
    pub kind: ContentRefKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collection: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reusable_content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<String>,
}

/// A page of a space (`RevisionPage`: document, group, link or computed). The four variants share
/// most fields, so one struct with optional fields decodes them all; `page_type` tells which.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Page {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default, rename = "type")]
    pub page_type: Option<PageType>,
    #[serde(default)]
    pub emoji: Option<String>,
    #[serde(default)]
    pub icon: Option<String>,
    /// A shorter title for navigation.
    #[serde(default)]
    pub link_title: Option<String>,
    #[serde(default)]
    pub path: Option<String>,
    #[serde(default)]
    pub slug: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub hidden: bool,
    /// Children, in order (document and group pages only).
    #[serde(default, deserialize_with = "null_as_default")]
    pub pages: Vec<Page>,
    /// The page body, present when fetched with `format=markdown`.
    #[serde(default)]
    pub markdown: Option<String>,
    /// Link pages: the resolved address.
    #[serde(default)]
    pub href: Option<String>,
    /// Link pages: what they point at.
    #[serde(default)]
    pub target: Option<ContentRef>,
    #[serde(default)]
    pub git: Option<GitBlob>,
    /// Computed pages: how the content is generated; raw because its shape is open-ended.
    #[serde(default)]
    pub computed: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// Where a page or file lives in a synced git repository.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GitBlob {
    pub oid: Option<String>,
    pub path: Option<String>,
}

/// A file uploaded to a space (`RevisionFile`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct File {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub name: String,
    #[serde(default)]
    pub content_type: Option<String>,
    #[serde(default, rename = "downloadURL")]
    pub download_url: Option<String>,
    /// Size in bytes.
    #[serde(default)]
    pub size: Option<f64>,
    #[serde(default)]
    pub dimensions: Option<Dimensions>,
    #[serde(default)]
    pub git: Option<GitBlob>,
}

/// Pixel size of an image file.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Dimensions {
    pub width: f64,
    pub height: f64,
}

/// Content shared between pages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReusableContent {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
}

/// The git commit behind a revision. The seed calls the flag `createdByService`, the service
/// `createdByGitBook`; both are read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RevisionGit {
    pub oid: Option<String>,
    pub message: Option<String>,
    #[serde(alias = "createdByGitBook")]
    pub created_by_service: Option<bool>,
    pub url: Option<String>,
    #[serde(rename = "ref")]
    pub git_ref: Option<String>,
}

/// A revision of a space's content (`object`='revision'): the whole page tree and file list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Revision {
    pub id: String,
    #[serde(default, rename = "type")]
    pub revision_type: Option<RevisionType>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub parents: Vec<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub pages: Vec<Page>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub files: Vec<File>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub reusable_contents: Vec<ReusableContent>,
    /// Values are usually strings; kept as JSON because the service allows more.
    #[serde(default, deserialize_with = "null_as_default")]
    pub variables: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub git: Option<RevisionGit>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// The body of `GET /spaces/{id}/content/pages`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct PageList {
    pub pages: Vec<Page>,
}

/// The `key`s of a document's top-level blocks, in order.
pub fn block_keys(document: &serde_json::Value) -> Vec<String> {
    document["nodes"]
        .as_array()
        .map(|nodes| {
            nodes
                .iter()
                .filter_map(|node| node["key"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// A table block's parts as the document format names them: its columns (`definition` ids with
/// their titles, in the order shown) and its rows (`record` ids, in order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableShape {
    pub columns: Vec<(String, String)>,
    pub rows: Vec<String>,
}

/// The table blocks among a document's top-level blocks, by block key.
pub fn table_shapes(document: &serde_json::Value) -> Vec<(String, TableShape)> {
    let Some(nodes) = document["nodes"].as_array() else {
        return Vec::new();
    };
    nodes
        .iter()
        .filter(|node| node["type"] == "table")
        .filter_map(|node| {
            Some((
                node["key"].as_str()?.to_string(),
                table_shape(&node["data"]),
            ))
        })
        .collect()
}

fn table_shape(data: &serde_json::Value) -> TableShape {
    let definition = data["definition"].as_object();
    let title = |id: &str| {
        definition
            .and_then(|columns| columns.get(id))
            .and_then(|column| column["title"].as_str())
            .unwrap_or(id)
            .to_string()
    };
    let mut columns: Vec<String> = data["view"]["columns"]
        .as_array()
        .map(|ids| {
            ids.iter()
                .filter_map(|id| id.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    if columns.is_empty() {
        columns = definition
            .map(|d| d.keys().cloned().collect())
            .unwrap_or_default();
    }
    let mut rows: Vec<(String, String)> = data["records"]
        .as_object()
        .map(|records| {
            records
                .iter()
                .map(|(id, record)| {
                    let order = record["orderIndex"].as_str().unwrap_or_default();
                    (order.to_string(), id.clone())
                })
                .collect()
        })
        .unwrap_or_default();
    rows.sort();
    TableShape {
        columns: columns
            .into_iter()
            .map(|id| (title(&id), id))
            .map(|(t, id)| (id, t))
            .collect(),
        rows: rows.into_iter().map(|(_, id)| id).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TREE: &str = r#"{"pages":[
        {"id":"p1","title":"Welcome","kind":"sheet","type":"document","path":"welcome",
         "slug":"welcome","description":"Start here","emoji":"1f44b","urls":{"app":"https://app/p1"},
         "layout":{"width":"default"},"tags":[],"pages":[
            {"id":"p1a","title":"Install","type":"document","path":"welcome/install","slug":"install",
             "hidden":true,"pages":[]},
            {"id":"p1b","title":"Homepage","type":"link","kind":"link",
             "target":{"kind":"url","url":"https://example.com"},"href":"https://example.com"}
         ]},
        {"id":"g1","title":"Reference","type":"group","path":"reference","slug":"reference","pages":[
            {"id":"c1","title":"API","type":"computed","computed":{"type":"builtin:openapi"}}
        ]},
        {"id":"x1","title":"Future","type":"hologram","newField":{"a":1}}
    ]}"#;

    #[test]
    fn decodes_a_recursive_page_tree() {
        let list: PageList = serde_json::from_str(TREE).unwrap();
        assert_eq!(list.pages.len(), 3);
        let welcome = &list.pages[0];
        assert_eq!(welcome.page_type, Some(PageType::Document));
        assert_eq!(welcome.pages.len(), 2);
        assert!(welcome.pages[0].hidden);
        assert!(!welcome.hidden);
        let link = &welcome.pages[1];
        assert_eq!(link.page_type, Some(PageType::Link));
        assert_eq!(link.href.as_deref(), Some("https://example.com"));
        assert_eq!(
            link.target.as_ref().map(|t| t.kind.clone()),
            Some(ContentRefKind::Url)
        );
        assert_eq!(list.pages[1].pages[0].page_type, Some(PageType::Computed));
        assert_eq!(
            list.pages[2].page_type,
            Some(PageType::Other("hologram".into()))
        );
    }

    #[test]
    fn decodes_a_markdown_page() {
        let json = r##"{"id":"p1","title":"Welcome","type":"document","markdown":"# Welcome\n\nHi.",
                       "path":"welcome","slug":"welcome","pages":[]}"##;
        let page: Page = serde_json::from_str(json).unwrap();
        assert_eq!(page.markdown.as_deref(), Some("# Welcome\n\nHi."));
    }

    #[test]
    fn decodes_a_revision() {
        let json = r#"{"object":"revision","id":"r1","parents":["r0"],"type":"merge",
            "pages":[{"id":"p1","title":"A","type":"document"}],
            "files":[{"id":"f1","name":"logo.png","contentType":"image/png",
                      "downloadURL":"https://files/logo.png","size":1024,
                      "dimensions":{"width":64,"height":32}}],
            "reusableContents":[{"id":"rc1","title":"Footer","git":{"oid":"a","path":"b"}}],
            "variables":{"product":"Acme","n":3},"createdAt":"2024-01-01T00:00:00Z",
            "git":{"oid":"abc","message":"Sync","createdByGitBook":true},
            "urls":{"app":"https://app/r1"},"tags":[]}"#;
        let revision: Revision = serde_json::from_str(json).unwrap();
        assert_eq!(revision.revision_type, Some(RevisionType::Merge));
        assert_eq!(
            revision.files[0].download_url.as_deref(),
            Some("https://files/logo.png")
        );
        assert_eq!(revision.files[0].dimensions.map(|d| d.width), Some(64.0));
        assert_eq!(
            revision.variables.get("product"),
            Some(&serde_json::json!("Acme"))
        );
        assert_eq!(revision.git.and_then(|g| g.created_by_service), Some(true));
        assert_eq!(revision.reusable_contents[0].title, "Footer");
    }

    #[test]
    fn decodes_a_bare_revision() {
        let revision: Revision = serde_json::from_str(r#"{"id":"r1","pages":null}"#).unwrap();
        assert!(revision.pages.is_empty() && revision.files.is_empty());
    }
}
