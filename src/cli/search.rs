//! `quire search QUERY [--space S] [--org O]`: pages that match, in one space, one
//! organization, or every organization the token sees.

use serde_json::json;

use crate::api::{Client, SearchPage, SearchSpace, encode_segment};
use crate::cli::output::{JsonArgs, Listing, Record, Streams, print_list, record};
use crate::cli::script::{self, Failure, MAX_PAGES, Outcome};

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
    let records = hits(client, args).await?;
    streams.done();
    let listing = Listing {
        fields: FIELDS,
        columns: &["spaceTitle", "title", "path"],
        records,
    };
    print_list(streams, &args.output, &listing)
}

async fn hits(client: &Client, args: &SearchArgs) -> Result<Vec<Record>, Failure> {
    let query = [("query", args.query.as_str())];
    if let Some(space) = &args.space {
        let space = script::space(client, space, args.org.as_deref()).await?;
        let path = format!("/spaces/{}/search", encode_segment(&space.id));
        let pages: Vec<SearchPage> = client.list_up_to(&path, &query, MAX_PAGES).await?.items;
        return Ok(pages
            .iter()
            .map(|page| hit_record(&space.id, &space.title, page))
            .collect());
    }
    let organizations = match &args.org {
        Some(org) => vec![script::organization(client, org).await?],
        None => script::organizations(client).await?,
    };
    let mut records = Vec::new();
    for org in organizations {
        let path = format!("/orgs/{}/search", encode_segment(&org.id));
        let spaces: Vec<SearchSpace> = client.list_up_to(&path, &query, MAX_PAGES).await?.items;
        for space in &spaces {
            records.extend(
                space
                    .pages
                    .iter()
                    .map(|page| hit_record(&space.id, &space.title, page)),
            );
        }
    }
    Ok(records)
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
