//! `quire org list`: the organizations the token sees.

use serde_json::json;

use crate::api::{Client, Organization};
use crate::cli::output::{JsonArgs, Listing, Record, Streams, fields, print_list, record};
use crate::cli::script::{self, Outcome};

/// What `quire org list --json` offers.
pub const FIELDS: &[&str] = &["id", "title", "hostname", "createdAt", "url"];

#[derive(Debug, clap::Subcommand)]
pub enum OrgCommand {
    /// List the organizations the token sees.
    #[command(mut_arg("json", fields(FIELDS)))]
    List {
        #[command(flatten)]
        output: JsonArgs,
    },
}

pub async fn run(client: &Client, command: &OrgCommand, streams: &mut Streams) -> Outcome {
    let OrgCommand::List { output } = command;
    streams.progress("Reading organizations");
    let records = script::organizations(client)
        .await?
        .iter()
        .map(org_record)
        .collect();
    streams.done();
    let listing = Listing {
        fields: FIELDS,
        columns: &["id", "title", "hostname"],
        records,
    };
    print_list(streams, output, &listing)
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
