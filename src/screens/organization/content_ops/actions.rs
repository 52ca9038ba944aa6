//! The content operations' entry points on the Spaces tab: an action from the keymap, keys
//! and paste while a popup is open, a pick or a yes, and the server's answer.

use ratatui::crossterm::event::KeyEvent;

use super::collections::{NO_LEVEL, level_picker};
use super::moves::{TOP_LEVEL, move_failure, position_of};
use super::{
    Confirmed, ContentModal, Doing, PickPurpose, TextPurpose, handles, key_of, pointer_of, quoted,
    refusal,
};
use crate::api::error::server_message;
use crate::api::models::DefaultLevel;
use crate::api::{CollectionUpdate, MovedContent};
use crate::screens::organization::{OrgNode, Organization};
use crate::screens::step::{Ctx, Step};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::input::InputOutcome;
use crate::ui::keymap::Action;
use crate::ui::notice::{self, Notice};
use crate::ui::picker::PickOutcome;
use crate::ui::prompt::Prompt;
use crate::vocabulary::collections::{CollectionsCall, CollectionsResponse};
use crate::vocabulary::{ApiCall, Cmd, RequestId};

impl Organization {
    pub(super) fn content_request(
        &mut self,
        call: CollectionsCall,
        doing: Doing,
        ctx: &mut Ctx,
    ) -> Cmd {
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
    pub(crate) fn on_content_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
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
    pub(crate) fn on_content_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
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
                    self.content_picked(picker.purpose, &value, ctx)
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
    pub(crate) fn on_content_paste(&mut self, text: &str) -> bool {
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
    pub(crate) fn dismiss_content_error(&mut self) -> bool {
        notice::dismiss_error(&mut self.content.notice)
    }

    fn content_picked(&mut self, purpose: PickPurpose, value: &str, ctx: &mut Ctx) -> Cmd {
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
    pub(crate) fn on_content_response(
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
            // Read by `collection_spaces.rs`, never in answer to a change.
            CollectionsResponse::Spaces(_) => return Some(Step::default()),
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
                // Gone meanwhile: the tree is read again so that it no longer shows it.
                let reload = error.is_not_found().then(|| self.load_tree(ctx));
                return Some(reload.map_or_else(Step::default, Step::cmd));
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

    /// After a reload: opens the ancestors of the node to select and selects it.
    pub(crate) fn select_after_reload(&mut self) {
        let Some(key) = self.content.select_after_reload.take() else {
            return;
        };
        if let Some(index) = self.node_index(&key) {
            self.reveal_node(index);
        }
    }
}
