//! Operations a server may not offer: the API reference defines links, backlinks, space
//! transfer and conversations; the public service has none of them. Against the sandbox in its
//! public-service mode the client says so in words, remembers it, and sends no second request;
//! against the whole API a missing item is still a plain "not found".

use quire::api::{ApiError, BacklinkTarget, ChangeRequestFilter, Client, ContentSource};
use quire::sandbox::{Faults, Sandbox, demo_ids};

async fn sandbox(like_public: bool) -> (Sandbox, Client) {
    crate::common::sandbox_with_faults(Faults {
        like_public,
        ..Faults::default()
    })
    .await
}

fn getting_started() -> ContentSource {
    ContentSource::Space(demo_ids::SPACE_GETTING_STARTED.into())
}

#[tokio::test]
async fn a_missing_operation_is_said_in_words_and_not_asked_again() {
    let (sandbox, client) = sandbox(true).await;
    let page = BacklinkTarget::Page(demo_ids::PAGE_QUICKSTART.into());
    let error = client
        .list_backlinks(&getting_started(), &page, None)
        .await
        .expect_err("the public service has no backlinks");
    assert!(error.is_unsupported(), "{error:?}");
    let message = error.user_message();
    assert!(
        message.contains("This server does not offer a page's backlinks")
            && message.contains("answered 404")
            && !message.contains("retry"),
        "{message}"
    );
    let pattern = "/spaces/*/content/page/*/backlinks";
    assert_eq!(sandbox.requests("GET", pattern), 1);
    let again = client
        .list_backlinks(&getting_started(), &page, None)
        .await
        .expect_err("still missing");
    assert!(again.is_unsupported());
    assert_eq!(
        sandbox.requests("GET", pattern),
        1,
        "not sent a second time"
    );
    let learned = client.capabilities().all();
    assert_eq!(learned.len(), 1);
    assert_eq!(learned[0].what, "a page's backlinks");
}

#[tokio::test]
async fn a_missing_item_on_a_server_with_the_operation_is_not_found() {
    let (_sandbox, client) = sandbox(false).await;
    let page = BacklinkTarget::Page("pg-that-was-deleted".into());
    let error = client
        .list_backlinks(&getting_started(), &page, None)
        .await
        .expect_err("no such page");
    assert!(
        matches!(error, ApiError::Status { status: 404, .. }),
        "{error:?}"
    );
    assert!(client.capabilities().all().is_empty());
}

#[tokio::test]
async fn a_space_links_report_on_the_public_service_is_unsupported() {
    let (_sandbox, client) = sandbox(true).await;
    let error = client
        .list_space_links(demo_ids::SPACE_GETTING_STARTED, None, None)
        .await
        .expect_err("no links report");
    assert!(error.is_unsupported(), "{error:?}");
    assert!(
        error
            .user_message()
            .contains("does not offer a space's links report")
    );
}

#[tokio::test]
async fn a_missing_operation_asked_again_for_another_space_names_that_space() {
    let (_sandbox, client) = sandbox(true).await;
    let first = client
        .list_space_links(demo_ids::SPACE_GETTING_STARTED, None, None)
        .await
        .expect_err("no links report");
    assert!(
        first
            .user_message()
            .contains(demo_ids::SPACE_GETTING_STARTED)
    );
    let other = client
        .list_space_links(demo_ids::SPACE_API_REFERENCE, None, None)
        .await
        .expect_err("still no links report");
    let message = other.user_message();
    assert!(other.is_unsupported(), "{other:?}");
    assert!(
        message.contains(demo_ids::SPACE_API_REFERENCE)
            && !message.contains(demo_ids::SPACE_GETTING_STARTED),
        "{message}"
    );
}

#[tokio::test]
async fn the_cluster_filter_is_applied_by_the_client_where_the_server_has_no_clusters() {
    let (_sandbox, client) = sandbox(true).await;
    let everything = client
        .list_organization_change_requests(demo_ids::ACME, &ChangeRequestFilter::default(), None)
        .await
        .expect("the organization's change requests");
    assert!(everything.items.len() > 1, "{:?}", everything.items);
    let filter = ChangeRequestFilter {
        issues_cluster: Some(demo_ids::CLUSTER_TOKEN_ERRORS.into()),
        ..ChangeRequestFilter::default()
    };
    let of_cluster = client
        .list_organization_change_requests(demo_ids::ACME, &filter, None)
        .await
        .expect("the cluster's change requests");
    let ids: Vec<&str> = of_cluster.items.iter().map(|cr| cr.id.as_str()).collect();
    assert_eq!(ids, vec![demo_ids::CR_REVIEW]);
    assert_eq!(
        of_cluster.count, None,
        "the server's count was of every one"
    );
}
