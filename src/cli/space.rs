//! `quire space list [--org O] [--deleted]`: the spaces of one organization, or of every one
//! the token sees; those in the Trash only when asked. `quire space view SPACE [--share-key
//! KEY]`: one space, read as a share link shows it when a key is given (its published address
//! then carries the key).

use serde_json::json;

use crate::api::{Client, Organization, Space, encode_segment};
use crate::cli::listing::{LimitArgs, ListReader, tell_end};
use std::io::Write;

use crate::cli::output::{
    JsonArgs, Listing, Record, Streams, fields, print_list, print_one, record,
};
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
    /// One space: SPACE its id or its title; with --share-key, as that share link shows it.
    #[command(mut_arg("json", fields(VIEW_FIELDS)))]
    View {
        /// The space: its id or its title.
        space: String,
        /// Where SPACE is looked up by title (id or title).
        #[arg(long, value_name = "ORG")]
        org: Option<String>,
        /// The key of a share link of a site publishing the space (`shareKey` in a share
        /// link's address): the published address is resolved for it.
        #[arg(long, value_name = "KEY")]
        share_key: Option<String>,
        #[command(flatten)]
        output: JsonArgs,
    },
}

/// What `quire space view --json` offers.
pub const VIEW_FIELDS: &[&str] = &[
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
    "publishedUrl",
];

pub async fn run(client: &Client, command: &SpaceCommand, streams: &mut Streams) -> Outcome {
    let (org, deleted, limit, output) = match command {
        SpaceCommand::List {
            org,
            deleted,
            limit,
            output,
        } => (org, deleted, limit, output),
        SpaceCommand::View {
            space,
            org,
            share_key,
            output,
        } => {
            return view(
                client,
                space,
                org.as_deref(),
                share_key.as_deref(),
                output,
                streams,
            )
            .await;
        }
    };
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

async fn view(
    client: &Client,
    name: &str,
    org: Option<&str>,
    share_key: Option<&str>,
    output: &JsonArgs,
    streams: &mut Streams,
) -> Outcome {
    streams.progress("Reading the space");
    let mut space = script::space(client, name, org).await?;
    if share_key.is_some() {
        space = client.get_space_shared(&space.id, share_key).await?;
    }
    streams.done();
    let mut record = space_record(&space);
    record.insert("publishedUrl".into(), json!(space.urls.published));
    if let Some(printed) = print_one(streams, output, VIEW_FIELDS, &record) {
        return printed;
    }
    let rows = [
        ("Title", "title"),
        ("Id", "id"),
        ("Organization", "organization"),
        ("Visibility", "visibility"),
        ("Address", "url"),
        ("Published", "publishedUrl"),
    ];
    for (label, field) in rows {
        if let Some(value) = record.get(field).and_then(serde_json::Value::as_str) {
            let value = streams.shown(value).into_owned();
            let _ = writeln!(streams.out, "{label:<13}{value}");
        }
    }
    Ok(())
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
