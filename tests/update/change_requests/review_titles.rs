//! Layer 1 for the words "on <page>" of a thread on the comments tab, on a review loaded from
//! the real sandbox: a thread on a page the change request did not change is named by that
//! page's title, read once from the change request's page tree.

use crate::common::char_key;
use crate::common::review::{review, screen};
use quire::api::{Client, ClientConfig, Token};
use quire::app::Model;
use quire::app::view::chrome;
use quire::headless;
use quire::sandbox::{demo_ids, tokens};
use quire::screens::change_requests::review::ReviewTab;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;

fn draw(model: &Model) -> String {
    let mut terminal =
        Terminal::new(TestBackend::new(model.size.width, model.size.height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

/// A page of the demo review's tree that it does not change: (id, title).
async fn an_unchanged_page(client: &Client, changed: &[String]) -> (String, String) {
    let tree = client
        .list_change_request_pages(demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW)
        .await
        .unwrap();
    let mut pages = tree;
    while let Some(page) = pages.pop() {
        if !changed.contains(&page.id) && !page.title.is_empty() {
            return (page.id, page.title);
        }
        pages.extend(page.pages);
    }
    panic!("every page of the demo review is changed")
}

#[tokio::test]
async fn a_thread_on_a_page_the_review_did_not_load_is_named_by_the_pages_title() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 140, 40).await;
    let client = Client::new(ClientConfig::new(
        loaded.sandbox.base_url(),
        Token::new(tokens::REVIEWER),
    ))
    .unwrap();
    let changed: Vec<String> = screen(&loaded.model)
        .pages
        .iter()
        .map(|row| row.page.clone())
        .collect();
    let (page, title) = an_unchanged_page(&client, &changed).await;
    client
        .post_comment(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW,
            "Zebra crossing remark",
            Some(&page),
        )
        .await
        .unwrap();
    // `r` reloads the review, which now has the thread; the comments tab then shows it.
    headless::settle(&mut loaded.model, &loaded.effects, char_key('r')).await;
    let trees_before = loaded
        .sandbox
        .requests("GET", "*/change-requests/*/content/pages");
    headless::settle(&mut loaded.model, &loaded.effects, char_key('3')).await;
    assert_eq!(screen(&loaded.model).tab, ReviewTab::Comments);
    headless::settle(&mut loaded.model, &loaded.effects, char_key('/')).await;
    for c in "Zebra".chars() {
        headless::settle(&mut loaded.model, &loaded.effects, char_key(c)).await;
    }
    headless::settle(
        &mut loaded.model,
        &loaded.effects,
        crate::common::key(KeyCode::Enter),
    )
    .await;
    let drawn = draw(&loaded.model);
    assert!(drawn.contains("Zebra crossing remark"), "{drawn}");
    assert!(drawn.contains(&format!("on {title}")), "{drawn}");
    assert!(!drawn.contains(&page), "no page id shown:\n{drawn}");
    let trees_read = loaded
        .sandbox
        .requests("GET", "*/change-requests/*/content/pages")
        - trees_before;
    assert_eq!(trees_read, 1, "the page tree is read once");
}
