//! Full-text search results (`GET /spaces/{id}/search`, `GET /orgs/{id}/search`).

use serde::{Deserialize, Serialize};

use super::common::{Urls, lenient_count, null_as_default, string_enum};

string_enum! {
    /// Whether a hit is a whole page or a section of one.
    pub enum SearchResultType {
        Page => "page",
        Section => "section",
    }
}

/// A page that matched a space search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchPage {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub path: Option<String>,
    #[serde(default)]
    pub score: Option<f64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub rank: Option<u64>,
    #[serde(default)]
    pub result_type: Option<SearchResultType>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub sections: Vec<SearchSection>,
    /// Titles of the enclosing pages, outermost first, for a breadcrumb.
    #[serde(default, deserialize_with = "null_as_default")]
    pub ancestors: Vec<SearchAncestor>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// A section of a page that matched.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchSection {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub path: Option<String>,
    /// The matching text.
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub score: Option<f64>,
    #[serde(default)]
    pub result_type: Option<SearchResultType>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// One enclosing page of a search hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchAncestor {
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
}

/// A space with its matching pages, as returned by organization search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchSpace {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub score: Option<f64>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub pages: Vec<SearchPage>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_space_search_hits() {
        let json = r#"{"id":"p1","title":"Install","description":"How to install","path":"install",
            "score":3.5,"rank":1,"resultType":"page","ancestors":[{"title":"Guides"}],
            "urls":{"app":"https://app/p1"},
            "sections":[{"id":"s1","title":"Linux","path":"install#linux","body":"apt install",
                         "score":1.0,"urls":{"app":"https://app/p1#linux"}}]}"#;
        let hit: SearchPage = serde_json::from_str(json).unwrap();
        assert_eq!(hit.rank, Some(1));
        assert_eq!(hit.result_type, Some(SearchResultType::Page));
        assert_eq!(hit.sections[0].body.as_deref(), Some("apt install"));
        assert_eq!(hit.ancestors[0].title, "Guides");
    }

    #[test]
    fn decodes_seed_shaped_hits_without_score() {
        let hit: SearchPage = serde_json::from_str(
            r#"{"id":"p1","title":"T","path":"t","sections":[],"ancestors":[]}"#,
        )
        .unwrap();
        assert_eq!(hit.score, None);
        let space: SearchSpace =
            serde_json::from_str(r#"{"type":"space","id":"s","title":"S","pages":[]}"#).unwrap();
        assert!(space.pages.is_empty());
    }
}
