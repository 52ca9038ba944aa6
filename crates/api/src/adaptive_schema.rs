//! The exact shape of a site's adaptive schema that the public service accepts: the site
//! screen checks a schema with it before sending. The sandbox checks with its own, written
//! apart; a cross-check test holds the two to the same answers.
//!
//! The service's own schema of schemas has `additionalProperties: false` at the top and on every
//! claim, so there any keyword not listed here (`title`, `default`, `format`…) is refused; the
//! `unsigned` group is the one level it leaves open, so a `title` there passes. A reason names the
//! offending part: a JSON path for the schema's frame (`properties.unsigned.description …`),
//! or the claim's dotted name as visitors' claims are addressed (`claim "unsigned.plan" …`).

use serde_json::{Map, Value};

/// The claim types the service accepts.
pub const CLAIM_TYPES: [&str; 5] = ["boolean", "string", "number", "array", "object"];
/// The claim types an array's `items` may have.
pub const ITEM_TYPES: [&str; 3] = ["boolean", "string", "number"];
/// The only `description` the service accepts for the `unsigned` group.
pub const UNSIGNED_DESCRIPTION: &str = "Unsigned claims of the site visitor.";
/// The only `$schema` the service accepts (it may also be left out).
pub const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

const TOP_LEVEL_KEYS: [&str; 4] = ["type", "properties", "additionalProperties", "$schema"];

/// Checks `schema` against the shape the service accepts; the error says what to fix and where.
pub fn check(schema: &Value) -> Result<(), String> {
    let Some(object) = schema.as_object() else {
        return Err("the schema must be a JSON object".into());
    };
    if object.get("type") != Some(&Value::from("object")) {
        return Err("\"type\" must be \"object\"".into());
    }
    let Some(properties) = object.get("properties").and_then(Value::as_object) else {
        return Err("\"properties\" must be an object of visitor claims".into());
    };
    if !closed(object) {
        return Err("\"additionalProperties\" must be false".into());
    }
    if object
        .get("$schema")
        .is_some_and(|version| version != DRAFT_07)
    {
        return Err(format!("\"$schema\" must be \"{DRAFT_07}\" or left out"));
    }
    if let Some(key) = unknown_key(object, &TOP_LEVEL_KEYS) {
        return Err(format!(
            "the schema has \"{}\" at the top, which the server does not accept",
            key.escape_debug()
        ));
    }
    for (name, property) in properties {
        if name == "unsigned" {
            check_unsigned(property)?;
        } else {
            check_claim(name, property, &CLAIM_TYPES)?;
        }
    }
    Ok(())
}

/// The `unsigned` group: claims the visitor's browser may set, under a fixed description. The
/// service's schema of schemas does not close this level, so other keywords (`title`) pass.
fn check_unsigned(group: &Value) -> Result<(), String> {
    let path = "properties.unsigned";
    let Some(object) = group.as_object() else {
        return Err(format!("{path} must be an object"));
    };
    if object.get("type") != Some(&Value::from("object")) {
        return Err(format!("{path}.type must be \"object\""));
    }
    if object.get("description") != Some(&Value::from(UNSIGNED_DESCRIPTION)) {
        return Err(format!(
            "{path}.description must be exactly \"{UNSIGNED_DESCRIPTION}\""
        ));
    }
    let Some(claims) = object.get("properties").and_then(Value::as_object) else {
        return Err(format!("{path}.properties must be an object of claims"));
    };
    if !closed(object) {
        return Err(format!("{path}.additionalProperties must be false"));
    }
    for (name, claim) in claims {
        check_claim(&format!("unsigned.{name}"), claim, &CLAIM_TYPES)?;
    }
    Ok(())
}

/// One claim named `name` (dotted when nested), of one of `types`.
fn check_claim(name: &str, claim: &Value, types: &[&str]) -> Result<(), String> {
    let label = format!("claim {name:?}");
    let Some(object) = claim.as_object() else {
        return Err(format!(
            "{label} must be an object with a type and a description"
        ));
    };
    let Some(kind) = object
        .get("type")
        .and_then(Value::as_str)
        .filter(|kind| types.contains(kind))
    else {
        return Err(format!("{label} needs a type: one of {}", types.join(", ")));
    };
    let label = format!("{label} ({kind})");
    if !object.get("description").is_some_and(Value::is_string) {
        return Err(format!("{label} needs a description"));
    }
    if let Some(key) = unknown_key(object, keys_of(kind)) {
        return Err(format!(
            "claim {name:?} has {}, which the server does not accept",
            key.escape_debug()
        ));
    }
    match kind {
        "string" => check_enum(object, &label),
        "array" => match object.get("items") {
            Some(items) => check_claim(&format!("{name}[]"), items, &ITEM_TYPES),
            None => Err(format!("{label} needs items")),
        },
        "object" => check_object_claim(name, object, &label),
        _ => Ok(()),
    }
}

/// The keywords a claim of `kind` may have; anything else is refused.
fn keys_of(kind: &str) -> &'static [&'static str] {
    match kind {
        "string" => &["type", "description", "enum"],
        "array" => &["type", "description", "items"],
        "object" => &["type", "description", "properties", "additionalProperties"],
        _ => &["type", "description"],
    }
}

fn check_enum(claim: &Map<String, Value>, label: &str) -> Result<(), String> {
    match claim.get("enum") {
        None => Ok(()),
        Some(Value::Array(values)) if values.iter().all(Value::is_string) => Ok(()),
        Some(_) => Err(format!("{label} enum must be a list of strings")),
    }
}

/// An object claim: closed, with its own named claims.
fn check_object_claim(name: &str, claim: &Map<String, Value>, label: &str) -> Result<(), String> {
    let Some(claims) = claim.get("properties").and_then(Value::as_object) else {
        return Err(format!("{label} needs properties (an object of claims)"));
    };
    if !closed(claim) {
        return Err(format!("{label} needs additionalProperties: false"));
    }
    for (inner, value) in claims {
        check_claim(&format!("{name}.{inner}"), value, &CLAIM_TYPES)?;
    }
    Ok(())
}

fn closed(object: &Map<String, Value>) -> bool {
    object.get("additionalProperties") == Some(&Value::Bool(false))
}

fn unknown_key<'a>(object: &'a Map<String, Value>, allowed: &[&str]) -> Option<&'a str> {
    object
        .keys()
        .map(String::as_str)
        .find(|key| !allowed.contains(key))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A schema whose only claim is `claim`.
    fn with_claim(claim: Value) -> Value {
        json!({ "type": "object", "properties": { "company": claim }, "additionalProperties": false })
    }

    #[test]
    fn nested_claims_are_named_by_their_dotted_path() {
        let nested = with_claim(json!({
            "type": "object", "description": "Company", "additionalProperties": false,
            "properties": { "size": { "type": "number", "description": "Headcount", "format": "int" } },
        }));
        assert_eq!(
            check(&nested).err().as_deref(),
            Some("claim \"company.size\" has format, which the server does not accept")
        );
    }

    #[test]
    fn the_unsigned_group_takes_other_keywords_but_its_claims_do_not() {
        let mut schema = json!({ "type": "object", "additionalProperties": false, "properties": {
            "unsigned": { "type": "object", "description": UNSIGNED_DESCRIPTION,
                "title": "Browser", "additionalProperties": false,
                "properties": { "theme": { "type": "string", "description": "t" } } } } });
        assert_eq!(check(&schema), Ok(()));
        schema["properties"]["unsigned"]["properties"]["theme"]["title"] = json!("Theme");
        assert!(check(&schema).is_err_and(|reason| reason.contains("unsigned.theme")));
    }

    #[test]
    fn only_draft_07_may_be_named_and_enums_hold_strings() {
        let mut other_draft = with_claim(json!({ "type": "boolean", "description": "x" }));
        other_draft["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
        assert!(check(&other_draft).is_err_and(|reason| reason.contains("\"$schema\"")));
        let numbers = with_claim(json!({ "type": "string", "description": "x", "enum": [1] }));
        assert_eq!(
            check(&numbers).err().as_deref(),
            Some("claim \"company\" (string) enum must be a list of strings")
        );
    }
}
