//! `t` in a review: a content template applied into this change request (`changeRequestId`),
//! so its pages wait for review with the rest of it instead of reaching main at once. The
//! prompt, the question and the wording are shared (`screens::templates`).

use ratatui::crossterm::event::KeyEvent;

use super::{Overlay, PendingWrite, ReviewScreen};
use crate::api::ApiError;
use crate::api::models::ChangeRequestStatus;
use crate::screens::step::{Ctx, Step};
use crate::screens::templates::{self, FlowStep, TemplateFlow, TemplateTarget};
use crate::vocabulary::Cmd;

impl ReviewScreen {
    /// The prompt for a template id; a merged or archived change request takes none.
    pub(super) fn open_template(&mut self) {
        let Some(change_request) = self.change_request() else {
            return;
        };
        if let Some(status @ (ChangeRequestStatus::Merged | ChangeRequestStatus::Archived)) =
            &change_request.status
        {
            let status = if *status == ChangeRequestStatus::Merged {
                "merged"
            } else {
                "archived"
            };
            self.notice(
                format!("This change request is {status}: a template goes only into an open or draft one."),
                false,
            );
            return;
        }
        let target = TemplateTarget {
            space: self.target.space.clone(),
            space_title: self
                .bundle
                .value()
                .and_then(|bundle| bundle.space.as_ref())
                .map(|space| space.title.clone())
                .unwrap_or_default(),
            change_request: Some((
                change_request.id.clone(),
                change_request.number.unwrap_or_default(),
            )),
        };
        self.overlay = Some(Overlay::Template(TemplateFlow::start(target)));
    }

    pub(super) fn on_template_key(
        &mut self,
        flow: TemplateFlow,
        key: &KeyEvent,
        ctx: &mut Ctx,
    ) -> Cmd {
        match flow.on_key(key) {
            FlowStep::Open(flow) => {
                self.overlay = Some(Overlay::Template(flow));
                Cmd::None
            }
            FlowStep::Closed => Cmd::None,
            FlowStep::Apply {
                application,
                template,
                target,
            } => {
                let request = ctx.requests.issue();
                let (cmd, sending) = templates::send(request, application, &template, &target);
                self.notice(sending, false);
                self.pending
                    .insert(request, PendingWrite::Template { template, target });
                cmd
            }
        }
    }

    /// The server's answer: the review reloads so the template's pages show as changes.
    pub(super) fn on_template_applied(
        &mut self,
        request: crate::vocabulary::RequestId,
        result: &Result<(), ApiError>,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        if !matches!(
            self.pending.get(&request),
            Some(PendingWrite::Template { .. })
        ) {
            return None;
        }
        let Some(PendingWrite::Template { template, target }) = self.pending.remove(&request)
        else {
            return None;
        };
        let cmd = match result {
            Ok(()) => {
                let place = self.log_place();
                ctx.action_log
                    .record(templates::log_entry(&template, &target, &place));
                self.notice(templates::applied_text(&template, &target), false);
                self.load(ctx)
            }
            Err(error) => {
                self.notice(templates::failure_text(&template, &target, error), true);
                Cmd::None
            }
        };
        Some(Step::cmd(cmd))
    }
}
