//! Layer 1 for the Settings tab and joining an organization (an organization-settings
//! call): `update` on its own. Keys and answers in; the state, the notices and the exact calls
//! out — every action, the refusals by role, and the server's refusals in its own words.

use crate::common::drafts::{discards_draft, loads_drafts, saved_draft};
use crate::common::*;
use quire::api::models::{AgentInstructions, Organization};
use quire::api::{ApiError, OrganizationUpdate};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, Msg, Overlay, RequestId, Size, update};
use quire::screens::Screen;
use quire::screens::org_settings::{SettingsModal, SettingsTab};
use quire::screens::organization::Organization as OrganizationScreen;
use quire::vocabulary::org_settings::{OrgSettingsCall, OrgSettingsResponse, SiteChoice};
use ratatui::crossterm::event::KeyCode;
use serde_json::json;

pub(crate) const ORG: &str = "org-acme";

pub(crate) fn organization(admin: bool) -> Organization {
    let mut value = organization_json(ORG, "Acme");
    value["permissions"] = json!({"view": true, "admin": admin});
    value["emailDomains"] = json!(["acme.example"]);
    value["hostname"] = json!("acme");
    value["defaultRole"] = json!("read");
    value["sso"] = json!(false);
    value["mergeRules"] = json!({"type": "none"});
    from_json(value)
}

pub(crate) fn status_error(status: u16, message: &str) -> ApiError {
    ApiError::Status {
        endpoint: "test".into(),
        status,
        code: Some(i64::from(status)),
        message: message.into(),
    }
}

/// The organization screen with its tree loaded, then `back_tabs` times shift-tab: 1 is
/// Settings, 2 is SSO. Returns the requests the tab made when shown.
pub(crate) fn organization_model(admin: bool, back_tabs: usize) -> (Model, Cmd) {
    let mut model = Model::new(
        Screen::Organization(OrganizationScreen::new(organization(admin))),
        environment(),
        Size {
            width: 80,
            height: 24,
        },
    );
    let (request, _) = only_request(&model.init());
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(tree())),
    );
    let mut shown = Cmd::None;
    for _ in 0..back_tabs {
        shown = update(&mut model, key(KeyCode::BackTab));
    }
    (model, shown)
}

pub(crate) fn org_screen(model: &Model) -> &OrganizationScreen {
    match model.top() {
        Screen::Organization(screen) => screen,
        other => panic!("expected the organization screen, got {}", other.title()),
    }
}

fn settings(model: &Model) -> &SettingsTab {
    &org_screen(model).settings
}

fn settings_notice(model: &Model) -> String {
    settings(model)
        .notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

pub(crate) fn type_text(model: &mut Model, text: &str) {
    for c in text.chars() {
        update(model, char_key(c));
    }
}

fn settings_call(cmd: &Cmd) -> (RequestId, OrgSettingsCall) {
    match only_request(cmd) {
        (request, ApiCall::OrgSettings(call)) => (request, call),
        (_, other) => panic!("expected an organization settings call, got {other:?}"),
    }
}

/// The Settings tab with everything loaded.
fn settings_model(admin: bool) -> Model {
    let (mut model, shown) = organization_model(admin, 1);
    let calls = requests(&shown);
    assert_eq!(calls.len(), 3, "{shown:?}");
    let Cmd::Batch(parts) = &shown else {
        panic!("a batch");
    };
    assert!(parts.iter().any(|cmd| matches!(cmd, Cmd::LoadDrafts { prefix } if prefix == "org-agent-instructions:org-acme")));
    for (request, call) in calls {
        let ApiCall::OrgSettings(call) = call else {
            panic!("{call:?}");
        };
        let response = match call {
            OrgSettingsCall::Organization { .. } => {
                OrgSettingsResponse::Organization(Ok(Box::new(organization(admin))))
            }
            OrgSettingsCall::Sites { .. } => OrgSettingsResponse::Sites(Ok(vec![SiteChoice {
                id: "site-docs".into(),
                title: "Docs site".into(),
            }])),
            OrgSettingsCall::Instructions { .. } => {
                OrgSettingsResponse::Instructions(Ok(AgentInstructions {
                    instructions: json!({"object": "document", "data": {}, "nodes": [
                        {"object": "block", "type": "paragraph", "nodes": [{"object": "text",
                         "leaves": [{"object": "leaf", "text": "Be kind.", "marks": []}]}]}]}),
                    updated_at: Some("2024-05-01T00:00:00Z".into()),
                    updated_by: None,
                }))
            }
            other => panic!("{other:?}"),
        };
        respond(&mut model, request, ApiResponse::OrgSettings(response));
    }
    model
}

#[test]
fn settings_send_only_the_changed_fields() {
    let mut model = settings_model(true);
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, ctrl('u'));
    type_text(&mut model, "Acme Inc");
    update(&mut model, key(KeyCode::Enter));
    for _ in 0..6 {
        update(&mut model, char_key('j'));
    }
    update(&mut model, key(KeyCode::Enter)); // SSO enforced: off → on
    update(&mut model, char_key('k'));
    update(&mut model, char_key('k'));
    update(&mut model, key(KeyCode::Enter)); // default site
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('G'));
    update(&mut model, key(KeyCode::Enter)); // merge rules
    update(&mut model, char_key(' '));
    update(&mut model, key(KeyCode::Enter));
    let (request, call) = settings_call(&update(&mut model, char_key('s')));
    assert_eq!(
        call,
        OrgSettingsCall::Save {
            organization: ORG.into(),
            update: OrganizationUpdate {
                title: Some("Acme Inc".into()),
                default_content: Some(Some(json!({"type": "site", "site": "site-docs"}))),
                sso: Some(true),
                merge_rules: Some(
                    json!({"type": "rules", "rules": [{"rule": "require_at_least_one_review"}]})
                ),
                ..OrganizationUpdate::default()
            },
        }
    );
    let mut saved = organization(true);
    saved.title = "Acme Inc".into();
    respond(
        &mut model,
        request,
        ApiResponse::OrgSettings(OrgSettingsResponse::Organization(Ok(Box::new(saved)))),
    );
    assert!(
        settings_notice(&model)
            .starts_with("Saved: Title, Default site, SSO enforced, Merge rules")
    );
    // The new title is the screen's at once: header and breadcrumb.
    assert_eq!(model.top().title(), "Acme Inc");
}

#[test]
fn a_bad_value_is_not_sent_and_a_server_refusal_is_shown_in_its_words() {
    let mut model = settings_model(true);
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, ctrl('u'));
    type_text(&mut model, "A");
    update(&mut model, key(KeyCode::Enter));
    assert_eq!(update(&mut model, char_key('s')), Cmd::None);
    assert!(settings_notice(&model).contains("Title needs 2 to 255 characters"));
    update(&mut model, key(KeyCode::Esc));
    update(&mut model, key(KeyCode::Enter));
    type_text(&mut model, "BC");
    update(&mut model, key(KeyCode::Enter));
    let (request, _) = settings_call(&update(&mut model, char_key('s')));
    let refusal = status_error(400, "Invalid \"title\": taken by another organization");
    respond(
        &mut model,
        request,
        ApiResponse::OrgSettings(OrgSettingsResponse::Organization(Err(refusal))),
    );
    assert!(settings_notice(&model).contains("taken by another organization"));
    assert_eq!(
        settings(&model).form.values.title,
        "ABC",
        "the value stays to fix"
    );
}

#[test]
fn leaving_or_quitting_with_unsaved_settings_asks() {
    let mut model = settings_model(true);
    update(&mut model, key(KeyCode::Enter));
    type_text(&mut model, "!");
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('q'));
    assert!(matches!(
        &model.overlay,
        Some(Overlay::ConfirmQuit { unsaved }) if unsaved == &["unsaved settings of Acme (kept as a draft)".to_string()]
    ));
    update(&mut model, char_key('n'));
    model
        .screens
        .insert(0, Screen::Organizations(Default::default()));
    update(&mut model, key(KeyCode::Esc));
    assert!(matches!(
        settings(&model).modal,
        Some(SettingsModal::ConfirmLeave(_))
    ));
    update(&mut model, char_key('y'));
    assert_eq!(model.screens.len(), 1, "left the organization");
    assert!(matches!(model.top(), Screen::Organizations(_)));
}

/// One rule for every path away: the edit made on Settings is still there after `tab` to
/// Spaces, and `esc` from Spaces asks before the organization (and the edit) is left.
#[test]
fn going_back_from_another_tab_with_unsaved_settings_asks() {
    let mut model = settings_model(true);
    model
        .screens
        .insert(0, Screen::Organizations(Default::default()));
    update(&mut model, key(KeyCode::Enter));
    type_text(&mut model, "!");
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, key(KeyCode::Tab));
    update(&mut model, key(KeyCode::Esc));
    assert!(matches!(
        &model.overlay,
        Some(Overlay::ConfirmLeave { unsaved }) if unsaved == &["unsaved settings of Acme (kept as a draft)".to_string()]
    ));
    update(&mut model, char_key('n'));
    assert_eq!(model.screens.len(), 2, "stayed");
    assert!(settings(&model).form.is_dirty(), "the edit is kept");
    update(&mut model, key(KeyCode::Esc));
    update(&mut model, char_key('y'));
    assert_eq!(model.screens.len(), 1, "left when told to");
}

#[test]
fn agent_instructions_are_edited_as_text_with_a_draft_kept_until_saved() {
    let mut model = settings_model(true);
    update(&mut model, char_key('D'));
    let Some(SettingsModal::Instructions { composer, .. }) = &settings(&model).modal else {
        panic!("the editor opens");
    };
    assert_eq!(composer.text(), "Be kind.");
    let cmd = update(&mut model, char_key('!'));
    assert_eq!(
        cmd,
        Cmd::SaveDraft {
            key: "org-agent-instructions:org-acme".into(),
            text: "Be kind.!".into()
        }
    );
    let (request, call) = settings_call(&update(&mut model, ctrl('s')));
    let OrgSettingsCall::SaveInstructions { document, .. } = call else {
        panic!("{call:?}");
    };
    assert_eq!(document["nodes"][0]["type"], "paragraph");
    let failed = respond(
        &mut model,
        request,
        ApiResponse::OrgSettings(OrgSettingsResponse::Instructions(Err(status_error(
            500, "boom",
        )))),
    );
    assert_eq!(failed, Cmd::None, "the draft is not thrown away");
    let Some(SettingsModal::Instructions { composer, .. }) = &settings(&model).modal else {
        panic!("the editor stays");
    };
    assert!(
        composer
            .error
            .as_deref()
            .unwrap_or_default()
            .contains("the draft is kept")
    );
    let (request, _) = settings_call(&update(&mut model, ctrl('s')));
    let saved = AgentInstructions {
        instructions: document.clone(),
        ..AgentInstructions::default()
    };
    let done = respond(
        &mut model,
        request,
        ApiResponse::OrgSettings(OrgSettingsResponse::Instructions(Ok(saved))),
    );
    assert_eq!(
        done,
        Cmd::DiscardDraft {
            key: "org-agent-instructions:org-acme".into()
        }
    );
    assert_eq!(settings_notice(&model), "Agent instructions saved.");
}

#[test]
fn a_draft_from_an_earlier_run_is_restored() {
    let mut model = settings_model(true);
    update(
        &mut model,
        Msg::DraftsLoaded {
            prefix: "org-agent-instructions:org-acme".into(),
            drafts: vec![(
                "org-agent-instructions:org-acme".into(),
                "Unsent words".into(),
            )],
        },
    );
    assert!(settings_notice(&model).contains("restored"));
    update(&mut model, char_key('D'));
    let Some(SettingsModal::Instructions { composer, .. }) = &settings(&model).modal else {
        panic!("the editor opens");
    };
    assert_eq!(composer.text(), "Unsent words");
}

#[test]
fn revoking_an_invite_link_asks_naming_it() {
    let mut model = settings_model(true);
    update(&mut model, char_key('x'));
    type_text(&mut model, "inv-42");
    update(&mut model, key(KeyCode::Enter));
    let Some(SettingsModal::ConfirmRevoke { confirm, .. }) = &settings(&model).modal else {
        panic!("asks first");
    };
    assert_eq!(confirm.question, "Revoke invite link “inv-42”?");
    let (request, call) = settings_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        OrgSettingsCall::RevokeInvite {
            organization: ORG.into(),
            invite: "inv-42".into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::OrgSettings(OrgSettingsResponse::Done(Ok(()))),
    );
    assert_eq!(
        settings_notice(&model),
        "Revoked invite link “inv-42” (if it existed: the service does not say)."
    );
}

#[test]
fn an_invite_link_is_revoked_from_its_pasted_address() {
    let mut model = settings_model(true);
    update(&mut model, char_key('x'));
    update(
        &mut model,
        Msg::Paste("https://app.example.com/invite/org-acme/inv-77?ref=mail".into()),
    );
    update(&mut model, key(KeyCode::Enter));
    let (_, call) = settings_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        OrgSettingsCall::RevokeInvite {
            organization: ORG.into(),
            invite: "inv-77".into()
        }
    );
}

#[test]
fn a_public_mail_domain_asks_before_anyone_may_join() {
    let mut model = settings_model(true);
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, ctrl('u'));
    type_text(&mut model, "acme.example, Gmail.com");
    update(&mut model, key(KeyCode::Enter));
    assert_eq!(update(&mut model, char_key('s')), Cmd::None, "asks first");
    let Some(SettingsModal::ConfirmPublicDomains(confirm)) = &settings(&model).modal else {
        panic!("{:?}", settings(&model).modal);
    };
    assert_eq!(
        confirm.question,
        "Let anyone with a gmail.com address join?"
    );
    assert_eq!(update(&mut model, char_key('n')), Cmd::None);
    assert!(settings(&model).modal.is_none());
    update(&mut model, char_key('s'));
    let (_, call) = settings_call(&update(&mut model, char_key('y')));
    let OrgSettingsCall::Save { update, .. } = call else {
        panic!("{call:?}")
    };
    assert_eq!(
        update.email_domains,
        Some(vec!["acme.example".to_string(), "gmail.com".to_string()])
    );
}

#[test]
fn a_refusal_is_cleared_once_the_value_is_changed() {
    let mut model = settings_model(true);
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, ctrl('u'));
    type_text(&mut model, "A");
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('s'));
    assert!(settings_notice(&model).contains("not saved"));
    update(&mut model, key(KeyCode::Enter));
    type_text(&mut model, "BC");
    update(&mut model, key(KeyCode::Enter));
    assert!(
        !settings_notice(&model).contains("not saved"),
        "{}",
        settings_notice(&model)
    );
}

#[test]
fn a_non_admin_cannot_change_settings_and_is_told_why() {
    let mut model = settings_model(false);
    for press in [
        key(KeyCode::Enter),
        char_key('s'),
        char_key('D'),
        char_key('x'),
    ] {
        assert_eq!(update(&mut model, press), Cmd::None);
        assert!(settings_notice(&model).contains("Only organization admins"));
    }
    assert!(
        model
            .top()
            .disabled_actions()
            .contains(&quire::app::Action::Save)
    );
}

#[test]
fn joining_an_organization_asks_then_shows_the_refusal_in_words() {
    let mut model = loaded_organizations(2, None);
    update(&mut model, char_key('J'));
    type_text(&mut model, "org-lumen");
    update(&mut model, key(KeyCode::Enter));
    let Screen::Organizations(screen) = model.top() else {
        panic!("still the list");
    };
    assert!(matches!(
        &screen.join.modal,
        Some(quire::screens::organizations::join::JoinModal::Confirm { confirm, .. })
            if confirm.question == "Join organization “org-lumen”?"
    ));
    let (request, call) = settings_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        OrgSettingsCall::Join {
            organization: "org-lumen".into()
        }
    );
    let refusal = status_error(
        403,
        "Your email domain freelance.example may not join Lumen",
    );
    respond(
        &mut model,
        request,
        ApiResponse::OrgSettings(OrgSettingsResponse::Done(Err(refusal))),
    );
    let Screen::Organizations(screen) = model.top() else {
        panic!("still the list");
    };
    let notice = screen.join.notice.clone().expect("a notice");
    assert!(notice.error);
    assert!(
        notice.text.contains("may not join Lumen"),
        "{}",
        notice.text
    );
    update(&mut model, char_key('J'));
    type_text(&mut model, "org-acme");
    update(&mut model, key(KeyCode::Enter));
    let (request, _) = settings_call(&update(&mut model, char_key('y')));
    let reload = respond(
        &mut model,
        request,
        ApiResponse::OrgSettings(OrgSettingsResponse::Done(Ok(()))),
    );
    assert!(matches!(
        only_request(&reload).1,
        ApiCall::ListOrganizations { page: None }
    ));
}

#[test]
fn a_joined_organization_is_named_by_its_title_and_selected_once_listed() {
    let mut model = loaded_organizations(2, None);
    update(&mut model, char_key('J'));
    type_text(&mut model, "org-acme");
    update(&mut model, key(KeyCode::Enter));
    let (request, _) = settings_call(&update(&mut model, char_key('y')));
    let (reload, _) = only_request(&respond(
        &mut model,
        request,
        ApiResponse::OrgSettings(OrgSettingsResponse::Done(Ok(()))),
    ));
    let mut listed = organizations_page(2, 0, None);
    listed
        .items
        .push(from_json(organization_json("org-acme", "Acme Robotics")));
    respond(&mut model, reload, ApiResponse::Organizations(Ok(listed)));
    let Screen::Organizations(screen) = model.top() else {
        panic!("still the list");
    };
    let notice = screen.join.notice.clone().expect("a notice");
    assert_eq!(notice.text, "Joined “Acme Robotics”.");
    assert_eq!(
        screen.selected().map(|org| org.id.as_str()),
        Some("org-acme")
    );
}

#[test]
fn agent_instructions_go_to_the_editor_and_come_back_as_a_draft() {
    let mut model = settings_model(true);
    update(&mut model, char_key('D'));
    let key_name = "org-agent-instructions:org-acme".to_string();
    assert_eq!(
        update(&mut model, ctrl('e')),
        Cmd::EditExternally {
            key: key_name.clone(),
            text: "Be kind.".into()
        }
    );
    let cmd = update(
        &mut model,
        Msg::EditedExternally {
            key: key_name.clone(),
            text: "Be kind and brief.".into(),
        },
    );
    assert_eq!(
        cmd,
        Cmd::SaveDraft {
            key: key_name,
            text: "Be kind and brief.".into()
        }
    );
    let Some(SettingsModal::Instructions { composer, .. }) = &settings(&model).modal else {
        panic!("the editor stays open");
    };
    assert_eq!(composer.text(), "Be kind and brief.");
}

const SETTINGS_DRAFT: &str = "org-settings:org-acme";

/// Every edit writes the form's draft (the line being typed too); a refused save keeps it and
/// an accepted one removes it.
#[test]
fn settings_edits_are_drafted_until_the_server_takes_them() {
    let mut model = settings_model(true);
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, ctrl('u'));
    type_text(&mut model, "Acme In");
    let typed = update(&mut model, char_key('c'));
    assert_eq!(
        saved_draft(&typed, SETTINGS_DRAFT).as_deref(),
        Some("title: Acme Inc\n"),
        "the line being typed is drafted: {typed:?}"
    );
    assert_eq!(
        update(&mut model, key(KeyCode::Enter)),
        Cmd::None,
        "the same draft is not written again"
    );
    for _ in 0..6 {
        update(&mut model, char_key('j'));
    }
    let flipped = update(&mut model, key(KeyCode::Enter)); // SSO enforced: off → on
    assert_eq!(
        saved_draft(&flipped, SETTINGS_DRAFT).as_deref(),
        Some("title: Acme Inc\nsso: true\n")
    );

    let (request, _) = settings_call(&update(&mut model, char_key('s')));
    let refused = respond(
        &mut model,
        request,
        ApiResponse::OrgSettings(OrgSettingsResponse::Organization(Err(status_error(
            500, "boom",
        )))),
    );
    assert!(!discards_draft(&refused, SETTINGS_DRAFT), "{refused:?}");
    let (request, _) = settings_call(&update(&mut model, char_key('s')));
    let mut saved = organization(true);
    saved.title = "Acme Inc".into();
    saved.sso = Some(true);
    let accepted = respond(
        &mut model,
        request,
        ApiResponse::OrgSettings(OrgSettingsResponse::Organization(Ok(Box::new(saved)))),
    );
    assert!(discards_draft(&accepted, SETTINGS_DRAFT), "{accepted:?}");
}

/// A draft found on disk waits for the organization read on entering, then goes over the
/// server's values of today: what the user changed is back, what they did not is the server's.
#[test]
fn unsaved_settings_of_an_earlier_run_are_put_back_over_the_fresh_organization() {
    let (mut model, shown) = organization_model(true, 1);
    assert!(loads_drafts(&shown, SETTINGS_DRAFT), "{shown:?}");
    update(
        &mut model,
        Msg::DraftsLoaded {
            prefix: SETTINGS_DRAFT.into(),
            drafts: vec![(
                SETTINGS_DRAFT.into(),
                "title: Acme Inc\nsso: true\nunknown: kept out\n".into(),
            )],
        },
    );
    let (request, _) = requests(&shown)
        .into_iter()
        .find(|(_, call)| {
            matches!(
                call,
                ApiCall::OrgSettings(OrgSettingsCall::Organization { .. })
            )
        })
        .expect("the organization is read again");
    let mut fresh = organization(true);
    fresh.hostname = Some("acme-today".into());
    let arrived = respond(
        &mut model,
        request,
        ApiResponse::OrgSettings(OrgSettingsResponse::Organization(Ok(Box::new(fresh)))),
    );
    assert!(!discards_draft(&arrived, SETTINGS_DRAFT), "{arrived:?}");
    let form = &settings(&model).form;
    assert_eq!(form.values.title, "Acme Inc");
    assert!(form.values.sso);
    assert_eq!(
        form.values.hostname, "acme-today",
        "the server's, untouched"
    );
    assert_eq!(
        settings_notice(&model),
        "Restored unsaved settings from an earlier run — ctrl-s saves, u drops."
    );

    let dropped = update(&mut model, char_key('u'));
    assert!(discards_draft(&dropped, SETTINGS_DRAFT), "{dropped:?}");
    assert!(!settings(&model).form.is_dirty());
    assert_eq!(settings(&model).form.values.title, "Acme");
    assert_eq!(
        settings_notice(&model),
        "Dropped the unsaved changes to Title, SSO enforced."
    );
}
