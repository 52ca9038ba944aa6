//! Mistakes in how quire is started (a flag, the environment, the config file), run as the
//! built binary: each is told in one plain line with status 2, never as a crash report with a
//! source location. And `--help` as a user reads it.

use std::process::{Command, Output};

/// Runs quire with `args` and `env` in a fresh HOME (no real config or token is read).
fn run_quire(args: &[&str], env: &[(&str, &str)]) -> Output {
    let home = tempfile::tempdir().expect("temp home");
    let mut command = Command::new(env!("CARGO_BIN_EXE_quire"));
    command
        .args(args)
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env_remove("GITBOOK_TOKEN")
        .env_remove("GITBOOK_API_URL")
        .env_remove("NO_COLOR");
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("run quire")
}

/// Asserts quire said `expected` (a part of its message) on one plain line of stderr and
/// exited with status 2.
fn assert_told_in_one_line(output: &Output, expected: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(2),
        "exit status; stderr: {stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr:?}");
    assert!(stderr.starts_with("quire: "), "{stderr:?}");
    assert!(stderr.contains(expected), "{stderr:?}");
    assert!(
        !stderr.contains("Location"),
        "no source location: {stderr:?}"
    );
    assert!(!stderr.contains('\u{1b}'), "no colour codes: {stderr:?}");
}

#[test]
fn an_unknown_theme_is_one_line_naming_the_built_in_themes() {
    let output = run_quire(&["--demo", "--theme", "solarized"], &[]);
    assert_told_in_one_line(&output, "no theme `solarized`");
    assert_told_in_one_line(&output, "ansi16, dark, light, high-contrast");
}

#[test]
fn an_unknown_colour_depth_is_one_line_naming_the_accepted_ones() {
    let output = run_quire(&["--demo", "--colors", "1000"], &[("NO_COLOR", "1")]);
    assert_told_in_one_line(&output, "--colors takes 16, 256 or truecolor, not `1000`");
}

#[test]
fn a_malformed_config_file_is_one_line_naming_the_file() {
    let directory = tempfile::tempdir().expect("temp dir");
    let config = directory.path().join("config.toml");
    std::fs::write(&config, "token = \"unterminated\nmouse = maybe\n").expect("write config");
    let path = config.to_str().expect("utf-8 path");
    let output = run_quire(&["--config", path], &[]);
    assert_told_in_one_line(&output, &format!("the config file {path} is not valid"));
}

#[test]
fn plain_http_to_another_host_is_refused_in_one_line() {
    let output = run_quire(
        &["--token", "secret-token"],
        &[("GITBOOK_API_URL", "http://docs.example.com")],
    );
    assert_told_in_one_line(&output, "http://docs.example.com is plain http");
    assert!(!String::from_utf8_lossy(&output.stderr).contains("secret-token"));
}

#[test]
fn help_names_the_environment_variables_without_their_values() {
    let output = run_quire(&["--help"], &[("GITBOOK_TOKEN", "secret-token")]);
    assert!(output.status.success(), "{output:?}");
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(help.contains("[env: GITBOOK_API_URL]"), "{help}");
    assert!(help.contains("[env: GITBOOK_TOKEN]"), "{help}");
    assert!(!help.contains("GITBOOK_API_URL="), "{help}");
    assert!(!help.contains("secret-token"), "{help}");
}

#[test]
fn a_mistyped_demo_token_is_refused_naming_every_demo_token() {
    let output = run_quire(&["--demo", "--token", "demo-reviwer"], &[]);
    assert_told_in_one_line(&output, "--demo knows no token `demo-reviwer`");
    for token in quire::sandbox::tokens::PERSONAS {
        assert_told_in_one_line(&output, token);
    }
}

#[test]
fn the_sandbox_banner_names_every_demo_token() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(["sandbox", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start quire sandbox");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let _address = lines.next();
    let banner = lines.next().expect("a second line").expect("text");
    let _ = child.kill();
    let _ = child.wait();
    for token in quire::sandbox::tokens::PERSONAS {
        assert!(banner.contains(token), "{token}: {banner}");
    }
    assert!(banner.contains("demo-newcomer") && banner.contains("demo-outsider"));
}
