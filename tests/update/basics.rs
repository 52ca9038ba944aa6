//! Layer 1: `update` on its own. Build a model, feed messages, assert the state and the commands
//! it asks for — including stale results and failures.

use crate::common::*;
use quire::api::ApiError;
use quire::api::models::{Collection, Space};
use quire::app::OrganizationTree;
use quire::app::{ApiCall, ApiResponse, Cmd, Msg, Overlay, update};
use quire::screens::Screen;
use ratatui::crossterm::event::KeyCode;

#[test]
fn the_first_screen_asks_for_the_first_page_of_organizations() {
    let mut model = organizations_model(80, 24);
    let (_, call) = only_request(&model.init());
    assert_eq!(call, ApiCall::ListOrganizations { page: None });
    assert!(model.is_busy(), "the spinner turns while loading");
}

#[test]
fn scrolling_near_the_end_fetches_the_next_page_once() {
    let mut model = loaded_organizations(15, Some("page-2"));
    assert!(!model.is_busy());
    let mut asked = Vec::new();
    for _ in 0..14 {
        asked.extend(requests(&update(&mut model, char_key('j'))));
    }
    assert_eq!(asked.len(), 1, "one request for the next page: {asked:?}");
    assert_eq!(
        asked[0].1,
        ApiCall::ListOrganizations {
            page: Some("page-2".to_string())
        }
    );
    respond(
        &mut model,
        asked[0].0,
        ApiResponse::Organizations(Ok(organizations_page(5, 15, None))),
    );
    let Screen::Organizations(screen) = model.top() else {
        panic!("still on organizations")
    };
    assert_eq!(screen.list.items.len(), 20);
    assert!(
        requests(&update(&mut model, char_key('G'))).is_empty(),
        "no next page"
    );
}

#[test]
fn a_server_that_repeats_its_next_page_cannot_make_us_loop() {
    let mut model = organizations_model(80, 24);
    let (first, _) = only_request(&model.init());
    // A short first page: the next one is asked for as soon as it arrives.
    let prefetch = respond(
        &mut model,
        first,
        ApiResponse::Organizations(Ok(organizations_page(3, 0, Some("same")))),
    );
    let (request, call) = only_request(&prefetch);
    assert_eq!(
        call,
        ApiCall::ListOrganizations {
            page: Some("same".into())
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Organizations(Ok(organizations_page(3, 3, Some("same")))),
    );
    let more = update(&mut model, char_key('G'));
    assert!(
        requests(&more).is_empty(),
        "a repeated page id is not fetched again"
    );
}

#[test]
fn a_stale_result_is_dropped() {
    let mut model = organizations_model(80, 24);
    let (first, _) = only_request(&model.init());
    let (second, _) = only_request(&update(&mut model, char_key('r')));
    assert_ne!(first, second);
    respond(
        &mut model,
        first,
        ApiResponse::Organizations(Ok(organizations_page(1, 100, None))),
    );
    let Screen::Organizations(screen) = model.top() else {
        panic!()
    };
    assert!(screen.list.items.is_empty(), "the old answer was ignored");
    respond(
        &mut model,
        second,
        ApiResponse::Organizations(Ok(organizations_page(2, 0, None))),
    );
    let Screen::Organizations(screen) = model.top() else {
        panic!()
    };
    assert_eq!(screen.list.items.len(), 2);
}

#[test]
fn a_failure_is_kept_for_the_screen_and_refresh_retries() {
    let mut model = organizations_model(80, 24);
    let (request, _) = only_request(&model.init());
    let error = ApiError::Status {
        endpoint: "GET /orgs".into(),
        status: 503,
        code: Some(503),
        message: "Service Unavailable".into(),
    };
    respond(
        &mut model,
        request,
        ApiResponse::Organizations(Err(error.clone())),
    );
    let Screen::Organizations(screen) = model.top() else {
        panic!()
    };
    assert_eq!(screen.list.error.as_ref(), Some(&error));
    let (_, call) = only_request(&update(&mut model, char_key('r')));
    assert_eq!(call, ApiCall::ListOrganizations { page: None });
}

#[test]
fn a_refused_token_leaves_no_join_or_filter_to_open() {
    let mut model = organizations_model(80, 24);
    let (request, _) = only_request(&model.init());
    let refused = ApiError::Status {
        endpoint: "GET /orgs".into(),
        status: 401,
        code: Some(401),
        message: "The token was rejected".into(),
    };
    respond(
        &mut model,
        request,
        ApiResponse::Organizations(Err(refused)),
    );
    for typed in ['J', '/'] {
        assert!(requests(&update(&mut model, char_key(typed))).is_empty());
    }
    let Screen::Organizations(screen) = model.top() else {
        panic!()
    };
    assert!(screen.join.modal.is_none(), "no join prompt");
    assert!(!screen.filter.is_shown(), "no filter row");
}

#[test]
fn the_filter_narrows_the_list_and_esc_clears_it() {
    let mut model = loaded_organizations(12, None);
    update(&mut model, char_key('/'));
    update(&mut model, char_key('1'));
    update(&mut model, char_key('1'));
    let Screen::Organizations(screen) = model.top() else {
        panic!()
    };
    assert_eq!(screen.visible().len(), 1, "only Org 11");
    update(&mut model, key(KeyCode::Esc));
    let Screen::Organizations(screen) = model.top() else {
        panic!()
    };
    assert_eq!(screen.visible().len(), 12);
}

#[test]
fn typing_q_in_the_filter_does_not_quit() {
    let mut model = loaded_organizations(3, None);
    update(&mut model, char_key('/'));
    assert_eq!(update(&mut model, char_key('q')), Cmd::None);
    assert!(!model.quit);
    update(&mut model, key(KeyCode::Enter));
    assert_eq!(update(&mut model, char_key('q')), Cmd::Quit);
    assert!(model.quit);
}

#[test]
fn opening_an_organization_loads_its_tree_and_builds_collections_and_spaces() {
    let mut model = loaded_organizations(2, None);
    let (request, call) = only_request(&open_first_organization(&mut model));
    assert_eq!(
        call,
        ApiCall::OrganizationTree {
            organization: "org-0".into()
        }
    );
    assert_eq!(model.breadcrumb(), ["Organizations", "Org 0"]);
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(tree())),
    );
    let Screen::Organization(screen) = model.top() else {
        panic!()
    };
    let titles: Vec<String> = screen
        .visible_rows()
        .iter()
        .map(|row| {
            screen
                .tree
                .value()
                .unwrap()
                .item(row.node)
                .unwrap()
                .title()
                .to_string()
        })
        .collect();
    // Top level open by default: Guides shows Internal (closed), then the root space.
    assert_eq!(titles, ["Guides", "Internal", "API Reference"]);
}

#[test]
fn expanding_filtering_and_opening_a_space() {
    let mut model = loaded_organizations(1, None);
    let (request, _) = only_request(&open_first_organization(&mut model));
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(tree())),
    );
    update(&mut model, char_key('j'));
    update(&mut model, char_key('l'));
    update(&mut model, char_key('j'));
    let Screen::Organization(screen) = model.top() else {
        panic!()
    };
    assert_eq!(screen.selected_node().unwrap().title(), "Handbook");
    update(&mut model, char_key('/'));
    for c in "api".chars() {
        update(&mut model, char_key(c));
    }
    update(&mut model, key(KeyCode::Enter));
    let Screen::Organization(screen) = model.top() else {
        panic!()
    };
    assert_eq!(screen.visible_rows().len(), 1);
    let (_, call) = only_request(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        ApiCall::ListPages {
            space: "s-api".into()
        }
    );
    assert!(matches!(model.top(), Screen::Space(_)));
    update(&mut model, key(KeyCode::Esc));
    assert!(matches!(model.top(), Screen::Organization(_)));
}

#[test]
fn the_preview_follows_the_selection_parses_then_highlights() {
    let (mut model, preview) = space_model();
    let cmd = respond(
        &mut model,
        preview,
        ApiResponse::PageMarkdown(Ok(page_with_markdown("p-start", "# Hello\n\nWorld"))),
    );
    let Cmd::ParseMarkdown {
        key: parsed_key,
        markdown,
    } = cmd
    else {
        panic!("expected a parse, got {cmd:?}")
    };
    let key = parsed_key;
    assert_eq!(&*markdown, "# Hello\n\nWorld");
    assert!(model.is_busy(), "parsing counts as work in flight");
    let doc = quire::ui::markdown::MarkdownDoc::parse(&markdown, &model.theme);
    let handle = quire::app::DocHandle(std::sync::Arc::new(doc));
    let next = update(
        &mut model,
        Msg::MarkdownParsed {
            key: key.clone(),
            doc: handle.clone(),
            highlighted: false,
        },
    );
    assert_eq!(
        next,
        Cmd::HighlightMarkdown {
            key: key.clone(),
            doc: handle.clone()
        }
    );
    let Screen::Space(screen) = model.top() else {
        panic!()
    };
    assert!(screen.reader.is_ready());
    // Moving to the group page does not fetch anything: groups have no body.
    let cmd = update(&mut model, char_key('G'));
    assert!(requests(&cmd).is_empty());
    // Back to the first page: known already, shown at once without a request.
    let cmd = update(&mut model, char_key('g'));
    assert!(requests(&cmd).is_empty(), "{cmd:?}");
}

/// `r` in the reader used to change nothing once a page was parsed: the cached parse (with
/// its code blocks left plain) was shown again. It renders the page afresh now.
#[test]
fn refreshing_the_reader_parses_and_highlights_the_page_again() {
    let (mut model, preview) = space_model();
    let markdown = "# Code\n\n```rust\nfn main() {}\n```\n";
    let cmd = respond(
        &mut model,
        preview,
        ApiResponse::PageMarkdown(Ok(page_with_markdown("p-start", markdown))),
    );
    finish_parse(&mut model, cmd);
    assert!(requests(&update(&mut model, key(KeyCode::Enter))).is_empty());
    let layout_before = match model.top() {
        Screen::Page(page) => page.reader.layout.clone().expect("laid out"),
        _ => panic!("reader open"),
    };

    let (request, call) = only_request(&update(&mut model, char_key('r')));
    assert!(matches!(call, ApiCall::GetPageMarkdown { .. }), "{call:?}");
    let cmd = respond(
        &mut model,
        request,
        ApiResponse::PageMarkdown(Ok(page_with_markdown("p-start", markdown))),
    );
    let Cmd::ParseMarkdown { key: doc_key, .. } = cmd.clone() else {
        panic!("the page is parsed again, got {cmd:?}")
    };
    // The plain parse arrives first and asks for highlighting; the highlighted one replaces
    // the layout on screen.
    let plain = quire::app::DocHandle(std::sync::Arc::new(
        quire::ui::markdown::MarkdownDoc::parse(markdown, &model.theme),
    ));
    let next = update(
        &mut model,
        Msg::MarkdownParsed {
            key: doc_key.clone(),
            doc: plain.clone(),
            highlighted: false,
        },
    );
    assert_eq!(
        next,
        Cmd::HighlightMarkdown {
            key: doc_key.clone(),
            doc: plain.clone()
        }
    );
    let highlighted = quire::app::DocHandle(std::sync::Arc::new(
        plain
            .0
            .highlighted(&model.theme, &quire::ui::markdown::RenderOptions::default()),
    ));
    update(
        &mut model,
        Msg::MarkdownParsed {
            key: doc_key,
            doc: highlighted,
            highlighted: true,
        },
    );
    let Screen::Page(page) = model.top() else {
        panic!()
    };
    let layout_after = page.reader.layout.clone().expect("laid out");
    assert!(
        !std::sync::Arc::ptr_eq(&layout_before, &layout_after),
        "the fresh highlighted parse is laid out"
    );
}

#[test]
fn reading_a_page_scrolls_searches_and_jumps_by_heading() {
    let (mut model, preview) = space_model();
    let mut markdown = String::from("# Top\n\n");
    for i in 0..60 {
        markdown.push_str(&format!("Paragraph {i} about robots.\n\n"));
    }
    markdown.push_str("## Far section\n\nThe needle is here.\n");
    let cmd = respond(
        &mut model,
        preview,
        ApiResponse::PageMarkdown(Ok(page_with_markdown("p-start", &markdown))),
    );
    let Cmd::ParseMarkdown {
        key: parsed_key,
        markdown,
    } = cmd
    else {
        panic!()
    };
    let doc = quire::ui::markdown::MarkdownDoc::parse(&markdown, &model.theme);
    update(
        &mut model,
        Msg::MarkdownParsed {
            key: parsed_key,
            doc: quire::app::DocHandle(std::sync::Arc::new(doc)),
            highlighted: true,
        },
    );
    let cmd = update(&mut model, key(KeyCode::Enter));
    assert!(
        requests(&cmd).is_empty(),
        "the reader reuses the parsed page"
    );
    let Screen::Page(page) = model.top() else {
        panic!("reader open")
    };
    assert!(page.reader.is_ready());

    update(&mut model, char_key('j'));
    update(&mut model, ctrl('d'));
    let Screen::Page(page) = model.top() else {
        panic!()
    };
    assert!(page.reader.scroll > 1);
    update(&mut model, char_key('g'));
    for c in "/needle".chars() {
        update(&mut model, char_key(c));
    }
    update(&mut model, key(KeyCode::Enter));
    let Screen::Page(page) = model.top() else {
        panic!()
    };
    assert_eq!(page.reader.matches.len(), 1);
    assert!(page.reader.scroll > 10, "jumped to the match");
    update(&mut model, char_key('g'));
    update(&mut model, char_key('t'));
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter));
    let Screen::Page(page) = model.top() else {
        panic!()
    };
    assert!(page.contents.is_none());
    assert!(page.reader.scroll > 10, "jumped to the second heading");
}

#[test]
fn copy_link_asks_for_osc52_with_the_selected_address() {
    let mut model = loaded_organizations(2, None);
    let cmd = update(&mut model, char_key('y'));
    assert_eq!(
        cmd,
        Cmd::CopyToClipboard("https://app.example/o/org-0".into())
    );
    assert!(model.toast.as_ref().unwrap().text.contains("Copied"));
}

/// The help overlay scrolled to `scroll`, with no search.
fn help_at(scroll: u16) -> Overlay {
    Overlay::Help {
        scroll,
        filter: quire::ui::input::Filter::default(),
    }
}

#[test]
fn help_opens_and_closes_and_suspend_is_a_command() {
    let mut model = loaded_organizations(2, None);
    // Tall enough for the whole help (grouped in titled sections).
    update(
        &mut model,
        Msg::Resize {
            width: 80,
            height: 40,
        },
    );
    update(&mut model, char_key('?'));
    assert_eq!(model.overlay, Some(help_at(0)));
    update(&mut model, char_key('j'));
    assert_eq!(
        model.overlay,
        Some(help_at(0)),
        "help that fits does not scroll"
    );
    update(&mut model, key(KeyCode::Esc));
    assert_eq!(model.overlay, None);
    assert_eq!(update(&mut model, ctrl('z')), Cmd::Suspend);
}

#[test]
fn escape_on_the_first_screen_stays_and_resize_is_remembered() {
    let mut model = loaded_organizations(2, None);
    update(&mut model, key(KeyCode::Esc));
    assert_eq!(model.screens.len(), 1);
    update(
        &mut model,
        Msg::Resize {
            width: 120,
            height: 40,
        },
    );
    assert_eq!(model.size.width, 120);
}

#[test]
fn typing_a_filter_selects_the_first_match_not_its_ancestor() {
    let mut model = loaded_organizations(1, None);
    let (request, _) = only_request(&open_first_organization(&mut model));
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(tree())),
    );
    for c in "/hand".chars() {
        update(&mut model, char_key(c));
    }
    let Screen::Organization(screen) = model.top() else {
        panic!()
    };
    assert_eq!(screen.selected_node().unwrap().title(), "Handbook");
    update(&mut model, key(KeyCode::Enter));
    let (_, call) = only_request(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        ApiCall::ListPages {
            space: "s-handbook".into()
        }
    );
}

#[test]
fn a_hostile_twenty_thousand_deep_collection_tree_neither_overflows_nor_loses_anything() {
    let depth = 20_000;
    let collections: Vec<Collection> = (0..depth)
        .map(|i| {
            let parent = (i > 0).then(|| format!("c{}", i - 1));
            from_json(collection_json(
                &format!("c{i}"),
                &format!("C{i}"),
                parent.as_deref(),
            ))
        })
        .collect();
    let deepest = format!("c{}", depth - 1);
    let spaces = vec![from_json::<Space>(space_json(
        "s-deep",
        "Deep space",
        Some(&deepest),
    ))];
    // On a small stack, like a worker thread's, so unbounded recursion would be caught.
    let handle = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let tree = quire::screens::organization::build_tree(&OrganizationTree {
                collections,
                spaces,
                ..OrganizationTree::default()
            });
            let rows = tree.visible_rows(&Default::default(), None);
            (tree.len(), rows.len())
        })
        .unwrap();
    let (nodes, _) = handle.join().expect("no stack overflow");
    assert_eq!(
        nodes,
        depth + 1,
        "every collection and the space are in the tree"
    );
}

#[test]
fn the_table_of_contents_follows_rebound_keys() {
    let (mut model, preview) = space_model();
    let overrides =
        std::collections::HashMap::from([("down".to_string(), vec!["ctrl-n".to_string()])]);
    model.keymap.apply_overrides(&overrides).unwrap();
    let mut markdown = String::from("# Top\n\n");
    for i in 0..60 {
        markdown.push_str(&format!("Paragraph {i}.\n\n"));
    }
    markdown.push_str("## Far section\n\nEnd.\n");
    let cmd = respond(
        &mut model,
        preview,
        ApiResponse::PageMarkdown(Ok(page_with_markdown("p-start", &markdown))),
    );
    finish_parse(&mut model, cmd);
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('t'));
    update(&mut model, ctrl('n'));
    update(&mut model, key(KeyCode::Enter));
    let Screen::Page(page) = model.top() else {
        panic!()
    };
    assert!(page.contents.is_none());
    assert!(
        page.reader.scroll > 10,
        "ctrl-n moved to the second heading"
    );
}

#[test]
fn help_scrolls_to_its_last_row_and_never_past_it() {
    let mut model = loaded_organizations(2, None);
    update(
        &mut model,
        Msg::Resize {
            width: 80,
            height: 10,
        },
    );
    update(&mut model, char_key('?'));
    let last = quire::app::view::chrome::help_max_scroll(&model);
    assert!(last > 0, "the help is longer than 8 rows");
    update(&mut model, char_key('G'));
    assert_eq!(model.overlay, Some(help_at(last)), "G goes to the end");
    for _ in 0..5 {
        update(&mut model, char_key('j'));
        update(&mut model, ctrl('d'));
    }
    assert_eq!(model.overlay, Some(help_at(last)), "no over-scroll");
    update(&mut model, char_key('k'));
    assert_eq!(
        model.overlay,
        Some(help_at(last - 1)),
        "one up moves at once"
    );
    update(&mut model, char_key('g'));
    assert_eq!(model.overlay, Some(help_at(0)));
}

#[test]
fn a_failed_browser_shows_why_and_copies_the_address_instead() {
    let mut model = loaded_organizations(2, None);
    assert_eq!(
        update(&mut model, char_key('o')),
        Cmd::OpenInBrowser("https://app.example/o/org-0".into())
    );
    let cmd = update(
        &mut model,
        Msg::BrowserFailed {
            url: "https://app.example/o/org-0".into(),
            reason: "no graphical display".into(),
        },
    );
    assert_eq!(
        cmd,
        Cmd::CopyToClipboard("https://app.example/o/org-0".into())
    );
    let toast = model.toast.clone().unwrap();
    assert!(toast.error);
    assert!(
        toast.text.contains("no graphical display"),
        "{}",
        toast.text
    );
    assert!(toast.text.contains("copied"), "{}", toast.text);
    // An error stays through keys until dismissed; esc dismisses it without going back.
    update(&mut model, char_key('j'));
    assert!(model.toast.is_some());
    update(&mut model, key(KeyCode::Esc));
    assert!(model.toast.is_none());
}

#[test]
fn a_message_stays_through_a_quick_key() {
    let mut model = loaded_organizations(2, None);
    update(&mut model, char_key('y'));
    update(&mut model, char_key('j'));
    assert!(
        model
            .toast
            .as_ref()
            .is_some_and(|toast| toast.text.contains("Copied")),
        "a message is not wiped by the next key within 4 s"
    );
    model.toast = model
        .toast
        .take()
        .map(|toast| toast.aged(std::time::Duration::from_secs(5)));
    update(&mut model, char_key('j'));
    assert!(
        model.toast.is_none(),
        "an old message goes with the next key"
    );
}

/// Opens the first organization's Members tab and answers its first page; returns the request
/// that was sent.
fn open_members_tab(model: &mut quire::app::Model) -> ApiCall {
    let (tree_request, _) = only_request(&open_first_organization(model));
    respond(
        model,
        tree_request,
        ApiResponse::OrganizationTree(Ok(tree())),
    );
    update(model, key(KeyCode::Tab));
    let (request, call) = only_request(&update(model, key(KeyCode::Tab)));
    respond(
        model,
        request,
        ApiResponse::Members(quire::vocabulary::members::MembersResponse::List(Ok(
            quire::api::ListPage::default(),
        ))),
    );
    call
}

fn members_filter(call: &ApiCall) -> quire::api::MemberFilter {
    match call {
        ApiCall::Members(quire::vocabulary::members::MembersCall::List {
            filter, page, ..
        }) => {
            assert_eq!(page, &None, "a changed filter starts from the first page");
            filter.clone()
        }
        other => panic!("expected a members request, got {other:?}"),
    }
}

#[test]
fn members_search_role_and_sort_go_to_the_server() {
    use quire::api::{MemberFilter, MemberRole, MemberRoleFilter, MemberSortKey, SortOrder};
    let mut model = loaded_organizations(1, None);
    let first = open_members_tab(&mut model);
    assert_eq!(members_filter(&first), MemberFilter::default());

    // `/` narrows while typing and sends nothing; enter sends `search`.
    update(&mut model, char_key('/'));
    for c in "ada".chars() {
        assert!(requests(&update(&mut model, char_key(c))).is_empty());
    }
    let (_, call) = only_request(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(members_filter(&call).search.as_deref(), Some("ada"));

    // `f` cycles the role filter, `s` the sort; each keeps the others.
    let (_, call) = only_request(&update(&mut model, char_key('f')));
    let filter = members_filter(&call);
    assert_eq!(filter.role, Some(MemberRoleFilter::Role(MemberRole::Admin)));
    assert_eq!(filter.search.as_deref(), Some("ada"));
    let (_, call) = only_request(&update(&mut model, char_key('s')));
    let filter = members_filter(&call);
    assert_eq!(
        (filter.sort, filter.order),
        (Some(MemberSortKey::JoinedAt), Some(SortOrder::Ascending))
    );
    assert_eq!(filter.role, Some(MemberRoleFilter::Role(MemberRole::Admin)));

    // esc clears the search and asks again without it.
    update(&mut model, char_key('/'));
    let (_, call) = only_request(&update(&mut model, key(KeyCode::Esc)));
    assert_eq!(members_filter(&call).search, None);
}

#[test]
fn a_tree_cut_short_or_with_unreadable_items_says_so() {
    let mut model = loaded_organizations(1, None);
    let (request, _) = only_request(&open_first_organization(&mut model));
    let cut_short = OrganizationTree {
        stopped_after_pages: Some(20),
        unreadable: vec![quire::api::UnreadableItem {
            path: "items[3].id".into(),
            message: "invalid type".into(),
        }],
        ..tree()
    };
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(cut_short)),
    );
    let Screen::Organization(screen) = model.top() else {
        panic!()
    };
    let note = screen.tree_note.clone().unwrap_or_default();
    assert!(note.contains("stopped after 20 pages"), "{note}");
    assert!(note.contains("could not read (items[3].id)"), "{note}");
    // Everything that was read is in the tree.
    assert_eq!(screen.visible_rows().len(), 3);
}

#[test]
fn a_refused_non_web_address_is_not_copied() {
    let mut model = loaded_organizations(2, None);
    let cmd = update(
        &mut model,
        Msg::BrowserFailed {
            url: "file:///etc/passwd".into(),
            reason: "not a web address: file".into(),
        },
    );
    assert_eq!(cmd, Cmd::None);
    assert!(model.toast.as_ref().is_some_and(|toast| toast.error));
}

#[test]
fn a_read_waiting_to_be_retried_is_in_the_footer_and_r_cuts_the_wait_short() {
    use quire::api::RetryNotice;
    use std::time::Duration;
    let mut model = organizations_model(80, 24);
    let _ = model.init();
    let endpoint = "GET /orgs".to_string();
    update(
        &mut model,
        Msg::Retry(RetryNotice::Waiting {
            endpoint: endpoint.clone(),
            delay: Duration::from_secs(2),
        }),
    );
    let footer = footer_text(&model);
    assert!(footer.contains("retrying in 2 s…"), "{footer}");
    assert!(
        footer.contains("retry now"),
        "r is labelled for the wait: {footer}"
    );
    // `r` does not send the read again (it is still under way): it ends the wait.
    assert_eq!(update(&mut model, char_key('r')), Cmd::RetryNow);
    update(&mut model, Msg::Retry(RetryNotice::Resumed { endpoint }));
    assert!(!footer_text(&model).contains("retrying"));
    // With nothing waiting, `r` refreshes the screen as before.
    assert!(!requests(&update(&mut model, char_key('r'))).is_empty());
}

/// A read no screen tracks (the header's `GET /user`) may still wait to be retried after the
/// screen's own load has failed: `r` then reloads the screen as well as ending that wait.
#[test]
fn r_reloads_a_failed_screen_even_while_another_read_waits_to_be_retried() {
    use quire::api::RetryNotice;
    use std::time::Duration;
    let mut model = organizations_model(80, 24);
    let (request, _) = only_request(&model.init());
    update(
        &mut model,
        Msg::Retry(RetryNotice::Waiting {
            endpoint: "GET /user".to_string(),
            delay: Duration::from_secs(2),
        }),
    );
    let error = ApiError::Status {
        endpoint: "GET /orgs".into(),
        status: 503,
        code: Some(503),
        message: "Service Unavailable".into(),
    };
    respond(&mut model, request, ApiResponse::Organizations(Err(error)));
    let cmd = update(&mut model, char_key('r'));
    let Cmd::Batch(parts) = &cmd else {
        panic!("r both ends the wait and reloads: {cmd:?}")
    };
    assert!(parts.contains(&Cmd::RetryNow), "{cmd:?}");
    assert_eq!(
        requests(&cmd)
            .into_iter()
            .map(|(_, call)| call)
            .collect::<Vec<_>>(),
        vec![ApiCall::ListOrganizations { page: None }],
        "the organizations are asked for again"
    );
}

fn footer_text(model: &quire::app::Model) -> String {
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).expect("terminal");
    let _ = terminal.draw(|frame| quire::app::view::chrome::draw(frame, model));
    terminal.backend().to_string()
}
