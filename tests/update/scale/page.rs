//! The big demo's 1 MB page (every block type): compact in memory once rendered, previewed for
//! one screenful's work, read without fetching it again; and a moving selection fetches only
//! the page it stops on.

use std::collections::VecDeque;
use std::net::SocketAddr;

use crate::common::*;
use quire::api::models::Page;
use quire::api::{Client, ClientConfig, Token};
use quire::app::{ApiCall, ApiResponse, Cmd, DocHandle, Model, Msg, RequestId, Size, update};
use quire::runtime::call_api;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::space::{PREVIEW_BYTES, SpaceScreen};
use quire::ui::markdown::{MarkdownDoc, RenderOptions};
use quire::ui::theme::Theme;
use ratatui::crossterm::event::KeyCode;

async fn big_sandbox() -> (Sandbox, Client) {
    let options = SandboxOptions {
        big: true,
        ..SandboxOptions::default()
    };
    let sandbox = Sandbox::start(SocketAddr::from(([127, 0, 0, 1], 0)), options)
        .await
        .unwrap();
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap();
    (sandbox, client)
}

async fn huge_page(client: &Client) -> String {
    let page = client
        .get_page_markdown(demo_ids::SPACE_BIG, demo_ids::PAGE_BIG_HUGE)
        .await
        .unwrap();
    let markdown = page.markdown.unwrap_or_default();
    assert!(markdown.len() > 1_000_000);
    markdown
}

/// The whole 1 MB page, parsed, highlighted and laid out at 80 and 200 columns, holds a few
/// bytes per byte of markdown. A span owning a `String` (as before) costs over 15 MB for the
/// parse alone.
#[tokio::test]
async fn the_rendered_one_megabyte_page_is_compact() {
    let (sandbox, client) = big_sandbox().await;
    let markdown = huge_page(&client).await;
    sandbox.shutdown().await;
    let theme = Theme::default();
    let options = RenderOptions {
        // Every block plain or coloured alike: the size must not depend on the machine's speed.
        highlight_budget: std::time::Duration::ZERO,
        ..RenderOptions::default()
    };
    let doc =
        std::sync::Arc::new(MarkdownDoc::parse(&markdown, &theme).highlighted(&theme, &options));
    let megabyte = 1024 * 1024;
    let doc_bytes = doc.heap_bytes();
    assert!(
        doc_bytes < 4 * megabyte,
        "the parsed page takes {doc_bytes} bytes"
    );
    for width in [80, 200] {
        let layout = doc.page_layout(width);
        assert!(layout.len() > 30_000, "{} rows", layout.len());
        // Only where each block's rows start, and the rows around the screen once drawn (every
        // row kept took 2.4 MB).
        let middle = layout.len() / 2;
        assert_eq!(layout.lines(middle..middle + 50).len(), 50);
        let layout_bytes = layout.heap_bytes();
        eprintln!("parse {doc_bytes} bytes, layout at {width} columns {layout_bytes} bytes");
        assert!(
            layout_bytes < megabyte / 2,
            "the layout at {width} columns takes {layout_bytes} bytes"
        );
    }
}

/// Carries out commands like the runtime, except highlighting (slow, and beside the point).
async fn run(model: &mut Model, client: &Client, cmd: Cmd) {
    let mut queue = VecDeque::from([cmd]);
    while let Some(cmd) = queue.pop_front() {
        let msg = match cmd {
            Cmd::Batch(commands) => {
                queue.extend(commands);
                continue;
            }
            Cmd::Api { request, call } => Msg::Api {
                request,
                response: call_api(client, &quire::runtime::SendTurn::default(), call).await,
            },
            Cmd::ParseMarkdown { key, markdown } => Msg::MarkdownParsed {
                key,
                doc: DocHandle(std::sync::Arc::new(MarkdownDoc::parse(
                    &markdown,
                    &model.theme,
                ))),
                highlighted: false,
            },
            Cmd::ParsePreview { key, markdown } => Msg::MarkdownParsed {
                key,
                doc: DocHandle(std::sync::Arc::new(MarkdownDoc::parse_preview(
                    &markdown,
                    &model.theme,
                ))),
                highlighted: false,
            },
            Cmd::Timer { id, .. } => Msg::Timer(id),
            _ => continue,
        };
        let next = update(model, msg);
        queue.push_back(next);
    }
}

/// The big space opens on the 1 MB page: its preview parses only the start of the page, and
/// `enter` parses the markdown the preview fetched instead of fetching it again.
#[tokio::test]
async fn the_preview_of_a_huge_page_parses_its_start_and_enter_fetches_nothing_more() {
    let (sandbox, client) = big_sandbox().await;
    let space = client.get_space(demo_ids::SPACE_BIG).await.unwrap();
    let mut model = Model::new(
        Screen::Space(SpaceScreen::new(space, "Big Co".into())),
        environment(),
        Size {
            width: 200,
            height: 50,
        },
    );
    let init = model.init();
    let (request, call) = only_request(&init);
    assert!(matches!(call, ApiCall::ListPages { .. }));
    let pages = update(
        &mut model,
        Msg::Api {
            request,
            response: call_api(&client, &quire::runtime::SendTurn::default(), call).await,
        },
    );
    let (request, call) = only_request(&pages);
    assert_eq!(
        call,
        ApiCall::GetPageMarkdown {
            space: demo_ids::SPACE_BIG.into(),
            page: demo_ids::PAGE_BIG_HUGE.into()
        },
        "the space opens on the 1 MB page"
    );
    let parse = update(
        &mut model,
        Msg::Api {
            request,
            response: call_api(&client, &quire::runtime::SendTurn::default(), call).await,
        },
    );
    let Cmd::ParsePreview { markdown, .. } = &parse else {
        panic!(
            "expected the parse of a preview, got a command of {} bytes",
            format!("{parse:?}").len()
        )
    };
    assert!(
        markdown.len() <= PREVIEW_BYTES + 256,
        "the preview parses {} bytes",
        markdown.len()
    );
    run(&mut model, &client, parse).await;
    let Screen::Space(screen) = model.top() else {
        panic!("on the space")
    };
    let preview_rows = screen.reader.line_count();
    assert!(
        (1..=48).contains(&preview_rows),
        "the preview lays out one screenful: {preview_rows} rows"
    );

    let read = update(&mut model, key(KeyCode::Enter));
    assert!(requests(&read).is_empty(), "no second fetch: {read:?}");
    let Cmd::ParseMarkdown { markdown, .. } = &read else {
        panic!("expected the whole page's parse")
    };
    assert!(markdown.len() > 1_000_000);
    run(&mut model, &client, read).await;
    let Screen::Page(page) = model.top() else {
        panic!("reading the page")
    };
    assert!(
        page.reader.line_count() > 10_000,
        "the whole page is laid out"
    );
    let fetches = sandbox.requests("GET", &format!("*{}*", demo_ids::PAGE_BIG_HUGE));
    assert_eq!(fetches, 1, "the page was fetched once");
    sandbox.shutdown().await;
}

fn twelve_pages() -> Vec<Page> {
    (0..12)
        .map(|index| {
            from_json(page_json(
                &format!("p-{index}"),
                &format!("Page {index}"),
                "document",
                vec![],
            ))
        })
        .collect()
}

/// Holding `j` through ten pages fetches none of them until the selection rests; then only
/// the page it rests on.
#[test]
fn moving_through_ten_pages_quickly_fetches_one() {
    let (mut model, preview) = space_model();
    respond(
        &mut model,
        preview,
        ApiResponse::PageMarkdown(Ok(page_with_markdown("p-start", "# Hello"))),
    );
    // Reload the tree with twelve pages; the selection stays on the first.
    let reload = update(&mut model, char_key('r'));
    let (request, _) = requests(&reload)
        .into_iter()
        .find(|(_, call)| matches!(call, ApiCall::ListPages { .. }))
        .expect("pages reloaded");
    respond(
        &mut model,
        request,
        crate::common::page_tree_answer(&twelve_pages()),
    );

    let mut timers: Vec<RequestId> = Vec::new();
    for _ in 0..10 {
        let cmd = update(&mut model, char_key('j'));
        assert!(requests(&cmd).is_empty(), "no fetch while moving: {cmd:?}");
        assert_eq!(
            cancelled_timers(&cmd),
            timers.last().copied().into_iter().collect::<Vec<_>>(),
            "each move calls off the rest timer of the move before"
        );
        let commands = match cmd {
            Cmd::Batch(commands) => commands,
            one => vec![one],
        };
        let Some((id, after)) = commands.iter().find_map(|cmd| match cmd {
            Cmd::Timer { id, after } => Some((*id, *after)),
            _ => None,
        }) else {
            panic!("expected a timer, got {commands:?}")
        };
        assert!(after >= std::time::Duration::from_millis(100));
        timers.push(id);
    }
    let fetches: Vec<ApiCall> = timers
        .into_iter()
        .flat_map(|id| requests(&update(&mut model, Msg::Timer(id))))
        .map(|(_, call)| call)
        .collect();
    assert_eq!(
        fetches,
        [ApiCall::GetPageMarkdown {
            space: "s-api".into(),
            page: "p-10".into()
        }],
        "one fetch, for the page the selection rests on"
    );
}

/// A page opened while its preview still waited is not fetched a second time behind the
/// reader; the preview is fetched when the space shows again.
#[test]
fn opening_a_page_before_its_preview_was_fetched_fetches_it_once() {
    let (mut model, preview) = space_model();
    respond(
        &mut model,
        preview,
        ApiResponse::PageMarkdown(Ok(page_with_markdown("p-start", "# Hello"))),
    );
    update(&mut model, char_key('l'));
    let Cmd::Timer { id, .. } = update(&mut model, char_key('j')) else {
        panic!("the move waits")
    };
    let open = update(&mut model, key(KeyCode::Enter));
    assert_eq!(requests(&open).len(), 1, "the reader fetches the page");
    assert!(
        requests(&update(&mut model, Msg::Timer(id))).is_empty(),
        "the preview is not fetched behind the reader"
    );
    let back = update(&mut model, key(KeyCode::Esc));
    assert_eq!(
        requests(&back).len(),
        1,
        "back on the space, the preview loads"
    );
}
