//! Request-body checks only the sites endpoints make: their enumerations, `adaptiveContent`,
//! `proxy`, `basename` and the adaptive schema. Every rejection is a 400 whose message names
//! the offending field (`"basename"`, or inside `jsonSchema` the place), so that a client's
//! form can point at what to fix. The checks every area makes are [`crate::validate`].

use serde_json::Value;

use super::schema_shape;
use crate::error::ApiError;
use crate::validate::{Body, choice, invalid, text};

/// Site types the contract knows (`SiteType`).
pub(crate) const SITE_TYPES: [&str; 6] = [
    "basic",
    "premium",
    "ultimate",
    "sponsored",
    "legacy-basic",
    "legacy-premium",
];
/// `SiteVisibility`.
pub(crate) const VISIBILITIES: [&str; 4] = ["public", "unlisted", "share-link", "visitor-auth"];
/// The seed's `agentsContext` values.
pub(crate) const AGENTS_CONTEXTS: [&str; 2] = ["excluded", "included"];
/// `DefaultLevel` apart from null: the member roles plus `inherit`.
pub(crate) const DEFAULT_LEVELS: [&str; 7] = [
    "admin", "create", "review", "edit", "comment", "read", "inherit",
];
/// Longest proxy origin the contract allows.
pub(crate) const MAX_PROXY_LENGTH: usize = 512;

/// `adaptiveContent`: an object `{enabled: boolean}`.
pub(crate) fn adaptive_content(body: &Body) -> Result<Option<bool>, ApiError> {
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
pub(crate) fn default_level(body: &Body) -> Result<Option<Option<String>>, ApiError> {
    match body.get("defaultLevel") {
        Some(Value::Null) => Ok(Some(None)),
        _ => Ok(choice(body, "defaultLevel", &DEFAULT_LEVELS)?.map(Some)),
    }
}

/// `proxy`: an origin string matching the contract's pattern, or null to remove the proxy.
pub(crate) fn proxy(body: &Body) -> Result<Option<Option<String>>, ApiError> {
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
pub(crate) fn basename(body: &Body) -> Result<Option<String>, ApiError> {
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
pub(crate) fn is_proxy_origin(origin: &str) -> bool {
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
pub(crate) fn adaptive_schema(schema: &Value) -> Result<(), ApiError> {
    schema_shape::check(schema)
        .map_err(|reason| ApiError::bad_request(format!("Invalid \"jsonSchema\": {reason}")))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
