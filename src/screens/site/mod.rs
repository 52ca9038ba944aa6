//! One site, with tabs: Settings (a form for the PATCH fields, publish / unpublish), Share
//! links, Section groups, Structure (the published tree, read-only) and Adaptive (the visitor
//! schema, edited as JSON). Writes go one at a time; each ends with a notice saying what
//! happened, and a refused write shows the server's reason.

pub mod form;
pub mod modal;
// Each tab's keys and writes, the modals' answers, and the server's answers.
mod adaptive;
mod answers;
mod drafts;
mod groups;
mod logged;
mod modal_keys;
mod permissions;
mod requests;
mod settings;
mod share_links;
mod view;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use crate::api::WholeList;
use crate::api::models::{PublishedSite, ShareLink, Site, SiteSectionGroup};
use crate::screens::ScreenState;
use crate::screens::form_draft::DraftKeeper;
use crate::screens::look::Look;
use crate::screens::sites::role::MyRole;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::confirm::Confirm;
use crate::ui::keymap::{Action, KeyContext, Keymap};
use crate::ui::list::Selection;
use crate::ui::notice::{self, Notice};
use crate::vocabulary::sites::{AdaptiveData, SitesResponse};
use crate::vocabulary::{ApiResponse, Cmd, Loadable, RequestId};

use crate::ui::hit::Canvas;
pub use adaptive::{SCHEMA_TEMPLATE, check_schema};
use answers::response_error;
pub use form::{Choices, Field, SettingsForm};
pub use modal::{
    Confirmed, Modal, PickOption, PickOutcome, PickPurpose, Picker, Prompt, SchemaEditor,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SiteTab {
    #[default]
    Settings,
    ShareLinks,
    SectionGroups,
    Structure,
    Adaptive,
}

impl SiteTab {
    pub const ALL: [SiteTab; 5] = [
        SiteTab::Settings,
        SiteTab::ShareLinks,
        SiteTab::SectionGroups,
        SiteTab::Structure,
        SiteTab::Adaptive,
    ];

    pub fn label(self) -> &'static str {
        match self {
            SiteTab::Settings => "Settings",
            SiteTab::ShareLinks => "Share links",
            SiteTab::SectionGroups => "Section groups",
            SiteTab::Structure => "Structure",
            SiteTab::Adaptive => "Adaptive",
        }
    }
}

/// The write in flight; its answer ends it.
#[derive(Debug, Clone, PartialEq)]
pub enum Pending {
    Save(Vec<Field>),
    Publish,
    Unpublish,
    /// A share-link write, with the notice to show once it succeeded.
    ShareLink(String),
    /// A section-group write, with its notice and the row to select afterwards when the
    /// write's answer does not name it (a section moved into a group).
    SectionGroup(String, Option<String>),
    Schema,
}

/// One row of the section-groups tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupRow {
    Group {
        id: String,
        title: String,
        icon: Option<String>,
        depth: usize,
    },
    Section {
        group: String,
        id: String,
        title: String,
        depth: usize,
    },
}

impl GroupRow {
    /// The group's or the section's id.
    pub fn id(&self) -> &str {
        match self {
            GroupRow::Group { id, .. } | GroupRow::Section { id, .. } => id,
        }
    }
}

#[derive(Debug)]
pub struct SiteScreen {
    pub organization: String,
    pub site: Site,
    pub tab: SiteTab,
    pub form: SettingsForm,
    pub structure: Loadable<PublishedSite>,
    pub structure_selection: Selection,
    pub share_links: Loadable<WholeList<ShareLink>>,
    pub link_selection: Selection,
    pub groups: Loadable<WholeList<SiteSectionGroup>>,
    pub group_selection: Selection,
    pub adaptive: Loadable<AdaptiveData>,
    pub adaptive_scroll: u16,
    pub modal: Option<Modal>,
    /// The adaptive schema being written, kept (and saved to disk) until the server takes it.
    pub schema_draft: Option<String>,
    /// The settings form's unsaved values as last written to disk.
    settings_draft: DraftKeeper,
    pub pending: Option<(RequestId, Pending)>,
    site_request: Option<RequestId>,
    pub notice: Option<Notice>,
    /// The id of the row to select once its list reloads: what a write just created or moved.
    pub select_after_reload: Option<String>,
    /// The server's 403 message, once a write was refused: the screen turns read-only.
    pub forbidden: Option<String>,
    /// The user's own role in the organization, for refusals.
    pub my_role: MyRole,
    /// The action-log entry of the write in flight, logged once the server accepts it.
    log_pending: Option<crate::vocabulary::action_log::PendingEntry>,
    /// The action log's undo count when last shown: an undo made from the log reloads.
    undos_seen: u64,
}

impl SiteScreen {
    /// Where the adaptive schema being written is kept on disk.
    pub fn schema_draft_key(&self) -> String {
        format!("{}.{}.adaptive-schema", self.organization, self.site.id)
    }

    pub fn new(organization: &str, site: Site) -> SiteScreen {
        SiteScreen {
            schema_draft: None,
            settings_draft: DraftKeeper::default(),
            organization: organization.to_string(),
            form: SettingsForm::new(&site),
            site,
            tab: SiteTab::Settings,
            structure: Loadable::NotAsked,
            structure_selection: Selection::default(),
            share_links: Loadable::NotAsked,
            link_selection: Selection::default(),
            groups: Loadable::NotAsked,
            group_selection: Selection::default(),
            adaptive: Loadable::NotAsked,
            adaptive_scroll: 0,
            modal: None,
            pending: None,
            site_request: None,
            notice: None,
            select_after_reload: None,
            forbidden: None,
            my_role: MyRole::default(),
            log_pending: None,
            undos_seen: 0,
        }
    }

    fn ids(&self) -> (String, String) {
        (self.organization.clone(), self.site.id.clone())
    }

    fn say(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::info(text));
    }

    fn warn(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::error(text));
    }
}

/// A key that a line input takes as a character: a plain (or shifted) letter, digit or sign.
fn is_typed_text(key: &KeyEvent) -> bool {
    matches!(key.code, KeyCode::Char(_))
        && !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

/// How the user's keymap names the save key, for sentences ("ctrl-s saves").
pub fn save_key(keymap: &Keymap) -> String {
    keymap
        .label(&[KeyContext::Form], Action::Save)
        .unwrap_or_else(|| "the save key".to_string())
}

impl SiteScreen {
    fn on_site_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        notice::on_key(&mut self.notice);
        if let Some(modal) = self.modal.take() {
            return Some(self.on_modal_key(modal, key, ctx));
        }
        if self.tab == SiteTab::Settings && self.form.editing.is_some() {
            // The save key works while typing too, unless it is a plain letter being typed.
            let saves = ctx.keymap.action_for(&[KeyContext::Form], key) == Some(Action::Save);
            if saves && !is_typed_text(key) {
                return Some(Step::cmd(self.save(ctx)));
            }
            self.form.edit_key(key);
            return Some(Step::default());
        }
        None
    }

    fn paste(&mut self, text: &str) {
        match self.modal.as_mut() {
            Some(Modal::Prompt(prompt)) => prompt.input.insert_str(text),
            Some(Modal::Composer(editor)) => editor.get_mut().insert_str(text),
            Some(_) => {}
            None => self.form.paste(text),
        }
    }

    fn on_site_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        match action {
            Action::NextTab => return Some(Step::cmd(self.switch_tab(true, ctx))),
            Action::PreviousTab => return Some(Step::cmd(self.switch_tab(false, ctx))),
            Action::Back if notice::dismiss_error(&mut self.notice) => {
                return Some(Step::default());
            }
            Action::Back if self.form.is_dirty() => {
                let names: Vec<&str> = self
                    .form
                    .changed_fields()
                    .iter()
                    .map(|field| field.wire_name())
                    .collect();
                self.modal = Some(Modal::Confirm {
                    confirm: Confirm::new(
                        "Leave without saving?",
                        format!(
                            "Changes to {} stay as a draft for next time. ({} saves them now.)",
                            names.join(", "),
                            save_key(ctx.keymap)
                        ),
                        "leave",
                    ),
                    then: Confirmed::Leave,
                });
                return Some(Step::default());
            }
            Action::Publish => {
                self.ask_publish();
                return Some(Step::default());
            }
            _ => {}
        }
        match self.tab {
            SiteTab::Settings => self.on_settings_action(action, ctx),
            SiteTab::ShareLinks => self.on_share_link_action(action, ctx),
            SiteTab::SectionGroups => self.on_group_action(action, ctx),
            SiteTab::Structure => {
                let len = view::structure_rows(self).len();
                match action {
                    Action::Down => self.structure_selection.move_by(1, len),
                    Action::Up => self.structure_selection.move_by(-1, len),
                    Action::Top => self.structure_selection.top(),
                    Action::Bottom => self.structure_selection.bottom(len),
                    _ => return None,
                }
                Some(Step::default())
            }
            SiteTab::Adaptive => self.on_adaptive_action(action),
        }
    }

    fn on_site_response(
        &mut self,
        request: RequestId,
        response: &ApiResponse,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        let ApiResponse::Sites(response) = response else {
            return None;
        };
        if self.my_role.answered(request, response) {
            self.role_known();
            return Some(Step::default());
        }
        if self.site_request == Some(request) {
            self.site_request = None;
            match response {
                SitesResponse::Site(Ok(site)) => {
                    self.site = site.clone();
                    // The reload worked: a notice saying it failed is no longer true.
                    if self.notice.as_ref().is_some_and(|notice| {
                        notice.text.starts_with(crate::ui::status::RELOAD_FAILED)
                    }) {
                        self.notice = None;
                    }
                    if !self.form.is_dirty() {
                        self.form.reset(site);
                    }
                }
                other => {
                    if let Some(error) = response_error(other) {
                        self.warn(crate::ui::status::reload_failed_text(&error));
                    }
                }
            }
            return Some(Step::default());
        }
        if let Some((waiting, pending)) = self.pending.clone()
            && waiting == request
        {
            return Some(Step::cmd(self.finish(pending, response, ctx)));
        }
        match response {
            SitesResponse::Structure(result) => {
                if !self.structure.settle(request, result.clone()) {
                    return None;
                }
                if let Some(published) = self.structure.value() {
                    let choices = Choices::from_published(published);
                    self.form.set_choices(choices);
                }
                self.form.clamp_cursor();
            }
            SitesResponse::ShareLinks(result) => {
                if !self.share_links.settle(request, result.clone()) {
                    return None;
                }
                let wanted = self.select_after_reload.take();
                let links = self.links();
                let followed = wanted.and_then(|id| links.iter().position(|link| link.id == id));
                let len = links.len();
                match followed {
                    Some(index) => self.link_selection.select(index, len),
                    None => self.link_selection.clamp(len),
                }
            }
            SitesResponse::SectionGroups(result) => {
                if !self.groups.settle(request, result.clone()) {
                    return None;
                }
                let rows = self.group_rows();
                let followed = self
                    .select_after_reload
                    .take()
                    .and_then(|id| rows.iter().position(|row| row.id() == id));
                match followed {
                    Some(index) => self.group_selection.select(index, rows.len()),
                    None => self.group_selection.clamp(rows.len()),
                }
            }
            SitesResponse::Adaptive(result) => {
                if !self.adaptive.settle(request, result.clone()) {
                    return None;
                }
            }
            _ => return None,
        }
        Some(Step::default())
    }
}

impl ScreenState for SiteScreen {
    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.notice.iter().cloned().collect()
    }

    fn unsaved_work(&self) -> Option<String> {
        self.form
            .is_dirty()
            .then(|| format!("unsaved settings of {} (kept as a draft)", self.site.title))
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        let drafts = Cmd::batch([
            Cmd::LoadDrafts {
                prefix: self.schema_draft_key(),
            },
            Cmd::LoadDrafts {
                prefix: self.settings_draft_key(),
            },
        ]);
        // A user who may not change the site is told why, naming their role: ask for it now.
        let role = if self.read_only_reason().is_some() {
            self.ask_my_role(ctx)
        } else {
            Cmd::None
        };
        Cmd::batch([self.load_structure(ctx), self.load_tab(ctx), drafts, role])
    }

    fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)], ctx: &mut Ctx) -> Cmd {
        if prefix == self.settings_draft_key() {
            self.on_settings_draft(drafts, ctx);
        }
        if prefix == self.schema_draft_key()
            && let Some((_, text)) = drafts.iter().find(|(key, _)| key == prefix)
        {
            self.schema_draft = Some(text.clone());
            self.say("An unsaved adaptive schema was restored: e opens it");
        }
        Cmd::None
    }

    fn on_external_edit(&mut self, key: &str, text: String, _ctx: &mut Ctx) -> Cmd {
        if key != self.schema_draft_key() {
            return Cmd::None;
        }
        if let Some(Modal::Composer(editor)) = self.modal.as_mut() {
            editor.get_mut().set_text(&text);
        }
        self.schema_draft = Some(text.clone());
        Cmd::SaveDraft {
            key: key.to_string(),
            text,
        }
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        let tab = match self.tab {
            SiteTab::ShareLinks => self.load_share_links(ctx),
            SiteTab::SectionGroups => self.load_groups(ctx),
            SiteTab::Adaptive => self.load_adaptive(ctx),
            SiteTab::Settings | SiteTab::Structure => Cmd::None,
        };
        Cmd::batch([self.load_site(ctx), self.load_structure(ctx), tab])
    }

    fn title(&self) -> String {
        self.site.title.clone()
    }

    fn resumed(&mut self, ctx: &mut Ctx) -> Cmd {
        if ctx.action_log.undos() == self.undos_seen {
            return Cmd::None;
        }
        self.undos_seen = ctx.action_log.undos();
        self.refresh(ctx)
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        match self.tab {
            SiteTab::Settings => &[
                KeyContext::Form,
                KeyContext::Site,
                KeyContext::Tabs,
                KeyContext::List,
            ],
            SiteTab::ShareLinks => &[
                KeyContext::ShareLinks,
                KeyContext::Site,
                KeyContext::Tabs,
                KeyContext::List,
            ],
            SiteTab::SectionGroups => &[
                KeyContext::SectionGroups,
                KeyContext::Site,
                KeyContext::Tabs,
                KeyContext::List,
            ],
            SiteTab::Structure => &[KeyContext::Site, KeyContext::Tabs, KeyContext::List],
            SiteTab::Adaptive => &[
                KeyContext::Adaptive,
                KeyContext::Site,
                KeyContext::Tabs,
                KeyContext::List,
            ],
        }
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        let mut hints = match self.tab {
            SiteTab::Settings => vec![(Action::Open, "edit"), (Action::Save, "save")],
            SiteTab::ShareLinks => vec![
                (Action::Create, "new"),
                (Action::Rename, "rename"),
                (Action::ToggleActive, "on/off"),
                (Action::Delete, "delete"),
                (Action::CopyLink, "copy"),
            ],
            SiteTab::SectionGroups => vec![
                (Action::Create, "new"),
                (Action::Rename, "rename"),
                (Action::ChangeIcon, "icon"),
                (Action::AddSection, "add"),
                (Action::RemoveSection, "remove"),
                (Action::Delete, "delete"),
            ],
            SiteTab::Structure => Vec::new(),
            SiteTab::Adaptive => vec![(Action::EditSchema, "edit")],
        };
        if self.read_only_reason().is_some() {
            // Shown disabled: the reason is on the screen's last row instead.
            hints.retain(|(action, _)| matches!(action, Action::CopyLink));
        } else {
            hints.push((Action::Publish, "publish"));
        }
        hints.extend([
            (Action::NextTab, "tab"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]);
        hints
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let step = self.on_site_raw_key(key, ctx);
        self.with_settings_draft(step)
    }

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        self.paste(text);
        self.keep_settings_draft()
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let step = self.on_site_action(action, ctx);
        self.with_settings_draft(step)
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let step = self.on_site_response(request, response, ctx);
        self.with_settings_draft(step)
    }
    fn link(&self) -> Option<String> {
        match self.tab {
            SiteTab::ShareLinks => self.selected_link()?.urls.published.clone(),
            _ => self
                .site
                .urls
                .published
                .clone()
                .or_else(|| self.site.urls.app.clone()),
        }
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}
