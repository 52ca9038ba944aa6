//! Moving around: the command palette (`:` / `ctrl-k`), the grouped and searchable
//! `?` help, and the mouse mapped onto the keys' actions — `update` on models reached with the
//! keys a user types in the demo sandbox.

use std::time::{Duration, Instant};

use crate::common::views::{demo_scene, draw};
use crate::common::{char_key, ctrl, key};
use quire::app::palette::{EntryKind, History, history_file, save_history};
use quire::app::{Cmd, Model, Msg, Overlay, update};
use quire::sandbox::tokens;
use quire::screens::Screen;
use quire::screens::organization::Tab;
use ratatui::crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

fn type_text(model: &mut Model, text: &str) -> Vec<Cmd> {
    text.chars().map(|c| update(model, char_key(c))).collect()
}

fn palette_labels(model: &Model) -> Vec<String> {
    let palette = model.palette.as_ref().expect("the palette is open");
    palette
        .shown
        .iter()
        .map(|shown| palette.entries[shown.entry].label.clone())
        .collect()
}

/// The organization screen with its change-request inbox loaded, back on the Spaces tab.
async fn organization_with_inbox() -> Model {
    demo_scene(tokens::ADMIN, "\r\t[").await
}

#[tokio::test]
async fn the_palette_narrows_ranks_and_marks_the_matched_characters() {
    let mut model = demo_scene(tokens::ADMIN, "").await;
    update(&mut model, char_key(':'));
    assert!(model.palette.is_some(), ": opens the palette");
    let everything = palette_labels(&model).len();
    type_text(&mut model, "acme");
    let labels = palette_labels(&model);
    assert!(labels.len() < everything, "{labels:?}");
    assert_eq!(labels[0], "Acme Robotics");
    let palette = model.palette.as_ref().unwrap();
    assert_eq!(palette.shown[0].matched, vec![0, 1, 2, 3]);
    update(&mut model, key(KeyCode::Esc));
    assert!(model.palette.is_none(), "esc closes");
    update(&mut model, ctrl('k'));
    assert!(model.palette.is_some(), "ctrl-k opens it too");
}

#[tokio::test]
async fn choosing_an_action_does_what_its_key_does() {
    let mut model = demo_scene(tokens::ADMIN, "").await;
    update(&mut model, char_key(':'));
    type_text(&mut model, "help");
    let chosen = model.palette.as_ref().unwrap().chosen().unwrap().clone();
    assert!(matches!(chosen.kind, EntryKind::Action(_)), "{chosen:?}");
    assert_eq!(chosen.detail, "?", "the key is shown beside the action");
    update(&mut model, key(KeyCode::Enter));
    assert!(model.palette.is_none());
    assert!(matches!(model.overlay, Some(Overlay::Help { .. })));

    update(&mut model, key(KeyCode::Esc));
    update(&mut model, char_key(':'));
    // `q` is an alias of quit: typed in full it comes first.
    type_text(&mut model, "q");
    assert_eq!(palette_labels(&model)[0], "Quit");
    assert_eq!(update(&mut model, key(KeyCode::Enter)), Cmd::Quit);
    assert!(model.quit);
}

#[tokio::test]
async fn arrows_and_ctrl_n_p_choose() {
    let mut model = demo_scene(tokens::ADMIN, "").await;
    update(&mut model, char_key(':'));
    let selected = |model: &Model| model.palette.as_ref().unwrap().selection.selected;
    update(&mut model, key(KeyCode::Down));
    update(&mut model, ctrl('n'));
    assert_eq!(selected(&model), 2);
    update(&mut model, ctrl('p'));
    update(&mut model, key(KeyCode::Up));
    update(&mut model, key(KeyCode::Up));
    assert_eq!(selected(&model), 0);
}

#[tokio::test]
async fn choosing_a_change_request_opens_its_review_above_its_organization() {
    let mut model = organization_with_inbox().await;
    // From inside a space: the change request was listed by the organization, so the space
    // gives way and `esc` from the review goes back to the organization.
    type_text(&mut model, "/getting");
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, key(KeyCode::Enter));
    assert!(matches!(model.top(), Screen::Space(_)));
    update(&mut model, char_key(':'));
    type_text(&mut model, "token scopes");
    assert_eq!(
        palette_labels(&model)[0],
        "#1 Clarify token scopes in Quickstart"
    );
    let cmd = update(&mut model, key(KeyCode::Enter));
    let Screen::Review(review) = model.top() else {
        panic!("the review opens: {:?}", model.breadcrumb())
    };
    assert_eq!(
        review.summary.as_ref().map(|cr| cr.subject.as_str()),
        Some("Clarify token scopes in Quickstart")
    );
    assert!(!cmd.api_calls().is_empty(), "the review loads");
    assert_eq!(model.screens.len(), 3, "{:?}", model.breadcrumb());
    update(&mut model, key(KeyCode::Esc));
    assert!(matches!(model.top(), Screen::Organization(_)));
}

#[tokio::test]
async fn a_space_and_a_page_open_the_way_a_user_reaches_them() {
    let mut model = demo_scene(tokens::ADMIN, "\r").await;
    update(&mut model, char_key(':'));
    type_text(&mut model, "getting started");
    let chosen = model.palette.as_ref().unwrap().chosen().unwrap().clone();
    assert_eq!(chosen.label, "Getting Started");
    update(&mut model, key(KeyCode::Enter));
    assert!(matches!(model.top(), Screen::Space(_)));
    assert_eq!(model.screens.len(), 3);
}

#[tokio::test]
async fn a_collection_is_shown_selected_in_the_spaces_tab() {
    let mut model = demo_scene(tokens::ADMIN, "\r]").await;
    update(&mut model, char_key(':'));
    type_text(&mut model, "platform");
    let chosen = model.palette.as_ref().unwrap().chosen().unwrap().clone();
    assert_eq!(chosen.detail, "collection · Acme Robotics");
    update(&mut model, key(KeyCode::Enter));
    let Screen::Organization(organization) = model.top() else {
        panic!("still the organization")
    };
    assert_eq!(organization.tab, Tab::Spaces);
    let selected = organization.selected_node().map(|node| match node {
        quire::screens::organization::OrgNode::Collection(c) => c.title.clone(),
        quire::screens::organization::OrgNode::Space(s) => s.title.clone(),
    });
    assert_eq!(selected.as_deref(), Some("Platform"));
}

#[tokio::test]
async fn a_search_is_offered_when_nothing_loaded_matches() {
    let mut model = demo_scene(tokens::ADMIN, "\r").await;
    update(&mut model, char_key(':'));
    type_text(&mut model, "qz");
    assert!(
        !palette_labels(&model)
            .iter()
            .any(|label| label.starts_with("Search pages")),
        "not for two characters"
    );
    type_text(&mut model, "x");
    let labels = palette_labels(&model);
    assert_eq!(
        labels.last().unwrap(),
        "Search pages for 'qzx'",
        "{labels:?}"
    );
    // Choose it (the last row).
    for _ in 1..labels.len() {
        update(&mut model, key(KeyCode::Down));
    }
    let cmd = update(&mut model, key(KeyCode::Enter));
    let Screen::Search(search) = model.top() else {
        panic!("the search opens")
    };
    assert_eq!(search.query(), "qzx");
    assert_eq!(cmd.api_calls().len(), 1, "the search is sent at once");
}

#[tokio::test]
async fn history_is_saved_and_ranks_up_after_a_restart() {
    let state = tempfile::tempdir().unwrap();
    let file = history_file(state.path());
    let mut model = demo_scene(tokens::ADMIN, "").await;
    model.palette_history = History::load(file.clone());
    update(&mut model, char_key(':'));
    type_text(&mut model, "e");
    let labels = palette_labels(&model);
    assert!(labels.len() > 2, "{labels:?}");
    let second = labels[1].clone();
    let third = labels[2].clone();
    update(&mut model, key(KeyCode::Down));
    update(&mut model, key(KeyCode::Down));
    let cmd = update(&mut model, key(KeyCode::Enter));
    let Some(Cmd::SavePaletteHistory { path, entries }) = flatten(cmd)
        .into_iter()
        .find(|cmd| matches!(cmd, Cmd::SavePaletteHistory { .. }))
    else {
        panic!("the history is written")
    };
    assert_eq!(path, file);
    // What the runtime does with the command.
    save_history(&path, &entries).unwrap();

    // A new run reads it back: the entry chosen is first of all for an empty query, and ranks
    // up for the same query (above the one that was ahead of it).
    let mut model = demo_scene(tokens::ADMIN, "").await;
    model.palette_history = History::load(file.clone());
    update(&mut model, char_key(':'));
    assert_eq!(palette_labels(&model)[0], third);
    type_text(&mut model, "e");
    let labels = palette_labels(&model);
    let position = |label: &str| labels.iter().position(|l| l == label).unwrap();
    assert!(position(&third) < position(&second), "{labels:?}");
}

fn flatten(cmd: Cmd) -> Vec<Cmd> {
    match cmd {
        Cmd::Batch(commands) => commands.into_iter().flat_map(flatten).collect(),
        other => vec![other],
    }
}

#[tokio::test]
async fn server_text_in_the_palette_is_sanitized() {
    // The Changelog space holds the demo's page with a hostile title.
    let mut model = demo_scene(tokens::ADMIN, "\r/changelog\r\r").await;
    assert!(matches!(model.top(), Screen::Space(_)));
    update(&mut model, char_key(':'));
    let palette = model.palette.as_ref().unwrap();
    assert!(
        palette
            .entries
            .iter()
            .any(|entry| entry.detail.starts_with("page")),
        "the space's pages are offered"
    );
    let hostile = palette
        .entries
        .iter()
        .find(|entry| entry.id == "page:pg-cl-hostile")
        .expect("the hostile page is offered");
    assert!(
        hostile.label.starts_with("Release notes"),
        "{}",
        hostile.label
    );
    assert!(!hostile.label.contains(['\u{1b}', '\u{7}', '\u{202e}']));
    for entry in &palette.entries {
        assert!(
            !entry.label.chars().any(|c| c.is_control()),
            "{:?}",
            entry.label
        );
    }
}

fn help_titles(model: &Model) -> Vec<&'static str> {
    quire::app::view::chrome::help_sections(model, "")
        .into_iter()
        .map(|(title, _)| title)
        .collect()
}

#[tokio::test]
async fn help_is_grouped_with_this_screen_first_and_movement_last() {
    let model = demo_scene(tokens::ADMIN, "\r").await;
    let titles = help_titles(&model);
    assert_eq!(titles.first(), Some(&"This screen"), "{titles:?}");
    assert_eq!(titles.last(), Some(&"Movement"), "{titles:?}");
    assert!(titles.contains(&"Everywhere"), "{titles:?}");
    let sections = quire::app::view::chrome::help_sections(&model, "");
    let all: Vec<&str> = sections
        .iter()
        .flat_map(|(_, rows)| rows.iter().map(|(_, help)| *help))
        .collect();
    let mut unique = all.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(all.len(), unique.len(), "each action once: {all:?}");
}

#[tokio::test]
async fn help_search_narrows_and_esc_clears_then_closes() {
    let mut model = demo_scene(tokens::ADMIN, "\r").await;
    update(&mut model, char_key('?'));
    update(&mut model, char_key('/'));
    type_text(&mut model, "palette");
    let Some(Overlay::Help { filter, .. }) = &model.overlay else {
        panic!("help is open")
    };
    let sections = quire::app::view::chrome::help_sections(&model, &filter.text);
    let rows: Vec<_> = sections.iter().flat_map(|(_, rows)| rows.clone()).collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].0, ": ctrl-k");
    update(&mut model, key(KeyCode::Enter));
    // The query stays in force; j scrolls (nothing to scroll), esc clears, esc closes.
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Esc));
    let Some(Overlay::Help { filter, .. }) = &model.overlay else {
        panic!("the first esc only clears the query")
    };
    assert!(filter.text.is_empty());
    update(&mut model, key(KeyCode::Esc));
    assert!(model.overlay.is_none());
}

fn mouse(kind: MouseEventKind, column: u16, row: u16, at: Instant) -> Msg {
    Msg::Mouse {
        event: MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        },
        at,
    }
}

fn click(column: u16, row: u16, at: Instant) -> Msg {
    mouse(MouseEventKind::Down(MouseButton::Left), column, row, at)
}

/// Draws the model as the runtime does, keeping the frame's clickable areas.
fn frame(model: &mut Model) -> String {
    draw(model, 80, 24).to_string()
}

/// The screen row (0-based) whose text contains `needle`.
fn row_of(screen: &str, needle: &str) -> u16 {
    screen
        .lines()
        .position(|line| line.contains(needle))
        .unwrap_or_else(|| panic!("{needle} on screen:\n{screen}")) as u16
}

#[tokio::test]
async fn a_click_selects_a_row_and_a_double_click_opens_it() {
    let mut model = demo_scene(tokens::ADMIN, "").await;
    let screen = frame(&mut model);
    let row = row_of(&screen, "Lumen OSS");
    let now = Instant::now();
    update(&mut model, click(5, row, now));
    let Screen::Organizations(list) = model.top() else {
        panic!()
    };
    assert_eq!(list.selected().map(|o| o.title.as_str()), Some("Lumen OSS"));
    frame(&mut model);
    // Slow second click: still only selects.
    update(&mut model, click(5, row, now + Duration::from_secs(2)));
    assert!(matches!(model.top(), Screen::Organizations(_)));
    frame(&mut model);
    let cmd = update(&mut model, click(5, row, now + Duration::from_millis(2200)));
    assert!(
        matches!(model.top(), Screen::Organization(_)),
        "double-click opens"
    );
    assert!(!cmd.api_calls().is_empty());
}

#[tokio::test]
async fn clicks_on_the_header_footer_or_nothing_do_nothing() {
    let mut model = demo_scene(tokens::ADMIN, "").await;
    frame(&mut model);
    let before = model.breadcrumb();
    let now = Instant::now();
    for (column, row) in [(5, 0), (5, 23), (79, 20), (0, 0)] {
        assert_eq!(update(&mut model, click(column, row, now)), Cmd::None);
    }
    assert_eq!(model.breadcrumb(), before);
}

#[tokio::test]
async fn a_click_on_a_tab_switches_to_it() {
    let mut model = demo_scene(tokens::ADMIN, "\r").await;
    let screen = frame(&mut model);
    let row = row_of(&screen, "Members");
    let column = screen
        .lines()
        .nth(row as usize)
        .unwrap()
        .find("Members")
        .unwrap() as u16;
    update(&mut model, click(column + 1, row, Instant::now()));
    let Screen::Organization(organization) = model.top() else {
        panic!()
    };
    assert_eq!(organization.tab, Tab::Members);
}

#[tokio::test]
async fn the_wheel_moves_three_rows_like_three_j() {
    let mut model = demo_scene(tokens::ADMIN, "\r").await;
    frame(&mut model);
    update(
        &mut model,
        mouse(MouseEventKind::ScrollDown, 10, 8, Instant::now()),
    );
    let Screen::Organization(organization) = model.top() else {
        panic!()
    };
    assert_eq!(organization.tree_selection.selected, 3);
    update(
        &mut model,
        mouse(MouseEventKind::ScrollUp, 10, 8, Instant::now()),
    );
    let Screen::Organization(organization) = model.top() else {
        panic!()
    };
    assert_eq!(organization.tree_selection.selected, 0);
}

#[tokio::test]
async fn in_a_space_the_wheel_over_the_preview_scrolls_it_not_the_tree() {
    // A live sandbox: the first notch focuses the preview, whose page is then parsed whole.
    let sandbox = quire::sandbox::Sandbox::start(
        std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        quire::sandbox::SandboxOptions::default(),
    )
    .await
    .unwrap();
    let client = quire::api::Client::new(quire::api::ClientConfig::new(
        sandbox.base_url(),
        quire::api::Token::new(tokens::ADMIN),
    ))
    .unwrap();
    let effects = quire::runtime::Effects {
        client: Some(client),
        drafts: None,
        theme: quire::ui::theme::Theme::default(),
        render: Default::default(),
    };
    let mut model = crate::common::organizations_model(80, 24);
    quire::headless::start(&mut model, &effects).await;
    // The Quickstart selected: a page longer than the preview.
    quire::headless::type_keys(&mut model, &effects, "\rjjjj\rjj").await;
    let space = |model: &Model| match model.top() {
        Screen::Space(space) => (
            space.selection.selected,
            space.reader.scroll,
            space.preview_focused,
        ),
        _ => panic!("in a space: {:?}", model.breadcrumb()),
    };
    assert_eq!(space(&model), (3, 0, false));
    frame(&mut model);
    let notch = |kind| mouse(kind, 60, 12, Instant::now());
    quire::headless::settle(&mut model, &effects, notch(MouseEventKind::ScrollDown)).await;
    let (selected, scroll, focused) = space(&model);
    assert_eq!(selected, 3, "the tree's selection stays");
    assert!(focused, "the preview takes the focus");
    assert_eq!(scroll, 3, "three lines a notch");
    frame(&mut model);
    quire::headless::settle(&mut model, &effects, notch(MouseEventKind::ScrollUp)).await;
    assert_eq!(space(&model).1, 0);
    // With the focus back on the tree, the wheel over it moves the selection.
    update(&mut model, key(KeyCode::Esc));
    frame(&mut model);
    update(
        &mut model,
        mouse(MouseEventKind::ScrollDown, 5, 8, Instant::now()),
    );
    assert_eq!(space(&model), (6, 0, false));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn the_palette_takes_the_mouse_first() {
    let mut model = demo_scene(tokens::ADMIN, "").await;
    update(&mut model, char_key(':'));
    let screen = frame(&mut model);
    let row = row_of(&screen, "Organizations");
    update(&mut model, click(5, row, Instant::now()));
    assert!(model.palette.is_some());
    update(
        &mut model,
        mouse(MouseEventKind::ScrollDown, 5, 10, Instant::now()),
    );
    assert_eq!(model.palette.as_ref().unwrap().selection.selected, 1);
}

#[tokio::test]
async fn tiny_terminals_draw_the_palette_help_and_take_clicks_without_panic() {
    let mut model = demo_scene(tokens::ADMIN, "\r").await;
    for (width, height) in [(1, 1), (20, 5), (2, 3), (40, 12)] {
        update(&mut model, char_key(':'));
        type_text(&mut model, "sp");
        draw(&mut model, width, height);
        update(&mut model, key(KeyCode::Esc));
        update(&mut model, char_key('?'));
        update(&mut model, char_key('/'));
        type_text(&mut model, "e");
        draw(&mut model, width, height);
        update(&mut model, key(KeyCode::Esc));
        update(&mut model, key(KeyCode::Esc));
        draw(&mut model, width, height);
        for row in 0..height {
            update(&mut model, click(0, row, Instant::now()));
            update(
                &mut model,
                mouse(MouseEventKind::ScrollDown, 0, row, Instant::now()),
            );
        }
        while model.screens.len() > 2 {
            update(&mut model, key(KeyCode::Esc));
        }
    }
}

#[tokio::test]
async fn a_page_of_an_opened_space_opens_in_the_reader_above_its_space() {
    let mut model = demo_scene(tokens::ADMIN, "\r/getting\r\r").await;
    assert!(matches!(model.top(), Screen::Space(_)));
    update(&mut model, char_key(':'));
    type_text(&mut model, "quickstart");
    let chosen = model.palette.as_ref().unwrap().chosen().unwrap().clone();
    assert_eq!(chosen.label, "Quickstart");
    assert!(chosen.detail.starts_with("page"), "{}", chosen.detail);
    update(&mut model, key(KeyCode::Enter));
    assert!(matches!(model.top(), Screen::Page(_)));
    update(&mut model, key(KeyCode::Esc));
    assert!(matches!(model.top(), Screen::Space(_)));
}

#[tokio::test]
async fn a_click_behind_a_popup_of_the_screen_does_nothing() {
    // `d` asks before deleting the selected collection: the question takes the keys, and a
    // click on another row must not change what it is about.
    let mut model = demo_scene(tokens::ADMIN, "\rd").await;
    let screen = frame(&mut model);
    let Screen::Organization(organization) = model.top() else {
        panic!()
    };
    let before = organization.tree_selection.selected;
    let row = row_of(&screen, "Employee Handbook");
    assert_eq!(update(&mut model, click(3, row, Instant::now())), Cmd::None);
    update(
        &mut model,
        mouse(MouseEventKind::ScrollDown, 3, row, Instant::now()),
    );
    let Screen::Organization(organization) = model.top() else {
        panic!()
    };
    assert_eq!(organization.tree_selection.selected, before);
}

#[tokio::test]
async fn a_paste_goes_to_the_palette_query() {
    let mut model = demo_scene(tokens::ADMIN, "").await;
    update(&mut model, char_key(':'));
    update(&mut model, Msg::Paste("lumen\n".into()));
    let palette = model.palette.as_ref().unwrap();
    assert_eq!(palette.query(), "lumen");
    assert_eq!(palette_labels(&model)[0], "Lumen OSS");
}

#[tokio::test]
async fn in_a_review_the_wheel_scrolls_the_pane_under_the_pointer() {
    // `2`: the changes tab (a review opens on its overview).
    let mut model = demo_scene(tokens::ADMIN, "\r\t\r2").await;
    let review = |model: &Model| match model.top() {
        Screen::Review(review) => (review.page_selection.selected, review.diff_scroll),
        _ => panic!("on the review: {:?}", model.breadcrumb()),
    };
    assert_eq!(review(&model), (0, 0));
    frame(&mut model);
    // Over the diff: it scrolls (as ctrl-d does); the page chosen stays.
    update(
        &mut model,
        mouse(MouseEventKind::ScrollDown, 60, 12, Instant::now()),
    );
    let (page, scroll) = review(&model);
    assert_eq!(page, 0);
    assert!(scroll > 0, "the diff scrolled");
    // Over the list of pages: three pages down, as three `j`.
    frame(&mut model);
    update(
        &mut model,
        mouse(MouseEventKind::ScrollDown, 3, 6, Instant::now()),
    );
    assert_eq!(review(&model).0, 3);
}

#[tokio::test]
async fn a_place_already_open_is_gone_back_to_not_opened_again() {
    let mut model = demo_scene(tokens::ADMIN, "\r/getting\r\r").await;
    assert_eq!(model.screens.len(), 3);
    update(&mut model, char_key(':'));
    type_text(&mut model, "acme robotics");
    assert_eq!(palette_labels(&model)[0], "Acme Robotics");
    update(&mut model, key(KeyCode::Enter));
    assert_eq!(model.screens.len(), 2, "{:?}", model.breadcrumb());
    assert!(matches!(model.top(), Screen::Organization(_)));
    // Chosen again where it already is: nothing happens.
    update(&mut model, char_key(':'));
    type_text(&mut model, "acme robotics");
    let cmd = update(&mut model, key(KeyCode::Enter));
    assert!(cmd.api_calls().is_empty(), "no reload: {cmd:?}");
    assert_eq!(model.screens.len(), 2);
}

#[tokio::test]
async fn a_click_selects_a_row_of_a_table_in_a_tab() {
    let mut model = demo_scene(tokens::ADMIN, "\r\t\t").await;
    let screen = frame(&mut model);
    let row = row_of(&screen, "Wen Ivanova");
    update(&mut model, click(3, row, Instant::now()));
    let Screen::Organization(organization) = model.top() else {
        panic!()
    };
    assert_eq!(organization.tab, Tab::Members);
    let after = frame(&mut model);
    let selected_line = after.lines().nth(row as usize).unwrap();
    assert!(selected_line.contains("Wen Ivanova"), "{after}");
    let backend = draw(&mut model, 80, 24);
    let cell = &backend.buffer()[(3, row)];
    let theme = quire::ui::theme::Theme::default();
    assert_eq!(cell.bg, theme.style("selection").bg.unwrap_or_default());
}
