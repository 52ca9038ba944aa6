//! The real `api::Client` against the real sandbox on loopback: the collection methods and the
//! moves and transfers of collections and spaces, each write read back from the server.

use quire::api::models::DefaultLevel;
use quire::api::{
    ApiError, Client, ClientConfig, CollectionUpdate, ContentMove, ContentPointer, ContentPosition,
    MovedContent, NewCollection, Token,
};
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};

type TestResult = Result<(), Box<dyn std::error::Error>>;

async fn start() -> Result<(Sandbox, Client), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))?;
    Ok((sandbox, client))
}

fn message(error: &ApiError) -> String {
    error.to_string()
}

#[tokio::test]
async fn creates_changes_and_deletes_a_collection() -> TestResult {
    let (_sandbox, client) = start().await?;
    let created = client
        .create_collection(
            demo_ids::ACME,
            &NewCollection {
                title: Some("Runbooks".into()),
                parent: Some(demo_ids::COLLECTION_PLATFORM.into()),
            },
        )
        .await?;
    assert_eq!(created.title, "Runbooks");
    assert_eq!(
        created.parent.as_deref(),
        Some(demo_ids::COLLECTION_PLATFORM)
    );
    assert!(created.permissions.admin);

    let update = CollectionUpdate {
        title: Some("On-call runbooks".into()),
        description: Some("What to do at 3 am".into()),
        default_level: Some(Some(DefaultLevel::Comment)),
    };
    let changed = client.update_collection(&created.id, &update).await?;
    assert_eq!(changed.title, "On-call runbooks");
    let read = client.get_collection(&created.id).await?;
    assert_eq!(read.description.as_deref(), Some("What to do at 3 am"));
    assert_eq!(read.default_level, Some(DefaultLevel::Comment));

    // `null` removes the default level; nothing else changes.
    let update = CollectionUpdate {
        default_level: Some(None),
        ..CollectionUpdate::default()
    };
    client.update_collection(&created.id, &update).await?;
    let read = client.get_collection(&created.id).await?;
    assert_eq!(read.default_level, None);
    assert_eq!(read.title, "On-call runbooks");

    client.delete_collection(&created.id).await?;
    let gone = client.get_collection(&created.id).await;
    assert!(gone.is_err_and(|error| error.is_not_found()));
    // Deleting again is still a success (204).
    client.delete_collection(&created.id).await?;
    Ok(())
}

#[tokio::test]
async fn validation_errors_come_back_in_words() -> TestResult {
    let (_sandbox, client) = start().await?;
    let update = CollectionUpdate {
        title: Some("x".repeat(51)),
        ..CollectionUpdate::default()
    };
    let error = client
        .update_collection(demo_ids::COLLECTION_PRODUCT, &update)
        .await
        .expect_err("a long title is refused");
    assert_eq!(error.status(), Some(400));
    assert!(message(&error).contains("title"), "{error}");
    Ok(())
}

#[tokio::test]
async fn lists_the_top_level_or_every_collection() -> TestResult {
    let (_sandbox, client) = start().await?;
    let all = client
        .list_collections_nested(demo_ids::ACME, true, None)
        .await?;
    let top = client
        .list_collections_nested(demo_ids::ACME, false, None)
        .await?;
    assert_eq!(all.items.len(), 4);
    assert!(
        top.items
            .iter()
            .all(|collection| collection.parent.is_none())
    );
    assert_eq!(top.items.len(), 2);
    Ok(())
}

#[tokio::test]
async fn moves_a_space_next_to_a_sibling_and_a_collection_to_the_top() -> TestResult {
    let (_sandbox, client) = start().await?;
    let moved = client
        .move_content(
            &ContentPointer::space(demo_ids::SPACE_HANDBOOK),
            &ContentMove {
                parent: Some(demo_ids::COLLECTION_PRODUCT.into()),
                position: Some(ContentPosition::Before(ContentPointer::space(
                    demo_ids::SPACE_GETTING_STARTED,
                ))),
            },
        )
        .await?;
    let MovedContent::Space(space) = moved else {
        panic!("a space move answers a space");
    };
    assert_eq!(space.parent.as_deref(), Some(demo_ids::COLLECTION_PRODUCT));
    let inside = client
        .list_collection_spaces(demo_ids::COLLECTION_PRODUCT, None)
        .await?;
    let order: Vec<&str> = inside.items.iter().map(|s| s.id.as_str()).collect();
    let handbook = order.iter().position(|id| *id == demo_ids::SPACE_HANDBOOK);
    let start = order
        .iter()
        .position(|id| *id == demo_ids::SPACE_GETTING_STARTED);
    assert_eq!(handbook.map(|index| index + 1), start, "{order:?}");

    let moved = client
        .move_content(
            &ContentPointer::collection(demo_ids::COLLECTION_PLATFORM),
            &ContentMove {
                parent: None,
                position: None,
            },
        )
        .await?;
    assert!(matches!(moved, MovedContent::Collection(c) if c.parent.is_none()));
    let read = client.get_collection(demo_ids::COLLECTION_PLATFORM).await?;
    assert_eq!(read.parent, None);
    Ok(())
}

#[tokio::test]
async fn a_move_that_changes_nothing_says_so() -> TestResult {
    let (_sandbox, client) = start().await?;
    let error = client
        .move_content(
            &ContentPointer::space("spc-partner-portal"),
            &ContentMove {
                parent: None,
                position: None,
            },
        )
        .await
        .expect_err("already at the top level, last");
    assert_eq!(error.status(), Some(409));
    assert!(
        message(&error).contains("would not change anything"),
        "{error}"
    );
    Ok(())
}

#[tokio::test]
async fn transfers_a_space_and_reports_what_cannot_move() -> TestResult {
    let (_sandbox, client) = start().await?;
    let moved = client
        .transfer_content(
            &ContentPointer::space(demo_ids::SPACE_HANDBOOK),
            demo_ids::LUMEN,
        )
        .await?;
    assert!(
        matches!(&moved, MovedContent::Space(s) if s.organization.as_deref() == Some(demo_ids::LUMEN))
    );
    let read = client.get_space(demo_ids::SPACE_HANDBOOK).await?;
    assert_eq!(read.organization.as_deref(), Some(demo_ids::LUMEN));

    let error = client
        .transfer_content(
            &ContentPointer::space(demo_ids::SPACE_GETTING_STARTED),
            demo_ids::LUMEN,
        )
        .await
        .expect_err("a git-synchronized space stays");
    assert_eq!(error.status(), Some(412));
    assert!(message(&error).contains("cannot be moved"), "{error}");

    let moved = client
        .transfer_content(
            &ContentPointer::collection(demo_ids::COLLECTION_PRODUCT),
            demo_ids::LUMEN,
        )
        .await;
    // Getting Started (git) is inside Product Docs: the whole collection stays.
    assert!(moved.is_err_and(|error| error.status() == Some(412)));
    Ok(())
}
