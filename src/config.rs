//! Settings: command-line flags win over the environment (`GITBOOK_TOKEN`, `GITBOOK_API_URL`),
//! which wins over the config file (`config.toml` in the platform's config directory), which
//! wins over the token `quire auth login` stored. A profile (`--profile`, `QUIRE_PROFILE`) is
//! one account: its own server, token, theme, stored login and log. A token of the config file
//! or a stored login goes only to the server it belongs to (see [`resolve`]).

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::token_store::StoredLogin;

mod home;

pub use home::Notify;

pub const DEFAULT_API_URL: &str = "https://api.gitbook.com";

/// What the config file may hold. Every key is optional.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    pub token: Option<String>,
    pub api_url: Option<String>,
    /// A built-in theme (ansi16, dark, light, high-contrast), a theme file's path, or the name
    /// of one in the config directory's `themes/`. `--theme` beats it.
    pub theme: Option<String>,
    /// Action name to keys, e.g. `down = ["j", "ctrl-n"]`.
    #[serde(default)]
    pub keys: HashMap<String, Vec<String>>,
    /// `mouse = false` turns the mouse off (as `--no-mouse` does).
    pub mouse: Option<bool>,
    /// Seconds between refreshes of an open review and the change-request lists; `0` turns
    /// watching off. Default 120.
    pub watch_interval_secs: Option<u64>,
    /// A metered link: watching is off unless `watch_interval_secs` is set explicitly.
    #[serde(default)]
    pub metered: bool,
    /// The profile used when neither `--profile` nor QUIRE_PROFILE names one.
    pub default_profile: Option<String>,
    /// `[profiles.NAME]` tables: other accounts, each on its own server.
    #[serde(default)]
    pub profiles: BTreeMap<String, ProfileTable>,
    /// `cache = false`: nothing read is kept on disk, and nothing is shown offline.
    pub cache: Option<bool>,
    /// The most the cache may take, in megabytes (default 200); the least recently used
    /// answers go first.
    pub cache_max_mb: Option<u64>,
    /// `outbox_send = "auto"`: writes queued while offline are sent as soon as the server
    /// answers again. The default, `"ask"`, sends them only from the outbox screen after a look.
    pub outbox_send: Option<crate::vocabulary::outbox::SendWhenBack>,
    /// `[[sections]]`: the Home view's and `quire status`'s sections, each a filter over the
    /// change requests of every organization; absent, the four defaults. Read with
    /// [`ConfigFile::home_sections`], checked by `home::check` when the file is read.
    pub sections: Option<Vec<toml::Table>>,
    /// How a watch tells the terminal something happened: `osc9`, `osc777`, `bell` or `off`;
    /// absent, quire picks from the terminal. Read with [`ConfigFile::notify`].
    pub notify: Option<String>,
    /// Seconds between refreshes while quire's terminal is not focused (at least
    /// `watch_interval_secs`; `0` stops watching then).
    pub watch_unfocused_interval_secs: Option<u64>,
}

/// What a profile sets for itself; the rest of the file (keys, mouse, watching) is shared.
#[derive(Debug, Default, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProfileTable {
    pub api_url: Option<String>,
    pub token: Option<String>,
    pub theme: Option<String>,
}

/// The profile of the top-level `token`, `api_url` and `theme`, used when none is named.
pub const DEFAULT_PROFILE: &str = "default";

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the config file {path}: {message}")]
    Read { path: String, message: String },
    #[error("the config file {path} is not valid: {message}")]
    Parse { path: String, message: String },
    #[error(
        "{url} is plain http to a host that is not this machine; the token would cross the \
         network unencrypted. Use https, or pass --allow-insecure if you really mean it."
    )]
    Insecure { url: String },
    #[error("the API URL `{url}` is not valid: {message}")]
    BadUrl { url: String, message: String },
    #[error("`{name}` is not a profile name: use letters, digits, `-` and `_` (at most 64)")]
    BadProfile { name: String },
}

/// The config directory's paths, for messages and for loading.
pub fn config_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "quire")
        .map(|dirs| dirs.config_dir().join("config.toml"))
}

/// Where the log file goes.
/// Where quire keeps what it remembers between runs (the palette's history): the XDG state
/// directory where there is one, else the data directory.
pub fn state_dir() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "quire")?;
    Some(
        dirs.state_dir()
            .unwrap_or_else(|| dirs.data_dir())
            .to_path_buf(),
    )
}

pub use crate::paths::data_dir;

/// Reads the config file; a missing file is an empty config, a broken one an error.
pub fn load_file(path: &Path) -> Result<ConfigFile, ConfigError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(ConfigFile::default());
        }
        Err(error) => {
            return Err(ConfigError::Read {
                path: path.display().to_string(),
                message: error.to_string(),
            });
        }
    };
    let parse_error = |message: String| ConfigError::Parse {
        path: path.display().to_string(),
        message,
    };
    let file: ConfigFile =
        toml::from_str(&text).map_err(|error| parse_error(error.message().to_string()))?;
    home::check(&file).map_err(parse_error)?;
    Ok(file)
}

/// Where the token in use came from, for `quire auth status`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TokenSource {
    /// `--token` or GITBOOK_TOKEN.
    Given,
    /// The config file's `token` (the profile's table for a named profile).
    ConfigFile,
    /// What `quire auth login` stored.
    Stored,
}

/// The token and URL quire will use, each from the first place that has one.
#[derive(Debug, PartialEq)]
pub struct Resolved {
    pub token: Option<String>,
    pub api_url: String,
    pub source: Option<TokenSource>,
}

/// A token given by flag or environment, then the profile's, then the stored login's. The
/// address comes with the token: a given token goes to the given or configured address (else
/// the default one); a configured token only to its own table's address (else the default
/// one), and a stored token only to the server it was stored for, so no token of the config
/// file or the keyring ever reaches a server it was not made for. A flag or variable naming
/// another server than the configured token's is refused (see [`TokenElsewhere`]): quietly
/// dropping the token would sign out, and sending it would hand it to a stranger.
pub fn resolve(
    flag_token: Option<String>,
    env_token: Option<String>,
    flag_url: Option<String>,
    env_url: Option<String>,
    profile: &Profile<'_>,
    stored: Option<&StoredLogin>,
) -> Result<Resolved, TokenElsewhere> {
    let non_empty = |value: Option<String>| value.filter(|v| !v.trim().is_empty());
    let given_url = non_empty(flag_url).or(non_empty(env_url));
    let own_url = non_empty(profile.settings.api_url.clone());
    let given = non_empty(flag_token).or(non_empty(env_token));
    let configured = non_empty(profile.settings.token.clone());
    let named_url = given_url.clone().or(own_url.clone());
    let (token, source) = match (given, configured) {
        (Some(token), _) => (Some(token), Some(TokenSource::Given)),
        (None, Some(token)) => {
            let token_server = own_url.unwrap_or_else(|| DEFAULT_API_URL.to_string());
            if let Some(named) = given_url.filter(|named| !same_server(named, &token_server)) {
                return Err(TokenElsewhere {
                    owner: profile.token_owner(),
                    token_server,
                    named_server: named,
                });
            }
            (Some(token), Some(TokenSource::ConfigFile))
        }
        (None, None) => {
            let stored = stored.filter(|login| !login.token.trim().is_empty());
            let api_url = named_url
                .or_else(|| stored.map(|login| login.api_url.clone()))
                .unwrap_or_else(|| DEFAULT_API_URL.to_string());
            let token = stored
                .filter(|login| same_server(&login.api_url, &api_url))
                .map(|login| login.token.clone());
            let source = token.as_ref().map(|_| TokenSource::Stored);
            return Ok(Resolved {
                token,
                api_url,
                source,
            });
        }
    };
    Ok(Resolved {
        token,
        api_url: named_url.unwrap_or_else(|| DEFAULT_API_URL.to_string()),
        source,
    })
}

/// A profile as [`resolve`] reads it: its name (for saying whose token it is) and what it sets.
pub struct Profile<'a> {
    pub name: &'a str,
    pub settings: &'a ProfileTable,
}

impl Profile<'_> {
    /// Whose token the config file holds, in words: the top level's for the default profile.
    fn token_owner(&self) -> String {
        if self.name == DEFAULT_PROFILE {
            "the config file's token".to_string()
        } else {
            format!("the token of profile {}", self.name)
        }
    }
}

/// The config file's token was about to go to a server its table does not name.
#[derive(Debug, PartialEq, thiserror::Error)]
#[error("{owner} belongs to {token_server}; give --token for {named_server}")]
pub struct TokenElsewhere {
    pub owner: String,
    pub token_server: String,
    pub named_server: String,
}

/// Two spellings of one API address (a trailing `/` or not).
pub fn same_server(one: &str, other: &str) -> bool {
    one.trim().trim_end_matches('/') == other.trim().trim_end_matches('/')
}

/// The profile in use: `--profile` or QUIRE_PROFILE, else the file's `default_profile`, else
/// [`DEFAULT_PROFILE`].
pub fn profile_name(named: Option<&str>, file: &ConfigFile) -> Result<String, ConfigError> {
    let name = named
        .filter(|name| !name.trim().is_empty())
        .or(file.default_profile.as_deref())
        .unwrap_or(DEFAULT_PROFILE)
        .trim();
    if is_profile_name(name) {
        Ok(name.to_string())
    } else {
        Err(ConfigError::BadProfile {
            name: name.to_string(),
        })
    }
}

/// A name safe in a file name and a keyring account: letters, digits, `-`, `_`.
pub fn is_profile_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_'))
}

/// What profile `name` sets: the top level of the file for the default profile (a
/// `[profiles.default]` table beating it key by key), its own table for any other. A named
/// profile never takes the top-level token, which is for another server; it falls back to the
/// top-level theme, which is only looks.
pub fn profile_settings(file: &ConfigFile, name: &str) -> ProfileTable {
    let table = file.profiles.get(name).cloned().unwrap_or_default();
    if name == DEFAULT_PROFILE {
        return ProfileTable {
            api_url: table.api_url.or_else(|| file.api_url.clone()),
            token: table.token.or_else(|| file.token.clone()),
            theme: table.theme.or_else(|| file.theme.clone()),
        };
    }
    ProfileTable {
        theme: table.theme.or_else(|| file.theme.clone()),
        ..table
    }
}

/// Every profile the file names, the default one first.
pub fn configured_profiles(file: &ConfigFile) -> Vec<String> {
    let mut names = vec![DEFAULT_PROFILE.to_string()];
    names.extend(
        file.profiles
            .keys()
            .filter(|name| name.as_str() != DEFAULT_PROFILE && is_profile_name(name))
            .cloned(),
    );
    names
}

/// What the palette offers to switch to: the file's profiles but the one in use.
pub fn other_profiles(file: &ConfigFile, current: &str) -> Vec<String> {
    configured_profiles(file)
        .into_iter()
        .filter(|name| name != current)
        .collect()
}

/// The log file of a profile: `quire.log` for the default one, `quire-NAME.log` for others.
pub fn log_file_name(profile: &str) -> String {
    if profile == DEFAULT_PROFILE {
        "quire.log".to_string()
    } else {
        format!("quire-{profile}.log")
    }
}

/// Refuses plain http except to this machine, so a token never crosses a network in clear.
pub fn check_url(url: &str, allow_insecure: bool) -> Result<(), ConfigError> {
    let parsed = url::Url::parse(url).map_err(|error| ConfigError::BadUrl {
        url: url.to_string(),
        message: error.to_string(),
    })?;
    match parsed.scheme() {
        "https" => Ok(()),
        "http" if allow_insecure || is_loopback(parsed.host()) => Ok(()),
        "http" => Err(ConfigError::Insecure {
            url: url.to_string(),
        }),
        other => Err(ConfigError::BadUrl {
            url: url.to_string(),
            message: format!("unsupported scheme `{other}`; use https"),
        }),
    }
}

fn is_loopback(host: Option<url::Host<&str>>) -> bool {
    match host {
        Some(url::Host::Domain(domain)) => domain.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default profile with `settings`.
    fn top(settings: &ProfileTable) -> Profile<'_> {
        Profile {
            name: DEFAULT_PROFILE,
            settings,
        }
    }

    fn stored(api_url: &str, token: &str) -> StoredLogin {
        StoredLogin {
            api_url: api_url.into(),
            token: token.into(),
        }
    }

    #[test]
    fn flags_beat_environment_beat_file_beat_the_stored_login() {
        let file = ConfigFile {
            token: Some("from-file".into()),
            api_url: Some("https://file.example".into()),
            ..ConfigFile::default()
        };
        let default = profile_settings(&file, DEFAULT_PROFILE);
        let login = stored("https://file.example/", "from-login");
        let all = resolve(
            Some("flag".into()),
            Some("env".into()),
            None,
            Some("https://env.example".into()),
            &top(&default),
            Some(&login),
        )
        .unwrap();
        assert_eq!(all.token.as_deref(), Some("flag"));
        assert_eq!(all.source, Some(TokenSource::Given));
        assert_eq!(all.api_url, "https://env.example");
        let only_file = resolve(
            None,
            Some(" ".into()),
            None,
            None,
            &top(&default),
            Some(&login),
        )
        .unwrap();
        assert_eq!(only_file.token.as_deref(), Some("from-file"));
        assert_eq!(only_file.source, Some(TokenSource::ConfigFile));
        let file_without_token = ProfileTable {
            token: None,
            ..default.clone()
        };
        let from_login = resolve(
            None,
            None,
            None,
            None,
            &top(&file_without_token),
            Some(&login),
        )
        .unwrap();
        assert_eq!(from_login.token.as_deref(), Some("from-login"));
        assert_eq!(from_login.source, Some(TokenSource::Stored));
        assert_eq!(from_login.api_url, "https://file.example");
        let nothing =
            resolve(None, None, None, None, &top(&ProfileTable::default()), None).unwrap();
        assert_eq!(nothing.token, None);
        assert_eq!(nothing.source, None);
        assert_eq!(nothing.api_url, DEFAULT_API_URL);
    }

    #[test]
    fn a_stored_token_goes_only_to_the_server_it_was_stored_for() {
        let login = stored("https://docs.example", "secret");
        let nothing_named = resolve(
            None,
            None,
            None,
            None,
            &top(&ProfileTable::default()),
            Some(&login),
        )
        .unwrap();
        assert_eq!(nothing_named.api_url, "https://docs.example");
        assert_eq!(nothing_named.token.as_deref(), Some("secret"));
        let elsewhere = resolve(
            None,
            None,
            Some("https://other.example".into()),
            None,
            &top(&ProfileTable::default()),
            Some(&login),
        )
        .unwrap();
        assert_eq!(elsewhere.api_url, "https://other.example");
        assert_eq!(elsewhere.token, None);
        // A configured token without an address goes to the default server, not the stored one.
        let configured = ProfileTable {
            token: Some("configured".into()),
            ..ProfileTable::default()
        };
        let resolved = resolve(None, None, None, None, &top(&configured), Some(&login)).unwrap();
        assert_eq!(resolved.api_url, DEFAULT_API_URL);
        assert_eq!(resolved.token.as_deref(), Some("configured"));
    }

    #[test]
    fn a_configured_token_goes_only_to_its_own_tables_server() {
        let text = r#"
            token = "top"
            api_url = "https://top.example"
            [profiles.work]
            api_url = "https://work.example/"
            token = "work-token"
            [profiles.bare]
            token = "bare-token"
        "#;
        let file: ConfigFile = toml::from_str(text).unwrap();
        let work_settings = profile_settings(&file, "work");
        let work = Profile {
            name: "work",
            settings: &work_settings,
        };
        let elsewhere = "https://elsewhere.example".to_string();
        // Named by flag or by the environment: refused, naming the profile and both servers.
        for (flag_url, env_url) in [
            (Some(elsewhere.clone()), None),
            (None, Some(elsewhere.clone())),
        ] {
            let refused = resolve(None, None, flag_url, env_url, &work, None).unwrap_err();
            assert_eq!(
                refused.to_string(),
                "the token of profile work belongs to https://work.example/; give --token for \
                 https://elsewhere.example"
            );
        }
        // The same server in another spelling is the same server.
        let same = resolve(
            None,
            None,
            Some("https://work.example".into()),
            None,
            &work,
            None,
        );
        assert_eq!(same.unwrap().token.as_deref(), Some("work-token"));
        // A token given with the address goes where it is pointed.
        let given = resolve(
            Some("given".into()),
            None,
            Some(elsewhere.clone()),
            None,
            &work,
            None,
        )
        .unwrap();
        assert_eq!(
            (given.token.as_deref(), given.api_url.as_str()),
            (Some("given"), elsewhere.as_str())
        );
        // The top level's token is bound to the top level's server.
        let default_settings = profile_settings(&file, DEFAULT_PROFILE);
        let refused = resolve(
            None,
            None,
            Some(elsewhere.clone()),
            None,
            &top(&default_settings),
            None,
        )
        .unwrap_err();
        assert_eq!(refused.owner, "the config file's token");
        assert_eq!(refused.token_server, "https://top.example");
        // A table without an address binds its token to the default server.
        let bare_settings = profile_settings(&file, "bare");
        let bare = Profile {
            name: "bare",
            settings: &bare_settings,
        };
        let refused = resolve(None, None, Some(elsewhere), None, &bare, None).unwrap_err();
        assert_eq!(refused.token_server, DEFAULT_API_URL);
        let default_server = resolve(None, None, Some(DEFAULT_API_URL.into()), None, &bare, None);
        assert_eq!(default_server.unwrap().token.as_deref(), Some("bare-token"));
    }

    #[test]
    fn a_named_profile_has_its_own_server_and_token_and_shares_the_rest() {
        let text = r#"
            token = "top"
            api_url = "https://top.example"
            theme = "dark"
            mouse = false
            [profiles.work]
            api_url = "https://work.example"
            token = "work-token"
            [profiles.bare]
            theme = "light"
        "#;
        let file: ConfigFile = toml::from_str(text).unwrap();
        let work = profile_settings(&file, "work");
        assert_eq!(work.api_url.as_deref(), Some("https://work.example"));
        assert_eq!(work.token.as_deref(), Some("work-token"));
        assert_eq!(work.theme.as_deref(), Some("dark"));
        let resolved = resolve(None, None, None, None, &top(&work), None).unwrap();
        assert_eq!(resolved.api_url, "https://work.example");
        assert_eq!(resolved.token.as_deref(), Some("work-token"));
        // The top-level token is for the top-level server: never sent by another profile.
        let bare = profile_settings(&file, "bare");
        assert_eq!(bare.token, None);
        assert_eq!(bare.api_url, None);
        assert_eq!(bare.theme.as_deref(), Some("light"));
        let resolved = resolve(None, None, None, None, &top(&bare), None).unwrap();
        assert_eq!(
            (resolved.api_url.as_str(), resolved.token),
            (DEFAULT_API_URL, None)
        );
        let default = profile_settings(&file, DEFAULT_PROFILE);
        assert_eq!(default.token.as_deref(), Some("top"));
        assert_eq!(
            configured_profiles(&file),
            [DEFAULT_PROFILE, "bare", "work"]
        );
    }

    #[test]
    fn the_profile_is_named_by_flag_then_file_then_default() {
        let mut file = ConfigFile::default();
        assert_eq!(profile_name(None, &file).unwrap(), DEFAULT_PROFILE);
        file.default_profile = Some("work".into());
        assert_eq!(profile_name(None, &file).unwrap(), "work");
        assert_eq!(profile_name(Some("home"), &file).unwrap(), "home");
        assert_eq!(profile_name(Some(""), &file).unwrap(), "work");
        for bad in ["../etc", "a b", "x/y", &"n".repeat(65)] {
            assert!(
                matches!(
                    profile_name(Some(bad), &file),
                    Err(ConfigError::BadProfile { .. })
                ),
                "{bad}"
            );
        }
        assert_eq!(log_file_name(DEFAULT_PROFILE), "quire.log");
        assert_eq!(log_file_name("work"), "quire-work.log");
    }

    #[test]
    fn plain_http_only_to_loopback() {
        assert!(check_url("https://api.gitbook.com", false).is_ok());
        assert!(check_url("http://127.0.0.1:8080", false).is_ok());
        assert!(check_url("http://[::1]:8080", false).is_ok());
        assert!(check_url("http://localhost:1", false).is_ok());
        assert!(matches!(
            check_url("http://docs.example.com", false),
            Err(ConfigError::Insecure { .. })
        ));
        assert!(check_url("http://docs.example.com", true).is_ok());
        assert!(check_url("ftp://x", true).is_err());
        assert!(check_url("not a url", false).is_err());
    }

    #[test]
    fn the_config_file_is_read_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        assert_eq!(load_file(&path).unwrap(), ConfigFile::default());
        std::fs::write(&path, "token = \"t\"\n[keys]\ndown = [\"n\"]\n").unwrap();
        let file = load_file(&path).unwrap();
        assert_eq!(file.token.as_deref(), Some("t"));
        assert_eq!(file.keys["down"], ["n"]);
        std::fs::write(&path, "tokn = 1").unwrap();
        assert!(matches!(load_file(&path), Err(ConfigError::Parse { .. })));
    }

    #[test]
    fn outbox_send_is_ask_or_auto_and_anything_else_is_refused() {
        use crate::vocabulary::outbox::SendWhenBack;
        let auto: ConfigFile = toml::from_str("outbox_send = \"auto\"").unwrap();
        assert_eq!(auto.outbox_send, Some(SendWhenBack::Auto));
        let ask: ConfigFile = toml::from_str("outbox_send = \"ask\"").unwrap();
        assert_eq!(ask.outbox_send, Some(SendWhenBack::Ask));
        assert_eq!(
            ConfigFile::default().outbox_send.unwrap_or_default(),
            SendWhenBack::Ask
        );
        assert!(toml::from_str::<ConfigFile>("outbox_send = \"sometimes\"").is_err());
    }
}
