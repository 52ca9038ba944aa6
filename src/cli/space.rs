//! `quire space list [--org O] [--deleted]`: the spaces of one organization, or of every one
//! the token sees; those in the Trash only when asked.

use serde_json::json;

use crate::api::{Client, Organization, Space, encode_segment};
use crate::cli::listing::{LimitArgs, ListReader, tell_end};
use crate::cli::output::{JsonArgs, Listing, Record, Streams, fields, print_list, record};
use crate::cli::script::{self, Outcome};

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
    "deletedAt",
    "url",
];

/// The table's columns; with `--deleted`, when each listed space went to the Trash too.
const COLUMNS: &[&str] = &["id", "title", "visibility", "changeRequestsOpen"];
const COLUMNS_WITH_DELETED: &[&str] = &[
    "id",
    "title",
    "visibility",
    "changeRequestsOpen",
    "deletedAt",
];

#[derive(Debug, clap::Subcommand)]
pub enum SpaceCommand {
    /// List spaces: of one organization with --org, else of every one the token sees.
    #[command(mut_arg("json", fields(FIELDS)))]
    List {
        /// The organization, by id or title.
        #[arg(long, value_name = "ORG")]
        org: Option<String>,
        /// Also list the spaces in the Trash (deleted, restorable for a while), with when
        /// they were deleted.
        #[arg(long)]
        deleted: bool,
        #[command(flatten)]
        limit: LimitArgs,
        #[command(flatten)]
        output: JsonArgs,
    },
}

pub async fn run(client: &Client, command: &SpaceCommand, streams: &mut Streams) -> Outcome {
    let SpaceCommand::List {
        org,
        deleted,
        limit,
        output,
    } = command;
    streams.progress("Reading spaces");
    let mut reader = ListReader::new(client, limit);
    let organizations = match org {
        Some(org) => vec![script::organization(client, org).await?],
        None => reader.read_every::<Organization>("/orgs", &[]).await?,
    };
    let mut found: Vec<Space> = Vec::new();
    for org in organizations {
        if reader.has_enough(found.len()) {
            break;
        }
        let path = format!("/orgs/{}/spaces", encode_segment(&org.id));
        let wanted = |space: &Space| *deleted || space.deleted_at.is_none();
        reader
            .read_matching_into(&path, &[], &mut found, wanted)
            .await?;
    }
    let (spaces, end) = reader.finish(found);
    streams.done();
    let listing = Listing {
        fields: FIELDS,
        columns: if *deleted {
            COLUMNS_WITH_DELETED
        } else {
            COLUMNS
        },
        records: spaces.iter().map(space_record).collect(),
    };
    print_list(streams, output, &listing)?;
    tell_end(
        streams,
        limit,
        &end,
        ": name --org ORG to read one organization",
    )
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
        "deletedAt": space.deleted_at,
        "url": space.urls.app,
    }))
}
