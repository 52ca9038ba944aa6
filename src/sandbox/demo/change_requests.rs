//! Demo change requests: six in "Getting Started" covering every status and situation a review
//! screen must show (a busy review, an outdated one, one that conflicts, merged, draft,
//! archived), plus a few in other spaces for the organization-wide list. Each edits real pages
//! of its space, so a diff against main has something to show.

use super::{document, ids as demo, timestamp};
use crate::sandbox::change_requests::content::{apply, find, markdown_of};
use crate::sandbox::change_requests::model::{
    ChangeRequest, Comment, PageEdit, Reaction, Reply, RequestedReviewer, Resolution, Review,
    ReviewStatus, Status,
};
use crate::sandbox::change_requests::routes::sync_space_counts;
use crate::sandbox::model::{Page, World};
use crate::sandbox::render::markdown_to_document;

/// Stable ids of the demo change requests, re-exported in [`super::ids`].
pub mod ids {
    /// Getting Started #1 "Clarify token scopes in Quickstart": open, 26 comment threads on
    /// several pages, two requested reviewers, an outdated and a current review by Hannah
    /// Schmidt. Edits Quickstart and the REST API guide, creates "Token scopes", deletes the
    /// hidden launch checklist and moves the REST API guide into "Basics".
    pub const CR_REVIEW: &str = "cr-gs-token-scopes";
    pub const CR_REVIEW_NUMBER: u32 = 1;
    /// Getting Started #2 "Document gateway install on Raspberry Pi 5": open and outdated
    /// (main changed the FAQ since); updating from main succeeds.
    pub const CR_OUTDATED: &str = "cr-gs-raspberry-pi";
    pub const CR_OUTDATED_NUMBER: u32 = 2;
    /// Getting Started #3 "Rewrite configuration reference for 3.2": open; main changed the same
    /// page since it branched, so merge and update answer `conflicts`.
    pub const CR_CONFLICTS: &str = "cr-gs-config-reference";
    pub const CR_CONFLICTS_NUMBER: u32 = 3;
    /// Getting Started #4 "Fix typos in Welcome": merged by the admin.
    pub const CR_MERGED: &str = "cr-gs-welcome-typos";
    pub const CR_MERGED_NUMBER: u32 = 4;
    /// Getting Started #5 "Glossary: add dock, zone and waiver": draft by the editor.
    pub const CR_DRAFT: &str = "cr-gs-glossary";
    pub const CR_DRAFT_NUMBER: u32 = 5;
    /// Getting Started #6 "Move the FAQ to the support portal": archived.
    pub const CR_ARCHIVED: &str = "cr-gs-faq-move";
    pub const CR_ARCHIVED_NUMBER: u32 = 6;
    /// "Platform Runbooks" #1 "Add a failover drill checklist": open.
    pub const CR_RUNBOOK: &str = "cr-rb-failover-drill";
    /// "Lumen Documentation" #1 "Explain reranker memory use": open.
    pub const CR_LUMEN_OPEN: &str = "cr-lu-reranker";
    /// "Lumen Documentation" #2 "Install on Windows": draft.
    pub const CR_LUMEN_DRAFT: &str = "cr-lu-windows";

    /// The page that exists only in [`CR_REVIEW`] (created there).
    pub const PAGE_TOKEN_SCOPES: &str = "pg-gs-token-scopes";
    /// "REST API guide": edited and moved by [`CR_REVIEW`].
    pub const PAGE_REST_API: &str = "pg-gs-rest-api";
    /// "FAQ": deleted by [`CR_ARCHIVED`].
    pub const PAGE_FAQ: &str = "pg-gs-faq";
    /// "Configuration": the page [`CR_CONFLICTS`] and main both changed.
    pub const PAGE_CONFIGURATION: &str = "pg-gs-configuration";
    /// "Welcome", fixed by [`CR_MERGED`].
    pub const PAGE_WELCOME: &str = "pg-gs-welcome";
    /// "Linux", edited by [`CR_OUTDATED`].
    pub const PAGE_INSTALL_LINUX: &str = "pg-gs-install-linux";
    /// The page created by [`CR_OUTDATED`].
    pub const PAGE_RASPBERRY_PI: &str = "pg-gs-install-raspberry-pi";

    /// Lars Nilsson (create), author of [`CR_MERGED`].
    pub const USER_LARS: &str = "usr-lars-nilsson";
    /// Fatima Zahra El Idrissi (edit), author of [`CR_REVIEW`].
    pub const USER_FATIMA: &str = "usr-fatima-el-idrissi";
    /// Sofia Rossi (review), requested reviewer of [`CR_REVIEW`].
    pub const USER_SOFIA: &str = "usr-sofia-rossi";
    /// Kwame Mensah (edit), author of [`CR_OUTDATED`].
    pub const USER_KWAME: &str = "usr-kwame-mensah";
    /// Hannah Schmidt (create), author of [`CR_CONFLICTS`], reviewer of [`CR_REVIEW`].
    pub const USER_HANNAH: &str = "usr-hannah-schmidt";
}

const AMARA: &str = demo::USER_ADMIN;
const JONAS: &str = demo::USER_EDITOR;
const PRIYA: &str = demo::USER_REVIEWER;
const DIEGO: &str = demo::USER_COMMENTER;
const LARS: &str = ids::USER_LARS;
const FATIMA: &str = ids::USER_FATIMA;
const SOFIA: &str = ids::USER_SOFIA;
const KWAME: &str = ids::USER_KWAME;
const HANNAH: &str = ids::USER_HANNAH;

const QUICKSTART: &str = demo::PAGE_QUICKSTART;
const REST_API: &str = ids::PAGE_REST_API;
const TOKEN_SCOPES: &str = ids::PAGE_TOKEN_SCOPES;

/// Adds the demo change requests and brings the space counters in line with them.
pub fn populate(world: &mut World) {
    let getting_started = main_pages(world, demo::SPACE_GETTING_STARTED);
    let runbooks = main_pages(world, "spc-platform-runbooks");
    let lumen = main_pages(world, demo::SPACE_LUMEN_DOCS);
    let main_revision = |world: &World, space: &str| {
        world
            .space(space)
            .map(|space| space.revision.id.clone())
            .unwrap_or_default()
    };
    let getting_started_revision = main_revision(world, demo::SPACE_GETTING_STARTED);
    let runbooks_revision = main_revision(world, "spc-platform-runbooks");
    let lumen_revision = main_revision(world, demo::SPACE_LUMEN_DOCS);
    world.change_requests.items = vec![
        token_scopes(&getting_started, &getting_started_revision),
        raspberry_pi(&getting_started),
        configuration_reference(&getting_started),
        welcome_typos(&getting_started, &getting_started_revision),
        glossary(&getting_started, &getting_started_revision),
        faq_move(&getting_started, &getting_started_revision),
        failover_drill(&runbooks, &runbooks_revision),
        lumen_reranker(&lumen, &lumen_revision),
        lumen_windows(&lumen, &lumen_revision),
    ];
    let answers = [
        (ids::CR_REVIEW, demo::CLUSTER_TOKEN_ERRORS),
        (ids::CR_OUTDATED, demo::CLUSTER_RASPBERRY_PI),
        (ids::CR_RUNBOOK, demo::CLUSTER_FAILOVER),
    ];
    for (change_request, cluster) in answers {
        if let Some(record) = world
            .change_requests
            .items
            .iter_mut()
            .find(|record| record.id == change_request)
        {
            record.cluster = Some(cluster.to_string());
        }
    }
    for space in [
        demo::SPACE_GETTING_STARTED,
        "spc-platform-runbooks",
        demo::SPACE_LUMEN_DOCS,
    ] {
        sync_space_counts(world, space);
    }
}

fn main_pages(world: &World, space: &str) -> Vec<Page> {
    world
        .space(space)
        .map(|space| space.revision.pages.clone())
        .unwrap_or_default()
}

/// An edit of a page's markdown made of text replacements on the base version. Each `from` must
/// occur in the page (a unit test checks that every demo edit really changes its page).
fn rewrite(base: &[Page], page: &str, replacements: &[(&str, &str)]) -> PageEdit {
    let mut markdown = find(base, page)
        .and_then(markdown_of)
        .unwrap_or_default()
        .to_string();
    for (from, to) in replacements {
        #[cfg(test)]
        if !markdown.contains(from) {
            tests::MISSED_REPLACEMENTS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        markdown = markdown.replacen(from, to, 1);
    }
    PageEdit::Edit {
        page: page.to_string(),
        title: None,
        markdown: Some(markdown),
    }
}

/// A created page with its dates set (paths are computed when the content is built).
fn new_page(id: &str, title: &str, markdown: &str, day: u32) -> Page {
    let mut page = document(id, title, markdown);
    page.created_at = timestamp(day, 0);
    page.updated_at = timestamp(day, 0);
    page
}

/// The skeleton every demo change request starts from.
fn change_request(
    id: &str,
    number: u32,
    space: &str,
    subject: &str,
    description: &str,
    created_by: &str,
    day: u32,
) -> ChangeRequest {
    ChangeRequest {
        id: id.to_string(),
        number,
        space: space.to_string(),
        status: Status::Open,
        subject: subject.to_string(),
        description: Some(markdown_to_document(description)),
        cluster: None,
        created_by: created_by.to_string(),
        created_at: timestamp(day, 0),
        updated_at: timestamp(day + 2, 300),
        revision: format!("rev-{id}-2"),
        revision_initial: format!("rev-{id}-1"),
        revision_merged_ancestor: None,
        revision_merged: None,
        merged_by: None,
        merged_at: None,
        base_revision: String::new(),
        base_pages: Vec::new(),
        edits: Vec::new(),
        editors: Vec::new(),
        comments: Vec::new(),
        reviews: Vec::new(),
        requested_reviewers: Vec::new(),
    }
}

/// A comment thread written compactly: who, where, when, what, and what followed.
struct Thread {
    author: &'static str,
    page: Option<&'static str>,
    /// Text of the block the thread is about; it becomes that block's document key (see
    /// [`block_key_of`]).
    node: Option<&'static str>,
    /// Minutes after the change request was created.
    minute: u32,
    text: &'static str,
    replies: &'static [(&'static str, &'static str)],
    reactions: &'static [(&'static str, &'static [&'static str])],
    resolved_by: Option<&'static str>,
}

const fn thread(
    author: &'static str,
    page: Option<&'static str>,
    minute: u32,
    text: &'static str,
) -> Thread {
    Thread {
        author,
        page,
        node: None,
        minute,
        text,
        replies: &[],
        reactions: &[],
        resolved_by: None,
    }
}

/// The key of the first block of `page` (in the change request's content) whose text holds
/// `needle`: the same key `format=document` gives that block, as a client sees it.
fn block_key_of(content: &[Page], page: &str, needle: &str) -> Option<String> {
    let markdown = markdown_of(find(content, page)?)?;
    let document = markdown_to_document(markdown);
    document["nodes"].as_array()?.iter().find_map(|node| {
        let text = node["nodes"][0]["leaves"][0]["text"].as_str()?;
        text.contains(needle)
            .then(|| node["key"].as_str().map(str::to_string))
            .flatten()
    })
}

fn reactions(list: &[(&str, &[&str])], at: &str) -> Vec<Reaction> {
    list.iter()
        .map(|(emoji, users)| Reaction {
            emoji: emoji.to_string(),
            users: users
                .iter()
                .map(|user| (user.to_string(), at.to_string()))
                .collect(),
        })
        .collect()
}

/// Turns threads into comments: ids `cmt-<prefix>-NN`, replies `rpl-<prefix>-NN-M`, replies an
/// hour apart after their comment, reactions at the first reply's time.
fn comments(
    prefix: &str,
    change_request: &ChangeRequest,
    day: u32,
    threads: &[Thread],
) -> Vec<Comment> {
    let content = apply(&change_request.base_pages, &change_request.edits, "t");
    threads
        .iter()
        .enumerate()
        .map(|(index, thread)| {
            let posted_at = timestamp(day, thread.minute);
            let replies = thread
                .replies
                .iter()
                .enumerate()
                .map(|(reply_index, (author, text))| Reply {
                    id: format!("rpl-{prefix}-{:02}-{}", index + 1, reply_index + 1),
                    author: author.to_string(),
                    posted_at: timestamp(day, thread.minute + 60 * (reply_index as u32 + 1)),
                    edited_at: None,
                    markdown: text.to_string(),
                    reactions: Vec::new(),
                })
                .collect();
            let resolved_at =
                timestamp(day, thread.minute + 60 * (thread.replies.len() as u32 + 1));
            Comment {
                id: format!("cmt-{prefix}-{:02}", index + 1),
                author: thread.author.to_string(),
                posted_at: posted_at.clone(),
                edited_at: None,
                markdown: thread.text.to_string(),
                page: thread.page.map(str::to_string),
                node: thread
                    .page
                    .zip(thread.node)
                    .and_then(|(page, needle)| block_key_of(&content, page, needle)),
                review: None,
                revision: change_request.revision.clone(),
                resolved: thread.resolved_by.map(|by| Resolution {
                    at: resolved_at.clone(),
                    by: by.to_string(),
                }),
                reactions: reactions(thread.reactions, &timestamp(day, thread.minute + 30)),
                replies,
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Getting Started #1: the busy review

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

fn token_scopes(main: &[Page], main_revision: &str) -> ChangeRequest {
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

const TOKEN_SCOPE_THREADS: &[Thread] = &[
    Thread {
        replies: &[
            (
                FATIMA,
                "Agreed, that's the whole point of this change request 🙂",
            ),
            (
                DIEGO,
                "Support will be thrilled. Half of last week's tickets were exactly this.",
            ),
        ],
        reactions: &[("👍", &[FATIMA, JONAS, DIEGO]), ("🎉", &[AMARA])],
        ..thread(
            PRIYA,
            Some(QUICKSTART),
            35,
            "Saying `fleet:write` in the first paragraph is a big improvement. People skim straight to the curl command.",
        )
    },
    Thread {
        replies: &[(
            FATIMA,
            "Done: the Check your token step now comes before Step 1.",
        )],
        resolved_by: Some(FATIMA),
        ..thread(
            HANNAH,
            Some(QUICKSTART),
            80,
            "Requesting changes: the token check should come *before* registering the robot, otherwise readers hit the 403 first and only then read how to avoid it.",
        )
    },
    Thread {
        node: Some("Check your token"),
        replies: &[
            (FATIMA, "It exists since 3.1, see the changelog for 3.1.0."),
            (
                JONAS,
                "Confirmed on sandbox: `GET /v1/tokens/self` answers the scopes array.",
            ),
        ],
        resolved_by: Some(JONAS),
        ..thread(
            DIEGO,
            Some(QUICKSTART),
            120,
            "Is `/v1/tokens/self` public already? I couldn't find it in the API reference.",
        )
    },
    Thread {
        reactions: &[("👀", &[FATIMA])],
        ..thread(
            SOFIA,
            Some(QUICKSTART),
            150,
            "Can we use `$FLEET_TOKEN` consistently? The Python tab reads `os.environ[\"FLEET_TOKEN\"]` but never imports `os`.",
        )
    },
    Thread {
        replies: &[
            (
                FATIMA,
                "Good catch — the limits doc says `fleet:telemetry` streams are unmetered but the REST calls are not.",
            ),
            (
                LARS,
                "Then let's say \"event streams are not rate limited\" and leave the rest as is.",
            ),
            (FATIMA, "Reworded."),
        ],
        resolved_by: Some(LARS),
        ..thread(
            LARS,
            Some(QUICKSTART),
            190,
            "\"not rate limited\" is too strong. Telemetry tokens still hit the REST limits for anything that isn't a stream.",
        )
    },
    Thread {
        reactions: &[("❤️", &[FATIMA, PRIYA])],
        ..thread(
            AMARA,
            Some(QUICKSTART),
            240,
            "Love the new warning about `fleet:read`. Could we link the support article for rotating a token too?",
        )
    },
    Thread {
        node: Some("a `fleet:read` token gets"),
        replies: &[(
            FATIMA,
            "Kept it on one line in the rendered page, the markdown wraps only for the diff.",
        )],
        ..thread(
            PRIYA,
            Some(QUICKSTART),
            300,
            "Nit: the requirements item now wraps onto two lines; the em dash reads oddly in the numbered list.",
        )
    },
    Thread {
        ..thread(
            DIEGO,
            Some(QUICKSTART),
            360,
            "Customers on gateway 2.7 will still see `401` instead of `403` for a missing scope. Worth a footnote?",
        )
    },
    Thread {
        replies: &[(
            JONAS,
            "The jq filter works on macOS' jq 1.6 as well, I checked.",
        )],
        reactions: &[("👍", &[PRIYA, SOFIA])],
        ..thread(
            KWAME,
            Some(QUICKSTART),
            420,
            "Not everyone has `jq`. Maybe show the raw JSON answer below the command?",
        )
    },
    Thread {
        resolved_by: Some(FATIMA),
        ..thread(
            SOFIA,
            Some(QUICKSTART),
            480,
            "Typo: \"scopes cannot be\nchanged later\" — the line break lands in the middle of the sentence in the PDF export.",
        )
    },
    Thread {
        replies: &[(
            HANNAH,
            "+1, the API reference calls it the token introspection endpoint.",
        )],
        ..thread(
            PRIYA,
            Some(REST_API),
            520,
            "Should the REST API guide mention the introspection endpoint as well, not only the Quickstart?",
        )
    },
    Thread {
        replies: &[
            (
                FATIMA,
                "Moving it next to the Quickstart was Amara's idea from the docs review.",
            ),
            (
                AMARA,
                "Yes — analytics show 60 % of readers open the API guide right after the Quickstart.",
            ),
        ],
        reactions: &[("👍", &[DIEGO, KWAME, SOFIA])],
        resolved_by: Some(AMARA),
        ..thread(
            HANNAH,
            Some(REST_API),
            560,
            "Why move the REST API guide into Basics? It is not a basic topic.",
        )
    },
    Thread {
        reactions: &[("🚀", &[FATIMA, JONAS])],
        ..thread(
            DIEGO,
            Some(REST_API),
            600,
            "The new `fleet:telemetry` row is exactly what the monitoring partners asked for.",
        )
    },
    Thread {
        replies: &[(
            JONAS,
            "I'd keep 403 generic and put the scope hint in the message text instead.",
        )],
        ..thread(
            LARS,
            Some(REST_API),
            640,
            "In the errors table, the link inside a table cell renders badly in the terminal client.",
        )
    },
    Thread {
        node: Some("| `fleet:telemetry` | Streaming"),
        ..thread(
            SOFIA,
            Some(REST_API),
            700,
            "Should `fleet:write` say it includes `fleet:read`? The Token scopes page says so, this table doesn't.",
        )
    },
    Thread {
        resolved_by: Some(FATIMA),
        replies: &[(FATIMA, "Fixed the anchor.")],
        ..thread(
            KWAME,
            Some(REST_API),
            760,
            "The link to `token-scopes.md` is missing the anchor for *Choosing a scope*.",
        )
    },
    Thread {
        replies: &[
            (
                FATIMA,
                "90 days is what security asked for in the last audit.",
            ),
            (
                AMARA,
                "Let's make it a recommendation rather than a rule; some customers rotate monthly.",
            ),
        ],
        reactions: &[("🤔", &[LARS])],
        ..thread(
            PRIYA,
            Some(TOKEN_SCOPES),
            800,
            "Where does \"rotate every 90 days\" come from? If it's policy we should link it.",
        )
    },
    Thread {
        reactions: &[("👍", &[FATIMA, AMARA, JONAS, KWAME])],
        ..thread(
            DIEGO,
            Some(TOKEN_SCOPES),
            850,
            "This page answers the #1 question in the support queue. Thank you!",
        )
    },
    Thread {
        replies: &[(
            FATIMA,
            "Added a \"Typical user\" column instead of a paragraph per scope.",
        )],
        resolved_by: Some(PRIYA),
        ..thread(
            HANNAH,
            Some(TOKEN_SCOPES),
            900,
            "A sentence per scope on *who* should use it would help more than the list of allowed calls.",
        )
    },
    Thread {
        node: Some("Keep them out of CI"),
        ..thread(
            SOFIA,
            Some(TOKEN_SCOPES),
            950,
            "The warning hint says \"Keep them out of CI\" — but our own deploy pipeline uses an admin token. Should we say \"out of shared CI\"?",
        )
    },
    Thread {
        replies: &[
            (JONAS, "Not yet, it's planned for 3.3."),
            (
                FATIMA,
                "Then I'll drop the sentence about editing scopes and keep \"cannot be changed\".",
            ),
        ],
        ..thread(
            KWAME,
            Some(TOKEN_SCOPES),
            1000,
            "Can scopes really not be changed after creation? The settings UI shows an edit button.",
        )
    },
    Thread {
        reactions: &[("😂", &[DIEGO])],
        ..thread(
            LARS,
            Some(TOKEN_SCOPES),
            1040,
            "\"Typical user: Dashboards\" — dashboards are not users, but I'll allow it.",
        )
    },
    Thread {
        replies: &[(
            FATIMA,
            "Deleted on purpose: the checklist moved to Platform Runbooks last sprint.",
        )],
        resolved_by: Some(AMARA),
        ..thread(
            JONAS,
            None,
            1100,
            "This deletes the hidden *Launch checklist* page. Intentional?",
        )
    },
    Thread {
        reactions: &[("👍", &[FATIMA])],
        ..thread(
            AMARA,
            None,
            1150,
            "Once this is merged, please post in `#docs-updates` so support can update their macros.",
        )
    },
    Thread {
        replies: &[
            (PRIYA, "I'll take a second pass tomorrow morning."),
            (SOFIA, "Same, reviewing after the release train leaves."),
        ],
        ..thread(
            FATIMA,
            None,
            1200,
            "@Priya @Sofia — ready for another look, all of Hannah's points are addressed.",
        )
    },
    Thread {
        reactions: &[("🎉", &[FATIMA, HANNAH, DIEGO])],
        ..thread(
            DIEGO,
            None,
            1260,
            "Screenshot in the Quickstart still shows the old token settings page, but that can be a follow-up.",
        )
    },
];

// ---------------------------------------------------------------------------------------------
// Getting Started #2–#6

fn raspberry_pi(main: &[Page]) -> ChangeRequest {
    let day = 690;
    let mut change_request = change_request(
        ids::CR_OUTDATED,
        ids::CR_OUTDATED_NUMBER,
        demo::SPACE_GETTING_STARTED,
        "Document gateway install on Raspberry Pi 5",
        "Several pilot sites run the gateway on a Raspberry Pi 5. This adds the ARM64 package and a \
         page with the tested setup.",
        KWAME,
        day,
    );
    // Branched before main's FAQ said 72 hours; nothing here touches the FAQ, so updating works.
    change_request.base_revision = "rev-getting-started-0".to_string();
    change_request.base_pages = apply(
        main,
        &[rewrite(
            main,
            ids::PAGE_FAQ,
            &[("up to 72 hours", "up to 48 hours")],
        )],
        &timestamp(200, 0),
    );
    let base = change_request.base_pages.clone();
    change_request.edits = vec![
        rewrite(
            &base,
            ids::PAGE_INSTALL_LINUX,
            &[
                (
                    "Supported: Debian 12, Ubuntu 22.04 and 24.04, RHEL 9.",
                    "Supported: Debian 12, Ubuntu 22.04 and 24.04, RHEL 9, on x86_64 and ARM64.",
                ),
                (
                    "{% hint style=\"info\" %}",
                    "## ARM64\n\nThe same script detects ARM64 and installs the `fleet-gateway-arm64` \
                     package. On a Raspberry Pi see [Raspberry Pi](raspberry-pi.md) for the tested \
                     setup.\n\n{% hint style=\"info\" %}",
                ),
            ],
        ),
        PageEdit::Create {
            page: Box::new(new_page(
                ids::PAGE_RASPBERRY_PI,
                "Raspberry Pi",
                "# Raspberry Pi\n\nA Raspberry Pi 5 with 8 GiB of memory serves up to 40 robots.\n\n\
                 1. Flash Raspberry Pi OS Lite (64-bit).\n2. Use an SSD over USB 3 — SD cards wear \
                 out within weeks under telemetry load.\n3. Run the Linux install script.\n\n\
                 ```bash\ncurl -fsSL https://get.acme-robotics.example/gateway.sh | sudo bash -s -- \
                 --site berlin-dc\n```\n",
                day,
            )),
            parent: Some(demo::PAGE_INSTALLATION.to_string()),
            index: 3,
        },
    ];
    change_request.comments = comments(
        "gs2",
        &change_request,
        day,
        &[
            Thread {
                replies: &[(KWAME, "Yes, the active cooler. Added to the list.")],
                ..thread(
                    PRIYA,
                    Some(ids::PAGE_RASPBERRY_PI),
                    60,
                    "Did the 40-robot figure hold with the official cooler only?",
                )
            },
            Thread {
                reactions: &[("👍", &[KWAME])],
                ..thread(
                    DIEGO,
                    Some(ids::PAGE_INSTALL_LINUX),
                    200,
                    "Nice — customers ask about ARM every week.",
                )
            },
            thread(
                JONAS,
                None,
                400,
                "Main moved on since this was opened; please update from main before merging.",
            ),
        ],
    );
    change_request.requested_reviewers = vec![RequestedReviewer {
        user: PRIYA.to_string(),
        requested_by: KWAME.to_string(),
        created_at: timestamp(day, 10),
        revision: change_request.revision.clone(),
    }];
    change_request
}

fn configuration_reference(main: &[Page]) -> ChangeRequest {
    let day = 695;
    let mut change_request = change_request(
        ids::CR_CONFLICTS,
        ids::CR_CONFLICTS_NUMBER,
        demo::SPACE_GETTING_STARTED,
        "Rewrite configuration reference for 3.2",
        "Documents every key of `fleet.yaml` in 3.2, including `telemetry.flush_every` and \
         `logging.format`.",
        HANNAH,
        day,
    );
    // Branched when the cloud timeout default was still 5 s; main changed it to 10 s since, and
    // this change request rewrites the same page: merging and updating both conflict.
    change_request.base_revision = "rev-getting-started-0".to_string();
    change_request.base_pages = apply(
        main,
        &[rewrite(
            main,
            ids::PAGE_CONFIGURATION,
            &[
                ("timeout_seconds: 10", "timeout_seconds: 5"),
                ("| integer | `10` |", "| integer | `5` |"),
            ],
        )],
        &timestamp(200, 0),
    );
    let base = change_request.base_pages.clone();
    change_request.edits = vec![rewrite(
        &base,
        ids::PAGE_CONFIGURATION,
        &[
            (
                "| `logging.level` | enum | `info` | Log verbosity |",
                "| `telemetry.flush_every` | duration | `5s` | How often buffered telemetry is sent |\n\
                 | `logging.level` | enum | `info` | Log verbosity |\n\
                 | `logging.format` | enum | `json` | `json` or `text` |",
            ),
            (
                "Keys under `safety` are **not** reloaded at run time: restart the gateway to change them.",
                "Keys under `safety` and `token_file` are **not** reloaded at run time: restart the \
                 gateway to change them. Everything else takes effect within one second of `SIGHUP`.",
            ),
        ],
    )];
    change_request.comments = comments(
        "gs3",
        &change_request,
        day,
        &[
            Thread {
                replies: &[(
                    HANNAH,
                    "I'll rebase on main once the 3.2 defaults are final.",
                )],
                ..thread(
                    JONAS,
                    Some(ids::PAGE_CONFIGURATION),
                    90,
                    "This conflicts with my change of the cloud timeout default (5 s → 10 s) that went in last week.",
                )
            },
            thread(
                PRIYA,
                Some(ids::PAGE_CONFIGURATION),
                300,
                "Is `logging.format: text` supported on Windows too?",
            ),
        ],
    );
    change_request
}

fn welcome_typos(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 640;
    let mut change_request = change_request(
        ids::CR_MERGED,
        ids::CR_MERGED_NUMBER,
        demo::SPACE_GETTING_STARTED,
        "Fix typos in Welcome",
        "Three typos and a broken sentence reported through the feedback widget.",
        LARS,
        day,
    );
    change_request.status = Status::Merged;
    // The base is main before the fix; the fix is what main has now.
    change_request.base_revision = "rev-getting-started-0".to_string();
    change_request.base_pages = apply(
        main,
        &[rewrite(
            main,
            ids::PAGE_WELCOME,
            &[
                (
                    "warehouses, hospitals and\nfactories",
                    "warehouses, hosptials and\nfactories",
                ),
                ("who run a fleet day to day", "who runs a fleet day to day"),
                (
                    "we\n  answer within one business day",
                    "we\n  answer whithin one business day",
                ),
            ],
        )],
        &timestamp(200, 0),
    );
    change_request.edits = vec![PageEdit::Edit {
        page: ids::PAGE_WELCOME.to_string(),
        title: None,
        markdown: find(main, ids::PAGE_WELCOME)
            .and_then(markdown_of)
            .map(str::to_string),
    }];
    change_request.revision_merged = Some(main_revision.to_string());
    change_request.merged_by = Some(AMARA.to_string());
    change_request.merged_at = Some(timestamp(day + 1, 120));
    change_request.updated_at = timestamp(day + 1, 120);
    change_request.reviews = vec![Review {
        id: "rvw-gs4-1".to_string(),
        reviewer: PRIYA.to_string(),
        requested_by: Some(LARS.to_string()),
        status: ReviewStatus::Approved,
        revision: change_request.revision.clone(),
        outdated: false,
        comment: None,
        created_at: timestamp(day + 1, 60),
        updated_at: timestamp(day + 1, 60),
    }];
    change_request.comments = comments(
        "gs4",
        &change_request,
        day,
        &[Thread {
            reactions: &[("🙏", &[LARS])],
            resolved_by: Some(LARS),
            ..thread(
                PRIYA,
                Some(ids::PAGE_WELCOME),
                30,
                "\"hosptials\" — good catch, it's been there since launch.",
            )
        }],
    );
    change_request
}

fn glossary(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 705;
    let mut change_request = change_request(
        ids::CR_DRAFT,
        ids::CR_DRAFT_NUMBER,
        demo::SPACE_GETTING_STARTED,
        "Glossary: add dock, zone and waiver",
        "Work in progress: terms that the Configuration and Quickstart pages use without defining.",
        JONAS,
        day,
    );
    change_request.status = Status::Draft;
    change_request.base_revision = main_revision.to_string();
    change_request.base_pages = main.to_vec();
    change_request.edits = vec![rewrite(
        main,
        "pg-gs-glossary",
        &[
            (
                "**Station**\n: A named pose on a site map.\n",
                "**Station**\n: A named pose on a site map.\n\n**Dock**\n: A charging station; robots \
                 return to the nearest free dock below 20 % battery.\n\n**Waiver**\n: A signed file \
                 that allows `safety.max_speed_mps` above 2.0.\n",
            ),
            (
                "| Zone | An area with special speed or access rules |",
                "| Zone | An area with special speed or access rules, drawn on the site map |",
            ),
        ],
    )];
    change_request
}

fn faq_move(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 600;
    let mut change_request = change_request(
        ids::CR_ARCHIVED,
        ids::CR_ARCHIVED_NUMBER,
        demo::SPACE_GETTING_STARTED,
        "Move the FAQ to the support portal",
        "Proposal: keep the FAQ next to the ticket form in the support portal instead of the docs.",
        FATIMA,
        day,
    );
    change_request.status = Status::Archived;
    change_request.base_revision = main_revision.to_string();
    change_request.base_pages = main.to_vec();
    change_request.edits = vec![
        PageEdit::Delete {
            page: ids::PAGE_FAQ.to_string(),
        },
        rewrite(
            main,
            ids::PAGE_WELCOME,
            &[(
                "* Search these docs with <kbd>/</kbd>.",
                "* Search these docs with <kbd>/</kbd>, or read the FAQ in the support portal.",
            )],
        ),
    ];
    change_request.comments = comments(
        "gs6",
        &change_request,
        day,
        &[Thread {
            reactions: &[("👍", &[FATIMA])],
            ..thread(
                AMARA,
                None,
                300,
                "Archiving: support wants to keep the FAQ in the docs for now, search traffic depends on it.",
            )
        }],
    );
    change_request
}

// ---------------------------------------------------------------------------------------------
// Other spaces

fn failover_drill(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 698;
    let mut change_request = change_request(
        ids::CR_RUNBOOK,
        1,
        "spc-platform-runbooks",
        "Add a failover drill checklist",
        "We drill failover every quarter; this writes down what we actually do.",
        KWAME,
        day,
    );
    change_request.base_revision = main_revision.to_string();
    change_request.base_pages = main.to_vec();
    change_request.edits = vec![rewrite(
        main,
        "pg-rb-failover",
        &[(
            "## Decide",
            "## Drill\n\nOnce per quarter, on a Tuesday morning:\n\n- [ ] Announce in `#platform` \
             15 minutes before\n- [ ] Fail over to the replica with the commands below\n- [ ] Check \
             lag and 5xx rate for 10 minutes\n- [ ] Fail back and file the drill report\n\n## Decide",
        )],
    )];
    change_request.comments = comments(
        "rb1",
        &change_request,
        day,
        &[thread(
            AMARA,
            Some("pg-rb-failover"),
            45,
            "Please add who is allowed to start a drill.",
        )],
    );
    change_request
}

fn lumen_reranker(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 702;
    let mut change_request = change_request(
        ids::CR_LUMEN_OPEN,
        1,
        demo::SPACE_LUMEN_DOCS,
        "Explain reranker memory use",
        "Users keep running out of memory with the large reranker on small VMs.",
        "usr-ben-carter",
        day,
    );
    change_request.base_revision = main_revision.to_string();
    change_request.base_pages = main.to_vec();
    change_request.edits = vec![rewrite(
        main,
        "pg-lu-config",
        &[(
            "| `ranking.reranker` | `\"small\"` | `\"large\"` needs 300 MB of RAM |",
            "| `ranking.reranker` | `\"small\"` | `\"small\"` needs 60 MB of RAM, `\"large\"` 300 MB; \
             use `\"off\"` on machines with less than 512 MB |",
        )],
    )];
    change_request.comments = comments(
        "lu1",
        &change_request,
        day,
        &[thread(
            "usr-yuki-sato",
            Some("pg-lu-config"),
            30,
            "Are those numbers per index or per process?",
        )],
    );
    change_request
}

fn lumen_windows(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 706;
    let mut change_request = change_request(
        ids::CR_LUMEN_DRAFT,
        2,
        demo::SPACE_LUMEN_DOCS,
        "Install on Windows",
        "Draft: winget package and PATH notes.",
        "usr-rustam-aliyev",
        day,
    );
    change_request.status = Status::Draft;
    change_request.base_revision = main_revision.to_string();
    change_request.base_pages = main.to_vec();
    change_request.edits = vec![PageEdit::Create {
        page: Box::new(new_page(
            "pg-lu-install-windows",
            "Install on Windows",
            "# Install on Windows\n\n```powershell\nwinget install LumenOSS.Lumen\n```\n\nRestart \
             the terminal so that `lumen` is on the `PATH`.\n",
            day,
        )),
        parent: Some("pg-lu-introduction".to_string()),
        index: 2,
    }];
    change_request
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::change_requests::content::changes;

    /// Counts text replacements of demo edits whose `from` text was not in the page.
    pub static MISSED_REPLACEMENTS: std::sync::atomic::AtomicUsize =
        std::sync::atomic::AtomicUsize::new(0);

    #[test]
    fn every_demo_edit_changes_its_page() {
        let world = crate::sandbox::demo::world();
        assert_eq!(
            MISSED_REPLACEMENTS.load(std::sync::atomic::Ordering::SeqCst),
            0,
            "a demo edit replaces text its page does not contain"
        );
        for change_request in &world.change_requests.items {
            for edit in &change_request.edits {
                if let PageEdit::Edit { page, markdown, .. } = edit {
                    let before = find(&change_request.base_pages, page).and_then(markdown_of);
                    assert!(before.is_some(), "{}: no page {page}", change_request.id);
                    assert_ne!(
                        before,
                        markdown.as_deref(),
                        "{}: {page} unchanged",
                        change_request.id
                    );
                }
            }
            let content = apply(&change_request.base_pages, &change_request.edits, "t");
            assert!(!changes(&change_request.base_pages, &content).is_empty());
        }
    }

    #[test]
    fn the_review_has_enough_threads() {
        let world = crate::sandbox::demo::world();
        let review = world
            .change_requests
            .find(demo::SPACE_GETTING_STARTED, ids::CR_REVIEW);
        let comments = review
            .map(|index| world.change_requests.items[index].comments.len())
            .unwrap_or(0);
        assert!(comments >= 25);
    }

    #[test]
    fn demo_threads_on_a_block_name_a_block_of_the_document() {
        let world = crate::sandbox::demo::world();
        let on_blocks: Vec<&Comment> = world
            .change_requests
            .items
            .iter()
            .flat_map(|change_request| &change_request.comments)
            .filter(|comment| comment.node.is_some())
            .collect();
        assert_eq!(on_blocks.len(), 4, "each needle found its block");
        assert!(
            on_blocks
                .iter()
                .all(|comment| comment.node.as_deref().unwrap().starts_with("block-"))
        );
    }
}
