use serde_json::{Value, json};

use super::{UNSIGNED_DESCRIPTION, check};

fn with_properties(properties: Value) -> Value {
    json!({ "type": "object", "properties": properties, "additionalProperties": false })
}

fn refusal(schema: Value) -> String {
    match check(&schema) {
        Ok(()) => panic!("accepted {schema}"),
        Err(reason) => reason,
    }
}

#[test]
fn every_claim_type_of_the_description_is_accepted() {
    let schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "beta": { "type": "boolean", "description": "In the beta" },
            "plan": { "type": "string", "description": "Plan", "enum": ["free", "pro"] },
            "name": { "type": "string", "description": "Name" },
            "seats": { "type": "number", "description": "Seats" },
            "roles": {
                "type": "array",
                "description": "Roles",
                "items": { "type": "string", "description": "A role" }
            },
            "account": {
                "type": "object",
                "description": "Account",
                "additionalProperties": false,
                "properties": { "paid": { "type": "boolean", "description": "Paid" } }
            },
            "unsigned": {
                "type": "object",
                "description": UNSIGNED_DESCRIPTION,
                "additionalProperties": false,
                "properties": { "theme": { "type": "string", "description": "Theme" } }
            }
        }
    });
    assert_eq!(check(&schema), Ok(()));
    assert_eq!(check(&with_properties(json!({}))), Ok(()));
}

#[test]
fn the_top_level_needs_its_three_keywords_and_takes_no_other() {
    assert!(
        refusal(json!({ "type": "object", "properties": {} })).contains("additionalProperties")
    );
    assert!(refusal(json!({ "properties": {}, "additionalProperties": false })).contains("type"));
    let mut schema = with_properties(json!({}));
    schema["title"] = json!("Visitor");
    assert_eq!(refusal(schema), "the schema has \"title\" at the top");
    let mut schema = with_properties(json!({}));
    schema["additionalProperties"] = json!(true);
    assert!(refusal(schema).contains("additionalProperties"));
    let mut schema = with_properties(json!({}));
    schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    assert!(refusal(schema).contains("$schema"));
}

#[test]
fn a_claim_without_description_or_with_a_stray_keyword_is_refused_by_its_name() {
    let reason = refusal(with_properties(json!({ "beta": { "type": "boolean" } })));
    assert_eq!(reason, "claim \"beta\" (boolean) needs a description");
    let reason = refusal(with_properties(json!({
        "beta": { "type": "boolean", "description": "Beta", "default": false }
    })));
    assert_eq!(
        reason,
        "claim \"beta\" has default, which the server does not accept"
    );
    let reason = refusal(with_properties(json!({
        "seats": { "type": "integer", "description": "Seats" }
    })));
    assert!(
        reason.starts_with("claim \"seats\" needs a type"),
        "{reason}"
    );
}

#[test]
fn enums_belong_to_strings_and_hold_only_strings() {
    refusal(with_properties(json!({
        "seats": { "type": "number", "description": "Seats", "enum": [1, 2] }
    })));
    refusal(with_properties(json!({
        "plan": { "type": "string", "description": "Plan", "enum": ["free", 2] }
    })));
}

#[test]
fn array_items_are_primitive_claims_only() {
    let nested = json!({
        "type": "array", "description": "Lists", "items": {
            "type": "array", "description": "List", "items": { "type": "string", "description": "x" }
        }
    });
    let reason = refusal(with_properties(json!({ "lists": nested })));
    assert_eq!(
        reason,
        "claim \"lists[]\" needs a type: one of boolean, string, number"
    );
    refusal(with_properties(
        json!({ "tags": { "type": "array", "description": "Tags" } }),
    ));
}

#[test]
fn unsigned_has_its_exact_description_and_closed_properties() {
    let unsigned = |description: &str| {
        with_properties(json!({ "unsigned": {
            "type": "object", "description": description,
            "properties": {}, "additionalProperties": false
        }}))
    };
    assert_eq!(check(&unsigned(UNSIGNED_DESCRIPTION)), Ok(()));
    let reason = refusal(unsigned("Unsigned claims"));
    assert!(
        reason.contains("properties.unsigned.description"),
        "{reason}"
    );
    let titled = with_properties(json!({ "unsigned": {
        "type": "object", "description": UNSIGNED_DESCRIPTION, "title": "Browser",
        "properties": {}, "additionalProperties": false
    }}));
    assert_eq!(check(&titled), Ok(()));
    let open = with_properties(json!({ "unsigned": {
        "type": "object", "description": UNSIGNED_DESCRIPTION, "properties": {}
    }}));
    refusal(open);
}

#[test]
fn an_object_claim_closes_its_properties() {
    refusal(with_properties(json!({
        "account": { "type": "object", "description": "Account", "properties": {} }
    })));
}

#[test]
fn what_is_no_object_is_refused_without_panicking() {
    for value in [json!(null), json!("schema"), json!([]), json!(3)] {
        refusal(value);
    }
    refusal(with_properties(json!([])));
    refusal(with_properties(json!({ "beta": true })));
    let nested = with_properties(json!({ "account": {
        "type": "object", "description": "Account", "additionalProperties": false,
        "properties": { "plan": { "type": "string" } }
    }}));
    assert_eq!(
        refusal(nested),
        "claim \"account.plan\" (string) needs a description"
    );
}
