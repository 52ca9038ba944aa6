//! The real `api::Client` against the real sandbox: git info, import, export and removing a
//! legacy installation, each checked by reading the server back.

use quire::api::git::branch_ref;
use quire::api::{ApiError, Client, ClientConfig, GitDirection, GitSyncRequest, Token};
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};

type TestResult = Result<(), Box<dyn std::error::Error>>;

async fn start() -> Result<(Sandbox, Client), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))?;
    Ok((sandbox, client))
}

fn request(url: &str, branch: &str) -> GitSyncRequest {
    GitSyncRequest {
        url: url.into(),
        git_ref: branch_ref(branch),
        commit_message: None,
        force: false,
        standalone: None,
        ..GitSyncRequest::default()
    }
}

#[tokio::test]
async fn info_of_a_synced_space_and_404_without_a_provider() -> TestResult {
    let (sandbox, client) = start().await?;
    let info = client.git_info(demo_ids::SPACE_GETTING_STARTED).await?;
    assert_eq!(info.repo_name.as_deref(), Some("acme-robotics/fleet-docs"));
    assert_eq!(info.installation_provider.as_deref(), Some("github"));
    let error = client.git_info(demo_ids::SPACE_HANDBOOK).await.unwrap_err();
    assert!(error.is_not_found(), "{error:?}");
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn import_sends_the_credentials_it_never_shows() -> TestResult {
    let (sandbox, client) = start().await?;
    let url = "https://ada:s3cret@github.com/acme/handbook";
    let mut import = request(url, "main");
    import.standalone = Some(false);
    import.force = true;
    client
        .git_sync(demo_ids::SPACE_HANDBOOK, GitDirection::Import, &import)
        .await?;
    let info = client.git_info(demo_ids::SPACE_HANDBOOK).await?;
    assert_eq!(
        info.url.as_deref(),
        Some("https://github.com/acme/handbook")
    );
    let operation = info.operation.expect("the import is recorded");
    assert_eq!(operation.direction.as_deref(), Some("import"));
    let sent: serde_json::Value = reqwest::Client::new()
        .get(format!(
            "{}/_sandbox/spaces/{}/git/last-url",
            sandbox.base_url(),
            demo_ids::SPACE_HANDBOOK
        ))
        .bearer_auth(tokens::ADMIN)
        .send()
        .await?
        .json()
        .await?;
    assert_eq!(sent["url"], url);
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn link_prefixes_and_host_are_kept_and_a_prefix_that_is_no_web_address_refused() -> TestResult
{
    let (sandbox, client) = start().await?;
    let space = demo_ids::SPACE_HANDBOOK;
    let mut import = request("https://github.com/acme/handbook", "main");
    import.repo_tree_url = Some("git@github.com:acme/handbook".into());
    let error = client
        .git_sync(space, GitDirection::Import, &import)
        .await
        .unwrap_err();
    assert_eq!(error.status(), Some(400), "{error:?}");
    assert!(error.to_string().contains("repoTreeURL"), "{error}");
    import.repo_tree_url = Some("https://github.com/acme/handbook/blob/main".into());
    import.repo_commit_url = Some("https://github.com/acme/handbook/commit".into());
    import.git_info = Some(quire::api::GitInfo {
        provider: "github".into(),
        url: "https://github.com/acme/handbook".into(),
    });
    client
        .git_sync(space, GitDirection::Import, &import)
        .await?;
    let kept: serde_json::Value = reqwest::Client::new()
        .get(format!(
            "{}/_sandbox/spaces/{space}/git/last-links",
            sandbox.base_url()
        ))
        .bearer_auth(tokens::ADMIN)
        .send()
        .await?
        .json()
        .await?;
    assert_eq!(
        kept["repoTreeURL"],
        "https://github.com/acme/handbook/blob/main"
    );
    assert_eq!(
        kept["repoCommitURL"],
        "https://github.com/acme/handbook/commit"
    );
    assert_eq!(kept["gitInfo"]["provider"], "github");
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn export_with_a_message_and_refused_without_one() -> TestResult {
    let (sandbox, client) = start().await?;
    let space = demo_ids::SPACE_GETTING_STARTED;
    let url = "https://github.com/acme-robotics/fleet-docs";
    let error = client
        .git_sync(space, GitDirection::Export, &request(url, "docs"))
        .await
        .unwrap_err();
    assert!(
        matches!(&error, ApiError::Status { status: 400, message, .. } if message.contains("commitMessage")),
        "{error:?}"
    );
    let mut export = request(url, "docs");
    export.commit_message = Some("docs: from quire".into());
    client
        .git_sync(space, GitDirection::Export, &export)
        .await?;
    let revision = client.get_space_content(space).await?;
    let git_ref = revision.git.and_then(|git| git.git_ref);
    assert_eq!(git_ref.as_deref(), Some("refs/heads/docs"));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn removing_the_legacy_installation_leaves_no_provider() -> TestResult {
    let (sandbox, client) = start().await?;
    let space = demo_ids::SPACE_API_REFERENCE;
    client.remove_legacy_git_installation(space).await?;
    client.remove_legacy_git_installation(space).await?;
    assert!(client.git_info(space).await.unwrap_err().is_not_found());
    sandbox.shutdown().await;
    Ok(())
}
