//! Changing the space selected in the Spaces tab: lock/unlock, rename, emoji, default level,
//! language, merge rules, duplicate and delete. The organization screen hands these actions
//! here; collections are left to their own operations.

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use super::{OrgNode, Organization, space_log};
use crate::api::error::server_message;
use crate::api::language_name;
use crate::api::models::space::LANGUAGES;
use crate::api::models::{DefaultLevel, Member, MergeRules, Space, SpaceEditMode};
use crate::api::{ApiError, SpaceUpdate, WholeList};
use crate::screens::step::{Ctx, Step};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::emoji_picker::{EmojiPicker, PickerOutcome};
use crate::ui::hit::Canvas;
use crate::ui::input::InputOutcome;
use crate::ui::keymap::Action;
use crate::ui::notice::Notice;
use crate::ui::picker::{PickOption, PickOutcome, Picker};
use crate::ui::prompt::{Prompt, TextCheck};
use crate::ui::theme::Theme;
use crate::vocabulary::spaces::{SpacesCall, SpacesResponse};
use crate::vocabulary::{ApiCall, Cmd, RequestId};

/// The actions on a space that need its `admin` permission.
pub const SPACE_ACTIONS: [Action; 8] = [
    Action::ToggleLock,
    Action::Rename,
    Action::ChangeIcon,
    Action::DefaultLevel,
    Action::EditLanguage,
    Action::MergeRules,
    Action::Duplicate,
    Action::Delete,
];

/// The actions that only a space has (a collection has no lock, emoji, language …).
const ONLY_SPACES: [Action; 5] = [
    Action::ToggleLock,
    Action::ChangeIcon,
    Action::EditLanguage,
    Action::MergeRules,
    Action::Duplicate,
];

/// What a prompt's text is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenameSpace {
    pub space: String,
}

impl TextCheck for RenameSpace {
    /// A space title is 1 to 50 characters (the service's `SpaceTitle`).
    fn check(&self, text: &str) -> Option<String> {
        let length = text.trim().chars().count();
        if length == 0 {
            Some("a title is required".into())
        } else if length > 50 {
            Some(format!("at most 50 characters ({length})"))
        } else {
            None
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpacePick {
    DefaultLevel {
        space: String,
    },
    Language {
        space: String,
    },
    /// Inherit, or go on to choose reviewers.
    MergeRules {
        space: String,
    },
    Reviewers {
        space: String,
    },
}

#[derive(Debug)]
pub enum SpaceModal {
    ConfirmDelete {
        confirm: Confirm,
        space: Box<Space>,
    },
    Rename(Prompt<RenameSpace>),
    Pick(Picker<SpacePick>),
    Emoji {
        picker: Box<EmojiPicker>,
        space: String,
    },
}

/// What a request in flight was for, to word its outcome.
#[derive(Debug, Clone, PartialEq)]
enum Pending {
    Update { title: String, done: String },
    Delete(Box<Space>),
    Duplicate { title: String },
    Members { space: String },
}

/// The Spaces tab's operations on spaces: a popup, a notice, the request in flight.
#[derive(Debug, Default)]
pub struct SpaceOps {
    pub modal: Option<SpaceModal>,
    pub notice: Option<Notice>,
    pending: Option<(RequestId, Pending)>,
    /// The organization's members, fetched the first time reviewers are chosen.
    members: Option<WholeList<Member>>,
    /// After a duplicate, the reloaded tree selects the copy (its node key).
    select_after_load: Option<String>,
    /// A content template being applied (`space_template.rs`).
    pub template: super::space_template::TemplateOps,
}

impl SpaceOps {
    pub fn is_busy(&self) -> bool {
        self.pending.is_some() || self.template.pending.is_some()
    }
}

/// Why the selected space cannot be changed, or `None` when it can.
pub fn refusal(space: &Space) -> Option<String> {
    (!space.permissions.admin)
        .then(|| format!("only an admin of the space “{}” may change it", space.title))
}

fn level_options() -> Vec<PickOption> {
    let levels = [
        ("admin", "administrate content: create, delete spaces"),
        ("create", "create content"),
        ("edit", "edit live content or change requests"),
        ("review", "review content"),
        ("comment", "access content and discussions"),
        ("read", "access content, no updates"),
        ("none", "no default access: only people given one"),
    ];
    levels
        .iter()
        .map(|(value, detail)| PickOption {
            value: value.to_string(),
            label: value.to_string(),
            detail: detail.to_string(),
        })
        .collect()
}

fn language_options() -> Vec<PickOption> {
    LANGUAGES
        .iter()
        .map(|code| PickOption {
            value: code.to_string(),
            label: format!("{code:<6} {}", language_name(code)),
            detail: String::new(),
        })
        .collect()
}

fn reviewer_options(members: &[Member]) -> Vec<PickOption> {
    members
        .iter()
        .filter(|member| !member.disabled)
        .map(|member| PickOption {
            value: member.user.id.clone(),
            label: member.user.display_name.clone(),
            detail: member.user.email.clone().unwrap_or_default(),
        })
        .collect()
}

impl Organization {
    /// The selected space, when the selection is one.
    fn selected_space(&self) -> Option<&Space> {
        match self.selected_node()? {
            OrgNode::Space(space) => Some(space),
            OrgNode::Collection(_) => None,
        }
    }

    /// Actions struck through in the footer for the selection.
    pub(super) fn space_disabled_actions(&self) -> Vec<Action> {
        match self.selected_node() {
            Some(OrgNode::Space(space)) if refusal(space).is_some() => SPACE_ACTIONS.to_vec(),
            Some(OrgNode::Collection(_)) => ONLY_SPACES.to_vec(),
            _ => Vec::new(),
        }
    }

    /// Handles a space action on the selection; `None` for other actions and for those a
    /// collection handles itself (rename, default level, delete).
    pub(super) fn on_space_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        if !SPACE_ACTIONS.contains(&action) {
            return None;
        }
        let Some(space) = self.selected_space().cloned() else {
            if ONLY_SPACES.contains(&action) && self.selected_node().is_some() {
                self.space_ops.notice = Some(Notice::info(format!(
                    "not a space: {} applies to spaces only",
                    action.help()
                )));
                return Some(Step::default());
            }
            return None;
        };
        if let Some(reason) = refusal(&space) {
            self.space_ops.notice = Some(Notice::info(reason));
            return Some(Step::default());
        }
        if self.space_ops.is_busy() {
            self.space_ops.notice = Some(Notice::info("still sending the last change…"));
            return Some(Step::default());
        }
        let ops = &mut self.space_ops;
        let id = space.id.clone();
        let cmd = match action {
            Action::ToggleLock => {
                let (mode, done) = if space.is_locked() {
                    (SpaceEditMode::Live, "unlocked: live edits are allowed")
                } else {
                    (SpaceEditMode::Locked, "locked: all edits are locked")
                };
                let update = SpaceUpdate {
                    edit_mode: Some(mode),
                    ..SpaceUpdate::default()
                };
                self.send_update(&space, update, done, ctx)
            }
            Action::Rename => {
                ops.modal = Some(SpaceModal::Rename(Prompt::new(
                    "Rename space",
                    "1 to 50 characters",
                    &space.title,
                    RenameSpace { space: id },
                )));
                Cmd::None
            }
            Action::ChangeIcon => {
                let mut picker = EmojiPicker::new(&[], Vec::new());
                picker.title = " Space emoji — type to search, enter picks ".into();
                ops.modal = Some(SpaceModal::Emoji {
                    picker: Box::new(picker),
                    space: id,
                });
                Cmd::None
            }
            Action::DefaultLevel => {
                let current = space.default_level.as_ref().map(ToString::to_string);
                let picker = Picker::new(
                    "Default access level",
                    level_options(),
                    SpacePick::DefaultLevel { space: id },
                )
                .at(Some(current.as_deref().unwrap_or("none")));
                ops.modal = Some(SpaceModal::Pick(picker));
                Cmd::None
            }
            Action::EditLanguage => {
                let picker = Picker::new(
                    "Language",
                    language_options(),
                    SpacePick::Language { space: id },
                )
                .at(space.language.as_deref());
                ops.modal = Some(SpaceModal::Pick(picker));
                Cmd::None
            }
            Action::MergeRules => {
                let options = vec![
                    PickOption {
                        value: "inherit".into(),
                        label: "Inherit the organization's rules".into(),
                        detail: "change requests merge as the organization says".into(),
                    },
                    PickOption {
                        value: "reviewers".into(),
                        label: "Require specific reviewers…".into(),
                        detail: "choose members who must approve before a merge".into(),
                    },
                ];
                let current = match space.merge_rules() {
                    MergeRules::SpecificReviewers(_) => "reviewers",
                    _ => "inherit",
                };
                let picker =
                    Picker::new("Merge rules", options, SpacePick::MergeRules { space: id })
                        .at(Some(current));
                ops.modal = Some(SpaceModal::Pick(picker));
                Cmd::None
            }
            Action::Duplicate => {
                let call = SpacesCall::Duplicate { space: id };
                let pending = Pending::Duplicate {
                    title: space.title.clone(),
                };
                self.send(call, pending, ctx)
            }
            Action::Delete => {
                let confirm = Confirm::new(
                    format!("Delete space “{}”?", space.title),
                    "It goes to the Trash tab and can be restored for 7 days; after that it \
                     is gone for good.",
                    "delete",
                );
                ops.modal = Some(SpaceModal::ConfirmDelete {
                    confirm,
                    space: Box::new(space),
                });
                Cmd::None
            }
            _ => return None,
        };
        Some(Step::cmd(cmd))
    }

    fn send(&mut self, call: SpacesCall, pending: Pending, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.space_ops.pending = Some((request, pending));
        Cmd::Api {
            request,
            call: ApiCall::Spaces(call),
        }
    }

    fn send_update(
        &mut self,
        space: &Space,
        update: SpaceUpdate,
        done: &str,
        ctx: &mut Ctx,
    ) -> Cmd {
        let call = SpacesCall::Update {
            space: space.id.clone(),
            update,
        };
        let pending = Pending::Update {
            title: space.title.clone(),
            done: done.to_string(),
        };
        self.send(call, pending, ctx)
    }

    fn space_by_id(&self, id: &str) -> Option<Space> {
        self.tree
            .value()?
            .nodes()
            .find_map(|(_, node)| match &node.item {
                OrgNode::Space(space) if space.id == id => Some(space.clone()),
                _ => None,
            })
    }

    /// Keys while a space popup is open; `None` when there is none.
    pub(super) fn on_space_modal_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.on_template_key(key, ctx) {
            return Some(step);
        }
        let modal = self.space_ops.modal.take()?;
        let cmd = match modal {
            SpaceModal::ConfirmDelete { confirm, space } => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => {
                    let call = SpacesCall::Delete {
                        space: space.id.clone(),
                    };
                    self.send(call, Pending::Delete(space), ctx)
                }
                ConfirmOutcome::Cancelled => Cmd::None,
                ConfirmOutcome::Ignored => {
                    self.space_ops.modal = Some(SpaceModal::ConfirmDelete { confirm, space });
                    Cmd::None
                }
            },
            SpaceModal::Rename(mut prompt) => match prompt.input.handle_key(key) {
                InputOutcome::Submitted if prompt.error().is_none() => {
                    let title = prompt.input.text.trim().to_string();
                    match self.space_by_id(&prompt.purpose.space) {
                        Some(space) if space.title != title => {
                            let update = SpaceUpdate {
                                title: Some(title.clone()),
                                ..SpaceUpdate::default()
                            };
                            self.send_update(&space, update, &format!("renamed “{title}”"), ctx)
                        }
                        _ => Cmd::None,
                    }
                }
                InputOutcome::Cancelled => Cmd::None,
                _ => {
                    self.space_ops.modal = Some(SpaceModal::Rename(prompt));
                    Cmd::None
                }
            },
            SpaceModal::Emoji { mut picker, space } => match picker.handle_key(key) {
                PickerOutcome::Chosen(emoji) => match self.space_by_id(&space) {
                    Some(space) => {
                        let update = SpaceUpdate {
                            emoji: Some(emoji.clone()),
                            ..SpaceUpdate::default()
                        };
                        self.send_update(&space, update, &format!("emoji is now {emoji}"), ctx)
                    }
                    None => Cmd::None,
                },
                PickerOutcome::Cancelled => Cmd::None,
                PickerOutcome::Pending => {
                    self.space_ops.modal = Some(SpaceModal::Emoji { picker, space });
                    Cmd::None
                }
            },
            SpaceModal::Pick(mut picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => self.space_picked(picker.purpose, values, ctx),
                PickOutcome::Cancelled => Cmd::None,
                PickOutcome::Pending => {
                    self.space_ops.modal = Some(SpaceModal::Pick(picker));
                    Cmd::None
                }
            },
        };
        Some(Step::cmd(cmd))
    }

    fn space_picked(&mut self, purpose: SpacePick, values: Vec<String>, ctx: &mut Ctx) -> Cmd {
        let id = match &purpose {
            SpacePick::DefaultLevel { space }
            | SpacePick::Language { space }
            | SpacePick::MergeRules { space }
            | SpacePick::Reviewers { space } => space.clone(),
        };
        let Some(space) = self.space_by_id(&id) else {
            return Cmd::None;
        };
        let first = values.first().cloned().unwrap_or_default();
        match purpose {
            SpacePick::DefaultLevel { .. } => {
                let level = (first != "none").then(|| DefaultLevel::from(first.as_str()));
                let update = SpaceUpdate {
                    default_level: Some(level),
                    ..SpaceUpdate::default()
                };
                self.send_update(&space, update, &format!("default level is {first}"), ctx)
            }
            SpacePick::Language { .. } => {
                let update = SpaceUpdate {
                    language: Some(first.clone()),
                    ..SpaceUpdate::default()
                };
                let name = language_name(&first);
                self.send_update(
                    &space,
                    update,
                    &format!("language is {name} ({first})"),
                    ctx,
                )
            }
            SpacePick::MergeRules { .. } if first == "inherit" => {
                let update = SpaceUpdate {
                    merge_rules: Some(MergeRules::Inherit),
                    ..SpaceUpdate::default()
                };
                let done = "merge rules: the organization's";
                self.send_update(&space, update, done, ctx)
            }
            SpacePick::MergeRules { .. } => match &self.space_ops.members {
                Some(_) => {
                    self.pick_reviewers(&space);
                    Cmd::None
                }
                None => {
                    let call = SpacesCall::Members {
                        organization: self.organization.id.clone(),
                    };
                    self.send(call, Pending::Members { space: space.id }, ctx)
                }
            },
            SpacePick::Reviewers { .. } if values.is_empty() => {
                self.space_ops.notice = Some(Notice::info(
                    "no reviewer chosen: mark members with space, or pick inherit",
                ));
                Cmd::None
            }
            SpacePick::Reviewers { .. } => {
                let count = values.len();
                let update = SpaceUpdate {
                    merge_rules: Some(MergeRules::SpecificReviewers(values)),
                    ..SpaceUpdate::default()
                };
                let reviewers = crate::ui::time::plural(
                    i64::try_from(count).unwrap_or(i64::MAX),
                    "required reviewer",
                    "required reviewers",
                );
                let done = format!("merge rules: {reviewers}");
                self.send_update(&space, update, &done, ctx)
            }
        }
    }

    /// The members as a several-choice picker, the space's current reviewers marked.
    fn pick_reviewers(&mut self, space: &Space) {
        let members = self.space_ops.members.as_ref();
        let options = reviewer_options(members.map_or(&[][..], |listed| listed.items.as_slice()));
        let title = crate::ui::status::picker_title(
            "Required reviewers",
            members.and_then(WholeList::stopped_after_pages),
        );
        let current = match space.merge_rules() {
            MergeRules::SpecificReviewers(users) => users,
            _ => Vec::new(),
        };
        let mut picker = Picker::new(
            &title,
            options,
            SpacePick::Reviewers {
                space: space.id.clone(),
            },
        )
        .multiple();
        picker.chosen = picker
            .options
            .iter()
            .enumerate()
            .filter(|(_, option)| current.contains(&option.value))
            .map(|(index, _)| index)
            .collect();
        self.space_ops.modal = Some(SpaceModal::Pick(picker));
    }

    /// An answer to a space request; `None` when this screen was not waiting for it.
    pub(super) fn on_space_response(
        &mut self,
        request: RequestId,
        response: &SpacesResponse,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        if let Some(reload) = self.trash.on_response(request, response, ctx.action_log) {
            let cmd = if reload {
                self.load_tree(ctx)
            } else {
                Cmd::None
            };
            return Some(Step::cmd(cmd));
        }
        if let Some(step) = self.on_template_response(request, response, ctx) {
            return Some(step);
        }
        let (waiting, pending) = self.space_ops.pending.clone()?;
        if waiting != request {
            return None;
        }
        self.space_ops.pending = None;
        let cmd = match (pending, response) {
            (Pending::Update { title, done }, SpacesResponse::Space(Ok(space))) => {
                self.replace_space(space);
                let said = format!("“{title}” {done}");
                ctx.action_log.record(space_log::update(&said));
                self.space_ops.notice = Some(Notice::info(said));
                Cmd::None
            }
            (Pending::Duplicate { title }, SpacesResponse::Space(Ok(copy))) => {
                ctx.action_log.record(space_log::duplicate(&title, copy));
                self.space_ops.notice = Some(Notice::info(format!(
                    "Duplicated “{title}” as “{}”",
                    copy.title
                )));
                self.space_ops.select_after_load = Some(OrgNode::Space(copy.clone()).key());
                self.load_tree(ctx)
            }
            (Pending::Delete(space), SpacesResponse::Deleted(Ok(()))) => {
                self.space_ops.notice = Some(Notice::info(format!(
                    "Deleted “{}”: restore it from the Trash tab within 7 days",
                    space.title
                )));
                // a deleted space is undone by restoring it.
                ctx.action_log.record(space_log::delete(&space));
                self.trash.remember_deleted(*space);
                self.load_tree(ctx)
            }
            (Pending::Members { space }, SpacesResponse::Members(Ok(members))) => {
                self.space_ops.members = Some(members.clone());
                if let Some(space) = self.space_by_id(&space) {
                    self.pick_reviewers(&space);
                }
                Cmd::None
            }
            (pending, response) => {
                let error = response_error(response);
                self.space_ops.notice = Some(Notice::error(failure_text(&pending, error)));
                Cmd::None
            }
        };
        Some(Step::cmd(cmd))
    }

    /// Shows a space as the server answered it, in place in the tree.
    fn replace_space(&mut self, updated: &Space) {
        let Some(tree) = self.tree.value_mut() else {
            return;
        };
        let index = tree.nodes().find_map(|(index, node)| match &node.item {
            OrgNode::Space(space) if space.id == updated.id => Some(index),
            _ => None,
        });
        if let Some(item) = index.and_then(|index| tree.item_mut(index)) {
            *item = OrgNode::Space(updated.clone());
        }
    }

    /// After a reload: selects the copy a duplicate made (opening its collection).
    pub(super) fn select_pending_space(&mut self) {
        let Some(key) = self.space_ops.select_after_load.take() else {
            return;
        };
        let Some(tree) = self.tree.value() else {
            return;
        };
        let Some((index, _)) = tree.nodes().find(|(_, node)| node.item.key() == key) else {
            return;
        };
        let mut open = self.tree_rows.open_keys(tree);
        for ancestor in tree.ancestors(index) {
            if let Some(node) = tree.item(ancestor) {
                open.insert(node.key());
            }
        }
        self.tree_rows = crate::ui::tree::TreeRows::reopened(tree, &open, &self.tree_filter.text);
        if let Some(row) = self
            .tree_rows
            .rows()
            .iter()
            .position(|row| row.node == index)
        {
            self.tree_selection.selected = row;
        }
    }
}

fn response_error(response: &SpacesResponse) -> Option<&ApiError> {
    match response {
        SpacesResponse::Space(Err(error))
        | SpacesResponse::Deleted(Err(error))
        | SpacesResponse::Members(Err(error))
        | SpacesResponse::TemplateApplied(Err(error)) => Some(error),
        _ => None,
    }
}

fn failure_text(pending: &Pending, error: Option<&ApiError>) -> String {
    let reason = error.map_or_else(|| "unexpected answer".to_string(), server_message);
    match pending {
        Pending::Update { title, .. } => format!("Could not change “{title}”: {reason}"),
        Pending::Delete(space) => format!("Could not delete “{}”: {reason}", space.title),
        Pending::Duplicate { title } => format!("Could not duplicate “{title}”: {reason}"),
        Pending::Members { .. } => format!("Could not list the members: {reason}"),
    }
}

/// Whether a key press is for an open space popup (so the filter and keymap do not see it).
pub fn has_modal(ops: &SpaceOps) -> bool {
    ops.modal.is_some() || ops.template.flow.is_some()
}

/// Draws the open popup above the tab.
pub fn draw_modal(ops: &SpaceOps, frame: &mut Canvas, area: Rect, theme: &Theme) {
    if let Some(flow) = &ops.template.flow {
        flow.draw(frame, area, theme);
    }
    match &ops.modal {
        Some(SpaceModal::ConfirmDelete { confirm, .. }) => confirm.draw(frame, area, theme),
        Some(SpaceModal::Rename(prompt)) => crate::ui::prompt::draw(prompt, frame, area, theme),
        Some(SpaceModal::Pick(picker)) => crate::ui::picker::draw(picker, frame, area, theme),
        Some(SpaceModal::Emoji { picker, .. }) => picker.draw(frame, area, theme),
        None => {}
    }
}
