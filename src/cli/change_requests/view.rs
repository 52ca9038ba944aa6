//! `quire cr view`: one change request, for a person (its summary, description, changes and
//! reviews) or as JSON with the same things.

use std::io::Write;

use serde_json::{Value, json};

use super::list::{SpaceTitles, change_request_record};
use crate::api::{
    ChangeRequest, ChangeRequestReview, Client, ListPage, RevisionSemanticChanges, Space,
};
use crate::cli::output::{JsonArgs, Record, Streams, print_one};
use crate::cli::script::Outcome;
use crate::ui::sanitize::sanitize;

/// Semantic changes `cr view` lists.
const CHANGES_SHOWN: u32 = 50;

/// What `quire cr view --json` offers: the list's fields, and what the text shows besides.
pub const VIEW_FIELDS: &[&str] = &[
    "number",
    "id",
    "subject",
    "status",
    "space",
    "spaceTitle",
    "author",
    "authorId",
    "createdAt",
    "updatedAt",
    "comments",
    "outdated",
    "url",
    "description",
    "changes",
    "moreChanges",
    "reviews",
];

pub(super) async fn view(
    client: &Client,
    space: &Space,
    number: &str,
    output: &JsonArgs,
    streams: &mut Streams,
) -> Outcome {
    streams.progress("Reading the change request");
    // The three answers are independent: asked at once.
    let (change_request, changes, reviews) = tokio::join!(
        client.get_change_request(&space.id, number),
        client.change_request_changes(&space.id, number, CHANGES_SHOWN),
        client.list_reviews(&space.id, number, None),
    );
    let change_request = change_request?;
    // What it changes and its reviews are extras: a server without them still shows the rest.
    let (changes, reviews) = (changes.ok(), reviews.ok());
    let titles = SpaceTitles::from([(space.id.clone(), space.title.clone())]);
    let record = view_record(&change_request, &titles, changes.as_ref(), reviews.as_ref());
    if let Some(printed) = print_one(streams, output, VIEW_FIELDS, &record) {
        streams.done();
        return printed;
    }
    streams.done();
    print_summary(streams, &change_request, &space.title);
    if let Some(changes) = changes {
        print_changes(streams, &changes);
    }
    if let Some(reviews) = reviews {
        print_reviews(streams, &reviews.items);
    }
    Ok(())
}

/// The list's record with the description, the changes and the reviews (null when the server
/// did not answer them).
fn view_record(
    change_request: &ChangeRequest,
    titles: &SpaceTitles,
    changes: Option<&RevisionSemanticChanges>,
    reviews: Option<&ListPage<ChangeRequestReview>>,
) -> Record {
    let mut record = change_request_record(change_request, titles);
    record.insert("description".into(), description(change_request).into());
    record.insert(
        "changes".into(),
        changes.map_or(Value::Null, |changes| {
            changes.changes.iter().map(change_value).collect()
        }),
    );
    record.insert(
        "moreChanges".into(),
        changes.map_or(Value::Null, |changes| changes.more.unwrap_or(0).into()),
    );
    record.insert(
        "reviews".into(),
        reviews.map_or(Value::Null, |reviews| {
            reviews.items.iter().map(review_value).collect()
        }),
    );
    record
}

fn change_value(change: &crate::api::SemanticChange) -> Value {
    json!({
        "type": change.change_type.as_str(),
        "page": change.page.as_ref().map(|page| json!({
            "id": page.id,
            "title": page.title,
            "path": page.path,
        })),
    })
}

fn review_value(review: &ChangeRequestReview) -> Value {
    json!({
        "reviewer": review.reviewer.as_ref().map(|user| &user.display_name),
        "reviewerId": review.reviewer.as_ref().map(|user| &user.id),
        "status": review.status.as_ref().map(|status| status.as_str()),
        "outdated": review.outdated,
        "comment": review.comment.as_ref().and_then(|comment| comment.body.markdown()),
        "createdAt": review.created_at,
    })
}

/// What the author wrote about the change request, as markdown (blocks quire cannot show as
/// text are named); None when nothing was written.
fn description(change_request: &ChangeRequest) -> Option<String> {
    let document = change_request.description.as_ref()?;
    let markdown = crate::ui::document::display_markdown(document);
    let markdown = markdown.trim_end();
    (!markdown.trim().is_empty()).then(|| markdown.to_string())
}

fn print_summary(streams: &mut Streams, change_request: &ChangeRequest, space_title: &str) {
    let number = change_request
        .number
        .map_or(String::new(), |n| format!(" #{n}"));
    let title = format!("{}{number}", sanitize(&change_request.subject));
    let title = if streams.colour {
        format!("\x1b[1m{title}\x1b[0m")
    } else {
        title
    };
    let _ = writeln!(streams.out, "{title}");
    let mut facts = Vec::new();
    if let Some(status) = &change_request.status {
        facts.push(status.as_str().to_string());
    }
    if let Some(author) = &change_request.created_by {
        facts.push(format!("by {}", author.display_name));
    }
    facts.push(format!("in {space_title}"));
    if let Some(comments) = change_request.comments {
        facts.push(format!("{comments} comments"));
    }
    if change_request.outdated {
        facts.push("behind main".to_string());
    }
    let _ = writeln!(streams.out, "{}", sanitize(&facts.join(" · ")));
    if let Some(url) = &change_request.urls.app {
        let _ = writeln!(streams.out, "{}", sanitize(url));
    }
    if let Some(markdown) = description(change_request) {
        let markdown = crate::ui::sanitize::sanitize_multiline(&markdown);
        let _ = writeln!(streams.out, "\n{markdown}");
    }
}

fn print_changes(streams: &mut Streams, changes: &RevisionSemanticChanges) {
    let _ = writeln!(streams.out, "\nChanges:");
    for change in &changes.changes {
        let what = change.change_type.as_str().replace('_', " ");
        let page = change.page.as_ref().map_or(String::new(), |page| {
            format!("{} ({})", page.title, page.path.as_deref().unwrap_or(""))
        });
        let _ = writeln!(streams.out, "  {:<16}{}", sanitize(&what), sanitize(&page));
    }
    if let Some(more) = changes.more.filter(|more| *more > 0) {
        let _ = writeln!(streams.out, "  … and {more} more");
    }
}

fn print_reviews(streams: &mut Streams, reviews: &[ChangeRequestReview]) {
    if reviews.is_empty() {
        return;
    }
    let _ = writeln!(streams.out, "\nReviews:");
    for review in reviews {
        let who = review
            .reviewer
            .as_ref()
            .map_or("someone", |user| user.display_name.as_str());
        let verdict = review
            .status
            .as_ref()
            .map_or("reviewed", |status| status.as_str());
        let outdated = if review.outdated { " (outdated)" } else { "" };
        let _ = writeln!(
            streams.out,
            "  {}: {}{outdated}",
            sanitize(who),
            sanitize(verdict)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::VIEW_FIELDS;
    use crate::cli::change_requests::FIELDS;

    #[test]
    fn the_view_offers_every_field_of_the_list() {
        for field in FIELDS {
            assert!(VIEW_FIELDS.contains(field), "{field}");
        }
    }
}
