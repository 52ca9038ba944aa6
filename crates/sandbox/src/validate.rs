//! Request-body checks every area makes: a JSON object body, no unknown field, strings within
//! bounds, choices, booleans and lists of ids. Every rejection is a 400 whose message names
//! the offending field, so that a client's form can point at what to fix.

use serde_json::{Map, Value};

use crate::error::ApiError;

pub(crate) type Body = Map<String, Value>;

/// Parses a JSON object body; an empty body counts as `{}` when `optional`.
pub(crate) fn object_body(bytes: &[u8], optional: bool) -> Result<Body, ApiError> {
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
pub(crate) fn reject_unknown(body: &Body, allowed: &[&str]) -> Result<(), ApiError> {
    match body.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(key) => Err(ApiError::bad_request(format!(
            "Unknown field \"{}\": expected one of {}",
            key.escape_default(),
            allowed.join(", ")
        ))),
        None => Ok(()),
    }
}

pub(crate) fn invalid(name: &str, expected: &str) -> ApiError {
    ApiError::bad_request(format!("Invalid \"{name}\": expected {expected}"))
}

/// An optional string of `minimum..=maximum` characters.
pub(crate) fn text(
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
pub(crate) fn required_text(
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
pub(crate) fn nullable_text(
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
pub(crate) fn choice(
    body: &Body,
    name: &str,
    allowed: &[&str],
) -> Result<Option<String>, ApiError> {
    match body.get(name) {
        None => Ok(None),
        Some(Value::String(value)) if allowed.contains(&value.as_str()) => Ok(Some(value.clone())),
        Some(_) => Err(invalid(name, &format!("one of {}", allowed.join(", ")))),
    }
}

pub(crate) fn boolean(body: &Body, name: &str) -> Result<Option<bool>, ApiError> {
    match body.get(name) {
        None => Ok(None),
        Some(Value::Bool(value)) => Ok(Some(*value)),
        Some(_) => Err(invalid(name, "true or false")),
    }
}

/// An optional array of strings.
pub(crate) fn string_list(body: &Body, name: &str) -> Result<Option<Vec<String>>, ApiError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_bounds_count_characters() {
        let body = json!({ "title": "Ünï" });
        let body = body.as_object().cloned().unwrap_or_default();
        assert_eq!(text(&body, "title", 2, 3), Ok(Some("Ünï".to_string())));
        assert!(text(&body, "title", 4, 9).is_err());
    }
}
