//! Creating a change request (`N` in a space and in a space's change-request list): a prompt
//! for the subject, `POST /spaces/{space}/change-requests`, then the new one opens in review.
//! Both screens hold a [`NewChangeRequest`] while it is open.

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::ChangeRequestUpdate;
use crate::api::models::ChangeRequest;
use crate::screens::form_draft::DraftKeeper;
use crate::screens::look::Look;
use crate::screens::roles::{refused, space_role};
use crate::screens::route::Route;
use crate::screens::step::{Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::input::InputOutcome;
use crate::ui::prompt::{self, Prompt, TextCheck};
use crate::ui::theme::Theme;
use crate::vocabulary::change_requests::{
    ChangeRequestRef, ChangeRequestsCall, ChangeRequestsResponse,
};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, RequestId};

/// A subject: required, at most 100 characters (the service's `ChangeRequestSubject`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject;

impl TextCheck for Subject {
    fn check(&self, text: &str) -> Option<String> {
        let length = text.trim().chars().count();
        if length == 0 {
            Some("a subject is required".into())
        } else if length > ChangeRequestUpdate::MAX_SUBJECT {
            Some(format!(
                "at most {} characters ({length})",
                ChangeRequestUpdate::MAX_SUBJECT
            ))
        } else {
            None
        }
    }
}

/// The subject prompt of a change request about to be created in `space`.
#[derive(Debug, Clone, PartialEq)]
pub struct NewChangeRequest {
    pub space: String,
    pub prompt: Prompt<Subject>,
    /// The create request in flight; keys wait until it is answered.
    pub sending: Option<RequestId>,
}

/// What a key or an answer did to the prompt.
#[derive(Debug)]
pub enum Outcome {
    /// Still open; run the command.
    Open(Cmd),
    Closed,
    /// Created: open it in review.
    Created(Step),
    /// The server refused; the prompt stays with the subject, the screen says why.
    Refused(String),
}

impl NewChangeRequest {
    pub fn new(space: impl Into<String>) -> NewChangeRequest {
        NewChangeRequest {
            space: space.into(),
            prompt: Prompt::new("New change request", "its subject", "", Subject),
            sending: None,
        }
    }

    pub fn on_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Outcome {
        if self.sending.is_some() {
            return Outcome::Open(Cmd::None);
        }
        match self.prompt.input.handle_key(key) {
            InputOutcome::Cancelled => Outcome::Closed,
            InputOutcome::Submitted if self.prompt.error().is_none() => {
                let request = ctx.requests.issue();
                self.sending = Some(request);
                self.prompt.hint = "creating…".into();
                Outcome::Open(Cmd::Api {
                    request,
                    call: ApiCall::ChangeRequests(ChangeRequestsCall::Create {
                        space: self.space.clone(),
                        subject: self.prompt.input.text.trim().to_string(),
                    }),
                })
            }
            _ => Outcome::Open(Cmd::None),
        }
    }

    pub fn on_paste(&mut self, text: &str) {
        if self.sending.is_none() {
            self.prompt.input.insert_str(text);
        }
    }

    /// None when the answer is not for this prompt.
    pub fn on_response(&mut self, request: RequestId, response: &ApiResponse) -> Option<Outcome> {
        let ApiResponse::ChangeRequests(ChangeRequestsResponse::Created(result)) = response else {
            return None;
        };
        if self.sending != Some(request) {
            return None;
        }
        self.sending = None;
        self.prompt.hint = "its subject".into();
        Some(match result {
            Ok(change_request) => Outcome::Created(open_in_review(&self.space, change_request)),
            Err(error) => Outcome::Refused(refused("Creating the change request", error, None)),
        })
    }

    pub fn draw(&self, frame: &mut Canvas, area: Rect, theme: &Theme) {
        prompt::draw(&self.prompt, frame, area, theme);
    }
}

/// The review of a change request just created.
fn open_in_review(space: &str, change_request: &ChangeRequest) -> Step {
    let target = ChangeRequestRef {
        space: change_request
            .space
            .clone()
            .unwrap_or_else(|| space.to_string()),
        change_request: change_request.id.clone(),
    };
    Step::open(Route::Review {
        target,
        summary: Some(change_request.clone()),
        siblings: None,
    })
}

/// Why `N` is refused where the space says the user may not edit; `role` as
/// [`space_role`] says it, when known.
pub fn refusal(role: Option<&str>) -> String {
    match role {
        Some(role) => {
            format!("You are {role} here: creating a change request needs edit or above.")
        }
        None => "Creating a change request here needs edit or above.".to_string(),
    }
}

/// What a screen of a space's main content (the page tree, the reader) does about change
/// requests: `N` opens the subject prompt (the page tree only), `P` says that PDFs are made of
/// change requests. The screen keeps one and hands it its keys, answers and a place to draw.
#[derive(Debug, Default)]
pub struct InSpace {
    pub creating: Option<NewChangeRequest>,
    pub notice: Option<crate::ui::notice::Notice>,
    /// The subject typed for a change request not created yet (on disk too): `esc`, a refusal
    /// or a lost quire leaves it for the next `N`.
    pub kept_subject: Option<String>,
    subject_draft: DraftKeeper,
}

/// Where the subject of a change request not created yet in `space` is kept on disk.
pub fn subject_draft_key(space: &str) -> String {
    format!("change-request-subject:{space}")
}

const KEPT_HINT: &str = "its subject (kept from before)";

/// What `P` says where there is only main content: the seed has no PDF of a space (the public
/// service has one, the seed and the sandbox do not), only of a change request.
pub const NO_SPACE_PDF: &str =
    "PDFs are of change requests only: press P in a review (c lists them).";

impl InSpace {
    /// Actions `N` and `P`; None for any other.
    pub fn on_action(
        &mut self,
        action: crate::ui::keymap::Action,
        space: &crate::api::models::Space,
    ) -> Option<Step> {
        use crate::ui::keymap::Action;
        use crate::ui::notice::Notice;
        match action {
            Action::NewChangeRequest if !space.permissions.edit => {
                self.notice = Some(Notice::error(refusal(Some(&space_role(space)))));
            }
            Action::NewChangeRequest => return Some(Step::cmd(self.open(&space.id))),
            Action::Pdf => self.notice = Some(Notice::info(NO_SPACE_PDF)),
            _ => return None,
        }
        Some(Step::default())
    }

    /// Keys first seen here: the prompt's when it is open; esc dismisses an error.
    pub fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        crate::ui::notice::on_key(&mut self.notice);
        if let Some(creating) = self.creating.as_mut() {
            return Some(match creating.on_key(key, ctx) {
                Outcome::Open(cmd) => Step::cmd(Cmd::batch([cmd, self.keep_subject()])),
                _ => {
                    self.creating = None;
                    Step::default()
                }
            });
        }
        let esc = key.code == ratatui::crossterm::event::KeyCode::Esc;
        (esc && crate::ui::notice::dismiss_error(&mut self.notice)).then(Step::default)
    }

    /// What keeps the subject once the paste went into the prompt; None when none is open.
    pub fn on_paste(&mut self, text: &str) -> Option<Cmd> {
        self.creating.as_mut()?.on_paste(text);
        Some(self.keep_subject())
    }

    pub fn on_response(&mut self, request: RequestId, response: &ApiResponse) -> Option<Step> {
        let outcome = self.creating.as_mut()?.on_response(request, response)?;
        Some(match outcome {
            Outcome::Created(mut step) => {
                let space = self.creating.take().map(|creating| creating.space);
                self.kept_subject = None;
                self.subject_draft = DraftKeeper::default();
                if let Some(space) = space {
                    let key = subject_draft_key(&space);
                    step.cmd = Cmd::batch([step.cmd, Cmd::DiscardDraft { key }]);
                }
                step
            }
            Outcome::Refused(reason) => {
                self.notice = Some(crate::ui::notice::Notice::error(reason));
                Step::default()
            }
            Outcome::Open(cmd) => Step::cmd(cmd),
            Outcome::Closed => {
                self.creating = None;
                Step::default()
            }
        })
    }

    /// `N`: the subject prompt, on the subject typed before if there is one; the one kept on
    /// disk is asked for too.
    pub fn open(&mut self, space: &str) -> Cmd {
        let mut creating = NewChangeRequest::new(space);
        self.subject_draft = DraftKeeper::default();
        if let Some(kept) = &self.kept_subject {
            creating.prompt.input = crate::ui::input::LineInput::with_text(kept);
            creating.prompt.hint = KEPT_HINT.into();
            self.subject_draft.found(kept);
        }
        self.creating = Some(creating);
        Cmd::LoadDrafts {
            prefix: subject_draft_key(space),
        }
    }

    /// Writes the subject being typed as a draft when it changed; removes it once blank.
    fn keep_subject(&mut self) -> Cmd {
        let Some(creating) = &self.creating else {
            return Cmd::None;
        };
        let text = &creating.prompt.input.text;
        self.kept_subject = (!text.trim().is_empty()).then(|| text.clone());
        let key = subject_draft_key(&creating.space);
        self.subject_draft.follow(key, self.kept_subject.clone())
    }

    /// A subject kept on disk goes into the prompt, unless something else was typed there.
    pub fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)]) {
        let Some(creating) = self.creating.as_mut() else {
            return;
        };
        if prefix != subject_draft_key(&creating.space) {
            return;
        }
        let Some((_, text)) = drafts.iter().find(|(key, _)| key == prefix) else {
            return;
        };
        let typed = &creating.prompt.input.text;
        if !typed.is_empty() && Some(typed) != self.kept_subject.as_ref() {
            return;
        }
        creating.prompt.input = crate::ui::input::LineInput::with_text(text);
        creating.prompt.hint = KEPT_HINT.into();
        self.subject_draft.found(text);
        self.kept_subject = Some(text.clone());
    }

    /// The notice on the last row of `area`, the prompt over it.
    pub fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        if let Some(notice) = &self.notice
            && area.height > 0
        {
            let row = Rect::new(area.x, area.bottom() - 1, area.width, 1);
            frame.render_widget(ratatui::widgets::Clear, row);
            frame.render_widget(
                ratatui::widgets::Paragraph::new(crate::ui::notice::row(notice, row.width, look)),
                row,
            );
        }
        if let Some(creating) = &self.creating {
            creating.draw(frame, area, look.theme);
        }
    }
}
