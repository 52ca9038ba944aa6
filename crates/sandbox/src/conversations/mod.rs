//! Conversations in the sandbox: issues clusters, conversations with their
//! messages, and the issues found in them.

pub(crate) mod routes;

/// An issues cluster (`object`='issues-cluster'): issues from conversations grouped by topic.
#[derive(Clone, Debug, Default)]
pub struct Cluster {
    pub id: String,
    pub organization: String,
    pub label: String,
    pub icon: String,
    pub summary: String,
    pub created_at: String,
    pub updated_at: String,
    /// Issues per week over the past 3 months, oldest first.
    pub weekly_pulse: Vec<u32>,
    /// Where its conversations came from: source name → count.
    pub sources: Vec<(String, u32)>,
    pub issues: u32,
    pub conversations: u32,
    /// Tasks by state: backlog, started, completed, cancelled.
    pub tasks: [u32; 4],
}

impl Cluster {
    /// The status the clusters list filters by (`status`): `archived` once the cluster has
    /// tasks and none of them is waiting or under way, else `active`.
    pub fn status(&self) -> &'static str {
        let [backlog, started, completed, cancelled] = self.tasks;
        let done = completed + cancelled;
        if done > 0 && backlog + started == 0 {
            "archived"
        } else {
            "active"
        }
    }
}

/// The statuses the clusters list takes as `status`.
pub(crate) const CLUSTER_STATUSES: [&str; 2] = ["active", "archived"];

/// A conversation with its messages (`object`='conversation' plus the detail's parts).
#[derive(Clone, Debug, Default)]
pub struct StoredConversation {
    pub id: String,
    pub organization: String,
    pub subject: String,
    pub created_at: String,
    pub processed_at: Option<String>,
    pub source: String,
    /// (role, body) of each message, in order.
    pub messages: Vec<(String, String)>,
    pub metadata_url: Option<String>,
    pub attributes: Vec<(String, String)>,
    pub metadata_created_at: Option<String>,
}

/// An issue found in a conversation (`object`='conversation-issue').
#[derive(Clone, Debug, Default)]
pub struct Issue {
    pub id: String,
    pub organization: String,
    pub title: String,
    pub summary: String,
    pub created_at: String,
    pub ingested_at: String,
    pub conversation: String,
    pub cluster: Option<String>,
}

/// Every cluster, conversation and issue of the world.
#[derive(Clone, Debug, Default)]
pub struct Conversations {
    pub clusters: Vec<Cluster>,
    pub conversations: Vec<StoredConversation>,
    pub issues: Vec<Issue>,
}

impl Conversations {
    pub fn conversation(&self, organization: &str, id: &str) -> Option<&StoredConversation> {
        self.conversations
            .iter()
            .find(|conversation| conversation.organization == organization && conversation.id == id)
    }

    pub fn cluster(&self, organization: &str, id: &str) -> Option<&Cluster> {
        self.clusters
            .iter()
            .find(|cluster| cluster.organization == organization && cluster.id == id)
    }
}
