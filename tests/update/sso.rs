//! Layer 1 for the SSO tab: `update` on its own. Keys and answers in; the state, the notices
//! and the exact calls out — every action, the refusals by role, and the server's refusals in
//! its own words.

use crate::common::drafts::{discards_draft, loads_drafts, saved_draft};
use crate::common::*;
use crate::org_settings::{ORG, org_screen, organization_model, status_error, type_text};
use quire::api::SamlProviderInput;
use quire::api::models::{MemberRole, SamlProvider, SsoLogin, TeamSummary};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, Msg, Overlay, RequestId, update};
use quire::sandbox::DEMO_CERTIFICATE;
use quire::screens::sso::{SsoModal, SsoTab};
use quire::vocabulary::sso::{SsoCall, SsoOverview, SsoResponse};
use ratatui::crossterm::event::KeyCode;
use serde_json::json;

fn provider(id: &str, label: &str) -> SamlProvider {
    from_json(json!({
        "object": "saml-provider", "id": id, "label": label,
        "ssoURL": "https://idp.example/sso", "entityID": "urn:idp", "certificate": DEMO_CERTIFICATE,
        "defaultRole": "read", "status": "active",
        "service": {"acsURL": format!("https://svc.example/{id}/acs"),
                    "startURL": format!("https://svc.example/{id}/start"),
                    "entityID": format!("https://svc.example/{id}")}
    }))
}

fn sso(model: &Model) -> &SsoTab {
    &org_screen(model).sso
}

fn sso_notice(model: &Model) -> String {
    sso(model)
        .notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

fn sso_call(cmd: &Cmd) -> (RequestId, SsoCall) {
    match only_request(cmd) {
        (request, ApiCall::Sso(call)) => (request, call),
        (_, other) => panic!("expected an SSO call, got {other:?}"),
    }
}

/// The SSO tab with Okta and Azure loaded.
fn sso_model(admin: bool) -> Model {
    let (mut model, shown) = organization_model(admin, 2);
    let calls = requests(&shown);
    assert_eq!(calls.len(), 2, "{shown:?}");
    let (request, call) = calls[0].clone();
    assert_eq!(
        call,
        ApiCall::Sso(SsoCall::Overview {
            organization: ORG.into()
        })
    );
    let (teams_request, call) = calls[1].clone();
    assert_eq!(
        call,
        ApiCall::Sso(SsoCall::Teams {
            organization: ORG.into()
        })
    );
    // The teams cannot be listed now: opening the form asks again.
    respond(
        &mut model,
        teams_request,
        ApiResponse::Sso(SsoResponse::Teams(Err(status_error(404, "No route")))),
    );
    let overview = SsoOverview {
        providers: vec![
            provider("saml-okta", "Okta"),
            provider("saml-azure", "Azure"),
        ],
        providers_stopped_after_pages: None,
        logins: vec![SsoLogin {
            id: "saml-okta".into(),
            label: "Okta".into(),
            start_url: Some("https://svc.example/saml-okta/start".into()),
        }],
    };
    respond(
        &mut model,
        request,
        ApiResponse::Sso(SsoResponse::Overview(Ok(overview))),
    );
    model
}

/// Opens the form with `keys` and answers the teams request.
fn open_form(model: &mut Model, key_press: Msg) {
    let cmd = update(model, key_press);
    let (request, call) = sso_call(&cmd);
    assert_eq!(
        call,
        SsoCall::Teams {
            organization: ORG.into()
        }
    );
    let teams = vec![
        TeamSummary {
            id: "team-docs".into(),
            title: "Docs".into(),
        },
        TeamSummary {
            id: "team-support".into(),
            title: "Support".into(),
        },
    ];
    respond(
        model,
        request,
        ApiResponse::Sso(SsoResponse::Teams(Ok(teams.into()))),
    );
}

fn form_error(model: &Model) -> String {
    match &sso(model).modal {
        Some(SsoModal::Form(form)) => form
            .server_error
            .as_ref()
            .map(|(_, message)| message.clone())
            .unwrap_or_default(),
        other => panic!("expected the form, got {other:?}"),
    }
}

#[test]
fn copy_keys_copy_the_service_addresses_of_the_selected_provider() {
    let mut model = sso_model(true);
    assert_eq!(
        update(&mut model, char_key('a')),
        Cmd::CopyToClipboard("https://svc.example/saml-okta/acs".into())
    );
    assert!(sso_notice(&model).contains("ACS URL of “Okta”"));
    update(&mut model, char_key('j'));
    assert_eq!(
        update(&mut model, char_key('u')),
        Cmd::CopyToClipboard("https://svc.example/saml-azure/start".into())
    );
    assert_eq!(
        update(&mut model, char_key('i')),
        Cmd::CopyToClipboard("https://svc.example/saml-azure".into())
    );
}

#[test]
fn a_new_provider_is_refused_with_a_bad_certificate_then_created_with_a_good_one() {
    let mut model = sso_model(true);
    open_form(&mut model, char_key('n'));
    update(&mut model, key(KeyCode::Enter));
    type_text(&mut model, "Google");
    update(&mut model, key(KeyCode::Enter));
    for _ in 0..3 {
        update(&mut model, char_key('j'));
    }
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, Msg::Paste("not a certificate".into()));
    update(&mut model, key(KeyCode::Enter));
    assert_eq!(
        update(&mut model, char_key('s')),
        Cmd::None,
        "nothing is sent"
    );
    assert!(
        form_error(&model).contains("not a certificate"),
        "{}",
        form_error(&model)
    );
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, ctrl('u'));
    update(&mut model, Msg::Paste(DEMO_CERTIFICATE.into()));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter)); // the team picker
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter)); // Support
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter)); // the role picker, at guest
    update(&mut model, char_key('k'));
    update(&mut model, key(KeyCode::Enter)); // read
    let (request, call) = sso_call(&update(&mut model, ctrl('s')));
    assert_eq!(
        call,
        SsoCall::Create {
            organization: ORG.into(),
            input: SamlProviderInput {
                label: Some("Google".into()),
                certificate: Some(DEMO_CERTIFICATE.into()),
                default_team: Some("team-support".into()),
                default_role: Some(Some(MemberRole::Read)),
                ..SamlProviderInput::default()
            },
        }
    );
    let reload = respond(
        &mut model,
        request,
        ApiResponse::Sso(SsoResponse::Provider(Ok(Box::new(provider(
            "saml-google",
            "Google",
        ))))),
    );
    assert!(matches!(sso_call(&reload).1, SsoCall::Overview { .. }));
    assert!(sso(&model).modal.is_none());
    assert!(sso_notice(&model).contains("Created SAML provider “Google”"));
}

#[test]
fn editing_sends_only_what_changed_and_a_refusal_keeps_the_form_with_the_servers_words() {
    let mut model = sso_model(true);
    open_form(&mut model, key(KeyCode::Enter));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, ctrl('u'));
    type_text(&mut model, "Okta EU");
    update(&mut model, key(KeyCode::Enter));
    let (request, call) = sso_call(&update(&mut model, char_key('s')));
    assert_eq!(
        call,
        SsoCall::Update {
            organization: ORG.into(),
            provider: "saml-okta".into(),
            input: SamlProviderInput {
                label: Some("Okta EU".into()),
                ..SamlProviderInput::default()
            },
        }
    );
    let refusal = status_error(
        400,
        "Invalid \"label\": expected a string of 1 to 30 characters",
    );
    respond(
        &mut model,
        request,
        ApiResponse::Sso(SsoResponse::Provider(Err(refusal))),
    );
    assert!(form_error(&model).contains("Invalid \"label\""));
    // Unchanged again: nothing to send.
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, ctrl('u'));
    type_text(&mut model, "Okta");
    update(&mut model, key(KeyCode::Enter));
    assert_eq!(update(&mut model, char_key('s')), Cmd::None);
    assert!(sso_notice(&model).contains("Nothing changed"));
}

#[test]
fn closing_a_changed_form_asks_first() {
    let mut model = sso_model(true);
    open_form(&mut model, char_key('n'));
    update(&mut model, key(KeyCode::Enter));
    type_text(&mut model, "Half done");
    update(&mut model, key(KeyCode::Enter));
    assert!(model.top().unsaved_work().is_some(), "quitting would ask");
    update(&mut model, char_key('q'));
    assert!(
        matches!(model.overlay, Some(Overlay::ConfirmQuit { .. })),
        "q reaches the quit question with the form open"
    );
    update(&mut model, char_key('n'));
    update(&mut model, key(KeyCode::Esc));
    assert!(sso(&model).modal.is_some(), "asked, not closed");
    update(&mut model, char_key('y'));
    assert!(sso(&model).modal.is_none());
}

#[test]
fn a_certificate_is_loaded_from_a_file_by_the_runtime() {
    let mut model = sso_model(true);
    open_form(&mut model, char_key('n'));
    update(&mut model, char_key('f'));
    type_text(&mut model, "~/okta.pem");
    let (request, call) = sso_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        SsoCall::ReadCertificate {
            path: "~/okta.pem".into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Sso(SsoResponse::Certificate(Ok(DEMO_CERTIFICATE.into()))),
    );
    let Some(SsoModal::Form(form)) = &sso(&model).modal else {
        panic!("the form stays");
    };
    assert_eq!(form.values.certificate, DEMO_CERTIFICATE.trim());
    assert!(form.certificate().unwrap().is_ok());
    update(&mut model, char_key('f'));
    type_text(&mut model, "/nope.pem");
    let (request, _) = sso_call(&update(&mut model, key(KeyCode::Enter)));
    respond(
        &mut model,
        request,
        ApiResponse::Sso(SsoResponse::Certificate(Err(
            "Could not read /nope.pem".into()
        ))),
    );
    assert!(form_error(&model).contains("Could not read /nope.pem"));
}

#[test]
fn deleting_asks_naming_the_provider_and_a_refusal_says_why() {
    let mut model = sso_model(true);
    update(&mut model, char_key('d'));
    let Some(SsoModal::ConfirmDelete { confirm, .. }) = &sso(&model).modal else {
        panic!("asks first");
    };
    assert_eq!(confirm.question, "Delete SAML provider “Okta”?");
    let (request, call) = sso_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        SsoCall::Delete {
            organization: ORG.into(),
            provider: "saml-okta".into()
        }
    );
    let reload = respond(
        &mut model,
        request,
        ApiResponse::Sso(SsoResponse::Deleted(Ok(()))),
    );
    assert!(matches!(sso_call(&reload).1, SsoCall::Overview { .. }));
    assert_eq!(sso_notice(&model), "Deleted SAML provider “Okta”.");
    update(&mut model, char_key('d'));
    let (request, _) = sso_call(&update(&mut model, char_key('y')));
    let refusal = status_error(403, "Only organization admins may delete SAML providers");
    respond(
        &mut model,
        request,
        ApiResponse::Sso(SsoResponse::Deleted(Err(refusal))),
    );
    assert!(sso_notice(&model).contains("Only organization admins may delete"));
    update(&mut model, key(KeyCode::Esc));
    assert!(sso(&model).notice.is_none(), "esc dismisses the error");
}

#[test]
fn a_non_admin_is_told_before_anything_is_sent() {
    let mut model = sso_model(false);
    for press in ['n', 'd'] {
        assert_eq!(update(&mut model, char_key(press)), Cmd::None);
        assert!(
            sso_notice(&model).contains("Only organization admins"),
            "{press}"
        );
    }
    assert_eq!(update(&mut model, key(KeyCode::Enter)), Cmd::None);
    let disabled = model.top().disabled_actions();
    assert!(disabled.contains(&quire::app::Action::Create));
    assert!(disabled.contains(&quire::app::Action::Delete));
}

/// `r` with a provider's form open and untouched reads that provider alone (not the tab's
/// lists), and the form shows what the server holds now.
#[tokio::test]
async fn r_on_an_untouched_provider_form_reads_that_provider_alone() {
    use quire::api::{Client, ClientConfig, Token};
    use quire::headless;
    use quire::sandbox::{Sandbox, SandboxOptions, tokens};
    use quire::screens::sso::FormField;
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .unwrap();
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap();
    let effects = headless::effects_with(client.clone());
    let mut model = organizations_model(100, 30);
    headless::start(&mut model, &effects).await;
    // Acme, the SSO tab (the eleventh), the first provider's form.
    headless::type_keys(&mut model, &effects, &format!("\r{}\r", "\t".repeat(10))).await;
    let form = |model: &Model| match &org_screen(model).sso.modal {
        Some(SsoModal::Form(form)) => form.as_ref().clone(),
        _ => panic!("no provider form"),
    };
    let provider = form(&model).provider.clone().expect("an existing provider");
    let input = SamlProviderInput {
        label: Some("Renamed Elsewhere".into()),
        ..SamlProviderInput::default()
    };
    client
        .update_saml_provider("org-acme-robotics", &provider, &input)
        .await
        .unwrap();
    let single = format!("/orgs/*/saml/{provider}");
    let (reads, lists) = (
        sandbox.requests("GET", &single),
        sandbox.requests("GET", "/orgs/*/saml"),
    );
    headless::type_keys(&mut model, &effects, "r").await;
    assert_eq!(sandbox.requests("GET", &single), reads + 1, "read alone");
    assert_eq!(
        sandbox.requests("GET", "/orgs/*/saml"),
        lists,
        "not the list"
    );
    assert_eq!(form(&model).text_of(FormField::Label), "Renamed Elsewhere");
}

const OKTA_DRAFT: &str = "saml-provider:org-acme:saml-okta";
const NEW_DRAFT: &str = "saml-provider:org-acme:new";

fn form_label(model: &Model) -> String {
    match &sso(model).modal {
        Some(SsoModal::Form(form)) => form.values.label.clone(),
        other => panic!("expected the form, got {other:?}"),
    }
}

/// A provider's form writes its draft as it is typed; closing it keeps the draft, opening it
/// again offers the values back, and the save the server takes removes it.
#[test]
fn a_provider_form_is_drafted_kept_when_closed_and_offered_when_opened_again() {
    let mut model = sso_model(true);
    open_form(&mut model, key(KeyCode::Enter));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, ctrl('u'));
    type_text(&mut model, "Okta E");
    let typed = update(&mut model, char_key('U'));
    assert_eq!(
        saved_draft(&typed, OKTA_DRAFT).as_deref(),
        Some("label: Okta EU\n"),
        "{typed:?}"
    );
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, key(KeyCode::Esc));
    let closed = update(&mut model, char_key('y'));
    assert!(sso(&model).modal.is_none(), "closed");
    assert!(!discards_draft(&closed, OKTA_DRAFT), "{closed:?}");

    update(&mut model, key(KeyCode::Enter));
    assert_eq!(form_label(&model), "Okta EU", "offered back");
    assert_eq!(
        sso_notice(&model),
        "Restored this form's unsaved values from an earlier run — ctrl-s saves, u drops."
    );
    let (request, _) = sso_call(&update(&mut model, char_key('s')));
    let saved = respond(
        &mut model,
        request,
        ApiResponse::Sso(SsoResponse::Provider(Ok(Box::new(provider(
            "saml-okta",
            "Okta EU",
        ))))),
    );
    assert!(discards_draft(&saved, OKTA_DRAFT), "{saved:?}");
}

/// A new provider's values found on disk wait for `n`, then go into its form to be sent.
#[test]
fn a_new_providers_draft_from_an_earlier_run_fills_the_next_new_form() {
    let (_, shown) = organization_model(true, 2);
    assert!(loads_drafts(&shown, "saml-provider:org-acme:"), "{shown:?}");
    let mut model = sso_model(true);
    update(
        &mut model,
        Msg::DraftsLoaded {
            prefix: "saml-provider:org-acme:".into(),
            drafts: vec![(
                NEW_DRAFT.into(),
                "label: Google\ndefaultRole: \"read\"\n".into(),
            )],
        },
    );
    assert!(sso_notice(&model).contains("n for a new provider"));
    open_form(&mut model, char_key('n'));
    assert_eq!(form_label(&model), "Google");
    let (_, call) = sso_call(&update(&mut model, char_key('s')));
    assert_eq!(
        call,
        SsoCall::Create {
            organization: ORG.into(),
            input: SamlProviderInput {
                label: Some("Google".into()),
                default_role: Some(Some(MemberRole::Read)),
                ..SamlProviderInput::default()
            },
        }
    );
}
