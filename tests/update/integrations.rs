//! Layer 1 for the Integrations tab and an integration's details: `update` on its own. Keys
//! and answers in, the state and the exact calls out.

use crate::common::*;
use crate::conversations::{ORG, org, organization_on, page, press};
use quire::api::models::Integration;
use quire::api::{ApiError, IntegrationFilter};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, Msg, RequestId, update};
use quire::screens::Screen;
use quire::screens::integrations::IntegrationsTab;
use quire::screens::organization::Tab;
use quire::vocabulary::integrations::{IntegrationsCall, IntegrationsResponse};
use ratatui::crossterm::event::KeyCode;
use serde_json::json;

fn integration(name: &str, title: &str, verified: bool) -> Integration {
    from_json(json!({"name": name, "title": title, "verified": verified,
        "categories": ["content"], "scopes": ["space:content:read"],
        "urls": {"app": format!("https://app.example/integrations/{name}")}}))
}

fn integrations_tab(model: &Model) -> &IntegrationsTab {
    &org(model).integrations
}

fn integrations_call(cmd: &Cmd) -> (RequestId, IntegrationsCall) {
    match only_request(cmd) {
        (request, ApiCall::Integrations(call)) => (request, call),
        (_, other) => panic!("expected an integrations call, got {other:?}"),
    }
}

fn timers(cmd: &Cmd) -> Vec<RequestId> {
    match cmd {
        Cmd::Timer { id, .. } => vec![*id],
        Cmd::Batch(commands) => commands.iter().flat_map(timers).collect(),
        _ => Vec::new(),
    }
}

/// The Integrations tab shown with `items` loaded.
fn integrations_model(items: Vec<Integration>) -> Model {
    let mut model = organization_on(Tab::Integrations);
    let (request, call) = integrations_call(&update(&mut model, key(KeyCode::Tab)));
    assert_eq!(
        call,
        IntegrationsCall::List {
            filter: IntegrationFilter::default(),
            page: None
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Integrations(IntegrationsResponse::List(Ok(page(items, None)))),
    );
    model
}

#[test]
fn search_is_sent_once_typing_pauses() {
    let mut model = integrations_model(vec![integration("slack", "Slack", true)]);
    press(&mut model, "/");
    let first = timers(&press(&mut model, "s"));
    let second_key = press(&mut model, "l");
    let second = timers(&second_key);
    assert_eq!((first.len(), second.len()), (1, 1));
    assert_eq!(
        cancelled_timers(&second_key),
        first,
        "the second key calls off the first key's timer"
    );
    // The first timer is stale: nothing is sent.
    assert!(requests(&update(&mut model, Msg::Timer(first[0]))).is_empty());
    let (_, call) = integrations_call(&update(&mut model, Msg::Timer(second[0])));
    assert_eq!(
        call,
        IntegrationsCall::List {
            filter: IntegrationFilter {
                search: Some("sl".into()),
                ..IntegrationFilter::default()
            },
            page: None
        }
    );
    // Enter keeps the search; the same text is not sent again.
    assert!(requests(&update(&mut model, key(KeyCode::Enter))).is_empty());
    // Esc clears it and lists everything again.
    let (_, call) = integrations_call(&update(&mut model, key(KeyCode::Esc)));
    assert_eq!(
        call,
        IntegrationsCall::List {
            filter: IntegrationFilter::default(),
            page: None
        }
    );
}

#[test]
fn the_filter_popup_sets_each_filter_and_keeps_the_search() {
    let mut model = integrations_model(vec![integration("slack", "Slack", true)]);
    press(&mut model, "/");
    press(&mut model, "sl");
    update(&mut model, key(KeyCode::Enter));
    press(&mut model, "f");
    assert!(integrations_tab(&model).popup.is_some());
    // Category: analytics (the first); scope: the first; target: all; blocks: yes;
    // content sources: no; owner: this organization.
    update(&mut model, key(KeyCode::Right));
    for keys in [
        &[KeyCode::Down, KeyCode::Right][..],
        &[KeyCode::Down, KeyCode::Right],
        &[KeyCode::Down, KeyCode::Right],
        &[KeyCode::Down, KeyCode::Left],
        &[KeyCode::Down, KeyCode::Right],
    ] {
        for code in keys {
            update(&mut model, key(*code));
        }
    }
    let (_, call) = integrations_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        IntegrationsCall::List {
            filter: IntegrationFilter {
                search: Some("sl".into()),
                category: Some("analytics".into()),
                scope: Some("space:content:read".into()),
                target: Some("all".into()),
                blocks: Some(true),
                content_sources: Some(false),
                owner: Some(ORG.into()),
                block_domain: None,
            },
            page: None
        }
    );
    // Esc leaves the filters as they were.
    press(&mut model, "f");
    update(&mut model, key(KeyCode::Backspace));
    assert!(requests(&update(&mut model, key(KeyCode::Esc))).is_empty());
    assert_eq!(
        integrations_tab(&model).filter.category.as_deref(),
        Some("analytics")
    );
}

#[test]
fn the_block_domain_row_offers_the_domains_the_listed_blocks_unfurl() {
    let mut slack = integration("slack", "Slack", true);
    slack.blocks = vec![from_json(json!({"id": "unfurl", "title": "Unfurl",
        "urlUnfurl": ["https://slack.com/archives/"]}))];
    let mut model = integrations_model(vec![slack, integration("notes", "Notes", false)]);
    press(&mut model, "f");
    for _ in 0..6 {
        update(&mut model, key(KeyCode::Down));
    }
    update(&mut model, key(KeyCode::Right));
    let (_, call) = integrations_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        IntegrationsCall::List {
            filter: IntegrationFilter {
                block_domain: Some("slack.com".into()),
                ..IntegrationFilter::default()
            },
            page: None
        }
    );
}

#[test]
fn enter_opens_an_integrations_details_or_says_it_is_gone() {
    let mut model = integrations_model(vec![
        integration("auth0", "Auth0", true),
        integration("slack", "Slack", true),
    ]);
    press(&mut model, "j");
    let (request, call) = integrations_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        IntegrationsCall::Details {
            name: "slack".into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Integrations(IntegrationsResponse::Details(Ok(Box::new(integration(
            "slack", "Slack", true,
        ))))),
    );
    assert_eq!(model.top().title(), "Integration · Slack");
    assert_eq!(
        model.top().link().as_deref(),
        Some("https://app.example/integrations/slack")
    );
    update(&mut model, key(KeyCode::Esc));
    let (request, _) = integrations_call(&update(&mut model, key(KeyCode::Enter)));
    let gone = ApiError::Status {
        endpoint: "GET /integrations/slack".into(),
        status: 404,
        code: None,
        message: "No integration found with id \"slack\"".into(),
    };
    respond(
        &mut model,
        request,
        ApiResponse::Integrations(IntegrationsResponse::Details(Err(gone))),
    );
    let Screen::Integration(screen) = model.top() else {
        panic!("the integration screen");
    };
    assert!(screen.integration.error().is_some());
}
