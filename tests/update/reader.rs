//! The reader's links, history and table of contents, and the space screen's pane focus and
//! zoom, driven with a user's keys against the demo sandbox over loopback.

use quire::app::{Cmd, Model, Msg, update, update_noting_change};
use quire::headless::{self, effects_with, local_sandbox};
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, SandboxOptions};
use quire::screens::Screen;
use quire::screens::page::PageScreen;
use quire::screens::space::SpaceScreen;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use crate::common::views::render;

/// Lumen OSS → Lumen Documentation, whose first page ("What is Lumen?") links to anchors, to
/// pages by path and by id, to another space and to the web.
const LUMEN_DOCS: &str = "j\r/Lumen Doc\r\r";

struct Scene {
    _sandbox: Sandbox,
    effects: Effects,
    model: Model,
}

impl Scene {
    async fn start(keys: &str) -> Scene {
        let (sandbox, client) = local_sandbox(SandboxOptions::default()).await.unwrap();
        let effects = effects_with(client);
        let mut model = crate::common::organizations_model(80, 24);
        headless::start(&mut model, &effects).await;
        headless::type_keys(&mut model, &effects, keys).await;
        Scene {
            _sandbox: sandbox,
            effects,
            model,
        }
    }

    async fn keys(&mut self, keys: &str) {
        headless::type_keys(&mut self.model, &self.effects, keys).await;
    }

    async fn press(&mut self, code: KeyCode, modifiers: KeyModifiers) {
        let key = Msg::Key(KeyEvent::new(code, modifiers));
        headless::settle(&mut self.model, &self.effects, key).await;
    }

    fn page(&self) -> &PageScreen {
        match self.model.top() {
            Screen::Page(page) => page,
            _ => panic!("the reader is not open"),
        }
    }

    fn space(&self) -> &SpaceScreen {
        match self.model.top() {
            Screen::Space(space) => space,
            _ => panic!("the space is not open"),
        }
    }

    fn focused(&self) -> Option<String> {
        let link = self.page().reader.focused_link()?;
        Some(link.destination.clone())
    }
}

/// The reader on "What is Lumen?".
async fn reading() -> Scene {
    let scene = Scene::start(&format!("{LUMEN_DOCS}\r")).await;
    assert_eq!(scene.page().page.title, "What is Lumen?");
    scene
}

#[tokio::test]
async fn tab_and_shift_tab_cycle_the_links_in_reading_order() {
    let mut scene = reading().await;
    assert_eq!(scene.focused(), None);
    scene.keys("\t").await;
    assert_eq!(scene.focused().as_deref(), Some("#thirty-second-tour"));
    scene.keys("\t\t").await;
    assert_eq!(scene.focused().as_deref(), Some("install.md"));
    scene.press(KeyCode::BackTab, KeyModifiers::SHIFT).await;
    assert_eq!(scene.focused().as_deref(), Some("#how-it-compares"));
    scene.keys("\t\t\t\t").await;
    assert_eq!(
        scene.focused().as_deref(),
        Some("https://github.com/lumen-oss/lumen")
    );
    // Past the last link the focus stays, and the status line says so.
    scene.keys("\t").await;
    assert_eq!(
        scene.focused().as_deref(),
        Some("https://github.com/lumen-oss/lumen")
    );
    assert_eq!(
        scene.page().link_status.as_deref(),
        Some("No more links this way.")
    );
    // From the top again, a link below the screen is scrolled to.
    scene.keys("G").await;
    scene.press(KeyCode::BackTab, KeyModifiers::SHIFT).await;
    scene.keys("g").await;
    assert_eq!(scene.page().reader.scroll, 0);
    scene.keys("G").await;
    let bottom = scene.page().reader.scroll;
    assert!(bottom > 0);
}

#[tokio::test]
async fn an_anchor_scrolls_to_its_heading_and_back_returns() {
    let mut scene = reading().await;
    scene.keys("\t\r").await;
    let heading_row = scene.page().reader.layout.as_ref().unwrap().heading_rows[1];
    assert_eq!(scene.page().reader.scroll, heading_row);
    scene.keys("H").await;
    assert_eq!(scene.page().reader.scroll, 0);
    assert_eq!(scene.page().page.title, "What is Lumen?");
}

#[tokio::test]
async fn a_relative_path_opens_the_page_and_back_restores_page_and_position() {
    let mut scene = reading().await;
    scene.keys("jj\t\t\t").await;
    assert_eq!(scene.focused().as_deref(), Some("install.md"));
    scene.keys("\r").await;
    assert_eq!(scene.page().page.title, "Install");
    assert_eq!(scene.page().reader.scroll, 0);
    assert!(scene.page().reader.is_ready());
    scene.press(KeyCode::Char('o'), KeyModifiers::CONTROL).await;
    assert_eq!(scene.page().page.title, "What is Lumen?");
    assert_eq!(scene.page().reader.scroll, 2, "the position it was left at");
    // Forward again, then back; a new link after going back drops what was ahead.
    scene.keys("L").await;
    assert_eq!(scene.page().page.title, "Install");
    scene.keys("H").await;
    assert_eq!(scene.page().history.forward.len(), 1);
    scene.keys("\t\t\t\t\r").await;
    assert_eq!(scene.page().page.title, "Configuration file");
    assert!(scene.page().history.forward.is_empty());
    scene.keys("L").await;
    assert_eq!(scene.page().page.title, "Configuration file");
    assert_eq!(
        scene.page().link_status.as_deref(),
        Some("Nothing ahead: follow a link first.")
    );
}

#[tokio::test]
async fn a_page_id_and_another_spaces_app_url_open_their_pages() {
    let mut scene = reading().await;
    scene.keys("\t\t\t\t\r").await;
    assert_eq!(scene.page().page.title, "Configuration file");
    scene.keys("H\t\t\t\t\t").await;
    assert!(scene.focused().unwrap().contains("spc-lumen-contributing"));
    scene.keys("\r").await;
    let page = scene.page();
    assert_eq!(page.page.title, "How to contribute");
    assert_eq!(page.space.id, "spc-lumen-contributing");
    assert_eq!(
        scene.model.breadcrumb().last().map(String::as_str),
        Some("Contributing Guide › How to contribute"),
        "the breadcrumb names the other space"
    );
    let ground_rules = page.reader.layout.as_ref().unwrap().heading_rows[1];
    assert_eq!(page.reader.scroll, ground_rules, "at #ground-rules");
    // A relative link there reads that space's pages.
    scene.keys("\t").await;
    assert_eq!(scene.focused().as_deref(), Some("code-of-conduct.md"));
    scene.keys("\r").await;
    assert_eq!(scene.page().page.title, "Code of conduct");
    scene.keys("HH").await;
    assert_eq!(scene.page().page.title, "What is Lumen?");
    assert_eq!(scene.page().space.id, "spc-lumen-docs");
}

#[tokio::test]
async fn an_outside_address_goes_to_the_browser() {
    let mut scene = reading().await;
    scene.keys("\t\t\t\t\t\t").await;
    let cmd = update(
        &mut scene.model,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    assert_eq!(
        cmd,
        Cmd::OpenInBrowser("https://github.com/lumen-oss/lumen".into())
    );
    assert_eq!(
        scene.page().link_status.as_deref(),
        Some("Opening https://github.com/lumen-oss/lumen in the browser")
    );
    assert_eq!(scene.page().page.title, "What is Lumen?");
}

#[tokio::test]
async fn opening_is_taken_down_when_the_browser_could_not_be_opened() {
    let mut scene = reading().await;
    scene.keys("\t\t\t\t\t\t").await;
    let url = "https://github.com/lumen-oss/lumen".to_string();
    let cmd = update(
        &mut scene.model,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    assert_eq!(cmd, Cmd::OpenInBrowser(url.clone()));
    update(
        &mut scene.model,
        Msg::BrowserFailed {
            url: url.clone(),
            reason: "no display".into(),
        },
    );
    assert_eq!(scene.page().link_status, None, "nothing is being opened");
    let footer = scene.model.toast.as_ref().expect("the footer says why");
    assert!(
        footer.text.contains("Could not open a browser"),
        "{footer:?}"
    );
    // `ctrl-g` shows it whole, address included, newest first.
    update(
        &mut scene.model,
        Msg::Key(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::CONTROL)),
    );
    assert!(matches!(
        scene.model.overlay,
        Some(quire::app::Overlay::Messages { .. })
    ));
    let newest = scene.model.messages.newest_first().next().unwrap();
    assert!(newest.text.ends_with(&url), "{newest:?}");
}

#[tokio::test]
async fn enter_without_a_chosen_link_says_how_to_choose_one() {
    let mut scene = reading().await;
    scene.keys("\r").await;
    assert_eq!(
        scene.page().link_status.as_deref(),
        Some("No link chosen: tab moves to the next one.")
    );
}

#[tokio::test]
async fn the_table_of_contents_opens_at_the_section_being_read() {
    let mut scene = reading().await;
    scene.keys("t").await;
    assert_eq!(scene.page().contents.as_ref().unwrap().selected, 0);
    scene.keys("\u{1b}G").await;
    scene.keys("t").await;
    let page = scene.page();
    let top = page.reader.scroll;
    let rows = &page.reader.layout.as_ref().unwrap().heading_rows;
    let at_top = rows.iter().rposition(|row| *row <= top).unwrap();
    assert!(at_top > 0);
    assert_eq!(page.contents.as_ref().unwrap().selected, at_top);
    // The section of the top line: just below the second heading, the second is selected.
    let second = scene.page().reader.layout.as_ref().unwrap().heading_rows[1];
    scene.keys("\u{1b}g").await;
    for _ in 0..second + 1 {
        scene.keys("j").await;
    }
    scene.keys("t").await;
    assert_eq!(scene.page().contents.as_ref().unwrap().selected, 1);
}

#[tokio::test]
async fn the_links_list_moved_to_l() {
    let mut scene = reading().await;
    scene.keys("l").await;
    assert!(matches!(scene.model.top(), Screen::Links(_)));
}

#[tokio::test]
async fn the_preview_takes_the_focus_scrolls_and_zooms() {
    let mut scene = Scene::start(LUMEN_DOCS).await;
    assert!(!scene.space().preview_focused);
    scene.keys("\t").await;
    assert!(scene.space().preview_focused);
    scene.keys("jjj").await;
    assert_eq!(scene.space().reader.scroll, 3);
    assert_eq!(scene.space().selection.selected, 1, "the tree did not move");
    scene.keys("z").await;
    assert!(scene.space().zoomed);
    let width = scene.space().reader.layout.as_ref().unwrap().width;
    assert_eq!(width, 80, "the zoomed preview is laid out at full width");
    scene.keys("z\u{1b}").await;
    assert!(!scene.space().preview_focused && !scene.space().zoomed);
    assert!(
        matches!(scene.model.top(), Screen::Space(_)),
        "esc did not leave"
    );
    scene.keys("j").await;
    assert_eq!(scene.space().selection.selected, 2, "the tree moves again");
}

#[tokio::test]
async fn a_link_to_no_page_says_so_plainly() {
    // Getting Started → Installation, whose "High availability" link names a file that is not
    // a page.
    let mut scene = Scene::start("\r/Getting\r\r").await;
    scene.keys("/Install\r\r").await;
    assert_eq!(scene.page().page.title, "Installation");
    while scene.focused().as_deref() != Some("architecture.md#high-availability") {
        scene.keys("\t").await;
        assert!(scene.page().link_status.is_none(), "ran out of links");
    }
    scene.keys("\r").await;
    assert_eq!(
        scene.page().link_status.as_deref(),
        Some("No page architecture.md#high-availability in Getting Started.")
    );
    assert_eq!(scene.page().page.title, "Installation");
}

#[tokio::test]
async fn a_link_to_a_child_page_opens_it_as_the_web_app_would() {
    // Installation has its platforms as children, and links them by their own files.
    let mut scene = Scene::start("\r/Getting\r\r").await;
    scene.keys("/Install\r\r").await;
    assert_eq!(scene.page().page.title, "Installation");
    while scene.focused().as_deref() != Some("linux.md") {
        scene.keys("\t").await;
        assert!(scene.page().link_status.is_none(), "ran out of links");
    }
    scene.keys("\r").await;
    assert_eq!(
        scene.page().page.title,
        "Linux",
        "{:?}",
        scene.page().link_status
    );
}

/// A key that moves the tree on before the preview's timer goes off leaves that timer stale:
/// it changes nothing, so the loop is told no frame is needed. Resting on a page previews it,
/// and a resize lays the preview out at the new width.
#[tokio::test]
async fn a_stale_preview_timer_changes_nothing_and_asks_for_no_frame() {
    let mut scene = Scene::start(LUMEN_DOCS).await;
    let first = scene
        .space()
        .reader
        .key
        .clone()
        .expect("the first page is previewed");
    let j = Msg::Key(KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE));
    let timers = headless::settle_holding_timers(&mut scene.model, &scene.effects, j).await;
    let [timer] = timers[..] else {
        panic!("one preview timer, got {timers:?}")
    };
    scene.keys("k").await;
    assert_eq!(scene.space().reader.key.as_ref(), Some(&first));
    let before = render(&mut scene.model, 80, 24);
    let updated = update_noting_change(&mut scene.model, Msg::Timer(timer));
    assert!(!updated.redraw, "a stale timer asks for no frame");
    assert_eq!(updated.cmd, Cmd::None);
    assert_eq!(render(&mut scene.model, 80, 24), before);

    scene.keys("j").await;
    let selected = scene.space().selected_page().expect("a page").id.clone();
    let shown = scene
        .space()
        .reader
        .key
        .clone()
        .expect("the second page is previewed");
    assert_eq!(shown.page, selected);
    let second = render(&mut scene.model, 80, 24);
    assert_ne!(second, before, "the preview shows the second page");
    let wide = render(&mut scene.model, 120, 24);
    assert_eq!(
        scene
            .space()
            .reader
            .layout
            .as_ref()
            .map(|layout| layout.width),
        scene
            .space()
            .panes(Rect::new(0, 0, 120, 22))
            .1
            .map(|pane| pane.width)
    );
    assert_ne!(wide.lines().nth(3), second.lines().nth(3));
    assert_eq!(
        render(&mut scene.model, 80, 24),
        second,
        "back at 80 columns"
    );
}
