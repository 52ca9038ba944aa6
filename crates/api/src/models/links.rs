//! Links between content (`GET /spaces/{id}/links`, a page's links) and backlinks ("what links
//! here"): seed-only endpoints, decoded as tolerantly as the rest.

use serde::{Deserialize, Deserializer, Serialize};

use super::common::{lenient_count, null_as_default, string_enum};
use super::revision::ContentRef;
use crate::paging::ListPage;

string_enum! {
    /// A link's health: `ok`, `broken` (its target is not in the revision) or `in-app` (an
    /// address of the platform's own app, which readers of a published site cannot follow).
    pub enum LinkStatus {
        Ok => "ok",
        Broken => "broken",
        InApp => "in-app",
    }
}

/// One link target and every place that links to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Link {
    #[serde(default)]
    pub status: Option<LinkStatus>,
    #[serde(default)]
    pub relation: Option<String>,
    #[serde(default)]
    pub target_reference: Option<ContentRef>,
    /// Where the link is written: usually pages (`kind: page`).
    #[serde(default, deserialize_with = "null_as_default")]
    pub location_references: Vec<ContentRef>,
}

/// The totals of a links list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LinkStats {
    #[serde(deserialize_with = "lenient_count")]
    pub total: Option<u64>,
    #[serde(deserialize_with = "null_as_default")]
    pub broken: BrokenLinkStats,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BrokenLinkStats {
    #[serde(deserialize_with = "lenient_count")]
    pub total: Option<u64>,
    /// Broken links in open change requests.
    #[serde(deserialize_with = "lenient_count")]
    pub change_request: Option<u64>,
}

/// One page of a links list: the usual envelope plus `stats`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LinkPage {
    pub links: ListPage<Link>,
    pub stats: Option<LinkStats>,
}

impl<'de> Deserialize<'de> for LinkPage {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        // Totals that cannot be read are left out rather than failing the list.
        let stats = value
            .get("stats")
            .and_then(|stats| LinkStats::deserialize(stats).ok());
        let links = ListPage::<Link>::deserialize(value).map_err(serde::de::Error::custom)?;
        Ok(LinkPage { links, stats })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_links_page_with_stats() {
        let json = r#"{"items":[{"status":"broken","relation":"link",
            "targetReference":{"kind":"url","url":"https://x"},
            "locationReferences":[{"kind":"page","space":"s","page":"p",
                "versionContext":{"type":"revision","revision":"r"}}]},
            {"status":"someday","locationReferences":null}],
            "count":2,"stats":{"total":2,"broken":{"total":1,"changeRequest":0}}}"#;
        let page: LinkPage = serde_json::from_str(json).unwrap();
        assert_eq!(page.links.items.len(), 2);
        assert_eq!(page.links.items[0].status, Some(LinkStatus::Broken));
        assert_eq!(
            page.links.items[1].status,
            Some(LinkStatus::Other("someday".into()))
        );
        assert_eq!(
            page.links.items[0].location_references[0].page.as_deref(),
            Some("p")
        );
        let stats = page.stats.unwrap();
        assert_eq!(stats.total, Some(2));
        assert_eq!(stats.broken.total, Some(1));
    }

    #[test]
    fn unreadable_stats_keep_the_list() {
        let page: LinkPage =
            serde_json::from_str(r#"{"items":[],"stats":{"total":"many","broken":7}}"#).unwrap();
        assert!(page.links.items.is_empty());
    }
}
