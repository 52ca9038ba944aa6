//! `l` on the review's changes tab: the links written on the selected changed page, as the
//! change request has it, read from the sandbox, broken ones marked.

use crate::common::char_key;
use crate::common::review::{plant_markdown, review, screen};
use quire::app::Model;
use quire::app::view::chrome;
use quire::headless;
use quire::sandbox::{demo_ids, tokens};
use quire::screens::Screen;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn draw(model: &Model) -> String {
    let mut terminal =
        Terminal::new(TestBackend::new(model.size.width, model.size.height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

#[tokio::test]
async fn l_lists_the_changed_pages_links_with_the_broken_one_marked() {
    let mut loaded = review(tokens::EDITOR, demo_ids::CR_REVIEW, 80, 24).await;
    plant_markdown(
        &loaded,
        Some(demo_ids::CR_REVIEW),
        demo_ids::PAGE_QUICKSTART,
        "# Quickstart\n\nSee [the ghost](ghost-page.md) and [Installation](installation.md).\n",
    )
    .await;
    headless::settle(&mut loaded.model, &loaded.effects, char_key('2')).await;
    assert_eq!(
        screen(&loaded.model)
            .selected_page()
            .map(|page| page.page.as_str()),
        Some(demo_ids::PAGE_QUICKSTART)
    );
    headless::settle(&mut loaded.model, &loaded.effects, char_key('l')).await;
    assert!(
        matches!(loaded.model.top(), Screen::Links(_)),
        "the links screen opens"
    );
    let drawn = draw(&loaded.model);
    assert!(drawn.contains("ghost-page.md"), "{drawn}");
    assert!(drawn.contains("broken"), "{drawn}");
    assert_eq!(
        loaded.sandbox.requests(
            "GET",
            &format!(
                "/spaces/*/change-requests/{}/content/page/{}/links",
                demo_ids::CR_REVIEW,
                demo_ids::PAGE_QUICKSTART
            )
        ),
        1
    );
}
