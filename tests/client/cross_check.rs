//! The sandbox's table of operations and its adaptive-schema checker, written apart from the
//! client's, held against the client's: where the two readings of the API disagree, one of
//! them is wrong, and the failure names the operation (or the schema) to look at.

use quire::api::adaptive_schema;
use quire::api::operations::{BodyRule, OPERATIONS, Operation};
use quire::sandbox::adaptive_schema_shape;
use quire::sandbox::operations::{self as sandbox_operations, Body, Reach};
use quire::screens::site::{SCHEMA_TEMPLATE, check_schema};
use serde_json::{Value, json};

/// `{space}` and `{}` alike read `{}`.
fn shape(path: &str) -> String {
    path.split('/')
        .map(|segment| {
            if segment.starts_with('{') {
                "{}"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn same_body(client: BodyRule, sandbox: Body) -> bool {
    matches!(
        (client, sandbox),
        (BodyRule::None, Body::Refused)
            | (BodyRule::Required, Body::Required)
            | (BodyRule::Optional, Body::Optional)
    )
}

fn sandbox_row(client: &Operation) -> Option<&'static sandbox_operations::Operation> {
    sandbox_operations::all()
        .find(|row| row.verb.as_str() == client.method && shape(row.path) == shape(client.path))
}

#[test]
fn both_tables_agree_on_every_operation_they_share() {
    let mut disagreements = Vec::new();
    for client in OPERATIONS {
        let Some(row) = sandbox_row(client) else {
            continue;
        };
        let name = client.key();
        if !same_body(client.body, row.body) {
            disagreements.push(format!(
                "{name}: client body {:?}, sandbox {:?}",
                client.body, row.body
            ));
        }
        let sandbox_reference_only = row.reach == Reach::ReferenceOnly;
        if client.is_seed_only() != sandbox_reference_only {
            disagreements.push(format!(
                "{name}: client seed-only {}, sandbox reference-only {sandbox_reference_only}",
                client.is_seed_only()
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn every_operation_the_client_knows_is_in_the_sandboxs_table() {
    let unserved: Vec<String> = OPERATIONS
        .iter()
        .filter(|client| sandbox_row(client).is_none())
        .map(Operation::key)
        .collect();
    assert!(
        unserved.is_empty(),
        "not in the sandbox's table: {unserved:#?}"
    );
}

#[test]
fn every_reference_only_operation_of_the_sandbox_is_one_the_client_knows_may_be_missing() {
    let unknown: Vec<String> = sandbox_operations::all()
        .filter(|row| row.reach == Reach::ReferenceOnly)
        .filter(|row| {
            !OPERATIONS.iter().any(|client| {
                client.method == row.verb.as_str() && shape(client.path) == shape(row.path)
            })
        })
        .map(|row| format!("{} {}", row.verb.as_str(), row.path))
        .collect();
    assert!(unknown.is_empty(), "unknown to the client: {unknown:#?}");
}

fn schemas() -> Vec<(&'static str, Value)> {
    let top = |properties: Value| json!({ "type": "object", "properties": properties, "additionalProperties": false });
    let unsigned = |description: &str, properties: Value| {
        top(json!({ "unsigned": {
            "type": "object", "description": description,
            "properties": properties, "additionalProperties": false
        }}))
    };
    let claim = |value: Value| top(json!({ "claim": value }));
    vec![
        ("empty", top(json!({}))),
        ("draft-07 named", {
            let mut schema = top(json!({}));
            schema["$schema"] = json!("http://json-schema.org/draft-07/schema#");
            schema
        }),
        ("another draft named", {
            let mut schema = top(json!({}));
            schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
            schema
        }),
        (
            "open top level",
            json!({ "type": "object", "properties": {} }),
        ),
        ("top level with a title", {
            let mut schema = top(json!({}));
            schema["title"] = json!("Visitor");
            schema
        }),
        ("not an object", json!("schema")),
        (
            "boolean",
            claim(json!({ "type": "boolean", "description": "b" })),
        ),
        (
            "boolean without description",
            claim(json!({ "type": "boolean" })),
        ),
        (
            "boolean with default",
            claim(json!({ "type": "boolean", "description": "b", "default": true })),
        ),
        (
            "string",
            claim(json!({ "type": "string", "description": "s" })),
        ),
        (
            "string enum",
            claim(json!({ "type": "string", "description": "s", "enum": ["a", "b"] })),
        ),
        (
            "string enum of numbers",
            claim(json!({ "type": "string", "description": "s", "enum": [1] })),
        ),
        (
            "string with format",
            claim(json!({ "type": "string", "description": "s", "format": "email" })),
        ),
        (
            "number",
            claim(json!({ "type": "number", "description": "n" })),
        ),
        (
            "number enum",
            claim(json!({ "type": "number", "description": "n", "enum": [1] })),
        ),
        (
            "integer",
            claim(json!({ "type": "integer", "description": "i" })),
        ),
        (
            "array of strings",
            claim(json!({ "type": "array", "description": "a",
            "items": { "type": "string", "description": "s" } })),
        ),
        (
            "array without items",
            claim(json!({ "type": "array", "description": "a" })),
        ),
        (
            "array of arrays",
            claim(json!({ "type": "array", "description": "a",
            "items": { "type": "array", "description": "a",
                "items": { "type": "string", "description": "s" } } })),
        ),
        (
            "array of objects",
            claim(json!({ "type": "array", "description": "a",
            "items": { "type": "object", "description": "o", "properties": {},
                "additionalProperties": false } })),
        ),
        (
            "object",
            claim(json!({ "type": "object", "description": "o",
            "properties": { "inner": { "type": "number", "description": "n" } },
            "additionalProperties": false })),
        ),
        (
            "open object",
            claim(json!({ "type": "object", "description": "o", "properties": {} })),
        ),
        (
            "object with a bad claim",
            claim(json!({ "type": "object", "description": "o",
            "properties": { "inner": { "type": "number" } }, "additionalProperties": false })),
        ),
        (
            "unsigned",
            unsigned(
                "Unsigned claims of the site visitor.",
                json!({ "theme": { "type": "string", "description": "t" } }),
            ),
        ),
        ("unsigned with a title", {
            let mut schema = unsigned("Unsigned claims of the site visitor.", json!({}));
            schema["properties"]["unsigned"]["title"] = json!("Browser");
            schema
        }),
        (
            "unsigned with another description",
            unsigned("Unsigned claims", json!({})),
        ),
        (
            "unsigned with a bad claim",
            unsigned(
                "Unsigned claims of the site visitor.",
                json!({ "theme": { "type": "string" } }),
            ),
        ),
        ("claim that is no object", claim(json!(true))),
    ]
}

#[test]
fn both_schema_checkers_accept_and_refuse_the_same_schemas() {
    let disagreements: Vec<String> = schemas()
        .into_iter()
        .filter_map(|(name, schema)| {
            let client = adaptive_schema::check(&schema).is_ok();
            let sandbox = adaptive_schema_shape::check(&schema).is_ok();
            (client != sandbox)
                .then(|| format!("{name}: client accepts {client}, sandbox accepts {sandbox}"))
        })
        .collect();
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn the_template_the_site_screen_offers_is_accepted_by_both() {
    let template: Value = serde_json::from_str(SCHEMA_TEMPLATE).expect("the template is JSON");
    assert_eq!(check_schema(SCHEMA_TEMPLATE).err(), None);
    assert_eq!(adaptive_schema_shape::check(&template).err(), None);
}

/// The part of a schema a refusal names: its first quoted word (a claim, a keyword), or the
/// path it starts with (`properties.unsigned.description must be …`).
fn named_part(reason: &str) -> Option<&str> {
    if reason.starts_with("properties.") {
        return reason.split(' ').next();
    }
    let mut quoted = reason.split('"');
    quoted.next()?;
    quoted.next()
}

/// The sandbox's refusals are held to the public service's words over HTTP (the sandbox's own
/// tests); the screen's check must point at the same part, so a user reads where to look before
/// sending.
#[test]
fn the_screen_refuses_a_schema_naming_the_part_the_sandbox_names() {
    let different: Vec<String> = schemas()
        .into_iter()
        .filter_map(|(name, schema)| {
            let sandbox = adaptive_schema_shape::check(&schema).err()?;
            let part = named_part(&sandbox)?;
            let screen = check_schema(&schema.to_string()).err().unwrap_or_default();
            (!screen.contains(part)).then(|| {
                format!("{name}: the screen says {screen:?}, the sandbox {sandbox:?} ({part})")
            })
        })
        .collect();
    assert!(different.is_empty(), "{}", different.join("\n"));
}
