//! What a site screen can open above its tabs: a confirmation, a one-line prompt, a picker
//! (one choice or several), or the JSON composer.

use ratatui::crossterm::event::KeyEvent;

use crate::ui::composer::Composer;
use crate::ui::confirm::Confirm;
use crate::ui::input::InputOutcome;
use crate::ui::prompt::TextCheck;

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

impl TextCheck for PromptPurpose {
    /// Why the text would be refused; the limits are the seed's.
    fn check(&self, text: &str) -> Option<String> {
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

pub type Picker = crate::ui::picker::Picker<PickPurpose>;
pub type Prompt = crate::ui::prompt::Prompt<PromptPurpose>;
pub use crate::ui::picker::{PickOption, PickOutcome};

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
