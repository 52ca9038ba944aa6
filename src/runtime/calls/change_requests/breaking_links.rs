//! The links a merge would break, for the merge pre-flight. Two kinds:
//!
//! - on a page the change request changed, a link broken in its version
//!   (`GET …/change-requests/{cr}/content/page/{page}/links?status=broken`) that is not broken
//!   on main (the same read on main): links already broken are not the merge's doing;
//! - on a page it did not change, a link on main to a page it deletes (main's backlinks of
//!   that page): the page goes, the link stays.

use futures::future::join_all;

use crate::api::models::{ContentRef, ContentRefKind, Link, LinkStatus, Page};
use crate::api::{ApiError, BacklinkTarget, Client, ContentSource};
use crate::vocabulary::change_requests::{BreakingLink, ChangeRequestRef, LinkCheckPage};

/// Pages of a list read per page checked: a page with more broken links than this holds
/// (at the server's page size) is beyond any real page, and the check stops there.
const MAX_LIST_PAGES: usize = 5;

pub async fn breaking_links(
    client: &Client,
    target: &ChangeRequestRef,
    pages: &[LinkCheckPage],
) -> Result<Vec<BreakingLink>, ApiError> {
    let change_request = ContentSource::ChangeRequest {
        space: target.space.clone(),
        change_request: target.change_request.clone(),
    };
    let main = ContentSource::Space(target.space.clone());
    let kept = pages.iter().filter(|page| page.in_change_request);
    let deleted = pages
        .iter()
        .filter(|page| page.on_main && !page.in_change_request);
    let (changed, orphaned) = tokio::join!(
        join_all(kept.map(|page| newly_broken(client, &change_request, &main, page))),
        join_all(deleted.map(|page| links_to_deleted(client, &main, page, pages))),
    );
    let mut found = Vec::new();
    for links in changed {
        found.extend(links?);
    }
    let mut orphaned_links = Vec::new();
    for links in orphaned {
        orphaned_links.extend(links?);
    }
    if !orphaned_links.is_empty() {
        name_pages(client, &target.space, &mut orphaned_links).await;
    }
    found.extend(orphaned_links);
    Ok(found)
}

/// The broken links of `page` in the change request whose target is not broken on main.
async fn newly_broken(
    client: &Client,
    change_request: &ContentSource,
    main: &ContentSource,
    page: &LinkCheckPage,
) -> Result<Vec<BreakingLink>, ApiError> {
    let before = async {
        if page.on_main {
            broken_links(client, main, &page.page).await
        } else {
            Ok(Vec::new())
        }
    };
    let (now, before) = tokio::join!(broken_links(client, change_request, &page.page), before);
    let before = before?;
    Ok(now?
        .into_iter()
        .filter(|link| {
            !before
                .iter()
                .any(|known| known.target_reference == link.target_reference)
        })
        .filter_map(|link| {
            Some(BreakingLink {
                page: page.page.clone(),
                page_title: page.title.clone(),
                target: describe(link.target_reference.as_ref()?),
            })
        })
        .collect())
}

/// Every broken link written on `page` of `source`, page after page up to the cap.
async fn broken_links(
    client: &Client,
    source: &ContentSource,
    page: &str,
) -> Result<Vec<Link>, ApiError> {
    let mut links = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_LIST_PAGES {
        let list = client
            .list_page_links(source, page, Some(&LinkStatus::Broken), cursor.as_deref())
            .await?;
        links.extend(list.links.items);
        match list.links.next_page {
            Some(next) if Some(&next) != cursor.as_ref() => cursor = Some(next),
            _ => break,
        }
    }
    Ok(links)
}

/// The pages on main that link to `deleted` and that the change request leaves as they are
/// (a page it changes was checked in its own version), titles still to be found.
async fn links_to_deleted(
    client: &Client,
    main: &ContentSource,
    deleted: &LinkCheckPage,
    changed: &[LinkCheckPage],
) -> Result<Vec<BreakingLink>, ApiError> {
    let target = BacklinkTarget::Page(deleted.page.clone());
    let mut linking: Vec<String> = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_LIST_PAGES {
        let list = client
            .list_backlinks(main, &target, cursor.as_deref())
            .await?;
        for place in list.items {
            let Some(page) = place.page.filter(|_| place.kind == ContentRefKind::Page) else {
                continue;
            };
            let untouched = !changed.iter().any(|known| known.page == page);
            if untouched && !linking.contains(&page) {
                linking.push(page);
            }
        }
        match list.next_page {
            Some(next) if Some(&next) != cursor.as_ref() => cursor = Some(next),
            _ => break,
        }
    }
    Ok(linking
        .into_iter()
        .map(|page| BreakingLink {
            page_title: page.clone(),
            page,
            target: format!("{} (deleted here)", deleted.title),
        })
        .collect())
}

/// Gives pages known only by id their titles from main's page tree; a tree that cannot be
/// read leaves the ids, which still say where to look.
async fn name_pages(client: &Client, space: &str, links: &mut [BreakingLink]) {
    let Ok(tree) = client.list_pages(space).await else {
        return;
    };
    for link in links {
        if let Some(title) = title_of(&tree, &link.page) {
            link.page_title = title;
        }
    }
}

fn title_of(pages: &[Page], id: &str) -> Option<String> {
    pages.iter().find_map(|page| {
        if page.id == id {
            Some(page.title.clone())
        } else {
            title_of(&page.pages, id)
        }
    })
}

/// A link's target in words: the address as written, a file, or a page's id.
fn describe(target: &ContentRef) -> String {
    let anchor = |page: &str| match target.anchor.as_deref() {
        Some(anchor) => format!("{page}#{anchor}"),
        None => page.to_string(),
    };
    match &target.kind {
        ContentRefKind::Url => target.url.clone().unwrap_or_default(),
        ContentRefKind::File => format!("file {}", target.file.as_deref().unwrap_or_default()),
        ContentRefKind::Page | ContentRefKind::Anchor => {
            anchor(target.page.as_deref().unwrap_or_default())
        }
        kind => kind.to_string(),
    }
}
