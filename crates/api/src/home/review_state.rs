//! A change request's review state from its reviews: the API's lists carry none.

use super::ReviewState;
use crate::models::{ChangeRequestReview, ReviewStatus};

/// The state the current reviews give: each reviewer's latest review of the current revision
/// counts (an outdated review was about content that changed since); one asking for changes
/// outweighs any approval, as on the platform's own merge button.
pub fn review_state(reviews: &[ChangeRequestReview]) -> ReviewState {
    let mut latest: Vec<&ChangeRequestReview> = Vec::new();
    for review in reviews.iter().filter(|review| !review.outdated) {
        let reviewer = review.reviewer.as_ref().map(|user| user.id.as_str());
        match latest
            .iter_mut()
            .find(|kept| kept.reviewer.as_ref().map(|user| user.id.as_str()) == reviewer)
        {
            Some(kept) if when(review) >= when(kept) => *kept = review,
            Some(_) => {}
            None => latest.push(review),
        }
    }
    let says = |status: ReviewStatus| {
        latest
            .iter()
            .any(|review| review.status == Some(status.clone()))
    };
    if says(ReviewStatus::ChangesRequested) {
        ReviewState::ChangesRequested
    } else if says(ReviewStatus::Approved) {
        ReviewState::Approved
    } else {
        ReviewState::Pending
    }
}

fn when(review: &ChangeRequestReview) -> &str {
    review
        .updated_at
        .as_deref()
        .or(review.created_at.as_deref())
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn review(who: &str, status: ReviewStatus, at: &str, outdated: bool) -> ChangeRequestReview {
        serde_json::from_value(serde_json::json!({
            "id": format!("{who}-{at}"),
            "reviewer": {"id": who},
            "status": status.as_str(),
            "outdated": outdated,
            "createdAt": at,
        }))
        .unwrap()
    }

    #[test]
    fn the_latest_current_review_of_each_reviewer_counts() {
        use ReviewStatus::{Approved, ChangesRequested};
        assert_eq!(review_state(&[]), ReviewState::Pending);
        let approved = review("a", Approved, "2024-01-02", false);
        assert_eq!(
            review_state(std::slice::from_ref(&approved)),
            ReviewState::Approved
        );
        let asked_before = review("a", ChangesRequested, "2024-01-01", false);
        assert_eq!(
            review_state(&[asked_before, approved.clone()]),
            ReviewState::Approved
        );
        let other_asks = review("b", ChangesRequested, "2024-01-01", false);
        assert_eq!(
            review_state(&[approved.clone(), other_asks]),
            ReviewState::ChangesRequested
        );
        let outdated_ask = review("b", ChangesRequested, "2024-01-03", true);
        assert_eq!(
            review_state(&[approved, outdated_ask]),
            ReviewState::Approved
        );
    }
}
