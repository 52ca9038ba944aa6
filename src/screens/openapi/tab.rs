//! The organization's OpenAPI tab: every stored spec with its slug, visibility,
//! processing state, when it was last processed and how many errors that found (their
//! messages in the details pane). `n` creates one from a URL (slug and address checked as they
//! are typed), `u` gives it a new source, `v` makes it public or private (asks first), `d`
//! deletes it (asks first), `enter` opens its versions. While a spec is being processed the
//! list is read again every few seconds, so its state follows.

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use super::VersionsScreen;
use crate::api::error::server_message;
use crate::api::models::{OpenApiSpec, Organization, ProcessingState, SpecVisibility};
use crate::api::{ApiError, WholeList, slug_problem, source_url_problem};
use crate::screens::Screen;
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::organization::pane::notice_modal_esc;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::hit::Canvas;
use crate::ui::input::InputOutcome;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::Notice;
use crate::ui::prompt::{Prompt, TextCheck};
use crate::vocabulary::openapi::{OpenApiCall, OpenApiResponse};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

/// What a prompt of this tab asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecText {
    /// The slug of a new spec.
    Slug,
    /// The source address of the new spec `slug`.
    NewSource { slug: String },
    /// A new source address for the existing spec `slug`.
    Replace { slug: String },
}

impl TextCheck for SpecText {
    fn check(&self, text: &str) -> Option<String> {
        match self {
            SpecText::Slug => slug_problem(text),
            SpecText::NewSource { .. } | SpecText::Replace { .. } => source_url_problem(text),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Confirmed {
    Visibility {
        slug: String,
        visibility: SpecVisibility,
    },
    Delete {
        slug: String,
    },
}

#[derive(Debug)]
pub enum Modal {
    Prompt(Prompt<SpecText>),
    Confirm(Confirm, Confirmed),
}

#[derive(Debug)]
pub struct OpenApiTab {
    pub organization: Organization,
    pub specs: Loadable<WholeList<OpenApiSpec>>,
    pub selection: Selection,
    pub modal: Option<Modal>,
    pub notice: Option<Notice>,
    /// The write in flight and what to say when it succeeds.
    pending: Option<(RequestId, String)>,
    select_after_reload: Option<String>,
    /// The timer that reloads the list while a spec is being processed.
    poll: Option<RequestId>,
}

/// How often the list is read again while a spec is being processed.
pub const POLL_INTERVAL: std::time::Duration = std::time::Duration::from_secs(2);

pub fn new(organization: &Organization) -> OpenApiTab {
    OpenApiTab {
        organization: organization.clone(),
        specs: Loadable::NotAsked,
        selection: Selection::default(),
        modal: None,
        notice: None,
        pending: None,
        select_after_reload: None,
        poll: None,
    }
}

/// True while the service is still working on the spec's last source.
pub fn is_processing(spec: &OpenApiSpec) -> bool {
    matches!(
        spec.processing_state,
        ProcessingState::Pending | ProcessingState::Progress
    )
}

impl OpenApiTab {
    pub fn list(&self) -> &[OpenApiSpec] {
        self.specs
            .value()
            .map_or(&[], |listed| listed.items.as_slice())
    }

    pub fn selected(&self) -> Option<&OpenApiSpec> {
        self.list().get(self.selection.selected)
    }

    pub fn is_sending(&self) -> bool {
        self.pending.is_some()
    }

    /// Why creating is refused, or `None`.
    pub fn create_refusal(&self) -> Option<String> {
        let permissions = &self.organization.permissions;
        (!permissions.admin && !permissions.create_open_api_spec).then(|| {
            format!(
                "you may not add OpenAPI specs to {}; the admin role is needed",
                self.organization.title
            )
        })
    }

    /// Why changing the selected spec is refused, or `None`.
    pub fn change_refusal(&self) -> Option<String> {
        let spec = self.selected()?;
        (!spec.permissions.edit).then(|| {
            format!(
                "you may not change “{}”; the admin role is needed",
                spec.slug
            )
        })
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.specs.start(request);
        Cmd::Api {
            request,
            call: ApiCall::OpenApi(OpenApiCall::List {
                organization: self.organization.id.clone(),
            }),
        }
    }

    fn send(&mut self, call: OpenApiCall, done: String, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.pending = Some((request, done));
        Cmd::Api {
            request,
            call: ApiCall::OpenApi(call),
        }
    }

    /// Refuses (with the reason in the notice) when `refusal` says so or a write is in flight.
    fn refused(&mut self, refusal: Option<String>) -> bool {
        let blocked = crate::screens::translations::tab::write_blocked(refusal, self.is_sending());
        let refused = blocked.is_some();
        if refused {
            self.notice = blocked;
        }
        refused
    }

    fn on_action_key(&mut self, action: Action) -> Option<Cmd> {
        match action {
            Action::Create => {
                if !self.refused(self.create_refusal()) {
                    self.modal = Some(Modal::Prompt(Prompt::new(
                        "New OpenAPI spec: its slug",
                        "letters, digits, single hyphens; 1–100",
                        "",
                        SpecText::Slug,
                    )));
                }
            }
            Action::ReplaceSource => {
                let spec = self.selected()?.clone();
                if !self.refused(self.change_refusal()) {
                    self.modal = Some(Modal::Prompt(Prompt::new(
                        &format!("New source of “{}”", spec.slug),
                        "an http(s) address of the spec; it is processed again",
                        spec.source_url.as_deref().unwrap_or_default(),
                        SpecText::Replace { slug: spec.slug },
                    )));
                }
            }
            Action::ToggleVisibility => {
                let spec = self.selected()?.clone();
                if !self.refused(self.change_refusal()) {
                    let (visibility, question, consequence) = if spec.is_public() {
                        (
                            SpecVisibility::Private,
                            format!("Make “{}” private?", spec.slug),
                            "Its public link stops working.",
                        )
                    } else {
                        (
                            SpecVisibility::Public,
                            format!("Make “{}” public?", spec.slug),
                            "Anyone with its public link can read it.",
                        )
                    };
                    let verb = format!("make {visibility}");
                    self.modal = Some(Modal::Confirm(
                        Confirm::new(question, consequence, verb),
                        Confirmed::Visibility {
                            slug: spec.slug,
                            visibility,
                        },
                    ));
                }
            }
            Action::Delete => {
                let spec = self.selected()?.clone();
                if !self.refused(self.change_refusal()) {
                    self.modal = Some(Modal::Confirm(
                        Confirm::new(
                            format!("Delete the OpenAPI spec “{}”?", spec.slug),
                            "Its versions go with it; pages built from it lose their source.",
                            "delete",
                        ),
                        Confirmed::Delete { slug: spec.slug },
                    ));
                }
            }
            _ => return None,
        }
        Some(Cmd::None)
    }

    /// A key while a popup is open (taken out of `modal`; put back while it stays open).
    fn on_modal_key(&mut self, modal: Modal, key: &KeyEvent, ctx: &mut Ctx) -> Step {
        match modal {
            Modal::Prompt(prompt) => Step::cmd(self.on_prompt_key(prompt, key, ctx)),
            Modal::Confirm(confirm, then) => {
                let cmd = match confirm.handle_key(key) {
                    ConfirmOutcome::Confirmed => self.confirmed(then, ctx),
                    ConfirmOutcome::Cancelled => Cmd::None,
                    ConfirmOutcome::Ignored => {
                        self.modal = Some(Modal::Confirm(confirm, then));
                        Cmd::None
                    }
                };
                Step::cmd(cmd)
            }
        }
    }

    fn on_prompt_key(
        &mut self,
        mut prompt: Prompt<SpecText>,
        key: &KeyEvent,
        ctx: &mut Ctx,
    ) -> Cmd {
        match prompt.input.handle_key(key) {
            InputOutcome::Submitted => {
                if let Some(problem) = prompt.error() {
                    self.notice = Some(Notice::error(problem));
                    self.modal = Some(Modal::Prompt(prompt));
                    return Cmd::None;
                }
                let text = prompt.input.text.trim().to_string();
                let organization = self.organization.id.clone();
                match prompt.purpose {
                    SpecText::Slug => {
                        self.modal = Some(Modal::Prompt(Prompt::new(
                            &format!("Source of “{text}”"),
                            "an http(s) address of the spec (JSON or YAML)",
                            "https://",
                            SpecText::NewSource { slug: text },
                        )));
                    }
                    SpecText::NewSource { slug } => {
                        self.select_after_reload = Some(slug.clone());
                        let done = format!("Created “{slug}”: it is being processed.");
                        let call = OpenApiCall::Create {
                            organization,
                            slug,
                            url: text,
                        };
                        return self.send(call, done, ctx);
                    }
                    SpecText::Replace { slug } => {
                        let done = format!("New source for “{slug}”: it is processed again.");
                        let call = OpenApiCall::Replace {
                            organization,
                            slug,
                            url: text,
                        };
                        return self.send(call, done, ctx);
                    }
                }
            }
            InputOutcome::Cancelled => {}
            _ => self.modal = Some(Modal::Prompt(prompt)),
        }
        Cmd::None
    }

    fn confirmed(&mut self, then: Confirmed, ctx: &mut Ctx) -> Cmd {
        let organization = self.organization.id.clone();
        match then {
            Confirmed::Visibility { slug, visibility } => {
                let done = format!("“{slug}” is now {visibility}.");
                let call = OpenApiCall::SetVisibility {
                    organization,
                    slug,
                    visibility,
                };
                self.send(call, done, ctx)
            }
            Confirmed::Delete { slug } => {
                let done = format!("Deleted “{slug}”.");
                self.send(OpenApiCall::Delete { organization, slug }, done, ctx)
            }
        }
    }

    fn on_list(
        &mut self,
        request: RequestId,
        result: &Result<WholeList<OpenApiSpec>, ApiError>,
        ctx: &mut Ctx,
    ) -> Option<Cmd> {
        if !self.specs.settle(request, result.clone()) {
            return None;
        }
        if let Some(slug) = self.select_after_reload.take()
            && let Some(index) = self.list().iter().position(|spec| spec.slug == slug)
        {
            self.selection.selected = index;
        }
        self.selection.clamp(self.list().len());
        if !self.list().iter().any(is_processing) {
            self.poll = None;
            return Some(Cmd::None);
        }
        let id = ctx.requests.issue();
        self.poll = Some(id);
        Some(Cmd::Timer {
            id,
            after: POLL_INTERVAL,
        })
    }

    fn on_write(&mut self, done: String, result: Result<(), &ApiError>, ctx: &mut Ctx) -> Cmd {
        match result {
            Ok(()) => {
                self.notice = Some(Notice::info(done));
                self.load(ctx)
            }
            Err(error) => {
                self.select_after_reload = None;
                self.notice = Some(Notice::error(format!("Refused: {}", server_message(error))));
                Cmd::None
            }
        }
    }
}

impl ScreenState for OpenApiTab {
    fn title(&self) -> String {
        "OpenAPI".to_string()
    }

    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        match self.specs {
            Loadable::NotAsked => self.load(ctx),
            _ => Cmd::None,
        }
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::OpenApi, KeyContext::Tabs, KeyContext::Browse]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Open, "versions"),
            (Action::Create, "new"),
            (Action::ReplaceSource, "new source"),
            (Action::ToggleVisibility, "public/private"),
            (Action::Delete, "delete"),
            (Action::NextTab, "tab"),
            (Action::Refresh, "refresh"),
            (Action::Help, "keys"),
        ]
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let modal = |tab: &mut Self| {
            let modal = tab.modal.take()?;
            Some(Some(tab.on_modal_key(modal, key, ctx)))
        };
        notice_modal_esc(self, key, |tab| &mut tab.notice, modal)
            .break_value()
            .flatten()
    }

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        if let Some(Modal::Prompt(prompt)) = self.modal.as_mut() {
            prompt.input.insert_str(text.trim());
        }
        Cmd::None
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.list().len();
        let page = ctx.size.height.saturating_sub(5).max(1) as isize;
        if crate::screens::step::move_selection(&mut self.selection, action, len, page) {
            return Some(Step::default());
        }
        if action == Action::Open {
            let spec = self.selected()?.clone();
            return Some(Step::push(Screen::SpecVersions(Box::new(
                VersionsScreen::new(&self.organization, spec),
            ))));
        }
        self.on_action_key(action).map(Step::cmd)
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::OpenApi(response) = response else {
            return None;
        };
        if let OpenApiResponse::List(result) = response {
            return self.on_list(request, result, ctx).map(Step::cmd);
        }
        let (waiting, _) = self.pending.as_ref()?;
        if *waiting != request {
            return None;
        }
        let (_, done) = self.pending.take()?;
        let cmd = match response {
            OpenApiResponse::Saved(result) => self.on_write(done, result.as_ref().map(|_| ()), ctx),
            OpenApiResponse::Deleted(result) => {
                self.on_write(done, result.as_ref().map(|_| ()), ctx)
            }
            _ => Cmd::None,
        };
        Some(Step::cmd(cmd))
    }

    fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        if self.poll != Some(id) {
            return None;
        }
        self.poll = None;
        Some(Step::cmd(self.load(ctx)))
    }

    fn link(&self) -> Option<String> {
        let urls = &self.selected()?.urls;
        urls.app.clone().or_else(|| urls.location.clone())
    }

    fn disabled_actions(&self) -> Vec<Action> {
        let mut disabled = Vec::new();
        if self.create_refusal().is_some() {
            disabled.push(Action::Create);
        }
        if self.change_refusal().is_some() {
            disabled.extend([
                Action::ReplaceSource,
                Action::ToggleVisibility,
                Action::Delete,
            ]);
        }
        disabled
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        super::view::draw_tab(self, frame, area, look);
    }
}
