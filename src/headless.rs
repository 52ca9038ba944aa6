//! Runs the app without a terminal: commands are carried out inline, in order, until nothing is
//! left to do. Used to render screenshots from the demo data, and handy in tests.

use std::collections::VecDeque;
use std::sync::Arc;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::api::{Client, ClientConfig, Token};
use crate::app::{Cmd, DocHandle, Model, Msg, update};
use crate::runtime::{Effects, call_api};
use crate::sandbox::{Sandbox, SandboxOptions, tokens};
use crate::ui::markdown::MarkdownDoc;
use crate::ui::theme::Theme;

/// A sandbox on a free loopback port and a client signed in to it as the demo admin: how the
/// benchmarks meet the server.
pub async fn local_sandbox(options: SandboxOptions) -> std::io::Result<(Sandbox, Client)> {
    let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    let sandbox = Sandbox::start(loopback, options).await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .map_err(|error| std::io::Error::other(error.to_string()))?;
    Ok((sandbox, client))
}

/// What a user's run has, with `client` and no drafts kept on disk.
pub fn effects_with(client: Client) -> Effects {
    Effects {
        client: Some(client),
        drafts: None,
        theme: Theme::default(),
        render: Default::default(),
    }
}

/// Applies `msg` and everything it leads to (API calls, parses, highlights) until the model is
/// quiet. Clipboard, browser and suspend commands are ignored.
pub async fn settle(model: &mut Model, effects: &Effects, msg: Msg) {
    let mut queue = VecDeque::from([msg]);
    while let Some(msg) = queue.pop_front() {
        let cmd = update(model, msg);
        run(cmd, effects, &mut queue).await;
        learn_lacks(model, effects);
    }
}

/// What the runtime hears through the client's observer (`Msg::Lack`), taken here from the
/// client after each step.
fn learn_lacks(model: &mut Model, effects: &Effects) {
    if let Some(client) = &effects.client {
        for lack in client.capabilities().all() {
            model.lacking.learn(lack);
        }
    }
}

/// Like [`settle`], but timers do not go off: their ids are returned, so a test can fire one
/// when it chooses (a watch refresh) instead of looping on a timer that re-arms itself.
pub async fn settle_holding_timers(
    model: &mut Model,
    effects: &Effects,
    msg: Msg,
) -> Vec<crate::app::RequestId> {
    let mut timers = Vec::new();
    let mut queue = VecDeque::from([msg]);
    while let Some(msg) = queue.pop_front() {
        let cmd = hold_timers(update(model, msg), &mut timers);
        run(cmd, effects, &mut queue).await;
        learn_lacks(model, effects);
    }
    timers
}

fn hold_timers(cmd: Cmd, timers: &mut Vec<crate::app::RequestId>) -> Cmd {
    match cmd {
        Cmd::Timer { id, .. } => {
            timers.push(id);
            Cmd::None
        }
        Cmd::Batch(commands) => Cmd::batch(commands.into_iter().map(|c| hold_timers(c, timers))),
        other => other,
    }
}

/// Runs the model's first command and settles.
pub async fn start(model: &mut Model, effects: &Effects) {
    let mut queue = VecDeque::new();
    let cmd = model.init();
    run(cmd, effects, &mut queue).await;
    while let Some(msg) = queue.pop_front() {
        let cmd = update(model, msg);
        run(cmd, effects, &mut queue).await;
        learn_lacks(model, effects);
    }
}

/// Types `keys` one by one ("\r" is enter, "\x1b" escape), settling after each.
pub async fn type_keys(model: &mut Model, effects: &Effects, keys: &str) {
    for c in keys.chars() {
        let code = match c {
            '\r' | '\n' => KeyCode::Enter,
            '\u{1b}' => KeyCode::Esc,
            '\t' => KeyCode::Tab,
            c => KeyCode::Char(c),
        };
        let modifiers = if c.is_ascii_uppercase() {
            KeyModifiers::SHIFT
        } else {
            KeyModifiers::NONE
        };
        settle(model, effects, Msg::Key(KeyEvent::new(code, modifiers))).await;
    }
}

async fn run(cmd: Cmd, effects: &Effects, queue: &mut VecDeque<Msg>) {
    let mut pending = VecDeque::from([cmd]);
    while let Some(cmd) = pending.pop_front() {
        match cmd {
            Cmd::Batch(commands) => pending.extend(commands),
            Cmd::Api { request, call } => {
                if let Some(client) = &effects.client {
                    let response = call_api(client, call).await;
                    queue.push_back(Msg::Api { request, response });
                }
            }
            Cmd::ParseMarkdown { key, markdown } => {
                let doc = MarkdownDoc::parse(&markdown, &effects.theme);
                queue.push_back(Msg::MarkdownParsed {
                    key,
                    doc: DocHandle(Arc::new(doc)),
                    highlighted: false,
                });
            }
            Cmd::ParsePreview { key, markdown } => {
                let doc = MarkdownDoc::parse_preview(&markdown, &effects.theme);
                queue.push_back(Msg::MarkdownParsed {
                    key,
                    doc: DocHandle(Arc::new(doc)),
                    highlighted: false,
                });
            }
            // No clock here: a timer goes off at once, after what is already queued.
            Cmd::Timer { id, .. } => queue.push_back(Msg::Timer(id)),
            Cmd::HighlightMarkdown { key, doc } => {
                let doc = doc.0.highlighted(&effects.theme, &effects.render);
                queue.push_back(Msg::MarkdownParsed {
                    key,
                    doc: DocHandle(Arc::new(doc)),
                    highlighted: true,
                });
            }
            Cmd::LoadDrafts { prefix } => queue.push_back(Msg::DraftsLoaded {
                prefix,
                drafts: Vec::new(),
            }),
            Cmd::LoadReviewMemory { key } => queue.push_back(Msg::DraftsLoaded {
                prefix: key,
                drafts: Vec::new(),
            }),
            Cmd::SaveReviewMemory { .. } => {}
            Cmd::PingOrganization { organization } => {
                if let Some(client) = &effects.client
                    && let Err(error) = client.ping(&organization).await
                {
                    tracing::info!(%organization, %error, "the organization's ping failed");
                }
            }
            Cmd::None
            | Cmd::SaveDraft { .. }
            | Cmd::DiscardDraft { .. }
            | Cmd::EditExternally { .. }
            | Cmd::CopyToClipboard(_)
            | Cmd::OpenInBrowser(_)
            | Cmd::Suspend
            | Cmd::RetryNow
            | Cmd::Quit => {}
            Cmd::SavePaletteHistory { .. } => {}
        }
    }
}

/// Runs commands the way the runtime does over a network, counted in waves: every API call a
/// wave asks for is sent at once, the answers are applied, and the calls they lead to make the
/// next wave. Other commands (parses, drafts) are left out. For benchmarks and tests that
/// count round trips.
pub struct Waves {
    pending: Vec<Cmd>,
}

impl Waves {
    pub fn new(first: Cmd) -> Waves {
        Waves {
            pending: vec![first],
        }
    }

    /// Runs waves until `done` holds; returns how many it took, or `None` when nothing was
    /// left to send before it held. What the last wave asked for is kept for the next call.
    pub async fn until(
        &mut self,
        model: &mut Model,
        client: &crate::api::Client,
        mut done: impl FnMut(&Model) -> bool,
    ) -> Option<usize> {
        let mut waves = 0;
        while !done(model) {
            let calls: Vec<_> = self
                .pending
                .drain(..)
                .flat_map(|cmd| cmd.api_calls())
                .collect();
            if calls.is_empty() {
                return None;
            }
            waves += 1;
            let answers = futures::future::join_all(calls.into_iter().map(|(request, call)| {
                let client = client.clone();
                async move { (request, call_api(&client, call).await) }
            }))
            .await;
            for (request, response) in answers {
                self.pending
                    .push(update(model, Msg::Api { request, response }));
            }
        }
        Some(waves)
    }
}
