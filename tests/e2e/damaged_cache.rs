//! A cache file that cannot serve (random bytes, another program's tables, a symbolic link) is
//! said once on screen with how to mend it; `quire cache info` says what is wrong, and `quire
//! cache clear` moves the file aside (a link itself, never its target) and starts a new one.

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use crate::common::account::Account;
use crate::common::outage_sandbox::OutageSandbox;
use crate::common::pty::PtyApp;

const WAIT: Duration = Duration::from_secs(30);

fn output_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

fn damaged_account(server: &OutageSandbox, bytes: &[u8]) -> Account {
    let account = Account::new(server);
    std::fs::create_dir_all(account.cache.parent().expect("a folder")).expect("the folder");
    std::fs::write(&account.cache, bytes).expect("the damaged file");
    account
}

fn aside_files(account: &Account) -> Vec<std::path::PathBuf> {
    let folder = account.cache.parent().expect("a folder");
    std::fs::read_dir(folder)
        .expect("the folder")
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.to_string_lossy().contains(".damaged-"))
        .collect()
}

#[test]
fn a_damaged_cache_is_said_and_cache_clear_moves_it_aside() {
    let server = OutageSandbox::start();
    let garbage = vec![0x5a_u8; 8192];
    let account = damaged_account(&server, &garbage);

    let info = account.run(&["cache", "info"]);
    assert_eq!(info.status.code(), Some(1), "{}", output_of(&info));
    assert!(
        output_of(&info).contains("`quire cache clear` moves it aside"),
        "{}",
        output_of(&info)
    );
    // The app runs without the cache and says so once, with the mend.
    let mut app = PtyApp::spawn_in_home(
        tempfile::TempDir::new().expect("unused"),
        &account.args.iter().map(String::as_str).collect::<Vec<_>>(),
        80,
        24,
        &[
            ("HOME", account.home.path().to_str().expect("utf-8")),
            (
                "XDG_DATA_HOME",
                account.home.path().join("data").to_str().expect("utf-8"),
            ),
        ],
    );
    app.wait_for("Cache and outbox off: its file is damaged", WAIT);
    app.send("q");
    let _ = app.wait_exit(WAIT);

    let cleared = account.run(&["cache", "clear"]);
    assert!(cleared.status.success(), "{}", output_of(&cleared));
    assert!(
        output_of(&cleared).contains("aside to"),
        "{}",
        output_of(&cleared)
    );
    let aside = aside_files(&account);
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(std::fs::read(&aside[0]).expect("kept"), garbage);
    let info = account.run(&["cache", "info"]);
    assert!(info.status.success(), "{}", output_of(&info));
    assert!(
        output_of(&info).contains("Answers kept: 0"),
        "{}",
        output_of(&info)
    );
    server.shutdown();
}

#[test]
fn another_programs_database_is_not_taken_for_the_cache() {
    let server = OutageSandbox::start();
    let account = Account::new(&server);
    std::fs::create_dir_all(account.cache.parent().expect("a folder")).expect("the folder");
    rusqlite::Connection::open(&account.cache)
        .expect("a database")
        .execute_batch("CREATE TABLE answers (name TEXT); INSERT INTO answers VALUES ('theirs');")
        .expect("another program's table");
    let info = account.run(&["cache", "info"]);
    assert_eq!(info.status.code(), Some(1), "{}", output_of(&info));
    assert!(
        output_of(&info).contains("another program's database"),
        "{}",
        output_of(&info)
    );
    let cleared = account.run(&["cache", "clear"]);
    assert!(cleared.status.success(), "{}", output_of(&cleared));
    assert_eq!(aside_files(&account).len(), 1);
    server.shutdown();
}

#[test]
fn a_symbolic_link_in_place_of_the_cache_is_never_followed() {
    let server = OutageSandbox::start();
    let account = Account::new(&server);
    let folder = account.cache.parent().expect("a folder").to_path_buf();
    std::fs::create_dir_all(&folder).expect("the folder");
    let elsewhere = account.home.path().join("someone-elses-file");
    std::fs::write(&elsewhere, b"not quire's").expect("the target");
    std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o644)).expect("mode");
    std::os::unix::fs::symlink(&elsewhere, &account.cache).expect("the link");

    let listed = account.run(&["outbox", "list"]);
    assert!(
        output_of(&listed).contains("symbolic link"),
        "{}",
        output_of(&listed)
    );
    let cleared = account.run(&["cache", "clear"]);
    assert!(cleared.status.success(), "{}", output_of(&cleared));
    let mode = std::fs::metadata(&elsewhere)
        .expect("there")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o644, "the target was not chmod-ed");
    assert_eq!(std::fs::read(&elsewhere).expect("there"), b"not quire's");
    assert!(
        !std::fs::symlink_metadata(&account.cache)
            .expect("a new cache")
            .file_type()
            .is_symlink()
    );
    server.shutdown();
}
