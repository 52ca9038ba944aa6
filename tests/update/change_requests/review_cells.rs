//! A comment on one cell of a table from the diff: on the demo's "Clarify token scopes"
//! Quickstart, whose environments table changes, `c` on the table's Sandbox row asks which
//! column, the sandbox stores the comment with that cell, and the comments tab says which.

use crate::common::char_key;
use crate::common::review::{open_tab, review, screen, type_text};
use crate::common::{ctrl, key};
use quire::api::{Client, ClientConfig, CommentFilter, Token};
use quire::app::{Model, update};
use quire::headless;
use quire::sandbox::{demo_ids, tokens};
use quire::screens::change_requests::review::{ComposeTarget, Overlay, ReviewTab};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;

fn cursor_text(model: &Model) -> String {
    let shown = screen(model);
    let view = shown.diff_view.as_ref().expect("a diff");
    view.lines[shown.diff_cursor]
        .spans
        .iter()
        .map(|span| span.content.as_ref())
        .collect()
}

/// Presses `j` until the cursor's row holds `needle`.
fn walk_to(model: &mut Model, needle: &str) {
    for _ in 0..400 {
        if cursor_text(model).contains(needle) {
            return;
        }
        update(model, char_key('j'));
    }
    panic!("no line holds {needle}");
}

fn draw_text(model: &Model) -> String {
    let mut terminal =
        Terminal::new(TestBackend::new(model.size.width, model.size.height)).unwrap();
    terminal
        .draw(|frame| quire::app::view::chrome::draw(frame, model))
        .unwrap();
    terminal.backend().to_string()
}

#[tokio::test]
async fn c_on_a_table_row_asks_the_column_and_the_comment_is_on_that_cell() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    open_tab(&mut loaded.model, ReviewTab::Changes);
    walk_to(&mut loaded.model, "+| Sandbox |");
    update(&mut loaded.model, char_key('c'));
    let Some(Overlay::Cell(picker)) = &screen(&loaded.model).overlay else {
        panic!("the cell picker opens: {:?}", screen(&loaded.model).overlay)
    };
    assert_eq!(picker.title, "Comment on which cell of row 1?");
    let labels: Vec<&str> = picker.options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Environment",
            "Base URL",
            "Robots",
            "Resets",
            "The whole table"
        ]
    );
    assert!(draw_text(&loaded.model).contains("Comment on which cell of row 1?"));
    for _ in 0..3 {
        update(&mut loaded.model, char_key('j'));
    }
    update(&mut loaded.model, key(KeyCode::Enter));
    let Some(Overlay::Composer {
        target, composer, ..
    }) = &screen(&loaded.model).overlay
    else {
        panic!("the composer opens")
    };
    let ComposeTarget::BlockComment {
        node: Some(node),
        cell: Some(cell),
        ..
    } = target
    else {
        panic!("{target:?}")
    };
    let (node, cell) = (node.clone(), cell.clone());
    assert_eq!(cell.words, "row 1 › Resets");
    assert!(
        composer.title.contains("row 1 › Resets"),
        "{}",
        composer.title
    );
    type_text(&mut loaded.model, "Which time zone?");
    headless::settle(&mut loaded.model, &loaded.effects, ctrl('s')).await;

    let client = Client::new(ClientConfig::new(
        loaded.sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap();
    let stored = client
        .list_all_comments(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW,
            &CommentFilter::default(),
            20,
        )
        .await
        .unwrap()
        .items;
    let mine = stored
        .iter()
        .find(|c| c.body.markdown() == Some("Which time zone?"))
        .expect("stored");
    assert_eq!(mine.target.table_cell.as_ref(), Some(&cell.cell));
    assert_eq!(
        mine.target.node.as_ref().map(|n| n.id.as_str()),
        Some(node.as_str())
    );

    open_tab(&mut loaded.model, ReviewTab::Comments);
    let mine_at = screen(&loaded.model)
        .rows()
        .iter()
        .position(|row| {
            row.reply.is_none() && screen(&loaded.model).threads()[row.thread].comment.id == mine.id
        })
        .expect("the thread is listed");
    for _ in 0..mine_at {
        update(&mut loaded.model, char_key('j'));
    }
    let text = draw_text(&loaded.model);
    assert!(
        text.contains("on Quickstart, row 1 › Resets of the table 'Environment"),
        "{text}"
    );
}

#[tokio::test]
async fn esc_in_the_cell_picker_drops_the_comment_and_a_header_line_needs_no_cell() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    open_tab(&mut loaded.model, ReviewTab::Changes);
    walk_to(&mut loaded.model, "+| Sandbox |");
    update(&mut loaded.model, char_key('c'));
    assert!(matches!(
        screen(&loaded.model).overlay,
        Some(Overlay::Cell(_))
    ));
    update(&mut loaded.model, key(KeyCode::Esc));
    assert!(screen(&loaded.model).overlay.is_none());
    update(&mut loaded.model, char_key('g'));
    walk_to(&mut loaded.model, "| Environment |");
    update(&mut loaded.model, char_key('c'));
    let Some(Overlay::Composer { target, .. }) = &screen(&loaded.model).overlay else {
        panic!("the composer opens on the header")
    };
    assert!(matches!(
        target,
        ComposeTarget::BlockComment {
            node: Some(_),
            cell: None,
            ..
        }
    ));
}
