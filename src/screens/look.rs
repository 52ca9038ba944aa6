//! What a screen is given to draw with: the widgets' [`ui::look::Look`] and the session's log
//! of writes (for the action log screen). Built by the app from its model for each frame, so a
//! screen's view sees what it draws and nothing else of the app.

use std::ops::Deref;

use crate::ui;
use crate::vocabulary::action_log::ActionLog;

#[derive(Clone, Copy)]
pub struct Look<'a> {
    pub widgets: ui::look::Look<'a>,
    pub action_log: &'a ActionLog,
}

impl<'a> Deref for Look<'a> {
    type Target = ui::look::Look<'a>;

    fn deref(&self) -> &Self::Target {
        &self.widgets
    }
}
