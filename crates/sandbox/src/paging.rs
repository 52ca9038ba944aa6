//! The list envelope `{next:{page}, count, items}` and its `page`/`limit` query parameters.
//!
//! Cursors are opaque to clients (base64 of an offset and the page size) so that a client cannot
//! start relying on them being numbers. The service wants a cursor followed with the filters
//! and `limit` it was made with; a cursor here keeps the page size it was made with, whatever
//! `limit` comes with it, so a client that asks for other pages that way gets pages it did not
//! expect, as it might from the service. The default page size is small on purpose: lazy paging in the client
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
pub(crate) fn parse_limit(query: &HashMap<String, String>) -> Result<usize, ApiError> {
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

/// Where a page starts and how many items it holds: the first page of `limit` items without a
/// `page` cursor, else the cursor's offset and page size (`limit` is still checked).
pub(crate) fn parse_position(query: &HashMap<String, String>) -> Result<Position, ApiError> {
    let limit = parse_limit(query)?;
    let Some(cursor) = query.get("page") else {
        return Ok(Position { offset: 0, limit });
    };
    decode_cursor(cursor).ok_or_else(|| ApiError::bad_request("Invalid \"page\" cursor"))
}

/// One page's place in a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Position {
    pub offset: usize,
    pub limit: usize,
}

fn encode_cursor(position: Position) -> String {
    URL_SAFE_NO_PAD.encode(format!(
        "offset:{}:limit:{}",
        position.offset, position.limit
    ))
}

fn decode_cursor(cursor: &str) -> Option<Position> {
    let bytes = URL_SAFE_NO_PAD.decode(cursor.trim()).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let (offset, limit) = text.strip_prefix("offset:")?.split_once(":limit:")?;
    let limit = limit
        .parse()
        .ok()
        .filter(|limit| (1..=MAX_LIMIT).contains(limit))?;
    Some(Position {
        offset: offset.parse().ok()?,
        limit,
    })
}

/// Cuts one page out of `items` and wraps it in the envelope. `count` is the total.
pub(crate) fn envelope(
    items: Vec<Value>,
    query: &HashMap<String, String>,
    faults: &Faults,
) -> Result<Value, ApiError> {
    let count = items.len();
    let window = page_window(count, query)?;
    let page: Vec<Value> = items
        .into_iter()
        .skip(window.start)
        .take(window.len())
        .collect();
    envelope_of_page(page, count, query, faults)
}

/// The positions of the requested page among `count` items. Lets a route render only the
/// items of one page when rendering them is costly (2,000 comments of the big demo).
pub(crate) fn page_window(
    count: usize,
    query: &HashMap<String, String>,
) -> Result<std::ops::Range<usize>, ApiError> {
    let Position { offset, limit } = parse_position(query)?;
    Ok(offset.min(count)..offset.saturating_add(limit).min(count))
}

/// Wraps one page, already cut by [`page_window`], in the envelope. `count` is the total.
pub(crate) fn envelope_of_page(
    mut page: Vec<Value>,
    count: usize,
    query: &HashMap<String, String>,
    faults: &Faults,
) -> Result<Value, ApiError> {
    let Position { offset, limit } = parse_position(query)?;
    let end = offset.saturating_add(limit).min(count);
    let mut count_value = json!(count);
    if faults.odd_counts {
        oddities::bend_counts(&mut page);
        if !page.is_empty() {
            page.insert(page.len() / 2, oddities::unreadable_item());
        }
        count_value = oddities::odd(count);
    }
    // Moved in, not through `json!`, which would copy every item of the page.
    let mut body = serde_json::Map::new();
    body.insert("count".to_string(), count_value);
    body.insert("items".to_string(), Value::Array(page));
    let next_offset = if faults.endless_next {
        Some(ENDLESS_CURSOR_OFFSET)
    } else if faults.never_ending_next {
        Some(offset.saturating_add(limit))
    } else if end < count {
        Some(end)
    } else {
        None
    };
    if let Some(next_offset) = next_offset {
        body.insert(
            "next".to_string(),
            json!({ "page": encode_cursor(Position { offset: next_offset, limit }) }),
        );
    }
    Ok(Value::Object(body))
}

/// What the `odd_counts` fault does to a page: the service's `number` counts as floats and
/// negative values, and one item no client can read.
mod oddities {
    use serde_json::{Value, json};

    /// Keys holding counts (typed `number` by the service) in any listed resource.
    const COUNT_KEYS: [&str; 12] = [
        "comments",
        "number",
        "siteSpaces",
        "replies",
        "count",
        "spaces",
        "teams",
        "sites",
        "changeRequests",
        "changeRequestsOpen",
        "changeRequestsDraft",
        "rank",
    ];

    /// Even items get float counts (`3` becomes `3.4`), odd items negative ones (`-4`), at
    /// every depth (reactions, repliers, `trial.count`).
    pub(super) fn bend_counts(items: &mut [Value]) {
        for (index, item) in items.iter_mut().enumerate() {
            bend(item, index % 2 == 0);
        }
    }

    fn bend(value: &mut Value, as_float: bool) {
        match value {
            Value::Object(fields) => {
                for (key, field) in fields.iter_mut() {
                    match field.as_u64() {
                        Some(count) if COUNT_KEYS.contains(&key.as_str()) => {
                            *field = bent(count, as_float);
                        }
                        _ => bend(field, as_float),
                    }
                }
            }
            Value::Array(values) => values.iter_mut().for_each(|inner| bend(inner, as_float)),
            _ => {}
        }
    }

    fn bent(count: u64, as_float: bool) -> Value {
        let count = i64::try_from(count).unwrap_or(i64::MAX);
        if as_float {
            json!(count as f64 + 0.4)
        } else {
            json!(-count.saturating_add(1))
        }
    }

    /// The envelope's own `count`, as a float.
    pub(super) fn odd(count: usize) -> Value {
        json!(count as f64 + 0.4)
    }

    /// An item whose `id` is not a string: unreadable as any resource.
    pub(super) fn unreadable_item() -> Value {
        json!({ "object": "unreadable", "id": 404, "title": ["not", "a", "title"] })
    }
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
        let position = Position {
            offset: 40,
            limit: 20,
        };
        assert_eq!(decode_cursor(&encode_cursor(position)), Some(position));
        assert!(parse_position(&query(&[("page", "%%%")])).is_err());
        assert!(parse_position(&query(&[("page", "bm9wZQ")])).is_err());
    }

    #[test]
    fn a_cursor_keeps_the_page_size_it_was_made_with() {
        let items: Vec<Value> = (0..45).map(|number| json!(number)).collect();
        let first = envelope(
            items.clone(),
            &query(&[("limit", "10")]),
            &Faults::default(),
        )
        .unwrap_or_default();
        let next = first["next"]["page"].as_str().unwrap_or_default();
        let second = envelope(
            items,
            &query(&[("limit", "1000"), ("page", next)]),
            &Faults::default(),
        )
        .unwrap_or_default();
        assert_eq!(second["items"], json!((10..20).collect::<Vec<_>>()));
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
