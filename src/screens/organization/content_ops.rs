//! What the Spaces tab changes in the content tree: collections (create, rename, description,
//! default level, delete) and the move or transfer of a collection or a space. Each action
//! checks the item's `permissions` first (refused actions are struck through in the footer
//! and say why when pressed), asks through a prompt, picker or confirmation, sends one
//! request, then reloads the tree keeping its open nodes and selects the item acted on.

use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::{Clear, Paragraph};

use super::{OrgNode, Organization};
use crate::api::models::{Collection, DefaultLevel};
use crate::api::{
    ApiError, CollectionUpdate, ContentMove, ContentPointer, ContentPosition, MovedContent,
    NewCollection,
};
use crate::app::collections::{CollectionsCall, CollectionsResponse};
use crate::app::keymap::Action;
use crate::app::{ApiCall, Cmd, Ctx, Model, RequestId, Step};
use crate::screens::site::server_message;
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::input::InputOutcome;
use crate::ui::notice::{self, Notice};
use crate::ui::picker::{PickOption, PickOutcome, Picker};
use crate::ui::prompt::{Prompt, TextCheck};
use crate::ui::sanitize::sanitize;
use crate::ui::text;

/// Longest collection title and description (seed §8).
pub const TITLE_MAX: usize = 50;
pub const DESCRIPTION_MAX: usize = 100;

/// The footer hints of these actions, in order of importance.
pub const HINTS: [(Action, &str); 5] = [
    (Action::Create, "new"),
    (Action::Rename, "rename"),
    (Action::Move, "move"),
    (Action::Delete, "delete"),
    (Action::Transfer, "transfer"),
];

/// The actions this file answers on the Spaces tab.
const ACTIONS: [Action; 7] = [
    Action::Create,
    Action::Rename,
    Action::EditDescription,
    Action::DefaultLevel,
    Action::Delete,
    Action::Move,
    Action::Transfer,
];

/// The state of the content actions on the Spaces tab.
#[derive(Debug, Default)]
pub struct ContentOps {
    pub modal: Option<ContentModal>,
    pub notice: Option<Notice>,
    /// The write (or the organizations read) under way, and what it does, for its messages.
    pub pending: Option<(RequestId, Doing)>,
    /// The tree key (`OrgNode::key`) of the node to select once the tree reloads.
    pub select_after_reload: Option<String>,
    /// Titles of the organizations offered by the transfer picker, by id.
    organization_titles: Vec<(String, String)>,
}

/// What a request under way does, in words for its messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doing {
    /// "Renaming “Platform”".
    pub text: String,
    /// The item transferred, while the organizations it may go to are read.
    pub transfer: Option<(ContentPointer, String)>,
    /// Where to go once done: the tree key to select after the reload.
    pub select: Option<String>,
}

#[derive(Debug)]
pub enum ContentModal {
    Prompt(Prompt<TextPurpose>),
    Picker(Picker<PickPurpose>),
    Confirm { confirm: Confirm, then: Confirmed },
}

/// What a prompt's text is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextPurpose {
    NewCollection { parent: Option<String> },
    Rename { collection: String },
    Description { collection: String },
}

impl TextCheck for TextPurpose {
    fn check(&self, text: &str) -> Option<String> {
        let length = text.trim().chars().count();
        match self {
            TextPurpose::NewCollection { .. } | TextPurpose::Rename { .. } => {
                if length == 0 {
                    Some("a title is required".into())
                } else if length > TITLE_MAX {
                    Some(format!("at most {TITLE_MAX} characters ({length})"))
                } else {
                    None
                }
            }
            TextPurpose::Description { .. } => (length > DESCRIPTION_MAX)
                .then(|| format!("at most {DESCRIPTION_MAX} characters ({length})")),
        }
    }
}

/// What a picker's choice is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickPurpose {
    DefaultLevel {
        collection: String,
    },
    /// Where to: a parent collection (or the top level, `""`).
    MoveTarget {
        item: ContentPointer,
        title: String,
    },
    /// Where among the target's children: `end`, `before:<id>`, `after:<id>`.
    MovePosition {
        item: ContentPointer,
        title: String,
        parent: Option<String>,
    },
    TransferTarget {
        item: ContentPointer,
        title: String,
    },
}

/// What to do once a confirmation is answered yes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmed {
    Delete {
        collection: String,
        title: String,
        parent_key: Option<String>,
    },
    Transfer {
        item: ContentPointer,
        title: String,
        organization: String,
    },
}

/// The value of the "top level" choice of the move picker.
const TOP_LEVEL: &str = "";
/// The value of the "at the end" choice of the position picker.
const AT_THE_END: &str = "end";
/// The value of "no default level" in the level picker.
const NO_LEVEL: &str = "none";
const LEVELS: [&str; 6] = ["admin", "create", "review", "edit", "comment", "read"];

/// True for the actions this file answers.
pub fn handles(action: Action) -> bool {
    ACTIONS.contains(&action)
}

fn pointer_of(node: &OrgNode) -> ContentPointer {
    match node {
        OrgNode::Collection(collection) => ContentPointer::collection(&collection.id),
        OrgNode::Space(space) => ContentPointer::space(&space.id),
    }
}

fn key_of(pointer: &ContentPointer) -> String {
    match pointer {
        ContentPointer::Collection { collection } => format!("collection:{collection}"),
        ContentPointer::Space { space } => format!("space:{space}"),
    }
}

fn quoted(title: &str) -> String {
    format!("“{title}”")
}

/// Why `action` is refused on `node` (the selection; `None` when nothing is selected), in
/// words; `None` when it is allowed. Space actions other than move and transfer belong to the
/// space operations and are not judged here.
pub fn refusal(
    action: Action,
    node: Option<&OrgNode>,
    organization: &crate::api::models::Organization,
) -> Option<String> {
    let not_admin = |title: &str| {
        format!(
            "you are not an admin of {}; the admin role is needed",
            quoted(title)
        )
    };
    match (action, node) {
        (Action::Create, Some(OrgNode::Collection(collection))) => (!collection.permissions.create)
            .then(|| {
                format!(
                    "you cannot create in {}; the create role is needed",
                    quoted(&collection.title)
                )
            }),
        (Action::Create, _) => (!organization.permissions.create_content).then(|| {
            format!(
                "you cannot create in {}; the create role is needed",
                quoted(&organization.title)
            )
        }),
        (Action::EditDescription, Some(OrgNode::Space(_))) => {
            Some("not a collection: only collections have a description".into())
        }
        (
            Action::Rename | Action::EditDescription | Action::DefaultLevel | Action::Delete,
            Some(OrgNode::Collection(collection)),
        ) => (!collection.permissions.admin).then(|| not_admin(&collection.title)),
        (Action::Move | Action::Transfer, Some(OrgNode::Collection(collection))) => {
            (!collection.permissions.admin).then(|| not_admin(&collection.title))
        }
        (Action::Move | Action::Transfer, Some(OrgNode::Space(space))) => {
            (!space.permissions.admin).then(|| not_admin(&space.title))
        }
        (_, None) if action != Action::Create => Some("nothing is selected".into()),
        _ => None,
    }
}

/// The failure of a move or transfer in words: the seed's "would not change anything" as such.
fn move_failure(error: &ApiError, transfer: bool) -> String {
    match error.status() {
        Some(409) if transfer => {
            "would not change anything: it is already in that organization".into()
        }
        Some(409) => "would not change anything: it is already there".into(),
        _ => server_message(error),
    }
}

impl Organization {
    /// The content actions refused on the selection, struck through in the footer.
    pub(super) fn content_disabled_actions(&self) -> Vec<Action> {
        let node = self.selected_node();
        ACTIONS
            .into_iter()
            .filter(|action| refusal(*action, node, &self.organization).is_some())
            .collect()
    }

    fn content_request(&mut self, call: CollectionsCall, doing: Doing, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.content.notice = Some(Notice::info(format!("{}…", doing.text)));
        self.content.pending = Some((request, doing));
        Cmd::Api {
            request,
            call: ApiCall::Collections(call),
        }
    }

    /// A content action from the keymap; `None` when it is not one of this file's (or a space
    /// action the space operations answer).
    pub(super) fn on_content_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        if !handles(action) {
            return None;
        }
        let node = self.selected_node().cloned();
        if matches!(
            (action, &node),
            (
                Action::Rename | Action::DefaultLevel | Action::Delete,
                Some(OrgNode::Space(_))
            )
        ) {
            return None;
        }
        if let Some(reason) = refusal(action, node.as_ref(), &self.organization) {
            self.content.notice = Some(Notice::error(format!("Not allowed: {reason}")));
            return Some(Step::default());
        }
        if self.content.pending.is_some() {
            self.content.notice = Some(Notice::info("Still working on the last change…"));
            return Some(Step::default());
        }
        let cmd = match (action, node) {
            (Action::Create, node) => {
                let parent = match node {
                    Some(OrgNode::Collection(collection)) => Some(collection.id),
                    _ => None,
                };
                let title = match &parent {
                    Some(_) => "New collection inside the selected one",
                    None => "New collection at the top level",
                };
                self.content.modal = Some(ContentModal::Prompt(Prompt::new(
                    title,
                    "title, at most 50 characters",
                    "",
                    TextPurpose::NewCollection { parent },
                )));
                Cmd::None
            }
            (Action::Rename, Some(OrgNode::Collection(collection))) => {
                self.content.modal = Some(ContentModal::Prompt(Prompt::new(
                    &format!("Rename {}", quoted(&collection.title)),
                    "title, at most 50 characters",
                    &collection.title,
                    TextPurpose::Rename {
                        collection: collection.id,
                    },
                )));
                Cmd::None
            }
            (Action::EditDescription, Some(OrgNode::Collection(collection))) => {
                self.content.modal = Some(ContentModal::Prompt(Prompt::new(
                    &format!("Description of {}", quoted(&collection.title)),
                    "at most 100 characters",
                    collection.description.as_deref().unwrap_or_default(),
                    TextPurpose::Description {
                        collection: collection.id,
                    },
                )));
                Cmd::None
            }
            (Action::DefaultLevel, Some(OrgNode::Collection(collection))) => {
                self.content.modal = Some(ContentModal::Picker(level_picker(&collection)));
                Cmd::None
            }
            (Action::Delete, Some(OrgNode::Collection(collection))) => {
                self.content.modal = Some(self.delete_question(&collection));
                Cmd::None
            }
            (Action::Move, Some(node)) => {
                self.content.modal = Some(ContentModal::Picker(self.move_picker(&node)));
                Cmd::None
            }
            (Action::Transfer, Some(node)) => {
                let doing = Doing {
                    text: "Reading your organizations".into(),
                    transfer: Some((pointer_of(&node), node.title().to_string())),
                    select: None,
                };
                self.content_request(CollectionsCall::Organizations, doing, ctx)
            }
            _ => Cmd::None,
        };
        Some(Step::cmd(cmd))
    }

    /// Keys while a prompt, picker or confirmation is open; `None` when none is.
    pub(super) fn on_content_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        notice::on_key(&mut self.content.notice);
        let modal = self.content.modal.take()?;
        let cmd = match modal {
            ContentModal::Prompt(mut prompt) => match prompt.input.handle_key(key) {
                InputOutcome::Submitted if prompt.error().is_none() => {
                    self.prompt_answered(prompt, ctx)
                }
                InputOutcome::Submitted => {
                    // Refused text: the prompt stays, its line says why.
                    self.content.modal = Some(ContentModal::Prompt(prompt));
                    Cmd::None
                }
                InputOutcome::Cancelled => Cmd::None,
                _ => {
                    self.content.modal = Some(ContentModal::Prompt(prompt));
                    Cmd::None
                }
            },
            ContentModal::Picker(mut picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => {
                    let value = values.into_iter().next().unwrap_or_default();
                    self.picked(picker.purpose, &value, ctx)
                }
                PickOutcome::Cancelled => Cmd::None,
                PickOutcome::Pending => {
                    self.content.modal = Some(ContentModal::Picker(picker));
                    Cmd::None
                }
            },
            ContentModal::Confirm { confirm, then } => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => self.confirmed(then, ctx),
                ConfirmOutcome::Cancelled => Cmd::None,
                ConfirmOutcome::Ignored => {
                    self.content.modal = Some(ContentModal::Confirm { confirm, then });
                    Cmd::None
                }
            },
        };
        Some(Step::cmd(cmd))
    }

    /// Pasted text goes into an open prompt; `false` when there is none.
    pub(super) fn on_content_paste(&mut self, text: &str) -> bool {
        match self.content.modal.as_mut() {
            Some(ContentModal::Prompt(prompt)) => {
                prompt.input.insert_str(text);
                true
            }
            Some(_) => true,
            None => false,
        }
    }

    /// `esc` on the tab dismisses an error first; true when it did.
    pub(super) fn dismiss_content_error(&mut self) -> bool {
        notice::dismiss_error(&mut self.content.notice)
    }

    fn prompt_answered(&mut self, prompt: Prompt<TextPurpose>, ctx: &mut Ctx) -> Cmd {
        let text = prompt.input.text.trim().to_string();
        match prompt.purpose {
            TextPurpose::NewCollection { parent } => {
                let doing = Doing {
                    text: format!("Creating {}", quoted(&text)),
                    transfer: None,
                    select: None,
                };
                let call = CollectionsCall::Create {
                    organization: self.organization.id.clone(),
                    collection: NewCollection {
                        title: Some(text),
                        parent,
                    },
                };
                self.content_request(call, doing, ctx)
            }
            TextPurpose::Rename { collection } => {
                let update = CollectionUpdate {
                    title: Some(text.clone()),
                    ..CollectionUpdate::default()
                };
                self.update_collection(
                    collection,
                    update,
                    format!("Renaming to {}", quoted(&text)),
                    ctx,
                )
            }
            TextPurpose::Description { collection } => {
                let update = CollectionUpdate {
                    description: Some(text),
                    ..CollectionUpdate::default()
                };
                self.update_collection(collection, update, "Saving the description".into(), ctx)
            }
        }
    }

    fn update_collection(
        &mut self,
        collection: String,
        update: CollectionUpdate,
        text: String,
        ctx: &mut Ctx,
    ) -> Cmd {
        let doing = Doing {
            text,
            transfer: None,
            select: Some(format!("collection:{collection}")),
        };
        self.content_request(CollectionsCall::Update { collection, update }, doing, ctx)
    }

    fn picked(&mut self, purpose: PickPurpose, value: &str, ctx: &mut Ctx) -> Cmd {
        match purpose {
            PickPurpose::DefaultLevel { collection } => {
                let level = (value != NO_LEVEL).then(|| DefaultLevel::from(value));
                let update = CollectionUpdate {
                    default_level: Some(level),
                    ..CollectionUpdate::default()
                };
                let text = format!("Setting the default level to {value}");
                self.update_collection(collection, update, text, ctx)
            }
            PickPurpose::MoveTarget { item, title } => {
                let parent = (value != TOP_LEVEL).then(|| value.to_string());
                match self.position_picker(&item, &title, parent.clone()) {
                    Some(picker) => {
                        self.content.modal = Some(ContentModal::Picker(picker));
                        Cmd::None
                    }
                    None => self.send_move(item, &title, parent, None, ctx),
                }
            }
            PickPurpose::MovePosition {
                item,
                title,
                parent,
            } => {
                let position = position_of(&item, value);
                self.send_move(item, &title, parent, position, ctx)
            }
            PickPurpose::TransferTarget { item, title } => {
                let target = self
                    .content
                    .organizations_title(value)
                    .unwrap_or_else(|| value.to_string());
                let confirm = Confirm::new(
                    format!(
                        "Transfer {} from {} to {}?",
                        quoted(&title),
                        self.organization.title,
                        target
                    ),
                    "It leaves this organization with everything inside it, and lands at the \
                     top level of the other one.",
                    "transfer",
                );
                self.content.modal = Some(ContentModal::Confirm {
                    confirm,
                    then: Confirmed::Transfer {
                        item,
                        title,
                        organization: value.to_string(),
                    },
                });
                Cmd::None
            }
        }
    }

    fn send_move(
        &mut self,
        item: ContentPointer,
        title: &str,
        parent: Option<String>,
        position: Option<ContentPosition>,
        ctx: &mut Ctx,
    ) -> Cmd {
        let doing = Doing {
            text: format!("Moving {}", quoted(title)),
            transfer: None,
            select: Some(key_of(&item)),
        };
        let target = ContentMove { parent, position };
        self.content_request(CollectionsCall::Move { item, target }, doing, ctx)
    }

    fn confirmed(&mut self, then: Confirmed, ctx: &mut Ctx) -> Cmd {
        match then {
            Confirmed::Delete {
                collection,
                title,
                parent_key,
            } => {
                let doing = Doing {
                    text: format!("Deleting {}", quoted(&title)),
                    transfer: None,
                    select: parent_key,
                };
                self.content_request(CollectionsCall::Delete { collection }, doing, ctx)
            }
            Confirmed::Transfer {
                item,
                title,
                organization,
            } => {
                let doing = Doing {
                    text: format!("Transferring {}", quoted(&title)),
                    transfer: None,
                    select: self.parent_key_of(&key_of(&item)),
                };
                self.content_request(CollectionsCall::Transfer { item, organization }, doing, ctx)
            }
        }
    }

    /// An answer to a request of this file; `None` when it is someone else's.
    pub(super) fn on_content_response(
        &mut self,
        request: RequestId,
        response: &CollectionsResponse,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        let (pending, doing) = self.content.pending.clone()?;
        if pending != request {
            return None;
        }
        self.content.pending = None;
        let (select, done) = match response {
            CollectionsResponse::Organizations(result) => {
                self.transfer_targets(result, doing);
                return Some(Step::default());
            }
            CollectionsResponse::Collection(Ok(collection)) => (
                Some(format!("collection:{}", collection.id)),
                format!("{} — done", doing.text),
            ),
            CollectionsResponse::Moved(Ok(moved)) => {
                let select = match moved {
                    MovedContent::Collection(c)
                        if c.organization.as_deref() == Some(&self.organization.id) =>
                    {
                        Some(format!("collection:{}", c.id))
                    }
                    MovedContent::Space(s)
                        if s.organization.as_deref() == Some(&self.organization.id) =>
                    {
                        Some(format!("space:{}", s.id))
                    }
                    // Transferred away: its old place is selected.
                    _ => doing.select.clone(),
                };
                (select, format!("{} — done", doing.text))
            }
            CollectionsResponse::Deleted(Ok(())) => {
                (doing.select.clone(), format!("{} — done", doing.text))
            }
            CollectionsResponse::Collection(Err(error))
            | CollectionsResponse::Deleted(Err(error)) => {
                self.content.notice = Some(Notice::error(format!(
                    "{} failed: {}",
                    doing.text,
                    server_message(error)
                )));
                return Some(Step::default());
            }
            CollectionsResponse::Moved(Err(error)) => {
                let transfer = doing.text.starts_with("Transferring");
                let not_done = if transfer {
                    "Not transferred"
                } else {
                    "Not moved"
                };
                self.content.notice = Some(Notice::error(format!(
                    "{not_done}: {}",
                    move_failure(error, transfer)
                )));
                return Some(Step::default());
            }
        };
        self.content.notice = Some(Notice::info(done));
        self.content.select_after_reload = select;
        Some(Step::cmd(self.load_tree(ctx)))
    }

    fn transfer_targets(
        &mut self,
        result: &Result<Vec<crate::api::models::Organization>, ApiError>,
        doing: Doing,
    ) {
        let Some((item, title)) = doing.transfer else {
            return;
        };
        let organizations = match result {
            Ok(organizations) => organizations,
            Err(error) => {
                self.content.notice = Some(Notice::error(format!(
                    "Could not read your organizations: {}",
                    server_message(error)
                )));
                return;
            }
        };
        let options: Vec<PickOption> = organizations
            .iter()
            .filter(|organization| organization.id != self.organization.id)
            .map(|organization| PickOption {
                value: organization.id.clone(),
                label: organization.title.clone(),
                detail: format!("Transfer {} to {}", quoted(&title), organization.title),
            })
            .collect();
        self.content.notice = None;
        if options.is_empty() {
            self.content.notice = Some(Notice::error(
                "Nowhere to transfer to: you belong to no other organization",
            ));
            return;
        }
        self.content.organization_titles = options
            .iter()
            .map(|option| (option.value.clone(), option.label.clone()))
            .collect();
        self.content.modal = Some(ContentModal::Picker(Picker::new(
            &format!("Transfer {} to…", quoted(&title)),
            options,
            PickPurpose::TransferTarget { item, title },
        )));
    }

    fn delete_question(&self, collection: &Collection) -> ContentModal {
        let key = format!("collection:{}", collection.id);
        let (collections, spaces) = self.contents_of(&key);
        let inside = match (collections, spaces) {
            (0, 0) => "It is empty.".to_string(),
            (collections, spaces) => format!(
                "It holds {} and {}; they are deleted with it.",
                count(collections, "collection", "collections"),
                count(spaces, "space", "spaces")
            ),
        };
        ContentModal::Confirm {
            confirm: Confirm::new(
                format!("Delete the collection {}?", quoted(&collection.title)),
                inside,
                "delete",
            ),
            then: Confirmed::Delete {
                collection: collection.id.clone(),
                title: collection.title.clone(),
                parent_key: self.parent_key_of(&key),
            },
        }
    }

    fn node_index(&self, key: &str) -> Option<usize> {
        let tree = self.tree.value()?;
        tree.nodes()
            .find(|(_, node)| node.item.key() == key)
            .map(|(index, _)| index)
    }

    fn parent_key_of(&self, key: &str) -> Option<String> {
        let tree = self.tree.value()?;
        let index = self.node_index(key)?;
        let parent = tree.node(index)?.parent?;
        tree.item(parent).map(OrgNode::key)
    }

    /// Collections and spaces anywhere inside the node with `key`.
    fn contents_of(&self, key: &str) -> (usize, usize) {
        let (Some(tree), Some(index)) = (self.tree.value(), self.node_index(key)) else {
            return (0, 0);
        };
        let mut counts = (0, 0);
        for (other, node) in tree.nodes() {
            if other != index && tree.ancestors(other).contains(&index) {
                match node.item {
                    OrgNode::Collection(_) => counts.0 += 1,
                    OrgNode::Space(_) => counts.1 += 1,
                }
            }
        }
        counts
    }

    /// A collection's place: its ancestors' titles and its own, joined by " / ".
    fn path_of(&self, index: usize) -> String {
        let Some(tree) = self.tree.value() else {
            return String::new();
        };
        let mut titles: Vec<&str> = tree
            .ancestors(index)
            .into_iter()
            .rev()
            .filter_map(|ancestor| tree.item(ancestor).map(OrgNode::title))
            .collect();
        if let Some(item) = tree.item(index) {
            titles.push(item.title());
        }
        titles.join(" / ")
    }

    /// Targets: the top level (collections only) and every other collection, with its path.
    /// A collection is not offered places inside itself.
    fn move_picker(&self, node: &OrgNode) -> Picker<PickPurpose> {
        let item = pointer_of(node);
        let own_key = node.key();
        let own_index = self.node_index(&own_key);
        let mut options = Vec::new();
        if let OrgNode::Collection(_) = node {
            options.push(PickOption {
                value: TOP_LEVEL.into(),
                label: "Top level".into(),
                detail: "The organization's top level".into(),
            });
        }
        if let Some(tree) = self.tree.value() {
            for (index, tree_node) in tree.nodes() {
                let OrgNode::Collection(collection) = &tree_node.item else {
                    continue;
                };
                let inside_itself = matches!(node, OrgNode::Collection(_))
                    && own_index
                        .is_some_and(|own| own == index || tree.ancestors(index).contains(&own));
                if inside_itself {
                    continue;
                }
                options.push(PickOption {
                    value: collection.id.clone(),
                    label: self.path_of(index),
                    detail: format!(
                        "Move {} into {}",
                        quoted(node.title()),
                        quoted(&collection.title)
                    ),
                });
            }
        }
        let current = match node {
            OrgNode::Collection(collection) => collection.parent.clone(),
            OrgNode::Space(space) => space.parent.clone(),
        };
        Picker::new(
            &format!("Move {} to…", quoted(node.title())),
            options,
            PickPurpose::MoveTarget {
                item,
                title: node.title().to_string(),
            },
        )
        .at(Some(current.as_deref().unwrap_or(TOP_LEVEL)))
    }

    /// Where among the target's children of the item's kind; `None` when it has none besides
    /// the item (then it goes at the end without asking).
    fn position_picker(
        &self,
        item: &ContentPointer,
        title: &str,
        parent: Option<String>,
    ) -> Option<Picker<PickPurpose>> {
        let tree = self.tree.value()?;
        let siblings: Vec<(String, String)> = tree
            .nodes()
            .filter_map(|(_, node)| match (&node.item, item) {
                (OrgNode::Space(space), ContentPointer::Space { space: moving })
                    if space.parent == parent && space.id != *moving =>
                {
                    Some((space.id.clone(), space.title.clone()))
                }
                (
                    OrgNode::Collection(collection),
                    ContentPointer::Collection { collection: moving },
                ) if collection.parent == parent && collection.id != *moving => {
                    Some((collection.id.clone(), collection.title.clone()))
                }
                _ => None,
            })
            .collect();
        if siblings.is_empty() {
            return None;
        }
        let mut options = vec![PickOption {
            value: AT_THE_END.into(),
            label: "At the end".into(),
            detail: "After everything there".into(),
        }];
        for (id, sibling) in &siblings {
            options.push(PickOption {
                value: format!("before:{id}"),
                label: format!("Before {}", quoted(sibling)),
                detail: String::new(),
            });
            options.push(PickOption {
                value: format!("after:{id}"),
                label: format!("After {}", quoted(sibling)),
                detail: String::new(),
            });
        }
        Some(Picker::new(
            &format!("Where to put {}?", quoted(title)),
            options,
            PickPurpose::MovePosition {
                item: item.clone(),
                title: title.to_string(),
                parent,
            },
        ))
    }

    /// After a reload: opens the ancestors of the node to select and selects it.
    pub(super) fn select_after_reload(&mut self) {
        let Some(key) = self.content.select_after_reload.take() else {
            return;
        };
        let Some(index) = self.node_index(&key) else {
            return;
        };
        let Some(tree) = self.tree.value() else {
            return;
        };
        for ancestor in tree.ancestors(index).into_iter().rev() {
            if let Some(row) = self
                .tree_rows
                .rows()
                .iter()
                .position(|r| r.node == ancestor)
            {
                self.tree_rows.set_open(tree, row, true);
            }
        }
        if let Some(row) = self.tree_rows.rows().iter().position(|r| r.node == index) {
            self.tree_selection.selected = row;
        }
    }
}

impl ContentOps {
    fn organizations_title(&self, id: &str) -> Option<String> {
        self.organization_titles
            .iter()
            .find(|(value, _)| value == id)
            .map(|(_, title)| title.clone())
    }
}

fn count(number: usize, one: &str, many: &str) -> String {
    if number == 1 {
        format!("1 {one}")
    } else {
        format!("{number} {many}")
    }
}

fn position_of(item: &ContentPointer, value: &str) -> Option<ContentPosition> {
    let pointer = |id: &str| match item {
        ContentPointer::Space { .. } => ContentPointer::space(id),
        ContentPointer::Collection { .. } => ContentPointer::collection(id),
    };
    if let Some(id) = value.strip_prefix("before:") {
        return Some(ContentPosition::Before(pointer(id)));
    }
    value
        .strip_prefix("after:")
        .map(|id| ContentPosition::After(pointer(id)))
}

fn level_picker(collection: &Collection) -> Picker<PickPurpose> {
    let mut options: Vec<PickOption> = LEVELS
        .iter()
        .map(|level| PickOption {
            value: level.to_string(),
            label: level.to_string(),
            detail: format!("Members get at least the {level} role on what is inside"),
        })
        .collect();
    options.push(PickOption {
        value: NO_LEVEL.into(),
        label: "none".into(),
        detail: "No default level: only members given a role see it".into(),
    });
    let current = collection
        .default_level
        .as_ref()
        .map_or(NO_LEVEL, DefaultLevel::as_str);
    Picker::new(
        &format!("Default level of {}", quoted(&collection.title)),
        options,
        PickPurpose::DefaultLevel {
            collection: collection.id.clone(),
        },
    )
    .at(Some(current))
}

/// The notice on the last row of the tab and any open popup above the tab.
pub fn draw(screen: &Organization, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    if let Some(notice) = &screen.content.notice
        && area.height > 1
    {
        let row = Rect::new(area.x, area.bottom() - 1, area.width, 1);
        frame.render_widget(Clear, row);
        frame.render_widget(
            Paragraph::new(Span::styled(
                text::truncate(&sanitize(&notice.text), row.width as usize),
                notice.style(theme),
            )),
            row,
        );
    }
    match &screen.content.modal {
        Some(ContentModal::Prompt(prompt)) => crate::ui::prompt::draw(prompt, frame, area, theme),
        Some(ContentModal::Picker(picker)) => crate::ui::picker::draw(picker, frame, area, theme),
        Some(ContentModal::Confirm { confirm, .. }) => confirm.draw(frame, area, theme),
        None => {}
    }
}
