//! One site, with tabs: Settings (a form for the PATCH fields, publish / unpublish), Share
//! links, Section groups, Structure (the published tree, read-only) and Adaptive (the visitor
//! schema, edited as JSON). Writes go one at a time; each ends with a notice saying what
//! happened, and a refused write shows the server's reason.

pub mod form;
pub mod modal;
// ── review flow ──
mod logged;
mod view;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use serde_json::Value;

use crate::api::models::{
    PublishOutcome, PublishedSite, ShareLink, Site, SiteSectionGroup, SiteStructureItem,
    SiteVisibility,
};
use crate::api::{ApiError, NewSectionGroup};
use crate::app::keymap::{Action, KeyContext, Keymap};
use crate::app::sites::{AdaptiveData, SitesCall, SitesResponse};
use crate::app::{ApiCall, ApiResponse, Cmd, Ctx, Loadable, Model, RequestId, Step};
use crate::screens::ScreenState;
use crate::screens::role_noun;
use crate::screens::sites::{MyRole, audience};
use crate::ui::composer::{Composer, ComposerOutcome};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::input::InputOutcome;
use crate::ui::list::Selection;
use crate::ui::notice::{self, Notice};

pub use form::{Choices, Field, SettingsForm};
use modal::PromptPurpose;
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
    pub share_links: Loadable<Vec<ShareLink>>,
    pub link_selection: Selection,
    pub groups: Loadable<Vec<SiteSectionGroup>>,
    pub group_selection: Selection,
    pub adaptive: Loadable<AdaptiveData>,
    pub adaptive_scroll: u16,
    pub modal: Option<Modal>,
    /// The adaptive schema being written, kept (and saved to disk) until the server takes it.
    pub schema_draft: Option<String>,
    pub pending: Option<(RequestId, Pending)>,
    site_request: Option<RequestId>,
    pub notice: Option<Notice>,
    /// The id of the row to select once its list reloads: what a write just created or moved.
    pub select_after_reload: Option<String>,
    /// The server's 403 message, once a write was refused: the screen turns read-only.
    pub forbidden: Option<String>,
    /// The user's own role in the organization, for refusals.
    pub my_role: MyRole,
    // ── review flow ──
    /// The action-log entry of the write in flight, logged once the server accepts it.
    log_pending: Option<crate::app::action_log::PendingEntry>,
    /// The action log's undo count when last shown: an undo made from the log reloads.
    undos_seen: u64,
}

/// The server's own words for a refused request, else our sentence.
pub fn server_message(error: &ApiError) -> String {
    match error {
        ApiError::Status { message, .. } => message.clone(),
        other => other.user_message(),
    }
}

/// The claim types the service's adaptive schema allows (the seed only uses booleans).
pub const CLAIM_TYPES: [&str; 5] = ["boolean", "string", "number", "array", "object"];

/// Checks an adaptive schema as the service wants it before it is sent: valid JSON, an object
/// of `type: "object"` with `additionalProperties: false`, and claims that each have a
/// `description` and one of [`CLAIM_TYPES`]. An optional `unsigned` object holds further
/// claims under its own `properties`.
pub fn check_schema(text: &str) -> Result<Value, String> {
    let schema: Value =
        serde_json::from_str(text).map_err(|error| format!("not valid JSON: {error}"))?;
    let Some(object) = schema.as_object() else {
        return Err("the schema must be a JSON object".into());
    };
    if object.get("type") != Some(&Value::from("object")) {
        return Err("\"type\" must be \"object\"".into());
    }
    if object.get("additionalProperties") != Some(&Value::Bool(false)) {
        return Err("\"additionalProperties\" must be false".into());
    }
    let Some(properties) = object.get("properties").and_then(Value::as_object) else {
        return Err("\"properties\" must be an object of visitor claims".into());
    };
    for (name, property) in properties {
        if name == "unsigned" {
            if property.get("type") != Some(&Value::from("object")) {
                return Err("properties.unsigned.type must be \"object\"".into());
            }
            let Some(inner) = property.get("properties").and_then(Value::as_object) else {
                return Err("properties.unsigned.properties must be an object".into());
            };
            for (inner_name, claim) in inner {
                check_claim(
                    claim,
                    &format!("properties.unsigned.properties.{inner_name}"),
                )?;
            }
        } else {
            check_claim(property, &format!("properties.{name}"))?;
        }
    }
    Ok(schema)
}

/// One claim: a known type and a description (the service requires both).
fn check_claim(claim: &Value, path: &str) -> Result<(), String> {
    let known_type = claim
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|kind| CLAIM_TYPES.contains(&kind));
    if !known_type {
        return Err(format!(
            "{path}.type must be one of {}",
            CLAIM_TYPES.join(", ")
        ));
    }
    let described = claim
        .get("description")
        .and_then(Value::as_str)
        .is_some_and(|text| !text.trim().is_empty());
    if !described {
        return Err(format!(
            "{path}.description is required (say what the claim means)"
        ));
    }
    Ok(())
}

/// Offered for a site with no schema yet; it passes [`check_schema`].
pub const SCHEMA_TEMPLATE: &str = "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"isBetaUser\": {\n      \"type\": \"boolean\",\n      \"description\": \"The visitor takes part in the beta programme\"\n    }\n  },\n  \"additionalProperties\": false\n}";

impl SiteScreen {
    /// Where the adaptive schema being written is kept on disk.
    pub fn schema_draft_key(&self) -> String {
        format!("{}.{}.adaptive-schema", self.organization, self.site.id)
    }

    pub fn new(organization: &str, site: Site) -> SiteScreen {
        SiteScreen {
            schema_draft: None,
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

    /// Why this user may not change the site, if they may not: the server's permissions, or
    /// a 403 it already answered. Names the role needed and, once known, the user's own.
    pub fn read_only_reason(&self) -> Option<String> {
        let may_not_edit = self
            .site
            .permissions
            .as_ref()
            .is_some_and(|permissions| !(permissions.edit || permissions.admin));
        if self.forbidden.is_none() && !may_not_edit {
            return None;
        }
        Some(self.refusal("Read-only", "change this site"))
    }

    /// "{lead}: you are editor; admin is needed to {what}", with the server's words after a 403.
    fn refusal(&self, lead: &str, what: &str) -> String {
        let mut reason = format!("{lead}: {}", self.my_role.refusal(what));
        if let Some(message) = &self.forbidden {
            reason.push_str(&format!(" (the server said: {message})"));
        }
        reason
    }

    pub fn adaptive_view_reason(&self) -> Option<String> {
        match &self.site.permissions {
            Some(permissions) if !permissions.view_adaptive_schema => {
                Some(match &self.my_role.known {
                    Some(role) => format!(
                        "You are {}: your role may not view this site's adaptive schema",
                        role_noun(role.as_ref())
                    ),
                    None => "Your role may not view this site's adaptive schema".into(),
                })
            }
            _ => None,
        }
    }

    pub fn adaptive_edit_reason(&self) -> Option<String> {
        let may_not_edit = self
            .site
            .permissions
            .as_ref()
            .is_some_and(|permissions| !permissions.edit_adaptive_schema);
        (self.forbidden.is_some() || may_not_edit)
            .then(|| self.refusal("Read-only", "edit the adaptive schema"))
    }

    fn ask_my_role(&mut self, ctx: &mut Ctx) -> Cmd {
        self.my_role.ask(&self.organization, ctx)
    }

    /// The role arrived: a refusal on screen is said again, now naming it.
    fn role_known(&mut self) {
        let refusal_shown =
            self.notice.as_ref().is_some_and(|notice| notice.error) && self.forbidden.is_some();
        if refusal_shown {
            self.warn(self.refusal("Refused", "change this site"));
        }
    }

    /// Sends a write and remembers it; refused while another write is in flight.
    fn write(&mut self, call: SitesCall, pending: Pending, ctx: &mut Ctx) -> Cmd {
        if self.pending.is_some() {
            self.warn("Still waiting for the previous change…");
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.pending = Some((request, pending));
        self.log_pending = logged::entry(self, &call);
        Cmd::Api {
            request,
            call: ApiCall::Sites(call),
        }
    }

    fn read<T>(loadable: &mut Loadable<T>, call: SitesCall, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        loadable.start(request);
        Cmd::Api {
            request,
            call: ApiCall::Sites(call),
        }
    }

    fn load_structure(&mut self, ctx: &mut Ctx) -> Cmd {
        let (organization, site) = self.ids();
        Self::read(
            &mut self.structure,
            SitesCall::GetPublished { organization, site },
            ctx,
        )
    }

    fn load_share_links(&mut self, ctx: &mut Ctx) -> Cmd {
        let (organization, site) = self.ids();
        Self::read(
            &mut self.share_links,
            SitesCall::ListShareLinks { organization, site },
            ctx,
        )
    }

    fn load_groups(&mut self, ctx: &mut Ctx) -> Cmd {
        let (organization, site) = self.ids();
        Self::read(
            &mut self.groups,
            SitesCall::ListSectionGroups { organization, site },
            ctx,
        )
    }

    fn load_adaptive(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.adaptive_view_reason().is_some() {
            return Cmd::None;
        }
        let (organization, site) = self.ids();
        Self::read(
            &mut self.adaptive,
            SitesCall::GetAdaptive { organization, site },
            ctx,
        )
    }

    fn load_site(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.site_request = Some(request);
        let (organization, site) = self.ids();
        Cmd::Api {
            request,
            call: ApiCall::Sites(SitesCall::GetSite { organization, site }),
        }
    }

    /// Loads what the current tab shows, the first time it is shown.
    fn load_tab(&mut self, ctx: &mut Ctx) -> Cmd {
        match self.tab {
            SiteTab::ShareLinks if matches!(self.share_links, Loadable::NotAsked) => {
                self.load_share_links(ctx)
            }
            SiteTab::SectionGroups if matches!(self.groups, Loadable::NotAsked) => {
                self.load_groups(ctx)
            }
            SiteTab::Adaptive if matches!(self.adaptive, Loadable::NotAsked) => {
                self.load_adaptive(ctx)
            }
            _ => Cmd::None,
        }
    }

    fn switch_tab(&mut self, forward: bool, ctx: &mut Ctx) -> Cmd {
        let count = SiteTab::ALL.len();
        let index = SiteTab::ALL
            .iter()
            .position(|tab| *tab == self.tab)
            .unwrap_or(0);
        let next = if forward {
            index + 1
        } else {
            index + count - 1
        } % count;
        self.tab = SiteTab::ALL[next];
        self.load_tab(ctx)
    }

    // ----- Rows -----

    pub fn selected_link(&self) -> Option<&ShareLink> {
        self.share_links.value()?.get(self.link_selection.selected)
    }

    /// Groups as a tree (parents first, depth by nesting) with their sections under them.
    pub fn group_rows(&self) -> Vec<GroupRow> {
        let Some(groups) = self.groups.value() else {
            return Vec::new();
        };
        let known: Vec<&str> = groups.iter().map(|group| group.id.as_str()).collect();
        let mut rows = Vec::new();
        let mut visited = Vec::new();
        for root in groups.iter().filter(|group| {
            group
                .section_group
                .as_deref()
                .is_none_or(|parent| !known.contains(&parent))
        }) {
            self.push_group(groups, root, 0, &mut rows, &mut visited);
        }
        rows
    }

    fn push_group<'a>(
        &self,
        groups: &'a [SiteSectionGroup],
        group: &'a SiteSectionGroup,
        depth: usize,
        rows: &mut Vec<GroupRow>,
        visited: &mut Vec<&'a str>,
    ) {
        if visited.contains(&group.id.as_str()) || depth > 16 {
            return;
        }
        visited.push(&group.id);
        rows.push(GroupRow::Group {
            id: group.id.clone(),
            title: group.title.clone(),
            icon: group.icon.clone(),
            depth,
        });
        for section in group.section_ids() {
            rows.push(GroupRow::Section {
                group: group.id.clone(),
                id: section.to_string(),
                title: self.section_title(group, section),
                depth: depth + 1,
            });
        }
        for child in groups
            .iter()
            .filter(|child| child.section_group.as_deref() == Some(group.id.as_str()))
        {
            self.push_group(groups, child, depth + 1, rows, visited);
        }
    }

    fn section_title(&self, group: &SiteSectionGroup, section: &str) -> String {
        let from_group = group.children.iter().find_map(|child| match child {
            SiteStructureItem::Section(found) if found.id == section => Some(found.title.clone()),
            _ => None,
        });
        from_group
            .or_else(|| {
                group
                    .sections
                    .iter()
                    .find(|found| found.id == section)
                    .map(|found| found.title.clone())
            })
            .or_else(|| {
                self.form
                    .choices
                    .as_ref()
                    .and_then(|choices| choices.section_title(section))
                    .map(str::to_string)
            })
            .unwrap_or_else(|| section.to_string())
    }

    /// Every section of the site, from the published structure.
    pub fn all_sections(&self) -> Vec<(String, String)> {
        self.form
            .choices
            .as_ref()
            .map(|choices| {
                choices
                    .sections
                    .iter()
                    .map(|section| (section.id.clone(), section.title.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    // ----- Settings -----

    fn on_settings_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.form.fields().len();
        match action {
            Action::Down => self.form.selection.move_by(1, len),
            Action::Up => self.form.selection.move_by(-1, len),
            Action::Top => self.form.selection.top(),
            Action::Bottom => self.form.selection.bottom(len),
            Action::Open => self.activate_field(),
            Action::Save => return Some(Step::cmd(self.save(ctx))),
            _ => return None,
        }
        Some(Step::default())
    }

    fn activate_field(&mut self) {
        if let Some(reason) = self.read_only_reason() {
            self.warn(reason);
            return;
        }
        // The answer to a save replaces the form; a change made meanwhile would be lost.
        if matches!(self.pending, Some((_, Pending::Save(_)))) {
            self.warn("Saving… the fields can change again once the server answers");
            return;
        }
        let Some(field) = self.form.selected_field() else {
            return;
        };
        match field {
            Field::Title | Field::Basename | Field::Proxy => self.form.start_editing(),
            Field::AdaptiveContent | Field::AgentsContext => self.form.toggle(field),
            Field::Visibility => {
                let options = form::VISIBILITIES
                    .iter()
                    .map(|(visibility, detail)| PickOption {
                        value: visibility.as_str().to_string(),
                        label: visibility.as_str().to_string(),
                        detail: format!("{detail} Reachable by {}.", audience(Some(visibility))),
                    })
                    .collect();
                let current = self.form.values.visibility.as_ref().map(|v| v.as_str());
                self.modal = Some(Modal::Picker(
                    Picker::new(
                        "Visibility: who can read the site",
                        options,
                        PickPurpose::Visibility,
                    )
                    .at(current),
                ));
            }
            Field::DefaultSection => self.pick_default_section(),
            Field::DefaultSpace => self.pick_default_space(),
        }
    }

    fn pick_default_section(&mut self) {
        let Some(choices) = &self.form.choices else {
            self.warn("The site's structure is still loading");
            return;
        };
        let options = choices
            .sections
            .iter()
            .map(|section| PickOption {
                value: section.id.clone(),
                label: section.title.clone(),
                detail: format!("{} site spaces", section.spaces.len()),
            })
            .collect();
        let current = self.form.values.default_section.clone();
        self.modal = Some(Modal::Picker(
            Picker::new("Default section", options, PickPurpose::DefaultSection)
                .at(current.as_deref()),
        ));
    }

    fn pick_default_space(&mut self) {
        let Some(choices) = &self.form.choices else {
            self.warn("The site's structure is still loading");
            return;
        };
        let spaces = choices.spaces_in(self.form.values.default_section.as_deref());
        if spaces.is_empty() {
            self.warn("No site spaces to choose from");
            return;
        }
        let options = spaces
            .into_iter()
            .map(|space| PickOption {
                value: space.id,
                label: space.title,
                detail: format!("/{}", space.path),
            })
            .collect();
        let current = self.form.values.default_space.clone();
        self.modal = Some(Modal::Picker(
            Picker::new("Default site space", options, PickPurpose::DefaultSpace)
                .at(current.as_deref()),
        ));
    }

    /// Sends the changed fields, once every field is valid.
    pub fn save(&mut self, ctx: &mut Ctx) -> Cmd {
        if let Some(reason) = self.read_only_reason() {
            self.warn(reason);
            return Cmd::None;
        }
        self.form.commit();
        if let Some((field, reason)) = self.form.first_error() {
            self.form.select(field);
            self.warn(format!("Not saved: {} — {reason}", field.label()));
            return Cmd::None;
        }
        let update = self.form.update();
        if update.is_empty() {
            self.say("Nothing to save");
            return Cmd::None;
        }
        let (organization, site) = self.ids();
        let changed = self.form.changed_fields();
        self.write(
            SitesCall::UpdateSite {
                organization,
                site,
                update,
            },
            Pending::Save(changed),
            ctx,
        )
    }

    /// The confirmation before publishing or unpublishing, naming who will (or will no
    /// longer) reach the site.
    pub fn ask_publish(&mut self) {
        if let Some(reason) = self.read_only_reason() {
            self.warn(reason);
            return;
        }
        let visibility = self.site.visibility.as_ref();
        let who = audience(visibility);
        let named = visibility.map_or("unknown".to_string(), |v| v.to_string());
        let title = &self.site.title;
        let (confirm, then) = if self.site.published {
            (
                Confirm::new(
                    format!("Unpublish “{title}”?"),
                    format!("It will no longer be reachable by {who} (visibility: {named})."),
                    "unpublish",
                ),
                Confirmed::Unpublish,
            )
        } else {
            let mut consequence = format!("It will be reachable by {who} (visibility: {named}).");
            if self.form.is_changed(Field::Visibility) {
                consequence.push_str(" Your unsaved visibility change is not part of this.");
            }
            (
                Confirm::new(format!("Publish “{title}”?"), consequence, "publish"),
                Confirmed::Publish,
            )
        };
        self.modal = Some(Modal::Confirm { confirm, then });
    }

    // ----- Share links -----

    fn on_share_link_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.share_links.value().map_or(0, Vec::len);
        let writes = matches!(
            action,
            Action::Create | Action::Rename | Action::ToggleActive | Action::Delete
        );
        if writes && let Some(reason) = self.read_only_reason() {
            self.warn(reason);
            return Some(Step::default());
        }
        match action {
            Action::Down => self.link_selection.move_by(1, len),
            Action::Up => self.link_selection.move_by(-1, len),
            Action::Top => self.link_selection.top(),
            Action::Bottom => self.link_selection.bottom(len),
            Action::Create => {
                self.modal = Some(Modal::Prompt(Prompt::new(
                    "New share link",
                    "A name for who it is for (1–50 characters)",
                    "",
                    PromptPurpose::NewShareLink,
                )));
            }
            Action::Rename => {
                let link = self.selected_link()?;
                let prompt = Prompt::new(
                    "Rename share link",
                    "1–50 characters",
                    link.name.as_deref().unwrap_or_default(),
                    PromptPurpose::RenameShareLink {
                        id: link.id.clone(),
                    },
                );
                self.modal = Some(Modal::Prompt(prompt));
            }
            Action::ToggleActive => {
                let link = self.selected_link()?.clone();
                let name = link.name.unwrap_or_else(|| link.id.clone());
                if link.active.unwrap_or(true) {
                    // Deactivating cuts off everyone holding the link: ask first.
                    self.modal = Some(Modal::Confirm {
                        confirm: Confirm::new(
                            format!("Deactivate share link “{name}”?"),
                            "Everyone using its URL loses access to the site. It can be \
                             activated again later.",
                            "deactivate",
                        ),
                        then: Confirmed::DeactivateShareLink { id: link.id, name },
                    });
                    return Some(Step::default());
                }
                let cmd = self.set_link_active(link.id, &name, true, ctx);
                return Some(Step::cmd(cmd));
            }
            Action::Delete => {
                let link = self.selected_link()?;
                let name = link.name.clone().unwrap_or_else(|| link.id.clone());
                self.modal = Some(Modal::Confirm {
                    confirm: Confirm::new(
                        format!("Delete share link “{name}”?"),
                        "Its URL stops working for everyone who has it. This cannot be undone.",
                        "delete",
                    ),
                    then: Confirmed::DeleteShareLink {
                        id: link.id.clone(),
                        name,
                    },
                });
            }
            _ => return None,
        }
        Some(Step::default())
    }

    fn set_link_active(&mut self, link: String, name: &str, active: bool, ctx: &mut Ctx) -> Cmd {
        let done = if active {
            format!("Activated “{name}”")
        } else {
            format!("Deactivated “{name}”: its URL no longer opens the site")
        };
        let (organization, site) = self.ids();
        self.write(
            SitesCall::UpdateShareLink {
                organization,
                site,
                link,
                active: Some(active),
                name: None,
            },
            Pending::ShareLink(done),
            ctx,
        )
    }

    // ----- Section groups -----

    fn selected_group_row(&self) -> Option<GroupRow> {
        self.group_rows()
            .get(self.group_selection.selected)
            .cloned()
    }

    fn on_group_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let rows = self.group_rows();
        let len = rows.len();
        let writes = matches!(
            action,
            Action::Create
                | Action::Rename
                | Action::ChangeIcon
                | Action::Delete
                | Action::AddSection
                | Action::RemoveSection
        );
        if writes && let Some(reason) = self.read_only_reason() {
            self.warn(reason);
            return Some(Step::default());
        }
        let row = self.selected_group_row();
        match (action, row) {
            (Action::Down, _) => self.group_selection.move_by(1, len),
            (Action::Up, _) => self.group_selection.move_by(-1, len),
            (Action::Top, _) => self.group_selection.top(),
            (Action::Bottom, _) => self.group_selection.bottom(len),
            (Action::Create, _) => {
                self.modal = Some(Modal::Prompt(Prompt::new(
                    "New section group: title",
                    "1–100 characters",
                    "",
                    PromptPurpose::NewGroupTitle,
                )));
            }
            (Action::Rename, Some(GroupRow::Group { id, title, .. })) => {
                self.modal = Some(Modal::Prompt(Prompt::new(
                    "Rename section group",
                    "1–100 characters",
                    &title,
                    PromptPurpose::RenameGroup { id },
                )));
            }
            (Action::ChangeIcon, Some(GroupRow::Group { id, icon, .. })) => {
                self.modal = Some(Modal::Prompt(Prompt::new(
                    "Icon name",
                    "At most 50 characters; empty removes the icon",
                    icon.as_deref().unwrap_or_default(),
                    PromptPurpose::GroupIcon { id },
                )));
            }
            (Action::Delete, Some(GroupRow::Group { id, title, .. })) => {
                self.modal = Some(Modal::Confirm {
                    confirm: Confirm::new(
                        format!("Delete section group “{title}”?"),
                        "Its sections and groups move up to its parent; none is deleted.",
                        "delete",
                    ),
                    then: Confirmed::DeleteGroup { id, title },
                });
            }
            (Action::AddSection, Some(row)) => {
                let group = match row {
                    GroupRow::Group { id, .. } => id,
                    GroupRow::Section { group, .. } => group,
                };
                self.pick_section_to_add(group);
            }
            (
                Action::RemoveSection,
                Some(GroupRow::Section {
                    group, id, title, ..
                }),
            ) => {
                let (organization, site) = self.ids();
                let cmd = self.write(
                    SitesCall::RemoveSectionFromGroup {
                        organization,
                        site,
                        group,
                        section: id,
                    },
                    Pending::SectionGroup(format!("Removed “{title}” from its group"), None),
                    ctx,
                );
                return Some(Step::cmd(cmd));
            }
            (Action::RemoveSection, Some(GroupRow::Group { id, .. })) => {
                let options: Vec<PickOption> = rows
                    .iter()
                    .filter_map(|row| match row {
                        GroupRow::Section {
                            group,
                            id: section,
                            title,
                            ..
                        } if *group == id => Some(PickOption {
                            value: section.clone(),
                            label: title.clone(),
                            detail: String::new(),
                        }),
                        _ => None,
                    })
                    .collect();
                if options.is_empty() {
                    self.warn("This group holds no section");
                } else {
                    self.modal = Some(Modal::Picker(Picker::new(
                        "Remove which section from the group?",
                        options,
                        PickPurpose::RemoveSection { group: id },
                    )));
                }
            }
            (
                Action::Rename | Action::ChangeIcon | Action::Delete,
                Some(GroupRow::Section { .. }),
            ) => {
                self.warn("Select a group row for this");
            }
            (
                Action::Rename
                | Action::ChangeIcon
                | Action::Delete
                | Action::AddSection
                | Action::RemoveSection,
                None,
            ) => self.warn("No group selected"),
            _ => return None,
        }
        Some(Step::default())
    }

    fn pick_section_to_add(&mut self, group: String) {
        let inside: Vec<String> = self
            .group_rows()
            .into_iter()
            .filter_map(|row| match row {
                GroupRow::Section {
                    group: holder, id, ..
                } if holder == group => Some(id),
                _ => None,
            })
            .collect();
        let options: Vec<PickOption> = self
            .all_sections()
            .into_iter()
            .filter(|(id, _)| !inside.contains(id))
            .map(|(id, title)| PickOption {
                value: id,
                label: title,
                detail: String::new(),
            })
            .collect();
        if options.is_empty() {
            self.warn("No other section to add");
            return;
        }
        self.modal = Some(Modal::Picker(Picker::new(
            "Add which section to the group?",
            options,
            PickPurpose::AddSection { group },
        )));
    }

    // ----- Adaptive -----

    fn on_adaptive_action(&mut self, action: Action) -> Option<Step> {
        match action {
            Action::Down => self.adaptive_scroll = self.adaptive_scroll.saturating_add(1),
            Action::Up => self.adaptive_scroll = self.adaptive_scroll.saturating_sub(1),
            Action::PageDown | Action::HalfPageDown => {
                self.adaptive_scroll = self.adaptive_scroll.saturating_add(10)
            }
            Action::PageUp | Action::HalfPageUp => {
                self.adaptive_scroll = self.adaptive_scroll.saturating_sub(10)
            }
            Action::Top => self.adaptive_scroll = 0,
            Action::EditSchema => {
                if let Some(reason) = self.adaptive_edit_reason() {
                    self.warn(reason);
                    return Some(Step::default());
                }
                let text = self.schema_draft.clone().unwrap_or_else(|| {
                    self.adaptive
                        .value()
                        .and_then(|data| data.schema.as_ref())
                        .and_then(|schema| serde_json::to_string_pretty(&schema.json_schema).ok())
                        .unwrap_or_else(|| SCHEMA_TEMPLATE.to_string())
                });
                self.modal = Some(Modal::Composer(Box::new(SchemaEditor::new(Composer::new(
                    "Adaptive schema (JSON)",
                    &text,
                )))));
            }
            _ => return None,
        }
        Some(Step::default())
    }

    // ----- Modals -----

    fn on_modal_key(&mut self, modal: Modal, key: &KeyEvent, ctx: &mut Ctx) -> Step {
        match modal {
            Modal::Confirm { confirm, then } => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => return self.confirmed(then, ctx),
                ConfirmOutcome::Cancelled => {}
                ConfirmOutcome::Ignored => self.modal = Some(Modal::Confirm { confirm, then }),
            },
            Modal::Prompt(mut prompt) => match prompt.input.handle_key(key) {
                InputOutcome::Submitted => {
                    if prompt.error().is_some() {
                        self.modal = Some(Modal::Prompt(prompt));
                    } else {
                        let text = prompt.input.text.trim().to_string();
                        return Step::cmd(self.prompted(prompt.purpose, text, ctx));
                    }
                }
                InputOutcome::Cancelled => {}
                _ => self.modal = Some(Modal::Prompt(prompt)),
            },
            Modal::Picker(mut picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => {
                    return Step::cmd(self.picked(picker.purpose, values, ctx));
                }
                PickOutcome::Cancelled => {}
                PickOutcome::Pending => self.modal = Some(Modal::Picker(picker)),
            },
            Modal::Composer(mut editor) => {
                let composer = editor.get_mut();
                let mut cmd = Cmd::None;
                match composer.handle_key(key) {
                    ComposerOutcome::Submit => match check_schema(&composer.text()) {
                        Err(reason) => composer.error = Some(reason),
                        Ok(schema) => {
                            let (organization, site) = self.ids();
                            cmd = self.write(
                                SitesCall::PutAdaptiveSchema {
                                    organization,
                                    site,
                                    schema,
                                },
                                Pending::Schema,
                                ctx,
                            );
                            composer.submitting = cmd != Cmd::None;
                        }
                    },
                    // Closed keeps the draft for next time; discarded throws it away on purpose.
                    ComposerOutcome::Closed => return Step::default(),
                    ComposerOutcome::Discarded => {
                        self.schema_draft = None;
                        return Step::cmd(Cmd::DiscardDraft {
                            key: self.schema_draft_key(),
                        });
                    }
                    ComposerOutcome::OpenEditor => {
                        cmd = Cmd::EditExternally {
                            key: self.schema_draft_key(),
                            text: composer.text(),
                        };
                    }
                    ComposerOutcome::Edited => {
                        let text = composer.text();
                        self.schema_draft = Some(text.clone());
                        cmd = Cmd::SaveDraft {
                            key: self.schema_draft_key(),
                            text,
                        };
                    }
                    ComposerOutcome::Ignored => {}
                }
                self.modal = Some(Modal::Composer(editor));
                return Step::cmd(cmd);
            }
        }
        Step::default()
    }

    fn confirmed(&mut self, then: Confirmed, ctx: &mut Ctx) -> Step {
        let (organization, site) = self.ids();
        let cmd = match then {
            Confirmed::Leave => return Step::pop(),
            Confirmed::Publish => self.write(
                SitesCall::Publish { organization, site },
                Pending::Publish,
                ctx,
            ),
            Confirmed::Unpublish => self.write(
                SitesCall::Unpublish { organization, site },
                Pending::Unpublish,
                ctx,
            ),
            Confirmed::DeactivateShareLink { id, name } => {
                self.set_link_active(id, &name, false, ctx)
            }
            Confirmed::DeleteShareLink { id, name } => self.write(
                SitesCall::DeleteShareLink {
                    organization,
                    site,
                    link: id,
                },
                Pending::ShareLink(format!("Deleted share link “{name}”")),
                ctx,
            ),
            Confirmed::DeleteGroup { id, title } => self.write(
                SitesCall::DeleteSectionGroup {
                    organization,
                    site,
                    group: id,
                },
                Pending::SectionGroup(format!("Deleted section group “{title}”"), None),
                ctx,
            ),
        };
        Step::cmd(cmd)
    }

    fn prompted(&mut self, purpose: PromptPurpose, text: String, ctx: &mut Ctx) -> Cmd {
        let (organization, site) = self.ids();
        match purpose {
            PromptPurpose::NewShareLink => self.write(
                SitesCall::CreateShareLink {
                    organization,
                    site,
                    name: text.clone(),
                },
                Pending::ShareLink(format!("Created share link “{text}”")),
                ctx,
            ),
            PromptPurpose::RenameShareLink { id } => self.write(
                SitesCall::UpdateShareLink {
                    organization,
                    site,
                    link: id,
                    active: None,
                    name: Some(text.clone()),
                },
                Pending::ShareLink(format!("Renamed the share link to “{text}”")),
                ctx,
            ),
            PromptPurpose::NewGroupTitle => {
                self.modal = Some(Modal::Prompt(Prompt::new(
                    "New section group: icon name",
                    "Optional, at most 50 characters; enter to skip",
                    "",
                    PromptPurpose::NewGroupIcon { title: text },
                )));
                Cmd::None
            }
            PromptPurpose::NewGroupIcon { title } => {
                let icon = Some(text).filter(|icon| !icon.is_empty());
                let options: Vec<PickOption> = self
                    .all_sections()
                    .into_iter()
                    .map(|(id, title)| PickOption {
                        value: id,
                        label: title,
                        detail: String::new(),
                    })
                    .collect();
                self.modal = Some(Modal::Picker(
                    Picker::new(
                        "Sections to move into it (space marks, enter goes on)",
                        options,
                        PickPurpose::NewGroupSections { title, icon },
                    )
                    .multiple(),
                ));
                Cmd::None
            }
            PromptPurpose::RenameGroup { id } => self.write(
                SitesCall::UpdateSectionGroup {
                    organization,
                    site,
                    group: id,
                    title: Some(text.clone()),
                    icon: None,
                },
                Pending::SectionGroup(format!("Renamed the group to “{text}”"), None),
                ctx,
            ),
            PromptPurpose::GroupIcon { id } => {
                let done = if text.is_empty() {
                    "Removed the group's icon".to_string()
                } else {
                    format!("Set the group's icon to “{text}”")
                };
                let icon = Some(Some(text).filter(|icon| !icon.is_empty()));
                self.write(
                    SitesCall::UpdateSectionGroup {
                        organization,
                        site,
                        group: id,
                        title: None,
                        icon,
                    },
                    Pending::SectionGroup(done, None),
                    ctx,
                )
            }
        }
    }

    fn picked(&mut self, purpose: PickPurpose, values: Vec<String>, ctx: &mut Ctx) -> Cmd {
        let first = values.first().cloned();
        let (organization, site) = self.ids();
        match purpose {
            PickPurpose::Visibility => {
                if let Some(value) = first {
                    self.form.values.visibility = Some(SiteVisibility::from(value.as_str()));
                }
                Cmd::None
            }
            PickPurpose::DefaultSection => {
                if first != self.form.values.default_section {
                    self.form.values.default_section = first;
                    // The section brings its own default space unless one is picked.
                    self.form.values.default_space = self.form.original.default_space.clone();
                }
                Cmd::None
            }
            PickPurpose::DefaultSpace => {
                if first.is_some() {
                    self.form.values.default_space = first;
                }
                Cmd::None
            }
            PickPurpose::NewGroupSections { title, icon } => {
                let mut options = vec![PickOption {
                    value: String::new(),
                    label: "(the site's top level)".into(),
                    detail: String::new(),
                }];
                for row in self.group_rows() {
                    if let GroupRow::Group {
                        id, title, depth, ..
                    } = row
                    {
                        options.push(PickOption {
                            value: id,
                            label: format!("{}{title}", "  ".repeat(depth.min(8))),
                            detail: String::new(),
                        });
                    }
                }
                self.modal = Some(Modal::Picker(Picker::new(
                    "Parent group",
                    options,
                    PickPurpose::NewGroupParent {
                        title,
                        icon,
                        sections: values,
                    },
                )));
                Cmd::None
            }
            PickPurpose::NewGroupParent {
                title,
                icon,
                sections,
            } => {
                let parent = first.filter(|parent| !parent.is_empty());
                self.write(
                    SitesCall::CreateSectionGroup {
                        organization,
                        site,
                        group: NewSectionGroup {
                            title: title.clone(),
                            icon,
                            sections,
                            parent,
                        },
                    },
                    Pending::SectionGroup(format!("Created section group “{title}”"), None),
                    ctx,
                )
            }
            PickPurpose::AddSection { group } => match first {
                Some(section) => self.write(
                    SitesCall::AddSectionToGroup {
                        organization,
                        site,
                        group,
                        section: section.clone(),
                    },
                    Pending::SectionGroup("Added the section to the group".into(), Some(section)),
                    ctx,
                ),
                None => Cmd::None,
            },
            PickPurpose::RemoveSection { group } => match first {
                Some(section) => self.write(
                    SitesCall::RemoveSectionFromGroup {
                        organization,
                        site,
                        group,
                        section,
                    },
                    Pending::SectionGroup("Removed the section from the group".into(), None),
                    ctx,
                ),
                None => Cmd::None,
            },
        }
    }

    // ----- Answers -----

    /// A write was refused: say why. A 403 turns the screen read-only and names the roles.
    fn refused(&mut self, error: &ApiError, ctx: &mut Ctx) -> Cmd {
        let message = server_message(error);
        if error.status() == Some(403) {
            self.forbidden = Some(message);
            self.warn(self.refusal("Refused", "change this site"));
            return self.ask_my_role(ctx);
        }
        self.warn(format!("Refused: {message}"));
        Cmd::None
    }

    fn finish(&mut self, pending: Pending, response: &SitesResponse, ctx: &mut Ctx) -> Cmd {
        self.pending = None;
        // ── review flow ──
        if let Some(entry) = self.log_pending.take()
            && logged::accepted(response)
        {
            ctx.action_log.record(entry);
        }
        match (pending, response) {
            (Pending::Save(fields), SitesResponse::Site(Ok(site))) => {
                self.site = site.clone();
                self.form.reset(site);
                let names: Vec<&str> = fields.iter().map(|field| field.wire_name()).collect();
                self.say(format!("Saved: {}", names.join(", ")));
                if fields.contains(&Field::DefaultSection) || fields.contains(&Field::DefaultSpace)
                {
                    return self.load_structure(ctx);
                }
                Cmd::None
            }
            (Pending::Save(_), SitesResponse::Site(Err(error))) => {
                if error.status() == Some(400) {
                    self.form.refused(&server_message(error));
                }
                self.refused(error, ctx)
            }
            (Pending::Publish, SitesResponse::Published(Ok(outcome))) => match outcome {
                PublishOutcome::Published(site) => {
                    self.site = (**site).clone();
                    self.say(format!(
                        "Published: reachable by {}",
                        audience(self.site.visibility.as_ref())
                    ));
                    self.load_structure(ctx)
                }
                PublishOutcome::Checkout { session_id } => {
                    self.warn(format!(
                        "Publishing needs a plan upgrade: finish checkout {session_id} in the web app"
                    ));
                    Cmd::None
                }
            },
            (Pending::Unpublish, SitesResponse::Site(Ok(site))) => {
                self.site = site.clone();
                self.say("Unpublished");
                Cmd::None
            }
            (
                Pending::ShareLink(done),
                SitesResponse::ShareLink(Ok(_)) | SitesResponse::Done(Ok(())),
            ) => {
                // What was just created or changed is selected once the list is back, so the
                // next key acts on it and not on whichever link now sits at the old index.
                if let SitesResponse::ShareLink(Ok(link)) = response {
                    self.select_after_reload = Some(link.id.clone());
                }
                self.say(done);
                self.load_share_links(ctx)
            }
            (
                Pending::SectionGroup(done, select),
                SitesResponse::SectionGroup(Ok(_)) | SitesResponse::Done(Ok(())),
            ) => {
                self.select_after_reload = select.or_else(|| match response {
                    SitesResponse::SectionGroup(Ok(group)) => Some(group.id.clone()),
                    _ => None,
                });
                self.say(done);
                Cmd::batch([self.load_groups(ctx), self.load_structure(ctx)])
            }
            (Pending::Schema, SitesResponse::SchemaSaved(Ok(_))) => {
                self.modal = None;
                self.schema_draft = None;
                self.say("Saved the adaptive schema");
                let discard = Cmd::DiscardDraft {
                    key: self.schema_draft_key(),
                };
                Cmd::batch([discard, self.load_adaptive(ctx)])
            }
            (Pending::Schema, SitesResponse::SchemaSaved(Err(error))) => {
                if let Some(Modal::Composer(editor)) = self.modal.as_mut() {
                    let composer = editor.get_mut();
                    composer.submitting = false;
                    composer.error = Some(server_message(error));
                }
                if error.status() == Some(403) {
                    self.forbidden = Some(server_message(error));
                    return self.ask_my_role(ctx);
                }
                Cmd::None
            }
            (pending, response) => {
                let Some(error) = response_error(response) else {
                    return Cmd::None;
                };
                let asked = self.refused(&error, ctx);
                // No answer: the write may have landed. Show the server's state before the user
                // tries again, so a share link is never created twice unseen.
                if crate::screens::review::outcome_unknown(&error) {
                    self.warn(format!(
                        "No answer from the server; it may or may not have been done. Reloaded: \
                         check before trying again ({})",
                        server_message(&error)
                    ));
                    return match pending {
                        Pending::ShareLink(_) => self.load_share_links(ctx),
                        Pending::SectionGroup(..) => {
                            Cmd::batch([self.load_groups(ctx), self.load_structure(ctx)])
                        }
                        _ => self.load_tab(ctx),
                    };
                }
                asked
            }
        }
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

fn response_error(response: &SitesResponse) -> Option<ApiError> {
    let error = match response {
        SitesResponse::Sites(Err(error))
        | SitesResponse::Site(Err(error))
        | SitesResponse::Published(Err(error))
        | SitesResponse::Structure(Err(error))
        | SitesResponse::Adaptive(Err(error))
        | SitesResponse::SchemaSaved(Err(error))
        | SitesResponse::ShareLinks(Err(error))
        | SitesResponse::ShareLink(Err(error))
        | SitesResponse::SectionGroups(Err(error))
        | SitesResponse::SectionGroup(Err(error))
        | SitesResponse::Done(Err(error))
        | SitesResponse::Access(Err(error)) => error,
        _ => return None,
    };
    Some(error.clone())
}

impl ScreenState for SiteScreen {
    fn unsaved_work(&self) -> Option<String> {
        self.form
            .is_dirty()
            .then(|| format!("unsaved settings of {}", self.site.title))
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        let drafts = Cmd::LoadDrafts {
            prefix: self.schema_draft_key(),
        };
        // A user who may not change the site is told why, naming their role: ask for it now.
        let role = if self.read_only_reason().is_some() {
            self.ask_my_role(ctx)
        } else {
            Cmd::None
        };
        Cmd::batch([self.load_structure(ctx), self.load_tab(ctx), drafts, role])
    }

    fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)], _ctx: &mut Ctx) -> Cmd {
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

    // ── review flow ──
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

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        match self.modal.as_mut() {
            Some(Modal::Prompt(prompt)) => prompt.input.insert_str(text),
            Some(Modal::Composer(editor)) => editor.get_mut().insert_str(text),
            Some(_) => {}
            None => self.form.paste(text),
        }
        Cmd::None
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
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
                            "Unsaved changes to {} will be lost. ({} saves them instead.)",
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

    fn on_response(
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
                let links = self.share_links.value().map_or(&[][..], Vec::as_slice);
                let followed = self
                    .select_after_reload
                    .take()
                    .and_then(|id| links.iter().position(|link| link.id == id));
                match followed {
                    Some(index) => self.link_selection.select(index, links.len()),
                    None => self.link_selection.clamp(links.len()),
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

    fn draw(&self, frame: &mut Frame, area: Rect, model: &Model) {
        view::draw(self, frame, area, model);
    }
}
