//! A model opened on a change request's review, loaded from the real sandbox with the headless
//! driver. Tests then feed messages to `update` by hand and look at the commands it returns.

use quire::api::{ApiError, Client, ClientConfig, Token};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, Msg, RequestId, Size, update};
use quire::headless;
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::review::ReviewScreen;
use quire::ui::theme::Theme;
use quire::vocabulary::change_requests::{
    ChangeRequestRef, ChangeRequestsCall, ChangeRequestsResponse,
};

pub struct Loaded {
    pub model: Model,
    pub effects: Effects,
    pub sandbox: Sandbox,
}

pub async fn review(token: &str, change_request: &str, width: u16, height: u16) -> Loaded {
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .expect("sandbox");
    let client = Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token))).unwrap();
    let effects = Effects {
        client: Some(client),
        drafts: None,
        theme: Theme::default(),
        render: Default::default(),
    };
    let target = ChangeRequestRef {
        space: demo_ids::SPACE_GETTING_STARTED.to_string(),
        change_request: change_request.to_string(),
    };
    let mut model = Model::new(
        Screen::Review(Box::new(ReviewScreen::new(target, None))),
        super::environment(),
        Size::default(),
    );
    headless::settle(&mut model, &effects, Msg::Resize { width, height }).await;
    headless::start(&mut model, &effects).await;
    Loaded {
        model,
        effects,
        sandbox,
    }
}

pub fn screen(model: &Model) -> &ReviewScreen {
    match model.top() {
        Screen::Review(screen) => screen,
        _ => panic!("not on the review screen"),
    }
}

pub fn forbidden() -> ApiError {
    ApiError::Status {
        endpoint: "PUT /spaces/s/change-requests/c/comments/x".into(),
        status: 403,
        code: Some(403),
        message: "The comment role is needed".into(),
    }
}

/// The one review call a command asks for.
pub fn review_call(cmd: &Cmd) -> (RequestId, ChangeRequestsCall) {
    let all = super::requests(cmd);
    assert_eq!(all.len(), 1, "{cmd:?}");
    match all.into_iter().next().unwrap() {
        (request, ApiCall::ChangeRequests(call)) => (request, call),
        other => panic!("not a review call: {other:?}"),
    }
}

/// Starts `model` and returns its call for the review itself (the first screen's other calls
/// are left unrun).
pub fn init_asks_for_the_review(model: &mut Model) -> (RequestId, ApiCall) {
    model
        .init()
        .api_calls()
        .into_iter()
        .find(|(_, call)| {
            matches!(
                call,
                ApiCall::ChangeRequests(ChangeRequestsCall::LoadReview(_))
            )
        })
        .expect("the review is asked for")
}

/// Feeds the answer to a review call.
pub fn answer(model: &mut Model, request: RequestId, response: ChangeRequestsResponse) -> Cmd {
    update(
        model,
        Msg::Api {
            request,
            response: ApiResponse::ChangeRequests(response),
        },
    )
}

/// Types `text` key by key; the commands each key returned.
pub fn type_text(model: &mut Model, text: &str) -> Vec<Cmd> {
    text.chars()
        .map(|c| update(model, super::char_key(c)))
        .collect()
}

/// Switches the review to `tab` the way a user does, by its number key: the one place tests
/// know which key opens which tab.
#[allow(dead_code)]
pub fn open_tab(model: &mut Model, tab: quire::screens::change_requests::review::ReviewTab) {
    let index = quire::screens::change_requests::review::ReviewTab::ALL
        .iter()
        .position(|t| *t == tab)
        .expect("a tab");
    let key = char::from_digit(index as u32 + 1, 10).expect("a digit");
    update(model, super::char_key(key));
    assert_eq!(screen(model).tab, tab);
}

/// The demo's dates are fixed, so their relative form ("1 year ago") grows older with the
/// calendar: snapshots say "N years ago" instead.
#[allow(dead_code)]
pub fn steady_ages(text: &str) -> String {
    let mut text = text.to_string();
    for n in (1..=9).rev() {
        text = text
            .replace(&format!("{n} years ago"), "N years ago")
            .replace(&format!("{n} year ago"), "N years ago");
    }
    // "1 year ago" and "2 years ago" differ by a cell: the padding after them is not compared.
    text.lines()
        .map(|line| match line.strip_suffix('"') {
            Some(inner) if line.len() > 1 => format!("{}\"", inner.trim_end()),
            _ => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Replaces a page's markdown on the sandbox: in the change request when `change_request` is
/// given, else on main (a sandbox-only route, as an author's edit would).
#[allow(dead_code)]
pub async fn plant_markdown(loaded: &Loaded, change_request: Option<&str>, page: &str, text: &str) {
    let space = demo_ids::SPACE_GETTING_STARTED;
    let place = match change_request {
        Some(cr) => format!("spaces/{space}/change-requests/{cr}/pages/{page}"),
        None => format!("spaces/{space}/pages/{page}"),
    };
    let answer = reqwest::Client::new()
        .put(format!(
            "{}/_sandbox/{place}/markdown",
            loaded.sandbox.base_url()
        ))
        .bearer_auth(tokens::ADMIN)
        .body(text.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 204);
}

/// Someone else comments on the demo review and edits its Quickstart (a new revision), over
/// the sandbox's HTTP routes.
#[allow(dead_code)]
pub async fn someone_comments_and_edits_the_quickstart(sandbox: &Sandbox) {
    let base = sandbox.base_url();
    let client = Client::new(ClientConfig::new(
        base.clone(),
        Token::new(tokens::REVIEWER),
    ))
    .unwrap();
    client
        .post_comment(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW,
            "A new question",
            None,
        )
        .await
        .unwrap();
    let page = client
        .get_change_request_page_markdown(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW,
            demo_ids::PAGE_QUICKSTART,
        )
        .await
        .unwrap();
    let edited = format!("{}\nOne more line since then.\n", page.markdown.unwrap());
    let root = base.trim_end_matches('/').trim_end_matches("/v1");
    let answer = reqwest::Client::new()
        .put(format!(
            "{root}/_sandbox/spaces/{}/change-requests/{}/pages/{}/markdown",
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW,
            demo_ids::PAGE_QUICKSTART
        ))
        .bearer_auth(tokens::ADMIN)
        .body(edited)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 204);
}
