//! quire's start: flags, settings, logging to a file, terminal setup and restore, then the loop.
//! `quire sandbox` serves the built-in API server instead. It lives in the library, not in the
//! binary's crate, so the generic code it instantiates (the loop over a real terminal, the
//! sandbox's router) is compiled once, in the library's parallel units, rather than again in a
//! binary crate that can only start after the library is done.

use std::io::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use color_eyre::eyre::{Result, WrapErr, eyre};
use ratatui::Terminal;

use crate::api::Client;
use crate::app::{Environment, Model, Size};
use crate::cli::output::Streams;
use crate::cli::signin::make_client;
use crate::cli::usage::UsageError;
use crate::config::{self, ConfigFile};
use crate::output::{OutputOptions, TerminalOutput};
use crate::runtime::{self, Effects, Exit};
use crate::sandbox::{FaultRule, Faults, Sandbox, SandboxOptions, tokens};
use crate::screens::Screen;
use crate::screens::home::HomeScreen;
use crate::screens::organizations::Organizations;
use crate::screens::welcome::Welcome;
use crate::terminal;
use crate::ui::markdown::highlight_worker;

/// How often the demo's other people act by default: often enough that someone trying
/// `--demo` sees a list change within a minute, seldom enough not to bury them in news.
const DEMO_ACTIVITY_SECS: u64 = 45;

#[derive(Debug, Parser)]
#[command(
    name = "quire",
    version,
    about = "A keyboard-first terminal client for your documentation platform"
)]
struct Cli {
    /// API token (also GITBOOK_TOKEN, or `token` in the config file, or `quire auth login`).
    #[arg(long, env = "GITBOOK_TOKEN", hide_env_values = true, global = true)]
    token: Option<String>,
    /// Whether `token` came from `--token` rather than the environment.
    #[arg(skip)]
    token_on_command_line: bool,
    /// API base URL (also GITBOOK_API_URL); default https://api.gitbook.com.
    // Help names the variable only: clap would print `GITBOOK_API_URL=` when it is unset.
    #[arg(long, env = "GITBOOK_API_URL", hide_env_values = true, global = true)]
    api_url: Option<String>,
    /// Allow plain http to hosts other than this machine.
    #[arg(long, global = true)]
    allow_insecure: bool,
    /// The account to use: a `[profiles.NAME]` table of the config file and the token `quire
    /// auth login --profile NAME` kept (also QUIRE_PROFILE).
    #[arg(
        long,
        env = "QUIRE_PROFILE",
        hide_env_values = true,
        global = true,
        value_name = "NAME"
    )]
    profile: Option<String>,
    /// Start the built-in sandbox server with demo data and connect to it as demo-admin (or
    /// the demo persona `--token` names).
    #[arg(long)]
    demo: bool,
    /// With --demo: delay every sandbox answer by this many milliseconds.
    #[arg(long, default_value_t = 0)]
    demo_latency_ms: u64,
    /// With --demo: add the big organization "Big Co" (10,000 pages, a 1 MB page, a change
    /// request with 2,000 threads).
    #[arg(long, requires = "demo")]
    big: bool,
    /// With --demo: serve only what the public service offers, with its body rules (see
    /// `quire sandbox --like-public`).
    #[arg(long, requires = "demo")]
    like_public: bool,
    /// With --demo: the sandbox goes out of reach for a while, `MODE:AFTER:FOR` (seconds),
    /// e.g. `refuse:60:120`, to try working offline. MODE: refuse, hang or 503.
    #[arg(long, requires = "demo", value_parser = crate::sandbox::OutageWindow::parse)]
    demo_outage: Option<crate::sandbox::OutageWindow>,
    /// With --demo: every this many seconds one of the demo's other people comments on,
    /// replies in, reviews or edits an open change request (0: nobody does).
    #[arg(
        long,
        env = "QUIRE_DEMO_ACTIVITY_SECS",
        default_value_t = DEMO_ACTIVITY_SECS,
        value_name = "SECS"
    )]
    demo_activity_secs: u64,
    /// The first screen once signed in: home (what needs you across organizations) or
    /// organizations (the organization list).
    #[arg(
        long,
        env = "QUIRE_START",
        default_value = "home",
        value_parser = ["home", "organizations"],
        value_name = "SCREEN"
    )]
    start: String,
    /// Config file to use instead of the default one.
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    /// Colours for highlighted code: 16, 256 or truecolor (default: guessed from the terminal).
    #[arg(long)]
    colors: Option<String>,
    /// Do not use the mouse (also `mouse = false` in the config file).
    #[arg(long)]
    no_mouse: bool,
    /// Theme: ansi16 (default), dark, light, high-contrast, or a theme file's path (beats
    /// `theme` in the config file; NO_COLOR still turns colours off).
    #[arg(long, value_name = "NAME|PATH")]
    theme: Option<String>,
    /// A metered link: do not refresh reviews and lists on an interval (unless the config file
    /// sets `watch_interval_secs`).
    #[arg(long)]
    metered: bool,
    /// Start without trying the network: show what was read before (the cache), send nothing.
    #[arg(long)]
    offline: bool,
    #[command(subcommand)]
    command: Option<Commands>,
}

#[derive(Debug, Subcommand)]
enum Commands {
    /// Serve the built-in API server on 127.0.0.1 (for trying quire or testing).
    Sandbox {
        #[arg(long, default_value_t = 0)]
        port: u16,
        #[arg(long, default_value_t = 0)]
        latency_ms: u64,
        /// A fault for matching requests, `[METHOD ]PATH=FAULT[xTIMES]` (repeatable), e.g.
        /// `GET /orgs=429:2x1`. FAULT: a status, 429:SECONDS, reset, truncate, html,
        /// latency:MILLIS or store-fail.
        #[arg(long = "fault", value_parser = parse_fault_rule)]
        faults: Vec<FaultRule>,
        /// Add the big organization "Big Co" (10,000 pages, a 1 MB page, a change request with
        /// 2,000 threads).
        #[arg(long)]
        big: bool,
        /// Answer like the public service: only the operations it offers (links, backlinks,
        /// space transfer, conversations and clusters answer 404), and its body rules (415 to a
        /// body where none is defined, 400 to a missing one).
        #[arg(long)]
        like_public: bool,
        /// Be out of reach for a while, `MODE:AFTER:FOR` (seconds), e.g. `refuse:30:60`.
        /// MODE: refuse (connections refused), hang (no answer) or 503.
        #[arg(long, value_parser = crate::sandbox::OutageWindow::parse)]
        outage: Option<crate::sandbox::OutageWindow>,
    },
    /// Render every screen from the demo data into SVG pictures.
    Screenshots {
        #[arg(long, default_value = "screenshots")]
        out: PathBuf,
    },
    /// Colours code blocks for quire in a process of its own (started by quire itself).
    #[command(name = "highlight-worker", hide = true)]
    HighlightWorker,
    /// Any endpoint, signed in as quire is: `quire api /orgs`, `quire api -X PATCH
    /// /orgs/ORG -f title=New`, `quire api --paginate /orgs/ORG/members`. JSON out.
    Api(crate::cli::api::ApiArgs),
    /// Conversations for documentation agents: ingest one from a JSON file.
    Conversations {
        #[command(subcommand)]
        command: crate::cli::conversations::ConversationsCommand,
    },
    /// Integrations: publish one from a manifest.
    Integrations {
        #[command(subcommand)]
        command: crate::cli::integrations::IntegrationsCommand,
    },
    /// Sign in once (`quire auth login`), see who is signed in, sign out.
    Auth {
        #[command(subcommand)]
        command: crate::cli::auth::AuthCommand,
    },
    /// `quire org|space|page|search|cr`, for scripts (see `crate::cli::script`).
    #[command(flatten)]
    Scripting(crate::cli::script::ScriptCommand),
    /// Print a completion script for a shell (bash, zsh or fish).
    Completions {
        shell: crate::cli::docs::CompletionShell,
    },
    /// Print quire's man page (roff).
    Man,
    /// The cache of what was read (for offline use): `quire cache info`, `quire cache clear`.
    Cache {
        #[command(subcommand)]
        command: crate::cli::cache::CacheCommand,
    },
    /// Writes queued while the server could not be reached: `quire outbox list`, `quire outbox
    /// send [ID…] [--yes]` (read back first where an earlier send got no answer).
    Outbox {
        #[command(subcommand)]
        command: crate::cli::outbox::OutboxCommand,
    },
}

/// What `quire` runs: `src/main.rs` only calls this.
pub fn main() -> Result<()> {
    // The worker talks over its standard streams only: no panic hook, log or runtime, and no
    // command line to read either (building clap's whole command maps pages of code it would
    // keep for its whole life).
    if std::env::args_os()
        .nth(1)
        .is_some_and(|arg| arg == highlight_worker::SUBCOMMAND)
    {
        highlight_worker::serve();
        return Ok(());
    }
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    cli.token_on_command_line =
        matches.value_source("token") == Some(clap::parser::ValueSource::CommandLine);
    forget_an_empty_space_variable(&mut cli, &matches);
    // Printing help text needs no terminal, log or runtime either.
    match cli.command {
        Some(Commands::Completions { shell }) => {
            crate::cli::docs::write_completions(shell, &mut Cli::command(), &mut std::io::stdout());
            return Ok(());
        }
        Some(Commands::Man) => {
            crate::cli::docs::write_man_page(Cli::command(), &mut std::io::stdout())?;
            return Ok(());
        }
        _ => {}
    }
    install_panic_hook()?;
    return_big_blocks_at_once();
    if let Ok(program) = std::env::current_exe() {
        highlight_worker::use_worker_program(program);
    }
    let _log_guard = init_logging(&crate::cli::signin::profile_for_log(&wanted(&cli)));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .wrap_err("cannot start the async runtime")?;
    // What the palette chose to switch to, if that is how the session ended.
    let mut next_profile = None;
    let result = runtime.block_on(async {
        match &cli.command {
            Some(Commands::Sandbox {
                port,
                latency_ms,
                faults,
                big,
                like_public,
                outage,
            }) => {
                let faults = Faults {
                    rules: faults.clone(),
                    like_public: *like_public,
                    ..Faults::default()
                };
                crate::cli::serve::serve_sandbox(*port, *latency_ms, faults, *big, *outage).await
            }
            Some(Commands::Screenshots { out }) => {
                for path in crate::screenshots::write_all(out).await? {
                    println!("{path}");
                }
                Ok(())
            }
            Some(Commands::HighlightWorker | Commands::Completions { .. } | Commands::Man) => {
                Ok(())
            }
            Some(Commands::Auth { command }) => {
                let code = run_auth(&cli, command).await?;
                exit_with(code)
            }
            Some(Commands::Api(args)) => {
                let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
                let Some(client) = signed_in_client(&cli, &mut err).await? else {
                    return exit_with(crate::cli::api::EXIT_SIGNED_OUT);
                };
                let code = crate::cli::api::run(&client, args, &mut out, &mut err).await;
                exit_with(code)
            }
            Some(Commands::Conversations { command }) => {
                let client = command_client(&cli).await?;
                let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
                let code =
                    crate::cli::conversations::run(&client, command, &mut out, &mut err).await;
                exit_with(code)
            }
            Some(Commands::Integrations { command }) => {
                let client = command_client(&cli).await?;
                let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
                let mut input = std::io::stdin().lock();
                let code =
                    crate::cli::integrations::run(&client, command, &mut input, &mut out, &mut err)
                        .await;
                exit_with(code)
            }
            Some(Commands::Scripting(command)) => scripted(&cli, command).await,
            Some(Commands::Cache { command }) => {
                let (file, server, token) = cache_scope(&cli).await?;
                let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
                exit_with(crate::cli::cache::run(
                    *command, &file, &server, &token, &mut out, &mut err,
                ))
            }
            Some(Commands::Outbox { command }) => {
                if cli.demo {
                    return Err(usage(crate::cli::outbox::NOT_IN_THE_DEMO));
                }
                let (file, server, token) = cache_scope(&cli).await?;
                let account = (server.as_str(), token.as_str());
                let code = crate::cli::outbox::run_for(command, &file, account, cli.offline);
                exit_with(code.await?)
            }
            None => {
                next_profile = run_app(&cli).await?;
                Ok(())
            }
        }
    });
    // Leave at once: a task still blocked on a terminal that went away (or a request in
    // flight) must not keep quire alive after it decided to end.
    runtime.shutdown_timeout(Duration::from_millis(100));
    highlight_worker::stop_worker();
    match result {
        Err(report) => match report.downcast_ref::<UsageError>() {
            Some(mistake) => exit_for_usage(mistake),
            None => Err(report),
        },
        Ok(()) => match next_profile {
            Some(profile) => restart_with_profile(&profile),
            None => exit_for_signal(),
        },
    }
}

/// Starts quire again as the user chose in the palette, with `--profile PROFILE`, in this
/// process (same terminal, same parent). A new start, rather than a new client in the running
/// loop, because everything of a session is per profile (server, token, theme, drafts, log,
/// what the server lacks) and is set once at the start: only a start leaves nothing of the
/// profile being left. The token and server given to this run (flags, GITBOOK_TOKEN,
/// GITBOOK_API_URL) are left out: they would win over the chosen profile's.
fn restart_with_profile(profile: &str) -> Result<()> {
    use std::os::unix::process::CommandExt;
    let program = std::env::current_exe().wrap_err("cannot find quire's program to restart")?;
    let started_with: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let error = std::process::Command::new(program)
        .args(crate::cli::signin::arguments_for_profile(
            &started_with,
            profile,
        ))
        .env_remove("GITBOOK_TOKEN")
        .env_remove("GITBOOK_API_URL")
        .env_remove("QUIRE_PROFILE")
        .exec();
    Err(eyre!(
        "cannot restart quire with profile {profile}: {error}"
    ))
}

/// A signal that ended quire ends it with the status a shell gives a process killed by it
/// (128 + its number), so a script or service manager tells a signal from a quit.
fn exit_for_signal() -> Result<()> {
    match terminal::terminating_signal() {
        Some(signal) => {
            let _ = std::io::stdout().flush();
            std::process::exit(128 + signal)
        }
        None => Ok(()),
    }
}

/// A mistake in a flag, the environment or the config file is told in one plain line, with
/// the status clap uses for a flag it does not accept; a report with its location is for bugs.
fn exit_for_usage(mistake: &UsageError) -> ! {
    let _ = writeln!(std::io::stderr(), "quire: {mistake}");
    std::process::exit(UsageError::EXIT_STATUS)
}

/// `error` as the user's mistake (see [`exit_for_usage`]).
pub(crate) fn usage(error: impl std::fmt::Display) -> color_eyre::Report {
    UsageError::new(error).into()
}

/// Pages are held in a few big buffers (a 1 MB page's text, its runs, its layout). glibc
/// allocates blocks over a threshold with mmap and unmaps them when freed, but raises that
/// threshold as such blocks are freed, after which the next page's buffers come from the heap
/// and stay resident when the page is closed. A fixed threshold keeps them returned at once
/// (~7 MB less resident with the 1 MB page open).
fn return_big_blocks_at_once() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes a malloc tuning parameter; called before other threads run.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

/// Restores the terminal before printing a panic report, so the report is readable and the
/// shell is usable afterwards.
fn install_panic_hook() -> Result<()> {
    let (panic_hook, eyre_hook) = color_eyre::config::HookBuilder::default().into_hooks();
    eyre_hook.install()?;
    std::panic::set_hook(Box::new(move |info| {
        // A panic on a worker thread (a render, a request) is caught and shown in the app; only
        // a panic of the main thread ends quire, and only then is the terminal handed back (when
        // quire had taken it: a subcommand's stdout gets no escape sequences).
        let report = panic_hook.panic_report(info).to_string();
        tracing::error!("{report}");
        if std::thread::current().name() == Some("main") {
            terminal::restore();
            // Not `eprintln!`: with the terminal gone it panics again, and a panic inside the
            // panic hook aborts.
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "{report}");
        }
    }));
    Ok(())
}

/// Logs go to a file in the data directory, never to the terminal quire draws on; one file per
/// profile, so one account's log never names another's organizations.
fn init_logging(profile: &str) -> Option<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let directory = config::data_dir()?;
    crate::vocabulary::drafts::create_private_dir(&directory).ok()?;
    // Readable by this user alone: the log names organizations, spaces and requests.
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(directory.join(config::log_file_name(profile)))
        .ok()?;
    // A log made by an older version may have been readable by everyone. Only a file of ours:
    // a log that is a device (a link to a null or full device) is not ours to change.
    if file.metadata().is_ok_and(|metadata| metadata.is_file()) {
        let _ = file.set_permissions(std::fs::Permissions::from_mode(0o600));
    }
    let filter = tracing_subscriber::EnvFilter::try_from_env("QUIRE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        // A log that cannot be written (a full disk) would otherwise say so on stderr, which
        // is the terminal quire draws on: the screen matters more than the log.
        .log_internal_errors(false)
        .try_init()
        .ok()
}

fn parse_fault_rule(text: &str) -> std::result::Result<FaultRule, String> {
    FaultRule::parse(text)
}

/// The flags that choose the account, for [`crate::cli::signin`].
fn wanted(cli: &Cli) -> crate::cli::signin::Wanted {
    crate::cli::signin::Wanted {
        token: cli.token.clone(),
        api_url: cli.api_url.clone(),
        profile: cli.profile.clone(),
        config: cli.config.clone(),
        allow_insecure: cli.allow_insecure,
        new_profile: false,
    }
}

/// What the app talks to: a client (none when signed out), the server's name for the header,
/// and the server and token the drafts are kept under.
type Connection = (Option<Client>, String, Option<(String, String)>);

/// An empty QUIRE_SPACE is unset, as an empty variable is to most programs (`cr list --org`
/// then reads the organization); an empty `--space` stays a wrong command line.
fn forget_an_empty_space_variable(cli: &mut Cli, matches: &clap::ArgMatches) {
    let Some(("cr", cr)) = matches.subcommand() else {
        return;
    };
    if cr.value_source("space") != Some(clap::parser::ValueSource::EnvVariable) {
        return;
    }
    if let Some(Commands::Scripting(crate::cli::script::ScriptCommand::Cr(args))) = &mut cli.command
        && args
            .space
            .as_deref()
            .is_some_and(|space| space.trim().is_empty())
    {
        args.space = None;
    }
}

/// The demo persona `--demo` signs in as: the one `--token` names, refused with the list when
/// the sandbox knows no such token; the admin without `--token`. A token from the environment
/// is for a real server, so one the sandbox does not know is ignored rather than refused.
fn demo_token(cli: &Cli) -> Result<String> {
    let Some(token) = cli.token.as_deref() else {
        return Ok(tokens::ADMIN.to_string());
    };
    if tokens::PERSONAS.contains(&token) {
        return Ok(token.to_string());
    }
    if !cli.token_on_command_line {
        return Ok(tokens::ADMIN.to_string());
    }
    Err(usage(format!(
        "--demo knows no token `{token}`; its tokens are {}",
        tokens::PERSONAS.join(", ")
    )))
}

/// The demo sandbox and a client signed in to it as a demo user.
async fn demo_connection(cli: &Cli) -> Result<(Sandbox, Connection)> {
    let options = SandboxOptions {
        latency: Duration::from_millis(cli.demo_latency_ms),
        big: cli.big,
        activity: (cli.demo_activity_secs > 0).then(|| Duration::from_secs(cli.demo_activity_secs)),
        faults: Faults {
            like_public: cli.like_public,
            ..Faults::default()
        },
    };
    let sandbox = Sandbox::start(SocketAddr::from(([127, 0, 0, 1], 0)), options)
        .await
        .wrap_err("cannot start the demo sandbox")?;
    if let Some(outage) = cli.demo_outage {
        outage.schedule(&sandbox);
    }
    let token = demo_token(cli)?;
    let client = make_client(&sandbox.base_url(), &token)?;
    // Who is signed in comes from `GET /user` in the header; the label names the server.
    let label = "demo sandbox".to_string();
    // The sandbox's port changes every run; its drafts are kept under one name.
    Ok((
        sandbox,
        (Some(client), label, Some(("demo".to_string(), token))),
    ))
}

/// The profile's server and token (given, configured or stored by `quire auth login`).
async fn account_connection(cli: &Cli) -> Result<Connection> {
    let session = crate::cli::signin::session(&wanted(cli)).await?;
    let label = session.server_label();
    Ok(match session.token {
        Some(token) => {
            let client = make_client(&session.api_url, &token)?;
            (Some(client), label, Some((session.api_url, token)))
        }
        None => (None, label, None),
    })
}

/// The TUI; ends with the profile chosen in the palette to switch to, if any.
async fn run_app(cli: &Cli) -> Result<Option<String>> {
    let (file, config_path) = crate::cli::signin::load_config(&wanted(cli))?;
    let config_label = config_path.as_ref().map_or_else(
        || "the config file".to_string(),
        |p| p.display().to_string(),
    );
    let profile = config::profile_name(cli.profile.as_deref(), &file).map_err(usage)?;
    let settings = config::profile_settings(&file, &profile);
    let mut theme = crate::cli::looks::load_theme(
        cli.theme.as_deref(),
        settings.theme.as_deref(),
        config_path.as_deref(),
    )?;
    let no_color = crate::output::no_color_requested();
    let render = crate::cli::looks::render_options(&theme, cli.colors.as_deref(), no_color)?;
    if no_color {
        theme = theme.without_colours();
    }

    // The demo sandbox lives as long as this function.
    let mut _sandbox = None;
    let (client, server_label, drafts_scope) = if cli.demo {
        let (sandbox, connection) = demo_connection(cli).await?;
        _sandbox = Some(sandbox);
        connection
    } else {
        account_connection(cli).await?
    };

    let home_sections = file.home_sections();
    let first = match client {
        Some(_) if cli.start == "organizations" => Screen::Organizations(Organizations::default()),
        Some(_) => Screen::Home(Box::new(HomeScreen::new(home_sections.clone()))),
        None => Screen::Welcome(Welcome),
    };
    let environment = Environment {
        server_label,
        config_path: config_label,
        render,
        clock: crate::ui::time::Clock::Real,
    };
    let mut model = Model::new(first, environment, Size::default());
    model.home_sections = home_sections;
    model.theme = theme.clone();
    if !cli.demo {
        model.profiles = config::other_profiles(&file, &profile);
    }
    model.watch = crate::vocabulary::watch::Watch::from_settings(
        file.watch_interval_secs,
        file.watch_unfocused_interval_secs,
        file.metered || cli.metered,
    );
    if let Err(error) = model.keymap.apply_overrides(&file.keys) {
        return Err(usage(format_args!(
            "{error} (in {})",
            model.environment.config_path
        )));
    }
    if let Some(directory) = config::state_dir() {
        model.palette_history =
            crate::app::palette::History::load(crate::app::palette::history_file(&directory));
    }
    terminal::use_mouse(!cli.no_mouse && file.mouse.unwrap_or(true));
    bring_own_files_up_to_date(drafts_scope.as_ref(), cli.demo);
    if let Some(notice) = crate::editor_leftovers::recover_at_start() {
        model.toast = Some(notice);
    }
    // A cache that cannot serve is the more urgent news: said over a recovered text.
    if let (Some(client), Some((server, token))) = (&client, &drafts_scope)
        && let Some(without) = crate::cli::cache::attach(client, &file, server, token, cli.offline)
    {
        model.toast = Some(crate::ui::notice::Notice::error(without));
    }
    if cli.offline {
        model.offline = crate::app::offline::OfflineState::started_offline();
    }
    model.outbox.send_when_back = file.outbox_send.unwrap_or_default();
    let effects = Effects {
        client,
        drafts: config::data_dir()
            .zip(drafts_scope)
            .map(|(dir, (server, token))| {
                crate::vocabulary::drafts::directory(&dir, &server, &token)
            }),
        theme,
        render,
    };

    // The config file's `notify`, or what the terminal understands.
    let notify = file.notify().unwrap_or_else(|| {
        crate::notification::NotifyStyle::for_terminal(|name| std::env::var(name).ok())
    });
    let mut host =
        terminal::RealHost::new(config::data_dir().map(|dir| dir.join("editing")), notify);
    let input = terminal::input_stream()?;
    terminal::enter()?;
    let backend = TerminalOutput::new(std::io::stdout(), OutputOptions::from_env());
    let result = match Terminal::new(backend) {
        Ok(mut tui) => {
            let result = runtime::run(&mut tui, input, &mut model, effects, &mut host).await;
            // ratatui's `Drop` shows the cursor and reports a failure with `eprintln!`, which
            // panics when the terminal is gone; `restore` below shows the cursor instead.
            std::mem::forget(tui);
            result
        }
        Err(error) => Err(error),
    };
    tracing::info!(?result, "the loop ended");
    // Writing to a terminal that went away fails; that is the end of the session, not an error
    // to report (to a terminal nobody reads).
    let result = match result {
        Err(error) if terminal::is_gone(&error) => Ok(Exit::TerminalGone),
        other => other,
    };
    terminal::restore();
    match result? {
        Exit::Quit => Ok(model.switch_profile.take()),
        Exit::Terminated | Exit::TerminalGone => Ok(None),
    }
}

/// What an earlier version left in quire's folders: drafts of an older layout are moved to where
/// this session finds them, then everything is made private to the user.
fn bring_own_files_up_to_date(drafts_scope: Option<&(String, String)>, demo: bool) {
    use crate::vocabulary::upgrade;
    if let (Some(data), Some((server, token))) = (config::data_dir(), drafts_scope) {
        let carried = upgrade::carry_old_drafts(&data, server, token, !demo);
        if carried > 0 {
            tracing::info!(carried, "drafts of an earlier version carried over");
        }
    }
    for root in [config::data_dir(), config::state_dir()]
        .into_iter()
        .flatten()
    {
        let tightened = upgrade::tighten(&root);
        if tightened > 0 {
            tracing::info!(tightened, root = %root.display(), "made private");
        }
    }
}

/// The client a command-line subcommand uses: the token and address as the app reads them
/// (see [`crate::cli::signin::session`]).
async fn command_client(cli: &Cli) -> Result<Client> {
    let session = crate::cli::signin::session(&wanted(cli)).await?;
    let token = session.token.ok_or_else(|| {
        usage(format!(
            "no API token: run `{}`, pass --token, set GITBOOK_TOKEN or put `token` in the \
             config file",
            crate::cli::auth::login_command(&session.profile)
        ))
    })?;
    make_client(&session.api_url, &token)
}

/// The config file, server and token whose cache `quire cache` looks at (the demo's with
/// `--demo`).
async fn cache_scope(cli: &Cli) -> Result<(ConfigFile, String, String)> {
    let file = match cli.config.clone().or_else(config::config_path) {
        Some(path) if path.exists() => config::load_file(&path).map_err(usage)?,
        _ => ConfigFile::default(),
    };
    if cli.demo {
        return Ok((file, "demo".into(), demo_token(cli)?));
    }
    let session = crate::cli::signin::session(&wanted(cli)).await?;
    let token = session
        .token
        .ok_or_else(|| usage("no API token: the cache is kept per token"))?;
    Ok((file, session.api_url, token))
}

/// The client of a subcommand, or None (said on `err`) when no token is set: a script tells
/// "not signed in" (exit 4) from a wrong command line (exit 2).
async fn signed_in_client(cli: &Cli, err: &mut dyn std::io::Write) -> Result<Option<Client>> {
    let signed_in = crate::cli::signin::signed_in(&wanted(cli), err).await?;
    Ok(signed_in.map(|(client, _, _)| client))
}

/// `quire auth …`: the exit status.
async fn run_auth(cli: &Cli, command: &crate::cli::auth::AuthCommand) -> Result<i32> {
    // `auth` is how a profile comes to be known: it says "not signed in" of a new one.
    let wanted = crate::cli::signin::Wanted {
        new_profile: true,
        ..wanted(cli)
    };
    let session = crate::cli::signin::session(&wanted).await?;
    crate::cli::auth::run(&session, command).await
}

/// A scripting subcommand (`quire org|space|page|search|cr`): signed in (else exit 4), run on
/// the process's streams, its failure said and its exit status returned.
async fn scripted(cli: &Cli, command: &crate::cli::script::ScriptCommand) -> Result<()> {
    let mut streams = Streams::std();
    if command.print_field_names(&mut streams) {
        return Ok(());
    }
    let signed_in = crate::cli::signin::signed_in(&wanted(cli), &mut streams.err).await?;
    let Some((client, api_url, token)) = signed_in else {
        return exit_with(crate::cli::api::EXIT_SIGNED_OUT);
    };
    let (config, _) = crate::cli::signin::load_config(&wanted(cli))?;
    if config.cache != Some(false)
        && let Some(data_dir) = config::data_dir()
    {
        crate::cli::names::keep_for(&data_dir, &api_url, &token);
    }
    let outcome = command.run(&client, &config, &mut streams).await;
    exit_with(crate::cli::script::finish(
        &mut streams,
        outcome,
        client.api_root(),
    ))
}

/// Ends a subcommand with its exit code (after the output is flushed).
fn exit_with(code: i32) -> Result<()> {
    if code == 0 {
        return Ok(());
    }
    use std::io::Write;
    let _ = std::io::stdout().flush();
    std::process::exit(code)
}
