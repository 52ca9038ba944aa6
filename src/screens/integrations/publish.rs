//! Publishing an integration from the Integrations tab (`P`), as `quire integrations publish`
//! does: the path of a manifest (JSON) is asked, the file is read and checked, then a question
//! names the integration and says it goes out to the catalogue (publishing is outward), and
//! only a yes sends `POST /integrations/{name}`. The list is read again once it is published.

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use super::IntegrationsTab;
use crate::api::PublishManifest;
use crate::screens::step::{Ctx, Step};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::hit::Canvas;
use crate::ui::input::InputOutcome;
use crate::ui::notice::Notice;
use crate::ui::prompt::{self, Prompt, TextCheck};
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;
use crate::vocabulary::integrations::{IntegrationsCall, IntegrationsResponse};
use crate::vocabulary::{ApiCall, Cmd, RequestId};

/// The manifest's path: any text that is not blank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestPath;

impl TextCheck for ManifestPath {
    fn check(&self, text: &str) -> Option<String> {
        text.trim()
            .is_empty()
            .then(|| "the path of a manifest (JSON)".into())
    }
}

/// Where a publish stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Publishing {
    Path(Prompt<ManifestPath>),
    /// The manifest being read and checked.
    Reading(RequestId),
    Confirm {
        confirm: Confirm,
        manifest: Box<PublishManifest>,
    },
    Sending(RequestId),
}

impl IntegrationsTab {
    /// `P`: the manifest's path.
    pub(super) fn ask_for_manifest(&mut self) {
        if matches!(
            self.publishing,
            Some(Publishing::Reading(_) | Publishing::Sending(_))
        ) {
            self.notice = Some(Notice::info("still publishing…"));
            return;
        }
        self.notice = None;
        let prompt = Prompt::new(
            "Publish an integration",
            "the path of its manifest (JSON)",
            "",
            ManifestPath,
        );
        self.publishing = Some(Publishing::Path(prompt));
    }

    /// Keys while the path or the question is open; `None` when neither is.
    pub(super) fn on_publish_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        match self.publishing.take()? {
            Publishing::Path(mut prompt) => match prompt.input.handle_key(key) {
                InputOutcome::Submitted if prompt.error().is_none() => {
                    let path = prompt.input.text.trim().to_string();
                    return Some(Step::cmd(self.read_manifest(path, ctx)));
                }
                InputOutcome::Cancelled => {}
                _ => self.publishing = Some(Publishing::Path(prompt)),
            },
            Publishing::Confirm { confirm, manifest } => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => return Some(Step::cmd(self.publish(*manifest, ctx))),
                ConfirmOutcome::Cancelled => {
                    self.notice = Some(Notice::info("Not published."));
                }
                ConfirmOutcome::Ignored => {
                    self.publishing = Some(Publishing::Confirm { confirm, manifest });
                }
            },
            waiting => {
                self.publishing = Some(waiting);
                return None;
            }
        }
        Some(Step::default())
    }

    fn read_manifest(&mut self, path: String, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.publishing = Some(Publishing::Reading(request));
        Cmd::Api {
            request,
            call: ApiCall::Integrations(IntegrationsCall::ReadManifest { path }),
        }
    }

    fn publish(&mut self, manifest: PublishManifest, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.publishing = Some(Publishing::Sending(request));
        self.notice = Some(Notice::info(format!(
            "Publishing {}…",
            sanitize(&manifest.name)
        )));
        Cmd::Api {
            request,
            call: ApiCall::Integrations(IntegrationsCall::Publish {
                manifest: Box::new(manifest),
            }),
        }
    }

    /// The manifest read, or the publish answered; `None` when `request` is neither.
    pub(super) fn on_publish_answer(
        &mut self,
        request: RequestId,
        response: &IntegrationsResponse,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        let waiting = match self.publishing {
            Some(Publishing::Reading(id) | Publishing::Sending(id)) => id,
            _ => return None,
        };
        if waiting != request {
            return None;
        }
        self.publishing = None;
        match response {
            IntegrationsResponse::Manifest(Ok(manifest)) => {
                let name = sanitize(&manifest.name).into_owned();
                let confirm = Confirm::new(
                    format!("Publish the integration {name}?"),
                    format!(
                        "POST /integrations/{name} sends its manifest to the integrations \
                         catalogue, where others can see and install it."
                    ),
                    "publish",
                );
                let manifest = manifest.clone();
                self.publishing = Some(Publishing::Confirm { confirm, manifest });
            }
            IntegrationsResponse::Manifest(Err(reason)) => {
                self.notice = Some(Notice::error(format!("Not published: {reason}")));
            }
            IntegrationsResponse::Published(Ok(integration)) => {
                self.notice = Some(Notice::info(format!(
                    "Published {} (“{}”).",
                    sanitize(&integration.name),
                    sanitize(&integration.title)
                )));
                return Some(Step::cmd(self.load(ctx)));
            }
            IntegrationsResponse::Published(Err(error)) => {
                self.notice = Some(Notice::error(format!(
                    "Publishing failed: {}",
                    error.user_message()
                )));
            }
            _ => {}
        }
        Some(Step::default())
    }
}

/// The path prompt or the question, over the tab.
pub fn draw(tab: &IntegrationsTab, frame: &mut Canvas, area: Rect, theme: &Theme) {
    match &tab.publishing {
        Some(Publishing::Path(path)) => prompt::draw(path, frame, area, theme),
        Some(Publishing::Confirm { confirm, .. }) => confirm.draw(frame, area, theme),
        _ => {}
    }
}
