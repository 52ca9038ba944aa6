//! Threads on the diff and "since my last review": markers beside the blocks threads
//! are about, `m` between the diff and the comments tab, `c` on a diff line (the comment the
//! sandbox stores carries the page and the block), and what is new since the last visit.
//! The review comes from the real sandbox; changes after the first visit go through its HTTP
//! routes.

use crate::common::review::{
    Loaded, review, screen, someone_comments_and_edits_the_quickstart, type_text,
};
use crate::common::{char_key, ctrl};
use quire::api::{Client, ClientConfig, CommentFilter, Token};
use quire::app::{Model, Msg, update};
use quire::headless;
use quire::sandbox::{demo_ids, tokens};
use quire::screens::change_requests::review::{ComposeTarget, Overlay, ReviewTab};
use quire::vocabulary::change_requests::memory::Seen;

/// The one way this file changes tabs (the tab keys may move; only this changes then).
fn open_tab(model: &mut Model, tab: ReviewTab) {
    let index = ReviewTab::ALL
        .iter()
        .position(|t| *t == tab)
        .expect("a tab");
    let key = char::from_digit(index as u32 + 1, 10).expect("a digit");
    update(model, char_key(key));
    assert_eq!(screen(model).tab, tab);
}

fn diff_text(model: &Model) -> Vec<String> {
    let view = screen(model).diff_view.as_ref().expect("a diff");
    view.lines
        .iter()
        .map(|line| line.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

/// Index of the thread whose block text holds `needle` in the demo ("Check your token" …).
fn thread_on_block(model: &Model, comment_text: &str) -> usize {
    screen(model)
        .threads()
        .iter()
        .position(|t| {
            t.comment
                .body
                .markdown()
                .unwrap_or("")
                .contains(comment_text)
        })
        .expect("the demo thread")
}

#[tokio::test]
async fn threads_show_beside_their_block_and_page_threads_on_top() {
    let loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &loaded.model;
    let text = diff_text(model);
    // Eight Quickstart threads name no block: one row on top says so.
    assert!(
        text[0].contains("▌8 8 threads on the page as a whole"),
        "{:?}",
        &text[..3]
    );
    let marks = &screen(model).diff_threads.marks;
    let token_check = thread_on_block(model, "Is `/v1/tokens/self` public");
    let row = marks.row_of(token_check).expect("on a row of the diff");
    assert!(text[row].contains("▌1") && text[row].contains("## Check your token"));
    let requirements = thread_on_block(model, "the requirements item now wraps");
    let row = marks.row_of(requirements).expect("on a row");
    assert!(text[row].contains("fleet:write"), "{}", text[row]);
    // Every row starts with the gutter of markers (cursor, then `▌N` or blanks).
    assert!(text.iter().all(|line| quire::ui::text::width(line) <= 120));
    assert!(text[1].starts_with("   @@"), "{}", text[1]);
}

#[tokio::test]
async fn m_goes_from_a_marker_to_its_thread_and_back() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Changes);
    let requirements = thread_on_block(model, "the requirements item now wraps");
    // n brings the requirements change to the top; m opens the thread marked there.
    update(model, char_key('n'));
    update(model, char_key('n'));
    update(model, char_key('m'));
    let shown = screen(model);
    assert_eq!(shown.tab, ReviewTab::Comments);
    assert_eq!(
        shown.selected_row().map(|row| row.thread),
        Some(requirements)
    );
    // And back: the thread's line is in view on the changes tab.
    update(model, char_key('m'));
    let shown = screen(model);
    assert_eq!(shown.tab, ReviewTab::Changes);
    let row = shown.diff_threads.marks.row_of(requirements).unwrap();
    assert_eq!(
        shown.diff_scroll, row,
        "its row is at the top, under the cursor"
    );
}

#[tokio::test]
async fn m_on_a_thread_of_another_page_selects_that_page_first() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let warning = thread_on_block(&loaded.model, "Keep them out of CI");
    open_tab(&mut loaded.model, ReviewTab::Comments);
    select_thread(&mut loaded, warning);
    headless::settle(&mut loaded.model, &loaded.effects, char_key('m')).await;
    let shown = screen(&loaded.model);
    assert_eq!(shown.tab, ReviewTab::Changes);
    assert_eq!(
        shown.selected_page().map(|p| p.page.as_str()),
        Some("pg-gs-token-scopes")
    );
    let row = shown.diff_threads.marks.row_of(warning).expect("drawn");
    let text = diff_text(&loaded.model);
    // The warning hint the thread is about starts on that row.
    assert!(
        text[row].contains("{% hint style=\"warning\" %}"),
        "{}",
        text[row]
    );
    assert!(text[row..row + 3].concat().contains("Keep them out of CI"));
    assert_eq!(shown.diff_scroll, row);
}

fn select_thread(loaded: &mut Loaded, thread: usize) {
    let target = screen(&loaded.model)
        .rows()
        .iter()
        .position(|row| row.thread == thread && row.reply.is_none())
        .unwrap();
    for _ in 0..target {
        update(&mut loaded.model, char_key('j'));
    }
    assert_eq!(
        screen(&loaded.model).selected_row().map(|r| r.thread),
        Some(thread)
    );
}

#[tokio::test]
async fn c_on_a_diff_line_posts_a_comment_on_its_page_and_block() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let token_check = thread_on_block(&loaded.model, "Is `/v1/tokens/self` public");
    open_tab(&mut loaded.model, ReviewTab::Comments);
    select_thread(&mut loaded, token_check);
    update(&mut loaded.model, char_key('m'));
    let node = screen(&loaded.model).threads()[token_check]
        .comment
        .target
        .node
        .clone()
        .unwrap()
        .id;
    update(&mut loaded.model, char_key('c'));
    let Some(Overlay::Composer {
        target, composer, ..
    }) = &screen(&loaded.model).overlay
    else {
        panic!("the composer opens")
    };
    let ComposeTarget::BlockComment {
        page,
        node: Some(sent_node),
        line,
        about,
        note: None,
        cell: None,
    } = target
    else {
        panic!("{target:?}")
    };
    assert_eq!(page, demo_ids::PAGE_QUICKSTART);
    assert_eq!(sent_node, &node);
    assert_eq!(about, "the heading 'Check your token'");
    assert_eq!(
        composer.title,
        format!("Comment on the heading 'Check your token' · Quickstart, line {line}")
    );
    type_text(&mut loaded.model, "Shorter heading?");
    // Sent for real, then read back from the sandbox over HTTP.
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
        .find(|c| c.body.markdown() == Some("Shorter heading?"))
        .expect("stored");
    assert_eq!(
        mine.target.page.as_ref().map(|p| p.id.as_str()),
        Some(demo_ids::PAGE_QUICKSTART)
    );
    assert_eq!(
        mine.target.node.as_ref().map(|n| n.id.as_str()),
        Some(node.as_str())
    );
    // And the new thread is drawn beside the same block.
    let shown = screen(&loaded.model);
    let new_thread = shown
        .threads()
        .iter()
        .position(|t| t.comment.id == mine.id)
        .unwrap();
    let token_check = thread_on_block(&loaded.model, "Is `/v1/tokens/self` public");
    let marks = &shown.diff_threads.marks;
    assert_eq!(marks.row_of(new_thread), marks.row_of(token_check));
    let row = marks.row_of(new_thread).unwrap();
    assert_eq!(marks.threads_at(row).map(<[usize]>::len), Some(2));
}

#[tokio::test]
async fn the_comment_sandbox_stores_page_and_node() {
    let loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let client = Client::new(ClientConfig::new(
        loaded.sandbox.base_url(),
        Token::new(tokens::COMMENTER),
    ))
    .unwrap();
    client
        .post_comment_on_block(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW,
            "On a block",
            Some(demo_ids::PAGE_QUICKSTART),
            Some("block-3"),
        )
        .await
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
        .find(|c| c.body.markdown() == Some("On a block"))
        .expect("stored");
    assert_eq!(
        mine.target.page.as_ref().map(|p| p.id.as_str()),
        Some(demo_ids::PAGE_QUICKSTART)
    );
    assert_eq!(
        mine.target.node.as_ref().map(|n| n.id.as_str()),
        Some("block-3")
    );
}

/// Visit one: the changes tab (the Quickstart diff) and the comments tab were seen.
fn first_visit(loaded: &mut Loaded) -> Seen {
    open_tab(&mut loaded.model, ReviewTab::Comments);
    open_tab(&mut loaded.model, ReviewTab::Changes);
    let seen = screen(&loaded.model).since.now.clone();
    assert!(seen.threads.len() >= 25);
    assert!(seen.pages.contains_key(demo_ids::PAGE_QUICKSTART));
    seen
}

/// Visit two: the review reloads and finds the memory of visit one.
async fn second_visit(loaded: &mut Loaded, seen: &Seen) {
    headless::settle(&mut loaded.model, &loaded.effects, char_key('r')).await;
    let key = screen(&loaded.model).memory_key();
    let memory = Msg::DraftsLoaded {
        prefix: key.clone(),
        drafts: vec![(key, seen.to_json())],
    };
    headless::settle(&mut loaded.model, &loaded.effects, memory).await;
}

#[tokio::test]
async fn a_return_visit_says_what_is_new_and_marks_it() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let mut seen = first_visit(&mut loaded);
    seen.seen_at = (chrono::Utc::now() - chrono::TimeDelta::hours(2)).to_rfc3339();
    someone_comments_and_edits_the_quickstart(&loaded.sandbox).await;
    second_visit(&mut loaded, &seen).await;
    let shown = screen(&loaded.model);
    let notice = shown
        .notice
        .as_ref()
        .expect("the news is said")
        .text
        .clone();
    assert_eq!(
        notice,
        "1 new thread, 1 page changed since your last visit (2 h ago) — L shows them"
    );
    assert_eq!(shown.new_thread_count(), 1);
    // L on the comments tab goes to the new thread.
    open_tab(&mut loaded.model, ReviewTab::Comments);
    update(&mut loaded.model, char_key('L'));
    let shown = screen(&loaded.model);
    let row = shown.selected_row().unwrap();
    assert_eq!(
        shown.threads()[row.thread].comment.body.markdown(),
        Some("A new question")
    );
    assert!(shown.is_new_thread(row.thread));
}

/// The change request's revision tells each page's `updatedAt`: on a return visit only the
/// remembered pages whose `updatedAt` moved are read again, not one read per page.
#[tokio::test]
async fn a_return_visit_reads_again_only_the_pages_whose_version_moved() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let _ = first_visit(&mut loaded);
    // The REST API guide (edited) and Token scopes (created) diffs are opened too.
    for _ in 0..2 {
        headless::settle(&mut loaded.model, &loaded.effects, char_key('J')).await;
    }
    let seen = screen(&loaded.model).since.now.clone();
    for page in [
        demo_ids::PAGE_QUICKSTART,
        demo_ids::PAGE_REST_API,
        demo_ids::PAGE_TOKEN_SCOPES,
    ] {
        let version = seen.pages.get(page).and_then(|p| p.version.as_ref());
        assert!(version.is_some(), "{page} remembered with its updatedAt");
    }
    someone_comments_and_edits_the_quickstart(&loaded.sandbox).await;
    let revision_reads = "/spaces/*/change-requests/*/content";
    assert_eq!(loaded.sandbox.requests("GET", revision_reads), 0);
    second_visit(&mut loaded, &seen).await;
    assert_eq!(loaded.sandbox.requests("GET", revision_reads), 1);
    let shown = screen(&loaded.model);
    let mut read: Vec<&str> = shown
        .since
        .pages_now
        .as_ref()
        .expect("the pages now")
        .keys()
        .map(String::as_str)
        .collect();
    read.sort_unstable();
    // The change request's edit moved the edited pages' `updatedAt`; the created page's
    // stayed, so its text was not read again.
    assert_eq!(read, [demo_ids::PAGE_QUICKSTART, demo_ids::PAGE_REST_API]);
    assert_eq!(shown.news().changed_pages, [demo_ids::PAGE_QUICKSTART]);
}

#[tokio::test]
async fn l_on_the_changes_tab_shows_only_what_changed_since() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let seen = first_visit(&mut loaded);
    someone_comments_and_edits_the_quickstart(&loaded.sandbox).await;
    second_visit(&mut loaded, &seen).await;
    headless::settle(&mut loaded.model, &loaded.effects, char_key('L')).await;
    let shown = screen(&loaded.model);
    let pages: Vec<&str> = shown.pages.iter().map(|p| p.page.as_str()).collect();
    assert_eq!(pages, [demo_ids::PAGE_QUICKSTART]);
    let notice = shown.notice.as_ref().unwrap().text.clone();
    assert!(notice.starts_with("Since your last visit"), "{notice}");
    let diff = shown.page_diff.as_ref().unwrap();
    assert_eq!(
        (diff.added, diff.removed),
        (2, 0),
        "only the blank line and the line added since"
    );
    assert!(shown.since_label().unwrap().starts_with("since last visit"));
    // L again: every changed page.
    headless::settle(&mut loaded.model, &loaded.effects, char_key('L')).await;
    assert_eq!(screen(&loaded.model).pages.len(), 4);
}

#[tokio::test]
async fn a_first_visit_says_nothing_and_marks_nothing() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    assert!(screen(&loaded.model).notice.is_none());
    assert_eq!(screen(&loaded.model).new_thread_count(), 0);
    open_tab(&mut loaded.model, ReviewTab::Changes);
    update(&mut loaded.model, char_key('L'));
    let notice = screen(&loaded.model).notice.clone().unwrap().text;
    assert!(notice.contains("first visit"), "{notice}");
}

fn saves_memory(cmd: &quire::app::Cmd) -> bool {
    use quire::app::Cmd;
    match cmd {
        Cmd::SaveReviewMemory { .. } => true,
        Cmd::Batch(all) => all.iter().any(saves_memory),
        _ => false,
    }
}

#[tokio::test]
async fn the_memory_is_written_when_something_new_was_seen_and_only_then() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let cmd = update(&mut loaded.model, char_key('3'));
    assert!(
        saves_memory(&cmd),
        "the comments tab shows the threads: {cmd:?}"
    );
    let Some(quire::app::Cmd::SaveReviewMemory { key, text }) = flatten(&cmd)
        .into_iter()
        .find(|cmd| matches!(cmd, quire::app::Cmd::SaveReviewMemory { .. }))
    else {
        unreachable!()
    };
    assert_eq!(key, "seen:spc-getting-started.cr-gs-token-scopes");
    let seen = Seen::from_json(&text).unwrap();
    assert_eq!(seen.threads.len(), screen(&loaded.model).threads().len());
    assert!(!seen.seen_at.is_empty() && seen.revision.is_some());
    // Moving around shows nothing new: nothing is written.
    for c in ['j', 'j', 'k', '4', '3'] {
        assert!(
            !saves_memory(&update(&mut loaded.model, char_key(c))),
            "{c}"
        );
    }
}

fn flatten(cmd: &quire::app::Cmd) -> Vec<quire::app::Cmd> {
    match cmd {
        quire::app::Cmd::Batch(all) => all.iter().flat_map(flatten).collect(),
        other => vec![other.clone()],
    }
}

#[tokio::test]
async fn my_own_new_comment_is_not_news_to_me() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let seen = first_visit(&mut loaded);
    // Written meanwhile by the same user elsewhere (another terminal, the web app).
    let client = Client::new(ClientConfig::new(
        loaded.sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap();
    client
        .post_comment(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW,
            "A note to myself",
            None,
        )
        .await
        .unwrap();
    second_visit(&mut loaded, &seen).await;
    let shown = screen(&loaded.model);
    assert!(
        shown
            .threads()
            .iter()
            .any(|t| t.comment.body.markdown() == Some("A note to myself"))
    );
    assert_eq!(shown.new_thread_count(), 0);
    assert_eq!(shown.news().new_threads, 0);
}
