//! The sandbox's translations (seed §2.12, §4.14) and OpenAPI specs (§2.13, §4.15) against the
//! seed: lists, create with its 400s naming the field, runs that complete over time, processing
//! that progresses to a new version, role checks (only admins write), 404s for unknown
//! translations, specs and versions, and 204 deletes. Plain HTTP and JSON.

use std::time::Duration;

use crate::common::http::{HttpSandbox, assert_error};
use quire::sandbox::{demo_ids, tokens};
use reqwest::Method;
use serde_json::json;

const ORG: &str = demo_ids::ACME;

fn translations() -> String {
    format!("/orgs/{ORG}/translations")
}

fn specs() -> String {
    format!("/orgs/{ORG}/openapi")
}

#[tokio::test]
async fn demo_translations_have_three_languages_stats_and_result_spaces() {
    let sandbox = HttpSandbox::start().await;
    let list = sandbox.get(&translations()).await;
    let items = list["items"].as_array().expect("items");
    let languages: Vec<&str> = items
        .iter()
        .filter_map(|t| t["language"].as_str())
        .collect();
    assert_eq!(languages, ["fr", "de", "ja"]);
    let french = &items[0];
    assert_eq!(french["object"], "translation");
    assert_eq!(french["status"], "completed");
    assert_eq!(
        french["source"],
        json!({"space": "spc-rust-sdk", "language": "en"})
    );
    assert_eq!(french["stats"]["runs"], 3);
    assert!(french["stats"]["totalWords"].as_u64().unwrap() > 0);
    assert_eq!(french["instructions"]["object"], "document");
    let result = french["result"]["space"].as_str().expect("a result space");
    let space = sandbox.get(&format!("/spaces/{result}")).await;
    assert_eq!(space["language"], "fr");
    assert_eq!(items[2]["status"], "pending");
    assert!(items[2].get("result").is_none());
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn create_validates_each_field_and_only_admins_write() {
    let sandbox = HttpSandbox::start().await;
    let good =
        json!({"language": "es", "source": {"space": "spc-getting-started", "language": "en"}});
    let reply = sandbox
        .send(
            Method::POST,
            tokens::EDITOR,
            &translations(),
            Some(good.clone()),
        )
        .await;
    assert_error(&reply, 403, "admin");
    for (body, field) in [
        (
            json!({"source": {"space": "spc-getting-started", "language": "en"}}),
            "\"language\"",
        ),
        (
            json!({"language": "xx", "source": {"space": "spc-getting-started", "language": "en"}}),
            "\"language\"",
        ),
        (json!({"language": "es"}), "\"source\""),
        (
            json!({"language": "es", "source": {"space": "spc-nope", "language": "en"}}),
            "source.space",
        ),
        (
            json!({"language": "es", "source": {"space": "spc-getting-started", "language": "zz"}}),
            "source.language",
        ),
        (
            json!({"language": "es", "source": {"space": "spc-getting-started", "language": "en"}, "instructions": "be nice"}),
            "instructions",
        ),
        (
            json!({"language": "es", "source": {"space": "spc-getting-started", "language": "en"}, "colour": 1}),
            "colour",
        ),
    ] {
        let reply = sandbox.admin(Method::POST, &translations(), body).await;
        assert_error(&reply, 400, field);
    }
    let reply = sandbox.admin(Method::POST, &translations(), good).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(reply.body["status"], "pending");
    assert!(reply.location.is_some());
    let id = reply.body["id"].as_str().unwrap().to_string();
    let path = format!("{}/{id}", translations());
    let read = sandbox.get(&path).await;
    assert_eq!(read["language"], "es");
    // Readers read but do not write.
    let reply = sandbox.send(Method::GET, tokens::READER, &path, None).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["permissions"]["edit"], false);
    let reply = sandbox
        .send(Method::POST, tokens::READER, &format!("{path}/run"), None)
        .await;
    assert_error(&reply, 403, "admin");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn a_run_is_running_then_completes_with_stats_and_a_result_space() {
    let sandbox = HttpSandbox::start().await;
    let created = sandbox
        .admin(
            Method::POST,
            &translations(),
            json!({"language": "it", "source": {"space": "spc-getting-started", "language": "en"}}),
        )
        .await;
    let id = created.body["id"].as_str().unwrap().to_string();
    let path = format!("{}/{id}", translations());
    let reply = sandbox
        .admin(Method::POST, &format!("{path}/run"), None)
        .await;
    assert_eq!(reply.status, 204);
    assert_eq!(reply.body, serde_json::Value::Null);
    assert_eq!(sandbox.get(&path).await["status"], "running");
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let done = sandbox.get(&path).await;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["stats"]["runs"], 1);
    assert!(done["stats"]["latestPages"].as_u64().unwrap() > 0);
    let result = done["result"]["space"].as_str().expect("result space");
    assert_eq!(
        sandbox.get(&format!("/spaces/{result}")).await["language"],
        "it"
    );
    let reply = sandbox
        .admin(
            Method::POST,
            &format!("{}/trn-nope/run", translations()),
            None,
        )
        .await;
    assert_error(&reply, 404, "trn-nope");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn instructions_are_replaced_and_deletes_answer_204() {
    let sandbox = HttpSandbox::start().await;
    let path = format!("{}/trn-rust-sdk-ja", translations());
    let document = json!({"object": "document", "data": {}, "nodes": [
        {"object": "block", "type": "paragraph", "data": {}, "nodes": [
            {"object": "text", "leaves": [{"object": "leaf", "text": "Polite form", "marks": []}]}]}]});
    let reply = sandbox
        .admin(Method::PUT, &path, json!({"instructions": document}))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(sandbox.get(&path).await["instructions"], document);
    let reply = sandbox.admin(Method::PUT, &path, json!({})).await;
    assert_error(&reply, 400, "instructions");
    let reply = sandbox
        .admin(
            Method::PUT,
            &format!("{}/trn-nope", translations()),
            json!({"instructions": document}),
        )
        .await;
    assert_error(&reply, 404, "trn-nope");
    let reply = sandbox
        .send(Method::DELETE, tokens::EDITOR, &path, None)
        .await;
    assert_error(&reply, 403, "admin");
    for _ in 0..2 {
        let reply = sandbox.admin(Method::DELETE, &path, None).await;
        assert_eq!(reply.status, 204);
    }
    let reply = sandbox.admin(Method::GET, &path, None).await;
    assert_error(&reply, 404, "trn-rust-sdk-ja");
    let reply = sandbox
        .admin(Method::GET, "/orgs/org-nope/translations", None)
        .await;
    assert_error(&reply, 404, "org-nope");
    sandbox.sandbox.shutdown().await;
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
    let body = json!({"slug": "pet-store", "source": {"url": "https://x.example/pets.yaml"}});
    let reply = sandbox
        .send(Method::POST, tokens::EDITOR, &specs(), Some(body.clone()))
        .await;
    assert_error(&reply, 403, "admin");
    let reply = sandbox.admin(Method::POST, &specs(), body).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(reply.body["processingState"], "pending");
    let path = format!("{}/pet-store", specs());
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    assert_eq!(sandbox.get(&path).await["processingState"], "progress");
    tokio::time::sleep(Duration::from_millis(1_000)).await;
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
    tokio::time::sleep(Duration::from_millis(2_100)).await;
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
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let spec = sandbox.get(&path).await;
    assert_eq!(spec["lastProcessErrorCode"], "PARSE_ERROR");
    assert_eq!(
        spec["lastVersion"], "ver-pet-store-2",
        "no version from a broken source"
    );
    sandbox.sandbox.shutdown().await;
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
