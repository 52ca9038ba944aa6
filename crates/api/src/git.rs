//! Git sync of a space: its info, import, export, and removing a legacy
//! installation. A repository address may carry basic-auth credentials
//! (`https://user:token@host/…`): they are sent, and [`mask_credentials`] hides them
//! everywhere they could be seen (screens, logs, `Debug`).

use serde::Serialize;

use super::address::encode_segment;
use super::client::Client;
use super::error::ApiError;
use super::models::GitSync;

/// Which way a sync goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GitDirection {
    /// Repository → space.
    Import,
    /// Space → repository.
    Export,
}

impl GitDirection {
    pub fn name(self) -> &'static str {
        match self {
            GitDirection::Import => "import",
            GitDirection::Export => "export",
        }
    }
}

/// An import or export request. `git_ref` is `refs/heads/<branch>`. `Debug` masks the
/// credentials of `url`, so a logged request never shows them.
#[derive(Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GitSyncRequest {
    pub url: String,
    #[serde(rename = "ref")]
    pub git_ref: String,
    /// Export only (required there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_message: Option<String>,
    pub force: bool,
    /// Import only: make a revision without updating the primary content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standalone: Option<bool>,
    /// The directory of the repository the content lives in (a monorepo's `docs/`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo_project_directory: Option<String>,
    /// The address prefix for links to the repository's files.
    #[serde(rename = "repoTreeURL", skip_serializing_if = "Option::is_none")]
    pub repo_tree_url: Option<String>,
    /// The address prefix for links to the repository's commits.
    #[serde(rename = "repoCommitURL", skip_serializing_if = "Option::is_none")]
    pub repo_commit_url: Option<String>,
    /// A cache of the repository the server may reuse across syncs.
    #[serde(rename = "repoCacheID", skip_serializing_if = "Option::is_none")]
    pub repo_cache_id: Option<String>,
    /// When the change that asks for the sync happened (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    /// The git host and repository the sync is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_info: Option<GitInfo>,
}

/// `gitInfo` of an import or export: which host (`github`, `gitlab`) and the repository's
/// address there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GitInfo {
    pub provider: String,
    pub url: String,
}

impl std::fmt::Debug for GitSyncRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GitSyncRequest")
            .field("url", &mask_credentials(&self.url))
            .field("git_ref", &self.git_ref)
            .field("commit_message", &self.commit_message)
            .field("force", &self.force)
            .field("standalone", &self.standalone)
            .field("repo_project_directory", &self.repo_project_directory)
            .field("repo_tree_url", &self.repo_tree_url)
            .field("repo_commit_url", &self.repo_commit_url)
            .field("repo_cache_id", &self.repo_cache_id)
            .field("timestamp", &self.timestamp)
            .field(
                "git_info",
                &self
                    .git_info
                    .as_ref()
                    .map(|info| (info.provider.as_str(), mask_credentials(&info.url))),
            )
            .finish()
    }
}

/// The ref of a branch as the API takes it: `main` → `refs/heads/main`.
pub fn branch_ref(branch: &str) -> String {
    format!("refs/heads/{}", branch.trim())
}

/// The branch of a `refs/heads/<branch>` ref; other refs as they are.
pub fn branch_of(git_ref: &str) -> &str {
    git_ref.strip_prefix("refs/heads/").unwrap_or(git_ref)
}

/// The address with any basic-auth password (or a lone token, which is as secret) replaced by
/// `****`: `https://ada:s3cret@host/r` → `https://ada:****@host/r`.
pub fn mask_credentials(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_string();
    };
    let authority_start = scheme_end + 3;
    let rest = &url[authority_start..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let Some(at) = authority.rfind('@') else {
        return url.to_string();
    };
    let user_info = &authority[..at];
    let masked = match user_info.split_once(':') {
        Some((user, _)) => format!("{user}:****"),
        None => "****".to_string(),
    };
    format!(
        "{}{masked}{}",
        &url[..authority_start],
        &url[authority_start + at..]
    )
}

fn git_path(space: &str, what: &str) -> String {
    format!("/spaces/{}/git/{what}", encode_segment(space))
}

impl Client {
    /// `GET /spaces/{id}/git/info`: an error (404) when no provider is set up.
    pub async fn git_info(&self, space: &str) -> Result<GitSync, ApiError> {
        self.get(&git_path(space, "info"), &[]).await
    }

    /// `POST /spaces/{id}/git/import` or `…/export`: 204, the operation is started.
    pub async fn git_sync(
        &self,
        space: &str,
        direction: GitDirection,
        request: &GitSyncRequest,
    ) -> Result<(), ApiError> {
        self.post_no_content(&git_path(space, direction.name()), request)
            .await
    }

    /// `DELETE /spaces/{id}/git/legacy-installation`: 204 (or 205) whether or not there was one.
    pub async fn remove_legacy_git_installation(&self, space: &str) -> Result<(), ApiError> {
        self.delete(&git_path(space, "legacy-installation")).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_masked_and_the_rest_kept() {
        assert_eq!(
            mask_credentials("https://ada:s3cret@github.com/acme/docs.git"),
            "https://ada:****@github.com/acme/docs.git"
        );
        assert_eq!(
            mask_credentials("https://ghp_token@github.com/acme/docs"),
            "https://****@github.com/acme/docs"
        );
        assert_eq!(
            mask_credentials("https://github.com/acme/docs?x=a@b"),
            "https://github.com/acme/docs?x=a@b"
        );
        assert_eq!(mask_credentials("not a url"), "not a url");
        assert_eq!(mask_credentials("https://a:b@"), "https://a:****@");
    }

    #[test]
    fn debug_never_shows_the_password() {
        let request = GitSyncRequest {
            url: "https://ada:s3cret@github.com/acme/docs".into(),
            git_ref: branch_ref("main"),
            commit_message: None,
            force: false,
            standalone: Some(true),
            git_info: Some(GitInfo {
                provider: "github".into(),
                url: "https://ada:s3cret@github.com/acme/docs".into(),
            }),
            ..GitSyncRequest::default()
        };
        let printed = format!("{request:?}");
        assert!(!printed.contains("s3cret"), "{printed}");
        assert!(printed.contains("ada:****@github.com"), "{printed}");
        let sent = serde_json::to_value(&request).unwrap();
        assert_eq!(sent["url"], "https://ada:s3cret@github.com/acme/docs");
        assert_eq!(sent["ref"], "refs/heads/main");
        assert_eq!(sent["gitInfo"]["provider"], "github");
        assert!(
            sent.get("repoTreeURL").is_none(),
            "what is not set is not sent"
        );
    }
}
