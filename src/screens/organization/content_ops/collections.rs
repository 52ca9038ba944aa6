//! Creating, renaming, describing, leveling and deleting a collection: what each sends, and
//! the default-level picker and delete question that ask first.

use super::{Confirmed, ContentModal, Doing, PickPurpose, TextPurpose, quoted};
use crate::api::models::{Collection, DefaultLevel};
use crate::api::{CollectionUpdate, NewCollection};
use crate::screens::organization::{OrgNode, Organization};
use crate::screens::step::Ctx;
use crate::screens::step::Step;
use crate::ui::confirm::Confirm;
use crate::ui::notice::Notice;
use crate::ui::picker::{PickOption, Picker};
use crate::ui::prompt::Prompt;
use crate::vocabulary::collections::{CollectionsCall, CollectionsResponse};
use crate::vocabulary::{ApiCall, Cmd, RequestId};

/// The value of "no default level" in the level picker.
pub(super) const NO_LEVEL: &str = "none";

const LEVELS: [&str; 6] = ["admin", "create", "review", "edit", "comment", "read"];

impl Organization {
    pub(super) fn prompt_answered(&mut self, prompt: Prompt<TextPurpose>, ctx: &mut Ctx) -> Cmd {
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

    /// `r` on a collection: the collection read again (`GET /collections/{id}`) beside the
    /// tree, so that one deleted meanwhile is said, not just gone from the tree.
    pub(crate) fn reread_collection(
        &mut self,
        collection: String,
        title: &str,
        ctx: &mut Ctx,
    ) -> Cmd {
        let request = ctx.requests.issue();
        let title = crate::ui::sanitize::sanitize(title).into_owned();
        self.content.reread = Some((request, title));
        Cmd::Api {
            request,
            call: ApiCall::Collections(CollectionsCall::Get { collection }),
        }
    }

    /// The collection read again came; `None` when `request` is not that read.
    pub(crate) fn on_collection_reread(
        &mut self,
        request: RequestId,
        response: &CollectionsResponse,
    ) -> Option<Step> {
        if self.content.reread.as_ref().map(|(id, _)| *id) != Some(request) {
            return None;
        }
        let (_, title) = self.content.reread.take()?;
        let CollectionsResponse::Collection(result) = response else {
            return Some(Step::default());
        };
        self.content.notice = Some(match result {
            Ok(collection) => Notice::info(format!(
                "Read {} again.",
                quoted(&crate::ui::sanitize::sanitize(&collection.title))
            )),
            Err(error) if error.is_not_found() => Notice::error(format!(
                "{} is gone: it was deleted meanwhile.",
                quoted(&title)
            )),
            Err(error) => Notice::error(format!(
                "Reading {} again failed: {}",
                quoted(&title),
                error.user_message()
            )),
        });
        Some(Step::default())
    }

    pub(super) fn update_collection(
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

    pub(super) fn delete_question(&self, collection: &Collection) -> ContentModal {
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
}

fn count(number: usize, one: &str, many: &str) -> String {
    if number == 1 {
        format!("1 {one}")
    } else {
        format!("{number} {many}")
    }
}

pub(super) fn level_picker(collection: &Collection) -> Picker<PickPurpose> {
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
