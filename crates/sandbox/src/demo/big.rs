//! The big demo (`quire sandbox --big`, `quire --demo --big`): one more organization, "Big Co",
//! sized to try quire at scale. Its space holds 10,000 pages nested four levels deep, one of
//! them a ~1 MB page with every block type the demo uses, and a change request with 2,000
//! comment threads (500 with replies). Everything derives from indices, so two runs serve the
//! same bytes: no randomness at all.

use super::{document, finish_tree, group, ids, timestamp};
use crate::change_requests::model::{ChangeRequest, Comment, PageEdit, Reply, Resolution, Status};
use crate::change_requests::routes::sync_space_counts;
use crate::model::{Organization, Page, Revision, Role, Space};
use crate::render::markdown_to_document;
use crate::world::World;

/// "Big Co": business organization, only present with `--big`.
pub const ORGANIZATION: &str = "org-big-co";
/// "Knowledge Base" of Big Co: 10,000 pages.
pub const SPACE: &str = "spc-big-knowledge-base";
/// The ~1 MB page with every block type ("Everything, at length").
pub const PAGE_HUGE: &str = "pg-big-everything";
/// Knowledge Base #1 "Reorganise the knowledge base": open, 2,000 comment threads.
pub const CHANGE_REQUEST: &str = "cr-big-reorganise";

/// Pages in the space, groups included.
pub const PAGE_COUNT: usize = 10_000;
/// Comment threads on [`CHANGE_REQUEST`].
pub const THREAD_COUNT: usize = 2_000;
/// Every this many threads has replies: 500 of the 2,000.
const REPLIED_EVERY: usize = 4;
/// The big page grows chapter by chapter until it has at least this many bytes.
const HUGE_PAGE_BYTES: usize = 1_000_000;

/// The tree's shape: 10 groups × 9 sections × 10 topics × 10 articles = 10,000 pages.
const GROUPS: [&str; 10] = [
    "Platform",
    "Billing",
    "Identity",
    "Storage",
    "Networking",
    "Analytics",
    "Mobile",
    "Support",
    "Security",
    "Operations",
];
const SECTION_SUBJECTS: [&str; 9] = [
    "Overview",
    "Concepts",
    "Guides",
    "Tutorials",
    "Reference",
    "Integrations",
    "Troubleshooting",
    "Release notes",
    "Policies",
];
const TOPIC_VERBS: [&str; 10] = [
    "Configuring",
    "Monitoring",
    "Migrating",
    "Scaling",
    "Securing",
    "Testing",
    "Deploying",
    "Debugging",
    "Auditing",
    "Automating",
];
const TOPIC_NOUNS: [&str; 10] = [
    "accounts",
    "invoices",
    "webhooks",
    "quotas",
    "regions",
    "dashboards",
    "pipelines",
    "exports",
    "alerts",
    "workspaces",
];
const ARTICLE_TITLES: [&str; 10] = [
    "Getting started with",
    "Limits of",
    "Best practices for",
    "FAQ about",
    "Permissions for",
    "Cost of",
    "Errors in",
    "Checklist for",
    "History of",
    "Glossary of",
];

/// The demo users who post on the change request, most active first.
const PEOPLE: [&str; 5] = [
    ids::USER_ADMIN,
    ids::USER_EDITOR,
    ids::USER_REVIEWER,
    ids::USER_COMMENTER,
    ids::USER_READER,
];

/// Adds Big Co, its space and its change request to an already populated demo world.
pub(crate) fn populate(world: &mut World) {
    world.organizations.push(organization());
    add_memberships(world);
    world.spaces.push(space());
    let change_request = change_request(world);
    world.change_requests.items.push(change_request);
    sync_space_counts(world, SPACE);
}

fn organization() -> Organization {
    Organization {
        id: ORGANIZATION.to_string(),
        title: "Big Co".to_string(),
        created_at: timestamp(200, 0),
        email_domains: vec!["big-co.example".to_string()],
        hostname: "big-co".to_string(),
        organization_type: "business",
        use_case: "internalDocs",
        community_type: None,
        default_role: Some(Role::Read),
        sso: false,
        ai: false,
        invite_links: false,
        plan: "enterprise_2024",
        billing_interval: "yearly",
        trial_status: "ended",
        logo: None,
    }
}

/// Everyone in Acme Robotics is in Big Co too, with the same role: each demo token works.
fn add_memberships(world: &mut World) {
    let acme: Vec<_> = world
        .memberships
        .iter()
        .filter(|membership| membership.organization == ids::ACME)
        .cloned()
        .collect();
    for mut membership in acme {
        membership.organization = ORGANIZATION.to_string();
        membership.sso = false;
        world.memberships.push(membership);
    }
}

fn space() -> Space {
    let mut pages = page_tree();
    finish_tree(&mut pages, 210);
    Space {
        id: SPACE.to_string(),
        organization: ORGANIZATION.to_string(),
        parent: None,
        title: "Knowledge Base".to_string(),
        emoji: "🏢".to_string(),
        visibility: "private",
        edit_mode: "live",
        created_at: timestamp(210, 0),
        updated_at: timestamp(400, 15),
        language: "en",
        default_level: None,
        comments: THREAD_COUNT as u32,
        change_requests: 0,
        change_requests_open: 0,
        change_requests_draft: 0,
        published_url: None,
        git_repository: None,
        revision: Revision {
            id: "rev-big-knowledge-base-1".to_string(),
            parents: vec!["rev-big-knowledge-base-0".to_string()],
            created_at: timestamp(400, 15),
            git_message: None,
            pages,
            files: Vec::new(),
            variables: Default::default(),
        },
        deleted_at: None,
        merge_rules: Default::default(),
    }
}

/// 10 groups, each with 9 section pages of 10 topics of 10 articles. The first section of
/// the first group is the huge page.
fn page_tree() -> Vec<Page> {
    GROUPS
        .iter()
        .enumerate()
        .map(|(g, area)| {
            let sections = SECTION_SUBJECTS
                .iter()
                .enumerate()
                .map(|(s, subject)| section(g, s, area, subject))
                .collect();
            group(&format!("pg-big-{g}"), area, sections)
        })
        .collect()
}

fn section(g: usize, s: usize, area: &str, subject: &str) -> Page {
    let id = format!("pg-big-{g}-{s}");
    let topics = (0..TOPIC_VERBS.len())
        .map(|t| topic(&id, g, s, t, area))
        .collect();
    if g == 0 && s == 0 {
        return document(PAGE_HUGE, "Everything, at length", &huge_markdown())
            .emoji("📚")
            .describe("Every block type, a megabyte of it.")
            .with_children(topics);
    }
    // Groups do not add to paths, so section titles carry their area to keep paths unique.
    let title = format!("{area} {}", subject.to_lowercase());
    let markdown = format!(
        "# {title}\n\nThis section gathers what {area} teams need about {}.\n",
        subject.to_lowercase()
    );
    document(&id, &title, &markdown).with_children(topics)
}

fn topic(parent: &str, g: usize, s: usize, t: usize, area: &str) -> Page {
    let id = format!("{parent}-{t}");
    let noun = TOPIC_NOUNS[(t + g + s) % TOPIC_NOUNS.len()];
    let title = format!("{} {noun}", TOPIC_VERBS[t]);
    let markdown = format!(
        "# {title}\n\nHow {area} handles {noun}: the steps, the limits and who to ask.\n\n\
         - Owner: team {area}\n- Reviewed every quarter\n"
    );
    let articles = ARTICLE_TITLES
        .iter()
        .enumerate()
        .map(|(a, lead)| {
            let title = format!("{lead} {noun}");
            let markdown = format!(
                "# {title}\n\nArticle {a} of *{}*. See [the overview](../) for context.\n\n\
                 | Field | Value |\n| --- | --- |\n| Area | {area} |\n| Number | {g}.{s}.{t}.{a} |\n",
                TOPIC_VERBS[t]
            );
            document(&format!("{id}-{a}"), &title, &markdown)
        })
        .collect();
    document(&id, &title, &markdown).with_children(articles)
}

/// The Quickstart page (which has every block type) over and over as numbered chapters, with
/// headings and footnote labels made unique per chapter, until it passes a megabyte.
fn huge_markdown() -> String {
    let quickstart = include_str!("pages/quickstart.md");
    let body = quickstart
        .split_once('\n')
        .map_or(quickstart, |(_, rest)| rest);
    let mut markdown = String::with_capacity(HUGE_PAGE_BYTES + 2 * body.len());
    markdown.push_str("# Everything, at length\n\nEvery block type, chapter after chapter.\n\n");
    let mut chapter = 1;
    while markdown.len() < HUGE_PAGE_BYTES {
        markdown.push_str(&format!("# Chapter {chapter}\n"));
        markdown.push_str(&body.replace("[^", &format!("[^c{chapter}-")));
        markdown.push('\n');
        chapter += 1;
    }
    markdown
}

/// Open, by the admin, editing one article; threads spread over the space's pages.
fn change_request(world: &World) -> ChangeRequest {
    let (base_pages, base_revision) = world
        .space(SPACE)
        .map(|space| (space.revision.pages.clone(), space.revision.id.clone()))
        .unwrap_or_default();
    let page_ids: Vec<String> = world
        .space(SPACE)
        .map(|space| {
            space
                .revision
                .flatten()
                .iter()
                .map(|(page, _)| page.id.clone())
                .collect()
        })
        .unwrap_or_default();
    let revision = format!("rev-{CHANGE_REQUEST}-2");
    let edited = "pg-big-1-2-3-4";
    ChangeRequest {
        id: CHANGE_REQUEST.to_string(),
        number: 1,
        space: SPACE.to_string(),
        status: Status::Open,
        subject: "Reorganise the knowledge base".to_string(),
        description: Some(markdown_to_document(
            "Moves every area to the new template. Comments welcome on any page.",
        )),
        cluster: None,
        created_by: ids::USER_ADMIN.to_string(),
        created_at: timestamp(401, 0),
        updated_at: timestamp(420, 0),
        comments: threads(&page_ids, &revision),
        revision,
        revision_initial: format!("rev-{CHANGE_REQUEST}-1"),
        revision_merged_ancestor: None,
        revision_merged: None,
        merged_by: None,
        merged_at: None,
        base_revision,
        base_pages,
        edits: vec![PageEdit::Edit {
            page: edited.to_string(),
            title: None,
            markdown: Some("# FAQ about quotas\n\nRewritten for the new template.\n".to_string()),
        }],
        editors: vec![ids::USER_EDITOR.to_string()],
        reviews: Vec::new(),
        requested_reviewers: Vec::new(),
    }
}

/// 2,000 threads; every fourth has one to three replies, every tenth is resolved.
fn threads(page_ids: &[String], revision: &str) -> Vec<Comment> {
    (0..THREAD_COUNT)
        .map(|index| {
            let minute = index as u32 * 7;
            let author = PEOPLE[index % PEOPLE.len()];
            let page = page_ids.get(index * 5 % page_ids.len().max(1)).cloned();
            let replies = if index % REPLIED_EVERY == 0 {
                (0..1 + index % 3)
                    .map(|reply| Reply {
                        id: format!("rpl-big-{index}-{reply}"),
                        author: PEOPLE[(index + reply + 1) % PEOPLE.len()].to_string(),
                        posted_at: timestamp(402, minute + 3 + reply as u32),
                        edited_at: None,
                        markdown: format!("Reply {} to thread {}: agreed.", reply + 1, index + 1),
                        reactions: Vec::new(),
                    })
                    .collect()
            } else {
                Vec::new()
            };
            Comment {
                id: format!("cmt-big-{index}"),
                author: author.to_string(),
                posted_at: timestamp(402, minute),
                edited_at: None,
                markdown: format!(
                    "Thread {}: should this page follow the **new template**?",
                    index + 1
                ),
                page,
                node: None,
                table_cell: None,
                review: None,
                revision: revision.to_string(),
                resolved: (index % 10 == 9).then(|| Resolution {
                    at: timestamp(403, minute),
                    by: ids::USER_ADMIN.to_string(),
                }),
                reactions: Vec::new(),
                replies,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_world_has_the_promised_sizes() {
        let mut world = super::super::world();
        populate(&mut world);
        let space = world.space(SPACE).expect("big space");
        assert_eq!(space.revision.flatten().len(), PAGE_COUNT);
        let huge = space.revision.page(PAGE_HUGE).expect("huge page");
        let markdown = crate::change_requests::content::markdown_of(huge);
        assert!(markdown.is_some_and(|text| text.len() >= HUGE_PAGE_BYTES));
        let change_request = world
            .change_requests
            .items
            .iter()
            .find(|item| item.id == CHANGE_REQUEST)
            .expect("big change request");
        assert_eq!(change_request.comments.len(), THREAD_COUNT);
        let replied = change_request
            .comments
            .iter()
            .filter(|comment| !comment.replies.is_empty())
            .count();
        assert_eq!(replied, THREAD_COUNT / REPLIED_EVERY);
        let mut paths: Vec<&str> = space
            .revision
            .flatten()
            .iter()
            .filter(|(page, _)| !matches!(page.kind, crate::model::PageKind::Group))
            .map(|(page, _)| page.path.as_str())
            .collect();
        let total = paths.len();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), total, "page paths are unique");
    }
}
