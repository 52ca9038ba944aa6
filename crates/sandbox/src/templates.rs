//! Content templates: `POST /spaces/{space}/content/template` adds a template's pages to a
//! space's main content, or with `changeRequestId` to that change request's content (the pages
//! then reach main only when it is merged). The API has no way to list templates; the demo world
//! carries a few ([`crate::demo_ids::TEMPLATE_HOW_TO`] and the release notes) and any
//! other id is answered 404.
//!
//! Checks run in the order: space exists (404), caller may edit its content (403), body is valid
//! (400), template exists (404), change request exists (404) and is still open or a draft
//! (409). The seed answers 204 with no body.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Extension, Router};
use serde_json::Value;

use super::change_requests::content::{apply, recompute_paths};
use super::change_requests::model::{PageEdit, Status};
use super::error::ApiError;
use super::model::{Page, PageKind, Revision, Role, Space, iso};
use super::render::{file_address, slugify};
use super::world::World;
use crate::context::{Context, Shared};

/// What a valid body asks for.
#[derive(Debug, PartialEq)]
struct Application {
    template: String,
    /// Reference name → file id.
    files: BTreeMap<String, String>,
    change_request: Option<String>,
}

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new().route("/v1/spaces/{space}/content/template", post(apply_template))
}

async fn apply_template(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(space_id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let mut world = shared.world.write().await;
    let space = world
        .space(&space_id)
        .ok_or_else(|| ApiError::not_found("space", &space_id))?
        .clone();
    require_edit(&world, &space, &context.user)?;
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    let application = parse(&bytes)?;
    let template = world
        .templates
        .iter()
        .find(|template| template.id == application.template)
        .cloned()
        .ok_or_else(|| ApiError::not_found("template", &application.template))?;
    let names = file_names(&space, &application.files)?;
    let change_request = match &application.change_request {
        Some(id) => Some(open_change_request(&world, &space_id, id)?),
        None => None,
    };
    let stamp = iso(world.now());
    let pages: Vec<Page> = template
        .pages
        .iter()
        .map(|page| instance(&mut world, page, &names, &stamp))
        .collect();
    match change_request {
        Some(index) => add_to_change_request(&mut world, index, pages, &context.user, &stamp),
        None => add_to_main(&mut world, &space_id, pages, &stamp),
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Applying a template writes content: the edit role on the space, as for any edit.
fn require_edit(world: &World, space: &Space, user: &str) -> Result<(), ApiError> {
    let role =
        super::collections::content_role(world, &space.organization, user, space.parent.as_deref());
    match role {
        Some(role) if role >= Role::Edit => Ok(()),
        role => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "Applying a template to space \"{}\" needs the \"edit\" role or higher; your \
                 role is \"{}\"",
                space.id,
                role.map_or("guest", Role::as_str)
            ),
        )),
    }
}

/// `{ "id", "params"?: { "contentRefs"?: { name: { "kind": "file", "file" } } },
/// "changeRequestId"? }`, every rejection a 400 naming the field.
fn parse(bytes: &Bytes) -> Result<Application, ApiError> {
    let body: Value = serde_json::from_slice(bytes)
        .map_err(|_| ApiError::bad_request("The request body must be a JSON object"))?;
    let object = body
        .as_object()
        .ok_or_else(|| ApiError::bad_request("The request body must be a JSON object"))?;
    if let Some(unknown) = object
        .keys()
        .find(|key| !["id", "params", "changeRequestId"].contains(&key.as_str()))
    {
        return Err(ApiError::bad_request(format!(
            "Unknown field \"{unknown}\""
        )));
    }
    let template = match object.get("id").and_then(Value::as_str) {
        Some(id) if !id.trim().is_empty() => id.to_string(),
        _ => {
            return Err(ApiError::bad_request(
                "\"id\" is required: the id of the template to apply",
            ));
        }
    };
    let change_request = match object.get("changeRequestId") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) if !id.trim().is_empty() => Some(id.clone()),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"changeRequestId\": expected a change request id",
            ));
        }
    };
    Ok(Application {
        template,
        files: content_refs(object.get("params"))?,
        change_request,
    })
}

fn content_refs(params: Option<&Value>) -> Result<BTreeMap<String, String>, ApiError> {
    let refs = match params {
        None | Some(Value::Null) => return Ok(BTreeMap::new()),
        Some(Value::Object(params)) => params.get("contentRefs"),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"params\": expected an object",
            ));
        }
    };
    let refs = match refs {
        None | Some(Value::Null) => return Ok(BTreeMap::new()),
        Some(Value::Object(refs)) => refs,
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"params.contentRefs\": expected an object",
            ));
        }
    };
    let mut files = BTreeMap::new();
    for (name, reference) in refs {
        let field = format!("params.contentRefs.{name}");
        if reference.get("kind").and_then(Value::as_str) != Some("file") {
            return Err(ApiError::bad_request(format!(
                "Invalid \"{field}.kind\": expected \"file\""
            )));
        }
        let Some(file) = reference.get("file").and_then(Value::as_str) else {
            return Err(ApiError::bad_request(format!(
                "\"{field}.file\" is required: a file id"
            )));
        };
        files.insert(name.clone(), file.to_string());
    }
    Ok(files)
}

/// Reference name → the address of its file (its `downloadURL`), each file one of the
/// space's: an image of it then reads as the file in the links report, not a broken page link.
fn file_names(
    space: &Space,
    files: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>, ApiError> {
    files
        .iter()
        .map(|(name, id)| {
            let file = space.revision.files.iter().find(|file| file.id == *id);
            file.map(|file| (name.clone(), file_address(&space.id, file)))
                .ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "Invalid \"params.contentRefs.{name}.file\": space \"{}\" has no file \
                         \"{id}\"",
                        space.id
                    ))
                })
        })
        .collect()
}

/// The index of the change request, if it can still take content.
fn open_change_request(world: &World, space: &str, id: &str) -> Result<usize, ApiError> {
    let index = world
        .change_requests
        .find(space, id)
        .ok_or_else(|| ApiError::not_found("change request", id))?;
    let status = world.change_requests.items[index].status;
    if matches!(status, Status::Open | Status::Draft) {
        return Ok(index);
    }
    Err(ApiError::new(
        StatusCode::CONFLICT,
        format!(
            "Change request \"{id}\" is {}: a template can only be applied to an open or draft one",
            status.as_str()
        ),
    ))
}

/// A copy of a template page with fresh ids (a template may be applied many times), its
/// references filled in and today's dates.
fn instance(world: &mut World, page: &Page, files: &BTreeMap<String, String>, stamp: &str) -> Page {
    let mut copy = page.clone();
    copy.id = world.change_requests.new_id("pg");
    copy.slug = slugify(&copy.title);
    copy.created_at = stamp.to_string();
    copy.updated_at = stamp.to_string();
    if let PageKind::Document { markdown } = &mut copy.kind {
        *markdown = fill_references(markdown, files);
    }
    copy.children = page
        .children
        .iter()
        .map(|child| instance(world, child, files, stamp))
        .collect();
    copy
}

/// Each `{{name}}` replaced by its file's address; a line naming a reference not given goes.
fn fill_references(markdown: &str, files: &BTreeMap<String, String>) -> String {
    markdown
        .lines()
        .filter_map(|line| fill_line(line, files))
        .collect::<Vec<_>>()
        .join("\n")
}

fn fill_line(line: &str, files: &BTreeMap<String, String>) -> Option<String> {
    let mut filled = String::new();
    let mut rest = line;
    while let Some(start) = rest.find("{{") {
        let Some(length) = rest[start..].find("}}") else {
            break;
        };
        let name = rest[start + 2..start + length].trim();
        filled.push_str(&rest[..start]);
        filled.push_str(files.get(name)?);
        rest = &rest[start + length + 2..];
    }
    filled.push_str(rest);
    Some(filled)
}

fn add_to_change_request(
    world: &mut World,
    index: usize,
    pages: Vec<Page>,
    user: &str,
    stamp: &str,
) {
    let revision = world.change_requests.new_id("rev");
    let change_request = &mut world.change_requests.items[index];
    let content = apply(&change_request.base_pages, &change_request.edits, stamp);
    let at = content.len();
    for (offset, page) in pages.into_iter().enumerate() {
        change_request.edits.push(PageEdit::Create {
            page: Box::new(page),
            parent: None,
            index: at + offset,
        });
    }
    change_request.revision = revision;
    change_request.updated_at = stamp.to_string();
    if change_request.created_by != user && !change_request.editors.iter().any(|e| e == user) {
        change_request.editors.push(user.to_string());
    }
}

fn add_to_main(world: &mut World, space_id: &str, pages: Vec<Page>, stamp: &str) {
    let revision = world.change_requests.new_id("rev");
    let Some(space) = world.spaces.iter_mut().find(|space| space.id == space_id) else {
        return;
    };
    let mut tree = space.revision.pages.clone();
    tree.extend(pages);
    recompute_paths(&mut tree, "");
    let previous = std::mem::replace(
        &mut space.revision,
        Revision {
            id: revision,
            parents: Vec::new(),
            created_at: stamp.to_string(),
            git_message: None,
            pages: tree,
            files: Vec::new(),
            variables: Default::default(),
        },
    );
    space.revision.parents = vec![previous.id];
    space.revision.files = previous.files;
    space.revision.variables = previous.variables;
    space.updated_at = stamp.to_string();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_filled_and_a_missing_one_drops_its_line() {
        let files = BTreeMap::from([("shot".to_string(), "https://f/map.png".to_string())]);
        assert_eq!(
            fill_references("a\n![Shot]({{shot}})\n![Logo]({{ logo }})\nb", &files),
            "a\n![Shot](https://f/map.png)\nb"
        );
    }

    #[test]
    fn the_body_needs_an_id_and_names_a_bad_field() {
        let parsed = parse(&Bytes::from_static(
            br#"{"id":"tpl","changeRequestId":"cr","params":{"contentRefs":{"a":{"kind":"file","file":"f"}}}}"#,
        ));
        assert_eq!(
            parsed,
            Ok(Application {
                template: "tpl".into(),
                files: BTreeMap::from([("a".to_string(), "f".to_string())]),
                change_request: Some("cr".into()),
            })
        );
        let refused = |body: &'static [u8]| parse(&Bytes::from_static(body)).unwrap_err().message;
        assert!(refused(b"{}").contains("\"id\" is required"));
        assert!(refused(br#"{"id":"t","other":1}"#).contains("\"other\""));
        assert!(
            refused(br#"{"id":"t","params":{"contentRefs":{"a":{"kind":"page"}}}}"#)
                .contains("params.contentRefs.a.kind")
        );
    }
}
