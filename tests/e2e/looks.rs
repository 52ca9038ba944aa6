//! Themes and the header in a real terminal: `--theme light` writes the light theme's colours
//! (and beats the config file's `theme`), `NO_COLOR` beats `--theme`, an unknown theme is a
//! clear error, and the header says who is signed in and where.

use std::time::Duration;

use crate::common::pty::PtyApp;

const WAIT: Duration = Duration::from_secs(30);

/// Runs `quire --demo` with `args` and `env` at 80x24 (a config file holding `config` when
/// given), opens the Quickstart, then quits; returns every byte written and the last screen.
fn quickstart(args: &[&str], env: &[(&str, &str)], config: Option<&str>) -> (Vec<u8>, String) {
    let config_home = tempfile::tempdir().unwrap();
    let mut env: Vec<(&str, &str)> = env.to_vec();
    let config_root = config_home.path().to_str().unwrap().to_string();
    if let Some(config) = config {
        let directory = config_home.path().join("quire");
        std::fs::create_dir_all(&directory).unwrap();
        std::fs::write(directory.join("config.toml"), config).unwrap();
        env.push(("XDG_CONFIG_HOME", config_root.as_str()));
    }
    let mut all_args = vec!["--demo"];
    all_args.extend_from_slice(args);
    let mut app = PtyApp::spawn_with_env(&all_args, 80, 24, &env);
    app.open_demo_quickstart(WAIT);
    app.wait_until_idle(WAIT);
    let screen = app.screen();
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some(), "q quits");
    app.settle();
    (app.raw_output(), screen)
}

/// Every SGR sequence's parameters (`ESC [ … m`) in `output`.
fn sgr_sequences(output: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(output);
    text.split("\u{1b}[")
        .skip(1)
        .filter_map(|sequence| {
            let end = sequence.find(|c: char| !(c.is_ascii_digit() || c == ';' || c == ':'))?;
            sequence[end..]
                .starts_with('m')
                .then(|| sequence[..end].to_string())
        })
        .collect()
}

/// Whether any SGR sequence sets a colour (30–37, 38, 40–47, 48, 58, 90–97, 100–107).
fn has_colour(output: &[u8]) -> bool {
    sgr_sequences(output).iter().any(|parameters| {
        parameters.split(';').any(|part| {
            matches!(
                part.parse::<u16>(),
                Ok(30..=38 | 40..=48 | 58 | 90..=97 | 100..=107)
            )
        })
    })
}

/// Whether an SGR sequence sets the 256-colour background `index`.
fn sets_background(output: &[u8], index: u8) -> bool {
    let wanted = ["48".to_string(), "5".to_string(), index.to_string()];
    sgr_sequences(output).iter().any(|parameters| {
        let parts: Vec<String> = parameters.split(';').map(str::to_string).collect();
        parts.windows(3).any(|window| window == wanted)
    })
}

#[test]
fn the_light_theme_writes_its_colours_and_beats_the_config_file() {
    // The config asks for dark; the flag wins.
    let (output, screen) = quickstart(&["--theme", "light"], &[], Some("theme = \"dark\"\n"));
    // light's tab and selection background is colour 25; dark's is 111.
    assert!(sets_background(&output, 25), "the light theme's background");
    assert!(!sets_background(&output, 111), "nothing of the dark theme");
    let header = screen.lines().next().unwrap_or_default();
    assert!(
        header.contains("Amara Okafor · demo sandbox"),
        "the header says who and where: {header}"
    );
    assert!(!screen.contains("demo-admin"), "never the token");

    let (output, _) = quickstart(&[], &[], Some("theme = \"dark\"\n"));
    assert!(sets_background(&output, 111), "the config file's theme");
}

#[test]
fn no_color_beats_the_theme_flag() {
    let (output, screen) = quickstart(&["--theme", "dark"], &[("NO_COLOR", "1")], None);
    assert!(screen.contains("Quickstart"));
    assert!(
        !has_colour(&output),
        "colours written with NO_COLOR: {:?}",
        sgr_sequences(&output)
            .into_iter()
            .filter(|s| !s.is_empty())
            .take(20)
            .collect::<Vec<_>>()
    );
}

#[test]
fn an_unknown_theme_is_a_clear_error_naming_the_built_in_ones() {
    let home = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(["--demo", "--theme", "plaid"])
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no theme `plaid`"), "{stderr}");
    assert!(
        stderr.contains("ansi16, dark, light, high-contrast"),
        "{stderr}"
    );
}

#[test]
fn colour_detection_reads_every_form() {
    assert!(!has_colour(b"\x1b[1;7m\x1b[39;49m\x1b[m"));
    assert!(has_colour(b"\x1b[1;31m"));
    assert!(has_colour(b"\x1b[38;5;200m"));
    assert!(sets_background(b"\x1b[1;48;5;25m", 25));
    assert!(!sets_background(b"\x1b[48;5;250m", 25));
}
