//! `quire space list [--org O]`: the spaces of one organization, or of every one the token sees.

use serde_json::json;

use crate::api::{Client, Space, encode_segment};
use crate::cli::output::{JsonArgs, Listing, Record, Streams, fields, print_list, record};
use crate::cli::script::{self, MAX_PAGES, Outcome};

/// What `quire space list --json` offers.
pub const FIELDS: &[&str] = &[
    "id",
    "title",
    "organization",
    "visibility",
    "emoji",
    "parent",
    "changeRequestsOpen",
    "updatedAt",
    "url",
];

#[derive(Debug, clap::Subcommand)]
pub enum SpaceCommand {
    /// List spaces: of one organization with --org, else of every one the token sees.
    #[command(mut_arg("json", fields(FIELDS)))]
    List {
        /// The organization, by id or title.
        #[arg(long, value_name = "ORG")]
        org: Option<String>,
        #[command(flatten)]
        output: JsonArgs,
    },
}

pub async fn run(client: &Client, command: &SpaceCommand, streams: &mut Streams) -> Outcome {
    let SpaceCommand::List { org, output } = command;
    let mut records = Vec::new();
    streams.progress("Reading spaces");
    let organizations = match org {
        Some(org) => vec![script::organization(client, org).await?],
        None => script::organizations(client).await?,
    };
    for org in organizations {
        let path = format!("/orgs/{}/spaces", encode_segment(&org.id));
        let spaces: Vec<Space> = client.list_up_to(&path, &[], MAX_PAGES).await?.items;
        records.extend(spaces.iter().map(space_record));
    }
    streams.done();
    let listing = Listing {
        fields: FIELDS,
        columns: &["id", "title", "visibility", "changeRequestsOpen"],
        records,
    };
    print_list(streams, output, &listing)
}

fn space_record(space: &Space) -> Record {
    record(json!({
        "id": space.id,
        "title": space.title,
        "organization": space.organization,
        "visibility": space.visibility,
        "emoji": space.emoji,
        "parent": space.parent,
        "changeRequestsOpen": space.change_requests_open,
        "updatedAt": space.updated_at,
        "url": space.urls.app,
    }))
}
