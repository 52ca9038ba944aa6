//! `t` on a space of the organization's Spaces tab and in a change request's review, driven
//! against the sandbox: the template id typed, the question answered, and the pages the sandbox
//! then holds (main, or only the change request); an unknown id is said in words, a reader is
//! refused before anything is sent, a merged change request takes none.

use crate::common::review::{review, screen as review_screen};
use quire::api::Client;
use quire::app::{Model, Msg, Size};
use quire::headless;
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::review::Overlay;
use quire::screens::organization::{OrgNode, Organization};
use quire::screens::templates::TemplateFlow;

const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;

struct Driven {
    model: Model,
    effects: Effects,
    client: Client,
    _sandbox: Sandbox,
}

/// Acme's Spaces tab, loaded from the sandbox as `token`, with "Getting Started" selected.
async fn on_getting_started(token: &str) -> Driven {
    let (sandbox, effects) = crate::common::sandbox_effects(SandboxOptions::default(), token).await;
    let client = effects.client.clone().unwrap();
    let organization = client.get_organization(demo_ids::ACME).await.unwrap();
    let mut model = Model::new(
        Screen::Organization(Organization::new(organization)),
        crate::common::environment(),
        Size::default(),
    );
    let resize = Msg::Resize {
        width: 100,
        height: 30,
    };
    headless::settle(&mut model, &effects, resize).await;
    headless::start(&mut model, &effects).await;
    headless::type_keys(&mut model, &effects, "E").await;
    for _ in 0..40 {
        if selected_title(&model).as_deref() == Some("Getting Started") {
            return Driven {
                model,
                effects,
                client,
                _sandbox: sandbox,
            };
        }
        headless::type_keys(&mut model, &effects, "j").await;
    }
    panic!("no row titled Getting Started");
}

fn screen(model: &Model) -> &Organization {
    match model.top() {
        Screen::Organization(screen) => screen,
        other => panic!("expected the organization screen, got {}", other.title()),
    }
}

fn selected_title(model: &Model) -> Option<String> {
    screen(model)
        .selected_node()
        .map(OrgNode::title)
        .map(str::to_string)
}

fn notice(model: &Model) -> String {
    let notice = &screen(model).space_ops.notice;
    notice.as_ref().map(|n| n.text.clone()).unwrap_or_default()
}

async fn titles(client: &Client) -> Vec<String> {
    client
        .list_pages(SPACE)
        .await
        .unwrap()
        .into_iter()
        .map(|page| page.title)
        .collect()
}

#[tokio::test]
async fn t_applies_a_typed_template_to_the_space_after_saying_it_skips_review() {
    let mut driven = on_getting_started(tokens::ADMIN).await;
    let (model, effects) = (&mut driven.model, &driven.effects);
    headless::type_keys(model, effects, "t").await;
    headless::type_keys(model, effects, demo_ids::TEMPLATE_HOW_TO).await;
    headless::type_keys(model, effects, "\r").await;
    let Some(TemplateFlow::Confirming { confirm, .. }) = &screen(model).space_ops.template.flow
    else {
        panic!("the question: {:?}", screen(model).space_ops.template.flow);
    };
    assert!(
        confirm.consequence.contains("no review"),
        "{}",
        confirm.consequence
    );
    assert!(
        !titles(&driven.client)
            .await
            .contains(&"How-to guide".into())
    );
    headless::type_keys(model, effects, "y").await;
    assert!(
        titles(&driven.client)
            .await
            .contains(&"How-to guide".to_string()),
        "the sandbox holds the template's page"
    );
    assert_eq!(
        notice(model),
        format!(
            "Template “{}” applied to “Getting Started”",
            demo_ids::TEMPLATE_HOW_TO
        )
    );
}

#[tokio::test]
async fn an_unknown_template_id_is_said_in_words_and_changes_nothing() {
    let mut driven = on_getting_started(tokens::ADMIN).await;
    let before = titles(&driven.client).await;
    let (model, effects) = (&mut driven.model, &driven.effects);
    headless::type_keys(model, effects, "ttpl-nope\ry").await;
    assert!(
        notice(model).starts_with("No template “tpl-nope”: check its id"),
        "{}",
        notice(model)
    );
    assert_eq!(titles(&driven.client).await, before);
}

#[tokio::test]
async fn a_reader_is_refused_before_anything_is_asked() {
    let mut driven = on_getting_started(tokens::READER).await;
    let (model, effects) = (&mut driven.model, &driven.effects);
    headless::type_keys(model, effects, "t").await;
    assert!(screen(model).space_ops.template.flow.is_none());
    assert!(
        notice(model).contains("needs the edit permission"),
        "{}",
        notice(model)
    );
}

/// Titles of the pages a change request's content holds, as the sandbox has it.
async fn change_request_titles(client: &Client, change_request: &str) -> Vec<String> {
    let path = format!("/spaces/{SPACE}/change-requests/{change_request}/content/pages");
    let pages: serde_json::Value = client.get(&path, &[]).await.unwrap();
    pages["pages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|page| page["title"].as_str().map(str::to_string))
        .collect()
}

#[tokio::test]
async fn t_in_a_review_puts_the_template_in_that_change_request_not_in_main() {
    let mut loaded = review(tokens::EDITOR, demo_ids::CR_REVIEW, 100, 30).await;
    let client = loaded.effects.client.clone().unwrap();
    let main_before = titles(&client).await;
    let (model, effects) = (&mut loaded.model, &loaded.effects);
    headless::type_keys(model, effects, "t").await;
    headless::type_keys(model, effects, demo_ids::TEMPLATE_HOW_TO).await;
    headless::type_keys(model, effects, "\r").await;
    let Some(Overlay::Template(TemplateFlow::Confirming { confirm, .. })) =
        &review_screen(model).overlay
    else {
        panic!("the question: {:?}", review_screen(model).overlay);
    };
    assert!(
        confirm.question.contains("change request #1"),
        "{}",
        confirm.question
    );
    assert!(
        confirm.consequence.contains("not in main"),
        "{}",
        confirm.consequence
    );
    headless::type_keys(model, effects, "y").await;
    let in_change_request = change_request_titles(&client, demo_ids::CR_REVIEW).await;
    assert!(
        in_change_request.contains(&"How-to guide".to_string()),
        "{in_change_request:?}"
    );
    assert_eq!(titles(&client).await, main_before, "main is untouched");
    let shown = review_screen(model).notice.as_ref().map(|n| n.text.clone());
    assert_eq!(
        shown.as_deref(),
        Some("Template “tpl-how-to-guide” applied to change request #1")
    );
    assert!(
        review_screen(model)
            .pages
            .iter()
            .any(|row| row.title.contains("How-to guide")),
        "the review reloaded and lists the new page"
    );
}

#[tokio::test]
async fn t_on_a_merged_change_request_says_it_takes_none() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_MERGED, 100, 30).await;
    let (model, effects) = (&mut loaded.model, &loaded.effects);
    headless::type_keys(model, effects, "t").await;
    assert!(review_screen(model).overlay.is_none());
    let shown = review_screen(model).notice.as_ref().map(|n| n.text.clone());
    assert!(
        shown.as_deref().unwrap_or_default().contains("is merged"),
        "{shown:?}"
    );
}

/// File references follow the id as `name=file-id`: the template's page then names that file.
#[tokio::test]
async fn file_references_typed_after_the_id_are_sent_with_the_template() {
    let mut driven = on_getting_started(tokens::ADMIN).await;
    let (model, effects) = (&mut driven.model, &driven.effects);
    let typed = format!(
        "t{} screenshot=file-dashboard\ry",
        demo_ids::TEMPLATE_RELEASE_NOTES
    );
    headless::type_keys(model, effects, &typed).await;
    let pages = driven.client.list_pages(SPACE).await.unwrap();
    let release = pages
        .iter()
        .find(|page| page.title == "Release notes")
        .expect("the template's page");
    let page = driven
        .client
        .get_page_markdown(SPACE, &release.id)
        .await
        .unwrap();
    let markdown = page.markdown.unwrap_or_default();
    assert!(markdown.contains("dashboard.png"), "{markdown}");
}
