//! The one shape of a site's adaptive schema (`PUT …/adaptive-schema` with `{jsonSchema}`)
//! that the public service's description accepts; anything else it answers 400. The top level
//! and every claim close their keywords (`additionalProperties: false` in the service's own
//! schema of schemas), so each is a list of the keywords it may carry, and nothing else passes.
//! The `unsigned` group is the one level the description leaves open: its own keywords must be
//! as listed, and any other (`title`) passes.
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
    /// One of the primitive claims (boolean, string, number): an array's `items`.
    Primitive,
}

struct Keyword {
    name: &'static str,
    want: Want,
    required: bool,
    /// The requirement in words, for the reason of a refusal.
    need: &'static str,
}

const fn must(name: &'static str, want: Want, need: &'static str) -> Keyword {
    Keyword {
        name,
        want,
        required: true,
        need,
    }
}

const fn may(name: &'static str, want: Want, need: &'static str) -> Keyword {
    Keyword {
        name,
        want,
        required: false,
        need,
    }
}

const TOP: &[Keyword] = &[
    must("type", Want::Exactly("object"), "\"object\""),
    must("properties", Want::Claims, "an object of claims"),
    must("additionalProperties", Want::False, "false"),
    may("$schema", Want::Exactly(DRAFT_07), "the draft-07 address"),
];

const UNSIGNED: &[Keyword] = &[
    must("type", Want::Exactly("object"), "\"object\""),
    must(
        "description",
        Want::Exactly(UNSIGNED_DESCRIPTION),
        "exactly \"Unsigned claims of the site visitor.\"",
    ),
    must("properties", Want::Claims, "an object of claims"),
    must("additionalProperties", Want::False, "false"),
];

const DESCRIPTION: Keyword = must("description", Want::Text, "a description");

const BOOLEAN_CLAIM: &[Keyword] = &[DESCRIPTION];

const NUMBER_CLAIM: &[Keyword] = &[DESCRIPTION];

const STRING_CLAIM: &[Keyword] = &[DESCRIPTION, may("enum", Want::Texts, "an enum of strings")];

const ARRAY_CLAIM: &[Keyword] = &[DESCRIPTION, must("items", Want::Primitive, "items")];

const OBJECT_CLAIM: &[Keyword] = &[
    DESCRIPTION,
    must("properties", Want::Claims, "properties"),
    must(
        "additionalProperties",
        Want::False,
        "additionalProperties: false",
    ),
];

/// A level of the schema that is no claim: the top, or the `unsigned` group.
#[derive(Clone, Copy)]
enum Group {
    Top,
    Unsigned,
}

impl Group {
    fn keywords(self) -> &'static [Keyword] {
        match self {
            Group::Top => TOP,
            Group::Unsigned => UNSIGNED,
        }
    }

    /// Whether keywords it does not list are refused; the description leaves `unsigned` open.
    fn closed(self) -> bool {
        match self {
            Group::Top => true,
            Group::Unsigned => false,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Group::Top => "the schema",
            Group::Unsigned => "properties.unsigned",
        }
    }

    fn label(self, keyword: &str) -> String {
        match self {
            Group::Top => format!("\"{keyword}\""),
            Group::Unsigned => format!("properties.unsigned.{keyword}"),
        }
    }

    fn stranger(self, keyword: &str) -> String {
        match self {
            Group::Top => format!("the schema has \"{keyword}\" at the top"),
            Group::Unsigned => {
                format!("properties.unsigned has \"{keyword}\", which the server does not accept")
            }
        }
    }

    /// Where its claims' names start: `plan`, `unsigned.darkMode`.
    fn claim_prefix(self) -> &'static str {
        match self {
            Group::Top => "",
            Group::Unsigned => "unsigned.",
        }
    }
}

/// Why one keyword's value is refused: its own requirement, or a claim inside it.
enum Refusal {
    Unmet,
    Inside(String),
}

/// `Ok` when `schema` is a `jsonSchema` the service accepts; otherwise the reason, naming the
/// offending keyword (`"additionalProperties" must be false`) or claim
/// (`claim "plan" (array) needs items`).
pub fn check(schema: &Value) -> Result<(), String> {
    group(schema, Group::Top)
}

fn group(value: &Value, group: Group) -> Result<(), String> {
    let Some(object) = value.as_object() else {
        return Err(format!("{} must be an object", group.name()));
    };
    let allowed = group.keywords();
    if let Some(stranger) = stranger(object, allowed).filter(|_| group.closed()) {
        return Err(group.stranger(stranger));
    }
    for keyword in allowed {
        let refusal = match object.get(keyword.name) {
            Some(given) => match wanted(given, keyword.want, group.claim_prefix()) {
                Ok(()) => continue,
                Err(refusal) => refusal,
            },
            None if keyword.required => Refusal::Unmet,
            None => continue,
        };
        return Err(match refusal {
            Refusal::Unmet => format!("{} must be {}", group.label(keyword.name), keyword.need),
            Refusal::Inside(reason) => reason,
        });
    }
    Ok(())
}

/// A claim named `name` (`teams[]` for an array's items); `primitive_only` for items.
fn claim(value: &Value, name: &str, primitive_only: bool) -> Result<(), String> {
    let Some(object) = value.as_object() else {
        return Err(format!("claim \"{name}\" must be an object"));
    };
    let (kind, allowed) = match object.get("type").and_then(Value::as_str) {
        Some("boolean") => ("boolean", BOOLEAN_CLAIM),
        Some("number") => ("number", NUMBER_CLAIM),
        Some("string") => ("string", STRING_CLAIM),
        Some("array") if !primitive_only => ("array", ARRAY_CLAIM),
        Some("object") if !primitive_only => ("object", OBJECT_CLAIM),
        _ if primitive_only => {
            return Err(format!(
                "claim \"{name}\" needs a type: one of boolean, string, number"
            ));
        }
        _ => {
            return Err(format!(
                "claim \"{name}\" needs a type: one of boolean, string, number, array, object"
            ));
        }
    };
    let known = |key: &&String| key.as_str() == "type" || allowed.iter().any(|k| k.name == *key);
    if let Some(stranger) = object.keys().find(|key| !known(key)) {
        return Err(format!(
            "claim \"{name}\" has {stranger}, which the server does not accept"
        ));
    }
    for keyword in allowed {
        let refusal = match object.get(keyword.name) {
            Some(given) => match wanted(given, keyword.want, &format!("{name}.")) {
                Ok(()) => continue,
                Err(refusal) => refusal,
            },
            None if keyword.required => Refusal::Unmet,
            None => continue,
        };
        return Err(match refusal {
            Refusal::Unmet => format!("claim \"{name}\" ({kind}) needs {}", keyword.need),
            Refusal::Inside(reason) => reason,
        });
    }
    Ok(())
}

/// `prefix` names the claims inside: `unsigned.` for the unsigned group's, `plan.` for an
/// object claim's; an array's items are `plan[]`.
fn wanted(value: &Value, want: Want, prefix: &str) -> Result<(), Refusal> {
    let met = match want {
        Want::Exactly(text) => value.as_str() == Some(text),
        Want::False => *value == Value::Bool(false),
        Want::Text => value.is_string(),
        Want::Texts => value
            .as_array()
            .is_some_and(|items| items.iter().all(Value::is_string)),
        Want::Claims => return claims(value, prefix),
        Want::Primitive => {
            let name = format!("{}[]", prefix.trim_end_matches('.'));
            return claim(value, &name, true).map_err(Refusal::Inside);
        }
    };
    if met { Ok(()) } else { Err(Refusal::Unmet) }
}

/// Each entry is a claim; at the top (no prefix), `unsigned` is the group of unsigned claims.
fn claims(value: &Value, prefix: &str) -> Result<(), Refusal> {
    let object = value.as_object().ok_or(Refusal::Unmet)?;
    for (name, entry) in object {
        let checked = if prefix.is_empty() && name == "unsigned" {
            group(entry, Group::Unsigned)
        } else {
            claim(entry, &format!("{prefix}{name}"), false)
        };
        checked.map_err(Refusal::Inside)?;
    }
    Ok(())
}

fn stranger<'o>(object: &'o Map<String, Value>, allowed: &[Keyword]) -> Option<&'o str> {
    object
        .keys()
        .map(String::as_str)
        .find(|key| !allowed.iter().any(|keyword| keyword.name == *key))
}

#[cfg(test)]
#[path = "schema_shape_tests.rs"]
mod tests;
