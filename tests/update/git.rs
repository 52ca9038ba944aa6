//! Layer 1 for the git sync screen: `update` on its own. Keys and answers in, the state and the
//! exact `GitCall`s out; credentials sent but never in a notice, a confirmation or `Debug`.

use crate::common::drafts::{discards_draft, flat, saved_draft};
use crate::common::*;
use quire::api::models::{GitSync, Space};
use quire::api::{ApiError, GitDirection, GitSyncRequest};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, Msg, RequestId, Size, update};
use quire::screens::git::GitScreen;
use quire::screens::{Screen, ScreenState};
use quire::ui::keymap::Action;
use quire::vocabulary::git::{GitCall, GitDetails, GitResponse};
use ratatui::crossterm::event::KeyCode;
use serde_json::json;

const SECRET_URL: &str = "https://ada:s3cret@github.com/acme/docs";

fn space(sync: bool, admin: bool) -> Space {
    let mut value = space_json("s-docs", "Docs", None);
    value["permissions"] = json!({"view": true, "admin": admin, "triggerGitSync": sync});
    from_json(value)
}

fn details(provider: Option<&str>) -> GitDetails {
    GitDetails {
        info: provider.map(|provider| GitSync {
            repo_name: Some("acme/docs".into()),
            installation_provider: Some(provider.into()),
            url: Some("https://github.com/acme/docs".into()),
            updated_at: Some("2024-05-02T14:03:00Z".into()),
            ..GitSync::default()
        }),
        git_ref: provider.map(|_| "refs/heads/main".to_string()),
    }
}

fn git_model(space: Space, loaded: GitDetails) -> Model {
    let mut model = Model::new(
        Screen::Git(Box::new(GitScreen::new(space))),
        environment(),
        Size {
            width: 80,
            height: 24,
        },
    );
    let (request, call) = only_request(&model.init());
    assert_eq!(
        call,
        ApiCall::Git(GitCall::Info {
            space: "s-docs".into()
        })
    );
    respond(
        &mut model,
        request,
        ApiResponse::Git(GitResponse::Details(Ok(loaded))),
    );
    model
}

fn screen(model: &Model) -> &GitScreen {
    match model.top() {
        Screen::Git(screen) => screen,
        other => panic!("expected the git screen, got {}", other.title()),
    }
}

fn notice(model: &Model) -> String {
    screen(model)
        .notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

fn git_call(cmd: &Cmd) -> (RequestId, GitCall) {
    match only_request(cmd) {
        (request, ApiCall::Git(call)) => (request, call),
        (_, other) => panic!("expected a git call, got {other:?}"),
    }
}

fn type_text(model: &mut Model, text: &str) {
    for c in text.chars() {
        update(model, char_key(c));
    }
}

fn clear_field(model: &mut Model) {
    update(model, ctrl('u'));
    update(model, key(KeyCode::End));
    for _ in 0..80 {
        update(model, key(KeyCode::Backspace));
    }
}

#[test]
fn import_is_confirmed_with_the_branch_and_sends_the_credentials_masked_elsewhere() {
    let mut model = git_model(space(true, true), details(None));
    update(&mut model, char_key('i'));
    clear_field(&mut model);
    type_text(&mut model, SECRET_URL);
    update(&mut model, key(KeyCode::Tab));
    clear_field(&mut model);
    type_text(&mut model, "release");
    update(&mut model, key(KeyCode::Tab));
    update(&mut model, key(KeyCode::Tab));
    update(&mut model, char_key(' ')); // standalone
    update(&mut model, key(KeyCode::Tab));
    type_text(&mut model, "docs/"); // the project directory
    assert_eq!(update(&mut model, key(KeyCode::Enter)), Cmd::None);
    let (confirm, _) = screen(&model).confirm.clone().expect("asks first");
    assert!(
        confirm.question.contains("Import branch release"),
        "{confirm:?}"
    );
    assert!(
        confirm.consequence.contains("ada:****@github.com"),
        "{confirm:?}"
    );
    assert!(!confirm.text().contains("s3cret"));
    let cmd = update(&mut model, char_key('y'));
    assert!(
        !format!("{cmd:?}").contains("s3cret"),
        "Debug masks: {cmd:?}"
    );
    let (request, call) = git_call(&cmd);
    assert_eq!(
        call,
        GitCall::Sync {
            space: "s-docs".into(),
            direction: GitDirection::Import,
            request: GitSyncRequest {
                url: SECRET_URL.into(),
                git_ref: "refs/heads/release".into(),
                commit_message: None,
                force: false,
                standalone: Some(true),
                repo_project_directory: Some("docs".into()),
                ..GitSyncRequest::default()
            },
        }
    );
    let reload = respond(
        &mut model,
        request,
        ApiResponse::Git(GitResponse::Done(Ok(()))),
    );
    assert!(matches!(git_call(&reload).1, GitCall::Info { .. }));
    assert_eq!(notice(&model), "Import from branch release started");
}

#[test]
fn export_sends_the_link_prefixes_and_the_host_set_in_the_form() {
    let mut model = git_model(space(true, true), details(Some("github")));
    update(&mut model, char_key('e'));
    update(&mut model, key(KeyCode::Tab));
    update(&mut model, key(KeyCode::Tab));
    type_text(&mut model, "docs: sync");
    // Past force and the directory: the files and commits prefixes, then the host.
    for _ in 0..3 {
        update(&mut model, key(KeyCode::Tab));
    }
    type_text(&mut model, "ftp://nope");
    assert_eq!(update(&mut model, key(KeyCode::Enter)), Cmd::None);
    assert!(
        notice(&model).contains("files URL is a web address"),
        "{}",
        notice(&model)
    );
    clear_field(&mut model);
    type_text(&mut model, "https://github.com/acme/docs/blob/main");
    update(&mut model, key(KeyCode::Tab));
    type_text(&mut model, "https://github.com/acme/docs/commit");
    update(&mut model, key(KeyCode::Tab));
    update(&mut model, char_key(' ')); // github
    update(&mut model, char_key(' ')); // gitlab
    update(&mut model, key(KeyCode::Enter));
    assert!(screen(&model).confirm.is_some(), "{}", notice(&model));
    let (_, call) = git_call(&update(&mut model, char_key('y')));
    let GitCall::Sync { request, .. } = call else {
        panic!("a sync, got {call:?}");
    };
    assert_eq!(
        request.repo_tree_url.as_deref(),
        Some("https://github.com/acme/docs/blob/main")
    );
    assert_eq!(
        request.repo_commit_url.as_deref(),
        Some("https://github.com/acme/docs/commit")
    );
    let info = request.git_info.expect("the host is sent");
    assert_eq!(
        (info.provider.as_str(), info.url.as_str()),
        ("gitlab", "https://github.com/acme/docs")
    );
}

#[test]
fn export_starts_from_the_synced_repository_and_needs_a_message() {
    let mut model = git_model(space(true, true), details(Some("github")));
    update(&mut model, char_key('e'));
    let form = screen(&model).form.clone().expect("the form opens");
    assert_eq!(form.url.text, "https://github.com/acme/docs");
    assert_eq!(form.branch.text, "main");
    assert_eq!(update(&mut model, key(KeyCode::Enter)), Cmd::None);
    assert!(notice(&model).contains("commit message is required"));
    assert!(screen(&model).form.is_some(), "the form stays");
    update(&mut model, key(KeyCode::Tab));
    update(&mut model, key(KeyCode::Tab));
    type_text(&mut model, "docs: sync");
    update(&mut model, key(KeyCode::Tab));
    update(&mut model, char_key(' ')); // force
    update(&mut model, key(KeyCode::Enter));
    let (confirm, _) = screen(&model).confirm.clone().expect("asks first");
    assert!(
        confirm
            .question
            .contains("Export “Docs” to branch main (forced)")
    );
    assert_eq!(update(&mut model, char_key('n')), Cmd::None, "n cancels");
    assert!(screen(&model).confirm.is_none());
}

#[test]
fn the_branch_is_typed_without_refs_heads() {
    let mut model = git_model(space(true, true), details(None));
    update(&mut model, char_key('i'));
    type_text(&mut model, "https://github.com/acme/docs");
    update(&mut model, key(KeyCode::Tab));
    clear_field(&mut model);
    type_text(&mut model, "refs/heads/main");
    update(&mut model, key(KeyCode::Enter));
    assert!(
        notice(&model).contains("branch name only"),
        "{}",
        notice(&model)
    );
}

#[test]
fn a_failed_sync_says_why_until_esc() {
    let mut model = git_model(space(true, true), details(Some("github")));
    update(&mut model, char_key('i'));
    update(&mut model, key(KeyCode::Enter));
    let (request, _) = git_call(&update(&mut model, char_key('y')));
    let error = ApiError::Status {
        endpoint: "POST /spaces/s-docs/git/import".into(),
        status: 400,
        code: Some(400),
        message: "Invalid \"ref\": expected refs/heads/<branch>".into(),
    };
    respond(
        &mut model,
        request,
        ApiResponse::Git(GitResponse::Done(Err(error))),
    );
    assert!(
        notice(&model).contains("Invalid \"ref\""),
        "{}",
        notice(&model)
    );
    update(&mut model, key(KeyCode::Esc));
    assert_eq!(notice(&model), "");
    assert!(matches!(model.top(), Screen::Git(_)), "esc only dismissed");
}

#[test]
fn without_the_sync_permission_import_and_export_say_why() {
    let mut model = git_model(space(false, false), details(Some("github-legacy")));
    let disabled = screen(&model).disabled_actions();
    assert!(disabled.contains(&Action::GitImport) && disabled.contains(&Action::GitExport));
    assert!(disabled.contains(&Action::RemoveLegacyInstallation));
    update(&mut model, char_key('i'));
    assert!(screen(&model).form.is_none());
    assert!(notice(&model).contains("admin is needed"));
}

#[test]
fn a_legacy_installation_is_removed_after_asking() {
    let mut model = git_model(space(true, true), details(Some("github-legacy")));
    update(&mut model, char_key('d'));
    let (confirm, _) = screen(&model).confirm.clone().expect("asks first");
    assert!(confirm.question.contains("legacy git installation"));
    let (request, call) = git_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        GitCall::RemoveLegacyInstallation {
            space: "s-docs".into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Git(GitResponse::Done(Ok(()))),
    );
    assert_eq!(notice(&model), "Legacy git installation removed");
    // Without a legacy installation there is nothing to remove.
    let mut model = git_model(space(true, true), details(Some("github")));
    assert_eq!(update(&mut model, char_key('d')), Cmd::None);
    assert!(notice(&model).contains("no legacy git installation"));
}

#[test]
fn capital_i_in_a_space_opens_its_git_sync() {
    let (mut model, _) = space_model();
    let cmd = update(&mut model, char_key('I'));
    assert!(matches!(model.top(), Screen::Git(_)));
    assert_eq!(
        git_call(&cmd).1,
        GitCall::Info {
            space: "s-api".into()
        }
    );
}

const IMPORT_DRAFT: &str = "git-sync:s-docs:import";

/// The address typed into the import form is drafted once it is left, without its
/// credentials (no secret reaches the disk, not even half typed); `esc` keeps it for the next
/// `i`, and the sync the server starts drops it.
#[test]
fn the_import_address_is_drafted_without_credentials_and_offered_after_esc() {
    let mut model = git_model(space(true, true), details(Some("github")));
    update(&mut model, char_key('i'));
    clear_field(&mut model);
    let mut typed: Vec<Cmd> = "https://ada:s3cret@github.com/acme/handbook"
        .chars()
        .map(|c| update(&mut model, char_key(c)))
        .collect();
    typed.push(update(&mut model, key(KeyCode::Tab)));
    let written: Vec<String> = typed
        .iter()
        .flat_map(flat)
        .filter_map(|cmd| match cmd {
            Cmd::SaveDraft { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert!(
        written.iter().all(|text| !text.contains("s3cret")),
        "no secret on disk: {written:?}"
    );
    assert_eq!(
        saved_draft(typed.last().unwrap(), IMPORT_DRAFT).as_deref(),
        Some("url: https://github.com/acme/handbook\ncredentials: not kept\n"),
        "written once the address is left"
    );
    let closed = update(&mut model, key(KeyCode::Esc));
    assert!(screen(&model).form.is_none());
    assert!(!discards_draft(&closed, IMPORT_DRAFT), "{closed:?}");

    update(&mut model, char_key('i'));
    let form = screen(&model).form.clone().expect("the form opens");
    assert_eq!(form.url.text, "https://github.com/acme/handbook");
    assert!(
        notice(&model).contains("type the address's credentials again"),
        "{}",
        notice(&model)
    );
    update(&mut model, key(KeyCode::Enter));
    let (request, _) = git_call(&update(&mut model, char_key('y')));
    let started = respond(
        &mut model,
        request,
        ApiResponse::Git(GitResponse::Done(Ok(()))),
    );
    assert!(discards_draft(&started, IMPORT_DRAFT), "{started:?}");
}

/// An export message typed in an earlier run is back in the next export form.
#[test]
fn an_export_message_of_an_earlier_run_is_back_in_the_form() {
    let mut model = git_model(space(true, true), details(Some("github")));
    update(
        &mut model,
        Msg::DraftsLoaded {
            prefix: "git-sync:s-docs:".into(),
            drafts: vec![(
                "git-sync:s-docs:export".into(),
                "message: docs: half a sentence\n".into(),
            )],
        },
    );
    assert!(notice(&model).contains("i or e offers it again"));
    update(&mut model, char_key('e'));
    let form = screen(&model).form.clone().expect("the form opens");
    assert_eq!(form.message.text, "docs: half a sentence");
    assert_eq!(form.url.text, "https://github.com/acme/docs", "as loaded");
}
