//! What the sandbox keeps of each space's git sync.

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// Git sync of one space, as the info endpoint tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GitState {
    /// `github`, `gitlab` or `github-legacy`.
    pub provider: String,
    pub repo_name: String,
    /// The repository address without any credentials.
    pub url: String,
    pub installation_id: String,
    pub updated_at: String,
    /// The ref last synced, `refs/heads/<branch>`.
    pub git_ref: String,
    pub operation: Option<Operation>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// `import` or `export`.
    pub direction: &'static str,
    pub started_at: String,
}

/// Git state per space id, plus what the last import or export sent as `url` (credentials
/// included), for the test knob that proves a client sends them.
#[derive(Clone, Debug, Default)]
pub struct GitStates {
    pub spaces: BTreeMap<String, GitState>,
    pub last_url_sent: BTreeMap<String, String>,
    /// The link prefixes and host the last import or export of each space was sent with
    /// (`repoTreeURL`, `repoCommitURL`, `repoProjectDirectory`, `gitInfo`), for tests.
    pub last_links_sent: BTreeMap<String, Value>,
}

impl GitStates {
    /// The `gitSync` object of a space (also the body of `GET …/git/info`); `None` when no
    /// provider is set up.
    pub(crate) fn info(&self, space: &str) -> Option<Value> {
        let state = self.spaces.get(space)?;
        let mut object = json!({
            "repoName": state.repo_name,
            "installationProvider": state.provider,
            "installationStatus": "active",
            "installationId": state.installation_id,
            "integration": "github",
            "url": state.url,
            "updatedAt": state.updated_at,
        });
        if let Some(operation) = &state.operation {
            object["operation"] = json!({
                "state": "success",
                "direction": operation.direction,
                "startedAt": operation.started_at,
                "endedAt": operation.started_at,
            });
        }
        Some(object)
    }

    /// The ref of the space's last sync, for its revision's `git.ref`.
    pub(crate) fn current_ref(&self, space: &str) -> String {
        self.spaces.get(space).map_or_else(
            || "refs/heads/main".to_string(),
            |state| state.git_ref.clone(),
        )
    }
}
