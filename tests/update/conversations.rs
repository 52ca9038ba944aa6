//! Layer 1 for the Clusters tab and its deeper screens (a cluster's issues, conversations by
//! source, a transcript, ingest): `update` on its own. Keys and answers in, the state and the
//! exact calls out.

use crate::common::*;
use quire::api::models::{Conversation, ConversationDetail, IssueWithConversation, IssuesCluster};
use quire::api::{
    ApiError, ClusterOrder, ClusterSort, ClusterStatus, FieldProblem, IssueFilter, ListPage,
};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, RequestId, Size, update};
use quire::screens::Screen;
use quire::screens::conversations::tab::{ClustersTab, ClustersView};
use quire::screens::organization::{Organization, Tab};
use quire::vocabulary::conversations::{ConversationsCall, ConversationsResponse, IngestFailure};
use ratatui::crossterm::event::KeyCode;
use serde_json::json;

pub(crate) const ORG: &str = "org-acme";

pub(crate) fn page<T>(items: Vec<T>, next: Option<&str>) -> ListPage<T> {
    ListPage {
        items,
        next_page: next.map(str::to_string),
        count: None,
        unreadable: Vec::new(),
    }
}

pub fn cluster(id: &str, label: &str) -> IssuesCluster {
    from_json(json!({
        "id": id, "label": label, "icon": "key", "summary": "People ask **why**.",
        "createdAt": "2024-01-01T00:00:00Z", "updatedAt": "2024-03-01T00:00:00Z",
        "weeklyPulse": [1, 2, 3, 5, 8, 13, 8, 5, 3, 2, 1, 4],
        "sources": {"intercom": 4, "slack": 2},
        "stats": {"issues": 12, "conversations": 9, "tasksTotal": 3, "tasksBacklog": 1,
                  "tasksStarted": 1, "tasksCompleted": 1, "tasksCancelled": 0},
        "urls": {"app": format!("https://app.example/{id}")}
    }))
}

fn conversation(id: &str, source: &str) -> Conversation {
    from_json(
        json!({"id": id, "subject": format!("Subject {id}"), "source": source,
        "createdAt": "2024-05-01T00:00:00Z"}),
    )
}

fn issue_item(id: &str, conversation_id: &str) -> IssueWithConversation {
    from_json(json!({
        "issue": {"id": id, "title": format!("Issue {id}"), "summary": "Docs are unclear.",
                  "conversation": conversation_id, "cluster": "cl-1"},
        "conversation": {"id": conversation_id, "subject": "Help please", "source": "intercom"}
    }))
}

fn detail(id: &str) -> ConversationDetail {
    from_json(json!({
        "conversation": {"id": id, "subject": "Help please", "source": "intercom"},
        "parts": [{"type": "message", "role": "user", "body": "It **fails**."},
                  {"type": "message", "role": "assistant", "body": "Try `--arch arm64`."}],
        "metadata": {"url": "https://support.example/t/1", "attributes": {"plan": "pro"}}
    }))
}

/// The organization screen on the tab before `tab`, so one `tab` key shows `tab`, for its
/// admin.
pub(crate) fn organization_on(tab: Tab) -> Model {
    organization_as(tab, true)
}

fn organization_as(tab: Tab, admin: bool) -> Model {
    let mut json = organization_json(ORG, "Acme");
    json["permissions"] = json!({"view": true, "admin": admin});
    let mut organization = Organization::new(from_json(json));
    let index = Tab::ALL.iter().position(|t| *t == tab).expect("a tab");
    organization.tab = Tab::ALL[index - 1];
    Model::new(
        Screen::Organization(organization),
        environment(),
        Size {
            width: 80,
            height: 24,
        },
    )
}

pub(crate) fn org(model: &Model) -> &Organization {
    match model.top() {
        Screen::Organization(organization) => organization,
        other => panic!("expected the organization screen, got {}", other.title()),
    }
}

fn clusters_tab(model: &Model) -> &ClustersTab {
    &org(model).clusters
}

pub(crate) fn press(model: &mut Model, keys: &str) -> Cmd {
    let mut last = Cmd::None;
    for c in keys.chars() {
        last = update(model, char_key(c));
    }
    last
}

fn conversations_call(cmd: &Cmd) -> (RequestId, ConversationsCall) {
    match only_request(cmd) {
        (request, ApiCall::Conversations(call)) => (request, call),
        (_, other) => panic!("expected a conversations call, got {other:?}"),
    }
}

/// The Clusters tab shown with `clusters` loaded.
fn clusters_model(clusters: Vec<IssuesCluster>) -> Model {
    let mut model = organization_on(Tab::Clusters);
    let cmd = update(&mut model, key(KeyCode::Tab));
    let (request, call) = conversations_call(&cmd);
    assert_eq!(
        call,
        ConversationsCall::Clusters {
            organization: ORG.into(),
            order: ClusterOrder::default(),
            status: None,
            page: None,
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Conversations(ConversationsResponse::Clusters(Ok(page(clusters, None)))),
    );
    model
}

#[test]
fn sort_and_order_reload_the_clusters_as_the_api_offers() {
    let mut model = clusters_model(vec![cluster("cl-1", "Login"), cluster("cl-2", "Billing")]);
    assert_eq!(clusters_tab(&model).clusters.items.len(), 2);
    let (_, call) = conversations_call(&press(&mut model, "s"));
    let ConversationsCall::Clusters { order, .. } = call else {
        panic!("a clusters call");
    };
    assert_eq!(order.sort, ClusterSort::CreatedAt);
    assert!(!order.ascending);
    let (_, call) = conversations_call(&press(&mut model, "O"));
    let ConversationsCall::Clusters { order, .. } = call else {
        panic!("a clusters call");
    };
    assert_eq!(
        order,
        ClusterOrder {
            sort: ClusterSort::CreatedAt,
            ascending: true
        }
    );
}

#[test]
fn status_cycles_every_active_archived_and_reloads_the_clusters() {
    let mut model = clusters_model(vec![cluster("cl-1", "Login")]);
    for expected in [
        Some(ClusterStatus::Active),
        Some(ClusterStatus::Archived),
        None,
    ] {
        let (_, call) = conversations_call(&press(&mut model, "S"));
        let ConversationsCall::Clusters { status, .. } = call else {
            panic!("a clusters call");
        };
        assert_eq!(status, expected);
    }
}

#[test]
fn a_clusters_issues_then_an_issues_conversation_as_a_transcript() {
    let mut model = clusters_model(vec![cluster("cl-1", "Login"), cluster("cl-2", "Billing")]);
    let cmd = update(&mut model, key(KeyCode::Enter));
    let (request, call) = conversations_call(&cmd);
    assert_eq!(
        call,
        ConversationsCall::Issues {
            organization: ORG.into(),
            filter: IssueFilter {
                cluster: Some("cl-1".into()),
                conversation: None
            },
            page: None,
        }
    );
    assert_eq!(model.top().title(), "Issues · Login");
    respond(
        &mut model,
        request,
        ApiResponse::Conversations(ConversationsResponse::Issues(Ok(page(
            vec![issue_item("i-1", "c-1"), issue_item("i-2", "c-2")],
            None,
        )))),
    );
    press(&mut model, "j");
    let cmd = update(&mut model, key(KeyCode::Enter));
    let (request, call) = conversations_call(&cmd);
    assert_eq!(
        call,
        ConversationsCall::Conversation {
            organization: ORG.into(),
            id: "c-2".into()
        }
    );
    let Screen::Conversation(screen) = model.top() else {
        panic!("the conversation screen");
    };
    assert_eq!(screen.issue.as_ref().map(|i| i.id.as_str()), Some("i-2"));
    respond(
        &mut model,
        request,
        ApiResponse::Conversations(ConversationsResponse::Conversation(Ok(detail("c-2")))),
    );
    assert_eq!(model.top().title(), "Conversation · Help please");
    assert_eq!(
        model.top().link().as_deref(),
        Some("https://support.example/t/1")
    );
}

#[test]
fn c_opens_the_change_requests_linked_to_the_cluster() {
    let mut model = clusters_model(vec![cluster("cl-1", "Login")]);
    press(&mut model, "c");
    let Screen::ChangeRequests(list) = model.top() else {
        panic!("the change request list, got {}", model.top().title());
    };
    assert_eq!(list.cluster, Some(("cl-1".into(), "Login".into())));
    // From a cluster's issues too.
    update(&mut model, key(KeyCode::Esc));
    update(&mut model, key(KeyCode::Enter));
    press(&mut model, "c");
    let Screen::ChangeRequests(list) = model.top() else {
        panic!("the change request list, got {}", model.top().title());
    };
    assert_eq!(
        list.cluster.as_ref().map(|(id, _)| id.as_str()),
        Some("cl-1")
    );
}

#[test]
fn conversations_view_filters_by_source_and_opens_a_transcript() {
    let mut model = clusters_model(vec![cluster("cl-1", "Login")]);
    let (request, call) = conversations_call(&press(&mut model, "v"));
    assert_eq!(clusters_tab(&model).view, ClustersView::Conversations);
    assert_eq!(
        call,
        ConversationsCall::Conversations {
            organization: ORG.into(),
            source: None,
            page: None
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Conversations(ConversationsResponse::Conversations(Ok(page(
            vec![conversation("c-1", "zendesk")],
            None,
        )))),
    );
    // Sources: intercom, slack (from the cluster), zendesk (from the list), then all again.
    for expected in [Some("intercom"), Some("slack"), Some("zendesk"), None] {
        let (_, call) = conversations_call(&press(&mut model, "f"));
        let ConversationsCall::Conversations { source, .. } = call else {
            panic!("a conversations call");
        };
        assert_eq!(source.as_deref(), expected);
    }
    let (request, _) = conversations_call(&press(&mut model, "r"));
    respond(
        &mut model,
        request,
        ApiResponse::Conversations(ConversationsResponse::Conversations(Ok(page(
            vec![conversation("c-1", "zendesk")],
            None,
        )))),
    );
    let (_, call) = conversations_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        ConversationsCall::Conversation {
            organization: ORG.into(),
            id: "c-1".into()
        }
    );
}

#[test]
fn ingest_asks_for_a_path_and_names_the_wrong_field() {
    let mut model = clusters_model(vec![cluster("cl-1", "Login")]);
    press(&mut model, "i");
    assert!(clusters_tab(&model).ingest.is_some());
    // An empty path is refused in the prompt: nothing is sent.
    assert!(requests(&update(&mut model, key(KeyCode::Enter))).is_empty());
    let cmd = press(&mut model, "/tmp/c.json");
    assert!(requests(&cmd).is_empty(), "typing goes to the prompt");
    let (request, call) = conversations_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        ConversationsCall::IngestFile {
            organization: ORG.into(),
            path: "/tmp/c.json".into()
        }
    );
    // A second ingest waits for the first.
    press(&mut model, "i");
    assert!(clusters_tab(&model).ingest.is_none());
    let failure = IngestFailure::Invalid(vec![FieldProblem {
        field: "parts[0].role".into(),
        problem: "required: a non-empty string".into(),
    }]);
    respond(
        &mut model,
        request,
        ApiResponse::Conversations(ConversationsResponse::Ingested(Err(failure))),
    );
    let notice = clusters_tab(&model).notice.clone().expect("a notice");
    assert!(
        notice.error && notice.text.contains("parts[0].role"),
        "{notice:?}"
    );
    // The error stays until esc.
    update(&mut model, key(KeyCode::Esc));
    assert!(clusters_tab(&model).notice.is_none());
    press(&mut model, "i");
    press(&mut model, "/tmp/ok.json");
    let (request, _) = conversations_call(&update(&mut model, key(KeyCode::Enter)));
    let cmd = respond(
        &mut model,
        request,
        ApiResponse::Conversations(ConversationsResponse::Ingested(Ok("Dark mode?".into()))),
    );
    let (_, call) = conversations_call(&cmd);
    assert!(matches!(call, ConversationsCall::Conversations { .. }));
    assert_eq!(clusters_tab(&model).view, ClustersView::Conversations);
    let notice = clusters_tab(&model).notice.clone().expect("a notice");
    assert!(!notice.error && notice.text.contains("Dark mode?"));
}

#[test]
fn ingest_is_struck_through_and_refused_for_a_non_admin() {
    let mut model = organization_as(Tab::Clusters, false);
    let (request, _) = conversations_call(&update(&mut model, key(KeyCode::Tab)));
    respond(
        &mut model,
        request,
        ApiResponse::Conversations(ConversationsResponse::Clusters(Ok(page(vec![], None)))),
    );
    assert!(
        model
            .top()
            .disabled_actions()
            .contains(&quire::ui::keymap::Action::IngestConversation)
    );
    assert!(requests(&press(&mut model, "i")).is_empty());
    assert!(clusters_tab(&model).ingest.is_none());
    let notice = clusters_tab(&model).notice.clone().expect("a notice");
    assert!(notice.text.contains("admin role"), "{notice:?}");
}

#[test]
fn a_refused_ingest_says_the_servers_words() {
    let mut model = clusters_model(vec![]);
    press(&mut model, "i");
    press(&mut model, "c.json");
    let (request, _) = conversations_call(&update(&mut model, key(KeyCode::Enter)));
    let refused = ApiError::Status {
        endpoint: "POST /orgs/org-acme/conversations".into(),
        status: 403,
        code: None,
        message: "Ingesting conversations needs the admin role".into(),
    };
    respond(
        &mut model,
        request,
        ApiResponse::Conversations(ConversationsResponse::Ingested(Err(
            IngestFailure::Refused(refused),
        ))),
    );
    let notice = clusters_tab(&model).notice.clone().expect("a notice");
    assert!(notice.text.contains("needs the admin role"), "{notice:?}");
}

#[test]
fn a_failed_clusters_load_is_kept_to_show() {
    let mut model = organization_on(Tab::Clusters);
    let (request, _) = conversations_call(&update(&mut model, key(KeyCode::Tab)));
    let error = ApiError::Timeout {
        endpoint: "GET /orgs/org-acme/conversations-clusters".into(),
    };
    respond(
        &mut model,
        request,
        ApiResponse::Conversations(ConversationsResponse::Clusters(Err(error.clone()))),
    );
    assert_eq!(clusters_tab(&model).clusters.error, Some(error));
    // Enter with nothing loaded opens nothing.
    update(&mut model, key(KeyCode::Enter));
    assert!(matches!(model.top(), Screen::Organization(_)));
}

/// `r` on a conversation opened from an issue reads that issue alone as well, so what the
/// screen says of the issue is the server's now.
#[tokio::test]
async fn r_on_a_conversation_opened_from_an_issue_reads_the_issue_alone() {
    use quire::api::{Client, ClientConfig, Token};
    use quire::headless;
    use quire::sandbox::{Sandbox, SandboxOptions, tokens};
    use quire::screens::Screen;
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .unwrap();
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap();
    let effects = headless::effects_with(client);
    let mut model = crate::common::organizations_model(100, 30);
    headless::start(&mut model, &effects).await;
    // Acme, the Clusters tab (the ninth), its first cluster, then its first issue.
    headless::type_keys(&mut model, &effects, "\r\t\t\t\t\t\t\t\t\r\r").await;
    let issue = match model.top() {
        Screen::Conversation(screen) => screen.issue.clone().expect("opened from an issue"),
        _ => panic!("not on a conversation"),
    };
    let single = format!("/orgs/*/conversations-issues/{}", issue.id);
    assert_eq!(sandbox.requests("GET", &single), 0);
    let lists = sandbox.requests("GET", "/orgs/*/conversations-issues");
    headless::type_keys(&mut model, &effects, "r").await;
    assert_eq!(sandbox.requests("GET", &single), 1, "the issue read alone");
    assert_eq!(
        sandbox.requests("GET", "/orgs/*/conversations-issues"),
        lists,
        "not the list"
    );
    let Screen::Conversation(screen) = model.top() else {
        panic!("still on the conversation");
    };
    assert_eq!(screen.issue.as_ref(), Some(&issue), "the server's issue");
    assert!(screen.detail.value().is_some(), "and the transcript");
}
