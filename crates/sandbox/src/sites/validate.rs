//! Request-body checks for the sites endpoints. Every rejection is a 400 whose message names
//! the offending field (`"basename"`, or inside `jsonSchema` a path or a claim such as
//! `claim "plan" (array) needs items`), so that a client's form can point at what to fix.

use serde_json::{Map, Value};

use super::schema_shape;
use crate::error::ApiError;

pub type Body = Map<String, Value>;

/// Site types the contract knows (`SiteType`).
pub const SITE_TYPES: [&str; 6] = [
    "basic",
    "premium",
    "ultimate",
    "sponsored",
    "legacy-basic",
    "legacy-premium",
];
/// `SiteVisibility`.
pub const VISIBILITIES: [&str; 4] = ["public", "unlisted", "share-link", "visitor-auth"];
/// The seed's `agentsContext` values.
pub const AGENTS_CONTEXTS: [&str; 2] = ["excluded", "included"];
/// `DefaultLevel` apart from null: the member roles plus `inherit`.
pub const DEFAULT_LEVELS: [&str; 7] = [
    "admin", "create", "review", "edit", "comment", "read", "inherit",
];
/// Longest proxy origin the contract allows.
pub const MAX_PROXY_LENGTH: usize = 512;

/// Parses a JSON object body; an empty body counts as `{}` when `optional`.
pub fn object_body(bytes: &[u8], optional: bool) -> Result<Body, ApiError> {
    if optional && bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Body::new());
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::bad_request(
            "The request body must be a JSON object",
        )),
        Err(error) => Err(ApiError::bad_request(format!(
            "The request body is not valid JSON: {error}"
        ))),
    }
}

/// Rejects fields the operation does not know, so that a misspelt field is not silently lost.
pub fn reject_unknown(body: &Body, allowed: &[&str]) -> Result<(), ApiError> {
    match body.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(key) => Err(ApiError::bad_request(format!(
            "Unknown field \"{}\": expected one of {}",
            key.escape_default(),
            allowed.join(", ")
        ))),
        None => Ok(()),
    }
}

fn invalid(name: &str, expected: &str) -> ApiError {
    ApiError::bad_request(format!("Invalid \"{name}\": expected {expected}"))
}

/// An optional string of `minimum..=maximum` characters.
pub fn text(
    body: &Body,
    name: &str,
    minimum: usize,
    maximum: usize,
) -> Result<Option<String>, ApiError> {
    match body.get(name) {
        None => Ok(None),
        Some(Value::String(value)) if (minimum..=maximum).contains(&value.chars().count()) => {
            Ok(Some(value.clone()))
        }
        Some(_) => Err(invalid(
            name,
            &format!("a string of {minimum} to {maximum} characters"),
        )),
    }
}

/// Like [`text`] but the field must be present.
pub fn required_text(
    body: &Body,
    name: &str,
    minimum: usize,
    maximum: usize,
) -> Result<String, ApiError> {
    text(body, name, minimum, maximum)?.ok_or_else(|| {
        ApiError::bad_request(format!(
            "\"{name}\" is required: a string of {minimum} to {maximum} characters"
        ))
    })
}

/// An optional string that may also be null: `None` = absent, `Some(None)` = null.
pub fn nullable_text(
    body: &Body,
    name: &str,
    maximum: usize,
) -> Result<Option<Option<String>>, ApiError> {
    match body.get(name) {
        Some(Value::Null) => Ok(Some(None)),
        _ => Ok(text(body, name, 0, maximum)
            .map_err(|_| {
                invalid(
                    name,
                    &format!("a string of at most {maximum} characters or null"),
                )
            })?
            .map(Some)),
    }
}

/// An optional string from a fixed set.
pub fn choice(body: &Body, name: &str, allowed: &[&str]) -> Result<Option<String>, ApiError> {
    match body.get(name) {
        None => Ok(None),
        Some(Value::String(value)) if allowed.contains(&value.as_str()) => Ok(Some(value.clone())),
        Some(_) => Err(invalid(name, &format!("one of {}", allowed.join(", ")))),
    }
}

pub fn boolean(body: &Body, name: &str) -> Result<Option<bool>, ApiError> {
    match body.get(name) {
        None => Ok(None),
        Some(Value::Bool(value)) => Ok(Some(*value)),
        Some(_) => Err(invalid(name, "true or false")),
    }
}

/// An optional array of strings.
pub fn string_list(body: &Body, name: &str) -> Result<Option<Vec<String>>, ApiError> {
    match body.get(name) {
        None => Ok(None),
        Some(Value::Array(values)) => values
            .iter()
            .map(|value| value.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .map(Some)
            .ok_or_else(|| invalid(name, "an array of id strings")),
        Some(_) => Err(invalid(name, "an array of id strings")),
    }
}

/// `adaptiveContent`: an object `{enabled: boolean}`.
pub fn adaptive_content(body: &Body) -> Result<Option<bool>, ApiError> {
    match body.get("adaptiveContent") {
        None => Ok(None),
        Some(Value::Object(object)) => match object.get("enabled") {
            Some(Value::Bool(enabled)) if object.len() == 1 => Ok(Some(*enabled)),
            _ => Err(invalid(
                "adaptiveContent",
                "an object {\"enabled\": boolean}",
            )),
        },
        Some(_) => Err(invalid(
            "adaptiveContent",
            "an object {\"enabled\": boolean}",
        )),
    }
}

/// `defaultLevel`: a role, `inherit`, or null (`Some(None)`).
pub fn default_level(body: &Body) -> Result<Option<Option<String>>, ApiError> {
    match body.get("defaultLevel") {
        Some(Value::Null) => Ok(Some(None)),
        _ => Ok(choice(body, "defaultLevel", &DEFAULT_LEVELS)?.map(Some)),
    }
}

/// `proxy`: an origin string matching the contract's pattern, or null to remove the proxy.
pub fn proxy(body: &Body) -> Result<Option<Option<String>>, ApiError> {
    match body.get("proxy") {
        None => Ok(None),
        Some(Value::Null) => Ok(Some(None)),
        Some(Value::String(origin))
            if origin.len() <= MAX_PROXY_LENGTH && is_proxy_origin(origin) =>
        {
            Ok(Some(Some(origin.clone())))
        }
        Some(_) => Err(invalid(
            "proxy",
            "null or a host and path like \"example.com/docs\" (at most 512 characters)",
        )),
    }
}

/// `basename`: 1 to 100 characters of the service's slug alphabet (lowercase letters, digits,
/// `-` and `/`).
pub fn basename(body: &Body) -> Result<Option<String>, ApiError> {
    let value = text(body, "basename", 1, 100)?;
    match value {
        Some(name) if !is_slug(&name) => Err(invalid(
            "basename",
            "lowercase letters, digits, \"-\" and \"/\" only",
        )),
        other => Ok(other),
    }
}

fn is_slug(text: &str) -> bool {
    text.chars().all(|character| {
        character.is_ascii_lowercase()
            || character.is_ascii_digit()
            || matches!(character, '-' | '/')
    })
}

/// `[\w-]` in the contract's (ASCII) pattern.
fn is_word(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|character| character.is_ascii_alphanumeric() || matches!(character, '_' | '-'))
}

/// `^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$`: dotted host labels ending in a letters-only
/// top-level label, then one or more `/segment`s, no trailing slash.
pub fn is_proxy_origin(origin: &str) -> bool {
    let Some((host, path)) = origin.split_once('/') else {
        return false;
    };
    let labels: Vec<&str> = host.split('.').collect();
    let top_level = labels.last().copied().unwrap_or_default();
    labels.len() >= 2
        && labels.iter().all(|label| is_word(label))
        && top_level.len() >= 2
        && top_level
            .chars()
            .all(|character| character.is_ascii_alphabetic())
        && path.split('/').all(is_word)
}

/// `jsonSchema`: exactly the shape the service accepts ([`schema_shape::check`]), the reason
/// naming the offending part.
pub fn adaptive_schema(schema: &Value) -> Result<(), ApiError> {
    schema_shape::check(schema)
        .map_err(|reason| ApiError::bad_request(format!("Invalid \"jsonSchema\": {reason}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn proxy_pattern() {
        for good in [
            "example.com/docs",
            "docs.acme-robotics.example/portal/v2",
            "a_b.c-d.io/x_y",
        ] {
            assert!(is_proxy_origin(good), "{good}");
        }
        for bad in [
            "example.com",
            "example.com/",
            "example.com/docs/",
            "example/docs",
            "example.c/docs",
            "example.c0m/docs",
            "https://example.com/docs",
            "exa mple.com/docs",
            ".example.com/docs",
            "example.com//docs",
            "",
        ] {
            assert!(!is_proxy_origin(bad), "{bad}");
        }
    }

    #[test]
    fn text_bounds_count_characters() {
        let body = json!({ "title": "Ünï" });
        let body = body.as_object().cloned().unwrap_or_default();
        assert_eq!(text(&body, "title", 2, 3), Ok(Some("Ünï".to_string())));
        assert!(text(&body, "title", 4, 9).is_err());
    }
}
