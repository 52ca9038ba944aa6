//! Moving a collection or a space (where to, then where among the target's children) and
//! transferring one to another organization: the pickers that ask and what is sent.

use super::{ContentModal, ContentOps, Doing, PickPurpose, key_of, pointer_of, quoted};
use crate::api::error::server_message;
use crate::api::{ApiError, ContentMove, ContentPointer, ContentPosition};
use crate::screens::organization::{OrgNode, Organization};
use crate::screens::step::Ctx;
use crate::ui::notice::Notice;
use crate::ui::picker::{PickOption, Picker};
use crate::vocabulary::Cmd;
use crate::vocabulary::collections::CollectionsCall;

/// The value of the "top level" choice of the move picker.
pub(super) const TOP_LEVEL: &str = "";

/// The value of the "at the end" choice of the position picker.
const AT_THE_END: &str = "end";

/// The failure of a move or transfer in words: the seed's "would not change anything" as such.
pub(super) fn move_failure(error: &ApiError, transfer: bool) -> String {
    match error.status() {
        Some(409) if transfer => {
            "would not change anything: it is already in that organization".into()
        }
        Some(409) => "would not change anything: it is already there".into(),
        _ => server_message(error),
    }
}

impl Organization {
    pub(super) fn transfer_targets(
        &mut self,
        result: &Result<crate::api::WholeList<crate::api::models::Organization>, ApiError>,
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
            .items
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
            &crate::ui::status::picker_title(
                &format!("Transfer {} to…", quoted(&title)),
                organizations.stopped_after_pages(),
            ),
            options,
            PickPurpose::TransferTarget { item, title },
        )));
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
    pub(super) fn move_picker(&self, node: &OrgNode) -> Picker<PickPurpose> {
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
    pub(super) fn position_picker(
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
        let last = siblings.last().map(|(_, title)| quoted(title));
        let mut options = vec![PickOption {
            value: AT_THE_END.into(),
            label: "At the end".into(),
            detail: format!(
                "Last, after {}",
                last.unwrap_or_else(|| "everything there".into())
            ),
        }];
        for (index, (id, sibling)) in siblings.iter().enumerate() {
            options.push(PickOption {
                value: format!("before:{id}"),
                label: format!("Before {}", quoted(sibling)),
                detail: String::new(),
            });
            // After the last one is "At the end", offered once, above.
            if index + 1 == siblings.len() {
                continue;
            }
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

    pub(super) fn send_move(
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
}

impl ContentOps {
    pub(super) fn organizations_title(&self, id: &str) -> Option<String> {
        self.organization_titles
            .iter()
            .find(|(value, _)| value == id)
            .map(|(_, title)| title.clone())
    }
}

pub(super) fn position_of(item: &ContentPointer, value: &str) -> Option<ContentPosition> {
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
