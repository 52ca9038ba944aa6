//! The organization's Translations tab: every translation with its status, source
//! space and language → target language and result space; run statistics in a details pane.
//! `n` creates one (target language, source space, source language, then instructions), `e`
//! edits the instructions with the Document editor of change request descriptions (drafts
//! survive a failed save, a crash or a quit), `x` runs it now, `d` deletes it (asks first),
//! `s` and `t` open the source and result spaces.
//!
//! Space titles come from the organization's spaces, fetched with the list (the tab cannot
//! reach the Spaces tab's tree); a space that is not among them shows as its id.

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use super::modal::Modal;
use crate::api::error::server_message;
use crate::api::models::{Organization, Translation, TranslationStatus};
use crate::api::{ApiError, language_name};
use crate::screens::Screen;
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::organization::pane::notice_modal_esc;
use crate::screens::space::SpaceScreen;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::Notice;
use crate::vocabulary::translations::{TranslationList, TranslationsCall, TranslationsResponse};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

/// What a write in flight was, to say what happened when it ends.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Pending {
    Create { draft_key: String },
    Instructions { draft_key: String },
    Run { name: String },
    Delete { name: String },
    OpenSpace,
}

#[derive(Debug)]
pub struct TranslationsTab {
    pub organization: Organization,
    pub list: Loadable<TranslationList>,
    pub selection: Selection,
    pub modal: Option<Modal>,
    pub notice: Option<Notice>,
    /// Unsent instructions by draft key, as loaded from disk and typed since.
    pub drafts: std::collections::HashMap<String, String>,
    pending: Option<(RequestId, Pending)>,
    /// The translation to select once the list comes back (one just created or saved).
    select_after_reload: Option<String>,
    /// The timer that reads the running translations again while a run is under way.
    poll: Option<RequestId>,
    /// Those reads, each translation alone rather than the whole list.
    poll_read: Option<RequestId>,
}

/// How often the list is read again while a translation is running.
pub const POLL_INTERVAL: std::time::Duration = std::time::Duration::from_secs(3);

pub fn new(organization: &Organization) -> TranslationsTab {
    TranslationsTab {
        organization: organization.clone(),
        list: Loadable::NotAsked,
        selection: Selection::default(),
        modal: None,
        notice: None,
        drafts: Default::default(),
        pending: None,
        select_after_reload: None,
        poll: None,
        poll_read: None,
    }
}

pub(super) const NEW_DRAFT: &str = "new";

/// What to say when a write may not start: the role's refusal, or a write still in flight.
/// Shared with the OpenAPI tab.
pub fn write_blocked(refusal: Option<String>, sending: bool) -> Option<Notice> {
    match refusal {
        Some(reason) => Some(Notice::error(format!("Not allowed: {reason}"))),
        None if sending => Some(Notice::info("Still sending…")),
        None => None,
    }
}

impl TranslationsTab {
    pub fn translations(&self) -> &[Translation] {
        self.list
            .value()
            .map_or(&[], |list| list.translations.as_slice())
    }

    pub fn selected(&self) -> Option<&Translation> {
        self.translations().get(self.selection.selected)
    }

    /// A space's title when the organization's spaces list it, else its id.
    pub fn space_name(&self, id: &str) -> String {
        self.list
            .value()
            .and_then(|list| list.space_titles.get(id))
            .cloned()
            .unwrap_or_else(|| id.to_string())
    }

    /// "Rust SDK (en) → French": what a translation is, in a few words.
    pub fn describe(&self, translation: &Translation) -> String {
        let source = translation
            .source
            .space
            .as_deref()
            .map_or_else(|| "?".to_string(), |space| self.space_name(space));
        format!("{source} → {}", language_name(&translation.language))
    }

    fn draft_prefix(&self) -> String {
        format!("translation:{}:", self.organization.id)
    }

    pub(super) fn draft_key(&self, what: &str) -> String {
        format!("{}{what}", self.draft_prefix())
    }

    pub fn is_sending(&self) -> bool {
        self.pending
            .as_ref()
            .is_some_and(|(_, pending)| *pending != Pending::OpenSpace)
    }

    /// Why writing is refused, or `None`: only admins change translations.
    pub fn write_refusal(&self) -> Option<String> {
        (!self.organization.permissions.admin).then(|| {
            format!(
                "you are not an admin of {}; changing translations needs the admin role",
                self.organization.title
            )
        })
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.list.start(request);
        Cmd::Api {
            request,
            call: ApiCall::Translations(TranslationsCall::List {
                organization: self.organization.id.clone(),
            }),
        }
    }

    pub(super) fn send(&mut self, call: TranslationsCall, pending: Pending, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.pending = Some((request, pending));
        Cmd::Api {
            request,
            call: ApiCall::Translations(call),
        }
    }

    pub(super) fn refuse_write(&mut self) -> bool {
        let blocked = write_blocked(self.write_refusal(), self.is_sending());
        let refused = blocked.is_some();
        if refused {
            self.notice = blocked;
        }
        refused
    }

    fn run_selected(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.refuse_write() {
            return Cmd::None;
        }
        let Some(translation) = self.selected().cloned() else {
            return Cmd::None;
        };
        let name = self.describe(&translation);
        self.notice = Some(Notice::info(format!("Starting a run of {name}…")));
        let call = TranslationsCall::Run {
            organization: self.organization.id.clone(),
            id: translation.id,
        };
        self.send(call, Pending::Run { name }, ctx)
    }

    /// `s` / `t`: fetch the space, then push its screen.
    fn open_space(&mut self, result: bool, ctx: &mut Ctx) -> Cmd {
        let Some(translation) = self.selected() else {
            return Cmd::None;
        };
        let space = if result {
            translation
                .result
                .as_ref()
                .and_then(|result| result.space.clone())
        } else {
            translation.source.space.clone()
        };
        let Some(space) = space else {
            self.notice = Some(Notice::info(
                "No result space yet: it is made by the first completed run (x runs it).",
            ));
            return Cmd::None;
        };
        self.notice = Some(Notice::info(format!(
            "Opening “{}”…",
            self.space_name(&space)
        )));
        self.send(TranslationsCall::Space { space }, Pending::OpenSpace, ctx)
    }

    /// A saved translation is in the list and selected at once, before the reload answers, so
    /// the next key (`x` to run it) acts on what was just made, not on the row selected before.
    fn show_saved(&mut self, saved: &Translation) {
        let Some(list) = self.list.value_mut() else {
            return;
        };
        let index = match list.translations.iter().position(|t| t.id == saved.id) {
            Some(index) => {
                list.translations[index] = saved.clone();
                index
            }
            None => {
                list.translations.push(saved.clone());
                list.translations.len() - 1
            }
        };
        self.selection.selected = index;
    }

    /// The list came: select what was just written, and read it again in a while when a run
    /// is under way so its status and statistics follow.
    fn on_list(
        &mut self,
        request: RequestId,
        result: &Result<TranslationList, ApiError>,
        ctx: &mut Ctx,
    ) -> Option<Cmd> {
        if !self.list.settle(request, result.clone()) {
            return None;
        }
        if let Some(id) = self.select_after_reload.take()
            && let Some(index) = self.translations().iter().position(|t| t.id == id)
        {
            self.selection.selected = index;
        }
        self.selection.clamp(self.translations().len());
        Some(self.poll_while_running(ctx))
    }

    fn running_ids(&self) -> Vec<String> {
        self.translations()
            .iter()
            .filter(|translation| translation.status == TranslationStatus::Running)
            .map(|translation| translation.id.clone())
            .collect()
    }

    /// Arms the poll while a translation runs.
    fn poll_while_running(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.running_ids().is_empty() {
            self.poll = None;
            return Cmd::None;
        }
        let id = ctx.requests.issue();
        self.poll = Some(id);
        Cmd::Timer {
            id,
            after: POLL_INTERVAL,
        }
    }

    /// The poll went off: the running translations are read, each alone.
    fn read_running(&mut self, ctx: &mut Ctx) -> Cmd {
        let ids = self.running_ids();
        if ids.is_empty() {
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.poll_read = Some(request);
        Cmd::Api {
            request,
            call: ApiCall::Translations(TranslationsCall::Running {
                organization: self.organization.id.clone(),
                ids,
            }),
        }
    }

    /// The running translations as read now take their places in the list (the details pane
    /// follows); once a run ended, the whole list is read again for the spaces a run may
    /// have made.
    fn on_running(&mut self, read: &[Translation], ctx: &mut Ctx) -> Cmd {
        let mut ended = false;
        if let Some(list) = self.list.value_mut() {
            for fresh in read {
                if let Some(known) = list.translations.iter_mut().find(|t| t.id == fresh.id) {
                    ended |= fresh.status != TranslationStatus::Running;
                    *known = fresh.clone();
                }
            }
        }
        if ended {
            return self.load(ctx);
        }
        self.poll_while_running(ctx)
    }

    /// The answer to a write: say what happened, forget the draft it sent, reload.
    fn on_write(
        &mut self,
        pending: Pending,
        response: &TranslationsResponse,
        ctx: &mut Ctx,
    ) -> Step {
        match (pending, response) {
            (Pending::OpenSpace, TranslationsResponse::Space(Ok(space))) => {
                self.notice = None;
                return Step::push(Screen::Space(SpaceScreen::new(
                    space.clone(),
                    self.organization.title.clone(),
                )));
            }
            (Pending::OpenSpace, TranslationsResponse::Space(Err(error))) => {
                self.notice = Some(Notice::error(format!(
                    "Could not open the space: {}",
                    server_message(error)
                )));
                return Step::default();
            }
            (
                Pending::Create { draft_key } | Pending::Instructions { draft_key },
                TranslationsResponse::Saved(result),
            ) => {
                let created = self.draft_key(NEW_DRAFT) == draft_key;
                match result {
                    Ok(translation) => {
                        self.modal = None;
                        self.drafts.remove(&draft_key);
                        let what = if created {
                            "Created"
                        } else {
                            "Instructions saved for"
                        };
                        self.notice = Some(Notice::info(format!(
                            "{what} {}.",
                            self.describe(translation)
                        )));
                        self.show_saved(translation);
                        let select = translation.id.clone();
                        let reload = self.load(ctx);
                        self.select_after_reload = Some(select);
                        return Step::cmd(Cmd::batch([
                            Cmd::DiscardDraft { key: draft_key },
                            reload,
                        ]));
                    }
                    Err(error) => {
                        if let Some(Modal::Composer { composer, .. }) = self.modal.as_mut() {
                            composer.submitting = false;
                            composer.error = Some(format!(
                                "Not saved: {} (your text is kept as a draft)",
                                server_message(error)
                            ));
                        }
                        return Step::default();
                    }
                }
            }
            (Pending::Run { name }, TranslationsResponse::Done(result)) => match result {
                Ok(()) => {
                    self.notice = Some(Notice::info(format!("Run started: {name}.")));
                }
                Err(error) => {
                    self.notice = Some(Notice::error(format!(
                        "The run of {name} did not start: {}",
                        server_message(error)
                    )));
                    return Step::default();
                }
            },
            (Pending::Delete { name }, TranslationsResponse::Done(result)) => match result {
                Ok(()) => self.notice = Some(Notice::info(format!("Deleted {name}."))),
                Err(error) => {
                    self.notice = Some(Notice::error(format!(
                        "{name} was not deleted: {}",
                        server_message(error)
                    )));
                    return Step::default();
                }
            },
            _ => return Step::default(),
        }
        Step::cmd(self.load(ctx))
    }
}

impl ScreenState for TranslationsTab {
    fn title(&self) -> String {
        "Translations".to_string()
    }

    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        if !matches!(self.list, Loadable::NotAsked) {
            return Cmd::None;
        }
        let prefix = self.draft_prefix();
        Cmd::batch([self.load(ctx), Cmd::LoadDrafts { prefix }])
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[
            KeyContext::Translations,
            KeyContext::Tabs,
            KeyContext::Browse,
        ]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Create, "new"),
            (Action::RunTranslation, "run"),
            (Action::EditInstructions, "instructions"),
            (Action::SourceSpace, "source"),
            (Action::ResultSpace, "result"),
            (Action::Delete, "delete"),
            (Action::NextTab, "tab"),
            (Action::Refresh, "refresh"),
            (Action::Help, "keys"),
        ]
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let modal = |tab: &mut Self| {
            let modal = tab.modal.take()?;
            Some(Some(Step::cmd(tab.on_modal_key(modal, key, ctx))))
        };
        notice_modal_esc(self, key, |tab| &mut tab.notice, modal)
            .break_value()
            .flatten()
    }

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        match self.modal.as_mut() {
            Some(Modal::Composer {
                composer,
                draft_key,
                ..
            }) if !composer.submitting => {
                composer.insert_str(text);
                let text = composer.text();
                self.drafts.insert(draft_key.clone(), text.clone());
                Cmd::SaveDraft {
                    key: draft_key.clone(),
                    text,
                }
            }
            _ => Cmd::None,
        }
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.translations().len();
        let page = ctx.size.height.saturating_sub(5).max(1) as isize;
        let cmd = match action {
            _ if crate::screens::step::move_selection(&mut self.selection, action, len, page) => {
                Cmd::None
            }
            Action::Create => {
                self.start_create();
                Cmd::None
            }
            Action::EditInstructions => {
                self.edit_instructions();
                Cmd::None
            }
            Action::RunTranslation => self.run_selected(ctx),
            Action::Delete => {
                self.ask_delete();
                Cmd::None
            }
            Action::SourceSpace => self.open_space(false, ctx),
            Action::ResultSpace | Action::Open => self.open_space(true, ctx),
            _ => return None,
        };
        Some(Step::cmd(cmd))
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Translations(response) = response else {
            return None;
        };
        if let TranslationsResponse::List(result) = response {
            return self.on_list(request, result, ctx).map(Step::cmd);
        }
        if let TranslationsResponse::Running(read) = response {
            if self.poll_read != Some(request) {
                return None;
            }
            self.poll_read = None;
            return Some(Step::cmd(self.on_running(read, ctx)));
        }
        let (waiting, _) = self.pending.as_ref()?;
        if *waiting != request {
            return None;
        }
        let (_, pending) = self.pending.take()?;
        Some(self.on_write(pending, response, ctx))
    }

    fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        if self.poll != Some(id) {
            return None;
        }
        self.poll = None;
        Some(Step::cmd(self.read_running(ctx)))
    }

    fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)], _ctx: &mut Ctx) -> Cmd {
        if prefix == self.draft_prefix() {
            self.drafts = drafts.iter().cloned().collect();
        }
        Cmd::None
    }

    fn on_external_edit(&mut self, key: &str, text: String, _ctx: &mut Ctx) -> Cmd {
        if let Some(Modal::Composer {
            draft_key,
            composer,
            ..
        }) = self.modal.as_mut()
            && draft_key == key
        {
            composer.set_text(&text);
            self.drafts.insert(key.to_string(), text.clone());
            return Cmd::SaveDraft {
                key: key.to_string(),
                text,
            };
        }
        Cmd::None
    }

    fn link(&self) -> Option<String> {
        self.selected()?.urls.location.clone()
    }

    fn disabled_actions(&self) -> Vec<Action> {
        let mut disabled = Vec::new();
        if self.write_refusal().is_some() {
            disabled.extend([
                Action::Create,
                Action::RunTranslation,
                Action::EditInstructions,
                Action::Delete,
            ]);
        }
        let has_result = self
            .selected()
            .and_then(|translation| translation.result.as_ref())
            .is_some_and(|result| result.space.is_some());
        if !has_result {
            disabled.push(Action::ResultSpace);
        }
        disabled
    }

    fn unsaved_work(&self) -> Option<String> {
        match &self.modal {
            Some(Modal::Composer { composer, .. }) if !composer.is_blank() => {
                Some("translation instructions being written (kept as a draft)".to_string())
            }
            _ => None,
        }
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        super::view::draw(self, frame, area, look);
    }
}
