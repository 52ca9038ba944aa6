//! The sandbox's collections endpoints and the moves and transfers of collections and spaces,
//! against the seed reference: create, change with validation, delete,
//! `nested`, permissions, and every error case the seed lists for moves and transfers. Plain
//! HTTP and JSON, none of the client's types; every write is read back over HTTP.

use quire_sandbox::{demo_ids, tokens};
use reqwest::Method;
use serde_json::{Value, json};

use crate::http::{Harness, Reply};

fn error_message(reply: &Reply) -> String {
    reply.body["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn acme_collections() -> String {
    format!("/orgs/{}/collections", demo_ids::ACME)
}

#[tokio::test]
async fn create_places_a_collection_under_its_parent_and_answers_201_with_location() {
    let harness = Harness::start().await;
    let reply = harness
        .admin(
            Method::POST,
            &acme_collections(),
            json!({"title": "Runbooks", "parent": demo_ids::COLLECTION_PLATFORM}),
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(reply.body["object"], "collection");
    assert_eq!(reply.body["title"], "Runbooks");
    assert_eq!(reply.body["parent"], demo_ids::COLLECTION_PLATFORM);
    assert_eq!(reply.body["organization"], demo_ids::ACME);
    assert_eq!(reply.body["permissions"]["admin"], true);
    let id = reply.body["id"].as_str().expect("id").to_string();
    assert!(
        reply
            .location
            .expect("Location")
            .ends_with(&format!("/collections/{id}"))
    );
    let read = harness.get(&format!("/collections/{id}")).await;
    assert_eq!(read["title"], "Runbooks");
    // Without a body: a top-level collection with a default title.
    let reply = harness
        .send(Method::POST, tokens::ADMIN, &acme_collections(), None)
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert!(reply.body.get("parent").is_none());
}

#[tokio::test]
async fn create_refuses_long_titles_unknown_parents_and_readers() {
    let harness = Harness::start().await;
    let reply = harness
        .admin(
            Method::POST,
            &acme_collections(),
            json!({"title": "x".repeat(51)}),
        )
        .await;
    assert_eq!(reply.status, 400);
    assert!(
        error_message(&reply).contains("\"title\""),
        "{}",
        reply.body
    );
    let reply = harness
        .admin(
            Method::POST,
            &acme_collections(),
            json!({"parent": "col-nowhere"}),
        )
        .await;
    assert_eq!(reply.status, 400);
    assert!(error_message(&reply).contains("\"parent\""));
    // A collection of the other organization is no parent here either.
    let reply = harness
        .admin(
            Method::POST,
            &acme_collections(),
            json!({"parent": demo_ids::COLLECTION_LUMEN_CORE}),
        )
        .await;
    assert_eq!(reply.status, 400);
    let reply = harness
        .send(
            Method::POST,
            tokens::READER,
            &acme_collections(),
            Some(json!({"title": "Mine"})),
        )
        .await;
    assert_eq!(reply.status, 403);
    assert!(
        error_message(&reply).contains("create role"),
        "{}",
        reply.body
    );
}

#[tokio::test]
async fn patch_changes_only_the_fields_sent_and_names_the_bad_field() {
    let harness = Harness::start().await;
    let path = format!("/collections/{}", demo_ids::COLLECTION_PRODUCT);
    let reply = harness
        .admin(Method::PATCH, &path, json!({"title": "Product"}))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let read = harness.get(&path).await;
    assert_eq!(read["title"], "Product");
    assert_eq!(
        read["description"],
        "Customer-facing guides and release notes"
    );
    assert_eq!(read["defaultLevel"], "read");
    harness
        .admin(
            Method::PATCH,
            &path,
            json!({"description": "Guides", "defaultLevel": null}),
        )
        .await;
    let read = harness.get(&path).await;
    assert_eq!(read["description"], "Guides");
    assert_eq!(read["defaultLevel"], Value::Null);
    harness
        .admin(Method::PATCH, &path, json!({"defaultLevel": "edit"}))
        .await;
    assert_eq!(harness.get(&path).await["defaultLevel"], "edit");

    for (body, field) in [
        (json!({"title": "t".repeat(51)}), "title"),
        (json!({"title": ""}), "title"),
        (json!({"description": "d".repeat(101)}), "description"),
        (json!({"defaultLevel": "owner"}), "defaultLevel"),
        (json!({"colour": "red"}), "colour"),
    ] {
        let reply = harness.admin(Method::PATCH, &path, body.clone()).await;
        assert_eq!(reply.status, 400, "{body}");
        assert!(
            error_message(&reply).contains(field),
            "{body}: {}",
            reply.body
        );
    }
    let reply = harness
        .admin(
            Method::PATCH,
            "/collections/col-nowhere",
            json!({"title": "x"}),
        )
        .await;
    assert_eq!(reply.status, 404);
}

#[tokio::test]
async fn delete_takes_nested_collections_and_spaces_and_answers_204_twice() {
    let harness = Harness::start().await;
    let path = format!("/collections/{}", demo_ids::COLLECTION_PLATFORM);
    let reply = harness
        .send(Method::DELETE, tokens::ADMIN, &path, None)
        .await;
    assert_eq!(reply.status, 204);
    let reply = harness.send(Method::GET, tokens::ADMIN, &path, None).await;
    assert_eq!(reply.status, 404);
    let reply = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            &format!("/collections/{}", demo_ids::COLLECTION_ROBOTICS_SDK),
            None,
        )
        .await;
    assert_eq!(reply.status, 404, "the nested collection went too");
    let spaces = harness
        .ids(&format!("/orgs/{}/spaces", demo_ids::ACME))
        .await;
    assert!(!spaces.contains(&demo_ids::SPACE_API_REFERENCE.to_string()));
    assert!(spaces.contains(&demo_ids::SPACE_HANDBOOK.to_string()));
    // Missing: still 204.
    let reply = harness
        .send(Method::DELETE, tokens::ADMIN, &path, None)
        .await;
    assert_eq!(reply.status, 204);
}

#[tokio::test]
async fn nested_false_lists_only_the_top_level_and_collection_spaces_lists_its_own() {
    let harness = Harness::start().await;
    let all = harness.ids(&acme_collections()).await;
    assert_eq!(all.len(), 4);
    let top = harness
        .ids(&format!("{}?nested=false", acme_collections()))
        .await;
    assert_eq!(
        top,
        vec![
            demo_ids::COLLECTION_ENGINEERING,
            demo_ids::COLLECTION_PRODUCT
        ]
    );
    let spaces = harness
        .ids(&format!(
            "/collections/{}/spaces",
            demo_ids::COLLECTION_PRODUCT
        ))
        .await;
    assert!(spaces.contains(&demo_ids::SPACE_GETTING_STARTED.to_string()));
    assert!(spaces.contains(&demo_ids::SPACE_CHANGELOG.to_string()));
}

#[tokio::test]
async fn permissions_follow_a_role_given_on_a_collection() {
    let harness = Harness::start().await;
    let governance = harness
        .get(&format!(
            "/collections/{}",
            demo_ids::COLLECTION_LUMEN_GOVERNANCE
        ))
        .await;
    assert_eq!(governance["permissions"]["admin"], false);
    assert_eq!(governance["permissions"]["create"], true);
    let rfcs = harness.get("/spaces/spc-lumen-rfcs").await;
    assert_eq!(
        rfcs["permissions"]["admin"], false,
        "inherited by the space"
    );
    let core = harness
        .get(&format!("/collections/{}", demo_ids::COLLECTION_LUMEN_CORE))
        .await;
    assert_eq!(core["permissions"]["admin"], true);
    let path = format!("/collections/{}", demo_ids::COLLECTION_LUMEN_GOVERNANCE);
    let reply = harness
        .admin(Method::PATCH, &path, json!({"title": "Mine now"}))
        .await;
    assert_eq!(reply.status, 403);
    assert!(
        error_message(&reply).contains("admin role"),
        "{}",
        reply.body
    );
    let reply = harness
        .send(Method::DELETE, tokens::ADMIN, &path, None)
        .await;
    assert_eq!(reply.status, 403);
    // Creating inside is allowed with `create`.
    let reply = harness
        .admin(
            Method::POST,
            &format!("/orgs/{}/collections", demo_ids::LUMEN),
            json!({"title": "Minutes", "parent": demo_ids::COLLECTION_LUMEN_GOVERNANCE}),
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
}

#[tokio::test]
async fn a_space_moves_into_a_collection_and_before_a_sibling() {
    let harness = Harness::start().await;
    let move_path = format!("/spaces/{}/move", demo_ids::SPACE_HANDBOOK);
    let reply = harness
        .admin(
            Method::POST,
            &move_path,
            json!({"parent": demo_ids::COLLECTION_PRODUCT,
                   "position": {"before": {"type": "space", "space": demo_ids::SPACE_GETTING_STARTED}}}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["object"], "space");
    assert_eq!(reply.body["parent"], demo_ids::COLLECTION_PRODUCT);
    let order = harness
        .ids(&format!(
            "/collections/{}/spaces",
            demo_ids::COLLECTION_PRODUCT
        ))
        .await;
    let handbook = order.iter().position(|id| id == demo_ids::SPACE_HANDBOOK);
    let start = order
        .iter()
        .position(|id| id == demo_ids::SPACE_GETTING_STARTED);
    assert_eq!(handbook.map(|index| index + 1), start, "{order:?}");
    // After the changelog this time.
    let reply = harness
        .admin(
            Method::POST,
            &move_path,
            json!({"position": {"after": {"type": "space", "space": demo_ids::SPACE_CHANGELOG}}}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let order = harness
        .ids(&format!(
            "/collections/{}/spaces",
            demo_ids::COLLECTION_PRODUCT
        ))
        .await;
    let handbook = order.iter().position(|id| id == demo_ids::SPACE_HANDBOOK);
    let changelog = order.iter().position(|id| id == demo_ids::SPACE_CHANGELOG);
    assert_eq!(changelog.map(|index| index + 1), handbook, "{order:?}");
    // Back to the top level.
    let reply = harness
        .admin(Method::POST, &move_path, json!({"parent": null}))
        .await;
    assert_eq!(reply.status, 200);
    let read = harness
        .get(&format!("/spaces/{}", demo_ids::SPACE_HANDBOOK))
        .await;
    assert!(read.get("parent").is_none(), "{read}");
}

#[tokio::test]
async fn moves_refuse_what_the_seed_lists_in_words() {
    let harness = Harness::start().await;
    let move_path = format!("/spaces/{}/move", demo_ids::SPACE_GETTING_STARTED);
    // Would not change anything.
    let reply = harness
        .admin(
            Method::POST,
            &move_path,
            json!({"parent": demo_ids::COLLECTION_PRODUCT,
                   "position": {"before": {"type": "space", "space": demo_ids::SPACE_CHANGELOG}}}),
        )
        .await;
    assert_eq!(reply.status, 409, "{}", reply.body);
    assert!(
        error_message(&reply).contains("would not change anything"),
        "{}",
        reply.body
    );
    // Invalid position: not a sibling in the target, or no such space.
    let reply = harness
        .admin(
            Method::POST,
            &move_path,
            json!({"parent": demo_ids::COLLECTION_PRODUCT,
                   "position": {"after": {"type": "space", "space": demo_ids::SPACE_HANDBOOK}}}),
        )
        .await;
    assert_eq!(reply.status, 400);
    assert!(
        error_message(&reply).contains("\"position\""),
        "{}",
        reply.body
    );
    let reply = harness
        .admin(
            Method::POST,
            &move_path,
            json!({"position": {"after": {"type": "space", "space": "spc-nowhere"}}}),
        )
        .await;
    assert_eq!(reply.status, 400);
    // Invalid collection.
    let reply = harness
        .admin(Method::POST, &move_path, json!({"parent": "col-nowhere"}))
        .await;
    assert_eq!(reply.status, 400);
    assert!(error_message(&reply).contains("\"parent\""));
    // No matching space.
    let reply = harness
        .admin(
            Method::POST,
            "/spaces/spc-nowhere/move",
            json!({"parent": null}),
        )
        .await;
    assert_eq!(reply.status, 404);
    // A collection cannot go inside itself.
    let reply = harness
        .admin(
            Method::POST,
            &format!("/collections/{}/move", demo_ids::COLLECTION_ENGINEERING),
            json!({"parent": demo_ids::COLLECTION_ROBOTICS_SDK}),
        )
        .await;
    assert_eq!(reply.status, 400);
    assert!(error_message(&reply).contains("inside itself"));
    // Not an admin of the space.
    let reply = harness
        .send(
            Method::POST,
            tokens::EDITOR,
            &move_path,
            Some(json!({"parent": null})),
        )
        .await;
    assert_eq!(reply.status, 403);
}

#[tokio::test]
async fn a_collection_moves_to_the_top_level_with_its_content() {
    let harness = Harness::start().await;
    let reply = harness
        .admin(
            Method::POST,
            &format!("/collections/{}/move", demo_ids::COLLECTION_ROBOTICS_SDK),
            json!({"parent": null}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["object"], "collection");
    let top = harness
        .ids(&format!("{}?nested=false", acme_collections()))
        .await;
    assert!(top.contains(&demo_ids::COLLECTION_ROBOTICS_SDK.to_string()));
    let api = harness
        .get(&format!("/spaces/{}", demo_ids::SPACE_API_REFERENCE))
        .await;
    assert_eq!(api["parent"], demo_ids::COLLECTION_ROBOTICS_SDK);
    // Again: nothing to change.
    let reply = harness
        .admin(
            Method::POST,
            &format!("/collections/{}/move", demo_ids::COLLECTION_ROBOTICS_SDK),
            json!({"parent": null}),
        )
        .await;
    assert_eq!(reply.status, 409);
}

#[tokio::test]
async fn transfers_move_content_to_another_organization_or_say_why_not() {
    let harness = Harness::start().await;
    // A space without git sync goes, to the top level of the other organization.
    let reply = harness
        .admin(
            Method::POST,
            &format!("/spaces/{}/transfer", demo_ids::SPACE_HANDBOOK),
            json!({"organization": demo_ids::LUMEN}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["organization"], demo_ids::LUMEN);
    let lumen = harness
        .ids(&format!("/orgs/{}/spaces", demo_ids::LUMEN))
        .await;
    assert!(lumen.contains(&demo_ids::SPACE_HANDBOOK.to_string()));
    // Already there.
    let reply = harness
        .admin(
            Method::POST,
            &format!("/spaces/{}/transfer", demo_ids::SPACE_HANDBOOK),
            json!({"organization": demo_ids::LUMEN}),
        )
        .await;
    assert_eq!(reply.status, 409);
    assert!(error_message(&reply).contains("would not change anything"));
    // Synchronized with git: cannot be moved.
    let reply = harness
        .admin(
            Method::POST,
            &format!("/spaces/{}/transfer", demo_ids::SPACE_GETTING_STARTED),
            json!({"organization": demo_ids::LUMEN}),
        )
        .await;
    assert_eq!(reply.status, 412, "{}", reply.body);
    assert!(error_message(&reply).contains("cannot be moved"));
    // Missing space, missing organization, missing field.
    let reply = harness
        .admin(
            Method::POST,
            "/spaces/spc-nowhere/transfer",
            json!({"organization": demo_ids::LUMEN}),
        )
        .await;
    assert_eq!(reply.status, 404);
    let reply = harness
        .admin(
            Method::POST,
            &format!("/collections/{}/transfer", demo_ids::COLLECTION_ENGINEERING),
            json!({"organization": "org-nowhere"}),
        )
        .await;
    assert_eq!(reply.status, 404);
    let reply = harness
        .admin(
            Method::POST,
            &format!("/collections/{}/transfer", demo_ids::COLLECTION_ENGINEERING),
            json!({}),
        )
        .await;
    assert_eq!(reply.status, 400);
    assert!(error_message(&reply).contains("\"organization\""));
}

#[tokio::test]
async fn a_collection_transfers_with_everything_inside() {
    let harness = Harness::start().await;
    let reply = harness
        .admin(
            Method::POST,
            &format!("/collections/{}/transfer", demo_ids::COLLECTION_LUMEN_CORE),
            json!({"organization": demo_ids::ACME}),
        )
        .await;
    // Lumen Documentation is synchronized with git: the seed's "cannot be moved".
    assert_eq!(reply.status, 412, "{}", reply.body);
    let created = harness
        .admin(
            Method::POST,
            &acme_collections(),
            json!({"title": "Archive", "parent": demo_ids::COLLECTION_ENGINEERING}),
        )
        .await;
    let archive = created.body["id"].as_str().expect("id").to_string();
    harness
        .admin(
            Method::POST,
            &format!("/spaces/{}/move", demo_ids::SPACE_HANDBOOK),
            json!({"parent": archive}),
        )
        .await;
    let reply = harness
        .admin(
            Method::POST,
            &format!("/collections/{archive}/transfer"),
            json!({"organization": demo_ids::LUMEN}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["organization"], demo_ids::LUMEN);
    assert!(reply.body.get("parent").is_none());
    let handbook = harness
        .get(&format!("/spaces/{}", demo_ids::SPACE_HANDBOOK))
        .await;
    assert_eq!(handbook["organization"], demo_ids::LUMEN);
    assert_eq!(handbook["parent"], archive.as_str());
}
