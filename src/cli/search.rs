//! `quire search QUERY [--space S] [--org O]`: pages that match, in one space, one
//! organization, or every organization the token sees.

use serde_json::json;

use crate::api::{Client, Organization, SearchPage, SearchSpace, encode_segment};
use crate::cli::listing::{LimitArgs, ListEnd, ListReader, tell_end};
use crate::cli::output::{JsonArgs, Listing, Record, Streams, print_list, record};
use crate::cli::script::{self, Failure, Outcome};

/// What `quire search --json` offers.
pub const FIELDS: &[&str] = &[
    "space",
    "spaceTitle",
    "id",
    "title",
    "path",
    "section",
    "url",
];

#[derive(Debug, clap::Args)]
#[command(mut_arg("json", crate::cli::output::fields(FIELDS)))]
pub struct SearchArgs {
    /// What to look for.
    pub query: String,
    /// Search this space only (id or title).
    #[arg(long, value_name = "SPACE")]
    pub space: Option<String>,
    /// Search this organization only (id or title); also where --space is looked up by title.
    #[arg(long, value_name = "ORG")]
    pub org: Option<String>,
    #[command(flatten)]
    pub limit: LimitArgs,
    #[command(flatten)]
    pub output: JsonArgs,
}

pub async fn run(client: &Client, args: &SearchArgs, streams: &mut Streams) -> Outcome {
    if args.query.trim().is_empty() {
        return Err(Failure::Usage("the search query is empty".into()));
    }
    if args.query.chars().count() > crate::api::MAX_SEARCH_QUERY {
        return Err(Failure::Usage(format!(
            "the search query is longer than {} characters",
            crate::api::MAX_SEARCH_QUERY
        )));
    }
    streams.progress("Searching");
    let (records, end) = hits(client, args).await?;
    streams.done();
    let listing = Listing {
        fields: FIELDS,
        columns: &["spaceTitle", "title", "path"],
        records,
    };
    print_list(streams, &args.output, &listing)?;
    let narrow = match (&args.space, &args.org) {
        (None, None) => ": name --org ORG or --space SPACE to search fewer places",
        _ => "",
    };
    tell_end(streams, &args.limit, &end, narrow)
}

/// The pages found, up to the limit. The organization's search answers spaces, each with its
/// pages: spaces are read until they hold enough pages.
async fn hits(client: &Client, args: &SearchArgs) -> Result<(Vec<Record>, ListEnd), Failure> {
    let query = [("query", args.query.as_str())];
    let mut reader = ListReader::new(client, &args.limit);
    if let Some(space) = &args.space {
        let space = script::space(client, space, args.org.as_deref()).await?;
        let path = format!("/spaces/{}/search", encode_segment(&space.id));
        let mut pages: Vec<SearchPage> = Vec::new();
        reader.read_into(&path, &query, &mut pages).await?;
        let records = pages
            .iter()
            .map(|page| hit_record(&space.id, &space.title, page))
            .collect();
        return Ok(reader.finish(records));
    }
    let organizations = match &args.org {
        Some(org) => vec![script::organization(client, org).await?],
        None => reader.read_every::<Organization>("/orgs", &[]).await?,
    };
    let mut records = Vec::new();
    for org in organizations {
        if reader.has_enough(records.len()) {
            break;
        }
        let path = format!("/orgs/{}/search", encode_segment(&org.id));
        let spaces: Vec<SearchSpace> = reader.read_after(&path, &query, records.len()).await?;
        for space in &spaces {
            records.extend(
                space
                    .pages
                    .iter()
                    .map(|page| hit_record(&space.id, &space.title, page)),
            );
        }
    }
    Ok(reader.finish(records))
}

fn hit_record(space: &str, space_title: &str, page: &SearchPage) -> Record {
    let section = page.sections.first().map(|section| section.title.clone());
    record(json!({
        "space": space,
        "spaceTitle": space_title,
        "id": page.id,
        "title": page.title,
        "path": page.path,
        "section": section,
        "url": page.urls.app,
    }))
}
