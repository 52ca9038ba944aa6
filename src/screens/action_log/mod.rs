//! The action log: this session's writes, newest first, each with when, what and where. `u`
//! applies the selected write's inverse after a confirm (every inverse is a write others can
//! see), logs the undo itself, and says plainly when a write has no inverse.

mod view;

use std::collections::HashMap;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::{self, Notice};
use crate::vocabulary::action_log::writes::{self, Answer};
use crate::vocabulary::action_log::{Undo, UndoState};
use crate::vocabulary::{Cmd, RequestId};

/// An undo waiting for its confirm.
#[derive(Debug, Clone, PartialEq)]
pub struct Asking {
    pub entry: u64,
    pub confirm: Confirm,
}

#[derive(Debug, Default)]
pub struct ActionLogScreen {
    pub selection: Selection,
    pub asking: Option<Asking>,
    /// Undos in flight: request → the entry they take back.
    pub pending: HashMap<RequestId, u64>,
    pub notice: Option<Notice>,
}

impl ActionLogScreen {
    /// The entry under the selection (rows are newest first).
    fn selected_entry(&self, ctx: &Ctx) -> Option<u64> {
        ctx.action_log
            .newest_first()
            .nth(self.selection.selected)
            .map(|entry| entry.id)
    }

    fn ask_to_undo(&mut self, ctx: &mut Ctx) {
        let Some(id) = self.selected_entry(ctx) else {
            self.notice = Some(Notice::info("Nothing to undo: no writes yet this session."));
            return;
        };
        let Some(entry) = ctx.action_log.get(id) else {
            return;
        };
        if self.pending.values().any(|pending| *pending == id) {
            self.notice = Some(Notice::info("Undoing it already…"));
            return;
        }
        match entry.undo_state() {
            UndoState::Undone => self.notice = Some(Notice::info("Already undone.")),
            UndoState::Overtaken(why) | UndoState::Impossible(why) => {
                self.notice = Some(Notice::error(format!("Cannot undo: {why}.")));
            }
            UndoState::Possible(describe) => {
                self.notice = None;
                self.asking = Some(Asking {
                    entry: id,
                    confirm: Confirm::new(
                        format!("Undo: {}?", entry.what),
                        format!("{describe} ({}).", entry.place),
                        "undo",
                    ),
                });
            }
        }
    }

    fn send_undo(&mut self, id: u64, ctx: &mut Ctx) -> Cmd {
        let Some(Undo::Inverse { call, .. }) = ctx.action_log.get(id).map(|e| e.undo.clone())
        else {
            return Cmd::None;
        };
        let request = ctx.requests.issue();
        self.pending.insert(request, id);
        self.notice = Some(Notice::info("Undoing…"));
        Cmd::Api {
            request,
            call: *call,
        }
    }
}

impl ScreenState for ActionLogScreen {
    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.notice.iter().cloned().collect()
    }

    fn title(&self) -> String {
        "Action log".to_string()
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::ActionLog, KeyContext::Browse]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Undo, "undo"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        notice::on_key(&mut self.notice);
        let asking = self.asking.clone()?;
        match asking.confirm.handle_key(key) {
            ConfirmOutcome::Confirmed => {
                self.asking = None;
                Some(Step::cmd(self.send_undo(asking.entry, ctx)))
            }
            ConfirmOutcome::Cancelled => {
                self.asking = None;
                Some(Step::default())
            }
            ConfirmOutcome::Ignored => Some(Step::default()),
        }
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = ctx.action_log.len();
        if crate::screens::step::move_selection(&mut self.selection, action, len, 10) {
            return Some(Step::default());
        }
        match action {
            Action::Undo => {
                self.ask_to_undo(ctx);
                Some(Step::default())
            }
            _ => None,
        }
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let id = self.pending.remove(&request)?;
        match writes::answer(response) {
            Some(Answer::Done) => {
                ctx.action_log.undone(id);
                // The undo is the newest entry now: keep the selection on the same write.
                self.selection.move_by(1, ctx.action_log.len());
                self.notice = Some(Notice::info("Undone."));
            }
            Some(Answer::NothingToDo(why)) => {
                self.notice = Some(Notice::info(format!("Nothing was undone: {why}.")));
                ctx.action_log.overtaken(id, why);
            }
            Some(Answer::Refused(message)) => {
                self.notice = Some(Notice::error(format!("The undo failed: {message}")));
            }
            None => {
                self.notice = Some(Notice::error("The server's answer was not understood."));
            }
        }
        Some(Step::default())
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}
