//! `quire cr …`: change requests from a shell. A change request is named as the API names it,
//! by its space and its number (or id): `quire cr view 3 --space "Getting Started"`, the space
//! by id or title. `--space` may come from QUIRE_SPACE, so a script in one space names it once.
//!
//! [`list`] lists and views, [`diff`] prints a unified diff, [`act`] comments, reviews, merges
//! and updates, [`watch`] waits for a change request to be merged, approved or the like.

pub(crate) mod act;
mod diff;
mod list;
mod view;
mod watch;

use crate::api::{Client, Space};
use crate::cli::listing::LimitArgs;
use crate::cli::output::{JsonArgs, Streams, fields};
use crate::cli::script::{self, Failure, Outcome};
use crate::config::ConfigFile;

pub use list::FIELDS;
pub use view::VIEW_FIELDS;
pub use watch::{DEFAULT_INTERVAL_SECS, WatchState};

#[derive(Debug, clap::Args)]
pub struct CrArgs {
    /// The change request's space: an id or a title.
    #[arg(
        long,
        global = true,
        env = "QUIRE_SPACE",
        hide_env_values = true,
        value_name = "SPACE"
    )]
    pub space: Option<String>,
    /// The organization: where `cr list` looks without --space, and where a space's title
    /// is looked up.
    #[arg(long, global = true, value_name = "ORG")]
    pub org: Option<String>,
    #[command(subcommand)]
    pub command: CrCommand,
}

/// The statuses `cr list --status` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StatusChoice {
    Open,
    Draft,
    Merged,
    Archived,
    All,
}

#[derive(Debug, clap::Subcommand)]
pub enum CrCommand {
    /// List change requests of --space, of --org, or of every organization.
    #[command(mut_arg("json", fields(FIELDS)))]
    List {
        /// Which ones, by status.
        #[arg(long, value_enum, default_value = "open")]
        status: StatusChoice,
        /// Only those by this author: a user id, or @me.
        #[arg(long, value_name = "USER")]
        author: Option<String>,
        /// Only those whose review is asked of this user: a user id, or @me.
        #[arg(long, value_name = "USER")]
        reviewer: Option<String>,
        #[command(flatten)]
        limit: LimitArgs,
        #[command(flatten)]
        output: JsonArgs,
    },
    /// Show a change request: its status, its description, what it changes and its reviews.
    #[command(mut_arg("json", fields(VIEW_FIELDS)))]
    View {
        /// The change request's number (or id) in --space.
        number: String,
        #[command(flatten)]
        output: JsonArgs,
    },
    /// Print what a change request changes as a unified diff, page by page.
    Diff {
        /// The change request's number (or id) in --space.
        number: String,
    },
    /// Comment on a change request (on one page of it with --page).
    Comment {
        /// The change request's number (or id) in --space.
        number: String,
        /// The comment, markdown.
        #[arg(long, value_name = "TEXT", conflicts_with = "body_file")]
        body: Option<String>,
        /// Read the comment from a file; `-` reads standard input.
        #[arg(long, value_name = "FILE")]
        body_file: Option<std::path::PathBuf>,
        /// The page the comment is about: id, path or title.
        #[arg(long, value_name = "PAGE")]
        page: Option<String>,
    },
    /// Review a change request: approve it or ask for changes.
    #[command(group(clap::ArgGroup::new("verdict").required(true).args(["approve", "request_changes"])))]
    Review {
        /// The change request's number (or id) in --space.
        number: String,
        #[arg(long)]
        approve: bool,
        #[arg(long)]
        request_changes: bool,
        /// A comment with the review, markdown.
        #[arg(long, value_name = "TEXT")]
        body: Option<String>,
    },
    /// Merge a change request into main. Asks first on a terminal; otherwise needs --yes.
    Merge {
        /// The change request's number (or id) in --space.
        number: String,
        /// Merge without asking.
        #[arg(long, short = 'y')]
        yes: bool,
    },
    /// Bring main's changes into a change request.
    Update {
        /// The change request's number (or id) in --space.
        number: String,
    },
    /// Wait until a change request is merged, approved, has changes requested or is archived,
    /// printing each comment, reply, review, status change and new revision as it comes.
    /// Exit 0 when a state --until names is reached; 5 when it was merged or archived while
    /// waiting for something else.
    Watch {
        /// The change request's number (or id) in --space.
        number: String,
        /// The states to wait for, comma-separated (default: all four).
        #[arg(long, value_enum, value_delimiter = ',', value_name = "STATES")]
        until: Vec<WatchState>,
        /// Seconds between looks (default: the config file's watch_interval_secs, else 30).
        #[arg(
            long,
            value_name = "SECS",
            value_parser = clap::value_parser!(u64).range(1..=86_400)
        )]
        interval: Option<u64>,
    },
}

pub async fn run(
    client: &Client,
    args: &CrArgs,
    config: &ConfigFile,
    streams: &mut Streams,
) -> Outcome {
    if let CrCommand::List {
        status,
        author,
        reviewer,
        limit,
        output,
    } = &args.command
    {
        let filter = list::Filter {
            status: *status,
            author: author.as_deref(),
            reviewer: reviewer.as_deref(),
        };
        return list::list(client, args, &filter, limit, output, streams).await;
    }
    if let Some(number) = args.command.number() {
        script::not_empty("change request", number)?;
    }
    let space = space_of(client, args).await?;
    let space_id = space.id.as_str();
    match &args.command {
        CrCommand::List { .. } => Ok(()),
        CrCommand::View { number, output } => {
            view::view(client, &space, number, output, streams).await
        }
        CrCommand::Diff { number } => diff::run(client, space_id, number, streams).await,
        CrCommand::Comment {
            number,
            body,
            body_file,
            page,
        } => {
            let text = act::comment_text(body.as_deref(), body_file.as_deref())?;
            act::comment(client, space_id, number, &text, page.as_deref(), streams).await
        }
        CrCommand::Review {
            number,
            approve,
            body,
            ..
        } => act::review(client, space_id, number, *approve, body.as_deref(), streams).await,
        CrCommand::Merge { number, yes } => act::merge(client, &space, number, *yes, streams).await,
        CrCommand::Update { number } => act::update(client, space_id, number, streams).await,
        CrCommand::Watch {
            number,
            until,
            interval,
        } => {
            let seconds = interval
                .or(config.watch_interval_secs.filter(|seconds| *seconds > 0))
                .unwrap_or(DEFAULT_INTERVAL_SECS);
            let watch = watch::Watch {
                client,
                space: space_id,
                number,
                until,
                interval: std::time::Duration::from_secs(seconds),
            };
            watch.run(streams).await
        }
    }
}

impl CrCommand {
    /// The change request a command acts on; `list` acts on none.
    fn number(&self) -> Option<&str> {
        match self {
            CrCommand::List { .. } => None,
            CrCommand::View { number, .. }
            | CrCommand::Diff { number }
            | CrCommand::Comment { number, .. }
            | CrCommand::Review { number, .. }
            | CrCommand::Merge { number, .. }
            | CrCommand::Update { number }
            | CrCommand::Watch { number, .. } => Some(number),
        }
    }
}

/// The space `--space` names; a change request cannot be named without it.
async fn space_of(client: &Client, args: &CrArgs) -> Result<Space, Failure> {
    let Some(space) = &args.space else {
        return Err(Failure::Usage(
            "name the change request's space: --space SPACE (an id or a title) or QUIRE_SPACE"
                .into(),
        ));
    };
    script::space(client, space, args.org.as_deref()).await
}
