//! Carries out a [`GitCall`] with the API client.

use crate::api::Client;
use crate::vocabulary::git::{GitCall, GitDetails, GitResponse};

pub async fn call_git(client: &Client, call: GitCall) -> GitResponse {
    match call {
        GitCall::Info { space } => GitResponse::Details(details(client, &space).await),
        GitCall::Sync {
            space,
            direction,
            request,
        } => GitResponse::Done(client.git_sync(&space, direction, &request).await),
        GitCall::RemoveLegacyInstallation { space } => {
            GitResponse::Done(client.remove_legacy_git_installation(&space).await)
        }
    }
}

/// The info (a 404 means no provider is set up, not a failure) and, when there is a provider,
/// the ref of the current revision's commit; a revision that cannot be read only loses the
/// branch.
async fn details(client: &Client, space: &str) -> Result<GitDetails, crate::api::ApiError> {
    let info = match client.git_info(space).await {
        Ok(info) => info,
        Err(error) if error.is_not_found() => return Ok(GitDetails::default()),
        Err(error) => return Err(error),
    };
    let git_ref = client
        .get_space_content(space)
        .await
        .ok()
        .and_then(|revision| revision.git)
        .and_then(|git| git.git_ref);
    Ok(GitDetails {
        info: Some(info),
        git_ref,
    })
}
