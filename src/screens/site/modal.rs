//! What a site screen can open above its tabs: a confirmation, a one-line prompt, a picker
//! (one choice or several), or the JSON composer.

use std::collections::BTreeSet;

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::ui::composer::Composer;
use crate::ui::confirm::Confirm;
use crate::ui::input::{InputOutcome, LineInput};
use crate::ui::list::Selection;

/// What to do once a confirmation is answered yes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmed {
    Leave,
    Publish,
    Unpublish,
    DeactivateShareLink { id: String, name: String },
    DeleteShareLink { id: String, name: String },
    DeleteGroup { id: String, title: String },
}

/// What a prompt's text is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptPurpose {
    NewShareLink,
    RenameShareLink { id: String },
    NewGroupTitle,
    NewGroupIcon { title: String },
    RenameGroup { id: String },
    GroupIcon { id: String },
}

impl PromptPurpose {
    /// Why the text would be refused; the limits are the seed's.
    pub fn check(&self, text: &str) -> Option<String> {
        let length = text.trim().chars().count();
        match self {
            PromptPurpose::NewShareLink | PromptPurpose::RenameShareLink { .. } => {
                if length == 0 {
                    Some("a name is required".into())
                } else if length > 50 {
                    Some(format!("at most 50 characters ({length})"))
                } else {
                    None
                }
            }
            PromptPurpose::NewGroupTitle | PromptPurpose::RenameGroup { .. } => {
                if length == 0 {
                    Some("a title is required".into())
                } else if length > 100 {
                    Some(format!("at most 100 characters ({length})"))
                } else {
                    None
                }
            }
            PromptPurpose::NewGroupIcon { .. } | PromptPurpose::GroupIcon { .. } => {
                (length > 50).then(|| format!("at most 50 characters ({length})"))
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    pub title: String,
    pub hint: String,
    pub input: LineInput,
    pub purpose: PromptPurpose,
}

impl Prompt {
    pub fn new(title: &str, hint: &str, text: &str, purpose: PromptPurpose) -> Prompt {
        Prompt {
            title: title.to_string(),
            hint: hint.to_string(),
            input: LineInput::with_text(text),
            purpose,
        }
    }

    pub fn error(&self) -> Option<String> {
        self.purpose.check(&self.input.text)
    }
}

/// One choice of a picker: the value it stands for, a label and a line explaining it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickOption {
    pub value: String,
    pub label: String,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickPurpose {
    Visibility,
    DefaultSection,
    DefaultSpace,
    NewGroupSections {
        title: String,
        icon: Option<String>,
    },
    NewGroupParent {
        title: String,
        icon: Option<String>,
        sections: Vec<String>,
    },
    AddSection {
        group: String,
    },
    RemoveSection {
        group: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Picker {
    pub title: String,
    pub options: Vec<PickOption>,
    pub selection: Selection,
    /// Several choices with space; enter confirms them all.
    pub multiple: bool,
    pub chosen: BTreeSet<usize>,
    pub purpose: PickPurpose,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickOutcome {
    /// The values chosen (one, unless the picker takes several).
    Picked(Vec<String>),
    Cancelled,
    Pending,
}

impl Picker {
    pub fn new(title: &str, options: Vec<PickOption>, purpose: PickPurpose) -> Picker {
        Picker {
            title: title.to_string(),
            options,
            selection: Selection::default(),
            multiple: false,
            chosen: BTreeSet::new(),
            purpose,
        }
    }

    pub fn multiple(mut self) -> Picker {
        self.multiple = true;
        self
    }

    /// Starts on the option holding `value`.
    pub fn at(mut self, value: Option<&str>) -> Picker {
        if let Some(index) = self
            .options
            .iter()
            .position(|option| Some(option.value.as_str()) == value)
        {
            self.selection.select(index, self.options.len());
        }
        self
    }

    pub fn handle_key(&mut self, key: &KeyEvent) -> PickOutcome {
        let len = self.options.len();
        match key.code {
            KeyCode::Down | KeyCode::Char('j') => self.selection.move_by(1, len),
            KeyCode::Up | KeyCode::Char('k') => self.selection.move_by(-1, len),
            KeyCode::Home | KeyCode::Char('g') => self.selection.top(),
            KeyCode::End | KeyCode::Char('G') => self.selection.bottom(len),
            KeyCode::Char(' ') if self.multiple => {
                let index = self.selection.selected;
                if !self.chosen.remove(&index) && index < len {
                    self.chosen.insert(index);
                }
            }
            KeyCode::Enter => {
                let picked: Vec<String> = if self.multiple {
                    self.chosen
                        .iter()
                        .filter_map(|index| self.options.get(*index))
                        .map(|option| option.value.clone())
                        .collect()
                } else {
                    self.options
                        .get(self.selection.selected)
                        .map(|option| option.value.clone())
                        .into_iter()
                        .collect()
                };
                if picked.is_empty() && !self.multiple {
                    return PickOutcome::Cancelled;
                }
                return PickOutcome::Picked(picked);
            }
            KeyCode::Esc | KeyCode::Char('q') => return PickOutcome::Cancelled,
            _ => {}
        }
        PickOutcome::Pending
    }
}

/// The composer behind a lock: its text area keeps layout caches in `RefCell`s, and the model
/// must stay `Sync` (the runtime's tests share it across tasks).
#[derive(Debug)]
pub struct SchemaEditor(std::sync::Mutex<Composer>);

impl SchemaEditor {
    pub fn new(composer: Composer) -> SchemaEditor {
        SchemaEditor(std::sync::Mutex::new(composer))
    }

    pub fn get_mut(&mut self) -> &mut Composer {
        self.0
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Runs `read` on the composer (for drawing, which only has `&self`).
    pub fn with<R>(&self, read: impl FnOnce(&Composer) -> R) -> R {
        let guard = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        read(&guard)
    }
}

#[derive(Debug)]
pub enum Modal {
    Confirm {
        confirm: Confirm,
        then: Confirmed,
    },
    Prompt(Prompt),
    Picker(Picker),
    /// The adaptive schema as JSON.
    Composer(Box<SchemaEditor>),
}

/// What a prompt key led to.
pub fn prompt_key(prompt: &mut Prompt, key: &KeyEvent) -> InputOutcome {
    prompt.input.handle_key(key)
}
