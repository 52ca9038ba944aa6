//! Carries out a [`ConversationsCall`] with the API client.

use crate::api::{Client, NewConversation};
use crate::vocabulary::conversations::{ConversationsCall, ConversationsResponse, IngestFailure};

pub async fn call_conversations(client: &Client, call: ConversationsCall) -> ConversationsResponse {
    match call {
        ConversationsCall::Clusters {
            organization,
            order,
            status,
            page,
        } => ConversationsResponse::Clusters(
            client
                .list_issue_clusters_page(&organization, order, status, page.as_deref())
                .await,
        ),
        ConversationsCall::Conversations {
            organization,
            source,
            page,
        } => ConversationsResponse::Conversations(
            client
                .list_conversations(&organization, source.as_deref(), page.as_deref())
                .await,
        ),
        ConversationsCall::Conversation { organization, id } => {
            ConversationsResponse::Conversation(client.get_conversation(&organization, &id).await)
        }
        ConversationsCall::Issue { organization, id } => {
            ConversationsResponse::Issue(client.get_conversation_issue(&organization, &id).await)
        }
        ConversationsCall::Issues {
            organization,
            filter,
            page,
        } => ConversationsResponse::Issues(
            client
                .list_conversation_issues(&organization, &filter, page.as_deref())
                .await,
        ),
        ConversationsCall::IngestFile { organization, path } => {
            ConversationsResponse::Ingested(ingest_file(client, &organization, &path).await)
        }
    }
}

/// Reads and checks the file; sends it only when it is right.
async fn ingest_file(
    client: &Client,
    organization: &str,
    path: &str,
) -> Result<String, IngestFailure> {
    // A conversation file is small: reading it here does not hold the loop up.
    let text = std::fs::read_to_string(expand_home(path))
        .map_err(|error| IngestFailure::Unreadable(error.to_string()))?;
    let conversation = NewConversation::from_json(&text).map_err(IngestFailure::Invalid)?;
    client
        .ingest_conversation(organization, &conversation)
        .await
        .map_err(IngestFailure::Refused)?;
    Ok(conversation.subject)
}

/// `~/x` is the home directory's `x`, as a shell would read the path typed in the prompt.
pub(super) fn expand_home(path: &str) -> std::path::PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => std::path::Path::new(&home).join(rest),
        _ => std::path::PathBuf::from(path),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_tilde_path_is_under_home() {
        let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
        if let Some(home) = home {
            assert_eq!(super::expand_home("~/c.json"), home.join("c.json"));
        }
        assert_eq!(
            super::expand_home("/tmp/c.json"),
            std::path::PathBuf::from("/tmp/c.json")
        );
    }
}
