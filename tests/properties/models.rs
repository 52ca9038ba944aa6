//! Property tests for decoding every model: each model is decoded from JSON shaped
//! like what the server sends — the sandbox's own answers, with fields dropped, nulled or given
//! values of any other type — and never panics. Counts stay lenient: floats, negatives, huge
//! numbers and numeric strings in every count decode.
//!
//! The shapes come from the sandbox over loopback, so the field names are the contract's, not
//! copied from the client's models.

use crate::common::proptest_runner;
use proptest::prelude::*;
use quire::api::models::{
    AdaptiveSchema, ChangeRequest, ChangeRequestReview, Collection, Comment, CommentReply, File,
    Member, Organization, Page, PublishedSite, RequestedReviewer, Revision,
    RevisionSemanticChanges, SearchPage, ShareLink, Site, SiteSectionGroup, SiteStructure, Space,
    User,
};
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

/// One model and a decoder for it that reports only success or failure.
struct Shape {
    model: &'static str,
    sample: Value,
    decodes: fn(Value) -> bool,
}

fn decodes<T: DeserializeOwned>(value: Value) -> bool {
    serde_json::from_value::<T>(value).is_ok()
}

/// A model's name, the path of its sample, whether the sample is a list's first item, and its
/// decoder.
type Source = (&'static str, String, bool, fn(Value) -> bool);

/// Where each model's sample comes from: the path under /v1, and whether the model is one
/// item of a list answer.
fn sources() -> Vec<Source> {
    let space = demo_ids::SPACE_GETTING_STARTED;
    let change_request = format!("/spaces/{space}/change-requests/{}", demo_ids::CR_REVIEW);
    let site = format!("/orgs/{}/sites/{}", demo_ids::ACME, demo_ids::SITE_PARTNERS);
    // The docs site has section groups and a sectioned structure.
    let sectioned = format!("/orgs/{}/sites/{}", demo_ids::ACME, demo_ids::SITE_DOCS);
    // The customer portal has an adaptive schema.
    let adaptive = format!(
        "/orgs/{}/sites/{}",
        demo_ids::ACME,
        demo_ids::SITE_CUSTOMERS
    );
    vec![
        ("User", "/user".into(), false, decodes::<User>),
        (
            "Organization",
            format!("/orgs/{}", demo_ids::ACME),
            false,
            decodes::<Organization>,
        ),
        (
            "Collection",
            format!("/collections/{}", demo_ids::COLLECTION_ENGINEERING),
            false,
            decodes::<Collection>,
        ),
        ("Space", format!("/spaces/{space}"), false, decodes::<Space>),
        (
            "Revision",
            format!("/spaces/{space}/content"),
            false,
            decodes::<Revision>,
        ),
        (
            "Page (document)",
            format!("/spaces/{space}/content/page/{}", demo_ids::PAGE_QUICKSTART),
            false,
            decodes::<Page>,
        ),
        (
            "Page (markdown)",
            format!(
                "/spaces/{space}/content/page/{}?format=markdown",
                demo_ids::PAGE_QUICKSTART
            ),
            false,
            decodes::<Page>,
        ),
        (
            "File",
            format!("/spaces/{space}/content/files"),
            true,
            decodes::<File>,
        ),
        (
            "SearchPage",
            format!("/spaces/{space}/search?query=token"),
            true,
            decodes::<SearchPage>,
        ),
        (
            "Member",
            format!("/orgs/{}/members", demo_ids::ACME),
            true,
            decodes::<Member>,
        ),
        (
            "ChangeRequest",
            change_request.clone(),
            false,
            decodes::<ChangeRequest>,
        ),
        (
            "RevisionSemanticChanges",
            format!("{change_request}/changes"),
            false,
            decodes::<RevisionSemanticChanges>,
        ),
        (
            "Comment",
            format!("{change_request}/comments"),
            true,
            decodes::<Comment>,
        ),
        (
            "ChangeRequestReview",
            format!("{change_request}/reviews"),
            true,
            decodes::<ChangeRequestReview>,
        ),
        (
            "RequestedReviewer",
            format!("{change_request}/requested-reviewers"),
            true,
            decodes::<RequestedReviewer>,
        ),
        ("Site", site.clone(), false, decodes::<Site>),
        (
            "ShareLink",
            format!("{site}/share-links"),
            true,
            decodes::<ShareLink>,
        ),
        (
            "SiteSectionGroup",
            format!("{sectioned}/section-groups"),
            true,
            decodes::<SiteSectionGroup>,
        ),
        (
            "SiteStructure",
            format!("{sectioned}/structure"),
            false,
            decodes::<SiteStructure>,
        ),
        (
            "AdaptiveSchema",
            format!("{adaptive}/adaptive-schema"),
            false,
            decodes::<AdaptiveSchema>,
        ),
        (
            "PublishedSite",
            format!("{sectioned}/published"),
            false,
            decodes::<PublishedSite>,
        ),
    ]
}

async fn get(http: &reqwest::Client, base_url: &str, path: &str) -> Value {
    let response = http
        .get(format!("{base_url}/v1{path}"))
        .bearer_auth(tokens::ADMIN)
        .send()
        .await
        .expect("sandbox answers");
    assert!(
        response.status().is_success(),
        "{path}: {}",
        response.status()
    );
    response.json().await.expect("json")
}

/// Fetches one sample of every model from a sandbox; a reply stands in for the replies list
/// (its path needs a comment id).
fn shapes() -> Vec<Shape> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let sandbox = Sandbox::start(
            "127.0.0.1:0".parse().expect("address"),
            SandboxOptions::default(),
        )
        .await
        .expect("sandbox starts");
        let base_url = sandbox.base_url();
        let http = reqwest::Client::new();
        let mut shapes = Vec::new();
        for (model, path, is_list, decoder) in sources() {
            let answer = get(&http, &base_url, &path).await;
            let sample = if is_list {
                answer["items"][0].clone()
            } else {
                answer
            };
            assert!(sample.is_object(), "{model}: no sample at {path}");
            shapes.push(Shape {
                model,
                sample,
                decodes: decoder,
            });
        }
        let comments = get(
            &http,
            &base_url,
            &format!(
                "/spaces/{}/change-requests/{}/comments",
                demo_ids::SPACE_GETTING_STARTED,
                demo_ids::CR_REVIEW
            ),
        )
        .await;
        let with_replies = comments["items"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|comment| comment["replies"].as_u64().unwrap_or(0) > 0)
            .expect("a thread with replies");
        let replies = get(
            &http,
            &base_url,
            &format!(
                "/spaces/{}/change-requests/{}/comments/{}/replies",
                demo_ids::SPACE_GETTING_STARTED,
                demo_ids::CR_REVIEW,
                with_replies["id"].as_str().expect("comment id")
            ),
        )
        .await;
        shapes.push(Shape {
            model: "CommentReply",
            sample: replies["items"][0].clone(),
            decodes: decodes::<CommentReply>,
        });
        sandbox.shutdown().await;
        shapes
    })
}

/// Values of every JSON type, including the odd numbers a server may send.
fn odd_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|number| json!(number)),
        Just(json!(-1)),
        Just(json!(2.5)),
        Just(json!(1e300)),
        ".{0,12}".prop_map(Value::from),
        Just(json!("\u{1b}]52;c;SGFjaw==\u{7}")),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            proptest::collection::btree_map("[a-z]{1,6}", inner, 0..3)
                .prop_map(|map| Value::Object(map.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// What happens to one field of the sample.
#[derive(Clone, Debug)]
enum Edit {
    Keep,
    Drop,
    Replace(Value),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => Just(Edit::Keep),
        1 => Just(Edit::Drop),
        2 => odd_value().prop_map(Edit::Replace),
    ]
}

/// Applies `edits` (cycled) to every field of `value`, depth first.
fn reshape(value: &Value, edits: &[Edit], next: &mut usize) -> Value {
    match value {
        Value::Object(fields) => {
            let mut shaped = Map::new();
            for (name, field) in fields {
                let edit = &edits[*next % edits.len()];
                *next += 1;
                match edit {
                    Edit::Keep => {
                        shaped.insert(name.clone(), reshape(field, edits, next));
                    }
                    Edit::Drop => {}
                    Edit::Replace(odd) => {
                        shaped.insert(name.clone(), odd.clone());
                    }
                }
            }
            Value::Object(shaped)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| reshape(item, edits, next))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[test]
fn every_sample_decodes_as_sent() {
    for shape in shapes() {
        assert!(
            (shape.decodes)(shape.sample.clone()),
            "{} does not decode: {:#}",
            shape.model,
            shape.sample
        );
    }
}

#[test]
fn every_model_survives_any_value_in_any_field() {
    for shape in shapes() {
        proptest_runner(64)
            .run(&proptest::collection::vec(edit(), 1..64), |edits| {
                let shaped = reshape(&shape.sample, &edits, &mut 0);
                // Decoding may fail (a required field is gone); it must not panic.
                let _ = (shape.decodes)(shaped);
                Ok(())
            })
            .unwrap_or_else(|failure| panic!("{}: {failure}", shape.model));
    }
}

/// The count fields the contract types as `number`, by their JSON names.
const COUNT_FIELDS: &[&str] = &[
    "count",
    "comments",
    "replies",
    "number",
    "spaces",
    "teams",
    "changeRequests",
    "changeRequestsOpen",
    "siteSpaces",
];

/// Puts `count` in every count field of `value` that holds a number, at any depth.
fn with_counts(value: &Value, count: &Value) -> Value {
    match value {
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(name, field)| {
                    let replaced = if COUNT_FIELDS.contains(&name.as_str()) && field.is_number() {
                        count.clone()
                    } else {
                        with_counts(field, count)
                    };
                    (name.clone(), replaced)
                })
                .collect(),
        ),
        Value::Array(items) => {
            Value::Array(items.iter().map(|item| with_counts(item, count)).collect())
        }
        other => other.clone(),
    }
}

fn odd_count() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<f64>()
            .prop_filter("JSON has no NaN or infinity", |number| number.is_finite())
            .prop_map(|number| json!(number)),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1000i64..1000).prop_map(|number| json!(number.to_string())),
    ]
}

#[test]
fn counts_are_lenient_in_every_model() {
    let shapes = shapes();
    let with_a_count: Vec<&str> = shapes
        .iter()
        .filter(|shape| with_counts(&shape.sample, &json!(-1.5)) != shape.sample)
        .map(|shape| shape.model)
        .collect();
    // The property is about counts: make sure the samples carry them.
    for model in ["Space", "ChangeRequest", "Comment", "Member", "Site"] {
        assert!(
            with_a_count.contains(&model),
            "{model} sample has no count: {with_a_count:?}"
        );
    }
    for shape in shapes {
        proptest_runner(64)
            .run(&odd_count(), |count| {
                let shaped = with_counts(&shape.sample, &count);
                prop_assert!(
                    (shape.decodes)(shaped),
                    "{} fails with count {count}",
                    shape.model
                );
                Ok(())
            })
            .unwrap_or_else(|failure| panic!("{failure}"));
    }
}
