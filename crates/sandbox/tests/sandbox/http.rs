//! Plain HTTP against a fresh sandbox, none of the client's types: for the sandbox contract
//! suites, which hold the server's JSON against the seed reference.

use quire_sandbox::{Sandbox, SandboxOptions, tokens};
use reqwest::Method;
use serde_json::Value;

/// A fresh sandbox and an HTTP client for it.
pub struct HttpSandbox {
    pub sandbox: Sandbox,
    /// For the requests the helpers below do not make (a body that is not JSON, no token).
    pub http: reqwest::Client,
}

/// A decoded answer: status, JSON body (`Null` when empty) and the `Location` header.
pub struct Reply {
    pub status: u16,
    pub body: Value,
    pub location: Option<String>,
}

impl HttpSandbox {
    pub async fn start() -> HttpSandbox {
        let address = "127.0.0.1:0".parse().expect("literal address");
        let sandbox = Sandbox::start(address, SandboxOptions::default())
            .await
            .expect("sandbox starts");
        HttpSandbox {
            sandbox,
            http: reqwest::Client::new(),
        }
    }

    async fn send_raw(
        &self,
        method: Method,
        token: &str,
        path: &str,
        body: Option<Value>,
    ) -> Reply {
        let url = format!("{}{path}", self.sandbox.base_url());
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
            serde_json::from_str(&text)
                .unwrap_or_else(|error| panic!("{path}: not JSON ({error}): {text}"))
        };
        Reply {
            status,
            body,
            location,
        }
    }

    /// An API call (`path` after `/v1`) as `token`.
    pub async fn send(
        &self,
        method: Method,
        token: &str,
        path: &str,
        body: Option<Value>,
    ) -> Reply {
        self.send_raw(method, token, &format!("/v1{path}"), body)
            .await
    }

    /// An API call (`path` after `/v1`) as the demo admin, with a body or `None`.
    pub async fn admin(&self, method: Method, path: &str, body: impl Into<Option<Value>>) -> Reply {
        self.send(method, tokens::ADMIN, path, body.into()).await
    }

    /// A read that must succeed.
    pub async fn get(&self, path: &str) -> Value {
        let reply = self.admin(Method::GET, path, None).await;
        assert_eq!(reply.status, 200, "{path}: {}", reply.body);
        reply.body
    }

    /// A sandbox-only knob under `/_sandbox`.
    pub async fn knob(&self, method: Method, path: &str, body: Option<Value>) -> Reply {
        self.send_raw(method, tokens::ADMIN, path, body).await
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

/// The collections suites' name for it.
pub type Harness = HttpSandbox;

/// The status and the contract's error body, whose message names `needle`.
pub fn assert_error(reply: &Reply, status: u16, needle: &str) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.body["error"]["code"], status, "{}", reply.body);
    let message = reply.body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(needle),
        "message {message:?} should name {needle:?}"
    );
}
