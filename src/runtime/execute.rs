//! Carrying out `Cmd`s: one executor for every place quire runs, the terminal's loop
//! ([`super::run`], which `quire` starts) and the headless runs of tests and screenshots
//! (`crate::headless`). Every API call goes through the same cache routing
//! (`from_cache::answer`). What differs between places is only [`Surroundings`]: whether work
//! runs in the background or to its end before the next command, how a timer goes off, and
//! whether there is a terminal and a desktop.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;

use super::calls::outbox::SendTurn;
use super::{Effects, Host, from_cache};
use crate::api::Client;
use crate::api::outbox::Outbox;
use crate::app::{ApiCall, Cmd, DocHandle, DocKey, Msg, RequestId};
use crate::ui::markdown::MarkdownDoc;
use crate::ui::theme::Theme;
use crate::vocabulary::change_requests::memory;
use crate::vocabulary::drafts;

/// Work whose messages come later, through the executor's sender.
pub type Work = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// Where commands are carried out.
pub trait Surroundings {
    /// A message the command answers with at once.
    fn deliver(&mut self, msg: Msg);
    /// Starts `work`: beside the loop, or to its end before the next command.
    fn perform(&mut self, work: Work);
    /// `Msg::Timer(id)` after `after`.
    fn timer(&mut self, id: RequestId, after: Duration);
    /// The timer `id` need not go off (see `Cmd::CancelTimer`).
    fn cancel_timer(&mut self, _id: RequestId) {}
    /// The clipboard, the browser, suspending and `$EDITOR`; None where there is no terminal,
    /// and those commands are left out.
    fn host(&mut self) -> Option<&mut dyn Host>;
    /// The terminal was given away (`fg`, `$EDITOR`): the next draw sends every cell.
    fn repaint(&mut self) -> io::Result<()>;
}

/// Carries out commands for one running quire. Clones share what the calls share: the
/// outbox's one send at a time, and the note that a rendered page arrived.
#[derive(Clone)]
pub struct Executor {
    effects: Effects,
    sender: UnboundedSender<Msg>,
    turn: SendTurn,
    document_arrived: Arc<AtomicBool>,
}

impl Executor {
    /// Answers reach the model through `sender`.
    pub fn new(effects: Effects, sender: UnboundedSender<Msg>) -> Executor {
        Executor {
            effects,
            sender,
            turn: SendTurn::default(),
            document_arrived: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The same executor answering through `sender` instead.
    pub fn answering_to(&self, sender: UnboundedSender<Msg>) -> Executor {
        Executor {
            sender,
            ..self.clone()
        }
    }

    pub fn effects(&self) -> &Effects {
        &self.effects
    }

    /// True once after a rendered page arrived: the loop trims the heap after drawing it.
    pub fn take_document_arrived(&self) -> bool {
        self.document_arrived.swap(false, Ordering::Relaxed)
    }

    /// Carries out `cmd` (a batch in order) in `place`.
    pub fn execute(&self, cmd: Cmd, place: &mut impl Surroundings) -> io::Result<()> {
        match cmd {
            Cmd::None | Cmd::Quit => {}
            Cmd::Batch(commands) => {
                for cmd in commands {
                    self.execute(cmd, place)?;
                }
            }
            Cmd::Api { request, call } => {
                if let Some(work) = self.api(request, call) {
                    place.perform(work);
                }
            }
            Cmd::Timer { id, after } => place.timer(id, after),
            Cmd::CancelTimer(id) => place.cancel_timer(id),
            Cmd::RetryNow => {
                if let Some(client) = &self.effects.client {
                    client.retry_now();
                }
            }
            Cmd::PingOrganization { organization } => {
                if let Some(client) = self.effects.client.clone() {
                    place.perform(Box::pin(ping_organization(client, organization)));
                }
            }
            Cmd::ParseMarkdown { key, markdown } => {
                let theme = self.effects.theme.clone();
                place.perform(
                    self.render(key, false, move || MarkdownDoc::parse(&markdown, &theme)),
                );
            }
            Cmd::ParsePreview { key, markdown } => {
                let theme = self.effects.theme.clone();
                place.perform(self.render(key, false, move || {
                    MarkdownDoc::parse_preview(&markdown, &theme)
                }));
            }
            // Under NO_COLOR the colours would be thrown away at output: the page as parsed is
            // its last step, with no copy or worker.
            Cmd::HighlightMarkdown { key, doc } if !self.effects.render.highlight => {
                place.deliver(Msg::MarkdownParsed {
                    key,
                    doc,
                    highlighted: true,
                });
            }
            Cmd::HighlightMarkdown { key, doc } => {
                let theme = self.effects.theme.clone();
                let options = self.effects.render;
                place.perform(self.render(key, true, move || doc.0.highlighted(&theme, &options)));
            }
            Cmd::SaveDraft { key, text } => self.save_draft(key, &text, place),
            Cmd::DiscardDraft { key } => {
                if let Some(directory) = &self.effects.drafts
                    && let Err(error) = drafts::discard(directory, &key)
                {
                    tracing::warn!(%error, "discarding a draft failed");
                }
            }
            Cmd::LoadDrafts { prefix } => {
                let drafts = self
                    .effects
                    .drafts
                    .as_deref()
                    .map(|directory| drafts::load(directory, &prefix))
                    .unwrap_or_default();
                place.deliver(Msg::DraftsLoaded { prefix, drafts });
            }
            Cmd::LoadReviewMemory { key } => self.load_review_memory(key, place),
            Cmd::SaveReviewMemory { key, text } => {
                if let Some(directory) = &self.effects.drafts
                    && let Err(error) = memory::save(directory, &key, &text)
                {
                    tracing::warn!(%error, "remembering what the review showed failed");
                }
            }
            Cmd::SavePaletteHistory { path, entries } => {
                if let Err(error) = crate::app::palette::save_history(&path, &entries) {
                    tracing::warn!(%error, "saving the palette history failed");
                }
            }
            Cmd::CopyToClipboard(text) => {
                if let Some(host) = place.host()
                    && let Err(error) = host.copy_to_clipboard(&text)
                {
                    tracing::warn!(%error, "copy to clipboard failed");
                }
            }
            Cmd::Notify { title, body } => {
                if let Some(host) = place.host()
                    && let Err(error) = host.notify(&title, &body)
                {
                    tracing::warn!(%error, "a terminal notification failed");
                }
            }
            Cmd::OpenInBrowser(url) => self.open_in_browser(url, place),
            Cmd::EditExternally { key, text } => self.edit_externally(key, &text, place)?,
            Cmd::Suspend => {
                if let Some(host) = place.host() {
                    host.suspend()?;
                    place.repaint()?;
                    place.deliver(Msg::Resumed);
                }
            }
        }
        Ok(())
    }

    /// The answer(s) to one API call, through the cache routing; after a write, how many
    /// writes wait in the outbox. None without a client.
    pub fn api(&self, request: RequestId, call: ApiCall) -> Option<Work> {
        let Some(client) = self.effects.client.as_ref() else {
            tracing::error!(?call, "an API call without a client");
            return None;
        };
        let client = client.with_priority(call.priority());
        let sender = self.sender.clone();
        let turn = self.turn.clone();
        let may_change_the_outbox = call.writes();
        Some(Box::pin(async move {
            from_cache::answer(&client, &turn, &sender, request, call).await;
            if may_change_the_outbox {
                count_the_outbox(client, sender).await;
            }
        }))
    }

    /// Renders a document off the thread that reads keys and draws (rendering is CPU work).
    fn render<F>(&self, key: DocKey, highlighted: bool, render: F) -> Work
    where
        F: FnOnce() -> MarkdownDoc + Send + 'static,
    {
        let sender = self.sender.clone();
        let theme: Theme = self.effects.theme.clone();
        let arrived = self.document_arrived.clone();
        Box::pin(async move {
            let doc = match tokio::task::spawn_blocking(render).await {
                Ok(doc) => doc,
                Err(error) => {
                    tracing::error!(%error, "markdown rendering failed");
                    MarkdownDoc::parse(
                        "> quire could not render this page. Press `r` to load it again.",
                        &theme,
                    )
                }
            };
            arrived.store(true, Ordering::Relaxed);
            let _ = sender.send(Msg::MarkdownParsed {
                key,
                doc: DocHandle(Arc::new(doc)),
                // A failed highlight still ends the highlighting step.
                highlighted,
            });
        })
    }

    /// Writes a draft and tells the model how it went, so a screen never promises a draft the
    /// disk did not take.
    fn save_draft(&self, key: String, text: &str, place: &mut impl Surroundings) {
        tracing::debug!(%key, bytes = text.len(), "saving a draft");
        let Some(directory) = &self.effects.drafts else {
            return;
        };
        let failure = drafts::save(directory, &key, text).err().map(|error| {
            tracing::warn!(%error, "saving a draft failed");
            error.to_string()
        });
        place.deliver(Msg::DraftSaved { key, failure });
    }

    fn load_review_memory(&self, key: String, place: &mut impl Surroundings) {
        let text = self
            .effects
            .drafts
            .as_deref()
            .and_then(|directory| memory::load(directory, &key));
        let drafts = text
            .map(|text| vec![(key.clone(), text)])
            .unwrap_or_default();
        place.deliver(Msg::DraftsLoaded {
            prefix: key,
            drafts,
        });
    }

    fn open_in_browser(&self, url: String, place: &mut impl Surroundings) {
        let Some(host) = place.host() else {
            return;
        };
        if let Err(error) = host.open_in_browser(&url) {
            tracing::warn!(%error, "open in browser failed");
            place.deliver(Msg::BrowserFailed {
                url,
                reason: error.to_string(),
            });
        }
    }

    fn edit_externally(
        &self,
        key: String,
        text: &str,
        place: &mut impl Surroundings,
    ) -> io::Result<()> {
        let Some(host) = place.host() else {
            return Ok(());
        };
        let mut save_draft = |edited: &str| {
            if let Some(directory) = &self.effects.drafts
                && let Err(error) = drafts::save(directory, &key, edited)
            {
                tracing::warn!(%error, "saving the edited text as a draft failed");
            }
        };
        let draft = self
            .effects
            .drafts
            .as_ref()
            .map(|directory| directory.join(drafts::file_name(&key)));
        let edited = host.edit_text(text, draft.as_deref(), &mut save_draft);
        // The text goes to the model before anything that can fail, so the screen shows it
        // (and a quit asks first) even if the terminal could not be taken back.
        match edited {
            Ok(text) => place.deliver(Msg::EditedExternally { key, text }),
            Err(error) => tracing::warn!(%error, "$EDITOR failed"),
        }
        place.repaint()
    }
}

/// A ping is a courtesy to the other members' "last seen": no screen waits for it, so it has
/// no request id and no answer, and a refusal (a guest, an old server) is only logged.
async fn ping_organization(client: Client, organization: String) {
    if let Err(error) = client.ping(&organization).await {
        tracing::info!(%organization, %error, "the organization's ping failed");
    }
}

/// Says how many writes wait in the outbox (nothing without a cache to keep them in).
pub(super) async fn count_the_outbox(client: Client, sender: UnboundedSender<Msg>) {
    let Some(outbox) = client.outbox() else {
        return;
    };
    if let Ok(waiting) = outbox.in_background(Outbox::count).await {
        let _ = sender.send(Msg::OutboxWaiting(waiting));
    }
}
