//! The list envelope `{next:{page}, count, items}` and its `page`/`limit` query parameters.
//!
//! Cursors are opaque to clients (base64 of an offset) so that a client cannot start relying on
//! them being numbers. The default page size is small on purpose: lazy paging in the client
//! must really be exercised by the demo data.

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use super::Faults;
use super::error::ApiError;

/// Items per page when the request names no `limit`.
pub const DEFAULT_LIMIT: usize = 20;
/// The largest `limit` the contract allows.
pub const MAX_LIMIT: usize = 1000;

/// The cursor every list answers with while the `endless_next` fault is on.
const ENDLESS_CURSOR_OFFSET: usize = 0;

/// Reads `limit`: absent means [`DEFAULT_LIMIT`]; not a whole number, 0 or above
/// [`MAX_LIMIT`] is a 400 (a zero-sized page could never make progress).
pub fn parse_limit(query: &HashMap<String, String>) -> Result<usize, ApiError> {
    let Some(text) = query.get("limit") else {
        return Ok(DEFAULT_LIMIT);
    };
    match text.trim().parse::<i64>() {
        Ok(value) if (1..=MAX_LIMIT as i64).contains(&value) => Ok(value as usize),
        _ => Err(ApiError::bad_request(format!(
            "Invalid \"limit\": expected a whole number from 1 to {MAX_LIMIT}"
        ))),
    }
}

/// Reads the `page` cursor into an offset; absent means the first page.
pub fn parse_cursor(query: &HashMap<String, String>) -> Result<usize, ApiError> {
    let Some(cursor) = query.get("page") else {
        return Ok(0);
    };
    decode_cursor(cursor).ok_or_else(|| ApiError::bad_request("Invalid \"page\" cursor"))
}

fn encode_cursor(offset: usize) -> String {
    URL_SAFE_NO_PAD.encode(format!("offset:{offset}"))
}

fn decode_cursor(cursor: &str) -> Option<usize> {
    let bytes = URL_SAFE_NO_PAD.decode(cursor.trim()).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    text.strip_prefix("offset:")?.parse().ok()
}

/// Cuts one page out of `items` and wraps it in the envelope. `count` is the total.
pub fn envelope(
    items: Vec<Value>,
    query: &HashMap<String, String>,
    faults: &Faults,
) -> Result<Value, ApiError> {
    let limit = parse_limit(query)?;
    let offset = parse_cursor(query)?;
    let count = items.len();
    let end = offset.saturating_add(limit).min(count);
    let page: Vec<Value> = items.into_iter().skip(offset).take(limit).collect();
    let mut body = json!({ "count": count, "items": page });
    let next_offset = if faults.endless_next {
        Some(ENDLESS_CURSOR_OFFSET)
    } else if end < count {
        Some(end)
    } else {
        None
    };
    if let Some(next_offset) = next_offset {
        body["next"] = json!({ "page": encode_cursor(next_offset) });
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect()
    }

    #[test]
    fn limit_bounds() {
        assert_eq!(parse_limit(&query(&[])), Ok(DEFAULT_LIMIT));
        assert_eq!(parse_limit(&query(&[("limit", "1000")])), Ok(1000));
        for bad in ["0", "-1", "1001", "ten", "2.5", ""] {
            assert!(parse_limit(&query(&[("limit", bad)])).is_err(), "{bad}");
        }
    }

    #[test]
    fn cursor_round_trip_and_garbage() {
        assert_eq!(decode_cursor(&encode_cursor(40)), Some(40));
        assert!(parse_cursor(&query(&[("page", "%%%")])).is_err());
        assert!(parse_cursor(&query(&[("page", "bm9wZQ")])).is_err());
    }

    #[test]
    fn pages_cover_everything_once() {
        let items: Vec<Value> = (0..45).map(|number| json!(number)).collect();
        let mut seen = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut pairs = vec![("limit".to_string(), "20".to_string())];
            if let Some(cursor) = &cursor {
                pairs.push(("page".to_string(), cursor.clone()));
            }
            let body = envelope(
                items.clone(),
                &pairs.into_iter().collect(),
                &Faults::default(),
            )
            .unwrap_or_default();
            assert_eq!(body["count"], 45);
            seen.extend(body["items"].as_array().cloned().unwrap_or_default());
            match body["next"]["page"].as_str() {
                Some(next) => cursor = Some(next.to_string()),
                None => break,
            }
        }
        assert_eq!(seen, items);
    }
}
