//! `t` on a space of the Spaces tab: a content template applied to its main content (the
//! review screen offers the same into a change request). The prompt, the question and the
//! wording are shared (`screens::templates`); here, who may, the request and its answer.

use ratatui::crossterm::event::KeyEvent;

use super::{OrgNode, Organization};
use crate::api::models::Space;
use crate::screens::step::{Ctx, Step};
use crate::screens::templates::{self, FlowStep, TemplateFlow, TemplateTarget};
use crate::ui::keymap::Action;
use crate::ui::notice::Notice;
use crate::vocabulary::spaces::SpacesResponse;
use crate::vocabulary::{Cmd, RequestId};

const PLACE: &str = "organization spaces";

/// The template popup of the Spaces tab and the application under way.
#[derive(Debug, Default)]
pub struct TemplateOps {
    pub flow: Option<TemplateFlow>,
    /// The request, the template's id and where it goes.
    pub pending: Option<(RequestId, String, TemplateTarget)>,
}

/// Why the selection cannot be given a template, or `None` when it can.
pub(super) fn refusal(node: Option<&OrgNode>) -> Option<String> {
    match node {
        Some(OrgNode::Space(space)) => (!space.permissions.edit).then(|| {
            format!(
                "applying a template to “{}” needs the edit permission on it",
                space.title
            )
        }),
        Some(OrgNode::Collection(_)) => {
            Some("not a space: a content template applies to a space".into())
        }
        None => Some("nothing is selected".into()),
    }
}

fn target_of(space: &Space) -> TemplateTarget {
    TemplateTarget {
        space: space.id.clone(),
        space_title: space.title.clone(),
        change_request: None,
    }
}

impl Organization {
    /// `t`: the prompt for a template id, once the selection may take one.
    pub(super) fn on_template_action(&mut self, action: Action) -> Option<Step> {
        if action != Action::ApplyTemplate {
            return None;
        }
        let node = self.selected_node().cloned();
        let notice = if let Some(reason) = refusal(node.as_ref()) {
            Notice::error(format!("Not allowed: {reason}"))
        } else if self.space_ops.is_busy() {
            Notice::info("still sending the last change…")
        } else if let Some(OrgNode::Space(space)) = node {
            self.space_ops.template.flow = Some(TemplateFlow::start(target_of(&space)));
            return Some(Step::default());
        } else {
            return None;
        };
        self.space_ops.notice = Some(notice);
        Some(Step::default())
    }

    /// Keys while the template popup is open; `None` when it is not.
    pub(super) fn on_template_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let flow = self.space_ops.template.flow.take()?;
        let cmd = match flow.on_key(key) {
            FlowStep::Open(flow) => {
                self.space_ops.template.flow = Some(flow);
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
                self.space_ops.notice = Some(Notice::info(sending));
                self.space_ops.template.pending = Some((request, template, target));
                cmd
            }
        };
        Some(Step::cmd(cmd))
    }

    /// A paste into the template prompt; false when it is not open.
    pub(super) fn on_template_paste(&mut self, text: &str) -> bool {
        let Some(flow) = self.space_ops.template.flow.as_mut() else {
            return false;
        };
        flow.on_paste(text);
        true
    }

    /// The server's answer to the application; `None` when it is not that answer.
    pub(super) fn on_template_response(
        &mut self,
        request: RequestId,
        response: &SpacesResponse,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        let SpacesResponse::TemplateApplied(result) = response else {
            return None;
        };
        let (waiting, template, target) = self.space_ops.template.pending.clone()?;
        if waiting != request {
            return None;
        }
        self.space_ops.template.pending = None;
        self.space_ops.notice = Some(match result {
            Ok(()) => {
                ctx.action_log
                    .record(templates::log_entry(&template, &target, PLACE));
                Notice::info(templates::applied_text(&template, &target))
            }
            Err(error) => Notice::error(templates::failure_text(&template, &target, error)),
        });
        Some(Step::default())
    }
}
