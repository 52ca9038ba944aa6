//! Layer 1 for the comments tab's author filter, on a review loaded from the real sandbox:
//! `a` reads who commented (the change request's commenters list), a picker offers them, and
//! the tab then shows only the threads the chosen person wrote in.

use crate::common::char_key;
use crate::common::review::{Loaded, open_tab, review, screen};
use quire::api::{Client, ClientConfig, CommentFilter, Token};
use quire::app::view::chrome;
use quire::app::{Model, update};
use quire::headless;
use quire::sandbox::{demo_ids, tokens};
use quire::screens::change_requests::review::{Overlay, ReviewTab};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;

fn draw(model: &Model) -> String {
    let mut terminal =
        Terminal::new(TestBackend::new(model.size.width, model.size.height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

/// The threads of the demo's change request `user` started or replied to, counted from the
/// sandbox with a client of its own.
async fn threads_written_in_by(loaded: &Loaded, user: &str) -> usize {
    let client = Client::new(ClientConfig::new(
        loaded.sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap();
    let (space, change_request) = (demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW);
    let comments = client
        .list_all_comments(space, change_request, &CommentFilter::default(), 20)
        .await
        .unwrap()
        .items;
    let mut count = 0;
    for comment in comments {
        let started = comment.posted_by.as_ref().is_some_and(|u| u.id == user);
        let replies = client
            .list_replies(space, change_request, &comment.id, None)
            .await
            .unwrap();
        let replied = replies
            .items
            .iter()
            .any(|reply| reply.posted_by.as_ref().is_some_and(|u| u.id == user));
        if started || replied {
            count += 1;
        }
    }
    count
}

/// Opens the picker with `a` (its commenters read from the sandbox) and picks `name`.
async fn pick_author(loaded: &mut Loaded, name: &str) {
    headless::settle(&mut loaded.model, &loaded.effects, char_key('a')).await;
    let Some(Overlay::Authors(picker)) = &screen(&loaded.model).overlay else {
        panic!("no author picker: {}", draw(&loaded.model));
    };
    assert!(picker.options.iter().any(|o| o.label == name), "{picker:?}");
    update(&mut loaded.model, char_key('/'));
    for c in name.chars() {
        update(&mut loaded.model, char_key(c));
    }
    update(&mut loaded.model, crate::common::key(KeyCode::Enter));
    assert!(screen(&loaded.model).overlay.is_none());
}

#[tokio::test]
async fn a_picks_a_commenter_and_the_tab_shows_only_their_threads() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 100, 30).await;
    open_tab(&mut loaded.model, ReviewTab::Comments);
    let all = screen(&loaded.model).threads().len();
    headless::settle(&mut loaded.model, &loaded.effects, char_key('a')).await;
    let drawn = draw(&loaded.model);
    for name in ["Everyone", "Priya Raman", "Diego Álvarez", "Kwame Mensah"] {
        assert!(drawn.contains(name), "`{name}` offered:\n{drawn}");
    }
    assert_eq!(
        loaded.sandbox.requests("GET", "*/commenters"),
        1,
        "read from the commenters list"
    );
    update(&mut loaded.model, crate::common::key(KeyCode::Esc));
    pick_author(&mut loaded, "Priya Raman").await;
    let expected = threads_written_in_by(&loaded, demo_ids::USER_REVIEWER).await;
    let model = &loaded.model;
    let shown: Vec<usize> = screen(model)
        .rows()
        .iter()
        .filter(|row| row.reply.is_none())
        .map(|row| row.thread)
        .collect();
    assert!(expected > 0 && expected < all, "{expected} of {all}");
    assert_eq!(shown.len(), expected);
    let drawn = draw(model);
    assert!(drawn.contains("by Priya Raman · unresolved"), "{drawn}");
    // Everyone again: every thread is back.
    pick_author(&mut loaded, "Everyone").await;
    let rows = screen(&loaded.model).rows();
    assert_eq!(rows.iter().filter(|row| row.reply.is_none()).count(), all);
    assert!(!draw(&loaded.model).contains("by Priya Raman ·"));
}

#[tokio::test]
async fn a_filter_that_leaves_none_of_their_threads_says_so() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 100, 30).await;
    open_tab(&mut loaded.model, ReviewTab::Comments);
    // Priya Raman wrote in open threads only.
    pick_author(&mut loaded, "Priya Raman").await;
    update(&mut loaded.model, char_key('f'));
    assert!(!screen(&loaded.model).rows().is_empty(), "her open threads");
    update(&mut loaded.model, char_key('f'));
    assert!(screen(&loaded.model).rows().is_empty());
    let drawn = draw(&loaded.model);
    assert!(
        drawn.contains("No resolved threads by Priya Raman — a picks someone else."),
        "{drawn}"
    );
}
