//! The demo world: two organizations ("Acme Robotics", a business, and "Lumen OSS", an
//! open-source community), nested collections three levels deep, eleven spaces, a dozen members
//! and page trees written like real product documentation. Ids are stable and readable so
//! tests and screenshots can name them; [`ids`] lists the useful ones.

pub(crate) mod activity;
mod api_reference;
pub(crate) mod big;
mod change_requests;
mod conversations;
pub(crate) mod dates;
mod organizations;
mod sites;
mod spaces;
mod templates;

pub(crate) use dates::timestamp;

use super::model::{Page, PageKind};
use super::render::slugify;
use super::world::World;

/// Stable ids of the demo data, for tests and documentation.
pub mod ids {
    pub use super::change_requests::ids::*;
    pub use super::conversations::cluster_ids::*;
    pub use super::sites::ids::*;

    /// Only with `--big` ([`SandboxOptions::big`](crate::SandboxOptions::big)): the
    /// "Big Co" organization, its 10,000-page space, the ~1 MB page and the change request
    /// with 2,000 threads.
    pub use super::big::{
        CHANGE_REQUEST as CR_BIG, ORGANIZATION as BIG_CO, PAGE_COUNT as BIG_PAGE_COUNT,
        PAGE_HUGE as PAGE_BIG_HUGE, SPACE as SPACE_BIG, THREAD_COUNT as CR_BIG_THREAD_COUNT,
    };

    /// "Acme Robotics": business organization, plan `pro_2024`. The first organization listed.
    pub const ACME: &str = "org-acme-robotics";
    /// "Lumen OSS": community organization, plan `community_2024`.
    pub const LUMEN: &str = "org-lumen-oss";

    /// Acme, top level: "Engineering".
    pub const COLLECTION_ENGINEERING: &str = "col-engineering";
    /// Acme, inside Engineering: "Platform".
    pub const COLLECTION_PLATFORM: &str = "col-platform";
    /// Acme, inside Platform (third level): "Robotics SDK".
    pub const COLLECTION_ROBOTICS_SDK: &str = "col-robotics-sdk";
    /// Acme, top level: "Product Docs".
    pub const COLLECTION_PRODUCT: &str = "col-product";
    /// Lumen, top level: "Lumen Core".
    pub const COLLECTION_LUMEN_CORE: &str = "col-lumen-core";
    /// Lumen, inside Lumen Core: "Governance", where the demo admin holds only the `create`
    /// role (so `permissions.admin` is false on it and on the RFCs space inside).
    pub const COLLECTION_LUMEN_GOVERNANCE: &str = "col-lumen-governance";

    /// "Getting Started" (Acme, in Product Docs, public, live): the showcase space with groups,
    /// nested pages, a link page and a hidden page.
    pub const SPACE_GETTING_STARTED: &str = "spc-getting-started";
    /// "Fleet API Reference" (Acme, in Robotics SDK, unlisted, locked): 300+ generated pages.
    pub const SPACE_API_REFERENCE: &str = "spc-fleet-api";
    /// "Changelog" (Acme, in Product Docs, public, locked): holds the hostile-title page.
    pub const SPACE_CHANGELOG: &str = "spc-changelog";
    /// "Employee Handbook" (Acme, no collection, private).
    pub const SPACE_HANDBOOK: &str = "spc-handbook";
    /// "Lumen Documentation" (Lumen, in Lumen Core, public).
    pub const SPACE_LUMEN_DOCS: &str = "spc-lumen-docs";

    /// "Old Onboarding" (Acme, in Product Docs): deleted two days ago, in the trash.
    pub const SPACE_DELETED_ONBOARDING: &str = "spc-old-onboarding";
    /// "Q3 Planning" (Acme, top level, locked): deleted five days ago, in the trash.
    pub const SPACE_DELETED_PLANNING: &str = "spc-q3-planning";

    /// Group page "Basics" at the top of Getting Started.
    pub const PAGE_BASICS_GROUP: &str = "pg-gs-basics";
    /// "Quickstart": every markdown feature and GitBook block in one page.
    pub const PAGE_QUICKSTART: &str = "pg-gs-quickstart";
    /// "Installation", which has nested child pages (Linux, macOS, Windows → WSL).
    pub const PAGE_INSTALLATION: &str = "pg-gs-installation";
    /// A `link` page ("Status page") in Getting Started.
    pub const PAGE_STATUS_LINK: &str = "pg-gs-status";
    /// A `hidden: true` page in Getting Started.
    pub const PAGE_HIDDEN: &str = "pg-gs-launch-checklist";
    /// The page in Changelog whose title carries an ESC sequence and a bidi override.
    pub const PAGE_HOSTILE: &str = "pg-cl-hostile";

    /// A content template that adds one "How-to guide" page.
    pub const TEMPLATE_HOW_TO: &str = "tpl-how-to-guide";
    /// A content template that adds one "Release notes" page; its `screenshot` content
    /// reference takes a file of the space.
    pub const TEMPLATE_RELEASE_NOTES: &str = "tpl-release-notes";

    /// The user behind `tokens::ADMIN`.
    pub const USER_ADMIN: &str = "usr-amara-okafor";
    /// The user behind `tokens::EDITOR`.
    pub const USER_EDITOR: &str = "usr-jonas-berg";
    /// The user behind `tokens::REVIEWER`.
    pub const USER_REVIEWER: &str = "usr-priya-raman";
    /// The user behind `tokens::COMMENTER`.
    pub const USER_COMMENTER: &str = "usr-diego-alvarez";
    /// The user behind `tokens::READER`.
    pub const USER_READER: &str = "usr-mei-tanaka";
}

/// Builds a fresh demo world, with the big organization ([`big`]) when asked.
pub(crate) fn world_with(big_organization: bool) -> World {
    let mut world = world();
    if big_organization {
        big::populate(&mut world);
        count_change_requests(&mut world);
    }
    world
}

/// Sets every space's change-request counts from the change requests it has, so a space's
/// "2 open" and its list of change requests never disagree.
fn count_change_requests(world: &mut World) {
    let spaces: Vec<String> = world.spaces.iter().map(|space| space.id.clone()).collect();
    for space in spaces {
        crate::change_requests::routes::sync_space_counts(world, &space);
    }
}

/// Builds a fresh demo world.
pub(crate) fn world() -> World {
    let mut world = World::default();
    organizations::populate(&mut world);
    spaces::populate(&mut world);
    sites::populate(&mut world);
    conversations::populate(&mut world);
    change_requests::populate(&mut world);
    crate::git::populate(&mut world);
    crate::members::populate(&mut world);
    crate::teams::populate(&mut world);
    crate::sso::populate(&mut world);
    crate::org_settings::populate(&mut world);
    crate::translations::populate(&mut world);
    crate::openapi::populate(&mut world);
    crate::integrations::populate(&mut world);
    templates::populate(&mut world);
    count_change_requests(&mut world);
    world
}

/// A document page; its slug comes from the title, its path and dates are filled in later
/// by [`finish_tree`].
pub(crate) fn document(id: &str, title: &str, markdown: &str) -> Page {
    Page {
        id: id.to_string(),
        title: title.to_string(),
        emoji: None,
        description: None,
        slug: slugify(title),
        path: String::new(),
        hidden: false,
        created_at: String::new(),
        updated_at: String::new(),
        kind: PageKind::Document {
            markdown: markdown.to_string(),
        },
        children: Vec::new(),
    }
}

pub(crate) fn group(id: &str, title: &str, children: Vec<Page>) -> Page {
    Page {
        kind: PageKind::Group,
        children,
        ..document(id, title, "")
    }
}

pub(crate) fn link(id: &str, title: &str, url: &str) -> Page {
    Page {
        kind: PageKind::Link {
            url: url.to_string(),
        },
        ..document(id, title, "")
    }
}

impl Page {
    pub fn emoji(mut self, emoji: &str) -> Page {
        self.emoji = Some(emoji.to_string());
        self
    }

    pub fn describe(mut self, description: &str) -> Page {
        self.description = Some(description.to_string());
        self
    }

    pub fn hide(mut self) -> Page {
        self.hidden = true;
        self
    }

    pub fn with_children(mut self, children: Vec<Page>) -> Page {
        self.children = children;
        self
    }
}

/// Fills in paths (groups do not contribute to their children's paths, as on a published
/// site) and stable creation/update dates starting at day `first_day`.
pub(crate) fn finish_tree(pages: &mut [Page], first_day: u32) {
    let mut counter = 0;
    finish_level(pages, "", first_day, &mut counter);
}

fn finish_level(pages: &mut [Page], parent_path: &str, first_day: u32, counter: &mut u32) {
    for page in pages {
        page.path = if parent_path.is_empty() {
            page.slug.clone()
        } else {
            format!("{parent_path}/{}", page.slug)
        };
        page.created_at = timestamp(first_day + *counter / 8, 30 + *counter * 7);
        page.updated_at = timestamp(first_day + 40 + *counter * 3, 95 + *counter * 11);
        *counter += 1;
        let children_parent = match page.kind {
            PageKind::Group => parent_path.to_string(),
            _ => page.path.clone(),
        };
        finish_level(&mut page.children, &children_parent, first_day, counter);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change_requests::model::Status;

    #[test]
    fn timestamps_are_iso() {
        assert_eq!(timestamp(0, 0), "2023-01-02T08:00:00.000Z");
        assert_eq!(timestamp(1, 90), "2023-01-03T09:30:00.000Z");
    }

    #[test]
    fn world_is_consistent() {
        let world = world();
        assert_eq!(world.organizations.len(), 2);
        for space in &world.spaces {
            assert!(world.organization(&space.organization).is_some());
            if let Some(parent) = &space.parent {
                let collection = world.collection(parent);
                assert!(collection.is_some_and(|c| c.organization == space.organization));
            }
        }
        let api = world.space(ids::SPACE_API_REFERENCE);
        let pages = api.map(|space| space.revision.flatten().len()).unwrap_or(0);
        assert!(pages >= 300, "only {pages} pages");
        use crate::tokens;
        for token in [
            tokens::ADMIN,
            tokens::EDITOR,
            tokens::REVIEWER,
            tokens::COMMENTER,
            tokens::READER,
        ] {
            assert!(world.tokens.contains_key(token));
        }
    }

    #[test]
    fn every_space_counts_the_change_requests_it_has() {
        for world in [world(), world_with(true)] {
            for space in &world.spaces {
                let of_space = || {
                    world
                        .change_requests
                        .items
                        .iter()
                        .filter(|change_request| change_request.space == space.id)
                };
                let open = of_space()
                    .filter(|change_request| change_request.status == Status::Open)
                    .count() as u32;
                assert_eq!(
                    space.change_requests,
                    of_space().count() as u32,
                    "{}",
                    space.id
                );
                assert_eq!(space.change_requests_open, open, "{}", space.id);
            }
        }
    }

    #[test]
    fn page_ids_are_unique_per_space() {
        let world = world();
        for space in &world.spaces {
            let mut ids: Vec<&str> = space
                .revision
                .flatten()
                .iter()
                .map(|(page, _)| page.id.as_str())
                .collect();
            let total = ids.len();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), total, "duplicate page id in {}", space.id);
        }
    }
}
