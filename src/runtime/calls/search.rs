//! Carries out a [`SearchCall`]: the runtime's `call_api` hands every `ApiCall::Search` here.

use crate::api::models::SearchSpace;
use crate::api::{Client, ListPage};
use crate::vocabulary::search::{SearchCall, SearchResults, SearchScope};

pub async fn call_search(client: &Client, call: SearchCall) -> SearchResults {
    let page = call.page.as_deref();
    let result = match &call.scope {
        SearchScope::Organization { id, .. } => {
            client.search_organization(id, &call.query, page).await
        }
        SearchScope::Space { id, title } => client
            .search_space(id, &call.query, page)
            .await
            .map(|found| in_one_space(found, id, title)),
    };
    SearchResults {
        query: call.query,
        result,
    }
}

/// A space search's pages as groups of one page each in that space.
fn in_one_space(
    found: ListPage<crate::api::models::SearchPage>,
    id: &str,
    title: &str,
) -> ListPage<SearchSpace> {
    ListPage {
        items: found
            .items
            .into_iter()
            .map(|page| SearchSpace {
                id: id.to_owned(),
                title: title.to_owned(),
                score: page.score,
                pages: vec![page],
            })
            .collect(),
        unreadable: found.unreadable,
        next_page: found.next_page,
        count: found.count,
    }
}
