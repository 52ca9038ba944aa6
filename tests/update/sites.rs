//! Layer 1 for the sites screens: `update` on its own. Build a model, feed keys and answers,
//! assert the state and the exact `SitesCall`s it asks for.

use crate::common::drafts::{discards_draft, loads_drafts, saved_draft};
use crate::common::*;
use quire::api::models::{
    AgentsContext, MemberRole, PublishedSite, ShareLink, Site, SiteVisibility,
};
use quire::api::{ApiError, SiteFilter, SiteUpdate};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, Msg, RequestId, Size, update};
use quire::screens::access_audit::AccessAudit;
use quire::screens::site::{Field, Modal, SCHEMA_TEMPLATE, SiteScreen, SiteTab, check_schema};
use quire::screens::{Screen, ScreenState};
use quire::vocabulary::sites::{AccessListing, SiteAccess, SitesCall, SitesResponse};
use ratatui::crossterm::event::KeyCode;
use serde_json::{Value, json};

fn site_json(visibility: &str, published: bool, admin: bool) -> Value {
    json!({
        "object": "site",
        "id": "site-1",
        "type": "premium",
        "title": "Acme Docs",
        "basename": "docs",
        "visibility": visibility,
        "published": published,
        "siteSpaces": 2,
        "createdAt": "2024-01-01T00:00:00Z",
        "adaptiveContent": {"enabled": false},
        "agentsContext": "included",
        "urls": {"app": "https://app.example/site-1", "published": "https://docs.acme.example"},
        "permissions": {"view": true, "edit": admin, "admin": admin,
                        "viewAdaptiveSchema": true, "editAdaptiveSchema": admin}
    })
}

fn published_json() -> Value {
    json!({
        "object": "published-content-site",
        "site": site_json("public", true, true),
        "structure": {"type": "sections", "structure": [
            {"object": "site-section", "id": "sec-guides", "title": "Guides", "path": "guides",
             "default": true, "siteSpaces": [
                {"object": "site-space", "id": "ss-start", "title": "Start", "path": "start",
                 "default": true, "space": {"id": "spc-1", "title": "Start"}},
                {"object": "site-space", "id": "ss-log", "title": "Changelog", "path": "log",
                 "default": false, "space": "spc-2"}]},
            {"object": "site-section-group", "id": "grp-ref", "title": "Reference", "children": [
                {"object": "site-section", "id": "sec-api", "title": "API", "path": "api",
                 "default": false, "siteSpaces": [
                    {"object": "site-space", "id": "ss-api", "title": "v3", "path": "v3",
                     "default": true, "space": "spc-3"}]}]}
        ]}
    })
}

fn site_screen_model(visibility: &str, published: bool, admin: bool) -> Model {
    site_model_from(site_json(visibility, published, admin))
}

/// The site screen for this site, with its published structure loaded. A user who may not
/// change the site also has their role asked for; that stays unanswered here.
fn site_model_from(json: Value) -> Model {
    let (mut model, first) = opened_site(json);
    let (request, _) = request_for(
        &first,
        SitesCall::GetPublished {
            organization: "org-1".into(),
            site: "site-1".into(),
        },
    );
    let published: PublishedSite = from_json(published_json());
    respond(
        &mut model,
        request,
        ApiResponse::Sites(SitesResponse::Structure(Ok(published))),
    );
    model
}

/// The site screen for this site as it opens, with the requests it sends first.
fn opened_site(json: Value) -> (Model, Cmd) {
    let site: Site = from_json(json);
    let mut model = Model::new(
        Screen::Site(Box::new(SiteScreen::new("org-1", site))),
        environment(),
        Size {
            width: 80,
            height: 24,
        },
    );
    let first = model.init();
    (model, first)
}

/// The request for `call` among those of `cmd`.
fn request_for(cmd: &Cmd, call: SitesCall) -> (RequestId, ApiCall) {
    let wanted = ApiCall::Sites(call);
    requests(cmd)
        .into_iter()
        .find(|(_, asked)| *asked == wanted)
        .unwrap_or_else(|| panic!("{wanted:?} is not among {cmd:?}"))
}

fn screen(model: &Model) -> &SiteScreen {
    match model.top() {
        Screen::Site(screen) => screen,
        other => panic!("expected the site screen, got {}", other.title()),
    }
}

fn type_text(model: &mut Model, text: &str) {
    for c in text.chars() {
        update(model, char_key(c));
    }
}

/// Selects the field `index` rows down from the top and starts typing over its text.
fn retype(model: &mut Model, index: usize, text: &str) {
    update(model, char_key('g'));
    for _ in 0..index {
        update(model, char_key('j'));
    }
    update(model, key(KeyCode::Enter));
    update(model, ctrl('u'));
    update(model, key(KeyCode::End));
    for _ in 0..200 {
        update(model, key(KeyCode::Backspace));
    }
    type_text(model, text);
}

/// The PATCH of site-1 in org-1 with `update`.
fn site_patch(update: SiteUpdate) -> SitesCall {
    SitesCall::UpdateSite {
        organization: "org-1".into(),
        site: "site-1".into(),
        update,
    }
}

fn sites_call(cmd: &Cmd) -> (RequestId, SitesCall) {
    match only_request(cmd) {
        (request, ApiCall::Sites(call)) => (request, call),
        (_, other) => panic!("expected a sites call, got {other:?}"),
    }
}

fn bad_request(message: &str) -> ApiError {
    ApiError::Status {
        endpoint: "PATCH /orgs/org-1/sites/site-1".into(),
        status: 400,
        code: Some(400),
        message: message.into(),
    }
}

#[test]
fn the_sites_tab_lists_with_the_published_toggle_and_server_title_filter() {
    let mut model = loaded_organizations(1, None);
    let (request, _) = only_request(&open_first_organization(&mut model));
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(tree())),
    );
    // Spaces → Change requests → Members → Teams → Sites.
    for _ in 0..3 {
        update(&mut model, key(KeyCode::Tab));
    }
    let cmd = update(&mut model, key(KeyCode::Tab));
    let list = |published, title: Option<&str>| {
        ApiCall::Sites(SitesCall::ListSites {
            organization: "org-0".into(),
            filter: SiteFilter {
                space: None,
                title: title.map(str::to_string),
                published,
            },
            page: None,
        })
    };
    let (first, call) = only_request(&cmd);
    assert_eq!(call, list(None, None));
    let page = quire::api::ListPage {
        items: vec![from_json::<Site>(site_json("public", true, true))],
        next_page: None,
        count: Some(1),
        unreadable: Vec::new(),
    };
    respond(
        &mut model,
        first,
        ApiResponse::Sites(SitesResponse::Sites(Ok(page))),
    );
    assert_eq!(
        only_request(&update(&mut model, char_key('p'))).1,
        list(Some(true), None)
    );
    assert_eq!(
        only_request(&update(&mut model, char_key('p'))).1,
        list(Some(false), None)
    );
    assert_eq!(
        only_request(&update(&mut model, char_key('p'))).1,
        list(None, None)
    );
    update(&mut model, char_key('/'));
    for c in "docs".chars() {
        assert!(
            requests(&update(&mut model, char_key(c))).is_empty(),
            "typing filters the loaded rows only"
        );
    }
    let submitted = update(&mut model, key(KeyCode::Enter));
    assert_eq!(only_request(&submitted).1, list(None, Some("docs")));
    let cleared = update(&mut model, key(KeyCode::Esc));
    assert_eq!(only_request(&cleared).1, list(None, None));
}

#[test]
fn each_field_says_why_its_value_is_refused_as_it_is_typed() {
    let mut model = site_screen_model("public", true, true);
    retype(&mut model, 0, "A");
    assert_eq!(
        screen(&model).form.error(Field::Title).as_deref(),
        Some("needs at least 2 characters"),
        "checked while typing, before enter"
    );
    type_text(&mut model, &"x".repeat(128));
    assert_eq!(
        screen(&model).form.error(Field::Title).as_deref(),
        Some("at most 128 characters (129)")
    );
    update(&mut model, key(KeyCode::Esc));
    assert_eq!(
        screen(&model).form.values.title,
        "Acme Docs",
        "esc puts it back"
    );

    retype(&mut model, 2, "");
    assert_eq!(
        screen(&model).form.error(Field::Basename).as_deref(),
        Some("needs 1 to 100 characters")
    );
    type_text(&mut model, &"b".repeat(101));
    assert_eq!(
        screen(&model).form.error(Field::Basename).as_deref(),
        Some("at most 100 characters (101)")
    );
    update(&mut model, key(KeyCode::Esc));

    // Fields: title, visibility, basename, adaptive, agents, section, space, proxy.
    retype(&mut model, 7, "https://acme.com/docs");
    assert_eq!(
        screen(&model).form.error(Field::Proxy).as_deref(),
        Some("a host and path like example.com/docs")
    );
    update(&mut model, key(KeyCode::Esc));
    retype(&mut model, 7, "acme.com/docs");
    assert_eq!(screen(&model).form.error(Field::Proxy), None);
    update(&mut model, key(KeyCode::Esc));
    retype(&mut model, 7, "");
    assert_eq!(
        screen(&model).form.error(Field::Proxy),
        None,
        "empty: no proxy"
    );
}

#[test]
fn dirty_tracking_follows_the_values_not_the_keystrokes() {
    let mut model = site_screen_model("public", true, true);
    assert!(!screen(&model).form.is_dirty());
    retype(&mut model, 0, "Acme Docs v2");
    assert!(screen(&model).form.is_dirty(), "typing counts as unsaved");
    update(&mut model, key(KeyCode::Enter));
    assert_eq!(screen(&model).form.changed_fields(), vec![Field::Title]);
    retype(&mut model, 0, "Acme Docs");
    update(&mut model, key(KeyCode::Enter));
    assert!(
        !screen(&model).form.is_dirty(),
        "back to the server's value: nothing to save"
    );
    // Toggles count too.
    update(&mut model, char_key('g'));
    for _ in 0..3 {
        update(&mut model, char_key('j'));
    }
    update(&mut model, key(KeyCode::Enter));
    assert_eq!(
        screen(&model).form.changed_fields(),
        vec![Field::AdaptiveContent]
    );
    update(&mut model, key(KeyCode::Enter));
    assert!(!screen(&model).form.is_dirty());
}

#[test]
fn saving_sends_only_the_changed_fields_and_says_what_changed() {
    let mut model = site_screen_model("public", true, true);
    retype(&mut model, 0, "Acme Docs v2");
    update(&mut model, key(KeyCode::Enter));
    // Visibility: the picker starts on the current one; one down is unlisted.
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter));
    // Agents context: included → excluded.
    update(&mut model, char_key('j'));
    update(&mut model, char_key('j'));
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter));
    let (request, call) = sites_call(&update(&mut model, char_key('s')));
    assert_eq!(
        call,
        site_patch(SiteUpdate {
            title: Some("Acme Docs v2".into()),
            visibility: Some(SiteVisibility::Unlisted),
            agents_context: Some(AgentsContext::Excluded),
            ..SiteUpdate::default()
        })
    );
    let mut saved = site_json("unlisted", true, true);
    saved["title"] = json!("Acme Docs v2");
    saved["agentsContext"] = json!("excluded");
    respond(
        &mut model,
        request,
        ApiResponse::Sites(SitesResponse::Site(Ok(from_json(saved)))),
    );
    let notice = screen(&model).notice.clone().expect("a notice");
    assert_eq!(notice.text, "Saved: title, visibility, agentsContext");
    assert!(!notice.error);
    assert!(!screen(&model).form.is_dirty());
    assert_eq!(model.top().title(), "Acme Docs v2");
}

#[test]
fn clearing_the_proxy_sends_null_and_defaults_come_from_the_structure() {
    let mut json = site_json("public", true, true);
    json["proxy"] = json!({"origin": "acme.com/docs", "target": "https://x"});
    let site: Site = from_json(json);
    let mut model = Model::new(
        Screen::Site(Box::new(SiteScreen::new("org-1", site))),
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
        ApiResponse::Sites(SitesResponse::Structure(Ok(from_json(published_json())))),
    );
    assert_eq!(
        screen(&model).form.values.default_section.as_deref(),
        Some("sec-guides")
    );
    retype(&mut model, 7, "");
    update(&mut model, key(KeyCode::Enter));
    // Default section: Guides → API (the picker starts on Guides).
    update(&mut model, char_key('g'));
    for _ in 0..5 {
        update(&mut model, char_key('j'));
    }
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter));
    let (_, call) = sites_call(&update(&mut model, ctrl('s')));
    assert_eq!(
        call,
        site_patch(SiteUpdate {
            proxy: Some(None),
            default_site_section: Some("sec-api".into()),
            ..SiteUpdate::default()
        })
    );
}

#[test]
fn an_invalid_form_is_not_sent_and_an_unchanged_one_neither() {
    let mut model = site_screen_model("public", true, true);
    assert!(requests(&update(&mut model, char_key('s'))).is_empty());
    assert_eq!(
        screen(&model).notice.as_ref().map(|n| n.text.as_str()),
        Some("Nothing to save")
    );
    retype(&mut model, 0, "A");
    update(&mut model, key(KeyCode::Enter));
    assert!(requests(&update(&mut model, char_key('s'))).is_empty());
    let notice = screen(&model).notice.clone().expect("why not");
    assert!(notice.error);
    assert_eq!(
        notice.text,
        "Not saved: Title — needs at least 2 characters"
    );
}

#[test]
fn the_servers_400_is_shown_beside_the_field_it_names() {
    let mut model = site_screen_model("public", true, true);
    retype(&mut model, 2, "new-base");
    update(&mut model, key(KeyCode::Enter));
    let (request, _) = sites_call(&update(&mut model, char_key('s')));
    let message = "Invalid \"basename\": expected a string of 1 to 100 characters";
    respond(
        &mut model,
        request,
        ApiResponse::Sites(SitesResponse::Site(Err(bad_request(message)))),
    );
    let form = &screen(&model).form;
    assert_eq!(
        form.server_error,
        Some((Some(Field::Basename), message.to_string()))
    );
    assert!(form.is_dirty(), "the edit stays for another try");
    let notice = screen(&model).notice.clone().expect("a notice");
    assert!(notice.error && notice.text.contains(message), "{notice:?}");
}

/// Opens the site over `model`'s screens, renames it without saving and presses esc: the
/// question asked.
fn rename_then_esc(model: &mut Model) -> quire::ui::confirm::Confirm {
    let site: Site = from_json(site_json("public", true, true));
    model
        .screens
        .push(Screen::Site(Box::new(SiteScreen::new("org-1", site))));
    retype(model, 0, "Renamed");
    update(model, key(KeyCode::Enter));
    update(model, key(KeyCode::Esc));
    match &screen(model).modal {
        Some(Modal::Confirm { confirm, .. }) => confirm.clone(),
        _ => panic!("esc asks before leaving"),
    }
}

#[test]
fn leaving_with_unsaved_changes_asks_first() {
    let mut model = loaded_organizations(1, None);
    let confirm = rename_then_esc(&mut model);
    assert_eq!(confirm.question, "Leave without saving?");
    assert!(
        confirm.consequence.contains("title"),
        "{}",
        confirm.consequence
    );
    assert!(
        confirm.consequence.contains("(ctrl-s saves them now.)"),
        "the save key as the keymap has it: {}",
        confirm.consequence
    );
    update(&mut model, char_key('n'));
    assert!(matches!(model.top(), Screen::Site(_)), "n stays");
    assert_eq!(screen(&model).form.values.title, "Renamed");
    update(&mut model, key(KeyCode::Esc));
    update(&mut model, char_key('y'));
    assert!(matches!(model.top(), Screen::Organizations(_)), "y leaves");
}

#[test]
fn a_clean_form_leaves_without_asking() {
    let mut model = loaded_organizations(1, None);
    let site: Site = from_json(site_json("public", true, true));
    model
        .screens
        .push(Screen::Site(Box::new(SiteScreen::new("org-1", site))));
    update(&mut model, key(KeyCode::Esc));
    assert!(matches!(model.top(), Screen::Organizations(_)));
}

#[test]
fn the_publish_confirmation_names_the_audience() {
    let cases = [
        (
            "public",
            true,
            "Unpublish “Acme Docs”?",
            "no longer be reachable by anyone, indexed by search engines",
        ),
        (
            "unlisted",
            false,
            "Publish “Acme Docs”?",
            "reachable by anyone with the link, not indexed",
        ),
        (
            "share-link",
            false,
            "Publish “Acme Docs”?",
            "reachable by people with a share link",
        ),
        (
            "visitor-auth",
            false,
            "Publish “Acme Docs”?",
            "reachable by visitors authenticated by your identity provider",
        ),
    ];
    for (visibility, published, question, audience) in cases {
        let mut model = site_screen_model(visibility, published, true);
        assert!(requests(&update(&mut model, char_key('P'))).is_empty());
        let Some(Modal::Confirm { confirm, .. }) = &screen(&model).modal else {
            panic!("P asks first")
        };
        assert_eq!(confirm.question, question);
        assert!(
            confirm.consequence.contains(audience),
            "{}",
            confirm.consequence
        );
        let (_, call) = sites_call(&update(&mut model, char_key('y')));
        let expected = if published {
            SitesCall::Unpublish {
                organization: "org-1".into(),
                site: "site-1".into(),
            }
        } else {
            SitesCall::Publish {
                organization: "org-1".into(),
                site: "site-1".into(),
            }
        };
        assert_eq!(call, expected);
    }
    let mut cancelled = site_screen_model("public", false, true);
    update(&mut cancelled, char_key('P'));
    assert!(requests(&update(&mut cancelled, char_key('n'))).is_empty());
    assert!(screen(&cancelled).modal.is_none());
}

#[test]
fn a_reader_can_look_but_not_change() {
    let mut model = site_screen_model("public", true, false);
    update(&mut model, key(KeyCode::Enter));
    assert!(screen(&model).form.editing.is_none());
    let reason = screen(&model).notice.clone().expect("the reason").text;
    assert!(reason.starts_with("Read-only"), "{reason}");
    assert!(requests(&update(&mut model, char_key('P'))).is_empty());
    assert!(screen(&model).modal.is_none(), "no publish confirmation");
    assert!(screen(&model).hints().iter().all(|(action, _)| {
        !matches!(
            action,
            quire::app::Action::Save | quire::app::Action::Publish
        )
    }));
    // Share links: listed, but creating is refused with the reason.
    let (request, _) = sites_call(&update(&mut model, key(KeyCode::Tab)));
    respond(
        &mut model,
        request,
        ApiResponse::Sites(SitesResponse::ShareLinks(Ok(vec![share_link(
            "sl-1", "EMEA", true,
        )]
        .into()))),
    );
    assert!(requests(&update(&mut model, char_key('n'))).is_empty());
    assert!(screen(&model).modal.is_none());
    assert!(screen(&model).notice.as_ref().is_some_and(|n| n.error));
}

#[test]
fn a_403_turns_the_screen_read_only_with_the_servers_reason() {
    let mut model = site_screen_model("public", true, true);
    retype(&mut model, 0, "Other");
    update(&mut model, key(KeyCode::Enter));
    let (request, _) = sites_call(&update(&mut model, char_key('s')));
    let forbidden = ApiError::Status {
        endpoint: "PATCH /orgs/org-1/sites/site-1".into(),
        status: 403,
        code: Some(403),
        message: "Changing sites needs the admin role".into(),
    };
    let asked = respond(
        &mut model,
        request,
        ApiResponse::Sites(SitesResponse::Site(Err(forbidden))),
    );
    let (role_request, call) = sites_call(&asked);
    assert_eq!(
        call,
        SitesCall::MyRole {
            organization: "org-1".into()
        }
    );
    assert_eq!(
        screen(&model).read_only_reason().as_deref(),
        Some(
            "Read-only: admin is needed to change this site (the server said: Changing sites \
             needs the admin role)"
        )
    );
    // Once the role is known the refusal names it.
    respond(
        &mut model,
        role_request,
        ApiResponse::Sites(SitesResponse::MyRole(Ok(Some(MemberRole::Edit)))),
    );
    let notice = screen(&model).notice.clone().expect("the refusal");
    assert!(notice.error);
    assert_eq!(
        notice.text,
        "Refused: you are at edit level; admin is needed to change this site (the server said: \
         Changing sites needs the admin role)"
    );
}

fn share_links_model() -> (Model, RequestId) {
    let mut model = site_screen_model("share-link", true, true);
    let (request, call) = sites_call(&update(&mut model, key(KeyCode::Tab)));
    assert_eq!(
        call,
        SitesCall::ListShareLinks {
            organization: "org-1".into(),
            site: "site-1".into()
        }
    );
    assert_eq!(screen(&model).tab, SiteTab::ShareLinks);
    (model, request)
}

fn share_link(id: &str, name: &str, active: bool) -> ShareLink {
    from_json(
        json!({"object": "share-link", "id": id, "name": name, "active": active,
        "createdAt": "2024-02-01T00:00:00Z",
        "urls": {"published": format!("https://docs.acme.example?shareKey={id}")}}),
    )
}

#[test]
fn share_links_are_created_renamed_switched_and_deleted() {
    let (mut model, request) = share_links_model();
    respond(
        &mut model,
        request,
        ApiResponse::Sites(SitesResponse::ShareLinks(Ok(vec![share_link(
            "sl-1", "EMEA", true,
        )]
        .into()))),
    );
    // Create: the name is required and at most 50 characters.
    update(&mut model, char_key('n'));
    assert!(requests(&update(&mut model, key(KeyCode::Enter))).is_empty());
    assert!(
        matches!(screen(&model).modal, Some(Modal::Prompt(_))),
        "empty: stays open"
    );
    type_text(&mut model, &"n".repeat(51));
    assert!(requests(&update(&mut model, key(KeyCode::Enter))).is_empty());
    update(&mut model, ctrl('u'));
    type_text(&mut model, "Partners");
    let (created, call) = sites_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        SitesCall::CreateShareLink {
            organization: "org-1".into(),
            site: "site-1".into(),
            name: "Partners".into()
        }
    );
    let reload = respond(
        &mut model,
        created,
        ApiResponse::Sites(SitesResponse::ShareLink(Ok(share_link(
            "sl-2", "Partners", true,
        )))),
    );
    let (listed, call) = sites_call(&reload);
    assert!(matches!(call, SitesCall::ListShareLinks { .. }));
    assert_eq!(
        screen(&model).notice.as_ref().map(|n| n.text.as_str()),
        Some("Created share link “Partners”")
    );
    respond(
        &mut model,
        listed,
        ApiResponse::Sites(SitesResponse::ShareLinks(Ok(vec![
            share_link("sl-1", "EMEA", true),
            share_link("sl-2", "Partners", true),
        ]
        .into()))),
    );
    assert_eq!(
        screen(&model).selected_link().map(|link| link.id.as_str()),
        Some("sl-2"),
        "the link just created is selected, not the one at the old index"
    );
    // Deactivating cuts people off: it asks first, naming the link.
    assert!(requests(&update(&mut model, char_key('a'))).is_empty());
    let Some(Modal::Confirm { confirm, .. }) = &screen(&model).modal else {
        panic!("deactivating asks first")
    };
    assert_eq!(confirm.question, "Deactivate share link “Partners”?");
    let (_, call) = sites_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        SitesCall::UpdateShareLink {
            organization: "org-1".into(),
            site: "site-1".into(),
            link: "sl-2".into(),
            active: Some(false),
            name: None
        }
    );
    let mut fresh = share_links_model();
    respond(
        &mut fresh.0,
        fresh.1,
        ApiResponse::Sites(SitesResponse::ShareLinks(Ok(vec![share_link(
            "sl-1", "EMEA", true,
        )]
        .into()))),
    );
    let model = &mut fresh.0;
    update(model, char_key('R'));
    update(model, ctrl('u'));
    type_text(model, "EMEA resellers");
    let (_, call) = sites_call(&update(model, key(KeyCode::Enter)));
    assert!(
        matches!(call, SitesCall::UpdateShareLink { name: Some(ref name), active: None, .. } if name == "EMEA resellers")
    );
    let mut third = share_links_model();
    respond(
        &mut third.0,
        third.1,
        ApiResponse::Sites(SitesResponse::ShareLinks(Ok(vec![share_link(
            "sl-1", "EMEA", true,
        )]
        .into()))),
    );
    let model = &mut third.0;
    assert_eq!(
        update(model, char_key('y')),
        Cmd::CopyToClipboard("https://docs.acme.example?shareKey=sl-1".into())
    );
    assert!(
        requests(&update(model, char_key('d'))).is_empty(),
        "asks first"
    );
    let (_, call) = sites_call(&update(model, char_key('y')));
    assert_eq!(
        call,
        SitesCall::DeleteShareLink {
            organization: "org-1".into(),
            site: "site-1".into(),
            link: "sl-1".into()
        }
    );
}

#[test]
fn section_groups_are_created_step_by_step_and_sections_moved() {
    let mut model = site_screen_model("public", true, true);
    update(&mut model, key(KeyCode::Tab));
    let (request, call) = sites_call(&update(&mut model, key(KeyCode::Tab)));
    assert!(matches!(call, SitesCall::ListSectionGroups { .. }));
    let groups = vec![from_json(
        json!({"object": "site-section-group", "id": "grp-ref",
        "title": "Reference", "icon": "code", "children": [
            {"object": "site-section", "id": "sec-api", "title": "API", "siteSpaces": []}]}),
    )];
    respond(
        &mut model,
        request,
        ApiResponse::Sites(SitesResponse::SectionGroups(Ok(groups.into()))),
    );
    // New group: title, icon, sections (space marks), parent.
    update(&mut model, char_key('n'));
    type_text(&mut model, "SDKs");
    update(&mut model, key(KeyCode::Enter));
    type_text(&mut model, "boxes");
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key(' '));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('j'));
    let (_, call) = sites_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        SitesCall::CreateSectionGroup {
            organization: "org-1".into(),
            site: "site-1".into(),
            group: quire::api::NewSectionGroup {
                title: "SDKs".into(),
                icon: Some("boxes".into()),
                sections: vec!["sec-guides".into()],
                parent: Some("grp-ref".into()),
            },
        }
    );
}

#[test]
fn group_rows_offer_rename_icon_add_remove_and_delete() {
    let mut model = site_screen_model("public", true, true);
    update(&mut model, key(KeyCode::Tab));
    let (request, _) = sites_call(&update(&mut model, key(KeyCode::Tab)));
    let groups = vec![from_json(
        json!({"object": "site-section-group", "id": "grp-ref",
        "title": "Reference", "children": [
            {"object": "site-section", "id": "sec-api", "title": "API", "siteSpaces": []}]}),
    )];
    respond(
        &mut model,
        request,
        ApiResponse::Sites(SitesResponse::SectionGroups(Ok(groups.into()))),
    );
    update(&mut model, char_key('i'));
    type_text(&mut model, "book");
    let (_, call) = sites_call(&update(&mut model, key(KeyCode::Enter)));
    assert!(
        matches!(call, SitesCall::UpdateSectionGroup { title: None, icon: Some(Some(ref icon)), .. } if icon == "book")
    );
    screen_mut(&mut model).pending = None;
    update(&mut model, char_key('+'));
    let (_, call) = sites_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        SitesCall::AddSectionToGroup {
            organization: "org-1".into(),
            site: "site-1".into(),
            group: "grp-ref".into(),
            section: "sec-guides".into()
        }
    );
    screen_mut(&mut model).pending = None;
    update(&mut model, char_key('j'));
    let (_, call) = sites_call(&update(&mut model, char_key('-')));
    assert_eq!(
        call,
        SitesCall::RemoveSectionFromGroup {
            organization: "org-1".into(),
            site: "site-1".into(),
            group: "grp-ref".into(),
            section: "sec-api".into()
        }
    );
    screen_mut(&mut model).pending = None;
    update(&mut model, char_key('k'));
    update(&mut model, char_key('d'));
    let Some(Modal::Confirm { confirm, .. }) = &screen(&model).modal else {
        panic!("delete asks")
    };
    assert_eq!(confirm.question, "Delete section group “Reference”?");
    let (_, call) = sites_call(&update(&mut model, key(KeyCode::Enter)));
    assert!(matches!(call, SitesCall::DeleteSectionGroup { ref group, .. } if group == "grp-ref"));
}

fn screen_mut(model: &mut Model) -> &mut SiteScreen {
    match model.screens.last_mut() {
        Some(Screen::Site(screen)) => screen,
        _ => panic!("expected the site screen"),
    }
}

#[test]
fn the_adaptive_schema_is_checked_before_it_is_sent() {
    assert!(check_schema("{").unwrap_err().starts_with("not valid JSON"));
    assert_eq!(
        check_schema("[]").unwrap_err(),
        "the schema must be a JSON object"
    );
    // The shape itself is one checker shared with the sandbox, tried case by case against it
    // in the sandbox tests; here what the screen does with its answer. The template offered
    // for a site with no schema passes.
    assert_eq!(check_schema(SCHEMA_TEMPLATE).err(), None);

    // In the composer: a schema the service would refuse stays open with the reason.
    let mut model = site_screen_model("public", true, true);
    for _ in 0..4 {
        update(&mut model, key(KeyCode::Tab));
    }
    update(&mut model, char_key('e'));
    for _ in 0..400 {
        update(&mut model, key(KeyCode::Backspace));
    }
    type_text(
        &mut model,
        r#"{"type":"object","additionalProperties":false,"properties":{"plan":{"type":"array","description":"Plans"}}}"#,
    );
    assert!(requests(&update(&mut model, ctrl('s'))).is_empty());
    let Some(Modal::Composer(editor)) = screen_mut(&mut model).modal.as_mut() else {
        panic!("the composer stays open")
    };
    assert_eq!(
        editor.get_mut().error.as_deref(),
        Some("claim \"plan\" (array) needs items")
    );
}

/// The access view of org-1, loaded with one share-link site holding `links`.
fn access_view(links: Vec<ShareLink>) -> Model {
    let mut model = Model::new(
        Screen::AccessAudit(AccessAudit::new("org-1", "Acme")),
        environment(),
        Size {
            width: 80,
            height: 24,
        },
    );
    let (request, call) = only_request(&model.init());
    assert_eq!(
        call,
        ApiCall::Sites(SitesCall::AccessAudit {
            organization: "org-1".into()
        })
    );
    let access = AccessListing {
        sites: vec![SiteAccess {
            site: from_json(site_json("share-link", true, true)),
            share_links: links,
            links_stopped_after_pages: None,
        }],
        sites_stopped_after_pages: None,
    };
    respond(
        &mut model,
        request,
        ApiResponse::Sites(SitesResponse::Access(Ok(access))),
    );
    model
}

#[test]
fn the_access_view_revokes_a_share_link_after_confirmation() {
    let mut model = access_view(vec![
        share_link("sl-1", "EMEA", true),
        share_link("sl-2", "Old", false),
    ]);
    let Screen::AccessAudit(audit) = model.top() else {
        panic!()
    };
    assert_eq!(audit.rows().len(), 2, "the site and its one active link");
    update(&mut model, char_key('j'));
    assert!(
        requests(&update(&mut model, char_key('x'))).is_empty(),
        "asks first"
    );
    let Screen::AccessAudit(audit) = model.top() else {
        panic!()
    };
    let question = &audit.asking.as_ref().expect("a question").confirm.question;
    assert_eq!(question, "Revoke share link “EMEA” of “Acme Docs”?");
    let (revoke, call) = only_request(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        ApiCall::Sites(SitesCall::UpdateShareLink {
            organization: "org-1".into(),
            site: "site-1".into(),
            link: "sl-1".into(),
            active: Some(false),
            name: None
        })
    );
    let reload = respond(
        &mut model,
        revoke,
        ApiResponse::Sites(SitesResponse::ShareLink(Ok(share_link(
            "sl-1", "EMEA", false,
        )))),
    );
    assert!(matches!(
        only_request(&reload).1,
        ApiCall::Sites(SitesCall::AccessAudit { .. })
    ));
}

#[test]
fn a_late_members_page_does_not_move_the_sites_selection() {
    let mut model = loaded_organizations(1, None);
    let (request, _) = only_request(&open_first_organization(&mut model));
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(tree())),
    );
    // Spaces → Change requests → Members → Teams → Sites.
    update(&mut model, key(KeyCode::Tab));
    let (members, _) = only_request(&update(&mut model, key(KeyCode::Tab)));
    update(&mut model, key(KeyCode::Tab));
    let (sites, _) = only_request(&update(&mut model, key(KeyCode::Tab)));
    let page = quire::api::ListPage {
        items: (0..4)
            .map(|_| from_json::<Site>(site_json("public", true, true)))
            .collect(),
        next_page: None,
        count: Some(4),
        unreadable: Vec::new(),
    };
    respond(
        &mut model,
        sites,
        ApiResponse::Sites(SitesResponse::Sites(Ok(page))),
    );
    update(&mut model, char_key('j'));
    update(&mut model, char_key('j'));
    respond(
        &mut model,
        members,
        ApiResponse::Members(quire::vocabulary::members::MembersResponse::List(Ok(
            quire::api::ListPage {
                items: Vec::new(),
                next_page: None,
                count: Some(0),
                unreadable: Vec::new(),
            },
        ))),
    );
    let Screen::Organization(organization) = model.top() else {
        panic!()
    };
    assert_eq!(organization.sites.selection.selected, 2);
}

#[test]
fn quitting_with_unsaved_settings_asks_first() {
    let mut model = loaded_organizations(1, None);
    let site: Site = from_json(site_json("public", true, true));
    model
        .screens
        .push(Screen::Site(Box::new(SiteScreen::new("org-1", site))));
    retype(&mut model, 0, "Renamed");
    update(&mut model, key(KeyCode::Enter));
    assert_eq!(
        update(&mut model, char_key('q')),
        Cmd::None,
        "asks, does not quit"
    );
    assert!(matches!(
        model.overlay,
        Some(quire::app::Overlay::ConfirmQuit { ref unsaved }) if unsaved[0].contains("unsaved settings")
    ));
    assert_eq!(update(&mut model, char_key('n')), Cmd::None);
    assert!(!model.quit && model.overlay.is_none());
    update(&mut model, char_key('q'));
    assert_eq!(update(&mut model, char_key('y')), Cmd::Quit);
    assert!(model.quit);
}

#[test]
fn the_schema_being_written_is_saved_kept_on_close_and_restored() {
    let mut model = site_screen_model("public", true, true);
    for _ in 0..4 {
        update(&mut model, key(KeyCode::Tab));
    }
    update(&mut model, char_key('e'));
    for _ in 0..400 {
        update(&mut model, key(KeyCode::Backspace));
    }
    let saved = update(&mut model, char_key('{'));
    let Cmd::SaveDraft {
        key: draft_key,
        text,
    } = saved
    else {
        panic!("every edit is saved: {saved:?}")
    };
    assert_eq!(text, "{");
    update(&mut model, key(KeyCode::Esc));
    update(&mut model, char_key('k'));
    assert!(screen(&model).modal.is_none());
    update(&mut model, char_key('e'));
    let Some(Modal::Composer(editor)) = screen_mut(&mut model).modal.as_mut() else {
        panic!()
    };
    assert_eq!(editor.get_mut().text(), "{", "kept for later");
    // A draft found on disk is offered when the site opens.
    let mut again = site_screen_model("public", true, true);
    update(
        &mut again,
        quire::app::Msg::DraftsLoaded {
            prefix: draft_key.clone(),
            drafts: vec![(draft_key, "{\"restored\": true}".into())],
        },
    );
    assert_eq!(
        screen(&again).schema_draft.as_deref(),
        Some("{\"restored\": true}")
    );
}

#[test]
fn fields_cannot_change_while_a_save_is_in_flight() {
    let mut model = site_screen_model("public", true, true);
    retype(&mut model, 0, "Renamed");
    update(&mut model, key(KeyCode::Enter));
    let save = update(&mut model, ctrl('s'));
    assert_eq!(requests(&save).len(), 1, "the save is sent");
    // Down to another field and try to edit it before the answer.
    update(&mut model, char_key('j'));
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter));
    assert!(
        screen(&model).form.editing.is_none(),
        "no edit while saving"
    );
}

#[test]
fn a_share_link_create_with_no_answer_reloads_the_list_before_any_retry() {
    let (mut model, request) = share_links_model();
    respond(
        &mut model,
        request,
        ApiResponse::Sites(SitesResponse::ShareLinks(Ok(Vec::new().into()))),
    );
    update(&mut model, char_key('n'));
    type_text(&mut model, "Partners");
    let (created, _) = sites_call(&update(&mut model, key(KeyCode::Enter)));
    let reload = respond(
        &mut model,
        created,
        ApiResponse::Sites(SitesResponse::ShareLink(Err(
            quire::api::ApiError::Timeout {
                endpoint: "POST /orgs/org-1/sites/site-1/share-links".into(),
            },
        ))),
    );
    let (_, call) = sites_call(&reload);
    assert!(matches!(call, SitesCall::ListShareLinks { .. }), "{call:?}");
}

#[test]
fn saving_while_typing_an_invalid_basename_says_which_field_and_goes_there() {
    let mut model = site_screen_model("public", true, true);
    retype(&mut model, 2, "Bad Name!");
    assert_eq!(
        screen(&model).form.error(Field::Basename).as_deref(),
        Some("only lowercase letters, digits, - and /"),
        "the service's slug rule, checked as it is typed"
    );
    // Move away first, so that the save has to bring the cursor back.
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('g'));
    retype(&mut model, 0, "Acme Docs v2");
    // ctrl-s while still typing in the title: the title is kept and the save is tried.
    assert!(requests(&update(&mut model, ctrl('s'))).is_empty());
    let notice = screen(&model).notice.clone().expect("says why");
    assert!(notice.error);
    assert_eq!(
        notice.text,
        "Not saved: Basename — only lowercase letters, digits, - and /"
    );
    assert_eq!(screen(&model).form.selected_field(), Some(Field::Basename));
    assert_eq!(screen(&model).form.values.title, "Acme Docs v2");
    // Fixed, the same key sends both fields.
    retype(&mut model, 2, "docs/v2");
    let (_, call) = sites_call(&update(&mut model, ctrl('s')));
    assert_eq!(
        call,
        site_patch(SiteUpdate {
            title: Some("Acme Docs v2".into()),
            basename: Some("docs/v2".into()),
            ..SiteUpdate::default()
        })
    );
}

#[test]
fn a_plain_s_while_typing_is_text_not_save() {
    let mut model = site_screen_model("public", true, true);
    retype(&mut model, 0, "Docs");
    assert!(requests(&update(&mut model, char_key('s'))).is_empty());
    assert_eq!(screen(&model).form.text_of(Field::Title), "Docss");
}

#[test]
fn a_servers_value_the_form_would_refuse_does_not_block_other_fields() {
    let mut json = site_json("public", true, true);
    json["basename"] = json!("Legacy Docs");
    let mut model = site_model_from(json);
    assert!(screen(&model).form.error(Field::Basename).is_some());
    retype(&mut model, 0, "Acme Docs v2");
    update(&mut model, key(KeyCode::Enter));
    let (_, call) = sites_call(&update(&mut model, ctrl('s')));
    assert_eq!(
        call,
        site_patch(SiteUpdate {
            title: Some("Acme Docs v2".into()),
            ..SiteUpdate::default()
        })
    );
}

#[test]
fn the_save_key_named_on_screen_follows_the_keymap() {
    let mut model = loaded_organizations(1, None);
    let overrides = std::collections::HashMap::from([("save".to_string(), vec!["f2".to_string()])]);
    model.keymap.apply_overrides(&overrides).expect("rebinds");
    let confirm = rename_then_esc(&mut model);
    assert!(
        confirm.consequence.contains("(f2 saves them now.)"),
        "{}",
        confirm.consequence
    );
}

#[test]
fn a_new_section_group_is_selected_once_the_list_is_back() {
    let mut model = site_screen_model("public", true, true);
    update(&mut model, key(KeyCode::Tab));
    let (request, _) = sites_call(&update(&mut model, key(KeyCode::Tab)));
    let reference = json!({"object": "site-section-group", "id": "grp-ref",
        "title": "Reference", "children": [
            {"object": "site-section", "id": "sec-api", "title": "API", "siteSpaces": []}]});
    respond(
        &mut model,
        request,
        ApiResponse::Sites(SitesResponse::SectionGroups(Ok(vec![from_json(
            reference.clone(),
        )]
        .into()))),
    );
    update(&mut model, char_key('n'));
    type_text(&mut model, "SDKs");
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, key(KeyCode::Enter));
    let (created, _) = sites_call(&update(&mut model, key(KeyCode::Enter)));
    let sdks = json!({"object": "site-section-group", "id": "grp-sdks", "title": "SDKs",
        "children": []});
    let reloads = respond(
        &mut model,
        created,
        ApiResponse::Sites(SitesResponse::SectionGroup(Ok(from_json(sdks.clone())))),
    );
    let (listed, _) = requests(&reloads)
        .into_iter()
        .find(|(_, call)| matches!(call, ApiCall::Sites(SitesCall::ListSectionGroups { .. })))
        .expect("the groups reload");
    respond(
        &mut model,
        listed,
        ApiResponse::Sites(SitesResponse::SectionGroups(Ok(vec![
            from_json(reference),
            from_json(sdks),
        ]
        .into()))),
    );
    let rows = screen(&model).group_rows();
    let selected = &rows[screen(&model).group_selection.selected];
    assert_eq!(selected.id(), "grp-sdks", "{rows:?}");
}

#[test]
fn a_reader_is_told_their_role_and_the_role_needed() {
    let (mut model, first) = opened_site(site_json("public", true, false));
    let (role_request, _) = request_for(
        &first,
        SitesCall::MyRole {
            organization: "org-1".into(),
        },
    );
    assert_eq!(
        screen(&model).read_only_reason().as_deref(),
        Some("Read-only: admin is needed to change this site")
    );
    respond(
        &mut model,
        role_request,
        ApiResponse::Sites(SitesResponse::MyRole(Ok(Some(MemberRole::Read)))),
    );
    assert_eq!(
        screen(&model).read_only_reason().as_deref(),
        Some("Read-only: you are at read level; admin is needed to change this site")
    );
}

#[test]
fn site_messages_follow_the_notice_rule() {
    let mut model = site_screen_model("public", true, true);
    retype(&mut model, 0, "A");
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, ctrl('s'));
    assert!(screen(&model).notice.as_ref().is_some_and(|n| n.error));
    update(&mut model, char_key('j'));
    update(&mut model, char_key('k'));
    assert!(
        screen(&model).notice.as_ref().is_some_and(|n| n.error),
        "an error stays until dismissed"
    );
    update(&mut model, key(KeyCode::Esc));
    assert!(screen(&model).notice.is_none(), "esc dismisses it");
    assert!(
        screen(&model).modal.is_none(),
        "that esc did nothing else (no leave question)"
    );
    // Information stays through a key pressed right after it.
    retype(&mut model, 0, "Acme Docs");
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, ctrl('s'));
    assert_eq!(
        screen(&model).notice.as_ref().map(|n| n.text.as_str()),
        Some("Nothing to save")
    );
    update(&mut model, char_key('j'));
    assert!(
        screen(&model).notice.is_some(),
        "a fresh message survives the next key"
    );
}

#[test]
fn access_view_errors_stay_until_esc() {
    let mut model = access_view(vec![share_link("sl-1", "EMEA", true)]);
    update(&mut model, char_key('x'));
    let notice = |model: &Model| match model.top() {
        Screen::AccessAudit(audit) => audit.notice.clone(),
        _ => None,
    };
    assert!(
        notice(&model).is_some_and(|n| n.error),
        "a site row: why not"
    );
    update(&mut model, char_key('j'));
    assert!(notice(&model).is_some(), "stays through another key");
    update(&mut model, key(KeyCode::Esc));
    assert!(notice(&model).is_none());
    assert!(
        matches!(model.top(), Screen::AccessAudit(_)),
        "esc dismissed the error instead of leaving"
    );
}

const SITE_DRAFT: &str = "site-settings:org-1:site-1";

/// Every edit of the settings writes their draft; an accepted save removes it.
#[test]
fn site_settings_are_drafted_as_edited_and_the_draft_goes_once_saved() {
    let mut model = site_screen_model("public", true, true);
    retype(&mut model, 0, "Acme Docs v");
    let typed = update(&mut model, char_key('2'));
    assert_eq!(
        saved_draft(&typed, SITE_DRAFT).as_deref(),
        Some("title: Acme Docs v2\n"),
        "{typed:?}"
    );
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('j'));
    let picked = update(&mut model, key(KeyCode::Enter));
    assert_eq!(
        saved_draft(&picked, SITE_DRAFT).as_deref(),
        Some("title: Acme Docs v2\nvisibility: \"unlisted\"\n"),
        "{picked:?}"
    );
    let (request, _) = sites_call(&update(&mut model, char_key('s')));
    let mut saved = site_json("unlisted", true, true);
    saved["title"] = json!("Acme Docs v2");
    let accepted = respond(
        &mut model,
        request,
        ApiResponse::Sites(SitesResponse::Site(Ok(from_json(saved)))),
    );
    assert!(discards_draft(&accepted, SITE_DRAFT), "{accepted:?}");
}

/// Opening the site again with a draft on disk puts its values back, with a notice naming
/// the keys that save and drop them.
#[test]
fn site_settings_of_an_earlier_run_are_restored_when_the_site_opens() {
    let (mut model, first) = opened_site(site_json("public", true, true));
    assert!(loads_drafts(&first, SITE_DRAFT), "{first:?}");
    update(
        &mut model,
        Msg::DraftsLoaded {
            prefix: SITE_DRAFT.into(),
            drafts: vec![(
                SITE_DRAFT.into(),
                "title: Acme Docs v2\nvisibility: \"unlisted\"\n".into(),
            )],
        },
    );
    let form = &screen(&model).form;
    assert_eq!(form.values.title, "Acme Docs v2");
    assert_eq!(form.values.visibility, Some(SiteVisibility::Unlisted));
    assert_eq!(form.changed_fields(), [Field::Title, Field::Visibility]);
    let notice = screen(&model).notice.clone().expect("a notice");
    assert_eq!(
        notice.text,
        "Restored unsaved settings from an earlier run — ctrl-s saves, u drops."
    );
    let (_, call) = sites_call(&update(&mut model, char_key('s')));
    assert_eq!(
        call,
        site_patch(SiteUpdate {
            title: Some("Acme Docs v2".into()),
            visibility: Some(SiteVisibility::Unlisted),
            ..SiteUpdate::default()
        })
    );
}

/// Each site's title with the ids of its share links, as the access view holds them.
fn audited(model: &Model) -> Vec<(String, Vec<String>)> {
    let Screen::AccessAudit(audit) = model.top() else {
        panic!("expected the access view")
    };
    audit
        .sites()
        .iter()
        .map(|access| {
            let links = access.share_links.iter().map(|l| l.id.clone()).collect();
            (access.site.title.clone(), links)
        })
        .collect()
}

fn drawn(model: &Model, width: u16, height: u16) -> String {
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
    let _ = terminal.draw(|frame| quire::app::view::chrome::draw(frame, model));
    terminal.backend().to_string()
}

/// Against a server whose lists never end, the access view stops at its page cap within
/// seconds, keeps every site and share link it read (the same as a healthy read) and says
/// under the list that it stopped.
#[tokio::test]
async fn an_endless_access_audit_stops_keeps_what_it_read_and_says_so() {
    use quire::headless;
    use quire::runtime::calls::sites::AUDIT_SITE_PAGES;
    use quire::sandbox::{Faults, SandboxOptions, tokens};
    let (sandbox, effects) = sandbox_effects(SandboxOptions::default(), tokens::ADMIN).await;
    let mut model = organizations_model(80, 24);
    headless::start(&mut model, &effects).await;
    headless::type_keys(&mut model, &effects, "\r\t\t\t\tA").await;
    let healthy = audited(&model);
    assert!(healthy.iter().any(|(_, links)| !links.is_empty()));
    assert!(!drawn(&model, 80, 24).contains("stopped after"));

    sandbox.set_faults(Faults {
        never_ending_next: true,
        ..Faults::default()
    });
    let sites_read_before = sandbox.requests("GET", "/orgs/*/sites");
    headless::type_keys(&mut model, &effects, "r").await;
    assert_eq!(
        sandbox.requests("GET", "/orgs/*/sites") - sites_read_before,
        AUDIT_SITE_PAGES
    );
    assert_eq!(audited(&model), healthy, "nothing read is dropped");
    let wide = drawn(&model, 80, 24);
    assert!(
        wide.contains("stopped after 20 pages of sites and share links"),
        "{wide}"
    );
    let narrow = drawn(&model, 40, 12);
    assert!(narrow.contains("stopped after 20 pages"), "{narrow}");
    sandbox.shutdown().await;
}
