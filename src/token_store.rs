//! Where `quire auth login` keeps a token: the system keyring (Secret Service, Keychain,
//! Credential Manager), or, where no keyring answers (a bare SSH host has no Secret Service),
//! a file of its own readable by the user alone, in a folder only the user can enter. One login
//! per profile, with the server it was checked against, so it is only ever sent there.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The keyring's service name; the account is the profile's name.
pub const KEYRING_SERVICE: &str = "quire";

/// A token and the server that accepted it.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredLogin {
    pub api_url: String,
    pub token: String,
}

// Written by hand so that no log line or panic message ever holds the token.
impl std::fmt::Debug for StoredLogin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredLogin")
            .field("api_url", &self.api_url)
            .field("token", &"…")
            .finish()
    }
}

/// Where a login is kept.
#[derive(Debug, Clone, PartialEq)]
pub enum Place {
    Keyring,
    File(PathBuf),
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Keyring => write!(f, "the system keyring"),
            Place::File(path) => write!(f, "{} (readable by you alone)", path.display()),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("no keyring answered and quire has no data directory to keep the token in")]
    Nowhere,
    #[error("cannot write {path}: {message}")]
    Write { path: String, message: String },
    #[error("cannot remove {path}: {message}")]
    Remove { path: String, message: String },
}

/// One profile's place in the keyring and its fallback file.
pub struct TokenStore {
    keyring: Option<keyring::Entry>,
    file: Option<PathBuf>,
}

impl TokenStore {
    /// The system keyring's entry for `profile` and its file under quire's data directory.
    pub fn for_profile(profile: &str) -> TokenStore {
        TokenStore {
            keyring: keyring::Entry::new(KEYRING_SERVICE, profile).ok(),
            file: crate::paths::data_dir().map(|dir| file_for(&dir, profile)),
        }
    }

    /// The same profile's file alone, for when the keyring does not answer in time.
    pub fn file_only(profile: &str) -> TokenStore {
        TokenStore {
            keyring: None,
            file: crate::paths::data_dir().map(|dir| file_for(&dir, profile)),
        }
    }

    /// A store over a given keyring entry (a mock in tests) and file.
    pub fn new(keyring: Option<keyring::Entry>, file: Option<PathBuf>) -> TokenStore {
        TokenStore { keyring, file }
    }

    /// The login kept for this profile, the keyring's first, and where it was.
    pub fn load(&self) -> Option<(StoredLogin, Place)> {
        let from_keyring = self
            .keyring
            .as_ref()
            .and_then(|entry| entry.get_password().ok())
            .and_then(|text| serde_json::from_str::<StoredLogin>(&text).ok());
        if let Some(login) = from_keyring {
            return Some((login, Place::Keyring));
        }
        let path = self.file.as_ref()?;
        let text = std::fs::read_to_string(path).ok()?;
        let login = serde_json::from_str::<StoredLogin>(&text).ok()?;
        Some((login, Place::File(path.clone())))
    }

    /// Keeps `login` in the keyring, else in the file; an older copy in the file is removed
    /// once the keyring holds the new one, so the two never disagree.
    pub fn save(&self, login: &StoredLogin) -> Result<Place, StoreError> {
        let text = serde_json::to_string(login).unwrap_or_default();
        if let Some(entry) = &self.keyring {
            match entry.set_password(&text) {
                Ok(()) => {
                    if let Some(path) = &self.file {
                        let _ = remove_if_there(path);
                    }
                    return Ok(Place::Keyring);
                }
                Err(error) => tracing::info!(%error, "no keyring; the token goes to a file"),
            }
        }
        let path = self.file.as_ref().ok_or(StoreError::Nowhere)?;
        write_login_file(path, &text).map_err(|error| StoreError::Write {
            path: path.display().to_string(),
            message: error.to_string(),
        })?;
        Ok(Place::File(path.clone()))
    }

    /// Removes this profile's login from the keyring and the file; says from where.
    pub fn remove(&self) -> Result<Vec<Place>, StoreError> {
        let mut removed = Vec::new();
        if let Some(entry) = &self.keyring
            && entry.delete_credential().is_ok()
        {
            removed.push(Place::Keyring);
        }
        if let Some(path) = &self.file {
            match remove_if_there(path) {
                Ok(true) => removed.push(Place::File(path.clone())),
                Ok(false) => {}
                Err(error) => {
                    return Err(StoreError::Remove {
                        path: path.display().to_string(),
                        message: error.to_string(),
                    });
                }
            }
        }
        Ok(removed)
    }
}

/// The fallback file of `profile`: `tokens/PROFILE.json` in quire's data directory, which is
/// not the config directory people copy between machines or into dotfile repositories.
pub fn file_for(data_dir: &Path, profile: &str) -> PathBuf {
    data_dir.join("tokens").join(format!("{profile}.json"))
}

/// Writes the login through a temporary file renamed into place, both 0600 in a 0700 folder.
fn write_login_file(path: &Path, text: &str) -> std::io::Result<()> {
    let folder = path.parent().unwrap_or(Path::new("."));
    crate::vocabulary::drafts::create_private_dir(folder)?;
    // A folder made by hand may be wider than 0700; the token must not be listed to others.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o700))?;
    let temporary = path.with_extension("json.tmp");
    crate::vocabulary::drafts::write_private(&temporary, text)?;
    std::fs::rename(&temporary, path)
}

fn remove_if_there(path: &Path) -> std::io::Result<bool> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use keyring::mock::MockCredential;
    use std::os::unix::fs::PermissionsExt;

    fn mock_entry() -> keyring::Entry {
        let builder = keyring::mock::default_credential_builder();
        let credential = builder
            .build(None, KEYRING_SERVICE, "default")
            .expect("a mock credential");
        keyring::Entry::new_with_credential(credential)
    }

    fn login(token: &str) -> StoredLogin {
        StoredLogin {
            api_url: "https://api.example".into(),
            token: token.into(),
        }
    }

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn the_keyring_keeps_the_login_and_no_file_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let file = file_for(dir.path(), "default");
        let store = TokenStore::new(Some(mock_entry()), Some(file.clone()));
        assert_eq!(store.save(&login("secret")).unwrap(), Place::Keyring);
        assert!(!file.exists());
        assert_eq!(store.load(), Some((login("secret"), Place::Keyring)));
        assert_eq!(store.remove().unwrap(), [Place::Keyring]);
        assert_eq!(store.load(), None);
        assert!(store.remove().unwrap().is_empty());
    }

    #[test]
    fn without_a_keyring_the_login_goes_to_a_private_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = file_for(dir.path(), "work");
        let entry = mock_entry();
        let mock: &MockCredential = entry.get_credential().downcast_ref().unwrap();
        mock.set_error(keyring::Error::NoStorageAccess("no Secret Service".into()));
        let store = TokenStore::new(Some(entry), Some(file.clone()));
        assert_eq!(
            store.save(&login("secret")).unwrap(),
            Place::File(file.clone())
        );
        assert_eq!(mode(&file), 0o600);
        assert_eq!(mode(file.parent().unwrap()), 0o700);
        // The keyring has nothing (its failure was for the save), so the file answers.
        assert_eq!(
            store.load(),
            Some((login("secret"), Place::File(file.clone())))
        );
        assert_eq!(store.remove().unwrap(), [Place::File(file.clone())]);
        assert!(!file.exists());
    }

    #[test]
    fn a_keyring_that_answers_again_takes_over_from_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = file_for(dir.path(), "default");
        TokenStore::new(None, Some(file.clone()))
            .save(&login("old"))
            .unwrap();
        let store = TokenStore::new(Some(mock_entry()), Some(file.clone()));
        assert_eq!(
            store.load(),
            Some((login("old"), Place::File(file.clone())))
        );
        assert_eq!(store.save(&login("new")).unwrap(), Place::Keyring);
        assert!(!file.exists(), "the older copy is gone");
        assert_eq!(store.load(), Some((login("new"), Place::Keyring)));
    }

    #[test]
    fn a_widened_folder_is_made_private_again_and_nothing_prints_the_token() {
        let dir = tempfile::tempdir().unwrap();
        let file = file_for(dir.path(), "default");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::set_permissions(
            file.parent().unwrap(),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        let store = TokenStore::new(None, Some(file.clone()));
        store.save(&login("secret")).unwrap();
        assert_eq!(mode(file.parent().unwrap()), 0o700);
        assert!(!format!("{:?}", login("secret")).contains("secret"));
        let nowhere = TokenStore::new(None, None);
        assert!(matches!(
            nowhere.save(&login("secret")),
            Err(StoreError::Nowhere)
        ));
        assert_eq!(nowhere.load(), None);
    }
}
