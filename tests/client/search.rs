//! The real `api::Client` against the real sandbox for finding things: organization search,
//! the links report and its filter, a page's links, backlinks of pages and files, files of a
//! space and of a change request, and the runtime's calls that wrap them.

use quire::api::models::{ContentRefKind, LinkStatus};
use quire::api::{ApiError, BacklinkTarget, Client, ClientConfig, ContentSource, Token};
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::vocabulary::files::{FilesCall, FilesResponse};
use quire::vocabulary::links::{LinksCall, LinksResponse};
use quire::vocabulary::search::{SearchCall, SearchScope};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;
const FAQ: &str = "pg-gs-faq";

async fn start() -> Result<(Sandbox, Client), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::READER),
    ))?;
    Ok((sandbox, client))
}

#[tokio::test]
async fn organization_search_decodes_spaces_pages_and_sections() -> TestResult {
    let (_sandbox, client) = start().await?;
    let found = client
        .search_organization(demo_ids::ACME, "token", None)
        .await?;
    assert!(found.unreadable.is_empty());
    let space = found
        .items
        .iter()
        .find(|space| space.id == SPACE)
        .ok_or("Getting Started matches")?;
    assert_eq!(space.title, "Getting Started");
    let faq = space
        .pages
        .iter()
        .find(|page| page.id == FAQ)
        .ok_or("the FAQ")?;
    assert_eq!(faq.ancestors[0].title, "Reference");
    assert_eq!(faq.sections[0].title, "How do I reset a token?");
    assert!(
        faq.sections[0]
            .path
            .as_deref()
            .is_some_and(|path| path.contains('#'))
    );

    let too_long = "x".repeat(513);
    let error = client
        .search_organization(demo_ids::ACME, &too_long, None)
        .await
        .expect_err("refused");
    assert_eq!(error.status(), Some(400));
    Ok(())
}

#[tokio::test]
async fn the_runtime_call_gives_both_searches_the_same_shape() -> TestResult {
    let (_sandbox, client) = start().await?;
    let call = |scope| SearchCall {
        scope,
        query: "token".into(),
        page: None,
    };
    let in_space = quire::runtime::calls::search::call_search(
        &client,
        call(SearchScope::Space {
            id: SPACE.into(),
            title: "Getting Started".into(),
        }),
    )
    .await;
    assert_eq!(in_space.query, "token");
    let groups = in_space.result?;
    assert!(
        groups
            .items
            .iter()
            .all(|group| group.id == SPACE && group.pages.len() == 1)
    );
    let in_organization = quire::runtime::calls::search::call_search(
        &client,
        call(SearchScope::Organization {
            id: demo_ids::ACME.into(),
            title: "Acme".into(),
        }),
    )
    .await;
    assert!(in_organization.result?.items.len() > 1);
    Ok(())
}

#[tokio::test]
async fn links_report_filter_and_stats() -> TestResult {
    let (_sandbox, client) = start().await?;
    let report = client.list_space_links(SPACE, None, None).await?;
    let stats = report.stats.clone().ok_or("stats")?;
    assert_eq!(stats.total, Some(report.links.items.len() as u64));
    assert!(stats.broken.total.unwrap_or(0) > 0);
    assert_eq!(
        report.links.items[0].status,
        Some(LinkStatus::Broken),
        "broken first"
    );
    let broken = client
        .list_space_links(SPACE, Some(&LinkStatus::Broken), None)
        .await?;
    assert_eq!(
        broken.links.items.len() as u64,
        stats.broken.total.unwrap_or(0)
    );
    let location = &broken.links.items[0].location_references[0];
    assert_eq!(location.kind, ContentRefKind::Page);
    assert!(location.page.is_some());

    let on_page = client
        .list_page_links(&ContentSource::Space(SPACE.into()), FAQ, None, None)
        .await?;
    assert_eq!(on_page.links.items.len(), 4);
    Ok(())
}

#[tokio::test]
async fn backlinks_of_pages_and_files_in_a_space_and_a_change_request() -> TestResult {
    let (_sandbox, client) = start().await?;
    let space = ContentSource::Space(SPACE.into());
    let change_request = ContentSource::ChangeRequest {
        space: SPACE.into(),
        change_request: "1".into(),
    };
    for source in [&space, &change_request] {
        let pages = client
            .list_backlinks(
                source,
                &BacklinkTarget::Page(demo_ids::PAGE_QUICKSTART.into()),
                None,
            )
            .await?;
        assert!(pages.items.iter().any(|at| at.page.as_deref() == Some(FAQ)));
        let file = client
            .list_backlinks(
                source,
                &BacklinkTarget::File("file-safety-pdf".into()),
                None,
            )
            .await?;
        assert_eq!(file.items.len(), 1);
    }
    let missing = client
        .list_backlinks(&space, &BacklinkTarget::File("nope".into()), None)
        .await
        .expect_err("404");
    assert!(missing.is_not_found());
    Ok(())
}

#[tokio::test]
async fn files_of_a_space_and_of_a_change_request() -> TestResult {
    let (_sandbox, client) = start().await?;
    for source in [
        ContentSource::Space(SPACE.into()),
        ContentSource::ChangeRequest {
            space: SPACE.into(),
            change_request: "1".into(),
        },
    ] {
        let listed = quire::runtime::calls::files::call_files(
            &client,
            FilesCall::List {
                source: source.clone(),
                cursor: None,
            },
        )
        .await;
        let FilesResponse::Files(Ok(files)) = listed else {
            return Err(format!("files of {source:?}: {listed:?}").into());
        };
        let dashboard = files
            .items
            .iter()
            .find(|file| file.id == "file-dashboard")
            .ok_or("the dashboard image")?;
        assert_eq!(dashboard.size, Some(482_113.0));
        let one = client.get_content_file(&source, "file-dashboard").await?;
        assert_eq!(one.dimensions.map(|d| d.width), Some(2400.0));
    }
    let pages = quire::runtime::calls::links::call_links(
        &client,
        LinksCall::Pages {
            source: ContentSource::Space(SPACE.into()),
        },
    )
    .await;
    assert!(matches!(pages, LinksResponse::Pages(Ok(pages)) if !pages.is_empty()));
    let error: ApiError = client
        .get_content_file(&ContentSource::Space(SPACE.into()), "nope")
        .await
        .expect_err("404");
    assert!(error.is_not_found());
    Ok(())
}
