//! Demo change requests: six in "Getting Started" covering every status and situation a review
//! screen must show (a busy review, an outdated one, one that conflicts, merged, draft,
//! archived), plus a few in other spaces for the organization-wide list. Each edits real pages
//! of its space, so a diff against main has something to show.
//!
//! The helpers they are built from are in [`builders`]; each change request, or family of them,
//! has its own file.

mod builders;
mod getting_started;
mod other_spaces;
mod token_scopes;
mod token_scopes_threads;

use self::getting_started::{
    configuration_reference, faq_move, glossary, raspberry_pi, welcome_typos,
};
use self::other_spaces::{failover_drill, lumen_reranker, lumen_windows};
use self::token_scopes::token_scopes;
use super::ids as demo;
use crate::change_requests::routes::sync_space_counts;
use crate::model::Page;
use crate::world::World;

/// Stable ids of the demo change requests, re-exported in [`super::ids`].
pub(super) mod ids {
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
pub(super) fn populate(world: &mut World) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change_requests::content::{apply, changes, find, markdown_of};
    use crate::change_requests::model::{Comment, PageEdit};

    /// Counts text replacements of demo edits whose `from` text was not in the page.
    pub(super) static MISSED_REPLACEMENTS: std::sync::atomic::AtomicUsize =
        std::sync::atomic::AtomicUsize::new(0);

    #[test]
    fn every_demo_edit_changes_its_page() {
        let world = crate::demo::world();
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
        let world = crate::demo::world();
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
        let world = crate::demo::world();
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
