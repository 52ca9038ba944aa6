//! Change-request endpoints: lists with filters, status, merge, update from main, the semantic
//! change list, and the pages on both sides of a review diff. Its comment threads are in
//! [`comments`], its reviews and requested reviewers in [`reviews`].

pub mod comments;
pub mod reviews;
pub mod watch;
#[cfg(test)]
mod wire_tests;

use std::future::Future;

use crate::address::encode_segment;
use crate::client::Client;
use crate::error::ApiError;
use crate::models::revision::PageList;
use crate::models::{
    ChangeRequest, ChangeRequestOrderBy, ChangeRequestStatus, MergeResult, Page, Revision,
    RevisionSemanticChanges, UpdateResult,
};
use crate::paging::ListPage;

/// Filters of the change-request lists. Empty fields are not sent, so the server's defaults
/// apply (status `open`, order `updatedAt`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeRequestFilter {
    /// The organization list sends every status (the key repeated); the space list takes one
    /// status only and sends the first.
    pub statuses: Vec<ChangeRequestStatus>,
    /// User id of the author.
    pub creator: Option<String>,
    /// User id of someone who edited or commented.
    pub contributor: Option<String>,
    /// User id of a requested reviewer.
    pub requested_reviewer: Option<String>,
    /// Space id; organization list only.
    pub space: Option<String>,
    /// Conversations issues cluster id, sent as [`ISSUES_CLUSTER_PARAM`].
    pub issues_cluster: Option<String>,
    pub order_by: Option<ChangeRequestOrderBy>,
}

/// The query parameter of the cluster filter. The seed names the filter ("by conversations
/// issues cluster") but not the parameter, and the public service has none; this is the name of
/// the change request's own field, `conversationsIssuesCluster`.
pub const ISSUES_CLUSTER_PARAM: &str = "conversationsIssuesCluster";

impl ChangeRequestFilter {
    /// Query pairs for `GET /spaces/{space}/change-requests`.
    pub fn space_query(&self) -> Vec<(&'static str, String)> {
        let mut query = Vec::new();
        if let Some(status) = self.statuses.first() {
            query.push(("status", status.as_str().to_owned()));
        }
        self.push_people_and_order(&mut query);
        query
    }

    /// Query pairs for `GET /orgs/{org}/change-requests`: `status` once per status.
    pub fn organization_query(&self) -> Vec<(&'static str, String)> {
        let mut query: Vec<(&'static str, String)> = self
            .statuses
            .iter()
            .map(|status| ("status", status.as_str().to_owned()))
            .collect();
        self.push_people_and_order(&mut query);
        if let Some(space) = &self.space {
            query.push(("space", space.clone()));
        }
        query
    }

    fn push_people_and_order(&self, query: &mut Vec<(&'static str, String)>) {
        let people = [
            ("creator", &self.creator),
            ("contributor", &self.contributor),
            ("requestedReviewer", &self.requested_reviewer),
        ];
        for (key, value) in people {
            if let Some(value) = value {
                query.push((key, value.clone()));
            }
        }
        if let Some(cluster) = &self.issues_cluster {
            query.push((ISSUES_CLUSTER_PARAM, cluster.clone()));
        }
        if let Some(order) = &self.order_by {
            query.push(("orderBy", order.as_str().to_owned()));
        }
    }
}

/// The clusters list, whose success tells that a server has clusters (its id is any).
const CLUSTERS_PATH: &str = "/orgs/_/conversations-clusters";

/// `page` kept to the change requests that answer `cluster`, when the filter could not be sent;
/// the server's count then no longer holds.
fn only_of_cluster(
    mut page: ListPage<ChangeRequest>,
    cluster: Option<String>,
) -> ListPage<ChangeRequest> {
    if let Some(cluster) = cluster {
        page.items
            .retain(|item| item.conversations_issues_cluster.as_deref() == Some(cluster.as_str()));
        page.count = None;
    }
    page
}

/// The body of `POST /spaces/{space}/change-requests`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NewChangeRequest {
    pub subject: String,
}

/// The answer of `GET …/change-requests/{cr}/pdf`: where the generated PDF can be downloaded.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct PdfAddress {
    pub url: String,
}

/// The fields `PATCH …/change-requests/{cr}` can change; only the ones set are sent.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ChangeRequestUpdate {
    /// At most [`ChangeRequestUpdate::MAX_SUBJECT`] characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// A rich-text Document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<serde_json::Value>,
    /// `draft`, `open` or `archived` (`merged` is reached by merging).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<ChangeRequestStatus>,
}

impl ChangeRequestUpdate {
    /// The service's limit on a subject's length, in characters.
    pub const MAX_SUBJECT: usize = 100;

    pub fn subject(subject: impl Into<String>) -> ChangeRequestUpdate {
        ChangeRequestUpdate {
            subject: Some(subject.into()),
            ..ChangeRequestUpdate::default()
        }
    }

    /// `{description}` only: a rich-text Document.
    pub fn description(document: serde_json::Value) -> ChangeRequestUpdate {
        ChangeRequestUpdate {
            description: Some(document),
            ..ChangeRequestUpdate::default()
        }
    }

    pub fn status(status: ChangeRequestStatus) -> ChangeRequestUpdate {
        ChangeRequestUpdate {
            status: Some(status),
            ..ChangeRequestUpdate::default()
        }
    }
}

/// Borrows owned query pairs in the form the generic helpers take.
pub(crate) fn borrow_query<'a>(
    query: &'a [(&'static str, String)],
) -> Vec<(&'static str, &'a str)> {
    query
        .iter()
        .map(|(key, value)| (*key, value.as_str()))
        .collect()
}

/// The answer of a write that may come back without a usable body (204 after
/// `prefer: return=minimal`, an empty 200, or a shape we cannot read). The server accepted the
/// write, so its state is read back instead; a body that truly does not fit shows up again as
/// the read's own decode error.
pub(crate) async fn written_or_reread<T, F>(
    written: Result<T, ApiError>,
    reread: F,
) -> Result<T, ApiError>
where
    F: Future<Output = Result<T, ApiError>>,
{
    match written {
        Err(ApiError::Decode { .. }) => reread.await,
        other => other,
    }
}

/// `/spaces/{space}/change-requests/{change_request}`, both ids encoded.
pub(crate) fn change_request_path(space: &str, change_request: &str) -> String {
    format!(
        "/spaces/{}/change-requests/{}",
        encode_segment(space),
        encode_segment(change_request)
    )
}

impl Client {
    /// `GET /spaces/{space}/change-requests`: one page, filtered.
    pub async fn list_space_change_requests(
        &self,
        space: &str,
        filter: &ChangeRequestFilter,
        page: Option<&str>,
    ) -> Result<ListPage<ChangeRequest>, ApiError> {
        let path = format!("/spaces/{}/change-requests", encode_segment(space));
        let (sent, cluster) = self.cluster_filter_sendable(filter);
        let query = sent.space_query();
        let answer = self.get_list_page(&path, &borrow_query(&query), page).await;
        Ok(only_of_cluster(answer?, cluster))
    }

    /// `GET /orgs/{org}/change-requests`: one page across all spaces, filtered.
    pub async fn list_organization_change_requests(
        &self,
        org: &str,
        filter: &ChangeRequestFilter,
        page: Option<&str>,
    ) -> Result<ListPage<ChangeRequest>, ApiError> {
        let path = format!("/orgs/{}/change-requests", encode_segment(org));
        let (sent, cluster) = self.cluster_filter_sendable(filter);
        let query = sent.organization_query();
        let answer = self.get_list_page(&path, &borrow_query(&query), page).await;
        Ok(only_of_cluster(answer?, cluster))
    }

    /// The public service declares no [`ISSUES_CLUSTER_PARAM`] (it would ignore it and answer
    /// every change request): the filter is sent only to a server seen to have clusters this
    /// session. Otherwise it is taken off the query and returned, to be applied to the answer.
    fn cluster_filter_sendable(
        &self,
        filter: &ChangeRequestFilter,
    ) -> (ChangeRequestFilter, Option<String>) {
        let clusters = crate::operations::find(&reqwest::Method::GET, CLUSTERS_PATH);
        let has_clusters = clusters.is_some_and(|list| self.capabilities().offers(list));
        if has_clusters || filter.issues_cluster.is_none() {
            return (filter.clone(), None);
        }
        let cluster = filter.issues_cluster.clone();
        let sent = ChangeRequestFilter {
            issues_cluster: None,
            ..filter.clone()
        };
        (sent, cluster)
    }

    /// `POST /spaces/{space}/change-requests` with a subject: the new change request (201).
    pub async fn create_change_request(
        &self,
        space: &str,
        subject: &str,
    ) -> Result<ChangeRequest, ApiError> {
        let path = format!("/spaces/{}/change-requests", encode_segment(space));
        let body = NewChangeRequest {
            subject: subject.to_owned(),
        };
        self.post(&path, &body).await
    }

    /// `GET …/change-requests/{cr}/pdf`: the address of the change request's PDF, or with
    /// `page` of that one page only (`page=<id>&only=true`; `page` is a page id, not a cursor).
    pub async fn change_request_pdf(
        &self,
        space: &str,
        change_request: &str,
        page: Option<&str>,
    ) -> Result<PdfAddress, ApiError> {
        let path = format!("{}/pdf", change_request_path(space, change_request));
        let query: Vec<(&str, &str)> = match page {
            Some(page) => vec![("page", page), ("only", "true")],
            None => Vec::new(),
        };
        self.get(&path, &query).await
    }

    /// `GET /spaces/{space}/change-requests/{cr}`; `cr` may be the id or the number.
    pub async fn get_change_request(
        &self,
        space: &str,
        change_request: &str,
    ) -> Result<ChangeRequest, ApiError> {
        self.get(&change_request_path(space, change_request), &[])
            .await
    }

    /// `PATCH …/change-requests/{cr}` with the fields of `update` that are set. The service
    /// answers 200 with the change request or 204 without a body; then it is read again.
    pub async fn update_change_request(
        &self,
        space: &str,
        change_request: &str,
        update: &ChangeRequestUpdate,
    ) -> Result<ChangeRequest, ApiError> {
        let path = change_request_path(space, change_request);
        let written = self.patch(&path, update).await;
        written_or_reread(written, self.get_change_request(space, change_request)).await
    }

    /// `PATCH …/change-requests/{cr}` with `{status}` only.
    pub async fn update_change_request_status(
        &self,
        space: &str,
        change_request: &str,
        status: &ChangeRequestStatus,
    ) -> Result<ChangeRequest, ApiError> {
        let update = ChangeRequestUpdate::status(status.clone());
        self.update_change_request(space, change_request, &update)
            .await
    }

    /// `POST …/change-requests/{cr}/merge`: `result` is `merge` or `conflicts`.
    pub async fn merge_change_request(
        &self,
        space: &str,
        change_request: &str,
    ) -> Result<MergeResult, ApiError> {
        let path = format!("{}/merge", change_request_path(space, change_request));
        self.post_without_body(&path).await
    }

    /// `POST …/change-requests/{cr}/update`: brings main's changes in; `result` is `update` or
    /// `conflicts`.
    pub async fn update_change_request_from_main(
        &self,
        space: &str,
        change_request: &str,
    ) -> Result<UpdateResult, ApiError> {
        let path = format!("{}/update", change_request_path(space, change_request));
        self.post_without_body(&path).await
    }

    /// `GET …/change-requests/{cr}/changes?limit=…`: at most `limit` semantic changes
    /// (service default 10); `more` counts the rest. Not paginated.
    pub async fn change_request_changes(
        &self,
        space: &str,
        change_request: &str,
        limit: u32,
    ) -> Result<RevisionSemanticChanges, ApiError> {
        let path = format!("{}/changes", change_request_path(space, change_request));
        let limit = limit.to_string();
        self.get(&path, &[("limit", limit.as_str())]).await
    }

    /// `GET …/change-requests/{cr}/content`: the change request's whole revision, its page
    /// tree (each page with its `updatedAt`) and files in one answer.
    pub async fn get_change_request_content(
        &self,
        space: &str,
        change_request: &str,
    ) -> Result<Revision, ApiError> {
        let path = format!("{}/content", change_request_path(space, change_request));
        self.get(&path, &[]).await
    }

    /// `GET …/change-requests/{cr}/content/pages`: the change request's whole page tree.
    pub async fn list_change_request_pages(
        &self,
        space: &str,
        change_request: &str,
    ) -> Result<Vec<Page>, ApiError> {
        let path = format!(
            "{}/content/pages",
            change_request_path(space, change_request)
        );
        let list: PageList = self.get(&path, &[]).await?;
        Ok(list.pages)
    }

    /// `GET …/change-requests/{cr}/content/page/{page}?format=markdown`: the "after" side of a
    /// page diff.
    pub async fn get_change_request_page_markdown(
        &self,
        space: &str,
        change_request: &str,
        page: &str,
    ) -> Result<Page, ApiError> {
        let path = format!(
            "{}/content/page/{}",
            change_request_path(space, change_request),
            encode_segment(page)
        );
        self.get(&path, &[("format", "markdown")]).await
    }

    /// `GET …/change-requests/{cr}/content/page/{page}?format=document`: the page as a
    /// document, whose blocks carry the keys threads are anchored to.
    pub async fn get_change_request_page_document(
        &self,
        space: &str,
        change_request: &str,
        page: &str,
    ) -> Result<serde_json::Value, ApiError> {
        let path = format!(
            "{}/content/page/{}",
            change_request_path(space, change_request),
            encode_segment(page)
        );
        self.get(&path, &[("format", "document")]).await
    }

    /// `GET /spaces/{space}/revisions/{revision}/page/{page}?format=markdown`: a page as it was
    /// in a fixed revision, the "before" side of a diff (`revisionInitial`).
    pub async fn get_revision_page_markdown(
        &self,
        space: &str,
        revision: &str,
        page: &str,
    ) -> Result<Page, ApiError> {
        let path = format!(
            "/spaces/{}/revisions/{}/page/{}",
            encode_segment(space),
            encode_segment(revision),
            encode_segment(page)
        );
        self.get(&path, &[("format", "markdown")]).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn full_filter() -> ChangeRequestFilter {
        ChangeRequestFilter {
            statuses: vec![ChangeRequestStatus::Open, ChangeRequestStatus::Draft],
            creator: Some("u1".into()),
            contributor: None,
            requested_reviewer: Some("u3".into()),
            space: Some("s1".into()),
            issues_cluster: Some("c1".into()),
            order_by: Some(ChangeRequestOrderBy::CreatedAt),
        }
    }

    #[test]
    fn organization_query_repeats_status() {
        let query = full_filter().organization_query();
        let statuses: Vec<&str> = query
            .iter()
            .filter(|(key, _)| *key == "status")
            .map(|(_, value)| value.as_str())
            .collect();
        assert_eq!(statuses, vec!["open", "draft"]);
        assert!(query.contains(&("creator", "u1".into())));
        assert!(query.contains(&("requestedReviewer", "u3".into())));
        assert!(query.contains(&("orderBy", "createdAt".into())));
        assert!(query.contains(&("space", "s1".into())));
        assert!(query.contains(&("conversationsIssuesCluster", "c1".into())));
        assert!(!query.iter().any(|(key, _)| *key == "contributor"));
    }

    #[test]
    fn space_query_sends_one_status_and_no_space() {
        let query = full_filter().space_query();
        let statuses: Vec<&String> = query
            .iter()
            .filter(|(key, _)| *key == "status")
            .map(|(_, value)| value)
            .collect();
        assert_eq!(statuses, vec!["open"]);
        assert!(!query.iter().any(|(key, _)| *key == "space"));
        assert!(query.contains(&("conversationsIssuesCluster", "c1".into())));
    }

    #[test]
    fn an_update_sends_only_the_fields_set() {
        let subject = serde_json::to_value(ChangeRequestUpdate::subject("New")).unwrap();
        assert_eq!(subject, json!({"subject": "New"}));
        let all = ChangeRequestUpdate {
            subject: Some("S".into()),
            description: Some(json!({"document": {}})),
            status: Some(ChangeRequestStatus::Draft),
        };
        assert_eq!(
            serde_json::to_value(all).unwrap(),
            json!({"subject": "S", "description": {"document": {}}, "status": "draft"})
        );
    }

    #[test]
    fn empty_filter_sends_nothing() {
        assert!(ChangeRequestFilter::default().space_query().is_empty());
        assert!(
            ChangeRequestFilter::default()
                .organization_query()
                .is_empty()
        );
    }
}
