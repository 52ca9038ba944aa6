//! `quire auth login|status|logout`: a token checked against the server and kept in the system
//! keyring (or a private file where there is none), so plain `quire` starts signed in. Exit
//! statuses as `quire api`: 0 done, 1 the server could not be asked, 2 a wrong command line,
//! 4 not signed in or a refused token.

use std::io::{BufRead, Write};

use clap::Subcommand;

use crate::api::Client;
use crate::api::models::User;
use crate::cli::api::{EXIT_FAILED, EXIT_SIGNED_OUT, EXIT_USAGE};
use crate::cli::signin::{Session, make_client, server_label, with_keyring};
use crate::config::TokenSource;
use crate::token_store::{Place, StoredLogin, TokenStore};
use crate::ui::sanitize::sanitize;

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Ask for a token (not echoed), check it with the server and keep it in the system keyring
    /// (or a file only you can read where there is no keyring).
    Login {
        /// Read the token from standard input instead of asking for it.
        #[arg(long)]
        with_token: bool,
    },
    /// Who is signed in, on which server, and where the token is kept (never the token).
    Status,
    /// Remove the token `quire auth login` kept for this profile.
    Logout,
}

/// Runs `command` for the account of `session`; the exit status.
pub async fn run(session: &Session, command: &AuthCommand) -> color_eyre::eyre::Result<i32> {
    let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
    match command {
        AuthCommand::Login { with_token } => {
            let token = match read_token(*with_token, &session.server_label()) {
                Ok(token) => token,
                Err(problem) => return Ok(refuse(&mut err, &problem)),
            };
            let client = make_client(&session.api_url, &token)?;
            let (profile, api_url) = (&session.profile, &session.api_url);
            let code = login(profile, api_url, &token, &client, &mut out, &mut err).await;
            let overridden = matches!(
                session.source,
                Some(TokenSource::Given | TokenSource::ConfigFile)
            );
            if code == 0 && overridden {
                let _ = writeln!(err, "{} It wins over the kept one.", still_given(session));
            }
            Ok(code)
        }
        AuthCommand::Status => {
            let client = match &session.token {
                Some(token) => Some(make_client(&session.api_url, token)?),
                None => None,
            };
            Ok(status(session, client.as_ref(), &mut out).await)
        }
        AuthCommand::Logout => Ok(logout(session, &mut out, &mut err).await),
    }
}

/// The token to sign in with: standard input's first line with `--with-token`, else asked for
/// on the terminal.
fn read_token(with_token: bool, server: &str) -> Result<String, String> {
    if with_token {
        token_from_input(&mut std::io::stdin().lock())
    } else if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        token_from_prompt(server)
    } else {
        Err("standard input is not a terminal: pass --with-token to read the token from it".into())
    }
}

/// `quire auth login`: `token` was read by the caller (a prompt or standard input).
pub async fn login(
    profile: &str,
    api_url: &str,
    token: &str,
    client: &Client,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let server = server_label(api_url);
    let user = match client.current_user().await {
        Ok(user) => user,
        Err(error) if error.is_unauthorized() => {
            let _ = writeln!(
                err,
                "{server} refused this token; nothing was stored. Check it and try again."
            );
            return EXIT_SIGNED_OUT;
        }
        Err(error) => {
            let message = sanitize(&error.command_line_message_at(client.api_root())).into_owned();
            let _ = writeln!(err, "{message}\nNothing was stored.");
            return EXIT_FAILED;
        }
    };
    let login = StoredLogin {
        api_url: api_url.to_string(),
        token: token.to_string(),
    };
    let name = profile.to_string();
    let fallback = profile.to_string();
    let copy = login.clone();
    let saved = with_keyring(
        move || TokenStore::for_profile(&name).save(&copy),
        move || TokenStore::file_only(&fallback).save(&login),
    )
    .await;
    match saved {
        Ok(place) => {
            let _ = writeln!(out, "Signed in to {server} as {}.", who(&user));
            let _ = writeln!(out, "{}", kept_in(profile, &place));
            0
        }
        Err(error) => {
            let _ = writeln!(err, "Signed in, but the token could not be kept: {error}");
            EXIT_FAILED
        }
    }
}

/// `quire auth status`.
pub async fn status(session: &Session, client: Option<&Client>, out: &mut dyn Write) -> i32 {
    let server = session.server_label();
    let (Some(client), Some(source)) = (client, session.source) else {
        let _ = writeln!(
            out,
            "Not signed in to {server} (profile {}). Run `{}`.",
            session.profile,
            login_command(&session.profile)
        );
        return EXIT_SIGNED_OUT;
    };
    let user = client.current_user().await;
    let code = match &user {
        Ok(user) => {
            let _ = writeln!(out, "Signed in to {server} as {}.", who(user));
            0
        }
        Err(error) if error.is_unauthorized() => {
            let _ = writeln!(out, "{server} refuses {}.", refused_token(session, source));
            EXIT_SIGNED_OUT
        }
        Err(error) => {
            let message = sanitize(&error.command_line_message()).into_owned();
            let _ = writeln!(out, "Cannot ask {server} who is signed in: {message}");
            EXIT_FAILED
        }
    };
    let _ = writeln!(out, "Profile: {}", session.profile);
    let _ = writeln!(out, "Server: {}", sanitize(&session.api_url));
    let _ = writeln!(out, "Token: {}", token_source(session, source));
    code
}

/// `quire auth logout`.
pub async fn logout(session: &Session, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let name = session.profile.clone();
    let fallback = session.profile.clone();
    let removed = with_keyring(
        move || TokenStore::for_profile(&name).remove(),
        move || TokenStore::file_only(&fallback).remove(),
    )
    .await;
    let places = match removed {
        Ok(places) => places,
        Err(error) => {
            let _ = writeln!(err, "{error}");
            return EXIT_FAILED;
        }
    };
    if places.is_empty() {
        let _ = writeln!(out, "No token was stored for profile {}.", session.profile);
    }
    for place in &places {
        let _ = writeln!(
            out,
            "Signed out of profile {}: the token was removed from {}.",
            session.profile,
            place_name(place)
        );
    }
    if matches!(
        session.source,
        Some(TokenSource::Given | TokenSource::ConfigFile)
    ) {
        let _ = writeln!(out, "{}", still_given(session));
    }
    0
}

/// Reads the token from the first line of `input` (`--with-token`).
pub fn token_from_input(input: &mut dyn BufRead) -> Result<String, String> {
    let mut line = String::new();
    input
        .read_line(&mut line)
        .map_err(|error| format!("cannot read the token: {error}"))?;
    non_empty(line)
}

/// Asks for the token on the terminal, without echoing it. The echo goes before the prompt is
/// written: a token pasted the moment the prompt shows is never displayed.
pub fn token_from_prompt(server: &str) -> Result<String, String> {
    let prompt = format!("Paste an API token for {server} (it is not shown): ");
    let failed = |error: std::io::Error| format!("cannot read the token: {error}");
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .map_err(failed)?;
    let hidden = HiddenTyping::start(&tty).map_err(failed)?;
    (&tty)
        .write_all(prompt.as_bytes())
        .and_then(|()| (&tty).flush())
        .map_err(failed)?;
    let mut token = String::new();
    std::io::BufReader::new(&tty)
        .read_line(&mut token)
        .map_err(failed)?;
    drop(hidden);
    non_empty(token)
}

/// A terminal that does not echo what is typed (but the Enter that ends it), until dropped.
struct HiddenTyping<'a> {
    tty: &'a std::fs::File,
    was: libc::termios,
}

impl<'a> HiddenTyping<'a> {
    fn start(tty: &'a std::fs::File) -> std::io::Result<HiddenTyping<'a>> {
        use std::os::fd::AsRawFd;
        let fd = tty.as_raw_fd();
        // SAFETY: an all-zero termios is a valid value for tcgetattr to fill in.
        let mut was: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: `fd` is an open descriptor and `was` a termios to write to.
        if unsafe { libc::tcgetattr(fd, &mut was) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let mut hidden = was;
        hidden.c_lflag &= !libc::ECHO;
        hidden.c_lflag |= libc::ECHONL;
        // SAFETY: `fd` is an open descriptor and `hidden` a termios read from it.
        if unsafe { libc::tcsetattr(fd, libc::TCSANOW, &hidden) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(HiddenTyping { tty, was })
    }
}

impl Drop for HiddenTyping<'_> {
    fn drop(&mut self) {
        use std::os::fd::AsRawFd;
        // SAFETY: the tty is open (borrowed for this value's life) and `was` its own termios.
        unsafe { libc::tcsetattr(self.tty.as_raw_fd(), libc::TCSANOW, &self.was) };
    }
}

fn non_empty(token: String) -> Result<String, String> {
    let token = token.trim().to_string();
    if token.is_empty() {
        Err("no token was given".to_string())
    } else {
        Ok(token)
    }
}

/// The exit status of a wrong `auth login` command line, said on `err`.
pub fn refuse(err: &mut dyn Write, problem: &str) -> i32 {
    let _ = writeln!(err, "quire auth login: {problem}");
    EXIT_USAGE
}

/// "Ada Lovelace (ada@example.com)", from the server's words, sanitized.
fn who(user: &User) -> String {
    let name = if user.display_name.trim().is_empty() {
        user.id.as_str()
    } else {
        user.display_name.as_str()
    };
    match user.email.as_deref().filter(|email| !email.is_empty()) {
        Some(email) => sanitize(&format!("{name} ({email})")).into_owned(),
        None => sanitize(name).into_owned(),
    }
}

fn kept_in(profile: &str, place: &Place) -> String {
    match place {
        Place::Keyring => format!("The token of profile {profile} is kept in the system keyring."),
        Place::File(_) => format!(
            "No system keyring answered; the token of profile {profile} is kept in {place}."
        ),
    }
}

fn place_name(place: &Place) -> String {
    match place {
        Place::Keyring => "the system keyring".to_string(),
        Place::File(path) => path.display().to_string(),
    }
}

fn token_source(session: &Session, source: TokenSource) -> String {
    match source {
        TokenSource::Given => "from --token or GITBOOK_TOKEN".to_string(),
        TokenSource::ConfigFile => format!("from the config file {}", config_label(session)),
        TokenSource::Stored => match &session.stored_in {
            Some(place) => format!("kept in {place}"),
            None => "kept by `quire auth login`".to_string(),
        },
    }
}

/// The command that signs `profile` in: the default profile needs no `--profile`.
pub fn login_command(profile: &str) -> String {
    if profile == crate::config::DEFAULT_PROFILE {
        "quire auth login".to_string()
    } else {
        format!("quire auth login --profile {profile}")
    }
}

/// Which token a server refused, and what to do: signing in again does not help while a flag,
/// the environment or the config file gives the token, since that one wins.
fn refused_token(session: &Session, source: TokenSource) -> String {
    match source {
        TokenSource::Given => "the token from --token or GITBOOK_TOKEN".to_string(),
        TokenSource::ConfigFile => format!(
            "the token of the config file {}; change it there",
            config_label(session)
        ),
        TokenSource::Stored => format!(
            "the token of profile {}. Run `{}` again",
            session.profile,
            login_command(&session.profile)
        ),
    }
}

fn still_given(session: &Session) -> String {
    match session.source {
        Some(TokenSource::ConfigFile) => format!(
            "The config file {} still holds a token for this profile.",
            config_label(session)
        ),
        _ => "--token or GITBOOK_TOKEN still gives a token.".to_string(),
    }
}

fn config_label(session: &Session) -> String {
    session
        .config_path
        .as_ref()
        .map_or_else(|| "(none)".to_string(), |path| path.display().to_string())
}
