//! Creating and deleting a site from the organization's Sites tab, through the real runtime
//! against the sandbox: `n` asks the title, the plan, the visibility and the spaces, and the
//! sandbox stores what was chosen.

use quire::api::models::{SiteType, SiteVisibility};
use quire::api::{Client, ClientConfig, SiteFilter, Token};
use quire::sandbox::{Sandbox, demo_ids, tokens};
use ratatui::crossterm::event::KeyCode;

fn client_of(sandbox: &Sandbox) -> Client {
    Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap()
}

/// The titles of Acme's sites as the sandbox holds them, read with a client of its own.
async fn stored_site_titles(sandbox: &Sandbox) -> Vec<String> {
    client_of(sandbox)
        .list_sites(demo_ids::ACME, &SiteFilter::default(), None)
        .await
        .unwrap()
        .items
        .into_iter()
        .map(|site| site.title)
        .collect()
}

/// quire on Acme's Sites tab, as `token`, with its table drawn.
async fn sites_tab_as(token: &str) -> crate::common::loop_harness::Harness {
    use crate::common::loop_harness::Harness;
    let harness = Harness::start(token, quire::sandbox::SandboxOptions::default()).await;
    harness.wait_for("Acme Robotics").await;
    harness.press(KeyCode::Enter);
    harness.wait_for("Engineering").await;
    // Sites is the fifth tab: Spaces, Change requests, Members, Teams, Sites.
    for _ in 0..4 {
        harness.press(KeyCode::Tab);
    }
    harness.wait_for("4 sites").await;
    harness
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn n_creates_a_site_that_is_stored_and_selected_and_d_deletes_it_after_naming_it() {
    let harness = sites_tab_as(tokens::ADMIN).await;
    harness.press(KeyCode::Char('n'));
    harness.wait_for("New site").await;
    harness.type_text("R");
    harness.wait_for("at least 2 characters").await;
    harness.type_text("obot Fleet Docs");
    harness.press(KeyCode::Enter);
    harness.wait_for("The new site's plan").await;
    harness.press(KeyCode::Enter);
    harness.wait_for("Who can read the new site").await;
    harness.press(KeyCode::Enter);
    harness.wait_for("Spaces the site starts with").await;
    harness.press(KeyCode::Enter);
    harness
        .wait_for("Created the site “Robot Fleet Docs” with no spaces")
        .await;
    harness.wait_for("5 sites").await;
    assert!(
        stored_site_titles(&harness.sandbox)
            .await
            .contains(&"Robot Fleet Docs".to_string())
    );
    // The new site is the one selected: `d` names it.
    harness.press(KeyCode::Char('d'));
    harness
        .wait_for("Delete the site “Robot Fleet Docs”?")
        .await;
    harness.wait_for("its spaces are kept").await;
    harness.press(KeyCode::Char('n'));
    harness.settle().await;
    assert_eq!(
        harness.sandbox.requests("DELETE", "/orgs/*/sites/*"),
        0,
        "n keeps it"
    );
    harness.press(KeyCode::Char('d'));
    harness
        .wait_for("Delete the site “Robot Fleet Docs”?")
        .await;
    harness.press(KeyCode::Char('y'));
    harness
        .wait_for("Deleted the site “Robot Fleet Docs”.")
        .await;
    harness.wait_for("4 sites").await;
    let titles = stored_site_titles(&harness.sandbox).await;
    assert!(
        !titles.contains(&"Robot Fleet Docs".to_string()),
        "{titles:?}"
    );
    assert_eq!(titles.len(), 4, "only that one went: {titles:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_site_created_without_the_admin_role_is_refused_in_words() {
    let harness = sites_tab_as(tokens::EDITOR).await;
    harness.press(KeyCode::Char('n'));
    harness.wait_for("New site").await;
    harness.type_text("Not Mine");
    for step in [
        "The new site's plan",
        "Who can read the new site",
        "Spaces the site starts with",
    ] {
        harness.press(KeyCode::Enter);
        harness.wait_for(step).await;
    }
    harness.press(KeyCode::Enter);
    harness
        .wait_for("Creating the site “Not Mine” needs the admin role")
        .await;
    assert!(
        !stored_site_titles(&harness.sandbox)
            .await
            .contains(&"Not Mine".to_string())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_site_is_made_with_the_plan_visibility_and_spaces_picked() {
    let harness = sites_tab_as(tokens::ADMIN).await;
    harness.press(KeyCode::Char('n'));
    harness.wait_for("New site").await;
    harness.type_text("Fleet Manuals");
    harness.press(KeyCode::Enter);
    harness.wait_for("The new site's plan").await;
    harness.press(KeyCode::Char('j'));
    harness.press(KeyCode::Enter);
    harness.wait_for("Who can read the new site").await;
    harness.press(KeyCode::Char('j'));
    harness.wait_for("anyone with the link, not indexed").await;
    harness.press(KeyCode::Enter);
    harness.wait_for("Spaces the site starts with").await;
    for title in ["Getting Started", "Employee Handbook"] {
        harness.press(KeyCode::Char('/'));
        harness.type_text(title);
        harness.press(KeyCode::Char(' '));
        harness.press(KeyCode::Esc);
    }
    harness.press(KeyCode::Enter);
    harness
        .wait_for("Created the site “Fleet Manuals” with 2 spaces")
        .await;
    let client = client_of(&harness.sandbox);
    let sites = client
        .list_sites(demo_ids::ACME, &SiteFilter::default(), None)
        .await
        .unwrap()
        .items;
    let site = sites
        .iter()
        .find(|site| site.title == "Fleet Manuals")
        .expect("the new site is stored");
    assert_eq!(site.site_type, Some(SiteType::Premium));
    assert_eq!(site.visibility, Some(SiteVisibility::Unlisted));
    let published = client
        .get_published_site(demo_ids::ACME, &site.id, None)
        .await
        .unwrap();
    let spaces = format!("{:?}", published.structure.structure);
    assert!(
        spaces.contains(demo_ids::SPACE_GETTING_STARTED)
            && spaces.contains(demo_ids::SPACE_HANDBOOK),
        "{spaces}"
    );
}
