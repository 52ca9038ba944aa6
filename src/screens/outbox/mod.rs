//! The outbox: writes queued while quire could not reach the server, grouped by change
//! request. Nothing leaves without this look: `s` sends the selected write, `S` all of them,
//! `d` drops one. Each goes through `send_queued`, so a write whose answer was lost is read
//! back first and never sent twice.

mod view;

use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::outbox::Queued;
use crate::app::command::ApiCall;
use crate::app::keymap::{Action, KeyContext};
use crate::app::outbox::{OutboxCall, OutboxResponse, SendOutcome};
use crate::app::{ApiResponse, Cmd, Ctx, Model, RequestId, Step};
use crate::screens::ScreenState;
use crate::ui::list::Selection;
use crate::ui::notice::{self, Notice};

#[derive(Debug, Default)]
pub struct OutboxScreen {
    /// The queued writes, grouped by change request (the order rows are drawn in).
    pub writes: Vec<Queued>,
    pub loaded: bool,
    pub selection: Selection,
    pub notice: Option<Notice>,
    pub pending: Option<RequestId>,
}

impl OutboxScreen {
    fn call(&mut self, call: OutboxCall, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.pending = Some(request);
        Cmd::Api {
            request,
            call: ApiCall::Outbox(call),
        }
    }

    fn selected(&self) -> Option<&Queued> {
        self.writes.get(self.selection.selected)
    }

    fn send(&mut self, ids: Vec<i64>, ctx: &mut Ctx) -> Step {
        if ids.is_empty() {
            self.notice = Some(Notice::info("Nothing to send: the outbox is empty."));
            return Step::default();
        }
        self.notice = Some(Notice::info("Sending…"));
        Step::cmd(self.call(OutboxCall::Send { ids }, ctx))
    }

    fn listed(&mut self, writes: Vec<Queued>) {
        let mut writes = writes;
        // Stable: within a change request, oldest first as the outbox lists them.
        writes.sort_by(|a, b| a.target.cmp(&b.target));
        self.writes = writes;
        self.loaded = true;
        self.selection.clamp(self.writes.len());
    }

    fn after_send(&mut self, outcomes: &[(i64, SendOutcome)], ctx: &mut Ctx) -> Cmd {
        let kept: Vec<&String> = outcomes
            .iter()
            .filter_map(|(_, outcome)| match outcome {
                SendOutcome::Kept(why) => Some(why),
                _ => None,
            })
            .collect();
        let done = outcomes.len() - kept.len();
        self.notice = Some(match kept.first() {
            None => Notice::info(format!("Sent {done}.")),
            Some(why) => Notice::error(format!("Sent {done}, kept {}: {why}", kept.len())),
        });
        self.call(OutboxCall::List, ctx)
    }
}

impl ScreenState for OutboxScreen {
    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.call(OutboxCall::List, ctx)
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        self.call(OutboxCall::List, ctx)
    }

    fn messages(&self) -> Vec<Notice> {
        self.notice.iter().cloned().collect()
    }

    fn title(&self) -> String {
        "Outbox".to_string()
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Outbox, KeyContext::Browse]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::OutboxSend, "send"),
            (Action::OutboxSendAll, "send all"),
            (Action::OutboxDrop, "drop"),
            (Action::Back, "back"),
        ]
    }

    fn on_raw_key(&mut self, _key: &KeyEvent, _ctx: &mut Ctx) -> Option<Step> {
        notice::on_key(&mut self.notice);
        None
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.writes.len();
        if crate::app::move_selection(&mut self.selection, action, len, 10) {
            return Some(Step::default());
        }
        match action {
            Action::OutboxSend => {
                let ids = self.selected().map(|write| write.id).into_iter().collect();
                Some(self.send(ids, ctx))
            }
            Action::OutboxSendAll => {
                let ids = self.writes.iter().map(|write| write.id).collect();
                Some(self.send(ids, ctx))
            }
            Action::OutboxDrop => {
                let id = self.selected()?.id;
                Some(Step::cmd(self.call(OutboxCall::Drop { id }, ctx)))
            }
            _ => None,
        }
    }

    fn on_response(
        &mut self,
        request: RequestId,
        response: &ApiResponse,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        if self.pending != Some(request) {
            return None;
        }
        self.pending = None;
        let ApiResponse::Outbox(response) = response else {
            return None;
        };
        let cmd = match response {
            OutboxResponse::Listed(Ok(writes)) => {
                self.listed(writes.clone());
                Cmd::None
            }
            OutboxResponse::Listed(Err(why)) => {
                self.loaded = true;
                self.notice = Some(Notice::error(why.clone()));
                Cmd::None
            }
            OutboxResponse::Sent(outcomes) => self.after_send(outcomes, ctx),
            OutboxResponse::Dropped(Ok(_)) => {
                self.notice = Some(Notice::info("Dropped, not sent."));
                self.call(OutboxCall::List, ctx)
            }
            OutboxResponse::Dropped(Err(why)) => {
                self.notice = Some(Notice::error(why.clone()));
                Cmd::None
            }
        };
        Some(Step::cmd(cmd))
    }

    fn draw(&self, frame: &mut Frame, area: Rect, model: &Model) {
        view::draw(self, frame, area, model);
    }
}
