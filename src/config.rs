//! Settings: command-line flags win over the environment (`GITBOOK_TOKEN`, `GITBOOK_API_URL`),
//! which wins over the config file (`config.toml` in the platform's config directory).

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

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
    // ── command palette ──
    /// `mouse = false` turns the mouse off (as `--no-mouse` does).
    pub mouse: Option<bool>,
    // ── review flow ──
    /// Seconds between refreshes of an open review and the change-request lists; `0` turns
    /// watching off. Default 120.
    pub watch_interval_secs: Option<u64>,
    /// A metered link: watching is off unless `watch_interval_secs` is set explicitly.
    #[serde(default)]
    pub metered: bool,
    /// `cache = false`: nothing read is kept on disk, and nothing is shown offline.
    pub cache: Option<bool>,
    /// The most the cache may take, in megabytes (default 200); the least recently used
    /// answers go first.
    pub cache_max_mb: Option<u64>,
}

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
}

/// The config directory's paths, for messages and for loading.
pub fn config_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "quire")
        .map(|dirs| dirs.config_dir().join("config.toml"))
}

/// Where the log file goes.
// ── command palette ──
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

pub fn data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "quire").map(|dirs| dirs.data_dir().to_path_buf())
}

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
    toml::from_str(&text).map_err(|error| ConfigError::Parse {
        path: path.display().to_string(),
        message: error.message().to_string(),
    })
}

/// The token and URL quire will use, each from the first place that has one.
#[derive(Debug, PartialEq)]
pub struct Resolved {
    pub token: Option<String>,
    pub api_url: String,
}

pub fn resolve(
    flag_token: Option<String>,
    env_token: Option<String>,
    flag_url: Option<String>,
    env_url: Option<String>,
    file: &ConfigFile,
) -> Resolved {
    let non_empty = |value: Option<String>| value.filter(|v| !v.trim().is_empty());
    Resolved {
        token: non_empty(flag_token)
            .or(non_empty(env_token))
            .or(non_empty(file.token.clone())),
        api_url: non_empty(flag_url)
            .or(non_empty(env_url))
            .or(non_empty(file.api_url.clone()))
            .unwrap_or_else(|| DEFAULT_API_URL.to_string()),
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

    #[test]
    fn flags_beat_environment_beat_file() {
        let file = ConfigFile {
            token: Some("from-file".into()),
            api_url: Some("https://file.example".into()),
            ..ConfigFile::default()
        };
        let all = resolve(
            Some("flag".into()),
            Some("env".into()),
            None,
            Some("https://env.example".into()),
            &file,
        );
        assert_eq!(all.token.as_deref(), Some("flag"));
        assert_eq!(all.api_url, "https://env.example");
        let only_file = resolve(None, Some(" ".into()), None, None, &file);
        assert_eq!(only_file.token.as_deref(), Some("from-file"));
        let nothing = resolve(None, None, None, None, &ConfigFile::default());
        assert_eq!(nothing.token, None);
        assert_eq!(nothing.api_url, DEFAULT_API_URL);
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
}
