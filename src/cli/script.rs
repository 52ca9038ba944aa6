//! What the scripting subcommands share: how a failure ends them (exit 1 refused or not
//! found, 2 a wrong command line, 4 the token refused), and how a name a person types (an
//! organization's or space's title, a page's path, `@me`) becomes the id the API wants.

use std::io::Write;

use crate::api::{ApiError, Client, Organization, Page, Space};
use crate::cli::api::{EXIT_FAILED, EXIT_NOT_REACHED, EXIT_SIGNED_OUT, EXIT_UNKNOWN, EXIT_USAGE};
use crate::cli::output::Streams;
use crate::config::ConfigFile;

/// The scripting subcommands, flattened into quire's own.
#[derive(Debug, clap::Subcommand)]
pub enum ScriptCommand {
    /// Organizations: `quire org list`.
    ///
    /// Every list prints a table on a terminal, tab-separated lines to a pipe, JSON with
    /// `--json FIELDS` (`--json` alone names the fields), and takes `--jq EXPR`.
    Org {
        #[command(subcommand)]
        command: crate::cli::org::OrgCommand,
    },
    /// Spaces: `quire space list [--org ORG]`, `quire space view SPACE [--share-key KEY]`.
    Space {
        #[command(subcommand)]
        command: crate::cli::space::SpaceCommand,
    },
    /// Pages: `quire page view SPACE PAGE [--raw]`.
    Page {
        #[command(subcommand)]
        command: crate::cli::page::PageCommand,
    },
    /// Search pages: `quire search QUERY [--space SPACE] [--org ORG]`.
    Search(crate::cli::search::SearchArgs),
    /// Change requests: `quire cr view NUMBER --space SPACE` (or QUIRE_SPACE); also list,
    /// diff, comment, review, merge and update.
    Cr(crate::cli::change_requests::CrArgs),
    /// The Home sections (the config file's `[[sections]]`, or the defaults: review requested
    /// from me, mine, ready to merge, recently merged) across every organization.
    #[command(mut_arg("json", crate::cli::output::fields(crate::cli::status::FIELDS)))]
    Status(crate::cli::status::StatusArgs),
}

impl ScriptCommand {
    /// `--json` alone: prints the field names the list offers and says true. They need no
    /// token and no request, so a script can ask before it signs in.
    pub fn print_field_names(&self, streams: &mut Streams) -> bool {
        use crate::cli::change_requests::CrCommand;
        let (output, fields) = match self {
            ScriptCommand::Org {
                command: crate::cli::org::OrgCommand::List { output, .. },
            } => (output, crate::cli::org::FIELDS),
            ScriptCommand::Space {
                command: crate::cli::space::SpaceCommand::List { output, .. },
            } => (output, crate::cli::space::FIELDS),
            ScriptCommand::Space {
                command: crate::cli::space::SpaceCommand::View { output, .. },
            } => (output, crate::cli::space::VIEW_FIELDS),
            ScriptCommand::Search(args) => (&args.output, crate::cli::search::FIELDS),
            ScriptCommand::Status(args) => (&args.output, crate::cli::status::FIELDS),
            ScriptCommand::Cr(args) => match &args.command {
                CrCommand::List { output, .. } => (output, crate::cli::change_requests::FIELDS),
                CrCommand::View { output, .. } => {
                    (output, crate::cli::change_requests::VIEW_FIELDS)
                }
                _ => return false,
            },
            ScriptCommand::Page { .. } => return false,
        };
        if !output.wants_field_names() {
            return false;
        }
        for field in fields {
            let _ = writeln!(streams.out, "{field}");
        }
        true
    }

    /// Runs the command; `config` is the config file's (sections, intervals).
    pub async fn run(
        &self,
        client: &Client,
        config: &ConfigFile,
        streams: &mut Streams,
    ) -> Outcome {
        match self {
            ScriptCommand::Org { command } => crate::cli::org::run(client, command, streams).await,
            ScriptCommand::Space { command } => {
                crate::cli::space::run(client, command, streams).await
            }
            ScriptCommand::Page { command } => {
                crate::cli::page::run(client, command, streams).await
            }
            ScriptCommand::Search(args) => crate::cli::search::run(client, args, streams).await,
            ScriptCommand::Cr(args) => {
                crate::cli::change_requests::run(client, args, config, streams).await
            }
            ScriptCommand::Status(args) => {
                crate::cli::status::run(client, config.home_sections(), args, streams).await
            }
        }
    }
}

/// Pages of the organizations or spaces read to find one by its id or title (the lists a
/// subcommand prints are bounded by [`crate::cli::listing`] instead).
pub const MAX_PAGES: usize = 50;

/// Why a subcommand failed.
#[derive(Debug)]
pub enum Failure {
    /// The command line is wrong: exit 2.
    Usage(String),
    /// The server answered an error: exit 4 for a refused token, else 1.
    Api(ApiError),
    /// Something else went wrong (not found by name, a conflict): exit 1.
    Failed(String),
    /// Already said on stderr: exit 1.
    Said,
    /// `cr watch` saw the change request end (merged, archived) in a state it was not told to
    /// wait for, so it can never reach one: exit 5, the reason on stderr.
    NotReached(String),
    /// A write whose answer was lost, and reading back could not tell whether it was stored:
    /// exit 3, never "run it again".
    Unknown(ApiError),
}

/// The result of a write after reading back: an outcome that stays unknown is its own failure.
pub fn written<T>(result: Result<T, ApiError>) -> Result<T, Failure> {
    result.map_err(|error| {
        if error.outcome_unknown() || matches!(error, ApiError::MaybeSaved { .. }) {
            Failure::Unknown(error)
        } else {
            Failure::Api(error)
        }
    })
}

/// What stderr says of a write whose outcome is unknown: what happened, and to look first.
pub fn unknown_outcome_message(error: &ApiError) -> String {
    match error {
        ApiError::MaybeSaved { .. } => format!("quire: {}", error.user_message()),
        _ => format!(
            "quire: outcome unknown: the answer to {} was lost and reading it back failed; the \
             server may have stored it. Look before running the command again.",
            error.endpoint()
        ),
    }
}

impl From<ApiError> for Failure {
    fn from(error: ApiError) -> Failure {
        Failure::Api(error)
    }
}

pub type Outcome = Result<(), Failure>;

/// Says `outcome` on stderr when it failed (naming `server`, the API root, when it could not
/// be reached); the exit status.
pub fn finish(streams: &mut Streams, outcome: Outcome, server: &str) -> i32 {
    streams.done();
    match outcome {
        Ok(()) => 0,
        Err(Failure::Usage(problem)) => {
            streams.error(&format!("quire: {problem}"));
            EXIT_USAGE
        }
        Err(Failure::Api(error)) => {
            streams.error(&error.command_line_message_at(server));
            if error.is_unauthorized() {
                EXIT_SIGNED_OUT
            } else {
                EXIT_FAILED
            }
        }
        Err(Failure::Failed(problem)) => {
            streams.error(&problem);
            EXIT_FAILED
        }
        Err(Failure::Said) => EXIT_FAILED,
        Err(Failure::NotReached(reason)) => {
            streams.error(&format!("quire: {reason}"));
            EXIT_NOT_REACHED
        }
        Err(Failure::Unknown(error)) => {
            streams.error(&unknown_outcome_message(&error));
            EXIT_UNKNOWN
        }
    }
}

/// Every organization the token sees.
pub async fn organizations(client: &Client) -> Result<Vec<Organization>, Failure> {
    Ok(client.list_up_to("/orgs", &[], MAX_PAGES).await?.items)
}

/// The organization `name` names: its id, or its title (case does not matter).
pub async fn organization(client: &Client, name: &str) -> Result<Organization, Failure> {
    not_empty("organization", name)?;
    let all = organizations(client).await?;
    let (by_id, others): (Vec<_>, Vec<_>) = all.into_iter().partition(|org| org.id == name);
    let mut candidates = if by_id.is_empty() {
        others
            .into_iter()
            .filter(|org| same_title(&org.title, name))
            .collect()
    } else {
        by_id
    };
    match candidates.len() {
        0 => Err(Failure::Failed(format!(
            "No organization has the id or title “{name}”."
        ))),
        1 => Ok(candidates.remove(0)),
        _ => Err(several(
            "organizations",
            name,
            candidates.iter().map(|org| &org.id),
        )),
    }
}

/// The space `name` names: its id, or its title in `org` (an id or title) or, without one, in
/// any organization the token sees.
pub async fn space(client: &Client, name: &str, org: Option<&str>) -> Result<Space, Failure> {
    not_empty("space", name)?;
    // An id has no spaces in it: a name with one is a title, and is not asked for as an id.
    if might_be_an_id(name) {
        match client.get_space(name).await {
            Ok(space) => return Ok(space),
            Err(error) if error.is_not_found() || error.status() == Some(400) => {}
            Err(error) => return Err(error.into()),
        }
    }
    if let Some(id) = crate::cli::names::known_id(org, name)
        && let Ok(space) = client.get_space(&id).await
        && same_title(&space.title, name)
    {
        return Ok(space);
    }
    let space = space_by_title(client, name, org).await?;
    crate::cli::names::remember(org, name, &space.id);
    Ok(space)
}

/// The id `name` most likely stands for, to read with before it is resolved: itself when it
/// may be an id, else the id its title had last time.
pub fn likely_id(name: &str, org: Option<&str>) -> Option<String> {
    if might_be_an_id(name) {
        Some(name.to_string())
    } else {
        crate::cli::names::known_id(org, name)
    }
}

/// Whether `name` could be a space's id rather than only a title.
pub fn might_be_an_id(name: &str) -> bool {
    !name.chars().any(char::is_whitespace)
}

/// The space titled `name` in `org` (else in any organization), every organization's spaces
/// asked at once.
async fn space_by_title(client: &Client, name: &str, org: Option<&str>) -> Result<Space, Failure> {
    let organizations = match org {
        Some(org) => vec![organization(client, org).await?],
        None => organizations(client).await?,
    };
    let lists = futures::future::join_all(organizations.iter().map(|org| {
        let path = format!("/orgs/{}/spaces", crate::api::encode_segment(&org.id));
        async move { client.list_up_to::<Space>(&path, &[], MAX_PAGES).await }
    }))
    .await;
    let mut candidates = Vec::new();
    for listed in lists {
        candidates.extend(
            listed?
                .items
                .into_iter()
                .filter(|space| same_title(&space.title, name)),
        );
    }
    match candidates.len() {
        0 if org.is_some() => Err(Failure::Failed(format!(
            "No space of {} has the id or title “{name}”.",
            organizations
                .first()
                .map_or("the organization", |org| org.title.as_str())
        ))),
        0 => Err(Failure::Failed(format!(
            "No space has the id or title “{name}”."
        ))),
        1 => Ok(candidates.remove(0)),
        _ => Err(several(
            "spaces",
            name,
            candidates.iter().map(|space| &space.id),
        )),
    }
}

/// The page of `space` that `name` names: its id, its path (with or without the leading
/// `/`), or its title.
pub async fn page(client: &Client, space: &str, name: &str) -> Result<Page, Failure> {
    find_page(flatten(client.list_pages(space).await?), name)
}

/// The page of `pages` that `name` names, as [`page`] finds it.
pub fn find_page(pages: Vec<Page>, name: &str) -> Result<Page, Failure> {
    not_empty("page", name)?;
    let path = name.trim_start_matches('/');
    let matches = |test: &dyn Fn(&Page) -> bool| pages.iter().filter(|page| test(page)).count();
    let tests: [&dyn Fn(&Page) -> bool; 3] = [
        &|page| page.id == name,
        &|page| {
            page.path
                .as_deref()
                .is_some_and(|own| own.trim_start_matches('/') == path)
        },
        &|page| same_title(&page.title, name),
    ];
    for test in tests {
        match matches(test) {
            0 => continue,
            1 => {
                return pages
                    .into_iter()
                    .find(|page| test(page))
                    .ok_or(Failure::Said);
            }
            _ => {
                let ids: Vec<&String> = pages
                    .iter()
                    .filter(|page| test(page))
                    .map(|page| &page.id)
                    .collect();
                return Err(several("pages", name, ids.into_iter()));
            }
        }
    }
    Err(Failure::Failed(format!(
        "No page of the space has the id, path or title “{name}”."
    )))
}

/// Every page of a tree, parents before their children.
pub fn flatten(tree: Vec<Page>) -> Vec<Page> {
    let mut flat = Vec::new();
    let mut stack: Vec<Page> = tree.into_iter().rev().collect();
    while let Some(mut page) = stack.pop() {
        let children = std::mem::take(&mut page.pages);
        stack.extend(children.into_iter().rev());
        flat.push(page);
    }
    flat
}

/// A user id from the command line: `@me` is the token's owner.
pub async fn user(client: &Client, name: &str) -> Result<String, Failure> {
    not_empty("user", name)?;
    if name == "@me" {
        Ok(client.current_user().await?.id)
    } else {
        Ok(name.to_string())
    }
}

/// An empty name (most often a shell variable that was never set) is a wrong command line, not
/// a search for something called "" that ends in a confusing error.
pub fn not_empty(what: &str, name: &str) -> Result<(), Failure> {
    if name.trim().is_empty() {
        Err(Failure::Usage(format!(
            "no {what} named: the argument is empty (a variable that is not set?)"
        )))
    } else {
        Ok(())
    }
}

fn same_title(title: &str, name: &str) -> bool {
    title.to_lowercase() == name.to_lowercase()
}

fn several<'a>(what: &str, name: &str, ids: impl Iterator<Item = &'a String>) -> Failure {
    let ids: Vec<&str> = ids.map(String::as_str).collect();
    Failure::Usage(format!(
        "several {what} are called “{name}”; name one by its id: {}",
        ids.join(", ")
    ))
}
