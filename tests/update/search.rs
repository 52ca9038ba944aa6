//! `update` for finding things: search as you type (debounce, answers to an older query
//! dropped, lazy paging, too long a query, `enter` reads the page at its section), the links
//! report (status tabs, `enter` reads the linking page), backlinks and files, and the keys
//! that open them from the space tree, the reader, the organization and the review.

use crate::common::*;
use quire::api::models::{File, LinkPage, SearchSpace};
use quire::api::{ApiError, BacklinkTarget, ContentSource, ListPage};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, Msg, RequestId, Size, update};
use quire::screens::Screen;
use quire::screens::files::FilesScreen;
use quire::screens::links::LinksScreen;
use quire::screens::search::{ResultRow, SEARCH_DELAY, SearchScreen};
use quire::vocabulary::files::{FilesCall, FilesResponse};
use quire::vocabulary::links::LinkList;
use quire::vocabulary::links::{LinksCall, LinksResponse};
use quire::vocabulary::search::{SearchCall, SearchResults, SearchScope};
use ratatui::crossterm::event::KeyCode;
use serde_json::json;

fn organization_scope() -> SearchScope {
    SearchScope::Organization {
        id: "org-1".into(),
        title: "Acme".into(),
    }
}

fn search_model() -> Model {
    let mut model = Model::new(
        Screen::Search(SearchScreen::new(organization_scope())),
        environment(),
        Size {
            width: 80,
            height: 24,
        },
    );
    model.init();
    model
}

fn search(model: &Model) -> &SearchScreen {
    match model.top() {
        Screen::Search(screen) => screen,
        other => panic!("not the search screen: {}", other.title()),
    }
}

fn type_text(model: &mut Model, text: &str) -> Vec<Cmd> {
    text.chars().map(|c| update(model, char_key(c))).collect()
}

/// The search timer a key set; after the first key it comes with the call-off of the one
/// before.
fn timer_of(cmd: &Cmd) -> RequestId {
    match cmd {
        Cmd::Timer { id, after } => {
            assert_eq!(*after, SEARCH_DELAY);
            *id
        }
        Cmd::Batch(commands) => match commands.as_slice() {
            [Cmd::CancelTimer(_), timer] => timer_of(timer),
            other => panic!("expected a timer and a call-off, got {other:?}"),
        },
        other => panic!("expected a timer, got {other:?}"),
    }
}

/// Types `text` and lets the last timer go off: returns the search request sent.
fn search_for(model: &mut Model, text: &str) -> (RequestId, SearchCall) {
    let commands = type_text(model, text);
    let timer = timer_of(commands.last().expect("typed"));
    match only_request(&update(model, Msg::Timer(timer))) {
        (request, ApiCall::Search(call)) => (request, call),
        (_, other) => panic!("not a search: {other:?}"),
    }
}

/// A result page: `spaces` spaces of two pages each, the first page with a matching section.
fn results(spaces: usize, next: Option<&str>) -> ListPage<SearchSpace> {
    let items = (0..spaces)
        .map(|index| {
            from_json(json!({
                "type": "space", "id": format!("s{index}"), "title": format!("Space {index}"),
                "pages": [
                    {"id": format!("p{index}"), "title": "Tokens", "path": "tokens",
                     "ancestors": [{"title": "Guides"}], "urls": {"app": "https://app/p"},
                     "sections": [{"id": format!("p{index}#reset"), "title": "Reset a token",
                                   "path": "tokens#reset-a-token", "body": "Rotate the token.",
                                   "urls": {"app": "https://app/p#reset-a-token"}}]},
                    {"id": format!("q{index}"), "title": "More tokens", "path": "more",
                     "ancestors": [], "sections": [], "urls": {}}
                ]
            }))
        })
        .collect();
    ListPage {
        items,
        unreadable: Vec::new(),
        next_page: next.map(str::to_string),
        count: None,
    }
}

fn answer(model: &mut Model, request: RequestId, query: &str, page: ListPage<SearchSpace>) -> Cmd {
    respond(
        model,
        request,
        ApiResponse::Search(SearchResults {
            query: query.into(),
            result: Ok(page),
        }),
    )
}

#[test]
fn typing_waits_for_a_pause_and_sends_the_query_once() {
    let mut model = search_model();
    let commands = type_text(&mut model, "tok");
    assert!(
        commands.iter().all(|cmd| cmd.api_calls().is_empty()),
        "no request while typing: {commands:?}"
    );
    for pair in commands.windows(2) {
        assert_eq!(
            cancelled_timers(&pair[1]),
            [timer_of(&pair[0])],
            "each key calls off the timer of the key before"
        );
    }
    let stale = timer_of(&commands[0]);
    assert_eq!(
        update(&mut model, Msg::Timer(stale)),
        Cmd::None,
        "an older timer"
    );
    let latest = timer_of(&commands[2]);
    let (_, call) = only_request(&update(&mut model, Msg::Timer(latest)));
    assert_eq!(
        call,
        ApiCall::Search(SearchCall {
            scope: organization_scope(),
            query: "tok".into(),
            page: None,
        })
    );
}

#[test]
fn an_answer_to_an_older_query_is_dropped() {
    let mut model = search_model();
    let (old, _) = search_for(&mut model, "tok");
    let timer = timer_of(&type_text(&mut model, "e")[0]);
    // The answer for "tok" arrives after "toke" was typed: it is not shown.
    answer(&mut model, old, "tok", results(1, None));
    assert!(search(&model).rows.is_empty());
    let (new, call) = match only_request(&update(&mut model, Msg::Timer(timer))) {
        (request, ApiCall::Search(call)) => (request, call),
        other => panic!("{other:?}"),
    };
    assert_eq!(call.query, "toke");
    answer(&mut model, new, "toke", results(1, None));
    assert_eq!(
        search(&model).rows.len(),
        1 + 2 + 1,
        "space, pages and a section"
    );
}

#[test]
fn clearing_the_query_cancels_and_clears() {
    let mut model = search_model();
    let (request, _) = search_for(&mut model, "x");
    assert_eq!(update(&mut model, key(KeyCode::Backspace)), Cmd::None);
    answer(&mut model, request, "x", results(1, None));
    assert!(search(&model).rows.is_empty());
    assert!(search(&model).searched.is_none());
}

#[test]
fn a_query_longer_than_512_characters_is_not_sent() {
    let mut model = search_model();
    update(&mut model, Msg::Paste("a".repeat(513)));
    let cmd = update(&mut model, key(KeyCode::Enter));
    assert!(cmd.api_calls().is_empty(), "{cmd:?}");
    let problem = search(&model).problem.clone().expect("said why");
    assert!(
        problem.contains("512") && problem.contains("513"),
        "{problem}"
    );
}

#[test]
fn results_page_lazily_as_the_selection_nears_the_end() {
    let mut model = search_model();
    let (request, _) = search_for(&mut model, "token");
    let more = answer(&mut model, request, "token", results(15, Some("page-2")));
    assert!(
        more.api_calls().is_empty(),
        "the selection is far from the end"
    );
    // Row 0 is a space title: the selection starts on the first page.
    assert!(matches!(
        search(&model).selected_row(),
        Some(ResultRow::Page { group: 0, page: 0 })
    ));
    update(&mut model, key(KeyCode::Esc));
    assert!(!search(&model).typing, "esc hands the keys to the results");
    let mut asked = Vec::new();
    for _ in 0..30 {
        asked.extend(update(&mut model, char_key('j')).api_calls());
    }
    assert_eq!(asked.len(), 1, "one more page: {asked:?}");
    assert_eq!(
        asked[0].1,
        ApiCall::Search(SearchCall {
            scope: organization_scope(),
            query: "token".into(),
            page: Some("page-2".into()),
        })
    );
    answer(&mut model, asked[0].0, "token", results(2, None));
    assert_eq!(search(&model).results.items.len(), 17);
}

#[test]
fn enter_reads_the_page_at_the_matching_section() {
    let mut model = search_model();
    let (request, _) = search_for(&mut model, "token");
    answer(&mut model, request, "token", results(1, None));
    update(&mut model, key(KeyCode::Down));
    assert!(matches!(
        search(&model).selected_row(),
        Some(ResultRow::Section { .. })
    ));
    let cmd = update(&mut model, key(KeyCode::Enter));
    let Screen::Page(reader) = model.top() else {
        panic!("the reader opens");
    };
    assert_eq!(reader.space.id, "s0");
    assert_eq!(reader.page.id, "p0");
    let section = reader.section.clone().expect("a section to go to");
    assert_eq!(section.anchor.as_deref(), Some("reset-a-token"));
    let (request, call) = only_request(&cmd);
    assert_eq!(
        call,
        ApiCall::GetPageMarkdown {
            space: "s0".into(),
            page: "p0".into()
        }
    );
    let filler = "A line of text.\n\n".repeat(60);
    let markdown = format!("# Tokens\n\n{filler}## Reset a token\n\n{filler}");
    let parse = respond(
        &mut model,
        request,
        ApiResponse::PageMarkdown(Ok(page_with_markdown("p0", &markdown))),
    );
    finish_parse(&mut model, parse);
    let Screen::Page(reader) = model.top() else {
        panic!("still reading");
    };
    let heading_row = reader
        .reader
        .layout
        .as_ref()
        .expect("laid out")
        .heading_rows[1];
    assert!(heading_row > 60);
    assert_eq!(reader.reader.scroll, heading_row, "scrolled to the section");
    assert!(reader.section.is_none());
}

#[test]
fn s_searches_the_space_and_the_organization() {
    let (mut model, _) = space_model();
    update(&mut model, char_key('s'));
    assert_eq!(
        search(&model).scope,
        SearchScope::Space {
            id: "s-api".into(),
            title: "API Reference".into()
        }
    );
    let mut model = loaded_organizations(1, None);
    let (request, _) = only_request(&open_first_organization(&mut model));
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(tree())),
    );
    update(&mut model, char_key('s'));
    assert!(search(&model).scope.is_organization());
    assert!(search(&model).typing);
}

fn links(model: &Model) -> &LinksScreen {
    match model.top() {
        Screen::Links(screen) => screen,
        other => panic!("not a links screen: {}", other.title()),
    }
}

fn links_calls(cmd: &Cmd) -> Vec<(RequestId, LinksCall)> {
    cmd.api_calls()
        .into_iter()
        .filter_map(|(request, call)| match call {
            ApiCall::Links(call) => Some((request, call)),
            _ => None,
        })
        .collect()
}

fn link_page() -> LinkPage {
    from_json::<LinkPage>(json!({
        "items": [
            {"status": "ok", "targetReference": {"kind": "url", "url": "https://ok"},
             "locationReferences": [{"kind": "page", "page": "p-install"}]},
            {"status": "broken", "targetReference": {"kind": "url", "url": "gone.md"},
             "locationReferences": [{"kind": "page", "page": "p-start"}]}
        ],
        "stats": {"total": 2, "broken": {"total": 1, "changeRequest": 0}}
    }))
}

#[test]
fn the_links_report_shows_broken_first_filters_by_status_and_opens_the_page() {
    let (mut model, _) = space_model();
    let cmd = update(&mut model, char_key('L'));
    let calls = links_calls(&cmd);
    assert_eq!(calls.len(), 2, "the links and the page names: {calls:?}");
    let space = ContentSource::Space("s-api".into());
    assert_eq!(
        calls[0].1,
        LinksCall::Links {
            source: space.clone(),
            page: None,
            status: None,
            cursor: None
        }
    );
    assert_eq!(calls[1].1, LinksCall::Pages { source: space });
    respond(
        &mut model,
        calls[0].0,
        ApiResponse::Links(LinksResponse::Links(Ok(link_page()))),
    );
    respond(
        &mut model,
        calls[1].0,
        ApiResponse::Links(LinksResponse::Pages(Ok(pages()))),
    );
    let screen = links(&model);
    assert_eq!(screen.stats.as_ref().and_then(|s| s.broken.total), Some(1));
    let first = screen.visible()[0];
    assert_eq!(
        first
            .target_reference
            .as_ref()
            .and_then(|t| t.url.clone())
            .as_deref(),
        Some("gone.md")
    );

    let cmd = update(&mut model, key(KeyCode::Tab));
    let calls = links_calls(&cmd);
    assert!(matches!(
        &calls[0].1,
        LinksCall::Links { status: Some(status), .. } if status.as_str() == "broken"
    ));

    update(&mut model, key(KeyCode::Enter));
    let Screen::Page(reader) = model.top() else {
        panic!("enter reads the page holding the link");
    };
    assert_eq!(reader.page.id, "p-start");
    assert_eq!(
        reader.page.title, "Getting started",
        "named from the page tree"
    );
}

#[test]
fn backlinks_of_a_page_from_the_tree_and_the_reader_and_its_links() {
    let (mut model, _) = space_model();
    let cmd = update(&mut model, char_key('b'));
    assert_eq!(
        links(&model).list,
        LinkList::PageBacklinks {
            id: "p-start".into(),
            title: "Getting started".into()
        }
    );
    let (request, call) = links_calls(&cmd)[0].clone();
    assert_eq!(
        call,
        LinksCall::Backlinks {
            source: ContentSource::Space("s-api".into()),
            target: BacklinkTarget::Page("p-start".into()),
            cursor: None
        }
    );
    let from: ListPage<quire::api::models::ContentRef> = ListPage {
        items: vec![from_json(json!({"kind": "page", "page": "p-install"}))],
        ..ListPage::default()
    };
    respond(
        &mut model,
        request,
        ApiResponse::Links(LinksResponse::Backlinks(Ok(from))),
    );
    assert!(!links(&model).has_status_tabs());
    update(&mut model, key(KeyCode::Enter));
    let Screen::Page(reader) = model.top() else {
        panic!("enter reads the linking page");
    };
    assert_eq!(reader.page.id, "p-install");

    // In the reader: `b` what links here, `l` the page's own links.
    update(&mut model, char_key('l'));
    assert_eq!(
        links(&model).list,
        LinkList::Page {
            id: "p-install".into(),
            title: "p-install".into()
        }
    );
    update(&mut model, key(KeyCode::Esc));
    update(&mut model, char_key('b'));
    assert!(matches!(links(&model).list, LinkList::PageBacklinks { .. }));
}

#[test]
fn a_failed_links_answer_is_shown_and_a_stale_one_dropped() {
    let (mut model, _) = space_model();
    let cmd = update(&mut model, char_key('L'));
    let (first, _) = links_calls(&cmd)[0].clone();
    let cmd = update(&mut model, key(KeyCode::Tab));
    let (second, _) = links_calls(&cmd)[0].clone();
    respond(
        &mut model,
        first,
        ApiResponse::Links(LinksResponse::Links(Ok(link_page()))),
    );
    assert!(
        !links(&model).links.loaded_once(),
        "the all-links answer came too late"
    );
    let error = ApiError::Status {
        endpoint: "GET /spaces/s-api/links".into(),
        status: 500,
        code: None,
        message: "boom".into(),
    };
    respond(
        &mut model,
        second,
        ApiResponse::Links(LinksResponse::Links(Err(error.clone()))),
    );
    assert_eq!(links(&model).links.error, Some(error));
}

fn files(model: &Model) -> &FilesScreen {
    match model.top() {
        Screen::Files(screen) => screen,
        other => panic!("not the files screen: {}", other.title()),
    }
}

fn file(id: &str) -> File {
    from_json(
        json!({"id": id, "name": format!("{id}.png"), "contentType": "image/png",
        "downloadURL": format!("https://files/{id}.png"), "size": 2048,
        "dimensions": {"width": 10, "height": 20}}),
    )
}

#[test]
fn files_details_backlinks_and_copying_the_address() {
    let (mut model, _) = space_model();
    let cmd = update(&mut model, char_key('F'));
    let source = ContentSource::Space("s-api".into());
    let (request, call) = only_request(&cmd);
    assert_eq!(
        call,
        ApiCall::Files(FilesCall::List {
            source: source.clone(),
            cursor: None
        })
    );
    let list = ListPage {
        items: vec![file("a"), file("b")],
        ..ListPage::default()
    };
    respond(
        &mut model,
        request,
        ApiResponse::Files(FilesResponse::Files(Ok(list))),
    );
    update(&mut model, char_key('j'));
    assert_eq!(
        update(&mut model, char_key('y')),
        Cmd::CopyToClipboard("https://files/b.png".into())
    );
    let (request, call) = only_request(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        ApiCall::Files(FilesCall::Get {
            source: source.clone(),
            file: "b".into()
        })
    );
    assert!(
        files(&model)
            .details
            .as_ref()
            .and_then(|d| d.value())
            .is_some(),
        "shown at once"
    );
    respond(
        &mut model,
        request,
        ApiResponse::Files(FilesResponse::File(Ok(file("b")))),
    );
    assert_eq!(
        update(&mut model, char_key('o')),
        Cmd::OpenInBrowser("https://files/b.png".into())
    );
    update(&mut model, key(KeyCode::Esc));
    assert!(
        files(&model).details.is_none(),
        "esc closes the details first"
    );
    let cmd = update(&mut model, char_key('b'));
    assert_eq!(
        links_calls(&cmd)[0].1,
        LinksCall::Backlinks {
            source,
            target: BacklinkTarget::File("b".into()),
            cursor: None
        }
    );
}

#[test]
fn the_review_opens_the_change_requests_files_and_backlinks() {
    let target = quire::vocabulary::change_requests::ChangeRequestRef {
        space: "s-api".into(),
        change_request: "cr-1".into(),
    };
    let mut model = Model::new(
        Screen::Review(Box::new(
            quire::screens::change_requests::review::ReviewScreen::new(target, None),
        )),
        environment(),
        Size {
            width: 80,
            height: 24,
        },
    );
    model.init();
    let source = ContentSource::ChangeRequest {
        space: "s-api".into(),
        change_request: "cr-1".into(),
    };
    let cmd = update(&mut model, char_key('b'));
    assert!(
        cmd.api_calls().is_empty(),
        "no changed page is selected yet"
    );
    let cmd = update(&mut model, char_key('F'));
    assert_eq!(files(&model).source, source);
    assert!(matches!(
        only_request(&cmd).1,
        ApiCall::Files(FilesCall::List { source: ref s, .. }) if *s == source
    ));
}

/// The query field takes `r` as a letter, so after a failed search the screen offers `enter`,
/// and `enter` sends the same query again (typing or not).
#[test]
fn a_failed_search_is_retried_with_enter_and_says_so() {
    let mut model = search_model();
    let (request, call) = search_for(&mut model, "token");
    let failure = ApiError::Status {
        endpoint: "GET /orgs/org-1/search".into(),
        status: 500,
        code: None,
        message: "Internal".into(),
    };
    respond(
        &mut model,
        request,
        ApiResponse::Search(SearchResults {
            query: call.query.clone(),
            result: Err(failure),
        }),
    );
    let screen = crate::common::views::render(&mut model, 80, 24);
    assert!(screen.contains("enter to retry"), "{screen}");
    assert!(!screen.contains(" r to retry"), "{screen}");
    assert!(screen.contains("enter  retry"), "the footer too: {screen}");
    let (_, again) = only_request(&update(&mut model, key(KeyCode::Enter)));
    assert!(matches!(again, ApiCall::Search(SearchCall { query, .. }) if query == "token"));
}
