//! The sandbox's OpenAPI specs against the seed: lists, create with its
//! 400s naming the field, processing that progresses to a new version, role checks (only admins
//! write), 404s for unknown specs and versions, and 204 deletes. Plain HTTP and JSON.

use std::time::Duration;

use crate::http::{HttpSandbox, assert_error};
use crate::translations::ORG;
use quire_sandbox::tokens;
use reqwest::Method;
use serde_json::json;

fn specs() -> String {
    format!("/orgs/{ORG}/openapi")
}

#[tokio::test]
async fn demo_specs_have_versions_errors_and_a_filesystem() {
    let sandbox = HttpSandbox::start().await;
    let list = sandbox.get(&specs()).await;
    let items = list["items"].as_array().expect("items");
    assert_eq!(items.len(), 2);
    let fleet = &items[0];
    assert_eq!(fleet["object"], "openapi-spec");
    assert_eq!(fleet["slug"], "fleet-api");
    assert_eq!(fleet["visibility"], "public");
    assert_eq!(fleet["processingState"], "complete");
    assert_eq!(fleet["lastVersion"], "ver-fleet-api-3");
    let telemetry = &items[1];
    assert_eq!(telemetry["lastProcessErrorCode"], "PARSE_ERROR");
    assert_eq!(
        telemetry["lastProcessedErrors"].as_array().unwrap().len(),
        2
    );
    let versions = sandbox
        .ids(&format!("{}/fleet-api/versions", specs()))
        .await;
    assert_eq!(
        versions,
        ["ver-fleet-api-3", "ver-fleet-api-2", "ver-fleet-api-1"]
    );
    let latest = sandbox
        .get(&format!("{}/fleet-api/versions/latest", specs()))
        .await;
    assert_eq!(latest["object"], "openapi-spec-version");
    assert_eq!(latest["id"], "ver-fleet-api-3");
    let content = sandbox
        .get(&format!(
            "{}/fleet-api/versions/ver-fleet-api-1/content",
            specs()
        ))
        .await;
    assert!(
        content["filesystem"]["openapi.yaml"]
            .as_str()
            .unwrap()
            .contains("version: 1.1.0")
    );
    assert!(content["filesystem"]["components"]["schemas.json"].is_string());
    assert!(content["url"].is_string());
    for path in [
        format!("{}/nope", specs()),
        format!("{}/nope/versions", specs()),
        format!("{}/nope/versions/latest/content", specs()),
    ] {
        assert_error(&sandbox.admin(Method::GET, &path, None).await, 404, "nope");
    }
    for path in [
        format!("{}/fleet-api/versions/ver-nope", specs()),
        format!("{}/fleet-api/versions/ver-nope/content", specs()),
    ] {
        assert_error(
            &sandbox.admin(Method::GET, &path, None).await,
            404,
            "ver-nope",
        );
    }
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn create_and_replace_make_new_versions_as_processing_progresses() {
    let sandbox = HttpSandbox::start().await;
    for (body, field) in [
        (
            json!({"source": {"url": "https://x.example/a.yaml"}}),
            "\"slug\"",
        ),
        (
            json!({"slug": "-bad", "source": {"url": "https://x.example/a.yaml"}}),
            "\"slug\"",
        ),
        (
            json!({"slug": "a".repeat(101), "source": {"url": "https://x.example/a.yaml"}}),
            "\"slug\"",
        ),
        (json!({"slug": "pets"}), "\"source\""),
        (
            json!({"slug": "pets", "source": {"url": "ftp://x.example/a"}}),
            "source.url",
        ),
        (
            json!({"slug": "pets", "source": {"url": format!("https://x.example/{}", "a".repeat(2048))}}),
            "source.url",
        ),
        (
            json!({"slug": "pets", "source": {"url": "https://https://x.example/a.yaml"}}),
            "the scheme is there twice",
        ),
        (
            json!({"slug": "pets", "source": {"url": "https://http:/x.example/a.yaml"}}),
            "the scheme is there twice",
        ),
        (
            json!({"slug": "fleet-api", "source": {"url": "https://x.example/a.yaml"}}),
            "already exists",
        ),
    ] {
        assert_error(
            &sandbox.admin(Method::POST, &specs(), body).await,
            400,
            field,
        );
    }
    // Processing takes the sandbox's time: stopped, it moves only as the test says.
    let clock = sandbox.sandbox.clock();
    clock.stop();
    let body = json!({"slug": "pet-store", "source": {"url": "https://x.example/pets.yaml"}});
    let reply = sandbox
        .send(Method::POST, tokens::EDITOR, &specs(), Some(body.clone()))
        .await;
    assert_error(&reply, 403, "admin");
    let reply = sandbox.admin(Method::POST, &specs(), body).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(reply.body["processingState"], "pending");
    let path = format!("{}/pet-store", specs());
    assert_eq!(sandbox.get(&path).await["processingState"], "pending");
    clock.advance(Duration::from_secs(1));
    assert_eq!(sandbox.get(&path).await["processingState"], "progress");
    clock.advance(Duration::from_secs(1));
    let spec = sandbox.get(&path).await;
    assert_eq!(spec["processingState"], "complete");
    assert_eq!(spec["lastVersion"], "ver-pet-store-1");
    let reply = sandbox
        .admin(
            Method::PUT,
            &path,
            json!({"source": {"url": "https://x.example/pets-v2.yaml"}}),
        )
        .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["sourceURL"], "https://x.example/pets-v2.yaml");
    clock.advance(processing());
    assert_eq!(
        sandbox.ids(&format!("{path}/versions")).await,
        ["ver-pet-store-2", "ver-pet-store-1"]
    );
    let reply = sandbox
        .admin(
            Method::PUT,
            &path,
            json!({"source": {"url": "https://x.example/invalid.yaml"}}),
        )
        .await;
    assert_eq!(reply.status, 200);
    clock.advance(processing());
    let spec = sandbox.get(&path).await;
    assert_eq!(spec["lastProcessErrorCode"], "PARSE_ERROR");
    assert_eq!(
        spec["lastVersion"], "ver-pet-store-2",
        "no version from a broken source"
    );
    sandbox.sandbox.shutdown().await;
}

/// How long the sandbox takes to process a source.
fn processing() -> Duration {
    Duration::from_secs(quire_sandbox::OPENAPI_PROCESSING_SECONDS.unsigned_abs())
}

#[tokio::test]
async fn visibility_toggles_and_deletes_answer_204() {
    let sandbox = HttpSandbox::start().await;
    let path = format!("{}/telemetry", specs());
    let reply = sandbox
        .admin(Method::PATCH, &path, json!({"visibility": "public"}))
        .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["visibility"], "public");
    assert_error(
        &sandbox
            .admin(Method::PATCH, &path, json!({"visibility": "open"}))
            .await,
        400,
        "visibility",
    );
    assert_error(
        &sandbox.admin(Method::PATCH, &path, json!({})).await,
        400,
        "visibility",
    );
    assert_error(
        &sandbox
            .admin(
                Method::PATCH,
                &format!("{}/nope", specs()),
                json!({"visibility": "public"}),
            )
            .await,
        404,
        "nope",
    );
    let reply = sandbox
        .send(
            Method::PATCH,
            tokens::READER,
            &path,
            Some(json!({"visibility": "private"})),
        )
        .await;
    assert_error(&reply, 403, "admin");
    let reply = sandbox
        .send(Method::DELETE, tokens::REVIEWER, &path, None)
        .await;
    assert_error(&reply, 403, "admin");
    for _ in 0..2 {
        assert_eq!(sandbox.admin(Method::DELETE, &path, None).await.status, 204);
    }
    assert_error(
        &sandbox.admin(Method::GET, &path, None).await,
        404,
        "telemetry",
    );
    sandbox.sandbox.shutdown().await;
}
