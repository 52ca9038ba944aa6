//! The import and export forms' typed text kept on disk as it changes (one draft per
//! direction), so `esc`, a refused sync or a lost quire leaves it for the next `i` or `e`. An
//! address is kept without the credentials in it: a secret is not written to disk.

use super::{Field, GitForm, GitScreen};
use crate::api::GitDirection;
use crate::screens::form_draft::{KeptDrafts, and_then};
use crate::screens::step::Step;
use crate::ui::form::{decode_lines, encode_lines};
use crate::ui::input::LineInput;
use crate::ui::notice::Notice;
use crate::vocabulary::Cmd;

/// The drafts of the two forms, and which one a sync was asked with.
#[derive(Debug, Default)]
pub(super) struct GitDrafts {
    forms: KeptDrafts,
    /// The draft of the sync in flight, dropped once the server starts it.
    pub(super) sent: Option<String>,
}

/// `url` without the user and password before its host.
pub(super) fn without_credentials(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_string();
    };
    let start = scheme_end + 3;
    let rest = &url[start..];
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    match authority.rfind('@') {
        Some(at) => format!("{}{}", &url[..start], &rest[at + 1..]),
        None => url.to_string(),
    }
}

impl GitScreen {
    /// Where this space's import and export forms are kept on disk, before the direction.
    pub fn form_draft_prefix(&self) -> String {
        format!("git-sync:{}:", self.space.id)
    }

    pub fn form_draft_key(&self, direction: GitDirection) -> String {
        let direction = match direction {
            GitDirection::Import => "import",
            GitDirection::Export => "export",
        };
        format!("{}{direction}", self.form_draft_prefix())
    }

    /// The typed text that differs from what the form opens with, as a draft. The address
    /// is taken once it is left (`address_done`, or another field focused): while it is typed,
    /// a password before its host cannot be told from the host yet, so the draft keeps the
    /// address it had.
    fn form_draft_text(&self, form: &GitForm, address_done: bool) -> Option<String> {
        let (url, branch) = self.form_defaults();
        let mut lines = Vec::new();
        if address_done || form.focused() != Field::Url {
            let kept = without_credentials(&form.url.text);
            if form.url.text != url {
                lines.push(("url", kept.clone()));
            }
            if kept != form.url.text {
                lines.push(("credentials", "not kept".to_string()));
            }
        } else {
            let key = self.form_draft_key(form.direction);
            let before = self.drafts.forms.get(&key).map(|text| decode_lines(text));
            let address =
                before
                    .into_iter()
                    .flatten()
                    .filter_map(|(name, value)| match name.as_str() {
                        "url" => Some(("url", value)),
                        "credentials" => Some(("credentials", value)),
                        _ => None,
                    });
            lines.extend(address);
        }
        if form.branch.text != branch {
            lines.push(("branch", form.branch.text.clone()));
        }
        for (name, input) in [
            ("message", &form.message),
            ("directory", &form.directory),
            ("tree", &form.tree_url),
            ("commits", &form.commit_url),
        ] {
            if !input.text.is_empty() {
                lines.push((name, input.text.clone()));
            }
        }
        if let Some(host) = form.host {
            lines.push(("host", host.to_string()));
        }
        (!lines.is_empty()).then(|| encode_lines(lines.iter().map(|(n, v)| (*n, v.as_str()))))
    }

    /// Puts a draft's text into `form`; says whether credentials were left out of it.
    fn restore_form_draft(form: &mut GitForm, text: &str) -> bool {
        let mut without_credentials = false;
        for (name, value) in decode_lines(text) {
            match name.as_str() {
                "url" => form.url = LineInput::with_text(&value),
                "branch" => form.branch = LineInput::with_text(&value),
                "message" => form.message = LineInput::with_text(&value),
                "directory" => form.directory = LineInput::with_text(&value),
                "tree" => form.tree_url = LineInput::with_text(&value),
                "commits" => form.commit_url = LineInput::with_text(&value),
                "host" => form.host = super::form::HOSTS.iter().copied().find(|h| *h == value),
                "credentials" => without_credentials = true,
                _ => {}
            }
        }
        without_credentials
    }

    /// A new form for `direction`, with the text kept for it put back.
    pub(super) fn form_with_draft(&mut self, mut form: GitForm) -> GitForm {
        let key = self.form_draft_key(form.direction);
        if let Some(text) = self.drafts.forms.open(&key) {
            let mut words = "Restored what was typed in an earlier run".to_string();
            if Self::restore_form_draft(&mut form, &text) {
                words.push_str(": type the address's credentials again");
            }
            self.notice = Some(Notice::info(words));
        }
        form
    }

    /// Writes the open form's draft when it changed, removes it once nothing is left to keep.
    pub(super) fn keep_form_draft(&mut self) -> Cmd {
        match self.form.take() {
            Some(form) => {
                let cmd = self.keep_draft_of(&form, false);
                self.form = Some(form);
                cmd
            }
            None => Cmd::None,
        }
    }

    /// Writes `form`'s draft when it changed; `closing`, its address is taken as it is.
    pub(super) fn keep_draft_of(&mut self, form: &GitForm, closing: bool) -> Cmd {
        let key = self.form_draft_key(form.direction);
        let now = self.form_draft_text(form, closing);
        self.drafts.forms.follow(key, now)
    }

    /// `step`, then whatever keeps the open form's draft in step with it.
    pub(super) fn with_form_draft(&mut self, step: Option<Step>) -> Option<Step> {
        and_then(step, self.keep_form_draft())
    }

    /// The server started the sync: the form's draft goes.
    pub(super) fn discard_sent_draft(&mut self) -> Cmd {
        let Some(key) = self.drafts.sent.take() else {
            return Cmd::None;
        };
        self.drafts.forms.discard(key)
    }

    /// Drafts found on disk: kept until their form opens.
    pub(super) fn on_form_drafts(&mut self, drafts: &[(String, String)]) {
        if self.drafts.forms.found(&self.form_draft_prefix(), drafts) {
            self.notice = Some(Notice::info(
                "A git form typed in an earlier run is kept: i or e offers it again",
            ));
        }
    }
}
