//! Applying a content template to a space: its id typed in a prompt (the API has no list of
//! templates), then a question that says where the pages go — into a change request, where they
//! wait for review, or straight into the space's main content — then one request. Shared by the
//! organization's Spaces tab (main) and a change request's review (that change request).

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use std::collections::BTreeMap;

use crate::api::{ApiError, ContentRef, TemplateApplication, TemplateParams};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::hit::Canvas;
use crate::ui::input::InputOutcome;
use crate::ui::prompt::{Prompt, TextCheck};
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;
use crate::vocabulary::action_log::{PendingEntry, Undo};

/// Where a template's pages go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateTarget {
    pub space: String,
    pub space_title: String,
    /// The change request (id, number) the pages go into; main when `None`.
    pub change_request: Option<(String, u64)>,
}

impl TemplateTarget {
    /// "change request #3" or "“Getting Started”", sanitized for the screen.
    fn place(&self) -> String {
        match &self.change_request {
            Some((_, number)) => format!("change request #{number}"),
            None => format!("“{}”", sanitize(&self.space_title)),
        }
    }
}

/// A template as typed: its id, then a `name=file-id` for each file reference it needs
/// (`tpl-how-to-guide logo=file-dashboard`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateId;

impl TextCheck for TemplateId {
    fn check(&self, text: &str) -> Option<String> {
        parse_template(text).err()
    }
}

/// The id and the file references typed after it, or why they cannot be sent.
fn parse_template(text: &str) -> Result<(String, Option<TemplateParams>), String> {
    let mut words = text.split_whitespace();
    let Some(id) = words.next() else {
        return Err("a template id is required".into());
    };
    if id.contains('=') {
        return Err("the template's id comes first".into());
    }
    let mut content_refs = BTreeMap::new();
    for word in words {
        match word.split_once('=') {
            Some((name, file)) if !name.is_empty() && !file.is_empty() => {
                content_refs.insert(
                    name.to_owned(),
                    ContentRef::File {
                        file: file.to_owned(),
                    },
                );
            }
            _ => return Err(format!("“{word}” is not name=file-id")),
        }
    }
    let params = (!content_refs.is_empty()).then_some(TemplateParams { content_refs });
    Ok((id.to_owned(), params))
}

/// The popup open for a template: the id being typed, or the question before it is sent.
#[derive(Debug, Clone, PartialEq)]
pub enum TemplateFlow {
    Asking {
        prompt: Prompt<TemplateId>,
        target: TemplateTarget,
    },
    Confirming {
        confirm: Confirm,
        template: String,
        /// The file references typed after the id.
        params: Option<TemplateParams>,
        target: TemplateTarget,
    },
}

/// What a key did to the flow.
#[derive(Debug, Clone, PartialEq)]
pub enum FlowStep {
    Open(TemplateFlow),
    Closed,
    /// Confirmed: send this to the target's space.
    Apply {
        application: TemplateApplication,
        template: String,
        target: TemplateTarget,
    },
}

/// A confirmed template sent with `request`: the command that applies it to the target's
/// space, and what to say while it is applied.
pub fn send(
    request: crate::vocabulary::RequestId,
    application: TemplateApplication,
    template: &str,
    target: &TemplateTarget,
) -> (crate::vocabulary::Cmd, String) {
    let call = crate::vocabulary::spaces::SpacesCall::ApplyTemplate {
        space: target.space.clone(),
        application,
    };
    let cmd = crate::vocabulary::Cmd::Api {
        request,
        call: crate::vocabulary::ApiCall::Spaces(call),
    };
    (cmd, format!("Applying template “{}”…", sanitize(template)))
}

impl TemplateFlow {
    pub fn start(target: TemplateTarget) -> TemplateFlow {
        // Short enough for 40 columns: the question that follows names the place.
        let prompt = Prompt::new(
            "Apply a content template",
            "id, then name=file-id for its files",
            "",
            TemplateId,
        );
        TemplateFlow::Asking { prompt, target }
    }

    pub fn on_key(self, key: &KeyEvent) -> FlowStep {
        match self {
            TemplateFlow::Asking { mut prompt, target } => match prompt.input.handle_key(key) {
                InputOutcome::Submitted if prompt.error().is_none() => {
                    let typed = prompt.input.text.trim().to_string();
                    let Ok((template, params)) = parse_template(&typed) else {
                        return FlowStep::Open(TemplateFlow::Asking { prompt, target });
                    };
                    FlowStep::Open(TemplateFlow::Confirming {
                        confirm: question(&template, &target),
                        template,
                        params,
                        target,
                    })
                }
                InputOutcome::Cancelled => FlowStep::Closed,
                _ => FlowStep::Open(TemplateFlow::Asking { prompt, target }),
            },
            TemplateFlow::Confirming {
                confirm,
                template,
                params,
                target,
            } => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => FlowStep::Apply {
                    application: TemplateApplication {
                        id: template.clone(),
                        params,
                        change_request_id: target.change_request.as_ref().map(|(id, _)| id.clone()),
                    },
                    template,
                    target,
                },
                ConfirmOutcome::Cancelled => FlowStep::Closed,
                ConfirmOutcome::Ignored => FlowStep::Open(TemplateFlow::Confirming {
                    confirm,
                    template,
                    params,
                    target,
                }),
            },
        }
    }

    pub fn on_paste(&mut self, text: &str) {
        if let TemplateFlow::Asking { prompt, .. } = self {
            prompt.input.insert_str(text.trim());
        }
    }

    pub fn draw(&self, frame: &mut Canvas, area: Rect, theme: &Theme) {
        match self {
            TemplateFlow::Asking { prompt, .. } => {
                crate::ui::prompt::draw(prompt, frame, area, theme);
            }
            TemplateFlow::Confirming { confirm, .. } => confirm.draw(frame, area, theme),
        }
    }
}

/// The question names the template and says where its pages go: a change request keeps them
/// for review, main takes them at once.
fn question(template: &str, target: &TemplateTarget) -> Confirm {
    let template = sanitize(template);
    match &target.change_request {
        Some((_, number)) => Confirm::new(
            format!("Apply template “{template}” in change request #{number}?"),
            "Its pages land in this change request, not in main: they reach main only when it \
             is merged.",
            "apply",
        ),
        None => Confirm::new(
            format!("Apply template “{template}” to {}?", target.place()),
            "Its pages go straight into the space's main content, with no review. To review \
             them first, press t in a change request's review instead.",
            "apply",
        ),
    }
}

/// What the screen says once the server took it.
pub fn applied_text(template: &str, target: &TemplateTarget) -> String {
    format!(
        "Template “{}” applied to {}",
        sanitize(template),
        target.place()
    )
}

/// What the screen says when the server refused it: an unknown id in words of its own.
pub fn failure_text(template: &str, target: &TemplateTarget, error: &ApiError) -> String {
    let template = sanitize(template);
    match error {
        ApiError::Status { status: 404, .. } if error_names(error, &template) => {
            format!("No template “{template}”: check its id (the API cannot list templates)")
        }
        _ => format!(
            "Could not apply template “{template}” to {}: {}",
            target.place(),
            crate::api::error::server_message(error)
        ),
    }
}

/// True when the server's message is about the template (not the space or change request).
fn error_names(error: &ApiError, template: &str) -> bool {
    match error {
        ApiError::Status { message, .. } => {
            message.contains("template") || message.contains(template)
        }
        _ => false,
    }
}

/// The action log's line: the pages it added are removed by hand (the API has no inverse).
pub fn log_entry(template: &str, target: &TemplateTarget, place: &str) -> PendingEntry {
    PendingEntry::new(
        applied_text(template, target),
        place,
        Undo::impossible("delete the pages it added (the API cannot take a template back)"),
    )
}
