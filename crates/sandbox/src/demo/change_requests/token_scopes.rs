//! Getting Started #1 "Clarify token scopes in Quickstart": the busy review, with edits on
//! several pages, a created page, a description with marks and a hint, two requested reviewers
//! and an outdated and a current review.

use super::builders::{change_request, comments, new_page, rewrite};
use super::token_scopes_threads::TOKEN_SCOPE_THREADS;
use super::{FATIMA, HANNAH, JONAS, PRIYA, QUICKSTART, REST_API, SOFIA, TOKEN_SCOPES, ids};
use crate::change_requests::model::{
    ChangeRequest, PageEdit, RequestedReviewer, Review, ReviewStatus,
};
use crate::demo::{ids as demo, timestamp};
use crate::model::Page;

const TOKEN_SCOPES_PAGE: &str = "# Token scopes\n\nEvery API token carries one or more \
**scopes**. A call that needs a scope the token lacks answers `403 Forbidden`.\n\n\
| Scope | Allows | Typical user |\n| :---- | :----- | :----------- |\n\
| `fleet:read` | Reading robots, missions, maps and telemetry | Dashboards, BI exports |\n\
| `fleet:write` | Everything in `fleet:read`, plus creating and cancelling missions and registering \
robots | WMS integrations |\n| `fleet:telemetry` | Streaming telemetry and events, nothing else | \
Monitoring agents |\n| `fleet:admin` | Firmware rollouts, deleting robots, managing tokens | \
Fleet operators |\n\n## Choosing a scope\n\nGive each integration the narrowest scope that works. \
A monitoring agent that only reads events should get `fleet:telemetry`, not `fleet:read`.\n\n\
{% hint style=\"warning\" %}\n`fleet:admin` tokens can delete robots. Keep them out of CI and \
rotate them every 90 days.\n{% endhint %}\n\n## Checking a token\n\n```bash\ncurl -s \
https://api.acme-robotics.example/v1/tokens/self \\\n  -H \"Authorization: Bearer $FLEET_TOKEN\" \
| jq .scopes\n```\n\n## Changing scopes\n\nScopes cannot be changed after a token is created: \
create a new token with the scopes you need, deploy it, then revoke the old one under \
**Settings → Tokens**.\n";

/// The showcase description as the web editor would store it: marks, a link, a list, and a
/// hint block (which quire keeps as it is when editing the text).
fn token_scopes_description() -> serde_json::Value {
    use serde_json::json;
    let leaf = |text: &str, marks: &[&str]| {
        let marks: Vec<serde_json::Value> = marks
            .iter()
            .map(|mark| json!({"object": "mark", "type": mark, "data": {}}))
            .collect();
        json!({"object": "leaf", "text": text, "marks": marks})
    };
    let text = |leaves: Vec<serde_json::Value>| json!({"object": "text", "leaves": leaves});
    let block = |key: &str, kind: &str, nodes: Vec<serde_json::Value>| {
        json!({"object": "block", "type": kind, "key": key, "isVoid": false, "data": {},
            "nodes": nodes})
    };
    let item = |key: &str, leaves: Vec<serde_json::Value>| {
        block(
            key,
            "list-item",
            vec![block(&format!("{key}-p"), "paragraph", vec![text(leaves)])],
        )
    };
    let link = json!({"object": "inline", "type": "link", "isVoid": false,
        "data": {"ref": {"kind": "url", "url": "https://support.acme-robotics.example/t/403"}},
        "nodes": [text(vec![leaf("tickets", &[])])]});
    json!({"object": "document", "data": {"schemaVersion": 1}, "nodes": [
        block("d1", "paragraph", vec![
            text(vec![leaf("Support keeps getting ", &[])]),
            link,
            text(vec![
                leaf(" from people whose first call fails with ", &[]),
                leaf("403", &["code"]),
                leaf(": the Quickstart never says which scope the token needs.", &[]),
            ]),
        ]),
        block("d2", "list-unordered", vec![
            item("d3", vec![
                leaf("says ", &[]),
                leaf("fleet:write", &["code"]),
                leaf(" up front and adds a ", &[]),
                leaf("Check your token", &["italic"]),
                leaf(" step", &[]),
            ]),
            item("d4", vec![
                leaf("adds a ", &[]),
                leaf("Token scopes", &["bold"]),
                leaf(" page and the new ", &[]),
                leaf("fleet:telemetry", &["code"]),
                leaf(" scope", &[]),
            ]),
            item("d5", vec![leaf("moves the REST API guide into Basics", &[])]),
        ]),
        {"object": "block", "type": "hint", "key": "d6", "isVoid": false,
            "data": {"style": "warning"},
            "nodes": [block("d7", "paragraph", vec![text(vec![
                leaf("Merge after the 2.4 release: the new scope ships with it.", &[]),
            ])])]},
    ]})
}

pub(super) fn token_scopes(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 700;
    let mut change_request = change_request(
        ids::CR_REVIEW,
        ids::CR_REVIEW_NUMBER,
        demo::SPACE_GETTING_STARTED,
        "Clarify token scopes in Quickstart",
        "Support keeps getting tickets from people whose first call fails with `403`: the \
         Quickstart never says which scope the token needs.\n\n- says `fleet:write` up front and \
         adds a *Check your token* step\n- adds a **Token scopes** page and the new \
         `fleet:telemetry` scope\n- moves the REST API guide into Basics, next to the Quickstart\n\
         - drops the internal launch checklist (it lives in Platform Runbooks now)",
        FATIMA,
        day,
    );
    change_request.base_revision = main_revision.to_string();
    change_request.base_pages = main.to_vec();
    change_request.updated_at = timestamp(day + 5, 640);
    change_request.editors = vec![JONAS.to_string()];
    change_request.description = Some(token_scopes_description());
    change_request.edits = vec![
        rewrite(
            main,
            QUICKSTART,
            &[
                (
                    "You need\nan API token (see [Authentication](rest-api-guide.md#authentication)) and one robot or the\nbuilt-in **simulator**.",
                    "You need\nan API token with the `fleet:write` scope (see [Token scopes](token-scopes.md)) and one\nrobot or the built-in **simulator**.",
                ),
                (
                    "1. A token with the `fleet:write` scope\n",
                    "1. A token with the `fleet:write` scope — a `fleet:read` token gets `403 Forbidden` on\n   every step below\n",
                ),
                (
                    "| simulated | nightly |",
                    "| simulated | nightly at 02:00 UTC |",
                ),
                (
                    "Sandbox allows 10 requests per second per token; production allows 50.",
                    "Sandbox allows 10 requests per second per token; production allows 50. Tokens with\nonly `fleet:telemetry` are not rate limited for event streams.",
                ),
                (
                    "## Step 1 — Register the robot",
                    "## Check your token\n\nBefore registering anything, confirm the token carries the scope you need:\n\n```bash\ncurl -s https://api.acme-robotics.example/v1/tokens/self \\\n  -H \"Authorization: Bearer $FLEET_TOKEN\" | jq .scopes\n```\n\nThe answer must include `fleet:write`. If it does not, create a new token: scopes cannot be\nchanged later.\n\n## Step 1 — Register the robot",
                ),
            ],
        ),
        rewrite(
            main,
            REST_API,
            &[
                (
                    "Tokens carry **scopes**:",
                    "Tokens carry **scopes** (the [Token scopes](token-scopes.md) page explains how to choose):",
                ),
                (
                    "| `fleet:admin` | Firmware rollouts, deleting robots, managing tokens |",
                    "| `fleet:telemetry` | Streaming telemetry and events, nothing else |\n| `fleet:admin` | Firmware rollouts, deleting robots, managing tokens |",
                ),
                (
                    "| 403 | Token lacks the scope | no |",
                    "| 403 | Token lacks the scope (see [Token scopes](token-scopes.md)) | no |",
                ),
            ],
        ),
        PageEdit::Create {
            page: Box::new(
                new_page(TOKEN_SCOPES, "Token scopes", TOKEN_SCOPES_PAGE, day + 1).describe(
                    "Which scope each API call needs, and how to pick the narrowest one.",
                ),
            ),
            parent: Some("pg-gs-guides".to_string()),
            index: 0,
        },
        PageEdit::Delete {
            page: demo::PAGE_HIDDEN.to_string(),
        },
        PageEdit::Move {
            page: REST_API.to_string(),
            parent: Some(demo::PAGE_BASICS_GROUP.to_string()),
            index: 2,
        },
    ];
    change_request.comments = comments("gs1", &change_request, day, TOKEN_SCOPE_THREADS);
    change_request.requested_reviewers = vec![
        RequestedReviewer {
            user: PRIYA.to_string(),
            requested_by: FATIMA.to_string(),
            created_at: timestamp(day, 20),
            revision: change_request.revision.clone(),
        },
        RequestedReviewer {
            user: SOFIA.to_string(),
            requested_by: FATIMA.to_string(),
            created_at: timestamp(day, 21),
            revision: change_request.revision.clone(),
        },
    ];
    change_request.reviews = vec![
        Review {
            id: "rvw-gs1-1".to_string(),
            reviewer: HANNAH.to_string(),
            requested_by: None,
            status: ReviewStatus::ChangesRequested,
            revision: change_request.revision_initial.clone(),
            outdated: true,
            comment: Some("cmt-gs1-02".to_string()),
            created_at: timestamp(day + 1, 200),
            updated_at: timestamp(day + 1, 200),
        },
        Review {
            id: "rvw-gs1-2".to_string(),
            reviewer: HANNAH.to_string(),
            requested_by: None,
            status: ReviewStatus::Approved,
            revision: change_request.revision.clone(),
            outdated: false,
            comment: None,
            created_at: timestamp(day + 4, 90),
            updated_at: timestamp(day + 4, 90),
        },
    ];
    if let Some(comment) = change_request
        .comments
        .iter_mut()
        .find(|comment| comment.id == "cmt-gs1-02")
    {
        comment.review = Some("rvw-gs1-1".to_string());
    }
    change_request
}
