//! The Translations tab's popups: the steps that create a translation (target language,
//! source space, source language, then instructions), the instructions composer (drafts kept
//! by key) and the delete confirmation.

use ratatui::crossterm::event::KeyEvent;
use serde_json::Value;

use super::tab::{NEW_DRAFT, Pending, TranslationsTab};
use crate::api::models::Space;
use crate::api::{LANGUAGES, NewTranslation, NewTranslationSource, language_name};
use crate::screens::step::Ctx;
use crate::ui::composer::{Composer, ComposerOutcome};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::document::{self, EditableText};
use crate::ui::notice::Notice;
use crate::ui::picker::{PickOption, PickOutcome, Picker};
use crate::vocabulary::Cmd;
use crate::vocabulary::translations::TranslationsCall;

/// A translation being created, filled in step by step.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewDraft {
    pub language: String,
    pub source_space: String,
    pub source_language: String,
}

/// Whose instructions the composer holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Instructions {
    New(NewDraft),
    Existing { id: String },
}

// One popup at a time, held by the tab: its size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Modal {
    Language(Picker<NewDraft>),
    SourceSpace(Picker<NewDraft>),
    SourceLanguage(Picker<NewDraft>),
    Composer {
        target: Instructions,
        draft_key: String,
        composer: Composer,
        /// Blocks of the instructions the text cannot hold, kept as they are.
        kept: Vec<Value>,
    },
    ConfirmDelete(Confirm, String),
}

/// Every language as "French (fr)", leaving out `except` (the target, when picking the source).
fn language_options(except: Option<&str>) -> Vec<PickOption> {
    LANGUAGES
        .iter()
        .filter(|code| Some(**code) != except)
        .map(|code| PickOption {
            value: code.to_string(),
            label: format!("{} ({code})", language_name(code)),
            detail: String::new(),
        })
        .collect()
}

impl TranslationsTab {
    pub(super) fn start_create(&mut self) {
        if self.refuse_write() {
            return;
        }
        let options = language_options(None);
        self.modal = Some(Modal::Language(Picker::new(
            "Translate into (/ narrows)",
            options,
            NewDraft::default(),
        )));
    }

    fn spaces(&self) -> &[Space] {
        self.list.value().map_or(&[], |list| list.spaces.as_slice())
    }

    fn pick_source_space(&mut self, draft: NewDraft) {
        let options: Vec<PickOption> = self
            .spaces()
            .iter()
            .filter(|space| space.deleted_at.is_none())
            .map(|space| PickOption {
                value: space.id.clone(),
                label: space.title.clone(),
                detail: space.language.clone().unwrap_or_default(),
            })
            .collect();
        if options.is_empty() {
            self.notice = Some(Notice::error(
                "No space to translate: the organization's spaces could not be listed (r reloads).",
            ));
            return;
        }
        let title = format!(
            "Translate which space into {}?",
            language_name(&draft.language)
        );
        self.modal = Some(Modal::SourceSpace(Picker::new(&title, options, draft)));
    }

    fn pick_source_language(&mut self, draft: NewDraft) {
        let current = self
            .spaces()
            .iter()
            .find(|space| space.id == draft.source_space)
            .and_then(|space| space.language.clone())
            .unwrap_or_else(|| "en".to_string());
        let options = language_options(Some(&draft.language));
        let picker = Picker::new("The source is written in", options, draft).at(Some(&current));
        self.modal = Some(Modal::SourceLanguage(picker));
    }

    fn open_composer(&mut self, target: Instructions, editable: EditableText, title: String) {
        let key = match &target {
            Instructions::New(_) => self.draft_key(NEW_DRAFT),
            Instructions::Existing { id } => self.draft_key(id),
        };
        let restored = self.drafts.get(&key).cloned();
        if restored.is_some() {
            self.notice = Some(Notice::info("Your unsent draft is back."));
        }
        let text = restored.unwrap_or_else(|| editable.text.clone());
        let title = match document::kept_notice(editable.kept.len()) {
            Some(kept) => format!("{title} — {kept}"),
            None => title,
        };
        let mut composer = Composer::new(title, &text);
        composer.allow_blank = true;
        self.modal = Some(Modal::Composer {
            target,
            draft_key: key,
            composer,
            kept: editable.kept,
        });
    }

    pub(super) fn edit_instructions(&mut self) {
        if self.refuse_write() {
            return;
        }
        let Some(translation) = self.selected().cloned() else {
            return;
        };
        let editable = translation
            .instructions
            .as_ref()
            .map(document::to_text)
            .unwrap_or_default();
        let title = format!("Instructions — {}", self.describe(&translation));
        self.open_composer(
            Instructions::Existing {
                id: translation.id.clone(),
            },
            editable,
            title,
        );
    }

    fn submit_composer(
        &mut self,
        target: Instructions,
        draft_key: String,
        mut composer: Composer,
        kept: Vec<Value>,
        ctx: &mut Ctx,
    ) -> Cmd {
        let text = composer.text();
        let document = match document::from_text(&text, &kept) {
            Ok(document) => document,
            Err(error) => {
                composer.error = Some(error);
                self.modal = Some(Modal::Composer {
                    target,
                    draft_key,
                    composer,
                    kept,
                });
                return Cmd::None;
            }
        };
        let organization = self.organization.id.clone();
        let (call, pending) = match &target {
            Instructions::New(draft) => (
                TranslationsCall::Create {
                    organization,
                    translation: NewTranslation {
                        language: draft.language.clone(),
                        source: NewTranslationSource {
                            space: draft.source_space.clone(),
                            language: draft.source_language.clone(),
                        },
                        instructions: (!text.trim().is_empty()).then_some(document),
                    },
                },
                Pending::Create {
                    draft_key: draft_key.clone(),
                },
            ),
            Instructions::Existing { id } => (
                TranslationsCall::SetInstructions {
                    organization,
                    id: id.clone(),
                    instructions: document,
                },
                Pending::Instructions {
                    draft_key: draft_key.clone(),
                },
            ),
        };
        composer.submitting = true;
        composer.error = None;
        self.modal = Some(Modal::Composer {
            target,
            draft_key,
            composer,
            kept,
        });
        self.send(call, pending, ctx)
    }

    pub(super) fn ask_delete(&mut self) {
        if self.refuse_write() {
            return;
        }
        let Some(translation) = self.selected().cloned() else {
            return;
        };
        let name = self.describe(&translation);
        let result = translation
            .result
            .as_ref()
            .and_then(|result| result.space.as_deref())
            .map(|space| format!("The result space “{}” stays.", self.space_name(space)))
            .unwrap_or_default();
        let confirm = Confirm::new(
            format!("Delete the translation {name}?"),
            format!("It will not run again and its statistics are lost. {result}"),
            "delete",
        );
        self.modal = Some(Modal::ConfirmDelete(confirm, translation.id));
    }

    pub(super) fn on_modal_key(&mut self, modal: Modal, key: &KeyEvent, ctx: &mut Ctx) -> Cmd {
        match modal {
            Modal::Language(mut picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => {
                    let mut draft = picker.purpose.clone();
                    draft.language = values.into_iter().next().unwrap_or_default();
                    self.pick_source_space(draft);
                }
                PickOutcome::Cancelled => {}
                PickOutcome::Pending => self.modal = Some(Modal::Language(picker)),
            },
            Modal::SourceSpace(mut picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => {
                    let mut draft = picker.purpose.clone();
                    draft.source_space = values.into_iter().next().unwrap_or_default();
                    self.pick_source_language(draft);
                }
                PickOutcome::Cancelled => {}
                PickOutcome::Pending => self.modal = Some(Modal::SourceSpace(picker)),
            },
            Modal::SourceLanguage(mut picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => {
                    let mut draft = picker.purpose.clone();
                    draft.source_language = values.into_iter().next().unwrap_or_default();
                    let title = format!(
                        "Instructions for {} → {} (optional; ctrl-s creates)",
                        self.space_name(&draft.source_space),
                        language_name(&draft.language)
                    );
                    self.open_composer(Instructions::New(draft), EditableText::default(), title);
                }
                PickOutcome::Cancelled => {}
                PickOutcome::Pending => self.modal = Some(Modal::SourceLanguage(picker)),
            },
            Modal::Composer {
                target,
                draft_key,
                composer,
                kept,
            } => return self.on_composer_key(target, draft_key, composer, kept, key, ctx),
            Modal::ConfirmDelete(confirm, id) => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => {
                    let name = self
                        .translations()
                        .iter()
                        .find(|translation| translation.id == id)
                        .map_or_else(|| id.clone(), |translation| self.describe(translation));
                    let call = TranslationsCall::Delete {
                        organization: self.organization.id.clone(),
                        id,
                    };
                    return self.send(call, Pending::Delete { name }, ctx);
                }
                ConfirmOutcome::Cancelled => {}
                ConfirmOutcome::Ignored => self.modal = Some(Modal::ConfirmDelete(confirm, id)),
            },
        }
        Cmd::None
    }

    fn on_composer_key(
        &mut self,
        target: Instructions,
        draft_key: String,
        mut composer: Composer,
        kept: Vec<Value>,
        key: &KeyEvent,
        ctx: &mut Ctx,
    ) -> Cmd {
        let cmd = match composer.handle_key(key) {
            ComposerOutcome::Edited => {
                let text = composer.text();
                self.drafts.insert(draft_key.clone(), text.clone());
                Cmd::SaveDraft {
                    key: draft_key.clone(),
                    text,
                }
            }
            ComposerOutcome::Submit => {
                return self.submit_composer(target, draft_key, composer, kept, ctx);
            }
            ComposerOutcome::OpenEditor => Cmd::EditExternally {
                key: draft_key.clone(),
                text: composer.text(),
            },
            ComposerOutcome::Closed => {
                self.notice = Some(Notice::info(
                    "Draft kept: it will be there when you come back.",
                ));
                return Cmd::None;
            }
            ComposerOutcome::Discarded => {
                self.drafts.remove(&draft_key);
                return Cmd::DiscardDraft { key: draft_key };
            }
            ComposerOutcome::Ignored => Cmd::None,
        };
        self.modal = Some(Modal::Composer {
            target,
            draft_key,
            composer,
            kept,
        });
        cmd
    }
}
