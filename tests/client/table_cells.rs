//! A comment on one cell of a table block (`tableCell`), through the real client against the
//! sandbox: the page's document names the table's rows and columns, the comment sent with one
//! of each is kept and read back with it, and a cell the table does not have is refused.

use quire::api::models::TableCell;
use quire::api::models::revision::table_shapes;
use quire::api::{Client, ClientConfig, Token};
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;
const CR: &str = demo_ids::CR_REVIEW;
const PAGE: &str = demo_ids::PAGE_QUICKSTART;

/// Puts `markdown` on the change request's Quickstart (a sandbox-only route).
async fn plant(sandbox: &Sandbox, markdown: &str) -> TestResult {
    let answer = reqwest::Client::new()
        .put(format!(
            "{}/_sandbox/spaces/{SPACE}/change-requests/{CR}/pages/{PAGE}/markdown",
            sandbox.base_url()
        ))
        .bearer_auth(tokens::ADMIN)
        .body(markdown.to_string())
        .send()
        .await?;
    assert_eq!(answer.status().as_u16(), 204);
    Ok(())
}

#[tokio::test]
async fn a_comment_on_a_table_cell_is_kept_with_its_cell() -> TestResult {
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::EDITOR),
    ))?;
    plant(
        &sandbox,
        "# Quickstart\n\n| Scope | Allows |\n| --- | --- |\n| `fleet:read` | Reading |\n\
         | `fleet:write` | Writing |\n",
    )
    .await?;
    let document = client
        .get_change_request_page_document(SPACE, CR, PAGE)
        .await?;
    let tables = table_shapes(&document["document"]);
    let (node, table) = tables.first().ok_or("the table block")?;
    let titles: Vec<&str> = table.columns.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(titles, ["Scope", "Allows"]);
    assert_eq!(table.rows.len(), 2);
    let cell = TableCell {
        record: table.rows[1].clone(),
        definition: table.columns[1].0.clone(),
    };
    let posted = client
        .post_comment_on_cell(
            SPACE,
            CR,
            "Writing what?",
            Some(PAGE),
            Some(node),
            Some(&cell),
        )
        .await?;
    assert_eq!(posted.target.table_cell.as_ref(), Some(&cell));
    let read = client.get_comment(SPACE, CR, &posted.id).await?;
    assert_eq!(read.target.table_cell, Some(cell.clone()));
    assert_eq!(
        read.target.node.map(|n| n.id).as_deref(),
        Some(node.as_str())
    );

    let nowhere = TableCell {
        record: "row-99".into(),
        definition: cell.definition.clone(),
    };
    let error = client
        .post_comment_on_cell(SPACE, CR, "Lost", Some(PAGE), Some(node), Some(&nowhere))
        .await
        .unwrap_err();
    assert_eq!(error.status(), Some(400), "{error:?}");
    let without_block = client
        .post_comment_on_cell(SPACE, CR, "Lost", Some(PAGE), None, Some(&cell))
        .await
        .unwrap_err();
    assert_eq!(without_block.status(), Some(400), "{without_block:?}");
    sandbox.shutdown().await;
    Ok(())
}
