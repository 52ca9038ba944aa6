//! Profiles in the app: the palette offers "Switch profile: NAME" for each other profile of the
//! config file; choosing one ends the session with that profile to start again with, after
//! asking about unsaved work as quitting does.

use crate::common::views::demo_scene;
use crate::common::{char_key, ctrl, key};
use quire::api::models::Site;
use quire::app::palette::EntryKind;
use quire::app::{Cmd, Model, Overlay, update};
use quire::config::{self, ConfigFile};
use quire::sandbox::tokens;
use quire::screens::Screen;
use quire::screens::site::SiteScreen;
use ratatui::crossterm::event::KeyCode;

const CONFIG: &str = r#"
token = "top-level"
[profiles.work]
api_url = "https://work.example"
[profiles.home]
theme = "light"
"#;

fn config() -> ConfigFile {
    toml::from_str(CONFIG).expect("a valid config file")
}

fn type_text(model: &mut Model, text: &str) {
    for c in text.chars() {
        update(model, char_key(c));
    }
}

fn palette_labels(model: &Model) -> Vec<String> {
    let palette = model.palette.as_ref().expect("the palette is open");
    palette
        .shown
        .iter()
        .map(|shown| palette.entries[shown.entry].label.clone())
        .collect()
}

/// The demo's organizations, signed in with profile `current` of [`CONFIG`].
async fn signed_in_as(current: &str) -> Model {
    let mut model = demo_scene(tokens::ADMIN, "").await;
    model.profiles = config::other_profiles(&config(), current);
    model
}

#[tokio::test]
async fn the_palette_offers_the_other_profiles_of_the_config_file() {
    let mut model = signed_in_as("default").await;
    update(&mut model, char_key(':'));
    type_text(&mut model, "switch profile");
    let labels = palette_labels(&model);
    assert!(
        labels.contains(&"Switch profile: work".to_string()),
        "{labels:?}"
    );
    assert!(
        labels.contains(&"Switch profile: home".to_string()),
        "{labels:?}"
    );
    assert!(
        !labels.iter().any(|label| label.ends_with(": default")),
        "not the one in use: {labels:?}"
    );

    let mut work = signed_in_as("work").await;
    update(&mut work, char_key(':'));
    type_text(&mut work, "switch profile");
    let labels = palette_labels(&work);
    assert!(
        labels.contains(&"Switch profile: default".to_string()),
        "{labels:?}"
    );
    assert!(
        !labels.contains(&"Switch profile: work".to_string()),
        "{labels:?}"
    );
}

#[tokio::test]
async fn choosing_a_profile_ends_the_session_to_start_again_with_it() {
    let mut model = signed_in_as("default").await;
    update(&mut model, char_key(':'));
    type_text(&mut model, "switch profile: work");
    let chosen = model.palette.as_ref().unwrap().chosen().unwrap().clone();
    assert!(
        matches!(&chosen.kind, EntryKind::SwitchProfile(name) if name == "work"),
        "{chosen:?}"
    );
    assert_eq!(update(&mut model, key(KeyCode::Enter)), Cmd::Quit);
    assert!(model.quit);
    assert_eq!(model.switch_profile.as_deref(), Some("work"));
}

#[tokio::test]
async fn a_file_without_profiles_offers_no_switch() {
    let mut model = demo_scene(tokens::ADMIN, "").await;
    model.profiles = config::other_profiles(&ConfigFile::default(), "default");
    assert!(model.profiles.is_empty());
    update(&mut model, char_key(':'));
    type_text(&mut model, "switch profile");
    let labels = palette_labels(&model);
    assert!(
        !labels
            .iter()
            .any(|label| label.starts_with("Switch profile")),
        "{labels:?}"
    );
}

#[tokio::test]
async fn switching_with_unsaved_work_asks_first_and_staying_keeps_the_profile() {
    let mut model = signed_in_as("default").await;
    let site: Site = serde_json::from_value(serde_json::json!({
        "object": "site", "id": "site-1", "type": "premium", "title": "Acme Docs",
        "basename": "docs", "visibility": "public", "published": true,
        "createdAt": "2024-01-01T00:00:00Z",
        "urls": {"app": "https://app.example/site-1"},
        "permissions": {"view": true, "edit": true, "admin": true}
    }))
    .expect("a site");
    model
        .screens
        .push(Screen::Site(Box::new(SiteScreen::new("org-1", site))));
    // Retype the title without saving it.
    update(&mut model, char_key('g'));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, ctrl('u'));
    type_text(&mut model, "Renamed");
    update(&mut model, key(KeyCode::Enter));
    assert!(
        model.top().unsaved_work().is_some(),
        "there is unsaved work"
    );

    update(&mut model, char_key(':'));
    type_text(&mut model, "switch profile: work");
    assert_eq!(
        update(&mut model, key(KeyCode::Enter)),
        Cmd::None,
        "asks first"
    );
    assert!(matches!(model.overlay, Some(Overlay::ConfirmQuit { .. })));
    update(&mut model, char_key('n'));
    assert!(!model.quit);
    assert_eq!(model.switch_profile, None, "staying stays in this profile");
    // A later quit is a quit, not a switch.
    update(&mut model, char_key(':'));
    type_text(&mut model, "switch profile: home");
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('y'));
    assert!(model.quit);
    assert_eq!(model.switch_profile.as_deref(), Some("home"));
}
