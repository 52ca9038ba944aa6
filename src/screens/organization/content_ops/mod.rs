//! What the Spaces tab changes in the content tree: collections (create, rename, description,
//! default level, delete) and the move or transfer of a collection or a space. Each action
//! checks the item's `permissions` first (refused actions are struck through in the footer
//! and say why when pressed), asks through a prompt, picker or confirmation, sends one
//! request, then reloads the tree keeping its open nodes and selects the item acted on.
//!
//! Here: the state, the popups' purposes, the permission checks and the drawing; the keys,
//! picks and answers in `actions.rs`; what each change sends in `collections.rs` and
//! `moves.rs`.

mod actions;
mod collections;
mod moves;

use ratatui::layout::Rect;
use ratatui::widgets::{Clear, Paragraph};

use super::{OrgNode, Organization};
use crate::api::ContentPointer;
use crate::screens::look::Look;
use crate::ui::confirm::Confirm;
use crate::ui::hit::Canvas;
use crate::ui::keymap::Action;
use crate::ui::notice::Notice;
use crate::ui::picker::Picker;
use crate::ui::prompt::{Prompt, TextCheck};
use crate::vocabulary::RequestId;

/// Longest collection title and description.
pub(super) const TITLE_MAX: usize = 50;
pub(super) const DESCRIPTION_MAX: usize = 100;

/// The footer hints of these actions, in order of importance.
pub(super) const HINTS: [(Action, &str); 5] = [
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
    /// The collection read again by `r`, and its title as shown then.
    pub reread: Option<(RequestId, String)>,
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

/// True for the actions this file answers.
pub(super) fn handles(action: Action) -> bool {
    ACTIONS.contains(&action)
}

pub(super) fn pointer_of(node: &OrgNode) -> ContentPointer {
    match node {
        OrgNode::Collection(collection) => ContentPointer::collection(&collection.id),
        OrgNode::Space(space) => ContentPointer::space(&space.id),
    }
}

pub(super) fn key_of(pointer: &ContentPointer) -> String {
    match pointer {
        ContentPointer::Collection { collection } => format!("collection:{collection}"),
        ContentPointer::Space { space } => format!("space:{space}"),
    }
}

pub(super) fn quoted(title: &str) -> String {
    format!("“{title}”")
}

/// Why `action` is refused on `node` (the selection; `None` when nothing is selected), in
/// words; `None` when it is allowed. Space actions other than move and transfer belong to the
/// space operations and are not judged here.
pub(super) fn refusal(
    action: Action,
    node: Option<&OrgNode>,
    organization: &crate::api::models::Organization,
) -> Option<String> {
    // Each refusal names what it is about, a collection or a space, as well as its title.
    let not_admin =
        |kind: &str, title: &str| format!("you are not an admin of the {kind} {}", quoted(title));
    match (action, node) {
        (Action::Create, Some(OrgNode::Collection(collection))) => (!collection.permissions.create)
            .then(|| {
                format!(
                    "creating in the collection {} needs the create role",
                    quoted(&collection.title)
                )
            }),
        (Action::Create, _) => (!organization.permissions.create_content).then(|| {
            format!(
                "creating in the organization {} needs the create role",
                quoted(&organization.title)
            )
        }),
        (Action::EditDescription, Some(OrgNode::Space(_))) => {
            Some("not a collection: only collections have a description".into())
        }
        (
            Action::Rename | Action::EditDescription | Action::DefaultLevel | Action::Delete,
            Some(OrgNode::Collection(collection)),
        ) => (!collection.permissions.admin).then(|| not_admin("collection", &collection.title)),
        (Action::Move | Action::Transfer, Some(OrgNode::Collection(collection))) => {
            (!collection.permissions.admin).then(|| not_admin("collection", &collection.title))
        }
        (Action::Move | Action::Transfer, Some(OrgNode::Space(space))) => {
            (!space.permissions.admin).then(|| not_admin("space", &space.title))
        }
        (_, None) if action != Action::Create => Some("nothing is selected".into()),
        _ => None,
    }
}

impl Organization {
    /// The content actions refused on the selection, struck through in the footer.
    pub(crate) fn content_disabled_actions(&self) -> Vec<Action> {
        let node = self.selected_node();
        ACTIONS
            .into_iter()
            .filter(|action| refusal(*action, node, &self.organization).is_some())
            .collect()
    }

    pub(super) fn node_index(&self, key: &str) -> Option<usize> {
        let tree = self.tree.value()?;
        tree.nodes()
            .find(|(_, node)| node.item.key() == key)
            .map(|(index, _)| index)
    }

    pub(super) fn parent_key_of(&self, key: &str) -> Option<String> {
        let tree = self.tree.value()?;
        let index = self.node_index(key)?;
        let parent = tree.node(index)?.parent?;
        tree.item(parent).map(OrgNode::key)
    }
}

/// The notice on the last row of the tab and any open popup above the tab.
pub(super) fn draw(screen: &Organization, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    if let Some(notice) = &screen.content.notice
        && area.height > 1
    {
        let row = Rect::new(area.x, area.bottom() - 1, area.width, 1);
        frame.render_widget(Clear, row);
        frame.render_widget(
            Paragraph::new(crate::ui::notice::row(notice, row.width, look)),
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
