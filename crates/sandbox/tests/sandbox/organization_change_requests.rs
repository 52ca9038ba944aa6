//! The organization-wide change-request list (`GET /orgs/{organizationId}/change-requests`)
//! with every filter the API reference names, as the Home sections and `quire status` send
//! them: requested reviewer, creator, contributor, several statuses, order and limit; and only
//! for the organization's members.

use quire_sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use serde_json::Value;

struct Server {
    sandbox: Sandbox,
    http: reqwest::Client,
}

impl Server {
    async fn start() -> Server {
        let address = "127.0.0.1:0".parse().expect("literal address");
        Server {
            sandbox: Sandbox::start(address, SandboxOptions::default())
                .await
                .expect("sandbox starts"),
            http: reqwest::Client::new(),
        }
    }

    /// The status and the JSON body of a request as `token`.
    async fn send(&self, method: reqwest::Method, token: &str, path: &str) -> (u16, Value) {
        let response = self
            .http
            .request(method, format!("{}/v1{path}", self.sandbox.base_url()))
            .bearer_auth(token)
            .send()
            .await
            .expect("answered");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// The ids the organization's list gives `token` for `query`.
    async fn listed(&self, token: &str, organization: &str, query: &str) -> Vec<String> {
        let path = format!("/orgs/{organization}/change-requests{query}");
        let (status, body) = self.send(reqwest::Method::GET, token, &path).await;
        assert_eq!(status, 200, "{path}: {body}");
        body["items"]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .filter_map(|item| item["id"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }
}

#[tokio::test]
async fn the_organization_list_filters_by_people_status_and_order() {
    let server = Server::start().await;
    let acme = |query: &'static str| server.listed(tokens::REVIEWER, demo_ids::ACME, query);
    let asked_of_priya = acme("?requestedReviewer=usr-priya-raman").await;
    assert_eq!(asked_of_priya, [demo_ids::CR_REVIEW, demo_ids::CR_OUTDATED]);
    let by_hannah = acme("?creator=usr-hannah-schmidt&status=open&status=draft").await;
    assert_eq!(by_hannah, [demo_ids::CR_CONFLICTS]);
    let with_diego = acme("?contributor=usr-diego-alvarez").await;
    assert_eq!(with_diego, [demo_ids::CR_REVIEW, demo_ids::CR_OUTDATED]);
    let merged = acme("?status=merged&orderBy=updatedAt").await;
    assert_eq!(merged, [demo_ids::CR_MERGED]);
    let by_creation = acme("?status=open&status=draft&orderBy=createdAt").await;
    assert_eq!(by_creation.len(), 5);
    let (_, answer) = server
        .send(
            reqwest::Method::GET,
            tokens::REVIEWER,
            &format!(
                "/orgs/{}/change-requests?status=open&status=draft&orderBy=createdAt",
                demo_ids::ACME
            ),
        )
        .await;
    let created: Vec<&str> = answer["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| item["createdAt"].as_str())
        .collect();
    assert!(
        created.windows(2).all(|pair| pair[0] >= pair[1]),
        "{created:?}"
    );
    let first_two = acme("?status=open&status=draft&limit=2").await;
    assert_eq!(first_two.len(), 2);
    // In Lumen her review is asked on the reranker change request alone.
    let lumen = server
        .listed(
            tokens::REVIEWER,
            demo_ids::LUMEN,
            "?requestedReviewer=usr-priya-raman",
        )
        .await;
    assert_eq!(lumen, [demo_ids::CR_LUMEN_OPEN]);
}

#[tokio::test]
async fn only_members_read_an_organizations_change_requests() {
    let server = Server::start().await;
    let path = format!("/orgs/{}/change-requests", demo_ids::LUMEN);
    let (before, _) = server
        .send(reqwest::Method::GET, tokens::REVIEWER, &path)
        .await;
    assert_eq!(before, 200);
    let (removed, body) = server
        .send(
            reqwest::Method::DELETE,
            tokens::ADMIN,
            &format!(
                "/orgs/{}/members/{}",
                demo_ids::LUMEN,
                demo_ids::USER_REVIEWER
            ),
        )
        .await;
    assert!(removed < 300, "{removed}: {body}");
    let (after, body) = server
        .send(reqwest::Method::GET, tokens::REVIEWER, &path)
        .await;
    assert_eq!(after, 403, "{body}");
    let (unknown, _) = server
        .send(
            reqwest::Method::GET,
            tokens::REVIEWER,
            "/orgs/org-nope/change-requests",
        )
        .await;
    assert_eq!(unknown, 404);
}
