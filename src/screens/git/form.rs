//! The import/export form: repository address, branch, commit message (export), force and
//! standalone (import), the project directory (`repoProjectDirectory`), the address prefixes
//! of the repository's files and commits (`repoTreeURL`, `repoCommitURL`) and its git host
//! (`gitInfo`, with the address without credentials); each optional field is sent only when
//! set. Typing goes to the focused text field; tab and the arrows move between fields, space
//! flips a switch or cycles the host, enter asks to confirm, esc closes.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::api::git::GitInfo;
use crate::api::git::branch_ref;
use crate::api::{GitDirection, GitSyncRequest};
use crate::ui::input::{InputOutcome, LineInput};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Url,
    Branch,
    Directory,
    Message,
    Force,
    Standalone,
    TreeUrl,
    CommitUrl,
    Host,
}

/// The git hosts `gitInfo.provider` names.
pub(super) const HOSTS: [&str; 2] = ["github", "gitlab"];

impl Field {
    pub fn label(self) -> &'static str {
        match self {
            Field::Url => "Repository",
            Field::Branch => "Branch",
            Field::Directory => "Directory",
            Field::Message => "Commit message",
            Field::Force => "Force",
            Field::Standalone => "Standalone",
            Field::TreeUrl => "Files URL",
            Field::CommitUrl => "Commits URL",
            Field::Host => "Git host",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct GitForm {
    pub direction: GitDirection,
    pub url: LineInput,
    pub branch: LineInput,
    /// The repository's directory the content lives in; empty for its root.
    pub directory: LineInput,
    pub message: LineInput,
    /// The prefix of links to the repository's files (`repoTreeURL`).
    pub tree_url: LineInput,
    /// The prefix of links to the repository's commits (`repoCommitURL`).
    pub commit_url: LineInput,
    /// The git host sent as `gitInfo.provider`, an entry of [`HOSTS`]; not sent when `None`.
    pub host: Option<&'static str>,
    pub force: bool,
    pub standalone: bool,
    pub focus: usize,
}

/// What a key did to the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormOutcome {
    Pending,
    Submitted,
    Cancelled,
}

impl GitForm {
    pub fn new(direction: GitDirection, url: &str, branch: &str) -> GitForm {
        GitForm {
            direction,
            url: LineInput::with_text(url),
            branch: LineInput::with_text(branch),
            directory: LineInput::default(),
            message: LineInput::default(),
            tree_url: LineInput::default(),
            commit_url: LineInput::default(),
            host: None,
            force: false,
            standalone: false,
            focus: 0,
        }
    }

    pub fn fields(&self) -> &'static [Field] {
        match self.direction {
            GitDirection::Import => &[
                Field::Url,
                Field::Branch,
                Field::Force,
                Field::Standalone,
                Field::Directory,
                Field::TreeUrl,
                Field::CommitUrl,
                Field::Host,
            ],
            GitDirection::Export => &[
                Field::Url,
                Field::Branch,
                Field::Message,
                Field::Force,
                Field::Directory,
                Field::TreeUrl,
                Field::CommitUrl,
                Field::Host,
            ],
        }
    }

    pub fn focused(&self) -> Field {
        self.fields().get(self.focus).copied().unwrap_or(Field::Url)
    }

    fn input_mut(&mut self, field: Field) -> Option<&mut LineInput> {
        match field {
            Field::Url => Some(&mut self.url),
            Field::Branch => Some(&mut self.branch),
            Field::Directory => Some(&mut self.directory),
            Field::Message => Some(&mut self.message),
            Field::TreeUrl => Some(&mut self.tree_url),
            Field::CommitUrl => Some(&mut self.commit_url),
            Field::Force | Field::Standalone | Field::Host => None,
        }
    }

    pub fn handle_key(&mut self, key: &KeyEvent) -> FormOutcome {
        let count = self.fields().len();
        match key.code {
            KeyCode::Esc => return FormOutcome::Cancelled,
            KeyCode::Enter => return FormOutcome::Submitted,
            KeyCode::Tab | KeyCode::Down => self.focus = (self.focus + 1) % count,
            KeyCode::BackTab | KeyCode::Up => self.focus = (self.focus + count - 1) % count,
            KeyCode::Char(' ') if self.focused() == Field::Force => self.force = !self.force,
            KeyCode::Char(' ') if self.focused() == Field::Standalone => {
                self.standalone = !self.standalone;
            }
            KeyCode::Char(' ') if self.focused() == Field::Host => self.host = next_host(self.host),
            _ => {
                let field = self.focused();
                if let Some(input) = self.input_mut(field)
                    && input.handle_key(key) == InputOutcome::Cancelled
                {
                    return FormOutcome::Cancelled;
                }
            }
        }
        FormOutcome::Pending
    }

    /// Pasted text goes to the focused text field.
    pub fn paste(&mut self, text: &str) {
        let field = self.focused();
        if let Some(input) = self.input_mut(field) {
            input.insert_str(text.trim_end_matches(['\r', '\n']));
        }
    }

    /// What must be fixed before sending, in words; `None` when the form is complete.
    pub fn problem(&self) -> Option<String> {
        let url = self.url.text.trim();
        let branch = self.branch.text.trim();
        if url.is_empty() {
            return Some("a repository address is required".into());
        }
        if !url.contains("://") || url.ends_with("://") {
            return Some(
                "the repository address needs a scheme, like https://host/owner/repo".into(),
            );
        }
        if branch.is_empty() {
            return Some("a branch is required".into());
        }
        if branch.contains(char::is_whitespace) || branch.starts_with("refs/") {
            return Some("type the branch name only (main), without spaces or refs/heads/".into());
        }
        if self.direction == GitDirection::Export && self.message.text.trim().is_empty() {
            return Some("a commit message is required to export".into());
        }
        for (input, what) in [(&self.tree_url, "files"), (&self.commit_url, "commits")] {
            let prefix = input.text.trim();
            if !prefix.is_empty() && !is_web_address(prefix) {
                return Some(format!(
                    "the {what} URL is a web address, like https://host/owner/repo/…"
                ));
            }
        }
        None
    }

    pub fn branch_name(&self) -> String {
        self.branch.text.trim().to_string()
    }

    /// The request the form describes (check [`GitForm::problem`] first).
    pub fn request(&self) -> GitSyncRequest {
        let export = self.direction == GitDirection::Export;
        GitSyncRequest {
            url: self.url.text.trim().to_string(),
            git_ref: branch_ref(&self.branch.text),
            commit_message: export.then(|| self.message.text.trim().to_string()),
            force: self.force,
            standalone: (!export).then_some(self.standalone),
            repo_project_directory: Some(self.directory.text.trim().trim_matches('/'))
                .filter(|directory| !directory.is_empty())
                .map(str::to_string),
            repo_tree_url: optional(&self.tree_url),
            repo_commit_url: optional(&self.commit_url),
            git_info: self.host.map(|provider| GitInfo {
                provider: provider.to_string(),
                url: super::drafts::without_credentials(self.url.text.trim()),
            }),
            ..GitSyncRequest::default()
        }
    }
}

/// The host after `host` as space cycles it: none, then each of [`HOSTS`].
fn next_host(host: Option<&'static str>) -> Option<&'static str> {
    match host.and_then(|host| HOSTS.iter().position(|known| *known == host)) {
        None => HOSTS.first().copied(),
        Some(index) => HOSTS.get(index + 1).copied(),
    }
}

fn is_web_address(text: &str) -> bool {
    ["https://", "http://"]
        .iter()
        .any(|scheme| text.len() > scheme.len() && text.starts_with(scheme))
}

/// A text field's trimmed text, `None` when empty.
fn optional(input: &LineInput) -> Option<String> {
    Some(input.text.trim())
        .filter(|text| !text.is_empty())
        .map(str::to_string)
}
