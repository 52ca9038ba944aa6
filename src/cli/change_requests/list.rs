//! `quire cr list`.

use std::collections::HashMap;

use serde_json::json;

use super::{CrArgs, StatusChoice};
use crate::api::{
    ChangeRequest, ChangeRequestFilter, ChangeRequestStatus, Client, Organization, Space,
    encode_segment,
};
use crate::cli::listing::{LimitArgs, ListReader, tell_end};
use crate::cli::output::{JsonArgs, Listing, Record, Streams, print_list, record};
use crate::cli::script::{self, Failure, Outcome};

/// What `quire cr list --json` offers (and `cr view --json`, with more).
pub const FIELDS: &[&str] = &[
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
];

/// The table's columns: the space by its title, or by its id when a title is not known.
const COLUMNS: &[&str] = &["number", "subject", "status", "author", "spaceTitle"];
const COLUMNS_WITH_SPACE_IDS: &[&str] = &["number", "subject", "status", "author", "space"];

/// The titles of the spaces a command read, by id.
pub(super) type SpaceTitles = HashMap<String, String>;

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
    let (found, titles) = match &args.space {
        Some(space) => {
            let (space, found) =
                space_and_its_list(&mut reader, space, args.org.as_deref(), &api_filter).await?;
            (found, SpaceTitles::from([(space.id, space.title)]))
        }
        None => in_organizations(client, &mut reader, args.org.as_deref(), &api_filter).await?,
    };
    let (change_requests, end) = reader.finish(found);
    streams.done();
    let records: Vec<Record> = change_requests
        .iter()
        .map(|change_request| change_request_record(change_request, &titles))
        .collect();
    let every_title_known = records.iter().all(|record| {
        record
            .get("spaceTitle")
            .is_some_and(|title| !title.is_null())
    });
    let listing = Listing {
        fields: FIELDS,
        columns: if every_title_known {
            COLUMNS
        } else {
            COLUMNS_WITH_SPACE_IDS
        },
        records,
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

/// The space `name` names and its change requests. A name that may be an id (or a title whose
/// id is remembered) is read as a space and listed at once; when the id turns out wrong, the
/// list is read again by the right one.
async fn space_and_its_list(
    reader: &mut ListReader<'_>,
    name: &str,
    org: Option<&str>,
    filter: &ChangeRequestFilter,
) -> Result<(Space, Vec<ChangeRequest>), Failure> {
    let client = reader.client();
    let Some(likely) = script::likely_id(name, org) else {
        let space = script::space(client, name, org).await?;
        let found = in_space(reader, &space.id, filter).await?;
        return Ok((space, found));
    };
    let (space, listed) = tokio::join!(
        script::space(client, name, org),
        in_space(reader, &likely, filter)
    );
    let space = space?;
    let found = if space.id == likely {
        listed?
    } else {
        in_space(reader, &space.id, filter).await?
    };
    Ok((space, found))
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

/// The change requests of the organizations (`org`, else every one), and the titles of their
/// spaces, each organization's read beside its change requests.
async fn in_organizations(
    client: &Client,
    reader: &mut ListReader<'_>,
    org: Option<&str>,
    filter: &ChangeRequestFilter,
) -> Result<(Vec<ChangeRequest>, SpaceTitles), Failure> {
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
    let mut titles = SpaceTitles::new();
    for org in organizations {
        if reader.has_enough(found.len()) {
            break;
        }
        let path = format!("/orgs/{}/change-requests", encode_segment(&org.id));
        let (listed, spaces) = tokio::join!(
            reader.read_into(&path, &query, &mut found),
            space_titles(client, &org.id)
        );
        listed?;
        titles.extend(spaces);
    }
    Ok((found, titles))
}

/// The titles of an organization's spaces; none when they cannot be read (the list then shows
/// the spaces' ids).
async fn space_titles(client: &Client, org: &str) -> SpaceTitles {
    let path = format!("/orgs/{}/spaces", encode_segment(org));
    let spaces = client
        .list_up_to::<Space>(&path, &[], script::MAX_PAGES)
        .await;
    spaces.map_or_else(
        |_| SpaceTitles::new(),
        |spaces| {
            spaces
                .items
                .into_iter()
                .map(|space| (space.id, space.title))
                .collect()
        },
    )
}

pub(super) fn change_request_record(
    change_request: &ChangeRequest,
    titles: &SpaceTitles,
) -> Record {
    let author = change_request.created_by.as_ref();
    let space_title = change_request
        .space
        .as_ref()
        .and_then(|space| titles.get(space));
    record(json!({
        "number": change_request.number,
        "id": change_request.id,
        "subject": change_request.subject,
        "status": change_request.status,
        "space": change_request.space,
        "spaceTitle": space_title,
        "author": author.map(|user| &user.display_name),
        "authorId": author.map(|user| &user.id),
        "createdAt": change_request.created_at,
        "updatedAt": change_request.updated_at,
        "comments": change_request.comments,
        "outdated": change_request.outdated,
        "url": change_request.urls.app,
    }))
}
