//! Conversations: conversations ingested for documentation agents, the issues found
//! in them and the clusters those issues are grouped into. The public service has no such
//! resource; the seed and the sandbox do.

use std::collections::BTreeMap;

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
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    /// Issues per week over the past 3 months, oldest first. Values that are not counts
    /// (negative, fractional, text) are dropped rather than failing the cluster.
    #[serde(default, deserialize_with = "pulse")]
    pub weekly_pulse: Vec<u64>,
    /// Where its conversations came from: source name → count.
    #[serde(default, deserialize_with = "source_counts")]
    pub sources: BTreeMap<String, u64>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub stats: IssuesClusterStats,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// The counts a cluster carries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IssuesClusterStats {
    #[serde(default, deserialize_with = "lenient_count")]
    pub issues: Option<u64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub conversations: Option<u64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub tasks_total: Option<u64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub tasks_backlog: Option<u64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub tasks_started: Option<u64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub tasks_completed: Option<u64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub tasks_cancelled: Option<u64>,
}

/// A conversation (`object`='conversation').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Conversation {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub subject: String,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub processed_at: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: ConversationUrls,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConversationUrls {
    #[serde(default)]
    pub location: Option<String>,
    /// Where the conversation happened (the support tool's address).
    #[serde(default)]
    pub source: Option<String>,
}

/// A conversation with its messages: `GET /orgs/{org}/conversations/{id}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConversationDetail {
    pub conversation: Conversation,
    #[serde(default, deserialize_with = "null_as_default")]
    pub parts: Vec<ConversationPart>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub metadata: ConversationMetadata,
}

/// One part of a conversation; the seed knows only `type: 'message'`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConversationPart {
    #[serde(rename = "type", default, deserialize_with = "null_as_default")]
    pub kind: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub role: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub body: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConversationMetadata {
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub attributes: BTreeMap<String, String>,
    #[serde(default)]
    pub created_at: Option<String>,
}

/// An issue found in a conversation (`object`='conversation-issue').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConversationIssue {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub summary: Option<String>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub ingested_at: Option<String>,
    /// The conversation's id.
    #[serde(default, deserialize_with = "null_as_default")]
    pub conversation: String,
    /// The cluster's id.
    #[serde(default)]
    pub cluster: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// An item of the issues list and the answer for one issue: `{issue, conversation}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IssueWithConversation {
    pub issue: ConversationIssue,
    pub conversation: Conversation,
}

fn pulse<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<u64>, D::Error> {
    let values = Option::<Vec<serde_json::Value>>::deserialize(deserializer)?;
    Ok(values
        .unwrap_or_default()
        .iter()
        .filter_map(serde_json::Value::as_u64)
        .collect())
}

fn source_counts<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<String, u64>, D::Error> {
    let values = Option::<BTreeMap<String, serde_json::Value>>::deserialize(deserializer)?;
    Ok(values
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(name, count)| Some((name, count.as_u64()?)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_seed_cluster_and_a_sparse_one() {
        let json = r#"{"object":"issues-cluster","id":"cl1","label":"Login loops",
            "createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-02-01T00:00:00Z","icon":"key",
            "summary":"People are sent back to the login page","weeklyPulse":[1,2,-3,"x",4],
            "sources":{"intercom":4,"zendesk":"many"},"stats":{"issues":12,"conversations":9,
            "tasksTotal":2,"tasksBacklog":1,"tasksCompleted":1},
            "urls":{"location":"https://api/cl1","app":"https://app/cl1"}}"#;
        let cluster: IssuesCluster = serde_json::from_str(json).unwrap();
        assert_eq!(cluster.label, "Login loops");
        assert_eq!(cluster.stats.issues, Some(12));
        assert_eq!(cluster.stats.tasks_backlog, Some(1));
        assert_eq!(cluster.weekly_pulse, vec![1, 2, 4]);
        assert_eq!(cluster.sources.len(), 1);
        assert_eq!(cluster.urls.app.as_deref(), Some("https://app/cl1"));
        let sparse: IssuesCluster = serde_json::from_str(
            r#"{"id":"cl2","label":null,"stats":null,"weeklyPulse":null,"sources":null}"#,
        )
        .unwrap();
        assert_eq!(sparse.label, "");
        assert_eq!(sparse.stats.issues, None);
        assert!(sparse.weekly_pulse.is_empty());
    }

    #[test]
    fn decodes_a_conversation_detail_with_missing_parts() {
        let json = r#"{"conversation":{"id":"c1","subject":"Help"},
            "parts":[{"type":"message","role":"user","body":"Hi"},{"role":null}],
            "metadata":{"url":"https://x","attributes":{"plan":"pro"},"createdAt":null}}"#;
        let detail: ConversationDetail = serde_json::from_str(json).unwrap();
        assert_eq!(detail.parts.len(), 2);
        assert_eq!(detail.parts[1].role, "");
        assert_eq!(detail.metadata.attributes["plan"], "pro");
    }
}
