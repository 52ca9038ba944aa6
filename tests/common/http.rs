//! Plain HTTP against a fresh sandbox, none of the client's types: for the sandbox contract
//! suites, which hold the server's JSON against the seed reference.

use quire::sandbox::{Sandbox, SandboxOptions, tokens};
use reqwest::Method;
use serde_json::Value;

/// A fresh sandbox and an HTTP client for it.
pub struct Harness {
    pub sandbox: Sandbox,
    pub http: reqwest::Client,
}

/// A decoded answer: status, JSON body (`Null` when empty) and the `Location` header.
pub struct Reply {
    pub status: u16,
    pub body: Value,
    pub location: Option<String>,
}

impl Harness {
    pub async fn start() -> Harness {
        let address = "127.0.0.1:0".parse().expect("literal address");
        let sandbox = Sandbox::start(address, SandboxOptions::default())
            .await
            .expect("sandbox starts");
        Harness {
            sandbox,
            http: reqwest::Client::new(),
        }
    }

    pub async fn send(
        &self,
        method: Method,
        token: &str,
        path: &str,
        body: Option<Value>,
    ) -> Reply {
        let url = format!("{}/v1{path}", self.sandbox.base_url());
        let mut request = self.http.request(method, url).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("request is answered");
        let status = response.status().as_u16();
        let location = response
            .headers()
            .get("location")
            .and_then(|value| value.to_str().ok())
            .map(str::to_string);
        let text = response.text().await.expect("body is readable");
        let body = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).expect("JSON body")
        };
        Reply {
            status,
            body,
            location,
        }
    }

    pub async fn get(&self, path: &str) -> Value {
        let reply = self.send(Method::GET, tokens::ADMIN, path, None).await;
        assert_eq!(reply.status, 200, "{path}: {}", reply.body);
        reply.body
    }

    pub async fn admin(&self, method: Method, path: &str, body: Value) -> Reply {
        self.send(method, tokens::ADMIN, path, Some(body)).await
    }

    /// Ids of the list at `path`, in the server's order.
    pub async fn ids(&self, path: &str) -> Vec<String> {
        self.get(path).await["items"]
            .as_array()
            .expect("items")
            .iter()
            .filter_map(|item| item["id"].as_str().map(str::to_string))
            .collect()
    }
}
