//! The one shape of a site's adaptive schema (`PUT …/adaptive-schema` with `{jsonSchema}`)
//! that the public service's description accepts; anything else it answers 400. Every level
//! closes its keywords (`additionalProperties: false` in the service's own schema of schemas),
//! so each level below is a list of the keywords it may carry, and nothing else passes.
//!
//! Written from that description, apart from quire's client (which checks before sending); a
//! cross-check test holds the two against each other on a set of schemas.

use serde_json::{Map, Value};

/// The exact `description` of the `unsigned` group of claims.
pub const UNSIGNED_DESCRIPTION: &str = "Unsigned claims of the site visitor.";

/// The only `$schema` the top level may name.
const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

/// What a keyword's value must be.
#[derive(Clone, Copy)]
enum Want {
    /// This very string.
    Exactly(&'static str),
    /// The boolean `false`.
    False,
    /// Any string.
    Text,
    /// An array of strings.
    Texts,
    /// An object of named claims.
    Claims,
    /// The top level's `properties`: named claims, and the `unsigned` group.
    TopClaims,
    /// One of the primitive claims (boolean, string, number): an array's `items`.
    Primitive,
}

struct Keyword {
    name: &'static str,
    want: Want,
    required: bool,
}

const fn must(name: &'static str, want: Want) -> Keyword {
    Keyword {
        name,
        want,
        required: true,
    }
}

const fn may(name: &'static str, want: Want) -> Keyword {
    Keyword {
        name,
        want,
        required: false,
    }
}

const TOP: &[Keyword] = &[
    must("type", Want::Exactly("object")),
    must("properties", Want::TopClaims),
    must("additionalProperties", Want::False),
    may("$schema", Want::Exactly(DRAFT_07)),
];

const UNSIGNED: &[Keyword] = &[
    must("type", Want::Exactly("object")),
    must("description", Want::Exactly(UNSIGNED_DESCRIPTION)),
    must("properties", Want::Claims),
    must("additionalProperties", Want::False),
];

const BOOLEAN_CLAIM: &[Keyword] = &[
    must("type", Want::Exactly("boolean")),
    must("description", Want::Text),
];

const NUMBER_CLAIM: &[Keyword] = &[
    must("type", Want::Exactly("number")),
    must("description", Want::Text),
];

const STRING_CLAIM: &[Keyword] = &[
    must("type", Want::Exactly("string")),
    must("description", Want::Text),
    may("enum", Want::Texts),
];

const ARRAY_CLAIM: &[Keyword] = &[
    must("type", Want::Exactly("array")),
    must("description", Want::Text),
    must("items", Want::Primitive),
];

const OBJECT_CLAIM: &[Keyword] = &[
    must("type", Want::Exactly("object")),
    must("description", Want::Text),
    must("properties", Want::Claims),
    must("additionalProperties", Want::False),
];

/// `Ok` when `schema` is a `jsonSchema` the service accepts; otherwise the reason, naming the
/// offending place (`properties.plan.items`).
pub fn check(schema: &Value) -> Result<(), String> {
    keywords(schema, TOP, "the schema")
}

/// `value` is an object carrying every required keyword of `allowed`, and no other.
fn keywords(value: &Value, allowed: &[Keyword], place: &str) -> Result<(), String> {
    let object = object(value, place)?;
    if let Some(stranger) = object
        .keys()
        .find(|key| !allowed.iter().any(|keyword| keyword.name == key.as_str()))
    {
        return Err(format!("{place} may not have \"{stranger}\""));
    }
    for keyword in allowed {
        match object.get(keyword.name) {
            Some(given) => wanted(given, keyword.want, &within(place, keyword.name))?,
            None if keyword.required => {
                return Err(format!("{place} needs \"{}\"", keyword.name));
            }
            None => {}
        }
    }
    Ok(())
}

fn wanted(value: &Value, want: Want, place: &str) -> Result<(), String> {
    match want {
        Want::Exactly(text) if value.as_str() == Some(text) => Ok(()),
        Want::Exactly(text) => Err(format!("{place} must be \"{text}\"")),
        Want::False if *value == Value::Bool(false) => Ok(()),
        Want::False => Err(format!("{place} must be false")),
        Want::Text if value.is_string() => Ok(()),
        Want::Text => Err(format!("{place} must be a string")),
        Want::Texts => texts(value, place),
        Want::Claims => claims(value, place, false),
        Want::TopClaims => claims(value, place, true),
        Want::Primitive => claim(value, place, true),
    }
}

fn texts(value: &Value, place: &str) -> Result<(), String> {
    match value.as_array() {
        Some(items) if items.iter().all(Value::is_string) => Ok(()),
        _ => Err(format!("{place} must be an array of strings")),
    }
}

/// Each entry is a claim; at the top level, `unsigned` is the group of unsigned claims instead.
fn claims(value: &Value, place: &str, top: bool) -> Result<(), String> {
    for (name, claim_value) in object(value, place)? {
        let here = within(place, name);
        if top && name == "unsigned" {
            keywords(claim_value, UNSIGNED, &here)?;
        } else {
            claim(claim_value, &here, false)?;
        }
    }
    Ok(())
}

/// A claim, told by its `type`; an array's items may only be primitive claims.
fn claim(value: &Value, place: &str, primitive_only: bool) -> Result<(), String> {
    let kind = object(value, place)?.get("type").and_then(Value::as_str);
    let allowed = match kind {
        Some("boolean") => BOOLEAN_CLAIM,
        Some("number") => NUMBER_CLAIM,
        Some("string") => STRING_CLAIM,
        Some("array") if !primitive_only => ARRAY_CLAIM,
        Some("object") if !primitive_only => OBJECT_CLAIM,
        _ if primitive_only => {
            return Err(format!(
                "{place} must have the type boolean, string or number"
            ));
        }
        _ => {
            return Err(format!(
                "{place} must have the type boolean, string, number, array or object"
            ));
        }
    };
    keywords(value, allowed, place)
}

fn object<'v>(value: &'v Value, place: &str) -> Result<&'v Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| format!("{place} must be an object"))
}

fn within(place: &str, name: &str) -> String {
    if place == "the schema" {
        name.to_owned()
    } else {
        format!("{place}.{name}")
    }
}

#[cfg(test)]
#[path = "schema_shape_tests.rs"]
mod tests;
