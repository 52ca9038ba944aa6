//! "Since my last review" in the order a user meets it: the review opened from its space's
//! list, closed, and opened again in the same run while the change request moved on; and an
//! edit that lands while the review is open. What was seen is kept on disk as in a user's run.

use quire::app::{Model, Size};
use quire::headless;
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::ChangeRequestList;
use quire::screens::change_requests::review::ReviewTab;
use quire::vocabulary::change_requests::ChangeRequestScope;

use crate::common::review::{screen, someone_comments_and_edits_the_quickstart};
use crate::common::{char_key, environment, key};

struct Run {
    model: Model,
    effects: Effects,
    sandbox: Sandbox,
    _data: tempfile::TempDir,
}

const CONTENT_READS: &str = "/spaces/*/change-requests/*/content";

/// Getting Started's change requests, as the admin, with drafts and review memories kept in a
/// folder of their own; the demo review selected.
async fn on_the_list() -> Run {
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .expect("sandbox");
    let data = tempfile::tempdir().expect("a data folder");
    let client = quire::api::Client::new(quire::api::ClientConfig::new(
        sandbox.base_url(),
        quire::api::Token::new(tokens::ADMIN),
    ))
    .expect("a client");
    let mut effects = headless::effects_with(client);
    effects.drafts = Some(data.path().to_path_buf());
    let list = ChangeRequestList::new(
        ChangeRequestScope::Space(demo_ids::SPACE_GETTING_STARTED.to_string()),
        "Getting Started",
    );
    let mut model = Model::new(Screen::ChangeRequests(list), environment(), Size::default());
    let size = quire::app::Msg::Resize {
        width: 120,
        height: 35,
    };
    headless::settle(&mut model, &effects, size).await;
    headless::start(&mut model, &effects).await;
    let mut run = Run {
        model,
        effects,
        sandbox,
        _data: data,
    };
    for _ in 0..10 {
        let selected = match run.model.top() {
            Screen::ChangeRequests(list) => list.selected().map(|cr| cr.id.clone()),
            _ => None,
        };
        if selected.as_deref() == Some(demo_ids::CR_REVIEW) {
            return run;
        }
        run.press('j').await;
    }
    panic!("the demo review is not in the list");
}

impl Run {
    async fn press(&mut self, c: char) {
        headless::settle(&mut self.model, &self.effects, char_key(c)).await;
    }

    async fn open_review(&mut self) {
        let enter = key(ratatui::crossterm::event::KeyCode::Enter);
        headless::settle(&mut self.model, &self.effects, enter).await;
        assert!(matches!(self.model.top(), Screen::Review(_)));
    }

    async fn close_review(&mut self) {
        let esc = key(ratatui::crossterm::event::KeyCode::Esc);
        headless::settle(&mut self.model, &self.effects, esc).await;
        assert!(matches!(self.model.top(), Screen::ChangeRequests(_)));
    }

    /// Shows `tab` by its number key, as a user does.
    async fn look_at(&mut self, tab: ReviewTab) {
        let index = ReviewTab::ALL
            .iter()
            .position(|t| *t == tab)
            .expect("a tab");
        let digit = char::from_digit(index as u32 + 1, 10).expect("a digit");
        self.press(digit).await;
        assert_eq!(screen(&self.model).tab, tab);
    }

    fn notice(&self) -> String {
        screen(&self.model)
            .notice
            .as_ref()
            .map(|notice| notice.text.clone())
            .unwrap_or_default()
    }
}

/// The first visit sees the threads and the changes (the Quickstart's diff opens with them).
async fn first_visit(run: &mut Run) {
    run.open_review().await;
    run.look_at(ReviewTab::Comments).await;
    run.look_at(ReviewTab::Changes).await;
    assert!(
        screen(&run.model)
            .since
            .now
            .pages
            .contains_key(demo_ids::PAGE_QUICKSTART)
    );
}

#[tokio::test]
async fn reopening_in_the_same_run_after_a_new_revision_reads_the_pages_and_says_so() {
    let mut run = on_the_list().await;
    first_visit(&mut run).await;
    run.close_review().await;
    someone_comments_and_edits_the_quickstart(&run.sandbox).await;
    let reads_before = run.sandbox.requests("GET", CONTENT_READS);

    // Reopened: drawn at once from what this run had, then the server's answer.
    run.open_review().await;
    assert!(run.sandbox.requests("GET", CONTENT_READS) > reads_before);
    assert_eq!(
        run.notice(),
        "1 new thread, 1 page changed since your last visit (just now) — L shows them"
    );

    // Not looked at, so still news on the next visit: the memory kept the revision the
    // Quickstart was seen at.
    run.close_review().await;
    run.open_review().await;
    assert!(
        run.notice()
            .ends_with("1 page changed since your last visit (just now) — L shows them"),
        "{}",
        run.notice()
    );
}

#[tokio::test]
async fn an_edit_that_lands_while_the_review_is_open_is_news_at_the_next_visit() {
    let mut run = on_the_list().await;
    first_visit(&mut run).await;
    // Reading the threads when the author edits the Quickstart; the refresh brings the new
    // revision and the new comment, which is then seen on the comments tab.
    run.look_at(ReviewTab::Comments).await;
    someone_comments_and_edits_the_quickstart(&run.sandbox).await;
    run.press('r').await;
    run.close_review().await;

    run.open_review().await;
    assert_eq!(
        run.notice(),
        "1 page changed since your last visit (just now) — L shows them"
    );
    run.look_at(ReviewTab::Changes).await;
    run.press('L').await;
    let pages: Vec<String> = screen(&run.model)
        .pages
        .iter()
        .map(|page| page.page.clone())
        .collect();
    assert_eq!(pages, [demo_ids::PAGE_QUICKSTART]);
}
