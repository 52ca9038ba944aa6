//! The big demo's 10,000-page tree through `update`, loaded from the real sandbox: moving,
//! opening, closing and filtering keep the shown rows equal to a computation from scratch,
//! and a key costs what it changes (TreeRows' work count), not the size of the tree.

use std::collections::HashSet;

use crate::common::{char_key, environment, key, sandbox_effects};
use quire::app::{Model, Msg, Size, update};
use quire::headless;
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::space::{PageNode, SpaceScreen};
use quire::ui::tree::{Tree, TreeRows, VisibleRow};
use ratatui::crossterm::event::KeyCode;

struct Loaded {
    model: Model,
    effects: Effects,
    _sandbox: Sandbox,
}

/// The big space at 40x12: too narrow for the preview, so only the tree is at work.
async fn big_space() -> Loaded {
    let options = SandboxOptions {
        big: true,
        ..SandboxOptions::default()
    };
    let (sandbox, effects) = sandbox_effects(options, tokens::ADMIN).await;
    let client = effects.client.as_ref().expect("client");
    let space = client.get_space(demo_ids::SPACE_BIG).await.unwrap();
    let mut model = Model::new(
        Screen::Space(SpaceScreen::new(space, "Big Co".into())),
        environment(),
        Size::default(),
    );
    let resize = Msg::Resize {
        width: 40,
        height: 12,
    };
    headless::settle(&mut model, &effects, resize).await;
    headless::start(&mut model, &effects).await;
    Loaded {
        model,
        effects,
        _sandbox: sandbox,
    }
}

fn screen(model: &Model) -> &SpaceScreen {
    match model.top() {
        Screen::Space(screen) => screen,
        _ => panic!("not on the space screen"),
    }
}

fn tree(model: &Model) -> &Tree<PageNode> {
    screen(model).pages.value().expect("pages loaded")
}

/// The rows as computed from scratch for the screen's open nodes and filter.
fn from_scratch(model: &Model) -> Vec<VisibleRow> {
    let screen = screen(model);
    let tree = tree(model);
    let open: HashSet<usize> = (0..tree.len())
        .filter(|node| screen.rows.is_open(*node))
        .collect();
    let query = screen.filter.text.to_lowercase();
    let matches = |page: &PageNode| page.title.to_lowercase().contains(&query);
    if query.is_empty() {
        tree.visible_rows(&open, None)
    } else {
        tree.visible_rows(&open, Some(&matches))
    }
}

fn assert_rows_are_right(model: &Model) {
    assert!(
        screen(model).visible_rows() == from_scratch(model).as_slice(),
        "the kept rows differ from a computation from scratch"
    );
}

fn work(model: &Model) -> usize {
    screen(model).rows.work()
}

fn selected_title(model: &Model) -> String {
    screen(model).selected_page().unwrap().title.clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn moving_through_the_fully_expanded_tree_touches_no_row() {
    let Loaded { mut model, .. } = big_space().await;
    assert_rows_are_right(&model);
    update(&mut model, char_key('E'));
    assert_eq!(
        screen(&model).visible_rows().len(),
        demo_ids::BIG_PAGE_COUNT
    );
    assert_rows_are_right(&model);

    let before = work(&model);
    for _ in 0..200 {
        update(&mut model, char_key('j'));
    }
    for _ in 0..50 {
        update(&mut model, key(KeyCode::PageDown));
    }
    update(&mut model, char_key('G'));
    assert_eq!(selected_title(&model), "Glossary of pipelines");
    update(&mut model, char_key('g'));
    update(&mut model, key(KeyCode::PageDown));
    update(&mut model, char_key('k'));
    assert_eq!(work(&model), before, "moving the selection touches no row");
    assert_rows_are_right(&model);
}

#[tokio::test(flavor = "multi_thread")]
async fn opening_and_closing_a_branch_costs_its_rows() {
    let Loaded { mut model, .. } = big_space().await;
    // Top groups open, their sections closed: Platform, then its first section.
    update(&mut model, char_key('g'));
    update(&mut model, char_key('j'));
    assert_eq!(selected_title(&model), "Everything, at length");
    let shown = screen(&model).visible_rows().len();

    let before = work(&model);
    update(&mut model, char_key('l'));
    // The section's 10 topics appear; nothing else is looked at.
    assert_eq!(screen(&model).visible_rows().len(), shown + 10);
    assert_eq!(work(&model) - before, 10);
    assert_rows_are_right(&model);

    // Its first topic opened too, then the section closed: 20 rows go at once.
    update(&mut model, char_key('j'));
    update(&mut model, char_key('l'));
    assert_eq!(screen(&model).visible_rows().len(), shown + 20);
    assert_rows_are_right(&model);
    update(&mut model, char_key('k'));
    let before = work(&model);
    update(&mut model, char_key('h'));
    assert_eq!(screen(&model).visible_rows().len(), shown);
    assert_eq!(work(&model) - before, 20);
    assert_rows_are_right(&model);
    // Opened again, the topic left open shows its articles as before.
    update(&mut model, char_key('l'));
    assert_eq!(screen(&model).visible_rows().len(), shown + 20);
    assert_rows_are_right(&model);
    // h on an article goes to its topic.
    update(&mut model, char_key('j'));
    update(&mut model, char_key('j'));
    update(&mut model, char_key('h'));
    assert_eq!(selected_title(&model), "Configuring accounts");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_filter_narrows_as_it_is_typed_and_backspace_recomputes_nothing() {
    let Loaded { mut model, .. } = big_space().await;
    update(&mut model, char_key('/'));
    let query = "webhooks";
    let mut typed = String::new();
    for c in query.chars() {
        typed.push(c);
        let before = work(&model);
        update(&mut model, char_key(c));
        assert_rows_are_right(&model);
        let cost = work(&model) - before;
        let mut fresh = TreeRows::new(tree(&model), |_| false);
        let fresh_before = fresh.work();
        fresh.set_filter(tree(&model), &typed);
        let from_scratch = fresh.work() - fresh_before;
        if typed.len() > 1 {
            assert!(
                cost < from_scratch,
                "{typed:?}: {cost} is not less than from scratch ({from_scratch})"
            );
        }
    }
    // The first page that matches itself is selected, not the group shown for context.
    assert_eq!(selected_title(&model), "Migrating webhooks");

    let before = work(&model);
    for _ in 0..query.len() {
        update(&mut model, key(KeyCode::Backspace));
        assert_rows_are_right(&model);
    }
    assert_eq!(
        work(&model),
        before,
        "backspace reuses the results of typing"
    );
    assert!(screen(&model).filter.text.is_empty());
    assert_eq!(screen(&model).visible_rows().len(), 100);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reload_keeps_the_open_branches_and_the_filter() {
    let Loaded {
        mut model, effects, ..
    } = big_space().await;
    update(&mut model, char_key('j'));
    update(&mut model, char_key('l'));
    let open = screen(&model).visible_rows().to_vec();
    headless::settle(&mut model, &effects, char_key('r')).await;
    assert_eq!(screen(&model).visible_rows(), open.as_slice());
    assert_rows_are_right(&model);

    headless::type_keys(&mut model, &effects, "/faq about quotas\r").await;
    let filtered = screen(&model).visible_rows().to_vec();
    assert!(!filtered.is_empty());
    headless::settle(&mut model, &effects, char_key('r')).await;
    assert_eq!(screen(&model).visible_rows(), filtered.as_slice());
    assert_rows_are_right(&model);
    headless::settle(&mut model, &effects, key(KeyCode::Esc)).await;
    assert_eq!(screen(&model).visible_rows(), open.as_slice());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pasted_filter_shows_its_rows_at_once() {
    let Loaded { mut model, .. } = big_space().await;
    update(&mut model, char_key('/'));
    update(&mut model, Msg::Paste("FAQ about quotas".into()));
    assert_rows_are_right(&model);
    // 90 articles of that title, their topics, sections and groups.
    assert_eq!(screen(&model).visible_rows().len(), 280);
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, key(KeyCode::Esc));
    assert_rows_are_right(&model);
    assert_eq!(screen(&model).visible_rows().len(), 100);
}

/// The organization's collections-and-spaces tree shares the kept rows: a reload keeps what
/// was open, a pasted filter shows its rows, esc shows the open set again.
#[test]
fn the_organization_tree_keeps_its_rows_through_reload_and_filter() {
    use crate::common::{loaded_organizations, only_request, open_first_organization, respond};
    use quire::app::ApiResponse;

    fn titles(model: &Model) -> Vec<String> {
        let Screen::Organization(screen) = model.top() else {
            panic!("not on the organization")
        };
        let tree = screen.tree.value().unwrap();
        let rows: &[VisibleRow] = screen.visible_rows();
        rows.iter()
            .map(|row| tree.item(row.node).unwrap().title().to_string())
            .collect()
    }

    let mut model = loaded_organizations(1, None);
    let (request, _) = only_request(&open_first_organization(&mut model));
    let tree = ApiResponse::OrganizationTree(Ok(crate::common::tree()));
    respond(&mut model, request, tree.clone());
    update(&mut model, char_key('j'));
    update(&mut model, char_key('l'));
    let open = ["Guides", "Internal", "Handbook", "API Reference"];
    assert_eq!(titles(&model), open);

    // On a collection, `r` reads it again beside the tree: the tree's answer is the one here.
    let reload = update(&mut model, char_key('r'));
    let (request, _) = crate::common::requests(&reload)
        .into_iter()
        .find(|(_, call)| matches!(call, quire::app::ApiCall::OrganizationTree { .. }))
        .expect("the tree is read again");
    respond(&mut model, request, tree);
    assert_eq!(titles(&model), open, "a reload keeps Internal open");

    update(&mut model, char_key('/'));
    update(&mut model, Msg::Paste("api".into()));
    assert_eq!(titles(&model), ["API Reference"]);
    update(&mut model, key(KeyCode::Esc));
    assert_eq!(titles(&model), open);
}

/// The tree the space screen reads straight from the answer (no typed pages in between) is
/// the one built from the same answer decoded into typed pages, node for node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tree_read_from_the_answer_equals_the_one_built_from_typed_pages() {
    let loaded = big_space().await;
    let client = loaded.effects.client.as_ref().expect("client");
    let typed = client.list_pages(demo_ids::SPACE_BIG).await.unwrap();
    let expected = quire::screens::space::build_page_tree(&typed);
    let shown = tree(&loaded.model);
    assert_eq!(shown.len(), demo_ids::BIG_PAGE_COUNT);
    assert!(*shown == expected, "the two trees differ");
}
