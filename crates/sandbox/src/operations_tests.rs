//! The table against the routers: every route a router registers is a row, and every row a
//! route, read from the routers' own source so that a route added without its row fails here.

use std::collections::BTreeSet;
use std::path::Path;

use axum::http::Method;

use super::{Body, Reach, Verb, all, find, routed};

type Route = (String, String);

/// `{space}`, `{id}` … all read `{}`: the names differ between routers, the shape may not.
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

fn table_routes() -> BTreeSet<Route> {
    routed()
        .map(|operation| (operation.verb.as_str().to_owned(), shape(operation.path)))
        .collect()
}

fn router_sources(folder: &Path, found: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.to_string_lossy().into_owned();
        if path.is_dir() {
            router_sources(&path, found);
        } else if name.ends_with(".rs") && !name.ends_with("_tests.rs") {
            found.push(std::fs::read_to_string(&path).unwrap_or_default());
        }
    }
}

/// The text up to the parenthesis that closes the one before `text`.
fn until_closing(text: &str) -> &str {
    let mut depth = 1;
    for (index, character) in text.char_indices() {
        match character {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            return &text[..index];
        }
    }
    text
}

fn quoted(text: &str) -> Option<&str> {
    let start = text.find('"')? + 1;
    let length = text[start..].find('"')?;
    Some(&text[start..start + length])
}

/// `const NAME: &str = "…";` of the same file.
fn constant<'s>(source: &'s str, name: &str) -> Option<&'s str> {
    let declared = source.find(&format!("const {name}: &str = "))?;
    quoted(&source[declared..])
}

/// A route's path: a literal, a constant, or a helper `|suffix| format!("{PREFIX}{suffix}")`
/// called with a literal suffix.
fn route_path(source: &str, expression: &str) -> Option<String> {
    let expression = expression.trim().trim_start_matches('&');
    if expression.starts_with('"') {
        return quoted(expression).map(str::to_owned);
    }
    let Some((helper, call)) = expression.split_once('(') else {
        return constant(source, expression).map(str::to_owned);
    };
    let defined = source.find(&format!("let {helper} = "))?;
    let prefix_name = source[defined..]
        .split_once("format!(\"{")?
        .1
        .split_once('}')?
        .0;
    Some(format!(
        "{}{}",
        constant(source, prefix_name)?,
        quoted(call)?
    ))
}

fn verbs(expression: &str) -> Vec<String> {
    let mut found = Vec::new();
    for verb in ["get", "post", "put", "patch", "delete"] {
        for (at, _) in expression.match_indices(&format!("{verb}(")) {
            let before = expression[..at].chars().next_back();
            if before.is_none_or(|character| !character.is_alphanumeric() && character != '_') {
                found.push(verb.to_uppercase());
            }
        }
    }
    found
}

fn served_routes() -> BTreeSet<Route> {
    let mut sources = Vec::new();
    router_sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut sources,
    );
    let mut served = BTreeSet::new();
    for source in &sources {
        for (at, _) in source.match_indices(".route(") {
            let arguments = until_closing(&source[at + ".route(".len()..]);
            let Some((path, methods)) = arguments.split_once(',') else {
                continue;
            };
            let Some(path) = route_path(source, path) else {
                panic!("a route whose path the test cannot read: {arguments}");
            };
            let Some(relative) = path.strip_prefix("/v1") else {
                continue;
            };
            let relative = if relative.is_empty() { "/" } else { relative };
            for verb in verbs(methods) {
                served.insert((verb, shape(relative)));
            }
        }
    }
    served
}

#[test]
fn every_route_the_routers_serve_is_in_the_table_and_every_row_is_served() {
    let served = served_routes();
    let table = table_routes();
    assert!(served.len() > 100, "the routers were not read: {served:?}");
    let unlisted: Vec<_> = served.difference(&table).collect();
    assert!(
        unlisted.is_empty(),
        "served but not in the table: {unlisted:?}"
    );
    let unserved: Vec<_> = table.difference(&served).collect();
    assert!(
        unserved.is_empty(),
        "in the table but served by no router: {unserved:?}"
    );
}

#[test]
fn no_operation_is_listed_twice() {
    let shapes: BTreeSet<Route> = all()
        .map(|operation| (operation.verb.as_str().to_owned(), shape(operation.path)))
        .collect();
    assert_eq!(shapes.len(), all().count());
}

fn operation(method: Method, path: &str) -> &'static super::Operation {
    match find(&method, path) {
        Some(operation) => operation,
        None => panic!("{method} {path} is not in the table"),
    }
}

#[test]
fn the_operations_only_the_reference_defines_are_marked_so() {
    let reference_only = [
        (Method::POST, "/spaces/s1/transfer"),
        (Method::GET, "/spaces/s1/links"),
        (Method::GET, "/spaces/s1/content/page/p1/links"),
        (Method::GET, "/spaces/s1/content/page/p1/backlinks"),
        (Method::GET, "/spaces/s1/content/files/f1/backlinks"),
        (
            Method::GET,
            "/spaces/s1/change-requests/7/content/page/p1/links",
        ),
        (
            Method::GET,
            "/spaces/s1/change-requests/7/content/page/p1/backlinks",
        ),
        (
            Method::GET,
            "/spaces/s1/change-requests/7/content/files/f1/backlinks",
        ),
        (Method::DELETE, "/spaces/s1/git/legacy-installation"),
        (Method::GET, "/orgs/o1/conversations-clusters"),
        (Method::GET, "/orgs/o1/conversations"),
        (Method::POST, "/orgs/o1/conversations"),
        (Method::GET, "/orgs/o1/conversations/c1"),
        (Method::GET, "/orgs/o1/conversations-issues"),
        (Method::GET, "/orgs/o1/conversations-issues/i1"),
        (Method::POST, "/orgs/o1/sites/w1/section-groups/g1/sections"),
        (
            Method::DELETE,
            "/orgs/o1/sites/w1/section-groups/g1/sections/x1",
        ),
    ];
    for (method, path) in &reference_only {
        let row = operation(method.clone(), path);
        assert_eq!(row.reach, Reach::ReferenceOnly, "{method} {path}");
    }
    let marked = all()
        .filter(|operation| operation.reach == Reach::ReferenceOnly)
        .count();
    assert_eq!(marked, reference_only.len());
}

#[test]
fn the_calls_without_a_body_refuse_one_and_writes_need_theirs() {
    let bodiless = [
        (Method::POST, "/spaces/s1/change-requests/7/merge"),
        (Method::POST, "/spaces/s1/change-requests/7/update"),
        (Method::POST, "/orgs/o1/sites/w1/publish"),
        (Method::POST, "/orgs/o1/sites/w1/unpublish"),
        (Method::POST, "/orgs/o1/translations/t1/run"),
        (Method::POST, "/orgs/o1/join"),
        (Method::DELETE, "/spaces/s1"),
    ];
    for (method, path) in bodiless {
        assert_eq!(
            operation(method.clone(), path).body,
            Body::Refused,
            "{method} {path}"
        );
    }
    let needs_body = [
        (Method::PUT, "/orgs/o1/sites/w1/adaptive-schema"),
        (Method::PATCH, "/orgs/o1/sites/w1/sections/x1"),
        (Method::POST, "/spaces/s1/change-requests"),
    ];
    for (method, path) in needs_body {
        assert_eq!(
            operation(method.clone(), path).body,
            Body::Required,
            "{method} {path}"
        );
    }
    let body_optional = operation(Method::POST, "/orgs/o1/collections");
    assert_eq!(body_optional.body, Body::Optional);
}

#[test]
fn lookups_fill_parameters_with_one_segment_and_know_the_api_root() {
    assert_eq!(operation(Method::GET, "/").verb, Verb::Get);
    assert_eq!(operation(Method::GET, "").path, "/");
    assert!(find(&Method::GET, "/spaces//content").is_none());
    assert!(find(&Method::GET, "/spaces/s1/content/extra").is_none());
    assert!(find(&Method::HEAD, "/user").is_none());
    assert!(find(&Method::PATCH, "/user").is_none());
    let latest = operation(Method::GET, "/orgs/o1/openapi/pets/versions/latest");
    assert!(latest.path.ends_with("/versions/latest"));
    let by_id = operation(Method::GET, "/orgs/o1/openapi/pets/versions/v1");
    assert!(by_id.path.ends_with("/versions/{version}"));
}
