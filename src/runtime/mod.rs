//! The loop: input and command results arrive as `Msg` on one queue; everything queued is
//! applied, then the screen is drawn once. Generic over the ratatui backend, the input stream and
//! the host (clipboard, browser, suspend), so tests run the real loop on a `TestBackend`.

pub mod calls;
mod execute;
mod from_cache;
mod timers;

pub use execute::{Executor, Surroundings, Work};

use std::io;
use std::time::Duration;

use futures::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::Event;
use tokio::sync::mpsc::{
    UnboundedReceiver, UnboundedSender, WeakUnboundedSender, unbounded_channel,
};

use crate::api::Client;
use crate::api::outbox::Outbox;
use crate::app::view::chrome;
use crate::app::{ApiCall, ApiResponse, Model, Msg, RequestId, update, update_noting_change};
use crate::output::Present;
use crate::ui::markdown::{RenderOptions, highlight_worker, release_free_memory, warm_syntax_set};
use crate::ui::theme::Theme;
pub use calls::outbox::SendTurn;
use execute::count_the_outbox;
use timers::Timers;

/// The strong senders of the loop's queue when nothing is under way: the loop's own and the
/// one its executor answers through. Observers hold weak ones.
const SENDERS_AT_REST: usize = 2;

/// How often the spinner turns while something is loading. Idle, nothing ticks.
const SPINNER_INTERVAL: Duration = Duration::from_millis(120);

/// What the terminal side can send besides key presses.
#[derive(Debug)]
pub enum InputEvent {
    Terminal(Event),
    /// SIGHUP: the terminal (or the SSH connection) is gone.
    Hangup,
    /// SIGTERM or SIGINT from outside.
    Terminate,
    /// Reading input failed: the terminal is gone.
    Failed(String),
}

/// Side effects that need the real terminal or the desktop.
pub trait Host {
    fn copy_to_clipboard(&mut self, text: &str) -> io::Result<()>;
    fn open_in_browser(&mut self, url: &str) -> io::Result<()>;
    /// A desktop notification or the bell (see [`crate::notification`]); nothing where there
    /// is no terminal to ring.
    fn notify(&mut self, _title: &str, _body: &str) -> io::Result<()> {
        Ok(())
    }
    /// Gives the terminal back to the shell and stops until `fg`.
    fn suspend(&mut self) -> io::Result<()>;
    /// Lets the user edit `text` in `$EDITOR` and returns the edited text. `keep` is called with
    /// the text as soon as the editor ends, before the terminal is taken back (which can fail
    /// when the terminal went away meanwhile), so the words are safe whatever happens next.
    /// `draft` is the draft file the text belongs to, noted beside the editor's file so that a
    /// quire killed while the editor runs finds the text its way at the next start.
    fn edit_text(
        &mut self,
        text: &str,
        draft: Option<&std::path::Path>,
        keep: &mut dyn FnMut(&str),
    ) -> io::Result<String>;
    /// Called each time the loop waits for its next event. `idle` when nothing is queued, no
    /// command is under way (a call, a render, a timer) and no spinner turns: only input can
    /// wake the loop then. Tests wait for this rather than for a clock.
    fn waiting(&mut self, _idle: bool) {}
    /// A timer was set to go off `_after` (a watch refresh, a retry): what a test reads the
    /// watch's interval from.
    fn timer_set(&mut self, _after: Duration) {}
}

/// Why the loop ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    Quit,
    TerminalGone,
    Terminated,
}

/// Runs the API calls and renders that commands ask for.
#[derive(Clone)]
pub struct Effects {
    pub client: Option<Client>,
    /// Where drafts are kept; None keeps them in memory only.
    pub drafts: Option<std::path::PathBuf>,
    pub theme: Theme,
    pub render: RenderOptions,
}

pub async fn run<B, I, H>(
    terminal: &mut Terminal<B>,
    mut input: I,
    model: &mut Model,
    effects: Effects,
    host: &mut H,
) -> io::Result<Exit>
where
    B: Backend + Present,
    I: Stream<Item = InputEvent> + Unpin,
    H: Host,
{
    let (sender, mut receiver) = unbounded_channel::<Msg>();
    // Code highlighting needs a syntax set that takes most of a second to read. With a
    // highlight worker, the worker reads it, and the worker is started by the first code block
    // to colour: many sessions never open a page with code, and it would cost each of them half
    // a second of CPU and ~48 MB. Without one (library tests, benches), it is read here in the
    // background, so the first page with code is coloured sooner. Grammars themselves are built
    // when a page needs them (all of them would cost ~80 MB). A plain thread, not a blocking
    // task: the runtime waits for those at exit, and quitting must not wait for it. Under
    // NO_COLOR nothing is highlighted, so nothing is read either.
    if effects.render.highlight
        && !highlight_worker::worker_in_use()
        && let Err(error) = std::thread::Builder::new()
            .name("quire-grammars".into())
            .spawn(warm_syntax_set)
    {
        tracing::warn!(%error, "could not start warming code grammars");
    }
    let executor = Executor::new(effects, sender.clone());
    let effects = executor.effects();
    ask_who_is_signed_in(effects, &sender);
    if let Some(client) = &effects.client {
        tokio::spawn(count_the_outbox(client.clone(), sender.clone()));
        tokio::spawn(follow_the_outbox(client.clone(), sender.downgrade()));
    }
    if let Some(client) = &effects.client {
        // The footer says "retrying in 2 s…" while a read waits; the loop learns it here.
        // Observers hold a weak sender: the loop's own is then the only strong one left when
        // no command is under way (see `Host::waiting`).
        let retries = sender.downgrade();
        client.on_retry(move |notice| {
            if let Some(retries) = retries.upgrade() {
                let _ = retries.send(Msg::Retry(notice));
            }
        });
        // Keys needing an operation this server lacks are struck through once it is learned.
        let lacks = sender.downgrade();
        client.capabilities().on_lack(move |lack| {
            if let Some(lacks) = lacks.upgrade() {
                let _ = lacks.send(Msg::Lack(lack));
            }
        });
    }
    let size = terminal.size().map_err(backend_error)?;
    let first = update(
        model,
        Msg::Resize {
            width: size.width,
            height: size.height,
        },
    );
    let mut place = TerminalLoop {
        sender: &sender,
        host,
        terminal,
        timers: Timers::default(),
    };
    executor.execute(first, &mut place)?;
    let init = model.init();
    executor.execute(init, &mut place)?;
    draw(place.terminal, model)?;

    loop {
        // Every command under way holds a clone of `sender` until its answer is sent; at rest
        // only the loop's own and the executor's are left, and no timer of the loop's is set.
        let at_rest = sender.strong_count() == SENDERS_AT_REST && place.timers.is_empty();
        place
            .host
            .waiting(receiver.is_empty() && at_rest && !model.is_busy());
        let spinner = async {
            if model.is_busy() {
                tokio::time::sleep(SPINNER_INTERVAL).await;
            } else {
                std::future::pending::<()>().await;
            }
        };
        let first = tokio::select! {
            event = input.next() => match event {
                Some(InputEvent::Terminal(event)) => match message_for(event) {
                    Some(msg @ Msg::Resize { .. }) => {
                        place.terminal.backend_mut().size_may_have_changed();
                        msg
                    }
                    Some(msg) => msg,
                    None => continue,
                },
                Some(InputEvent::Hangup) | Some(InputEvent::Failed(_)) | None => {
                    return Ok(Exit::TerminalGone);
                }
                Some(InputEvent::Terminate) => return Ok(Exit::Terminated),
            },
            Some(msg) = receiver.recv() => msg,
            _ = spinner => Msg::Tick,
            _ = timers::until(place.timers.next_due()) => {
                match place.timers.take_due(tokio::time::Instant::now()) {
                    Some(id) => Msg::Timer(id),
                    None => continue,
                }
            }
        };
        let changed = apply(first, model, &executor, &mut place)?;
        let changed = drain(&mut receiver, model, &executor, &mut place)? || changed;
        if model.quit {
            return Ok(Exit::Quit);
        }
        // A frame costs the whole screen (rendered, compared, encoded): none is drawn for
        // messages that changed nothing (a preview timer gone off after the next key).
        if changed {
            draw(place.terminal, model)?;
        }
        if executor.take_document_arrived() {
            // A page parsed, highlighted and laid out leaves megabytes of freed scratch memory
            // that the allocator would keep resident: hand it back once the page is on screen.
            release_free_memory();
        }
    }
}

/// Applies every message queued; true when any of them may have changed the screen.
fn drain<B: Backend + Present, H: Host>(
    receiver: &mut UnboundedReceiver<Msg>,
    model: &mut Model,
    executor: &Executor,
    place: &mut TerminalLoop<'_, B, H>,
) -> io::Result<bool> {
    let mut changed = false;
    while let Ok(msg) = receiver.try_recv() {
        changed |= apply(msg, model, executor, place)?;
    }
    Ok(changed)
}

/// Applies one message and carries out its command; true when the screen may have changed.
fn apply<B: Backend + Present, H: Host>(
    msg: Msg,
    model: &mut Model,
    executor: &Executor,
    place: &mut TerminalLoop<'_, B, H>,
) -> io::Result<bool> {
    let updated = update_noting_change(model, msg);
    executor.execute(updated.cmd, place)?;
    Ok(updated.redraw)
}

/// The terminal's loop: work runs beside it, timers on the loop's own clock, and the host and
/// the terminal are real.
struct TerminalLoop<'a, B: Backend + Present, H: Host> {
    sender: &'a UnboundedSender<Msg>,
    host: &'a mut H,
    terminal: &'a mut Terminal<B>,
    timers: Timers,
}

impl<B: Backend + Present, H: Host> Surroundings for TerminalLoop<'_, B, H> {
    fn deliver(&mut self, msg: Msg) {
        let _ = self.sender.send(msg);
    }

    fn perform(&mut self, work: Work) {
        tokio::spawn(work);
    }

    fn timer(&mut self, id: RequestId, after: Duration) {
        self.host.timer_set(after);
        self.timers.set(id, after);
    }

    fn cancel_timer(&mut self, id: RequestId) {
        self.timers.cancel(id);
    }

    fn host(&mut self) -> Option<&mut dyn Host> {
        Some(self.host)
    }

    fn repaint(&mut self) -> io::Result<()> {
        repaint_from_scratch(self.terminal)
    }
}

/// Renders the model. A backend that `Present`s frames sends the finished frame itself (few
/// bytes: scroll regions, short moves); the others get ratatui's own diff.
fn draw<B: Backend + Present>(terminal: &mut Terminal<B>, model: &mut Model) -> io::Result<()> {
    let hits = crate::output::draw_frame(terminal, |frame| chrome::draw_noting_hits(frame, model))?;
    // Where rows and tabs were drawn: the next click is mapped through this frame.
    model.mouse.hits = hits;
    Ok(())
}

/// After `fg` or `$EDITOR` the screen holds someone else's output: clear it and forget what
/// ratatui (and a `Present`ing backend) believes is on it, so the next draw (which follows at
/// once) sends every cell.
///
/// Not `Terminal::clear`: that asks the terminal for the cursor position, and the answer can be
/// swallowed by quire's own input reader, which is already running again; ratatui then gives up
/// with an error that would end the program.
fn repaint_from_scratch<B: Backend + Present>(terminal: &mut Terminal<B>) -> io::Result<()> {
    // It may have been resized while someone else had it.
    terminal.backend_mut().size_may_have_changed();
    terminal
        .backend_mut()
        .clear_region(ratatui::backend::ClearType::All)
        .map_err(backend_error)?;
    // A fresh frame buffer is blank; with both buffers blank the next diff is the whole frame.
    terminal.swap_buffers();
    Ok(())
}

fn backend_error<E: std::fmt::Display>(error: E) -> io::Error {
    io::Error::other(error.to_string())
}

/// Terminal events that matter to the model.
fn message_for(event: Event) -> Option<Msg> {
    match event {
        Event::Key(key) => Some(Msg::Key(key)),
        Event::Paste(text) => Some(Msg::Paste(text)),
        Event::Resize(width, height) => Some(Msg::Resize { width, height }),
        Event::FocusGained => Some(Msg::Focus(true)),
        Event::FocusLost => Some(Msg::Focus(false)),
        // Only presses and the wheel: a release or a drag changes nothing, and must not wake
        // the loop.
        Event::Mouse(event)
            if matches!(
                event.kind,
                ratatui::crossterm::event::MouseEventKind::Down(_)
                    | ratatui::crossterm::event::MouseEventKind::ScrollDown
                    | ratatui::crossterm::event::MouseEventKind::ScrollUp
            ) =>
        {
            Some(Msg::Mouse {
                event,
                at: std::time::Instant::now(),
            })
        }
        _ => None,
    }
}

/// Asks the server once who the token belongs to, for the header; when it cannot be reached,
/// the cache's last answer names the user (an offline header keeps the name). A failure only
/// leaves the name out (the screens report their own errors).
fn ask_who_is_signed_in(effects: &Effects, sender: &UnboundedSender<Msg>) {
    let Some(client) = effects.client.clone() else {
        return;
    };
    let sender = sender.clone();
    tokio::spawn(async move {
        let asked = match client.current_user().await {
            Err(error) if error.unreachable_cause().is_some() => {
                client.cache_only().0.current_user().await
            }
            asked => asked,
        };
        match asked {
            Ok(user) => {
                let _ = sender.send(Msg::SignedInAs(user));
            }
            Err(error) => tracing::info!(%error, "could not ask who is signed in"),
        }
    });
}

/// How often the file is looked at for what another quire on this account did to the outbox.
const OUTBOX_LOOK: std::time::Duration = std::time::Duration::from_secs(2);

/// Another quire on this account (another terminal) may send, queue or drop writes: when the
/// file was changed by another process and the writes waiting are not the ones seen before,
/// the loop is told. When nothing changed, nothing reaches the loop, so nothing is drawn.
/// It holds the loop's sender only while it looks, so that it does not count as a command
/// under way between looks.
async fn follow_the_outbox(client: Client, sender: WeakUnboundedSender<Msg>) {
    let Some(outbox) = client.outbox() else {
        return;
    };
    // The version is read before the writes: a change between the two is seen again next time.
    let mut version = outbox.in_background(Outbox::changes_elsewhere).await.ok();
    let mut seen = waiting_writes(&outbox).await;
    loop {
        tokio::time::sleep(OUTBOX_LOOK).await;
        let Some(sender) = sender.upgrade().filter(|sender| !sender.is_closed()) else {
            break;
        };
        let Ok(now) = outbox.in_background(Outbox::changes_elsewhere).await else {
            continue;
        };
        if version.replace(now) == Some(now) {
            continue;
        }
        let writes = waiting_writes(&outbox).await;
        if writes.is_some() && writes != seen {
            let waiting = writes.as_ref().map_or(0, Vec::len);
            let _ = sender.send(Msg::OutboxChangedElsewhere(waiting));
            seen = writes;
        }
    }
}

/// The writes waiting, by id and whether they were tried: what another quire's sends change.
async fn waiting_writes(outbox: &std::sync::Arc<Outbox>) -> Option<Vec<(i64, bool)>> {
    let writes = outbox.in_background(Outbox::list).await.ok()?;
    Some(writes.iter().map(|w| (w.id, w.attempted)).collect())
}

/// Pages fetched of each list behind an organization's tree before the tree is shown as it is,
/// with a "stopped after N pages" note: 20 pages of 1000 is beyond any real organization, and a
/// server whose `next` never ends costs a fraction of a second instead of a long wait.
pub const TREE_MAX_PAGES: usize = 20;

/// Performs one call. Independent requests run in parallel. `turn` is the outbox's one send at
/// a time, shared by every call of one quire (see [`Executor`]).
pub async fn call_api(client: &Client, turn: &SendTurn, call: ApiCall) -> ApiResponse {
    match call {
        ApiCall::ListOrganizations { page } => {
            crate::runtime::calls::organizations::list_organizations(client, page).await
        }
        ApiCall::OrganizationTree { organization } => {
            crate::runtime::calls::organizations::organization_tree(client, &organization).await
        }
        ApiCall::ListPages { space } => {
            crate::runtime::calls::pages::list_pages(client, &space).await
        }
        ApiCall::GetPageMarkdown { space, page } => {
            crate::runtime::calls::pages::page_markdown(client, &space, &page).await
        }
        ApiCall::ChangeRequests(call) => ApiResponse::ChangeRequests(
            crate::runtime::calls::change_requests::call_change_requests(client, call).await,
        ),
        ApiCall::Sites(call) => {
            ApiResponse::Sites(crate::runtime::calls::sites::call_sites(client, call).await)
        }
        ApiCall::Search(call) => {
            ApiResponse::Search(crate::runtime::calls::search::call_search(client, call).await)
        }
        ApiCall::Links(call) => {
            ApiResponse::Links(crate::runtime::calls::links::call_links(client, call).await)
        }
        ApiCall::Files(call) => {
            ApiResponse::Files(crate::runtime::calls::files::call_files(client, call).await)
        }
        ApiCall::Collections(call) => ApiResponse::Collections(
            crate::runtime::calls::collections::call_collections(client, call).await,
        ),
        ApiCall::Spaces(call) => {
            ApiResponse::Spaces(crate::runtime::calls::spaces::call_spaces(client, call).await)
        }
        ApiCall::Git(call) => {
            ApiResponse::Git(crate::runtime::calls::git::call_git(client, call).await)
        }
        ApiCall::Outbox(call) => ApiResponse::Outbox(
            crate::runtime::calls::outbox::call_outbox(client, turn, call).await,
        ),
        ApiCall::Members(call) => {
            ApiResponse::Members(crate::runtime::calls::members::call_members(client, call).await)
        }
        ApiCall::Teams(call) => {
            ApiResponse::Teams(crate::runtime::calls::teams::call_teams(client, call).await)
        }
        ApiCall::Sso(call) => {
            ApiResponse::Sso(crate::runtime::calls::sso::call_sso(client, call).await)
        }
        ApiCall::OrgSettings(call) => ApiResponse::OrgSettings(
            crate::runtime::calls::org_settings::call_org_settings(client, call).await,
        ),
        ApiCall::Translations(call) => ApiResponse::Translations(
            crate::runtime::calls::translations::call_translations(client, call).await,
        ),
        ApiCall::OpenApi(call) => {
            ApiResponse::OpenApi(crate::runtime::calls::openapi::call_openapi(client, call).await)
        }
        ApiCall::Conversations(call) => ApiResponse::Conversations(
            crate::runtime::calls::conversations::call_conversations(client, call).await,
        ),
        ApiCall::Integrations(call) => ApiResponse::Integrations(
            crate::runtime::calls::integrations::call_integrations(client, call).await,
        ),
        ApiCall::Reader(call) => {
            ApiResponse::Reader(calls::reader_links::call_reader(client, call).await)
        }
        ApiCall::Home(call) => ApiResponse::Home(calls::home::call_home(client, call).await),
    }
}
