//! `quire auth login|status|logout` as processes against `quire sandbox`, in a home of their
//! own: no keyring answers there (no D-Bus session), so the token goes to the private file,
//! and plain `quire api` (and `quire`) then start signed in. Profiles keep tokens apart, and the
//! palette switches between the config file's profiles.

use std::io::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::common::outage_sandbox::OutageSandbox;
use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;

const WAIT: Duration = Duration::from_secs(30);

/// A home for quire alone: config, data and the (absent) keyring are the test's.
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        Home {
            dir: tempfile::tempdir().expect("a home"),
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn data(&self) -> PathBuf {
        self.path().join("data/quire")
    }

    fn config_file(&self) -> PathBuf {
        self.path().join("config/quire/config.toml")
    }

    fn token_file(&self, profile: &str) -> PathBuf {
        self.data().join("tokens").join(format!("{profile}.json"))
    }

    /// `quire ARGS` in this home, `input` on its standard input.
    fn quire(&self, args: &[&str], input: &str) -> Output {
        self.quire_with_env(args, input, &[])
    }

    /// As [`Home::quire`], with variables set (`GITBOOK_API_URL`, …).
    fn quire_with_env(&self, args: &[&str], input: &str, env: &[(&str, &str)]) -> Output {
        let mut command = Command::new(env!("CARGO_BIN_EXE_quire"));
        command
            .args(args)
            .env("HOME", self.path())
            .env("XDG_CONFIG_HOME", self.path().join("config"))
            .env("XDG_DATA_HOME", self.path().join("data"))
            .env("XDG_STATE_HOME", self.path().join("state"))
            .env("XDG_RUNTIME_DIR", self.path())
            // No session bus here: never the keyring of whoever runs the tests.
            .env(
                "DBUS_SESSION_BUS_ADDRESS",
                "unix:path=/nonexistent/quire-test-bus",
            )
            .env_remove("GITBOOK_TOKEN")
            .env_remove("GITBOOK_API_URL")
            .env_remove("QUIRE_PROFILE")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().expect("quire runs");
        let mut stdin = child.stdin.take().expect("stdin");
        let _ = stdin.write_all(input.as_bytes());
        drop(stdin);
        child.wait_with_output().expect("quire ends")
    }
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// Every file under `dir`, read as text (what a token could have been written to).
fn every_text_under(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(every_text_under(&path));
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            found.push((path, text));
        }
    }
    found
}

#[test]
fn login_keeps_the_token_privately_and_every_command_then_uses_it() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();
    let home = Home::new();
    let config = home.config_file();
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "mouse = false\n").unwrap();

    let login = home.quire(
        &["auth", "login", "--with-token", "--api-url", base],
        "demo-admin\n",
    );
    assert_eq!(login.status.code(), Some(0), "{}", text(&login));
    assert!(
        text(&login).contains("Signed in to 127.0.0.1 as Amara Okafor (amara.okafor@"),
        "{}",
        text(&login)
    );
    let file = home.token_file("default");
    assert!(
        text(&login).contains(&file.display().to_string()),
        "{}",
        text(&login)
    );
    assert_eq!(mode(&file), 0o600);
    assert_eq!(mode(file.parent().unwrap()), 0o700);
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        "mouse = false\n",
        "the config file is not written"
    );
    let holding_the_token: Vec<PathBuf> = every_text_under(home.path())
        .into_iter()
        .filter(|(_, text)| text.contains("demo-admin"))
        .map(|(path, _)| path)
        .collect();
    assert_eq!(
        holding_the_token,
        std::slice::from_ref(&file),
        "only the token file holds it"
    );

    // The stored login names its server: nothing else needs to.
    let status = home.quire(&["auth", "status"], "");
    let said = text(&status);
    assert_eq!(status.status.code(), Some(0), "{said}");
    assert!(
        said.contains("Signed in to 127.0.0.1 as Amara Okafor"),
        "{said}"
    );
    assert!(said.contains(&file.display().to_string()), "{said}");
    assert!(
        !said.contains("demo-admin"),
        "the token is never shown: {said}"
    );

    let user = home.quire(&["api", "/user"], "");
    assert_eq!(user.status.code(), Some(0), "{}", text(&user));
    let body: serde_json::Value = serde_json::from_slice(&user.stdout).expect("JSON");
    assert_eq!(body["displayName"], "Amara Okafor");

    // A token given for the run wins over the stored one.
    let given = home.quire(
        &["--token", "demo-editor", "--api-url", base, "api", "/user"],
        "",
    );
    let body: serde_json::Value = serde_json::from_slice(&given.stdout).expect("JSON");
    assert_eq!(body["displayName"], "Jonas Berg");

    let logout = home.quire(&["auth", "logout"], "");
    assert_eq!(logout.status.code(), Some(0), "{}", text(&logout));
    assert!(text(&logout).contains("removed"), "{}", text(&logout));
    assert!(!file.exists());
    let after = home.quire(&["auth", "status"], "");
    assert_eq!(after.status.code(), Some(4), "{}", text(&after));
    assert!(text(&after).contains("Not signed in"), "{}", text(&after));
    let api = home.quire(&["--api-url", base, "api", "/user"], "");
    assert_eq!(api.status.code(), Some(4), "{}", text(&api));
}

#[test]
fn a_refused_token_is_not_stored() {
    let sandbox = SandboxProcess::start();
    let home = Home::new();
    let login = home.quire(
        &[
            "auth",
            "login",
            "--with-token",
            "--api-url",
            &sandbox.base_url,
        ],
        "not-a-token\n",
    );
    assert_eq!(login.status.code(), Some(4), "{}", text(&login));
    assert!(text(&login).contains("refused"), "{}", text(&login));
    assert!(!home.token_file("default").exists());
    assert!(
        every_text_under(home.path())
            .iter()
            .all(|(_, text)| !text.contains("not-a-token")),
        "nothing anywhere holds the token"
    );
    let empty = home.quire(
        &[
            "auth",
            "login",
            "--with-token",
            "--api-url",
            &sandbox.base_url,
        ],
        "\n",
    );
    assert_eq!(empty.status.code(), Some(2), "{}", text(&empty));
}

#[test]
fn the_advice_to_sign_in_names_the_profile_and_the_token_that_was_refused() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();
    let home = Home::new();
    let login_work = "quire auth login --profile work";
    let status = home.quire(
        &["--profile", "work", "auth", "status", "--api-url", base],
        "",
    );
    assert_eq!(status.status.code(), Some(4), "{}", text(&status));
    assert!(text(&status).contains(login_work), "{}", text(&status));
    // Anywhere but `auth`, a profile with no token and no table of the config file is a typo.
    let list = home.quire(&["--profile", "work", "org", "list", "--api-url", base], "");
    assert_eq!(list.status.code(), Some(2), "{}", text(&list));
    assert!(
        text(&list).contains("unknown profile 'work'; the known ones are default"),
        "{}",
        text(&list)
    );
    assert!(text(&list).contains(login_work), "{}", text(&list));

    // A refused --token is not the profile's: signing the profile in again would not help.
    let login = home.quire(
        &["auth", "login", "--with-token", "--api-url", base],
        "demo-admin\n",
    );
    assert_eq!(login.status.code(), Some(0), "{}", text(&login));
    let refused = home.quire(
        &["auth", "status", "--token", "nope", "--api-url", base],
        "",
    );
    assert_eq!(refused.status.code(), Some(4), "{}", text(&refused));
    assert!(
        text(&refused).contains("refuses the token from --token or GITBOOK_TOKEN"),
        "{}",
        text(&refused)
    );
    assert!(
        !text(&refused).contains("token of profile"),
        "{}",
        text(&refused)
    );
}

#[test]
fn a_profile_keeps_its_own_token_and_server() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();
    let home = Home::new();
    let admin = home.quire(
        &["auth", "login", "--with-token", "--api-url", base],
        "demo-admin\n",
    );
    assert_eq!(admin.status.code(), Some(0), "{}", text(&admin));
    let work = home.quire(
        &[
            "--profile",
            "work",
            "auth",
            "login",
            "--with-token",
            "--api-url",
            base,
        ],
        "demo-editor\n",
    );
    assert_eq!(work.status.code(), Some(0), "{}", text(&work));
    assert!(text(&work).contains("Jonas Berg"), "{}", text(&work));
    assert_eq!(mode(&home.token_file("work")), 0o600);

    let display_name = |args: &[&str]| -> String {
        let output = home.quire(args, "");
        let body: serde_json::Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|_| panic!("JSON: {}", text(&output)));
        body["displayName"].as_str().unwrap_or_default().to_string()
    };
    assert_eq!(display_name(&["api", "/user"]), "Amara Okafor");
    assert_eq!(
        display_name(&["--profile", "work", "api", "/user"]),
        "Jonas Berg"
    );
    let status = home.quire(&["auth", "status", "--profile", "work"], "");
    assert!(text(&status).contains("Profile: work"), "{}", text(&status));
    assert!(!text(&status).contains("demo-editor"), "{}", text(&status));

    // Signing out of one profile leaves the other signed in.
    let logout = home.quire(&["--profile", "work", "auth", "logout"], "");
    assert_eq!(logout.status.code(), Some(0), "{}", text(&logout));
    let gone = home.quire(&["--profile", "work", "auth", "status"], "");
    assert_eq!(gone.status.code(), Some(4), "{}", text(&gone));
    assert_eq!(display_name(&["api", "/user"]), "Amara Okafor");
    // Each profile writes a log of its own.
    assert!(home.data().join("quire.log").exists());
    assert!(home.data().join("quire-work.log").exists());
}

#[test]
fn after_login_plain_quire_starts_signed_in_and_the_palette_switches_profile() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();
    let home = Home::new();
    let login = home.quire(
        &["auth", "login", "--with-token", "--api-url", base],
        "demo-admin\n",
    );
    assert_eq!(login.status.code(), Some(0), "{}", text(&login));
    let config = home.config_file();
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        format!("[profiles.work]\napi_url = \"{base}\"\ntoken = \"demo-editor\"\n"),
    )
    .unwrap();

    let bus = format!("unix:path={}/no-bus", home.path().display());
    let env = [
        ("XDG_STATE_HOME", home.path().join("state")),
        ("XDG_RUNTIME_DIR", home.path().to_path_buf()),
    ];
    let env: Vec<(&str, String)> = env
        .iter()
        .map(|(name, path)| (*name, path.display().to_string()))
        .chain([("DBUS_SESSION_BUS_ADDRESS", bus)])
        .collect();
    let env: Vec<(&str, &str)> = env.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let Home { dir } = home;
    let mut app = PtyApp::spawn_in_home(dir, &[], 80, 24, &env);
    app.wait_for("Amara Okafor", WAIT);
    app.wait_for("Acme Robotics", WAIT);
    app.send(":");
    app.wait_for("Go to, run", WAIT);
    app.send("switch prof");
    app.wait_for("Switch profile: work", WAIT);
    app.send("\r");
    app.wait_for("Jonas Berg", WAIT);
    app.wait_for("Acme Robotics", WAIT);
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some(), "q quits the restarted quire");
}

#[test]
fn login_on_a_terminal_asks_for_the_token_without_showing_it() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();
    let home = tempfile::tempdir().expect("a home");
    let data = home.path().join("data/quire");
    let mut app = PtyApp::spawn_in_home(home, &["auth", "login", "--api-url", base], 80, 24, &[]);
    app.wait_for("Paste an API token for 127.0.0.1", WAIT);
    // What is typed is hidden before the prompt shows: a token pasted at once is not echoed.
    app.assert_echo_off();
    app.send("demo-admin\r");
    app.wait_for("as Amara Okafor", WAIT);
    assert!(app.wait_exit(WAIT).is_some_and(|status| status.success()));
    assert!(
        !app.screen().contains("demo-admin"),
        "the token is not echoed:\n{}",
        app.screen()
    );
    assert_eq!(mode(&data.join("tokens/default.json")), 0o600);
}

/// The servers the config file's tokens belong to; neither is the sandbox the tests point at.
const TOP_SERVER: &str = "https://docs.top.example";
const WORK_SERVER: &str = "https://docs.work.example";

/// A home whose config file holds a top-level token and a `work` profile's, each with its
/// server, both the sandbox's admin token (so a request that carried one would be answered).
fn home_with_configured_tokens() -> Home {
    let home = Home::new();
    let config = home.config_file();
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        format!(
            "token = \"demo-admin\"\napi_url = \"{TOP_SERVER}\"\nmouse = false\n\
             [profiles.work]\napi_url = \"{WORK_SERVER}\"\ntoken = \"demo-admin\"\n"
        ),
    )
    .unwrap();
    home
}

#[test]
fn a_configured_token_is_not_sent_to_a_server_named_elsewhere() {
    let server = OutageSandbox::start();
    let elsewhere = server.sandbox.base_url();
    let home = home_with_configured_tokens();
    let work_line =
        format!("the token of profile work belongs to {WORK_SERVER}; give --token for {elsewhere}");
    let top_line =
        format!("the config file's token belongs to {TOP_SERVER}; give --token for {elsewhere}");
    let by_flag = ["--profile", "work", "--api-url", &elsewhere, "org", "list"];
    /// The arguments, the variables set, and the line quire refuses with.
    type Case<'a> = (&'a [&'a str], Vec<(&'a str, &'a str)>, &'a str);
    let cases: [Case; 4] = [
        (&by_flag, vec![], &work_line),
        (
            &["--profile", "work", "org", "list"],
            vec![("GITBOOK_API_URL", elsewhere.as_str())],
            &work_line,
        ),
        (
            &["api", "/user"],
            vec![("QUIRE_PROFILE", "work"), ("GITBOOK_API_URL", &elsewhere)],
            &work_line,
        ),
        (
            &["--api-url", &elsewhere, "api", "/user"],
            vec![],
            &top_line,
        ),
    ];
    for (args, env, line) in cases {
        let refused = home.quire_with_env(args, "", &env);
        assert_eq!(
            refused.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&refused)
        );
        assert_eq!(
            String::from_utf8_lossy(&refused.stderr),
            format!("quire: {line}\n"),
            "{args:?}"
        );
        assert!(refused.stdout.is_empty(), "{args:?}: {}", text(&refused));
    }
    assert_eq!(
        server.sandbox.request_counts(),
        std::collections::HashMap::new(),
        "no request reached the other server"
    );

    // The app refuses at its start with the same line, before it takes the terminal.
    let Home { dir } = home;
    let mut app = PtyApp::spawn_in_home(dir, &by_flag[..4], 80, 24, &[]);
    app.wait_for("belongs to", WAIT);
    let status = app.wait_exit(WAIT).expect("quire ends");
    assert_eq!(status.exit_code(), 2);
    assert!(app.screen().contains(&work_line[..60]), "{}", app.screen());
    assert!(server.sandbox.request_counts().is_empty());

    // A token given with the address goes where it is pointed.
    let home = home_with_configured_tokens();
    let given = home.quire(
        &[
            "--profile",
            "work",
            "--api-url",
            &elsewhere,
            "--token",
            "demo-admin",
            "api",
            "/user",
        ],
        "",
    );
    assert_eq!(given.status.code(), Some(0), "{}", text(&given));
    assert_eq!(server.sandbox.requests("GET", "/user"), 1);
    server.shutdown();
}
