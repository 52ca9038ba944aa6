//! The real `api::Client` against the real sandbox for conversations: clusters in each
//! order, conversations by source, issues by cluster, a transcript, and ingest (checked before
//! sending, read back after).

use quire::api::{
    ApiError, Client, ClientConfig, ClusterOrder, ClusterSort, ClusterStatus, IssueFilter,
    NewConversation, Token,
};
use quire::runtime::calls::conversations::call_conversations;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::vocabulary::conversations::{ConversationsCall, ConversationsResponse, IngestFailure};

pub(crate) type TestResult = Result<(), Box<dyn std::error::Error>>;

pub(crate) async fn start(token: &str) -> Result<(Sandbox, Client), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?;
    let client = Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token)))?;
    Ok((sandbox, client))
}

#[tokio::test]
async fn clusters_come_in_the_order_asked_with_their_pulse() -> TestResult {
    let (sandbox, client) = start(tokens::READER).await?;
    let newest = client
        .list_issue_clusters_page(demo_ids::ACME, ClusterOrder::default(), None, None)
        .await?;
    assert_eq!(newest.items.len(), 4);
    let oldest_created = ClusterOrder {
        sort: ClusterSort::CreatedAt,
        ascending: true,
    };
    let oldest = client
        .list_issue_clusters_page(demo_ids::ACME, oldest_created, None, None)
        .await?;
    let created: Vec<_> = oldest.items.iter().map(|c| c.created_at.clone()).collect();
    let mut sorted = created.clone();
    sorted.sort();
    assert_eq!(created, sorted);
    let token = newest
        .items
        .iter()
        .find(|cluster| cluster.id == demo_ids::CLUSTER_TOKEN_ERRORS)
        .ok_or("token cluster")?;
    assert_eq!(token.weekly_pulse.len(), 12);
    assert_eq!(token.sources.get("intercom"), Some(&14));
    assert!(token.stats.tasks_total.is_some());
    sandbox.shutdown().await;
    Ok(())
}

/// The labels of the clusters of `status`, as the sandbox answers them.
async fn labels_of(
    client: &Client,
    status: Option<ClusterStatus>,
) -> Result<Vec<String>, ApiError> {
    let page = client
        .list_issue_clusters_page(demo_ids::ACME, ClusterOrder::default(), status, None)
        .await?;
    Ok(page
        .items
        .into_iter()
        .map(|cluster| cluster.label)
        .collect())
}

#[tokio::test]
async fn clusters_of_one_status_once_the_server_is_seen_to_have_clusters() -> TestResult {
    let (sandbox, client) = start(tokens::READER).await?;
    // Before the server answered the clusters list, the status is not sent.
    let unseen = labels_of(&client, Some(ClusterStatus::Archived)).await?;
    assert_eq!(unseen.len(), 4, "{unseen:?}");
    let archived = labels_of(&client, Some(ClusterStatus::Archived)).await?;
    assert_eq!(archived.len(), 1, "{archived:?}");
    let active = labels_of(&client, Some(ClusterStatus::Active)).await?;
    assert_eq!(active.len(), 3, "{active:?}");
    assert!(!active.contains(&archived[0]), "{active:?}");
    let every = labels_of(&client, None).await?;
    assert_eq!(every.len(), 4);
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn issues_of_a_cluster_and_a_conversation_transcript() -> TestResult {
    let (sandbox, client) = start(tokens::READER).await?;
    let filter = IssueFilter {
        cluster: Some(demo_ids::CLUSTER_TOKEN_ERRORS.into()),
        conversation: None,
    };
    let issues = client
        .list_conversation_issues(demo_ids::ACME, &filter, None)
        .await?;
    assert_eq!(issues.items.len(), 2);
    let issue = client
        .get_conversation_issue(demo_ids::ACME, demo_ids::ISSUE_TOKEN_403)
        .await?;
    assert_eq!(issue.conversation.id, demo_ids::CONVERSATION_TOKEN_403);
    let detail = client
        .get_conversation(demo_ids::ACME, demo_ids::CONVERSATION_TOKEN_403)
        .await?;
    assert_eq!(detail.parts.len(), 4);
    assert_eq!(detail.parts[3].role, "assistant");
    let slack = client
        .list_conversations(demo_ids::ACME, Some("slack"), None)
        .await?;
    assert!(
        slack
            .items
            .iter()
            .all(|c| c.source.as_deref() == Some("slack"))
    );
    for error in [
        client
            .get_conversation(demo_ids::ACME, "conv-nope")
            .await
            .err(),
        client
            .get_conversation_issue(demo_ids::ACME, "iss-nope")
            .await
            .err(),
    ] {
        assert!(
            error.as_ref().is_some_and(ApiError::is_not_found),
            "{error:?}"
        );
    }
    sandbox.shutdown().await;
    Ok(())
}

const CONVERSATION: &str = r#"{"id":"conv-new","subject":"Dark mode?",
    "parts":[{"type":"message","role":"user","body":"Is there a dark mode?"},
             {"type":"message","role":"assistant","body":"Yes: *Settings → Theme*."}],
    "metadata":{"url":"https://support.example.com/t/5","createdAt":"2024-06-01T10:00:00Z"}}"#;

#[tokio::test]
async fn an_ingested_conversation_reads_back() -> TestResult {
    let (sandbox, client) = start(tokens::ADMIN).await?;
    let conversation = NewConversation::from_json(CONVERSATION).map_err(|p| format!("{p:?}"))?;
    client
        .ingest_conversation(demo_ids::ACME, &conversation)
        .await?;
    let detail = client.get_conversation(demo_ids::ACME, "conv-new").await?;
    assert_eq!(detail.conversation.subject, "Dark mode?");
    assert_eq!(detail.parts[1].body, "Yes: *Settings → Theme*.");
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn ingesting_a_file_checks_it_before_sending() -> TestResult {
    let (sandbox, client) = start(tokens::ADMIN).await?;
    let directory = tempfile::tempdir()?;
    let bad = directory.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"id":"conv-bad","subject":"x","parts":[{"type":"note"}]}"#,
    )?;
    let call = |path: &std::path::Path| ConversationsCall::IngestFile {
        organization: demo_ids::ACME.into(),
        path: path.display().to_string(),
    };
    let ConversationsResponse::Ingested(Err(IngestFailure::Invalid(problems))) =
        call_conversations(&client, call(&bad)).await
    else {
        return Err("a wrong file is refused before sending".into());
    };
    assert!(problems.iter().any(|p| p.field == "parts[0].type"));
    let error = client
        .get_conversation(demo_ids::ACME, "conv-bad")
        .await
        .err();
    assert!(error.is_some_and(|e| e.is_not_found()), "nothing was sent");
    let good = directory.path().join("good.json");
    std::fs::write(&good, CONVERSATION)?;
    let answer = call_conversations(&client, call(&good)).await;
    assert_eq!(
        answer,
        ConversationsResponse::Ingested(Ok("Dark mode?".into()))
    );
    let missing = call_conversations(&client, call(&directory.path().join("none.json"))).await;
    assert!(matches!(
        missing,
        ConversationsResponse::Ingested(Err(IngestFailure::Unreadable(_)))
    ));
    sandbox.shutdown().await;
    Ok(())
}
