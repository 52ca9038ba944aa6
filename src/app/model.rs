//! The model: the route stack, the overlay and palette above it, and what every screen shares
//! (request ids, the document and review caches, the keymap, the theme).

use std::collections::{BTreeMap, BTreeSet};

use super::update::ctx;
use super::{
    Cmd, DocCache, Keymap, Nav, Overlay, RequestId, RequestIds, Step, keymap, mouse, palette,
};
use crate::screens::Screen;
use crate::ui::keymap::Action;
use crate::ui::markdown::RenderOptions;
use crate::ui::notice::Notice;
use crate::ui::theme::Theme;
use crate::vocabulary::{ReviewCache, Size, action_log, watch};

/// Settings the app shows to the user (where the token comes from) and uses to render.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Environment {
    /// Where quire is connected, shown in the header ("demo sandbox", "api.gitbook.com").
    pub server_label: String,
    /// Where the config file lives, for the "how to set a token" messages.
    pub config_path: String,
    pub render: RenderOptions,
    /// What dates are measured from ("3 days ago"): the real clock, pinned in snapshots.
    pub clock: crate::ui::time::Clock,
}

pub struct Model {
    /// The route stack; never empty. The last screen is on top.
    pub screens: Vec<Screen>,
    /// Home's sections (the config file's, or the defaults), for a Home opened by `~`.
    pub home_sections: Vec<crate::api::home::SectionQuery>,
    /// `W` asked to mark or unmark a change request to watch (see `app::watch_marks`).
    pub watch_mark_asked: Option<super::watch_marks::MarkAsked>,
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
    /// The command palette, open above everything else.
    pub palette: Option<palette::Palette>,
    /// What was chosen in the palette lately, kept across runs.
    pub palette_history: palette::History,
    /// The last frame's clickable areas and the last click (for double-clicks).
    pub mouse: mouse::MouseState,
    /// Who the token belongs to, as the header names them ("Ada Lovelace"); unknown until
    /// `GET /user` answers, and never the token itself.
    pub signed_in_as: Option<String>,
    /// Every write of the session the server accepted, with its inverse where one exists.
    pub action_log: action_log::ActionLog,
    /// Watching: the refresh interval and the header's "review requested" count.
    pub watch: watch::Watch,
    /// The first key of a two-key sequence ("]" of "]c"), waiting for the second.
    pub pending_prefix: Option<keymap::KeyCombo>,
    /// The messages shown lately (footer and screen), for the popup that shows them whole.
    pub messages: crate::ui::notice::History,
    /// What this server was found not to offer: those keys are struck through.
    pub lacking: crate::vocabulary::capabilities::Lacking,
    /// The other profiles of the config file, offered in the palette.
    pub profiles: Vec<String>,
    /// The profile chosen to switch to: quire ends the loop and starts again with it.
    pub switch_profile: Option<String>,
    /// Whether the server can be reached, and how old the cached answers shown are.
    pub offline: crate::app::offline::OfflineState,
    /// How many writes wait in the outbox, and whether they go when the server is back.
    pub outbox: crate::vocabulary::outbox::OutboxState,
    /// Drafts whose last save failed, with why: a screen then says the draft is not kept.
    pub unsaved_drafts: BTreeMap<String, String>,
}

impl Model {
    pub fn new(first: Screen, environment: Environment, size: Size) -> Model {
        Model {
            screens: vec![first],
            home_sections: crate::api::home::default_sections(),
            watch_mark_asked: None,
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
            signed_in_as: None,
            action_log: action_log::ActionLog::default(),
            watch: watch::Watch::default(),
            pending_prefix: None,
            messages: crate::ui::notice::History::default(),
            lacking: crate::vocabulary::capabilities::Lacking::default(),
            profiles: Vec::new(),
            switch_profile: None,
            offline: crate::app::offline::OfflineState::default(),
            outbox: crate::vocabulary::outbox::OutboxState::default(),
            unsaved_drafts: BTreeMap::new(),
        }
    }

    /// What a screen draws with this frame: the widgets' look and the log of writes.
    pub fn look(&self) -> crate::screens::look::Look<'_> {
        crate::screens::look::Look {
            widgets: self.widget_look(),
            action_log: &self.action_log,
        }
    }

    /// What the widgets draw with: colours, key names, parsed pages, the config file's path.
    pub fn widget_look(&self) -> crate::ui::look::Look<'_> {
        crate::ui::look::Look {
            theme: &self.theme,
            keymap: &self.keymap,
            docs: &self.docs,
            config_path: &self.environment.config_path,
            clock: self.environment.clock,
        }
    }

    /// The key that shows the last messages whole, for the hint a cut message ends with.
    pub fn message_key(&self) -> Option<String> {
        self.keymap
            .label(&[keymap::KeyContext::Global], keymap::Action::ShowMessage)
    }

    /// Notes the messages on screen now (the footer's and the top screen's) in the history.
    pub(super) fn note_messages(&mut self) {
        let mut now: Vec<Notice> = self.toast.iter().cloned().collect();
        now.extend(self.top().messages());
        self.messages.saw(now);
    }

    /// The command that loads the first screen; the runtime runs it before the first key.
    pub fn init(&mut self) -> Cmd {
        let (mut ctx, screens) = ctx(self);
        let cmd = match screens.last_mut() {
            Some(screen) => screen.enter(&mut ctx),
            None => Cmd::None,
        };
        self.track(&cmd);
        cmd
    }

    /// The instant views measure relative dates from.
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.environment.clock.now()
    }

    pub fn top(&self) -> &Screen {
        // `screens` is never empty: `pop` refuses to remove the last screen.
        &self.screens[self.screens.len() - 1]
    }

    /// Why `action` cannot work on the screen on top because this server lacks what it needs.
    pub fn lacking_reason(&self, action: Action) -> Option<String> {
        if self.lacking.is_empty() {
            return None;
        }
        let needed = self.top().needed_area(action)?;
        self.lacking.reason(needed)
    }

    /// The keys struck through on the screen on top: refused by the screen, or needing what
    /// this server lacks.
    pub fn disabled_actions(&self) -> Vec<Action> {
        let mut disabled = self.top().disabled_actions();
        if !self.lacking.is_empty() {
            disabled.extend(
                Action::ALL
                    .iter()
                    .copied()
                    .filter(|action| !disabled.contains(action))
                    .filter(|action| {
                        let needed = self.top().needed_area(*action);
                        needed.is_some_and(|needed| self.lacking.lack(needed).is_some())
                    })
                    .collect::<Vec<_>>(),
            );
        }
        disabled
    }

    /// Why a struck-through key is refused, for `?` to show under it.
    pub fn disabled_reason(&self, action: Action) -> Option<String> {
        let lacking = self
            .top()
            .needed_area(action)
            .and_then(|needed| self.lacking.short_reason(needed));
        lacking.or_else(|| self.top().disabled_reason(action, self.now()))
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
    pub(super) fn pop(&mut self) -> Cmd {
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

    pub(super) fn track(&mut self, cmd: &Cmd) {
        match cmd {
            Cmd::Api { request, call } => {
                let quiet =
                    matches!(call, crate::vocabulary::ApiCall::Home(home) if home.is_quiet());
                if !quiet {
                    self.in_flight.insert(*request);
                }
                let place = self.top().title();
                self.action_log.sent(*request, call, &place);
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

    pub(super) fn apply_step(&mut self, step: Step) -> Cmd {
        let mut cmd = step.cmd;
        match step.nav {
            Nav::Stay => {}
            Nav::Pop => cmd = Cmd::batch([cmd, self.pop()]),
            Nav::Open(route) => {
                return self.apply_step(Step {
                    cmd,
                    nav: Nav::Push(Box::new(super::routes::screen_of(*route))),
                });
            }
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
