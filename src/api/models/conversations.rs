//! Conversations (seed §2.18): for now only the issues clusters, which change-request lists
//! filter by. The public service has no such resource; the seed and the sandbox do.

use serde::{Deserialize, Serialize};

use super::common::{Urls, lenient_count, null_as_default};

/// An issues cluster (`object`='issues-cluster'): issues from conversations grouped by topic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IssuesCluster {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub label: String,
    #[serde(default)]
    pub icon: Option<String>,
    #[serde(default)]
    pub summary: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub stats: IssuesClusterStats,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// The counts a cluster carries; only those the picker shows are kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IssuesClusterStats {
    #[serde(default, deserialize_with = "lenient_count")]
    pub issues: Option<u64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub conversations: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_seed_cluster_and_a_sparse_one() {
        let json = r#"{"object":"issues-cluster","id":"cl1","label":"Login loops",
            "createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-02-01T00:00:00Z","icon":"key",
            "summary":"People are sent back to the login page","weeklyPulse":[1,2,3],
            "sources":{"intercom":4},"stats":{"issues":12,"conversations":9,"tasksTotal":2},
            "urls":{"location":"https://api/cl1","app":"https://app/cl1"}}"#;
        let cluster: IssuesCluster = serde_json::from_str(json).unwrap();
        assert_eq!(cluster.label, "Login loops");
        assert_eq!(cluster.stats.issues, Some(12));
        assert_eq!(cluster.urls.app.as_deref(), Some("https://app/cl1"));
        let sparse: IssuesCluster =
            serde_json::from_str(r#"{"id":"cl2","label":null,"stats":null}"#).unwrap();
        assert_eq!(sparse.label, "");
        assert_eq!(sparse.stats.issues, None);
    }
}
