//! Demo conversations: what Acme's support conversations keep asking about, grouped into issues
//! clusters. Some demo change requests answer a cluster (see `change_requests::populate`).

use super::ids;
use super::timestamp;
use crate::conversations::{Cluster, Issue, StoredConversation};
use crate::world::World;

pub(super) mod cluster_ids {
    /// Acme: "Token scope errors", linked to the token-scopes change request (#1).
    pub const CLUSTER_TOKEN_ERRORS: &str = "clu-acme-token-errors";
    /// Acme: "Installing on a Raspberry Pi", linked to change request #2.
    pub const CLUSTER_RASPBERRY_PI: &str = "clu-acme-raspberry-pi";
    /// Acme: "Failover questions", linked to the runbook change request.
    pub const CLUSTER_FAILOVER: &str = "clu-acme-failover";
    /// Acme: "Billing export", no change request answers it yet.
    pub const CLUSTER_BILLING: &str = "clu-acme-billing-export";
    /// The conversation behind the first token-scope issue (four messages).
    pub const CONVERSATION_TOKEN_403: &str = "conv-acme-token-403";
    /// The first issue of the token-scope cluster.
    pub const ISSUE_TOKEN_403: &str = "iss-acme-token-403";
}

use cluster_ids::*;

struct ClusterSeed {
    id: &'static str,
    label: &'static str,
    icon: &'static str,
    summary: &'static str,
    day: u32,
    pulse: [u32; 12],
    sources: &'static [(&'static str, u32)],
    tasks: [u32; 4],
}

const CLUSTERS: [ClusterSeed; 4] = [
    ClusterSeed {
        id: CLUSTER_TOKEN_ERRORS,
        label: "Token scope errors",
        icon: "key",
        summary: "First API calls fail with **403** because the token lacks `fleet:write`.",
        day: 690,
        pulse: [2, 3, 3, 5, 4, 6, 9, 12, 10, 14, 17, 15],
        sources: &[("intercom", 14), ("zendesk", 6), ("slack", 3)],
        tasks: [2, 1, 3, 0],
    },
    ClusterSeed {
        id: CLUSTER_RASPBERRY_PI,
        label: "Installing on a Raspberry Pi",
        icon: "cpu",
        summary: "The installer stops on ARM boards; people ask for the Pi steps.",
        day: 680,
        pulse: [6, 5, 7, 4, 5, 3, 4, 2, 3, 2, 1, 2],
        sources: &[("discord", 7), ("intercom", 4)],
        tasks: [1, 1, 0, 1],
    },
    ClusterSeed {
        id: CLUSTER_FAILOVER,
        label: "Failover questions",
        icon: "server",
        summary: "Operators ask how often failover is rehearsed and who runs it.",
        day: 660,
        pulse: [0, 1, 0, 0, 2, 1, 0, 3, 1, 0, 1, 1],
        sources: &[("zendesk", 5)],
        tasks: [0, 0, 2, 0],
    },
    ClusterSeed {
        id: CLUSTER_BILLING,
        label: "Billing export",
        icon: "receipt",
        summary: "Finance teams look for a CSV export of usage per robot.",
        day: 640,
        pulse: [1, 1, 2, 1, 1, 2, 2, 1, 3, 2, 2, 4],
        sources: &[("intercom", 3), ("email", 2)],
        tasks: [1, 0, 0, 0],
    },
];

struct ConversationSeed {
    id: &'static str,
    subject: &'static str,
    source: &'static str,
    day: u32,
    messages: &'static [(&'static str, &'static str)],
    /// (issue id, title, summary, cluster); a new issue may not be in a cluster yet.
    issue: (
        &'static str,
        &'static str,
        &'static str,
        Option<&'static str>,
    ),
}

const CONVERSATIONS: [ConversationSeed; 8] = [
    ConversationSeed {
        id: CONVERSATION_TOKEN_403,
        subject: "403 on my first POST /robots",
        source: "intercom",
        day: 722,
        messages: &[
            (
                "user",
                "Hi! I created a token and `GET /robots` works, but `POST /robots` answers **403 Forbidden**. What am I missing?",
            ),
            (
                "assistant",
                "Thanks for the details. A 403 on writes usually means the token has only read scopes.\n\nCould you check the token's scopes under **Settings → API tokens**?",
            ),
            (
                "user",
                "It says `fleet:read`. The quickstart never mentioned scopes.",
            ),
            (
                "assistant",
                "That's it: writes need `fleet:write`.\n\n1. Open **Settings → API tokens**\n2. Create a token with `fleet:read` and `fleet:write`\n3. Retry the call\n\nWe'll add this to the quickstart.",
            ),
        ],
        issue: (
            ISSUE_TOKEN_403,
            "Quickstart does not mention token scopes",
            "The quickstart creates a read-only token, then shows a write call that fails with 403.",
            Some(CLUSTER_TOKEN_ERRORS),
        ),
    },
    ConversationSeed {
        id: "conv-acme-token-ci",
        subject: "CI token cannot deploy",
        source: "zendesk",
        day: 718,
        messages: &[
            (
                "user",
                "Our CI job gets `insufficient_scope` when it deploys a route.",
            ),
            ("assistant", "Which scopes does the CI token have?"),
            (
                "user",
                "Only `fleet:read` — I copied the example from the docs.",
            ),
        ],
        issue: (
            "iss-acme-token-ci",
            "CI example uses a read-only token",
            "The CI example token cannot deploy routes.",
            Some(CLUSTER_TOKEN_ERRORS),
        ),
    },
    ConversationSeed {
        id: "conv-acme-pi-arm",
        subject: "Installer stops on Raspberry Pi 4",
        source: "discord",
        day: 700,
        messages: &[
            (
                "user",
                "The installer prints `unsupported architecture: aarch64` and exits.",
            ),
            (
                "assistant",
                "The Pi needs the ARM build:\n\n```sh\ncurl -sSL https://get.acme.dev | sh -s -- --arch arm64\n```",
            ),
            (
                "user",
                "That worked, thanks! Please put it in the install guide.",
            ),
        ],
        issue: (
            "iss-acme-pi-arm",
            "Install guide lacks ARM instructions",
            "People on Raspberry Pi do not find the `--arch arm64` flag.",
            Some(CLUSTER_RASPBERRY_PI),
        ),
    },
    ConversationSeed {
        id: "conv-acme-pi-power",
        subject: "Pi reboots during calibration",
        source: "intercom",
        day: 695,
        messages: &[
            ("user", "My Pi reboots when the arm calibrates."),
            (
                "assistant",
                "Calibration draws up to 3 A; the official 15 W supply is needed.",
            ),
        ],
        issue: (
            "iss-acme-pi-power",
            "Power requirements are not documented",
            "Calibration needs a 3 A supply; the docs do not say so.",
            Some(CLUSTER_RASPBERRY_PI),
        ),
    },
    ConversationSeed {
        id: "conv-acme-failover-drill",
        subject: "How often do you rehearse failover?",
        source: "zendesk",
        day: 690,
        messages: &[
            ("user", "Our auditors ask how often failover is rehearsed."),
            (
                "assistant",
                "Every quarter, by the on-call team. The runbook has the steps.",
            ),
            (
                "user",
                "Where is the runbook? I only find an old wiki page.",
            ),
        ],
        issue: (
            "iss-acme-failover-drill",
            "Failover runbook is hard to find",
            "The runbook is not linked from the operations overview.",
            Some(CLUSTER_FAILOVER),
        ),
    },
    ConversationSeed {
        id: "conv-acme-billing-csv",
        subject: "CSV of usage per robot?",
        source: "email",
        day: 705,
        messages: &[
            (
                "user",
                "Finance wants a CSV of last month's usage, one row per robot.",
            ),
            (
                "assistant",
                "Today the dashboard exports totals only; per-robot export is on the roadmap.",
            ),
        ],
        issue: (
            "iss-acme-billing-csv",
            "No per-robot usage export",
            "Finance teams need usage per robot as CSV.",
            Some(CLUSTER_BILLING),
        ),
    },
    ConversationSeed {
        id: "conv-acme-webhook-dupes",
        subject: "Duplicate webhook deliveries",
        source: "slack",
        day: 724,
        messages: &[
            (
                "user",
                "We get the same `robot.updated` event two or three times.",
            ),
            (
                "assistant",
                "Deliveries are retried until your endpoint answers 2xx within 5 s. Use the `Acme-Delivery` header to drop duplicates.",
            ),
            ("user", "How far apart are the retries?"),
            ("assistant", "1 min, 5 min, 30 min, then hourly for a day."),
        ],
        issue: (
            "iss-acme-webhook-dupes",
            "Retry schedule and idempotency key undocumented",
            "Receivers do not know about the delivery header or the retry spacing.",
            None,
        ),
    },
    ConversationSeed {
        id: "conv-acme-webhook-timeout",
        subject: "Webhook timeout value",
        source: "intercom",
        day: 723,
        messages: &[
            ("user", "What timeout do webhook deliveries use?"),
            (
                "assistant",
                "5 seconds; slower answers count as failures and are retried.",
            ),
        ],
        issue: (
            "iss-acme-webhook-timeout",
            "Webhook timeout is not documented",
            "The 5 s delivery timeout is only known from support.",
            None,
        ),
    },
];

pub(super) fn populate(world: &mut World) {
    world.conversations.clusters = CLUSTERS.iter().map(cluster).collect();
    for seed in &CONVERSATIONS {
        let created_at = timestamp(seed.day, 60);
        let (issue_id, title, summary, cluster) = seed.issue;
        world.conversations.conversations.push(StoredConversation {
            id: seed.id.to_string(),
            organization: ids::ACME.to_string(),
            subject: seed.subject.to_string(),
            created_at: created_at.clone(),
            processed_at: Some(timestamp(seed.day, 75)),
            source: seed.source.to_string(),
            messages: seed
                .messages
                .iter()
                .map(|(role, body)| (role.to_string(), body.to_string()))
                .collect(),
            metadata_url: Some(format!(
                "https://support.acme.example/{}/{}",
                seed.source, seed.id
            )),
            attributes: vec![
                ("plan".to_string(), "pro".to_string()),
                ("region".to_string(), "eu-west".to_string()),
            ],
            metadata_created_at: Some(created_at.clone()),
        });
        world.conversations.issues.push(Issue {
            id: issue_id.to_string(),
            organization: ids::ACME.to_string(),
            title: title.to_string(),
            summary: summary.to_string(),
            created_at: timestamp(seed.day, 80),
            ingested_at: timestamp(seed.day, 75),
            conversation: seed.id.to_string(),
            cluster: cluster.map(str::to_string),
        });
    }
}

fn cluster(seed: &ClusterSeed) -> Cluster {
    let conversations = CONVERSATIONS
        .iter()
        .filter(|conversation| conversation.issue.3 == Some(seed.id))
        .count() as u32;
    Cluster {
        id: seed.id.to_string(),
        organization: ids::ACME.to_string(),
        label: seed.label.to_string(),
        icon: seed.icon.to_string(),
        summary: seed.summary.to_string(),
        created_at: timestamp(seed.day, 0),
        updated_at: timestamp(seed.day + 30, 90),
        weekly_pulse: seed.pulse.to_vec(),
        sources: seed
            .sources
            .iter()
            .map(|(name, count)| (name.to_string(), *count))
            .collect(),
        issues: seed.pulse.iter().sum(),
        conversations: conversations.max(seed.sources.iter().map(|(_, count)| count).sum()),
        tasks: seed.tasks,
    }
}
