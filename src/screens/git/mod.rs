//! A space's git sync (`I` in the space screen): where it syncs (repository, provider, branch,
//! last sync) or that no provider is set up; import and export through a form and a
//! confirmation naming the direction and the branch; removing a legacy installation.
//! Credentials inside a repository address are sent, and shown only masked.

mod drafts;
mod form;
pub mod view;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

pub use form::{Field, FormOutcome, GitForm};

use crate::api::error::server_message;
use crate::api::git::branch_of;
use crate::api::models::Space;
use crate::api::{GitDirection, mask_credentials};
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::notice::{self, Notice};
use crate::vocabulary::git::{GitCall, GitDetails, GitResponse};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

/// What a confirmation, once answered yes, sends.
#[derive(Debug, Clone, PartialEq)]
pub enum Confirmed {
    Sync(Box<GitForm>),
    RemoveLegacy,
}

#[derive(Debug)]
pub struct GitScreen {
    pub space: Space,
    pub details: Loadable<GitDetails>,
    pub form: Option<GitForm>,
    pub confirm: Option<(Confirm, Confirmed)>,
    pub notice: Option<Notice>,
    /// The write in flight and what to say when it ends.
    pending: Option<(RequestId, String)>,
    /// What was typed into the forms, kept on disk.
    drafts: drafts::GitDrafts,
}

impl GitScreen {
    pub fn new(space: Space) -> GitScreen {
        GitScreen {
            space,
            details: Loadable::NotAsked,
            form: None,
            confirm: None,
            notice: None,
            pending: None,
            drafts: drafts::GitDrafts::default(),
        }
    }

    pub fn is_sending(&self) -> bool {
        self.pending.is_some()
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.details.start(request);
        Cmd::Api {
            request,
            call: ApiCall::Git(GitCall::Info {
                space: self.space.id.clone(),
            }),
        }
    }

    /// The branch the space syncs with, when known.
    pub fn branch(&self) -> Option<String> {
        let git_ref = self.details.value()?.git_ref.as_deref()?;
        Some(branch_of(git_ref).to_string())
    }

    fn has_legacy_installation(&self) -> bool {
        self.details
            .value()
            .and_then(|details| details.info.as_ref())
            .and_then(|info| info.installation_provider.as_deref())
            == Some("github-legacy")
    }

    /// Why import and export are refused, or `None`.
    pub fn sync_refusal(&self) -> Option<String> {
        (!self.space.permissions.trigger_git_sync)
            .then(|| "you may not sync this space with git; admin is needed".to_string())
    }

    /// Why removing a legacy installation is refused, or `None`.
    pub fn legacy_refusal(&self) -> Option<String> {
        if !self.space.permissions.admin {
            return Some(format!(
                "only an admin of the space “{}” may remove its legacy installation",
                self.space.title
            ));
        }
        (!self.has_legacy_installation())
            .then(|| "this space has no legacy git installation".to_string())
    }

    fn open_form(&mut self, direction: GitDirection) {
        if let Some(reason) = self.sync_refusal() {
            self.notice = Some(Notice::info(reason));
            return;
        }
        let (url, branch) = self.form_defaults();
        let form = GitForm::new(direction, &url, &branch);
        self.form = Some(self.form_with_draft(form));
    }

    /// What a form opens with: the address and branch the space syncs with, if known.
    fn form_defaults(&self) -> (String, String) {
        let info = self
            .details
            .value()
            .and_then(|details| details.info.clone());
        let url = info.and_then(|info| info.url).unwrap_or_default();
        let branch = self.branch().unwrap_or_else(|| "main".to_string());
        (url, branch)
    }

    /// Enter in the form: a problem stays in the form; a complete form asks to confirm.
    fn submit(&mut self, form: GitForm) {
        if let Some(problem) = form.problem() {
            self.notice = Some(Notice::error(problem));
            self.form = Some(form);
            return;
        }
        let branch = form.branch_name();
        let address = mask_credentials(form.url.text.trim());
        let title = &self.space.title;
        let force = if form.force { " (forced)" } else { "" };
        let (question, consequence, verb) = match form.direction {
            GitDirection::Import => (
                format!("Import branch {branch} into “{title}”{force}?"),
                if form.standalone {
                    format!(
                        "From {address}: a standalone revision is made; the space's content \
                         is not changed."
                    )
                } else {
                    format!("From {address}: the space's content is replaced by the branch's.")
                },
                "import",
            ),
            GitDirection::Export => (
                format!("Export “{title}” to branch {branch}{force}?"),
                format!("To {address}, as a commit “{}”.", form.message.text.trim()),
                "export",
            ),
        };
        self.confirm = Some((
            Confirm::new(question, consequence, verb),
            Confirmed::Sync(Box::new(form)),
        ));
    }

    fn send(&mut self, call: GitCall, done: String, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.pending = Some((request, done));
        Cmd::Api {
            request,
            call: ApiCall::Git(call),
        }
    }

    fn confirmed(&mut self, then: Confirmed, ctx: &mut Ctx) -> Cmd {
        let space = self.space.id.clone();
        match then {
            Confirmed::Sync(form) => {
                self.drafts.sent = Some(self.form_draft_key(form.direction));
                let done = match form.direction {
                    GitDirection::Import => {
                        format!("Import from branch {} started", form.branch_name())
                    }
                    GitDirection::Export => {
                        format!("Export to branch {} started", form.branch_name())
                    }
                };
                let call = GitCall::Sync {
                    space,
                    direction: form.direction,
                    request: form.request(),
                };
                self.send(call, done, ctx)
            }
            Confirmed::RemoveLegacy => {
                let call = GitCall::RemoveLegacyInstallation { space };
                self.send(call, "Legacy git installation removed".to_string(), ctx)
            }
        }
    }
}

impl GitScreen {
    /// A key: the confirmation's, the form's, or esc dismissing an error.
    fn on_form_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        notice::on_key(&mut self.notice);
        if let Some((confirm, then)) = self.confirm.take() {
            let cmd = match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => self.confirmed(then, ctx),
                ConfirmOutcome::Cancelled => Cmd::None,
                ConfirmOutcome::Ignored => {
                    self.confirm = Some((confirm, then));
                    Cmd::None
                }
            };
            return Some(Step::cmd(cmd));
        }
        if self.form.is_none() {
            let escape = key.code == ratatui::crossterm::event::KeyCode::Esc;
            return (escape && notice::dismiss_error(&mut self.notice)).then(Step::default);
        }
        let mut form = self.form.take()?;
        let outcome = form.handle_key(key);
        if outcome == FormOutcome::Pending {
            self.form = Some(form);
            return Some(Step::default());
        }
        let keep = self.keep_draft_of(&form, true);
        match outcome {
            FormOutcome::Cancelled => self.notice = None,
            _ => self.submit(form),
        }
        Some(Step::cmd(keep))
    }
}

impl ScreenState for GitScreen {
    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        let drafts = Cmd::LoadDrafts {
            prefix: self.form_draft_prefix(),
        };
        Cmd::batch([self.load(ctx), drafts])
    }

    fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)], _ctx: &mut Ctx) -> Cmd {
        if prefix == self.form_draft_prefix() {
            self.on_form_drafts(drafts);
        }
        Cmd::None
    }

    fn title(&self) -> String {
        "Git sync".to_string()
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Git]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::GitImport, "import"),
            (Action::GitExport, "export"),
            (Action::RemoveLegacyInstallation, "remove legacy"),
            (Action::Refresh, "refresh"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn disabled_actions(&self) -> Vec<Action> {
        let mut disabled = Vec::new();
        if self.sync_refusal().is_some() {
            disabled.extend([Action::GitImport, Action::GitExport]);
        }
        if self.legacy_refusal().is_some() {
            disabled.push(Action::RemoveLegacyInstallation);
        }
        disabled
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let step = self.on_form_key(key, ctx);
        self.with_form_draft(step)
    }
    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        if let Some(form) = self.form.as_mut() {
            form.paste(text);
        }
        self.keep_form_draft()
    }

    fn on_action(&mut self, action: Action, _ctx: &mut Ctx) -> Option<Step> {
        if self.is_sending() && matches!(action, Action::GitImport | Action::GitExport) {
            self.notice = Some(Notice::info("still sending…"));
            return Some(Step::default());
        }
        match action {
            Action::GitImport => self.open_form(GitDirection::Import),
            Action::GitExport => self.open_form(GitDirection::Export),
            Action::RemoveLegacyInstallation => match self.legacy_refusal() {
                Some(reason) => self.notice = Some(Notice::info(reason)),
                None => {
                    let confirm = Confirm::new(
                        format!(
                            "Remove the legacy git installation of “{}”?",
                            self.space.title
                        ),
                        "Git sync through the legacy GitHub app stops; set up the GitHub app \
                         again to keep syncing.",
                        "remove",
                    );
                    self.confirm = Some((confirm, Confirmed::RemoveLegacy));
                }
            },
            _ => return None,
        }
        Some(Step::default())
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Git(response) = response else {
            return None;
        };
        match response {
            GitResponse::Details(result) => self
                .details
                .settle(request, result.clone())
                .then(Step::default),
            GitResponse::Done(result) => {
                let (waiting, done) = self.pending.clone()?;
                if waiting != request {
                    return None;
                }
                self.pending = None;
                match result {
                    Ok(()) => {
                        self.notice = Some(Notice::info(done));
                        let discard = self.discard_sent_draft();
                        Some(Step::cmd(Cmd::batch([self.load(ctx), discard])))
                    }
                    Err(error) => {
                        self.notice = Some(Notice::error(format!(
                            "Git sync failed: {}",
                            server_message(error)
                        )));
                        Some(Step::default())
                    }
                }
            }
        }
    }

    fn link(&self) -> Option<String> {
        let info = self.details.value()?.info.as_ref()?;
        info.url.as_deref().map(mask_credentials)
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}
