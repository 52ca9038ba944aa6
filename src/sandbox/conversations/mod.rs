//! Conversations in the sandbox (seed §2.18, §4.16). For now only the issues clusters that
//! change-request lists filter by; conversations and their issues come with a later issue.

pub mod routes;

/// An issues cluster (`object`='issues-cluster'): issues from conversations grouped by topic.
#[derive(Clone, Debug)]
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
}

/// Every cluster of the world.
#[derive(Clone, Debug, Default)]
pub struct Conversations {
    pub clusters: Vec<Cluster>,
}
