//! Demo issues clusters: what Acme's support conversations keep asking about. Some demo change
//! requests answer one of them (see `change_requests::populate`).

use super::ids;
use super::timestamp;
use crate::sandbox::conversations::Cluster;
use crate::sandbox::model::World;

pub mod cluster_ids {
    /// Acme: "Token scope errors", linked to the token-scopes change request (#1).
    pub const CLUSTER_TOKEN_ERRORS: &str = "clu-acme-token-errors";
    /// Acme: "Installing on a Raspberry Pi", linked to change request #2.
    pub const CLUSTER_RASPBERRY_PI: &str = "clu-acme-raspberry-pi";
    /// Acme: "Failover questions", linked to the runbook change request.
    pub const CLUSTER_FAILOVER: &str = "clu-acme-failover";
    /// Acme: "Billing export", no change request answers it yet.
    pub const CLUSTER_BILLING: &str = "clu-acme-billing-export";
}

use cluster_ids::*;

pub fn populate(world: &mut World) {
    let cluster =
        |id: &str, label: &str, icon: &str, summary: &str, day: u32, issues: u32| Cluster {
            id: id.to_string(),
            organization: ids::ACME.to_string(),
            label: label.to_string(),
            icon: icon.to_string(),
            summary: summary.to_string(),
            created_at: timestamp(day, 0),
            updated_at: timestamp(day + 30, 90),
            weekly_pulse: (0..13).map(|week| (week * 7 + issues) % 11).collect(),
            sources: vec![("intercom".to_string(), issues / 2 + 1)],
            issues,
            conversations: issues + issues / 3,
        };
    world.conversations.clusters = vec![
        cluster(
            CLUSTER_TOKEN_ERRORS,
            "Token scope errors",
            "key",
            "First API calls fail with 403 because the token lacks fleet:write.",
            690,
            23,
        ),
        cluster(
            CLUSTER_RASPBERRY_PI,
            "Installing on a Raspberry Pi",
            "cpu",
            "The installer stops on ARM boards; people ask for the Pi steps.",
            680,
            11,
        ),
        cluster(
            CLUSTER_FAILOVER,
            "Failover questions",
            "server",
            "Operators ask how often failover is rehearsed and who runs it.",
            660,
            6,
        ),
        cluster(
            CLUSTER_BILLING,
            "Billing export",
            "receipt",
            "Finance teams look for a CSV export of usage per robot.",
            640,
            4,
        ),
    ];
}
