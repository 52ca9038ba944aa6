//! Change-request reviews and requested reviewers.

use serde::Serialize;

use super::{change_request_path, written_or_reread};
use crate::address::encode_segment;
use crate::client::Client;
use crate::error::ApiError;
use crate::models::review::RequestedReviewersAnswer;
use crate::models::{ChangeRequestReview, CommentBody, RequestedReviewer};
use crate::paging::ListPage;

/// Pages of requested reviewers read again when a request answered without them. The screen
/// shows the first page of that list anyway, so a few pages are plenty and what was read is
/// used even when the list does not end.
const REVIEWER_REREAD_PAGES: usize = 5;

/// The verdict a reviewer submits. Closed, unlike `ReviewStatus`: quire never sends a value it
/// does not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReviewVerdict {
    Approved,
    ChangesRequested,
}

impl ReviewVerdict {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewVerdict::Approved => "approved",
            ReviewVerdict::ChangesRequested => "changes-requested",
        }
    }
}

impl Serialize for ReviewVerdict {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[derive(Serialize)]
struct NewReview {
    status: ReviewVerdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    comment: Option<CommentBody>,
}

#[derive(Serialize)]
struct ReviewerRequest<'a> {
    users: &'a [&'a str],
}

impl Client {
    /// `GET …/change-requests/{cr}/reviews?format=markdown`: one page of reviews.
    pub async fn list_reviews(
        &self,
        space: &str,
        change_request: &str,
        page: Option<&str>,
    ) -> Result<ListPage<ChangeRequestReview>, ApiError> {
        let path = format!("{}/reviews", change_request_path(space, change_request));
        self.get_list_page(&path, &[("format", "markdown")], page)
            .await
    }

    /// `POST …/change-requests/{cr}/reviews` with a verdict and an optional markdown comment
    /// (201 on the service, 200 accepted too).
    pub async fn submit_review(
        &self,
        space: &str,
        change_request: &str,
        verdict: ReviewVerdict,
        comment_markdown: Option<&str>,
    ) -> Result<ChangeRequestReview, ApiError> {
        let path = format!("{}/reviews", change_request_path(space, change_request));
        let body = NewReview {
            status: verdict,
            comment: comment_markdown.map(CommentBody::from_markdown),
        };
        self.post(&path, &body).await
    }

    /// `GET …/change-requests/{cr}/requested-reviewers`: one page.
    pub async fn list_requested_reviewers(
        &self,
        space: &str,
        change_request: &str,
        page: Option<&str>,
    ) -> Result<ListPage<RequestedReviewer>, ApiError> {
        let path = format!(
            "{}/requested-reviewers",
            change_request_path(space, change_request)
        );
        self.get_list_page(&path, &[], page).await
    }

    /// `POST …/change-requests/{cr}/requested-reviewers` with user ids. Returns the reviewers
    /// the server reports; when it answers without a usable body the list is read again.
    pub async fn request_reviewers(
        &self,
        space: &str,
        change_request: &str,
        users: &[&str],
    ) -> Result<Vec<RequestedReviewer>, ApiError> {
        let path = format!(
            "{}/requested-reviewers",
            change_request_path(space, change_request)
        );
        let written: Result<RequestedReviewersAnswer, ApiError> =
            self.post(&path, &ReviewerRequest { users }).await;
        let written = written.map(|answer| answer.users);
        let reread = self.list_up_to(&path, &[], REVIEWER_REREAD_PAGES);
        written_or_reread(written, async { Ok(reread.await?.items) }).await
    }

    /// `DELETE …/requested-reviewers/{user}` (205 removed, 204 was not requested).
    pub async fn remove_requested_reviewer(
        &self,
        space: &str,
        change_request: &str,
        user: &str,
    ) -> Result<(), ApiError> {
        let path = format!(
            "{}/requested-reviewers/{}",
            change_request_path(space, change_request),
            encode_segment(user)
        );
        self.delete(&path).await
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn review_body_has_status_and_optional_markdown_comment() {
        let bare = NewReview {
            status: ReviewVerdict::Approved,
            comment: None,
        };
        assert_eq!(
            serde_json::to_value(&bare).unwrap(),
            json!({"status": "approved"})
        );
        let with_comment = NewReview {
            status: ReviewVerdict::ChangesRequested,
            comment: Some(CommentBody::from_markdown("fix it")),
        };
        assert_eq!(
            serde_json::to_value(&with_comment).unwrap(),
            json!({"status": "changes-requested", "comment": {"markdown": "fix it"}})
        );
    }

    #[test]
    fn reviewer_request_lists_users() {
        let users = ["u1", "u2"];
        assert_eq!(
            serde_json::to_value(ReviewerRequest { users: &users }).unwrap(),
            json!({"users": ["u1", "u2"]})
        );
    }
}
