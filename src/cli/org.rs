//! `quire org list`: the organizations the token sees.

use serde_json::json;

use crate::api::{Client, Organization};
use crate::cli::listing::{LimitArgs, ListReader, tell_end};
use crate::cli::output::{JsonArgs, Listing, Record, Streams, fields, print_list, record};
use crate::cli::script::Outcome;

/// What `quire org list --json` offers.
pub const FIELDS: &[&str] = &["id", "title", "hostname", "createdAt", "url"];

#[derive(Debug, clap::Subcommand)]
pub enum OrgCommand {
    /// List the organizations the token sees.
    #[command(mut_arg("json", fields(FIELDS)))]
    List {
        #[command(flatten)]
        limit: LimitArgs,
        #[command(flatten)]
        output: JsonArgs,
    },
}

pub async fn run(client: &Client, command: &OrgCommand, streams: &mut Streams) -> Outcome {
    let OrgCommand::List { limit, output } = command;
    streams.progress("Reading organizations");
    let mut reader = ListReader::new(client, limit);
    let mut found: Vec<Organization> = Vec::new();
    reader.read_into("/orgs", &[], &mut found).await?;
    let (organizations, end) = reader.finish(found);
    streams.done();
    let listing = Listing {
        fields: FIELDS,
        columns: &["id", "title", "hostname"],
        records: organizations.iter().map(org_record).collect(),
    };
    print_list(streams, output, &listing)?;
    tell_end(streams, limit, &end, "")
}

fn org_record(org: &Organization) -> Record {
    record(json!({
        "id": org.id,
        "title": org.title,
        "hostname": org.custom_hostname.as_ref().or(org.hostname.as_ref()),
        "createdAt": org.created_at,
        "url": org.urls.app,
    }))
}
