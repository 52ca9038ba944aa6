//! The Elm-style core: `Model` holds everything on screen, `update` applies one `Msg` and returns
//! a `Cmd` describing side effects. Nothing here touches the network or the terminal.

pub mod collections;
pub mod command;
pub mod docs;
pub mod drafts;
pub mod git;
pub mod handoff;
pub mod keymap;
pub mod loadable;
pub mod message;
pub mod paged;
pub mod review_calls;
pub mod sites;
// Finding things: search, links and backlinks, files.
pub mod files;
pub mod links;
pub mod search;
pub mod spaces;
// ── people: members, teams ──
pub mod members;
pub mod teams;

// ── admin: SSO, org settings, agent instructions ──
pub mod org_settings;
pub mod sso;

// ── translations, OpenAPI ──
pub mod openapi;
pub mod translations;

// ── conversations, integrations ──
pub mod conversations;
pub mod integrations;
// ── threads on the diff ──
pub mod review_memory;

// ── command palette ──
pub mod mouse;
pub mod palette;
// ── reader ──
pub mod reader_links;

// ── review flow ──
pub mod action_log;
pub mod watch;

// ── end of the area blocks ──

use std::collections::BTreeSet;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind};

pub use command::{ApiCall, Cmd, DocHandle, DocKey};
pub use docs::DocCache;
pub use keymap::{Action, KeyContext, Keymap};
pub use loadable::{Loadable, RequestId};
pub use message::{ApiResponse, Msg, OrganizationTree};

use crate::api::RetryNotice;
use crate::screens::Screen;
use crate::ui::markdown::RenderOptions;
use crate::ui::notice::{self, Notice};
use crate::ui::theme::Theme;

/// Terminal size in cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Size {
    pub width: u16,
    pub height: u16,
}

/// Hands out request ids; every API call gets a fresh one.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct RequestIds {
    last: u64,
}

impl RequestIds {
    pub fn issue(&mut self) -> RequestId {
        self.last += 1;
        RequestId(self.last)
    }
}

/// What a screen's update wants besides side effects: stay, open another screen, or go back.
#[derive(Debug, Default)]
pub enum Nav {
    #[default]
    Stay,
    Push(Box<Screen>),
    Pop,
    // ── review flow ──
    /// Replace the top screen (`]c`: the next change request instead of this one); the screen
    /// below is told what is shown now, so `esc` lands on it.
    Replace(Box<Screen>),
}

/// The result of a screen handling something.
#[derive(Debug, Default)]
pub struct Step {
    pub cmd: Cmd,
    pub nav: Nav,
}

impl Step {
    pub fn cmd(cmd: Cmd) -> Step {
        Step {
            cmd,
            nav: Nav::Stay,
        }
    }

    pub fn push(screen: Screen) -> Step {
        Step {
            cmd: Cmd::None,
            nav: Nav::Push(Box::new(screen)),
        }
    }

    pub fn pop() -> Step {
        Step {
            cmd: Cmd::None,
            nav: Nav::Pop,
        }
    }
}

/// What every screen's update may read or use besides its own state.
pub struct Ctx<'a> {
    pub requests: &'a mut RequestIds,
    pub size: Size,
    pub docs: &'a mut DocCache,
    pub theme: &'a Theme,
    /// The user's key bindings, for screens that name a key in a sentence ("ctrl-s saves").
    pub keymap: &'a Keymap,
    /// Change requests seen before, so their review paints at once and refreshes behind.
    pub reviews: &'a mut ReviewCache,
    // ── review flow ──
    /// The session's accepted writes, for the action log and its undo.
    pub action_log: &'a mut action_log::ActionLog,
    /// The watch interval, and the header's count that screens keep up to date.
    pub watch: &'a mut watch::Watch,
}

/// The last loaded review of each change request, bounded.
#[derive(Debug, Default)]
pub struct ReviewCache {
    bundles: std::collections::HashMap<review_calls::ChangeRequestRef, review_calls::ReviewBundle>,
    order: std::collections::VecDeque<review_calls::ChangeRequestRef>,
}

impl ReviewCache {
    const CAPACITY: usize = 16;

    pub fn get(&self, key: &review_calls::ChangeRequestRef) -> Option<&review_calls::ReviewBundle> {
        self.bundles.get(key)
    }

    /// To fill in what arrived later (a thread's replies) without cloning the whole review.
    pub fn get_mut(
        &mut self,
        key: &review_calls::ChangeRequestRef,
    ) -> Option<&mut review_calls::ReviewBundle> {
        self.bundles.get_mut(key)
    }

    pub fn insert(
        &mut self,
        key: review_calls::ChangeRequestRef,
        bundle: review_calls::ReviewBundle,
    ) {
        if self.bundles.insert(key.clone(), bundle).is_none() {
            self.order.push_back(key);
        }
        while self.order.len() > Self::CAPACITY {
            if let Some(oldest) = self.order.pop_front() {
                self.bundles.remove(&oldest);
            }
        }
    }
}

/// Settings the app shows to the user (where the token comes from) and uses to render.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Environment {
    /// Where quire is connected, shown in the header ("demo sandbox", "api.gitbook.com").
    pub server_label: String,
    /// Where the config file lives, for the "how to set a token" messages.
    pub config_path: String,
    pub render: RenderOptions,
}

/// Overlays sit above the top screen and get keys first.
#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    Help {
        scroll: u16,
        /// `/` narrows the help to rows whose key or text contains the query.
        filter: crate::ui::input::Filter,
    },
    /// Quitting would lose this work: ask first.
    ConfirmQuit { unsaved: Vec<String> },
}

pub struct Model {
    /// The route stack; never empty. The last screen is on top.
    pub screens: Vec<Screen>,
    pub overlay: Option<Overlay>,
    pub keymap: Keymap,
    pub theme: Theme,
    pub environment: Environment,
    pub size: Size,
    pub requests: RequestIds,
    pub docs: DocCache,
    pub reviews: ReviewCache,
    /// Requests sent and not yet answered: the spinner turns while this is not empty.
    pub in_flight: BTreeSet<RequestId>,
    pub parses_in_flight: usize,
    pub spinner_frame: usize,
    /// A short message in the footer (copied, opened, could not open …), kept by the rule of
    /// `ui::notice`.
    pub toast: Option<Notice>,
    /// Reads waiting to be retried (endpoint, wait), oldest first: the footer shows the first.
    pub retry_waits: Vec<(String, std::time::Instant)>,
    pub quit: bool,
    // ── command palette ──
    /// The command palette, open above everything else.
    pub palette: Option<palette::Palette>,
    /// What was chosen in the palette lately, kept across runs.
    pub palette_history: palette::History,
    /// The last frame's clickable areas and the last click (for double-clicks).
    pub mouse: mouse::MouseState,
    // ── looks and themes ──
    /// Who the token belongs to, as the header names them ("Ada Lovelace"); unknown until
    /// `GET /user` answers, and never the token itself.
    pub signed_in_as: Option<String>,
    // ── review flow ──
    /// Every write of the session the server accepted, with its inverse where one exists.
    pub action_log: action_log::ActionLog,
    /// Watching: the refresh interval and the header's "review requested" count.
    pub watch: watch::Watch,
    /// The first key of a two-key sequence ("]" of "]c"), waiting for the second.
    pub pending_prefix: Option<keymap::KeyCombo>,
}

impl Model {
    pub fn new(first: Screen, environment: Environment, size: Size) -> Model {
        Model {
            screens: vec![first],
            overlay: None,
            keymap: Keymap::default(),
            theme: Theme::default(),
            environment,
            size,
            requests: RequestIds::default(),
            docs: DocCache::default(),
            reviews: ReviewCache::default(),
            in_flight: BTreeSet::new(),
            parses_in_flight: 0,
            spinner_frame: 0,
            toast: None,
            retry_waits: Vec::new(),
            quit: false,
            palette: None,
            palette_history: palette::History::default(),
            mouse: mouse::MouseState::default(),
            // ── looks and themes ──
            signed_in_as: None,
            action_log: action_log::ActionLog::default(),
            watch: watch::Watch::default(),
            pending_prefix: None,
        }
    }

    /// The command that loads the first screen; the runtime runs it before the first key.
    pub fn init(&mut self) -> Cmd {
        let mut ctx = Ctx {
            requests: &mut self.requests,
            size: self.size,
            docs: &mut self.docs,
            theme: &self.theme,
            keymap: &self.keymap,
            reviews: &mut self.reviews,
            action_log: &mut self.action_log,
            watch: &mut self.watch,
        };
        let cmd = match self.screens.last_mut() {
            Some(screen) => screen.enter(&mut ctx),
            None => Cmd::None,
        };
        self.track(&cmd);
        cmd
    }

    pub fn top(&self) -> &Screen {
        // `screens` is never empty: `pop` refuses to remove the last screen.
        &self.screens[self.screens.len() - 1]
    }

    /// True while something is loading: the only time quire wakes up on a timer.
    pub fn is_busy(&self) -> bool {
        !self.in_flight.is_empty() || self.parses_in_flight > 0
    }

    /// The breadcrumb: each screen on the stack by name.
    pub fn breadcrumb(&self) -> Vec<String> {
        self.screens.iter().map(Screen::title).collect()
    }

    /// Leaves the top screen (never the last one) and tells the one below it is shown again.
    fn pop(&mut self) -> Cmd {
        if self.screens.len() <= 1 {
            return Cmd::None;
        }
        self.screens.pop();
        let (mut ctx, screens) = ctx(self);
        match screens.last_mut() {
            Some(screen) => screen.resumed(&mut ctx),
            None => Cmd::None,
        }
    }

    fn track(&mut self, cmd: &Cmd) {
        match cmd {
            Cmd::Api { request, .. } => {
                self.in_flight.insert(*request);
            }
            Cmd::ParseMarkdown { .. }
            | Cmd::ParsePreview { .. }
            | Cmd::HighlightMarkdown { .. } => {
                self.parses_in_flight += 1;
            }
            Cmd::Batch(commands) => commands.iter().for_each(|c| self.track(c)),
            _ => {}
        }
    }

    fn apply_step(&mut self, step: Step) -> Cmd {
        let mut cmd = step.cmd;
        match step.nav {
            Nav::Stay => {}
            Nav::Pop => cmd = Cmd::batch([cmd, self.pop()]),
            Nav::Push(screen) => {
                self.screens.push(*screen);
                let (mut ctx, screens) = ctx(self);
                let enter = screens.last_mut().map_or(Cmd::None, |s| s.enter(&mut ctx));
                cmd = Cmd::batch([cmd, enter]);
            }
            Nav::Replace(screen) => {
                if self.screens.len() > 1 {
                    self.screens.pop();
                }
                if let Screen::Review(review) = screen.as_ref()
                    && let Some(below) = self.screens.last_mut()
                {
                    below.reveal_change_request(&review.target.change_request);
                }
                return self.apply_step(Step {
                    cmd,
                    nav: Nav::Push(screen),
                });
            }
        }
        cmd
    }
}

/// Applies a motion (up, down, half a page, a page, top, bottom) to a list's selection.
/// Returns false for any other action, so screens can use it as a match guard.
pub fn move_selection(
    selection: &mut crate::ui::list::Selection,
    action: Action,
    len: usize,
    page: isize,
) -> bool {
    match action {
        Action::Down => selection.move_by(1, len),
        Action::Up => selection.move_by(-1, len),
        Action::HalfPageDown => selection.move_by(page / 2, len),
        Action::HalfPageUp => selection.move_by(-page / 2, len),
        Action::PageDown => selection.move_by(page, len),
        Action::PageUp => selection.move_by(-page, len),
        Action::Top => selection.top(),
        Action::Bottom => selection.bottom(len),
        _ => return false,
    }
    true
}

/// Applies one message. Returns what the runtime should do next.
pub fn update(model: &mut Model, msg: Msg) -> Cmd {
    let cmd = match msg {
        Msg::Key(key) => on_key(model, key),
        Msg::Paste(text) => on_paste(model, &text),
        Msg::Resize { width, height } => on_resize(model, Size { width, height }),
        Msg::Tick => {
            model.spinner_frame = model.spinner_frame.wrapping_add(1);
            Cmd::None
        }
        Msg::Resumed => Cmd::None,
        Msg::BrowserFailed { url, reason } => {
            // Over SSH there is often no browser to open: a web address still reaches the user
            // through the clipboard. Anything else was refused on purpose and is not copied.
            if url.starts_with("https://") || url.starts_with("http://") {
                model.toast = Some(Notice::error(format!(
                    "Could not open a browser ({reason}); the address is copied instead \
                     (where the terminal allows): {url}"
                )));
                Cmd::CopyToClipboard(url)
            } else {
                model.toast = Some(Notice::error(format!("Not opened: {reason}")));
                Cmd::None
            }
        }
        Msg::Api { request, response } => on_api(model, request, response),
        Msg::Retry(notice) => {
            on_retry_notice(model, notice);
            Cmd::None
        }
        Msg::MarkdownParsed {
            key,
            doc,
            highlighted,
        } => on_markdown(model, key, doc, highlighted),
        Msg::Timer(id) => on_timer(model, id),
        Msg::DraftsLoaded { prefix, drafts } => {
            let (mut ctx, screens) = ctx(model);
            match screens.last_mut() {
                Some(screen) => screen.on_drafts(&prefix, &drafts, &mut ctx),
                None => Cmd::None,
            }
        }
        Msg::EditedExternally { key, text } => {
            let (mut ctx, screens) = ctx(model);
            match screens.last_mut() {
                Some(screen) => screen.on_external_edit(&key, text, &mut ctx),
                None => Cmd::None,
            }
        }
        // ── command palette ──
        Msg::Mouse { event, at } => mouse::on_mouse(model, event, at),
        // ── looks and themes ──
        Msg::SignedInAs(user) => {
            model.signed_in_as = who_for_header(&user);
            Cmd::None
        }
    };
    model.track(&cmd);
    cmd
}

fn ctx(model: &mut Model) -> (Ctx<'_>, &mut Vec<Screen>) {
    (
        Ctx {
            requests: &mut model.requests,
            size: model.size,
            docs: &mut model.docs,
            theme: &model.theme,
            keymap: &model.keymap,
            reviews: &mut model.reviews,
            action_log: &mut model.action_log,
            watch: &mut model.watch,
        },
        &mut model.screens,
    )
}

fn on_key(model: &mut Model, key: KeyEvent) -> Cmd {
    if key.kind == KeyEventKind::Release {
        return Cmd::None;
    }
    notice::on_key(&mut model.toast);
    if model.palette.is_some() {
        return on_palette_key(model, &key);
    }
    if let Some(overlay) = model.overlay.clone() {
        return on_overlay_key(model, key, overlay);
    }
    // A screen with a text input open sees raw keys first.
    let keymap = model.keymap.clone();
    let (mut screen_ctx, screens) = ctx(model);
    let Some(screen) = screens.last_mut() else {
        return Cmd::None;
    };
    if let Some(step) = screen.on_raw_key(&key, &mut screen_ctx) {
        return model.apply_step(step);
    }
    let mut contexts = screen.key_contexts().to_vec();
    contexts.push(KeyContext::Global);
    // ── review flow: two-key sequences ──
    let action = match model.pending_prefix.take() {
        Some(first) => keymap.sequence_action(&contexts, first, &key).or_else(|| {
            keymap
                .action_for(&contexts, &key)
                .filter(|a| *a != Action::Back)
        }),
        None if keymap.starts_sequence(&contexts, &key) => {
            model.pending_prefix = Some(keymap::KeyCombo::from_event(&key));
            return Cmd::None;
        }
        None => keymap.action_for(&contexts, &key),
    };
    let Some(action) = action else {
        return Cmd::None;
    };
    run_action(model, action)
}

/// Does what a key bound to `action` does on the screen on top: the palette and the mouse
/// come here too, so they act exactly like the keys.
pub(crate) fn run_action(model: &mut Model, action: Action) -> Cmd {
    // While a read waits to be retried, `r` cuts the wait short instead of sending it again.
    // A wait can also belong to a read no screen tracks (the header's `GET /user`): when
    // nothing tracked is under way, the screen's own load has ended (failed) and `r` must
    // reload it too, or it would only hurry a read the user is not looking at.
    if action == Action::Refresh && !model.retry_waits.is_empty() {
        if !model.in_flight.is_empty() {
            return Cmd::RetryNow;
        }
        let refresh = on_global_action(model, Action::Refresh);
        return Cmd::Batch(vec![Cmd::RetryNow, refresh]);
    }
    // `esc` dismisses an error in the footer before it means "back".
    if action == Action::Back && notice::dismiss_error(&mut model.toast) {
        return Cmd::None;
    }
    let (mut screen_ctx, screens) = ctx(model);
    let Some(screen) = screens.last_mut() else {
        return Cmd::None;
    };
    if let Some(step) = screen.on_action(action, &mut screen_ctx) {
        return model.apply_step(step);
    }
    on_global_action(model, action)
}

fn on_retry_notice(model: &mut Model, notice: RetryNotice) {
    match notice {
        RetryNotice::Waiting { endpoint, delay } => {
            // Kept as a deadline, so the footer counts down as the spinner redraws it.
            model
                .retry_waits
                .push((endpoint, std::time::Instant::now() + delay));
        }
        RetryNotice::Resumed { endpoint } => {
            if let Some(at) = model
                .retry_waits
                .iter()
                .position(|(waiting, _)| *waiting == endpoint)
            {
                model.retry_waits.remove(at);
            }
        }
    }
}

/// Actions no screen claimed.
fn on_global_action(model: &mut Model, action: Action) -> Cmd {
    match action {
        Action::Quit => {
            let unsaved: Vec<String> = model
                .screens
                .iter()
                .filter_map(Screen::unsaved_work)
                .collect();
            if unsaved.is_empty() {
                model.quit = true;
                Cmd::Quit
            } else {
                model.overlay = Some(Overlay::ConfirmQuit { unsaved });
                Cmd::None
            }
        }
        Action::Help => {
            model.overlay = Some(Overlay::Help {
                scroll: 0,
                filter: crate::ui::input::Filter::default(),
            });
            Cmd::None
        }
        Action::Back => model.pop(),
        Action::Suspend => Cmd::Suspend,
        // ── review flow ──
        Action::ActionLogView => {
            if matches!(model.top(), Screen::ActionLog(_)) {
                return Cmd::None;
            }
            let screen = Screen::ActionLog(crate::screens::action_log::ActionLogScreen::default());
            model.apply_step(Step::push(screen))
        }
        Action::Refresh => {
            let (mut ctx, screens) = ctx(model);
            match screens.last_mut() {
                Some(screen) => screen.refresh(&mut ctx),
                None => Cmd::None,
            }
        }
        Action::CopyLink => match model.top().link() {
            Some(link) => {
                model.toast = Some(Notice::info(format!("Copied {link}")));
                Cmd::CopyToClipboard(link)
            }
            None => {
                model.toast = Some(Notice::info("Nothing to copy here"));
                Cmd::None
            }
        },
        Action::OpenInBrowser => match model.top().link() {
            Some(link) => {
                model.toast = Some(Notice::info(format!("Opening {link}")));
                Cmd::OpenInBrowser(link)
            }
            None => {
                model.toast = Some(Notice::info("Nothing to open here"));
                Cmd::None
            }
        },
        // ── command palette ──
        Action::CommandPalette => {
            model.overlay = None;
            model.palette = Some(palette::Palette::open(model));
            Cmd::None
        }
        _ => Cmd::None,
    }
}

// ── command palette ──
/// Keys while the palette is open: typing narrows, arrows choose, enter runs, esc closes.
fn on_palette_key(model: &mut Model, key: &KeyEvent) -> Cmd {
    use crate::ui::input::InputOutcome;
    use ratatui::crossterm::event::KeyModifiers;
    let Some(palette) = model.palette.as_mut() else {
        return Cmd::None;
    };
    let len = palette.shown.len();
    let control = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Esc => model.palette = None,
        KeyCode::Char('c') if control => model.palette = None,
        KeyCode::Enter => return choose_in_palette(model),
        KeyCode::Up => palette.selection.move_by(-1, len),
        KeyCode::Down => palette.selection.move_by(1, len),
        KeyCode::Char('p') if control => palette.selection.move_by(-1, len),
        KeyCode::Char('n') if control => palette.selection.move_by(1, len),
        KeyCode::PageUp => palette.selection.move_by(-10, len),
        KeyCode::PageDown => palette.selection.move_by(10, len),
        _ => {
            if palette.input.handle_key(key) == InputOutcome::Changed {
                palette.refilter(&model.palette_history);
            }
        }
    }
    Cmd::None
}

/// Runs the entry selected in the palette and remembers it.
fn choose_in_palette(model: &mut Model) -> Cmd {
    let Some(entry) = model.palette.take().and_then(|p| p.chosen().cloned()) else {
        return Cmd::None;
    };
    let save = model.palette_history.remember(&entry.id);
    let run = match entry.kind {
        palette::EntryKind::Action(action) => run_action(model, action),
        palette::EntryKind::GoTo { owner, target } => go_to(model, owner, *target),
        palette::EntryKind::Search { scope, query } => {
            let screen = crate::screens::search::SearchScreen::with_query(scope, &query);
            model.apply_step(Step::push(Screen::Search(screen)))
        }
    };
    Cmd::batch([save, run])
}

/// Opens a place found in screen `owner`: the screens above the owner give way (unless one
/// holds unsaved work) and the screens a user would open from it are pushed, so `esc` walks
/// back the way a user would have come.
fn go_to(model: &mut Model, owner: usize, target: palette::Target) -> Cmd {
    // Already open just above its owner: go back to it rather than open it again.
    let open = model
        .screens
        .get(owner + 1)
        .is_some_and(|screen| target.is_shown_by(screen));
    let owner = if open { owner + 1 } else { owner };
    let above = model.screens.get(owner + 1..).unwrap_or_default();
    let mut cmd = Cmd::None;
    if !above.is_empty() && above.iter().all(|screen| screen.unsaved_work().is_none()) {
        model.screens.truncate(owner + 1);
        let (mut screen_ctx, screens) = ctx(model);
        if let Some(screen) = screens.last_mut() {
            cmd = screen.resumed(&mut screen_ctx);
        }
    }
    if let (palette::Target::Collection(id), Some(Screen::Organization(organization))) =
        (&target, model.screens.get_mut(owner))
    {
        organization.reveal_collection(id);
    }
    if open {
        return cmd;
    }
    for screen in target.screens() {
        let push = model.apply_step(Step::push(screen));
        cmd = Cmd::batch([cmd, push]);
    }
    cmd
}

fn on_overlay_key(model: &mut Model, key: KeyEvent, overlay: Overlay) -> Cmd {
    let action = model
        .keymap
        .action_for(&[KeyContext::Reader, KeyContext::Global], &key);
    match overlay {
        Overlay::ConfirmQuit { .. } => {
            model.overlay = None;
            if matches!(key.code, KeyCode::Char('y')) {
                model.quit = true;
                return Cmd::Quit;
            }
            Cmd::None
        }
        Overlay::Help { scroll, mut filter } => {
            // Typing a query: every key goes to it; enter keeps it, esc clears it.
            if filter.is_typing() {
                filter.handle_key(&key);
                model.overlay = Some(Overlay::Help { scroll: 0, filter });
                return Cmd::None;
            }
            if key.code == KeyCode::Char('/') && key.modifiers.is_empty() {
                filter.open();
                model.overlay = Some(Overlay::Help { scroll: 0, filter });
                return Cmd::None;
            }
            // `esc` clears a query in force before it closes the help.
            if action == Some(Action::Back) && filter.is_shown() {
                filter.clear();
                model.overlay = Some(Overlay::Help { scroll: 0, filter });
                return Cmd::None;
            }
            let last = crate::ui::chrome::help_max_scroll(model);
            let page = crate::ui::chrome::help_visible_rows(model).max(1);
            let scroll = match action {
                Some(Action::Down) => scroll.saturating_add(1),
                Some(Action::Up) => scroll.saturating_sub(1),
                Some(Action::PageDown) => scroll.saturating_add(page),
                Some(Action::HalfPageDown) => scroll.saturating_add(page / 2),
                Some(Action::PageUp) => scroll.saturating_sub(page),
                Some(Action::HalfPageUp) => scroll.saturating_sub(page / 2),
                Some(Action::Top) => 0,
                Some(Action::Bottom) => last,
                Some(Action::Quit) if key.code != KeyCode::Char('q') => {
                    model.quit = true;
                    return Cmd::Quit;
                }
                Some(Action::Help | Action::Back | Action::Quit) => {
                    model.overlay = None;
                    return Cmd::None;
                }
                _ => scroll,
            };
            model.overlay = Some(Overlay::Help {
                scroll: scroll.min(last),
                filter,
            });
            Cmd::None
        }
    }
}

fn on_paste(model: &mut Model, text: &str) -> Cmd {
    // ── command palette ──
    if let Some(palette) = model.palette.as_mut() {
        // One line: a pasted line break must not run anything.
        let line: String = text.chars().filter(|c| !c.is_control()).collect();
        palette.input.insert_str(&line);
        palette.refilter(&model.palette_history);
        return Cmd::None;
    }
    if let Some(Overlay::Help { filter, .. }) = model.overlay.as_mut() {
        filter.paste(text);
        return Cmd::None;
    }
    let (mut ctx, screens) = ctx(model);
    match screens.last_mut() {
        Some(screen) => screen.on_paste(text, &mut ctx),
        None => Cmd::None,
    }
}

fn on_resize(model: &mut Model, size: Size) -> Cmd {
    model.size = size;
    let (mut ctx, screens) = ctx(model);
    for screen in screens.iter_mut() {
        screen.on_resize(&mut ctx);
    }
    Cmd::None
}

fn on_api(model: &mut Model, request: RequestId, response: ApiResponse) -> Cmd {
    model.in_flight.remove(&request);
    let (mut ctx, screens) = ctx(model);
    // Results go to whichever screen on the stack waits for them; the others are stale.
    for index in (0..screens.len()).rev() {
        if let Some(step) = screens[index].on_response(request, &response, &mut ctx) {
            return if index + 1 == screens.len() {
                model.apply_step(step)
            } else {
                step.cmd
            };
        }
    }
    tracing::debug!(?request, "dropped a stale response");
    Cmd::None
}

/// A timer goes to whichever screen on the stack set it; the others' are stale.
fn on_timer(model: &mut Model, id: RequestId) -> Cmd {
    let (mut ctx, screens) = ctx(model);
    for index in (0..screens.len()).rev() {
        if let Some(step) = screens[index].on_timer(id, &mut ctx) {
            return if index + 1 == screens.len() {
                model.apply_step(step)
            } else {
                step.cmd
            };
        }
    }
    Cmd::None
}

// ── looks and themes ──
/// The name the header shows for a user: the display name, else the email's part before `@`,
/// sanitized; `None` when the server gave neither.
fn who_for_header(user: &crate::api::models::User) -> Option<String> {
    let name = user.display_name.trim();
    let name = if name.is_empty() {
        let email = user.email.as_deref().unwrap_or("");
        email.split('@').next().unwrap_or("").trim()
    } else {
        name
    };
    let name = crate::ui::sanitize::sanitize(name).trim().to_string();
    (!name.is_empty()).then_some(name)
}

fn on_markdown(model: &mut Model, key: DocKey, doc: DocHandle, highlighted: bool) -> Cmd {
    model.parses_in_flight = model.parses_in_flight.saturating_sub(1);
    model.docs.insert(key.clone(), doc.0.clone(), highlighted);
    let (mut ctx, screens) = ctx(model);
    for screen in screens.iter_mut() {
        screen.on_document(&key, &mut ctx);
    }
    if highlighted {
        Cmd::None
    } else {
        Cmd::HighlightMarkdown { key, doc }
    }
}
