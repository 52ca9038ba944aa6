//! `quire status`: the Home sections (the config file's `[[sections]]`, or the four defaults)
//! across every organization, after `gh status`. At a terminal each section is a titled table;
//! piped, one tab-separated line per change request with its section first; `--json` and
//! `--jq` as every list. An organization that failed is a line on stderr and exit 1, after
//! what the others gave is printed.

use std::io::Write;

use serde_json::json;

use crate::api::Client;
use crate::api::home::{HomeError, HomeRow, Named, SectionQuery, gather};
use crate::cli::output::{JsonArgs, Listing, Record, Streams, print_list, record, table};
use crate::cli::script::{Failure, Outcome};
use crate::vocabulary::home::{HomeBoard, SectionState};

/// What `quire status --json` offers.
pub const FIELDS: &[&str] = &[
    "section",
    "organization",
    "organizationId",
    "space",
    "spaceId",
    "number",
    "id",
    "subject",
    "author",
    "authorId",
    "status",
    "review",
    "mayMerge",
    "createdAt",
    "updatedAt",
    "url",
];

/// The columns of a section's table at a terminal.
const COLUMNS: &[&str] = &[
    "number",
    "subject",
    "space",
    "organization",
    "author",
    "review",
];

/// The columns of the tab-separated lines: the section first, so a line stands alone.
const PIPED_COLUMNS: &[&str] = &[
    "section",
    "organization",
    "space",
    "number",
    "subject",
    "status",
    "review",
    "author",
    "updatedAt",
];

#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    #[command(flatten)]
    pub output: JsonArgs,
}

pub async fn run(
    client: &Client,
    sections: Vec<SectionQuery>,
    args: &StatusArgs,
    streams: &mut Streams,
) -> Outcome {
    streams.progress("Reading change requests");
    let board = read_board(client, sections).await;
    streams.done();
    if let Some(error) = board.failed {
        return Err(Failure::Api(error));
    }
    let for_a_person =
        streams.out_is_terminal && args.output.json.is_none() && args.output.jq.is_none();
    if for_a_person {
        print_sections(streams, &board.sections);
    } else {
        let listing = Listing {
            fields: FIELDS,
            columns: PIPED_COLUMNS,
            records: board.sections.iter().flat_map(section_records).collect(),
        };
        print_list(streams, &args.output, &listing)?;
    }
    tell_problems(streams, &board.sections)
}

/// Every section, each answer applied as it comes.
async fn read_board(client: &Client, sections: Vec<SectionQuery>) -> HomeBoard {
    let mut board = HomeBoard::new(sections.clone());
    let (sender, mut answers) = tokio::sync::mpsc::unbounded_channel();
    let reading = gather(client, &sections, sender);
    let applying = async {
        while let Some(event) = answers.recv().await {
            board.apply(event);
        }
    };
    tokio::join!(reading, applying);
    board
}

fn section_records(section: &SectionState) -> Vec<Record> {
    section
        .rows
        .iter()
        .map(|row| row_record(&section.query.title, row))
        .collect()
}

fn row_record(section: &str, row: &HomeRow) -> Record {
    let author = row.author.as_ref();
    record(json!({
        "section": section,
        "organization": row.organization.title,
        "organizationId": row.organization.id,
        "space": row.space.title,
        "spaceId": row.space.id,
        "number": row.number,
        "id": row.id,
        "subject": row.subject,
        "author": author.map(|user| &user.display_name),
        "authorId": author.map(|user| &user.id),
        "status": row.status,
        "review": row.review.map(|state| state.as_str()),
        "mayMerge": row.may_merge,
        "createdAt": row.created_at,
        "updatedAt": row.updated_at,
        "url": row.url,
    }))
}

/// Each section under its title, as a table fitted to the terminal.
fn print_sections(streams: &mut Streams, sections: &[SectionState]) {
    for (index, section) in sections.iter().enumerate() {
        if index > 0 {
            let _ = writeln!(streams.out);
        }
        let title = format!(
            "{} ({})",
            streams.shown(&section.query.title),
            section.rows.len()
        );
        let title = if streams.colour {
            format!("\x1b[1m{title}\x1b[0m")
        } else {
            title
        };
        let _ = writeln!(streams.out, "{title}");
        if section.rows.is_empty() {
            let _ = writeln!(streams.out, "  Nothing here.");
            continue;
        }
        table::print(streams, COLUMNS, &section_records(section));
    }
}

/// One stderr line per organization that failed (once, however many sections asked it) and
/// per name that found nothing; exit 1 when there was any.
fn tell_problems(streams: &mut Streams, sections: &[SectionState]) -> Outcome {
    let mut said: Vec<String> = Vec::new();
    for section in sections {
        for (organization, problem) in &section.problems {
            let line = problem_line(&section.query.title, organization.as_ref(), problem);
            if !said.contains(&line) {
                streams.error(&line);
                said.push(line);
            }
        }
    }
    if said.is_empty() {
        Ok(())
    } else {
        Err(Failure::Said)
    }
}

fn problem_line(section: &str, organization: Option<&Named>, problem: &HomeError) -> String {
    match (organization, problem) {
        (Some(organization), HomeError::Api(error)) => format!(
            "quire: {}: {}",
            organization.title,
            error.command_line_message()
        ),
        (_, problem) => format!("quire: section “{section}”: {problem}"),
    }
}
