//! `quire cr list` and `quire cr view`.

use std::io::Write;

use serde_json::json;

use super::{CrArgs, StatusChoice};
use crate::api::{
    ChangeRequest, ChangeRequestFilter, ChangeRequestReview, ChangeRequestStatus, Client,
    Organization, encode_segment,
};
use crate::cli::listing::{LimitArgs, ListReader, tell_end};
use crate::cli::output::{JsonArgs, Listing, Record, Streams, print_list, print_one, record};
use crate::cli::script::{self, Failure, Outcome};
use crate::ui::sanitize::sanitize;

/// What `quire cr list --json` and `quire cr view --json` offer.
pub const FIELDS: &[&str] = &[
    "number",
    "id",
    "subject",
    "status",
    "space",
    "author",
    "authorId",
    "createdAt",
    "updatedAt",
    "comments",
    "outdated",
    "url",
];

/// Semantic changes `cr view` lists.
const CHANGES_SHOWN: u32 = 50;

pub(super) struct Filter<'a> {
    pub status: StatusChoice,
    pub author: Option<&'a str>,
    pub reviewer: Option<&'a str>,
}

pub(super) async fn list(
    client: &Client,
    args: &CrArgs,
    filter: &Filter<'_>,
    limit: &LimitArgs,
    output: &JsonArgs,
    streams: &mut Streams,
) -> Outcome {
    streams.progress("Reading change requests");
    let api_filter = api_filter(client, filter).await?;
    let mut reader = ListReader::new(client, limit);
    let found = match &args.space {
        Some(space) => {
            let space = script::space(client, space, args.org.as_deref()).await?;
            in_space(&mut reader, &space.id, &api_filter).await?
        }
        None => in_organizations(client, &mut reader, args.org.as_deref(), &api_filter).await?,
    };
    let (change_requests, end) = reader.finish(found);
    streams.done();
    let listing = Listing {
        fields: FIELDS,
        columns: &["number", "subject", "status", "author", "space"],
        records: change_requests.iter().map(change_request_record).collect(),
    };
    print_list(streams, output, &listing)?;
    let narrow = match (&args.space, &args.org) {
        (None, None) => ": name --org ORG or --space SPACE to read fewer places",
        _ => "",
    };
    tell_end(streams, limit, &end, narrow)
}

async fn api_filter(client: &Client, filter: &Filter<'_>) -> Result<ChangeRequestFilter, Failure> {
    let statuses = match filter.status {
        StatusChoice::Open => vec![ChangeRequestStatus::Open],
        StatusChoice::Draft => vec![ChangeRequestStatus::Draft],
        StatusChoice::Merged => vec![ChangeRequestStatus::Merged],
        StatusChoice::Archived => vec![ChangeRequestStatus::Archived],
        StatusChoice::All => vec![
            ChangeRequestStatus::Open,
            ChangeRequestStatus::Draft,
            ChangeRequestStatus::Merged,
            ChangeRequestStatus::Archived,
        ],
    };
    let creator = match filter.author {
        Some(user) => Some(script::user(client, user).await?),
        None => None,
    };
    let requested_reviewer = match filter.reviewer {
        Some(user) => Some(script::user(client, user).await?),
        None => None,
    };
    Ok(ChangeRequestFilter {
        statuses,
        creator,
        requested_reviewer,
        ..ChangeRequestFilter::default()
    })
}

/// A space's list takes one status at a time: one read per status asked for, each up to the
/// limit, merged newest first.
async fn in_space(
    reader: &mut ListReader<'_>,
    space: &str,
    filter: &ChangeRequestFilter,
) -> Result<Vec<ChangeRequest>, Failure> {
    let path = format!("/spaces/{}/change-requests", encode_segment(space));
    let mut found = Vec::new();
    for status in &filter.statuses {
        let one = ChangeRequestFilter {
            statuses: vec![status.clone()],
            ..filter.clone()
        };
        let query = one.space_query();
        let query: Vec<(&str, &str)> = query
            .iter()
            .map(|(key, value)| (*key, value.as_str()))
            .collect();
        let mut of_status = Vec::new();
        reader.read_into(&path, &query, &mut of_status).await?;
        found.extend(of_status);
    }
    if filter.statuses.len() > 1 {
        found
            .sort_by_key(|change_request: &ChangeRequest| std::cmp::Reverse(change_request.number));
    }
    Ok(found)
}

async fn in_organizations(
    client: &Client,
    reader: &mut ListReader<'_>,
    org: Option<&str>,
    filter: &ChangeRequestFilter,
) -> Result<Vec<ChangeRequest>, Failure> {
    let organizations = match org {
        Some(org) => vec![script::organization(client, org).await?],
        None => reader.read_every::<Organization>("/orgs", &[]).await?,
    };
    let query = filter.organization_query();
    let query: Vec<(&str, &str)> = query
        .iter()
        .map(|(key, value)| (*key, value.as_str()))
        .collect();
    let mut found = Vec::new();
    for org in organizations {
        if reader.has_enough(found.len()) {
            break;
        }
        let path = format!("/orgs/{}/change-requests", encode_segment(&org.id));
        reader.read_into(&path, &query, &mut found).await?;
    }
    Ok(found)
}

pub(super) fn change_request_record(change_request: &ChangeRequest) -> Record {
    let author = change_request.created_by.as_ref();
    record(json!({
        "number": change_request.number,
        "id": change_request.id,
        "subject": change_request.subject,
        "status": change_request.status,
        "space": change_request.space,
        "author": author.map(|user| &user.display_name),
        "authorId": author.map(|user| &user.id),
        "createdAt": change_request.created_at,
        "updatedAt": change_request.updated_at,
        "comments": change_request.comments,
        "outdated": change_request.outdated,
        "url": change_request.urls.app,
    }))
}

pub(super) async fn view(
    client: &Client,
    space: &str,
    number: &str,
    output: &JsonArgs,
    streams: &mut Streams,
) -> Outcome {
    streams.progress("Reading the change request");
    let change_request = client.get_change_request(space, number).await?;
    let record = change_request_record(&change_request);
    if let Some(printed) = print_one(streams, output, FIELDS, &record) {
        streams.done();
        return printed;
    }
    let (changes, reviews) = tokio::join!(
        client.change_request_changes(space, number, CHANGES_SHOWN),
        client.list_reviews(space, number, None),
    );
    streams.done();
    print_summary(streams, &change_request);
    // What it changes and its reviews are extras: a server without them still shows the rest.
    if let Ok(changes) = changes {
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
    if let Ok(reviews) = reviews {
        print_reviews(streams, &reviews.items);
    }
    Ok(())
}

fn print_summary(streams: &mut Streams, change_request: &ChangeRequest) {
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
    print_description(streams, change_request);
}

/// What the author wrote about the change request, as markdown (blocks quire cannot show as
/// text are named).
fn print_description(streams: &mut Streams, change_request: &ChangeRequest) {
    let Some(document) = &change_request.description else {
        return;
    };
    let markdown = crate::ui::document::display_markdown(document);
    if markdown.trim().is_empty() {
        return;
    }
    let markdown = crate::ui::sanitize::sanitize_multiline(markdown.trim_end());
    let _ = writeln!(streams.out, "\n{markdown}");
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
