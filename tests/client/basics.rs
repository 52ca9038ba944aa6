//! The real `api::Client` against the real sandbox on a loopback port: the list envelope, paging,
//! the loop guard, errors, markdown, and decoding of every model from real sandbox JSON.

use std::collections::HashSet;

use quire::api::{
    ApiError, Client, ClientConfig, Collection, ListPage, MemberFilter, Organization, Page,
    PageCursor, PageType, PagingLoopReason, Space, Token, encode_segment,
};
use quire::sandbox::{Faults, Sandbox, SandboxOptions, tokens};

type TestResult = Result<(), Box<dyn std::error::Error>>;

async fn start() -> Result<Sandbox, Box<dyn std::error::Error>> {
    Ok(Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?)
}

fn client_for(sandbox: &Sandbox, token: &str) -> Result<Client, ApiError> {
    Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token)))
}

/// Walks a list lazily, one page at a time, as the UI does.
async fn walk_pages<T, F, Fut>(mut fetch: F) -> Result<Vec<T>, ApiError>
where
    F: FnMut(Option<String>) -> Fut,
    Fut: std::future::Future<Output = Result<ListPage<T>, ApiError>>,
{
    let mut cursor = PageCursor::new();
    let mut items = Vec::new();
    let mut page: Option<String> = None;
    loop {
        cursor
            .begin(page.as_deref())
            .map_err(|reason| ApiError::PagingLoop {
                endpoint: "test walk".into(),
                reason,
            })?;
        let list = fetch(page.clone()).await?;
        items.extend(list.items);
        match list.next_page {
            Some(next) => page = Some(next),
            None => return Ok(items),
        }
    }
}

fn all_pages(pages: &[Page]) -> Vec<&Page> {
    let mut flat = Vec::new();
    for page in pages {
        flat.push(page);
        flat.extend(all_pages(&page.pages));
    }
    flat
}

#[tokio::test]
async fn current_user_and_organizations_decode() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let user = client.current_user().await?;
    assert!(!user.id.is_empty());
    assert!(!user.display_name.is_empty());
    let first = client.list_organizations(None).await?;
    assert!(!first.items.is_empty());
    for organization in &first.items {
        assert!(!organization.title.is_empty());
        let fetched = client.get_organization(&organization.id).await?;
        assert_eq!(&fetched.id, &organization.id);
        assert!(fetched.plan.is_some(), "{fetched:?}");
    }
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn lazy_paging_has_no_gaps_or_duplicates() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let organizations: Vec<Organization> = client.list_up_to("/orgs", &[], 20).await?.items;
    for organization in &organizations {
        let path = format!("/orgs/{}/spaces", encode_segment(&organization.id));
        let everything: Vec<Space> = client.list_up_to(&path, &[], 20).await?.items;
        let first: ListPage<Space> = client.get_list_page(&path, &[("limit", "2")], None).await?;
        if let Some(count) = first.count {
            assert_eq!(count as usize, everything.len(), "count is the list total");
        }
        let walked: Vec<Space> = walk_pages(|page| {
            let client = client.clone();
            let path = path.clone();
            async move {
                client
                    .get_list_page(&path, &[("limit", "2")], page.as_deref())
                    .await
            }
        })
        .await?;
        let walked_ids: Vec<&str> = walked.iter().map(|space| space.id.as_str()).collect();
        let all_ids: Vec<&str> = everything.iter().map(|space| space.id.as_str()).collect();
        assert_eq!(walked_ids, all_ids, "pages of 2 add up to the whole list");
        let unique: HashSet<&str> = walked_ids.iter().copied().collect();
        assert_eq!(unique.len(), walked_ids.len(), "no duplicates");
        if everything.len() > 2 {
            assert!(
                first.next_page.is_some(),
                "a short page points to the next one"
            );
        }
    }
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn lazy_page_methods_follow_next() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let organizations = walk_pages(|page| {
        let client = client.clone();
        async move { client.list_organizations(page.as_deref()).await }
    })
    .await?;
    let listed: Vec<Organization> = client.list_up_to("/orgs", &[], 20).await?.items;
    assert_eq!(organizations, listed);
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn every_model_decodes_from_the_whole_sandbox() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let organizations = walk_pages(|page| {
        let client = client.clone();
        async move { client.list_organizations(page.as_deref()).await }
    })
    .await?;
    let mut markdown_pages = 0;
    for organization in &organizations {
        let org = organization.id.as_str();
        let members = walk_pages(|page| {
            let client = client.clone();
            async move {
                client
                    .list_members(org, &MemberFilter::default(), page.as_deref())
                    .await
            }
        })
        .await?;
        assert!(!members.is_empty(), "{org} has members");
        assert!(members.iter().all(|member| !member.user.id.is_empty()));

        let collections: Vec<Collection> = walk_pages(|page| {
            let client = client.clone();
            async move { client.list_collections(org, page.as_deref()).await }
        })
        .await?;
        let collection_ids: HashSet<&str> = collections.iter().map(|c| c.id.as_str()).collect();
        for collection in &collections {
            assert_eq!(client.get_collection(&collection.id).await?, *collection);
            if let Some(parent) = &collection.parent {
                assert!(
                    collection_ids.contains(parent.as_str()),
                    "nested=true lists parents"
                );
            }
            let spaces = walk_pages(|page| {
                let client = client.clone();
                let id = collection.id.clone();
                async move { client.list_collection_spaces(&id, page.as_deref()).await }
            })
            .await?;
            assert!(
                spaces
                    .iter()
                    .all(|space| space.parent.as_ref() == Some(&collection.id))
            );
        }

        let spaces = walk_pages(|page| {
            let client = client.clone();
            async move { client.list_organization_spaces(org, page.as_deref()).await }
        })
        .await?;
        assert!(!spaces.is_empty(), "{org} has spaces");
        for space in &spaces {
            let fetched = client.get_space(&space.id).await?;
            assert_eq!(fetched.id, space.id);
            assert!(fetched.visibility.is_some());
            let revision = client.get_space_content(&space.id).await?;
            let tree = client.list_pages(&space.id).await?;
            assert_eq!(
                all_pages(&tree).len(),
                all_pages(&revision.pages).len(),
                "content/pages and content agree for {}",
                space.id
            );
            let files = walk_pages(|page| {
                let client = client.clone();
                let id = space.id.clone();
                async move { client.list_files(&id, page.as_deref()).await }
            })
            .await?;
            assert!(files.iter().all(|file| !file.id.is_empty()));
            for page in all_pages(&tree) {
                if page.page_type != Some(PageType::Document) {
                    continue;
                }
                let fetched = client.get_page_markdown(&space.id, &page.id).await?;
                assert_eq!(fetched.id, page.id);
                let markdown = fetched.markdown.unwrap_or_default();
                assert!(!markdown.trim().is_empty(), "{} has markdown", page.id);
                assert!(
                    !markdown.trim_start().starts_with('{'),
                    "markdown, not JSON"
                );
                markdown_pages += 1;
            }
        }
    }
    assert!(
        markdown_pages >= 300,
        "the demo world has a 300+ page space; fetched {markdown_pages}"
    );
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn search_finds_pages() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let organizations: Vec<Organization> = client.list_up_to("/orgs", &[], 20).await?.items;
    let mut hits = 0;
    for organization in &organizations {
        let path = format!("/orgs/{}/spaces", encode_segment(&organization.id));
        let spaces: Vec<Space> = client.list_up_to(&path, &[], 20).await?.items;
        for space in &spaces {
            let tree = client.list_pages(&space.id).await?;
            let Some(first) = all_pages(&tree).into_iter().find(|p| !p.title.is_empty()) else {
                continue;
            };
            let word = first
                .title
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_owned();
            let results = client.search_space(&space.id, &word, None).await?;
            hits += results.items.len();
        }
    }
    assert!(hits > 0, "searching page titles finds something");
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn endless_next_is_stopped_by_the_guard() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    sandbox.set_faults(Faults {
        endless_next: true,
        ..Faults::default()
    });
    let listed = client.list_up_to::<Organization>("/orgs", &[], 20).await?;
    assert!(
        matches!(listed.stopped, Some(PagingLoopReason::RepeatedPage(_))),
        "{:?}",
        listed.stopped
    );
    assert!(!listed.items.is_empty(), "what was read is kept");

    let lazily = walk_pages(|page| {
        let client = client.clone();
        async move { client.list_organizations(page.as_deref()).await }
    })
    .await;
    assert!(matches!(lazily, Err(ApiError::PagingLoop { .. })));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_bad_token_is_unauthorized_and_never_shown() -> TestResult {
    let sandbox = start().await?;
    let secret = "definitely-not-a-valid-token-4711";
    let client = client_for(&sandbox, secret)?;
    let error = client
        .current_user()
        .await
        .err()
        .ok_or("a bad token must be refused")?;
    assert!(error.is_unauthorized(), "{error:?}");
    for text in [
        error.to_string(),
        format!("{error:?}"),
        error.user_message(),
    ] {
        assert!(!text.contains(secret), "token leaked: {text}");
    }
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn unknown_ids_are_not_found() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let error = client
        .get_space("no-such-space")
        .await
        .err()
        .ok_or("unknown space must fail")?;
    assert!(error.is_not_found(), "{error:?}");
    assert_eq!(error.endpoint(), "GET /spaces/no-such-space");
    let error = client
        .get_organization("no/such org")
        .await
        .err()
        .ok_or("unknown organization must fail")?;
    assert!(error.is_not_found(), "{error:?}");
    assert_eq!(error.endpoint(), "GET /orgs/no%2Fsuch%20org");
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn injected_server_errors_become_status_values() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    sandbox.set_faults(Faults {
        fail_with: Some(503),
        ..Faults::default()
    });
    let error = client
        .list_organizations(None)
        .await
        .err()
        .ok_or("an injected 503 must fail")?;
    assert_eq!(error.status(), Some(503));
    assert!(error.is_retryable());
    sandbox.set_faults(Faults::default());
    assert!(client.list_organizations(None).await.is_ok());
    sandbox.shutdown().await;
    Ok(())
}

/// The public service defines no body for merge, update from main, publish and unpublish, and
/// answers 415 to one; the sandbox's `strict_bodies` knob does the same.
#[tokio::test]
async fn body_less_operations_work_against_a_strict_server() -> TestResult {
    use quire::api::{MergeOutcome, PublishOutcome, UpdateOutcome};
    use quire::sandbox::demo_ids;
    let sandbox = Sandbox::start(
        "127.0.0.1:0".parse()?,
        SandboxOptions {
            faults: Faults {
                strict_bodies: true,
                ..Faults::default()
            },
            ..SandboxOptions::default()
        },
    )
    .await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let space = demo_ids::SPACE_GETTING_STARTED;

    let updated = client
        .update_change_request_from_main(space, demo_ids::CR_OUTDATED)
        .await?;
    assert_eq!(updated.result, UpdateOutcome::Update);
    let merged = client
        .merge_change_request(space, demo_ids::CR_REVIEW)
        .await?;
    assert_eq!(merged.result, MergeOutcome::Merge);

    let (organization, site) = (demo_ids::ACME, demo_ids::SITE_DRAFT);
    let published = client.publish_site(organization, site).await?;
    assert!(matches!(published, PublishOutcome::Published(site) if site.published));
    let unpublished = client.unpublish_site(organization, site).await?;
    assert!(!unpublished.published);
    sandbox.shutdown().await;
    Ok(())
}

fn odd_counts_sandbox_options() -> SandboxOptions {
    SandboxOptions {
        faults: Faults {
            odd_counts: true,
            ..Faults::default()
        },
        ..SandboxOptions::default()
    }
}

/// Asserts a page shows its readable items and marks exactly the one broken item.
fn assert_readable_but_one<T>(name: &str, page: &ListPage<T>) {
    assert!(!page.items.is_empty(), "{name}: the readable items show");
    assert_eq!(page.unreadable.len(), 1, "{name}: {:?}", page.unreadable);
    assert!(
        page.unreadable[0].path.starts_with("items["),
        "{name}: {:?}",
        page.unreadable[0]
    );
}

/// Float and negative counts (as the service may send) no longer fail a list, and one item
/// that cannot be read leaves the rest of its page.
#[tokio::test]
async fn odd_counts_and_one_broken_item_leave_every_list_readable() -> TestResult {
    use quire::api::{ChangeRequestFilter, CommentFilter, SiteFilter};
    use quire::sandbox::demo_ids;
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, odd_counts_sandbox_options()).await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let org = demo_ids::ACME;
    let space = demo_ids::SPACE_GETTING_STARTED;

    let organizations = client.list_organizations(None).await?;
    assert_readable_but_one("organizations", &organizations);
    assert!(organizations.count.is_some());
    let spaces = client.list_organization_spaces(org, None).await?;
    assert_readable_but_one("spaces", &spaces);
    assert!(spaces.items.iter().any(|space| space.comments.is_some()));
    let collections = client.list_collections(org, None).await?;
    assert_readable_but_one("collections", &collections);
    let members = client
        .list_members(org, &MemberFilter::default(), None)
        .await?;
    assert_readable_but_one("members", &members);
    let sites = client.list_sites(org, &SiteFilter::default(), None).await?;
    assert_readable_but_one("sites", &sites);
    assert!(sites.items.iter().all(|site| site.site_spaces.is_some()));
    let change_requests = client
        .list_space_change_requests(space, &ChangeRequestFilter::default(), None)
        .await?;
    assert_readable_but_one("change requests", &change_requests);
    // A negative `number` is clamped to 0, a float one rounded, never a failure.
    assert!(change_requests.items.iter().all(|cr| cr.number.is_some()));
    let comments = client
        .list_comments(space, demo_ids::CR_REVIEW, &CommentFilter::default(), None)
        .await?;
    assert_readable_but_one("comments", &comments);
    sandbox.shutdown().await;
    Ok(())
}

/// A list whose `next` never ends: the tree keeps what was fetched, stops at its cap quickly
/// and says so, instead of discarding everything after 1,000 pages.
#[tokio::test]
async fn a_never_ending_tree_keeps_what_was_fetched_and_says_where_it_stopped() -> TestResult {
    use quire::app::{ApiCall, ApiResponse};
    use quire::runtime::{TREE_MAX_PAGES, call_api};
    use quire::sandbox::demo_ids;
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let call = || ApiCall::OrganizationTree {
        organization: demo_ids::ACME.to_owned(),
    };
    let ApiResponse::OrganizationTree(complete) =
        call_api(&client, &quire::runtime::SendTurn::default(), call()).await
    else {
        return Err("expected a tree".into());
    };
    let complete = complete?;
    assert_eq!(complete.stopped_after_pages, None);

    sandbox.set_faults(Faults {
        never_ending_next: true,
        ..Faults::default()
    });
    let ApiResponse::OrganizationTree(cut_short) =
        call_api(&client, &quire::runtime::SendTurn::default(), call()).await
    else {
        return Err("expected a tree".into());
    };
    let cut_short = cut_short?;
    assert_eq!(cut_short.stopped_after_pages, Some(TREE_MAX_PAGES));
    assert_eq!(cut_short.collections, complete.collections);
    assert_eq!(cut_short.spaces, complete.spaces);
    sandbox.shutdown().await;
    Ok(())
}

/// A change request whose comment threads never end: its review stops at the threads' cap
/// within seconds, keeps every thread read (the same as a healthy read) and says where it
/// stopped, instead of failing after 1,000 pages.
#[tokio::test]
async fn a_review_with_never_ending_threads_keeps_them_and_says_where_it_stopped() -> TestResult {
    use quire::app::{ApiCall, ApiResponse};
    use quire::runtime::call_api;
    use quire::runtime::calls::change_requests::COMMENT_PAGES;
    use quire::sandbox::demo_ids;
    use quire::vocabulary::change_requests::{
        ChangeRequestRef, ChangeRequestsCall, ChangeRequestsResponse,
    };
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let load = || {
        ApiCall::ChangeRequests(ChangeRequestsCall::LoadReview(ChangeRequestRef {
            space: demo_ids::SPACE_GETTING_STARTED.to_owned(),
            change_request: demo_ids::CR_REVIEW.to_owned(),
        }))
    };
    let thread_ids = |response: ApiResponse| match response {
        ApiResponse::ChangeRequests(ChangeRequestsResponse::Review(Ok(bundle))) => Ok((
            bundle
                .threads
                .iter()
                .map(|thread| thread.comment.id.clone())
                .collect::<Vec<_>>(),
            bundle.threads_stopped_after_pages,
        )),
        other => Err(format!("expected a review, got {other:?}")),
    };
    let (healthy, stopped) =
        thread_ids(call_api(&client, &quire::runtime::SendTurn::default(), load()).await)?;
    assert!(!healthy.is_empty());
    assert_eq!(stopped, None);

    sandbox.set_faults(Faults {
        never_ending_next: true,
        ..Faults::default()
    });
    let (cut_short, stopped) =
        thread_ids(call_api(&client, &quire::runtime::SendTurn::default(), load()).await)?;
    assert_eq!(stopped, Some(COMMENT_PAGES));
    assert_eq!(cut_short, healthy, "nothing read is dropped");
    sandbox.shutdown().await;
    Ok(())
}

/// The first page of the demo organization's members, as the server filters them.
async fn members_with(
    client: &Client,
    filter: MemberFilter,
) -> Result<Vec<quire::api::Member>, ApiError> {
    let organization = quire::sandbox::demo_ids::ACME;
    let page = client.list_members(organization, &filter, None).await?;
    Ok(page.items)
}

/// The members list's `search`, `role`, `sort` and `order` reach the server and are honoured.
#[tokio::test]
async fn members_filters_are_sent_and_honoured() -> TestResult {
    use quire::api::{MemberRole, MemberRoleFilter, MemberSortKey, SortOrder};
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let everyone = members_with(&client, MemberFilter::default()).await?;
    assert!(everyone.len() > 2);

    let admin_filter = MemberFilter {
        role: Some(MemberRoleFilter::Role(MemberRole::Admin)),
        ..MemberFilter::default()
    };
    let admins = members_with(&client, admin_filter).await?;
    assert!(!admins.is_empty() && admins.len() < everyone.len());
    assert!(admins.iter().all(|m| m.role == Some(MemberRole::Admin)));

    let name = everyone[0].user.display_name.clone();
    let word = name.split_whitespace().next().unwrap_or_default();
    let search = MemberFilter {
        search: Some(word.to_lowercase()),
        ..MemberFilter::default()
    };
    let found = members_with(&client, search).await?;
    assert!(found.iter().any(|m| m.user.display_name == name));
    assert!(found.len() < everyone.len());

    let by_join = |order: SortOrder| MemberFilter {
        sort: Some(MemberSortKey::JoinedAt),
        order: Some(order),
        ..MemberFilter::default()
    };
    let newest = members_with(&client, by_join(SortOrder::Descending)).await?;
    let oldest = members_with(&client, by_join(SortOrder::Ascending)).await?;
    let ids = |members: &[quire::api::Member]| -> Vec<String> {
        members.iter().map(|m| m.id.clone()).collect()
    };
    let mut reversed = ids(&newest);
    reversed.reverse();
    assert_eq!(ids(&oldest), reversed);
    let joined: Vec<_> = oldest.iter().map(|m| m.joined_at.clone()).collect();
    let mut sorted = joined.clone();
    sorted.sort();
    assert_eq!(joined, sorted);

    let last_seen = MemberFilter {
        sort: Some(MemberSortKey::LastSeenAt),
        ..MemberFilter::default()
    };
    let seen = members_with(&client, last_seen).await?;
    assert!(seen.iter().all(|m| m.last_seen_at.is_some()));
    sandbox.shutdown().await;
    Ok(())
}
