//! Which account quire uses: the profile, its server and its token, the same for the app and
//! every subcommand (see [`crate::config::resolve`] for the order), and the stored login read
//! from the keyring without letting a keyring that never answers hold up the start.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use color_eyre::eyre::Result;

use crate::cli::usage::UsageError;
use crate::config::{self, ConfigFile, TokenSource};
use crate::token_store::{Place, StoredLogin, TokenStore};

/// A D-Bus call to a Secret Service that is registered but stuck waits 25 s by default; the
/// start of quire waits this long, then reads the file alone.
const KEYRING_PATIENCE: Duration = Duration::from_secs(4);

/// What the command line and environment asked for.
#[derive(Debug, Clone, Default)]
pub struct Wanted {
    /// `--token` or GITBOOK_TOKEN (clap reads both into one).
    pub token: Option<String>,
    /// `--api-url` or GITBOOK_API_URL.
    pub api_url: Option<String>,
    /// `--profile` or QUIRE_PROFILE.
    pub profile: Option<String>,
    /// `--config`.
    pub config: Option<PathBuf>,
    pub allow_insecure: bool,
    /// A profile nothing knows yet may be named (`quire auth`: `login --profile NEW` makes it).
    pub new_profile: bool,
}

/// The account quire uses this run.
pub struct Session {
    pub profile: String,
    pub api_url: String,
    pub token: Option<String>,
    pub source: Option<TokenSource>,
    /// Where the stored login was, when the token is the stored one.
    pub stored_in: Option<Place>,
    pub config_path: Option<PathBuf>,
}

impl Session {
    /// The server's host name, for messages ("api.gitbook.com").
    pub fn server_label(&self) -> String {
        server_label(&self.api_url)
    }
}

/// `api_url`'s host, or the whole address when it has none.
pub fn server_label(api_url: &str) -> String {
    url::Url::parse(api_url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| api_url.to_string())
}

/// A client for `base_url` with `token`, with quire's timeouts.
pub fn make_client(base_url: &str, token: &str) -> Result<crate::api::Client> {
    let config = crate::api::ClientConfig {
        base_url: base_url.to_string(),
        token: crate::api::Token::new(token),
        connect_timeout: Duration::from_secs(10),
        request_timeout: Duration::from_secs(30),
    };
    crate::api::Client::new(config).map_err(|error| color_eyre::eyre::eyre!("{error}"))
}

fn usage(error: impl std::fmt::Display) -> color_eyre::Report {
    UsageError::new(error).into()
}

/// The config file `--config` names, else the default one (missing: empty).
pub fn load_config(wanted: &Wanted) -> Result<(ConfigFile, Option<PathBuf>)> {
    let path = wanted.config.clone().or_else(config::config_path);
    let file = match &path {
        Some(path) => config::load_file(path).map_err(usage)?,
        None => ConfigFile::default(),
    };
    Ok((file, path))
}

/// The profile, server and token this run uses, the stored login read only when no flag,
/// variable or config file gives a token.
pub async fn session(wanted: &Wanted) -> Result<Session> {
    let (file, config_path) = load_config(wanted)?;
    let profile = config::profile_name(wanted.profile.as_deref(), &file).map_err(usage)?;
    let settings = config::profile_settings(&file, &profile);
    let own = config::Profile {
        name: &profile,
        settings: &settings,
    };
    let given = config::resolve(
        wanted.token.clone(),
        None,
        wanted.api_url.clone(),
        None,
        &own,
        None,
    )
    .map_err(usage)?;
    let (resolved, stored_in) = if given.token.is_some() {
        (given, None)
    } else {
        let stored = load_stored(&profile).await;
        let resolved = config::resolve(
            None,
            None,
            wanted.api_url.clone(),
            None,
            &own,
            stored.as_ref().map(|(login, _)| login),
        )
        .map_err(usage)?;
        let place = stored
            .map(|(_, place)| place)
            .filter(|_| resolved.source == Some(TokenSource::Stored));
        if resolved.token.is_none() && !wanted.new_profile {
            known_profile(wanted, &file, &profile)?;
        }
        (resolved, place)
    };
    config::check_url(&resolved.api_url, wanted.allow_insecure).map_err(usage)?;
    Ok(Session {
        profile,
        api_url: resolved.api_url,
        token: resolved.token,
        source: resolved.source,
        stored_in,
        config_path,
    })
}

/// A profile named by `--profile` or QUIRE_PROFILE that has no token anywhere must be one the
/// config file names, else it is a typo: said as one, with the profiles there are, rather than
/// as "not signed in".
fn known_profile(wanted: &Wanted, file: &ConfigFile, profile: &str) -> Result<()> {
    let named = wanted
        .profile
        .as_deref()
        .is_some_and(|name| !name.trim().is_empty());
    let known = config::configured_profiles(file);
    if !named
        || known.iter().any(|name| name == profile)
        || file.default_profile.as_deref() == Some(profile)
    {
        return Ok(());
    }
    Err(usage(format!(
        "unknown profile '{profile}'; the known ones are {} (`quire auth login --profile \
         {profile}` makes it)",
        known.join(", ")
    )))
}

/// The profile this run uses, for the log's name before anything else is read; a broken config
/// file is reported later, by the code that needs it.
pub fn profile_for_log(wanted: &Wanted) -> String {
    let file = load_config(wanted)
        .map(|(file, _)| file)
        .unwrap_or_default();
    config::profile_name(wanted.profile.as_deref(), &file)
        .unwrap_or_else(|_| config::DEFAULT_PROFILE.to_string())
}

/// The login `auth login` stored for `profile`: the keyring's, else the file's.
pub async fn load_stored(profile: &str) -> Option<(StoredLogin, Place)> {
    let name = profile.to_string();
    let fallback = profile.to_string();
    with_keyring(
        move || TokenStore::for_profile(&name).load(),
        move || TokenStore::file_only(&fallback).load(),
    )
    .await
}

/// Runs `with_keyring` on a thread of its own (the keyring's calls block), or `without` when
/// the keyring has not answered in [`KEYRING_PATIENCE`].
pub async fn with_keyring<T: Send + 'static>(
    with_keyring: impl FnOnce() -> T + Send + 'static,
    without: impl FnOnce() -> T,
) -> T {
    let call = tokio::task::spawn_blocking(with_keyring);
    match tokio::time::timeout(KEYRING_PATIENCE, call).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(_)) | Err(_) => {
            tracing::warn!("the keyring did not answer; using the file");
            without()
        }
    }
}

/// The arguments quire restarts with to switch to `profile`: the ones it was started with, less
/// any profile, token or server named there (they belong to the profile being left), plus
/// `--profile PROFILE`.
pub fn arguments_for_profile(started_with: &[OsString], profile: &str) -> Vec<OsString> {
    const OWN_VALUE: [&str; 3] = ["--profile", "--token", "--api-url"];
    let mut kept = Vec::new();
    let mut skip_value = false;
    for argument in started_with {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        let text = argument.to_string_lossy();
        if OWN_VALUE.contains(&text.as_ref()) {
            skip_value = true;
            continue;
        }
        if OWN_VALUE
            .iter()
            .any(|flag| text.starts_with(&format!("{flag}=")))
        {
            continue;
        }
        kept.push(argument.clone());
    }
    kept.push("--profile".into());
    kept.push(profile.into());
    kept
}

/// A client for the account `wanted` names, with the server and token it was made for; None
/// (said on `err`) when no token is set, so a script tells "not signed in" from a mistake.
pub async fn signed_in(
    wanted: &Wanted,
    err: &mut dyn std::io::Write,
) -> Result<Option<(crate::api::Client, String, String)>> {
    let session = session(wanted).await?;
    let Some(token) = session.token else {
        let _ = writeln!(
            err,
            "Not signed in: run `{}`, pass --token, set GITBOOK_TOKEN or put `token` in the \
             config file.",
            crate::cli::auth::login_command(&session.profile)
        );
        return Ok(None);
    };
    let client = make_client(&session.api_url, &token)?;
    Ok(Some((client, session.api_url, token)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restart_drops_the_profile_token_and_server_it_was_given() {
        let started: Vec<OsString> = [
            "--profile",
            "home",
            "--token=abc",
            "--no-mouse",
            "--api-url",
            "https://x",
            "--theme",
            "dark",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        let next = arguments_for_profile(&started, "work");
        assert_eq!(
            next,
            ["--no-mouse", "--theme", "dark", "--profile", "work"].map(OsString::from)
        );
    }
}
