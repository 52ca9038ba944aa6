//! The sandbox's translations against the seed: lists, create with its
//! 400s naming the field, runs that complete over time, role checks (only admins write), 404s
//! for unknown translations, and 204 deletes. Plain HTTP and JSON.

use std::time::Duration;

use crate::http::{HttpSandbox, assert_error};
use quire_sandbox::{demo_ids, tokens};
use reqwest::Method;
use serde_json::json;

pub(crate) const ORG: &str = demo_ids::ACME;

fn translations() -> String {
    format!("/orgs/{ORG}/translations")
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
    // A run takes the sandbox's time: stopped, it moves only as the test says.
    let clock = sandbox.sandbox.clock();
    clock.stop();
    let reply = sandbox
        .admin(Method::POST, &format!("{path}/run"), None)
        .await;
    assert_eq!(reply.status, 204);
    assert_eq!(reply.body, serde_json::Value::Null);
    assert_eq!(sandbox.get(&path).await["status"], "running");
    clock.advance(Duration::from_secs(
        quire_sandbox::TRANSLATION_RUN_SECONDS.unsigned_abs(),
    ));
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
